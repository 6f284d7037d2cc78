"""The settings file, ``pyproject.toml``: its name, the line of a key of its
``[tool.site_builder]`` table, and a problem of the settings at one of its lines."""

from __future__ import annotations

import re

from site_builder.errors import Problem

PYPROJECT = "pyproject.toml"
TABLE = re.compile(r"^\[tool\.site_builder[\].]", re.MULTILINE)
"""The header of ``[tool.site_builder]`` or of one of its sub-tables."""


def line_of(lines: list[str], key: str, table: int = 0) -> int:
    """The line of ``key`` inside [tool.site_builder] (or the table whose header is at line ``table``),
    or of the header."""
    header = table or next((n for n, text in enumerate(lines, 1) if TABLE.match(text)), 1)
    # ``key = …``, ``key.sub = …`` or a table of its own: ``[tool.site_builder.key]``.
    pattern = re.compile(rf"\s*({re.escape(key)}\s*[=.]|\[\[?tool\.site_builder\.{re.escape(key)}\])")
    for number in range(header + 1, len(lines) + 1):
        text = lines[number - 1]
        if text.lstrip().startswith("[") and (table or not TABLE.match(text)):
            break
        if key and pattern.match(text):
            return number
    return header


def problem(line: int, rule: str, message: str) -> Problem:
    """A problem of the settings at ``line`` of ``pyproject.toml``."""
    return Problem(path=PYPROJECT, line=line, subject="settings", rule=rule, message=message)
