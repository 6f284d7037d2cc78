"""The ordered navigation, ``[[tool.site_builder.nav]]``: its sections and pages, read and
checked, every problem at its line of ``pyproject.toml``."""

from __future__ import annotations

import re
from dataclasses import dataclass

from site_builder.errors import Problem, did_you_mean
from site_builder.settings.pyproject import line_of, problem

_NAV_TABLE = re.compile(r"^\[\[tool\.site_builder\.nav\]\]", re.MULTILINE)


@dataclass(frozen=True, slots=True)
class NavPage:
    """One entry of the ordered navigation: an article and the words that link to it."""

    slug: str
    """The article's slug."""
    title: str
    """The link text (may be shorter than the article's title)."""
    line: int
    """Line of ``pyproject.toml`` that names it, for problems."""


@dataclass(frozen=True, slots=True)
class NavSection:
    """A titled group of the ordered navigation."""

    title: str
    """Shown above its pages."""
    pages: tuple[NavPage, ...]
    """In reading order."""


def read_nav(value: list[object], lines: list[str]) -> tuple[tuple[NavSection, ...], list[Problem]]:
    """The ``[[tool.site_builder.nav]]`` tables: each a ``section`` title and its
    ``pages``, pairs of ``[slug, link text]`` in reading order."""
    headers = [n for n, text in enumerate(lines, 1) if _NAV_TABLE.match(text)]
    sections: list[NavSection] = []
    problems: list[Problem] = []
    for index, table in enumerate(value):
        start = headers[index] if index < len(headers) else line_of(lines, "nav")
        section, found = _section(table, lines, start)
        problems += found
        if section is not None:
            sections.append(section)
    return tuple(sections), problems


def _section(table: object, lines: list[str], start: int) -> tuple[NavSection | None, list[Problem]]:
    """One nav table, whose header is at line ``start`` (None when it is not a section at all)."""
    if not isinstance(table, dict) or set(table) != {"section", "pages"}:
        return None, _nav_keys(table, lines, start)
    title, pages = table["section"], table["pages"]
    if not isinstance(title, str) or not title.strip() or not isinstance(pages, list):
        message = "a nav 'section' is a non-empty string and its 'pages' a list"
        return None, [problem(start, "settings-nav", message)]
    entries, problems = [], []
    for entry in pages:
        line = _line_after(lines, start, entry)
        if _is_pair(entry):
            entries.append(NavPage(str(entry[0]), str(entry[1]), line))
        else:
            message = f'a nav page is a pair ["slug", "link text"], not {entry!r}'
            problems.append(problem(line, "settings-nav", message))
    return NavSection(title, tuple(entries)), problems


def _nav_keys(table: object, lines: list[str], start: int) -> list[Problem]:
    """Each unknown key of a nav table at its line, with the key it is closest to (else the keys it lacks)."""
    known, problems = ("section", "pages"), []
    for key in (k for k in table if k not in known) if isinstance(table, dict) else ():
        hint = did_you_mean(key, known) or "; it takes a 'section' title and a 'pages' list"
        message = f"unknown key {key!r} in [[tool.site_builder.nav]]{hint}"
        problems.append(problem(line_of(lines, key, start), "settings-nav", message))
    message = "each [[tool.site_builder.nav]] needs exactly a 'section' title and a 'pages' list"
    return problems or [problem(start, "settings-nav", message)]


def _is_pair(entry: object) -> bool:
    return (
        isinstance(entry, list)
        and len(entry) == 2
        and all(isinstance(part, str) and part.strip() for part in entry)
    )


def _line_after(lines: list[str], start: int, entry: object) -> int:
    """The first line from ``start`` on that quotes the entry's slug (else ``start``)."""
    slug = entry[0] if isinstance(entry, list) and entry else entry
    quoted = (f'"{slug}"', f"'{slug}'")
    return next(
        (n for n in range(start, len(lines) + 1) if any(q in lines[n - 1] for q in quoted)),
        start,
    )
