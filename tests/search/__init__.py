"""Tests of the search index: Pagefind's shards over the staged site."""
