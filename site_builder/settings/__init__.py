"""The site's settings, ``[tool.site_builder]``: the settings themselves (``project``), how a
key is declared and read (``options``) and what its value must be (``checks``), the ordered
navigation (``nav``), and where a key stands in ``pyproject.toml`` (``pyproject``)."""
