"""The site's settings, ``[tool.site_builder]``: the settings themselves (``project``), the
ordered navigation (``nav``), and where a key stands in ``pyproject.toml`` (``pyproject``)."""
