"""Tests of ``site-builder serve``: a real process, real HTTP, real file edits."""
