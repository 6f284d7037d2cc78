"""Tests of the authoring layer: the helpers' markup, escaping and Markdown."""
