"""Tests of the build pipeline: the built site, its atomic write, the cache and the site lock."""
