"""Tests of ``site-builder init`` and ``new``: the starter site and a revision skeleton."""
