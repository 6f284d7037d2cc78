"""The tests of site_builder, one folder per role of the package (``docs/architecture.md``), and
the folders of what meets across roles: ``browser/`` (a real Chromium) and ``whole_site/``."""
