"""Tests of validation: loading batches, running fixtures, the rules, and the problems they report."""
