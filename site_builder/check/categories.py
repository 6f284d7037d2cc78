"""Categories that are probably one category written two ways.

Two spellings that name one page (``Backend`` and ``backend``, ``back end`` and
``back-end``) are an error: the site cannot show both, and nothing is lost by
writing one. Two spellings close enough to be a typo (``Postgres`` and ``Postgre``)
are a warning: they make two pages, and some such pairs are meant (``React`` and
``Preact``), so the build goes on. Spellings that differ only in their digits
(``Python 2``, ``Python 3``; ``IPv4``, ``IPv6``) are taken as meant.

The spelling used most (the first written, on a tie) is the right one; every use of
another is reported at the line where it is written.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path

from site_builder.authoring.model import CallSite
from site_builder.errors import Problem, closest
from site_builder.model.batches import relative_to_root
from site_builder.model.layout import category_slug

Spelling = tuple[str, CallSite, str]
"""A category as written: the name, its revision's ``revision(...)`` call, and the subject
(slug) of that revision. The line of the name itself is looked up only for a problem: parsing
every batch again to find lines no problem needs was a tenth of a worker's time."""
_CUTOFF = 0.82
"""difflib's ratio above which two names are taken for one: ``Pyhton``/``Python`` (0.83) is,
``MySQL``/``MSSQL`` and ``AI``/``API`` (0.8) are not."""
_DIGITS = re.compile(r"\d+")


def locator() -> Callable[[CallSite, str], CallSite]:
    """Where a revision's category is written: the line of its string in the ``categories=[...]``
    of the ``revision(...)`` call at a site (the ``categories=`` line for a list from a
    variable; the call's line when the file cannot be read). Each file is parsed once."""
    files: dict[str, dict[int, tuple[int, dict[str, int]]]] = {}

    def written_at(site: CallSite, name: str) -> CallSite:
        if site.path not in files:
            files[site.path] = _category_lines(site.path)
        field, strings = files[site.path].get(site.line, (site.line, {}))
        return CallSite(site.path, strings.get(name, field))

    return written_at


def _category_lines(path: str) -> dict[int, tuple[int, dict[str, int]]]:
    """For each call with a ``categories=`` keyword, by the call's line: that keyword's line, and
    the line of each string of a list written there."""
    try:
        tree = ast.parse(Path(path).read_bytes(), path)
    except (OSError, SyntaxError, ValueError):
        return {}
    found: dict[int, tuple[int, dict[str, int]]] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        for keyword in (k for k in node.keywords if k.arg == "categories"):
            found[node.lineno] = (keyword.lineno, _string_lines(keyword.value))
    return found


def _string_lines(value: ast.expr) -> dict[str, int]:
    """The line of each string in a list or tuple written as ``value``; none for anything else
    (a variable, a call)."""
    items = value.elts if isinstance(value, ast.List | ast.Tuple) else []
    strings: dict[str, int] = {}
    for item in items:
        if isinstance(item, ast.Constant) and isinstance(item.value, str):
            strings.setdefault(item.value, item.lineno)
    return strings


def spelling_problems(root: Path, spellings: Iterable[Spelling]) -> list[Problem]:
    """Every use of a category spelling that another, more used one makes doubtful, at the
    line where it is written."""
    uses = list(spellings)
    counts = Counter(name for name, _, _ in uses)
    first: dict[str, CallSite] = {}
    for name, where, _ in uses:
        first.setdefault(name, where)
    right = _right_spellings(sorted(first, key=lambda n: -counts[n]))  # stable: ties by first use
    written_at = locator()
    return [
        _problem(
            root,
            (name, written_at(where, name), subject),
            right[name],
            written_at(first[right[name]], right[name]),
        )
        for name, where, subject in uses
        if name in right
    ]


def _right_spellings(names: list[str]) -> dict[str, str]:
    """For each doubtful spelling, the spelling meant; the most used come first in ``names``."""
    kept: dict[str, str] = {}  # a right spelling, casefolded, to itself
    pages: dict[str, str] = {}  # a category page to its right spelling
    meant: dict[str, str] = {}
    for name in names:
        page = category_slug(name)
        near = closest(name.casefold(), kept, _CUTOFF)
        if page in pages:
            meant[name] = pages[page]
        elif near is not None and not _only_digits_differ(near, name.casefold()):
            meant[name] = kept[near]
        else:
            kept[name.casefold()] = name
            pages[page] = name
    return meant


def _only_digits_differ(a: str, b: str) -> bool:
    return _DIGITS.sub("", a) == _DIGITS.sub("", b)


def _problem(root: Path, use: Spelling, meant: str, meant_at: CallSite) -> Problem:
    name, where, subject = use
    quoted = relative_to_root(root, meant_at.path)
    at = f"{quoted}:{meant_at.line}"
    hint = f"; did you mean {meant!r}?"
    path = relative_to_root(root, where.path)
    if category_slug(name) == category_slug(meant):
        message = f"category {name!r} and {meant!r} ({at}) name one page{hint}"
        return Problem(
            path=path,
            line=where.line,
            subject=subject,
            rule="category-same-page",
            message=message,
            quotes=(quoted,),
        )
    message = f"category {name!r} looks like {meant!r} ({at}) but makes a page of its own{hint}"
    return Problem(
        path=path,
        line=where.line,
        subject=subject,
        rule="category-spelling",
        message=message,
        severity="warning",
        quotes=(quoted,),
    )
