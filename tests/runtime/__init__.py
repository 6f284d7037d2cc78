"""Tests of process plumbing: interrupts and pickled cache state."""
