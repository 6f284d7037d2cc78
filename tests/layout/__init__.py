"""Tests of the project's own layout: the package's import contract and the tests' folders."""
