"""Whole sites, where features meet: every feature at once, the repository's own site and docs,
the golden copy, the valid and invalid sites, hostile input through a whole build."""
