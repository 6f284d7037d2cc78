"""Tests of rendering: pages, feeds, revisions, drafts, images, sharing and sub-paths."""
