"""Tests of the command line: exit codes, output and usage errors."""
