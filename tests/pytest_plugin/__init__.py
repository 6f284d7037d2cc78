"""Tests of the pytest plugin: a site's revisions and fixtures as test items."""
