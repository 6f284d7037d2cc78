"""Tests of the site's settings: each key of [tool.site_builder] declared once, read and checked."""
