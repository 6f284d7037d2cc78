"""Problems an author can fix, and the one exception type the CLI catches.

Validation never raises per item: it returns :class:`Problem` values, and the
pipeline stops once with every problem collected. :class:`SiteBuilderError` is
for what stops a command as a whole (no site found, an unknown fixture id).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

Severity = Literal["error", "warning"]
"""An error fails the command; a warning is printed and fails nothing."""


class SiteBuilderError(Exception):
    """A failure the CLI reports as a message, without a traceback."""


class UsageError(SiteBuilderError):
    """The command line itself is wrong; the CLI exits with 2."""


class UnreadableInputError(SiteBuilderError):
    """A file of the site cannot be read: the command stops; ``serve`` shows it and goes on."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Problem:
    """One thing wrong with the site, located where the author can fix it."""

    path: str
    """File relative to the site root, with forward slashes."""
    line: int
    """1-based line of the field, helper call, fixture ``def``, setting or template tag."""
    subject: str
    """The revision slug, ``fixture MODULE:FUNCTION``, ``batch MODULE``, ``settings`` or ``template``."""
    rule: str
    """A short stable name of the rule, for machine-readable output."""
    message: str
    """The rule, the value and the limit, in one sentence."""
    severity: Severity = "error"
    """``warning``: a likely mistake that is printed but fails nothing."""
    quotes: tuple[str, ...] = ()
    """Other files of the site (root-relative) whose lines the message shows: a finding the
    cache keeps holds only while they, and ``path``, are as they were."""

    def __str__(self) -> str:
        warning = "warning: " if self.severity == "warning" else ""
        return f"{self.path}:{self.line}: {self.subject}: {warning}{self.message}"

    def sort_key(self) -> tuple[str, int, str, str]:
        """Order problems by file, then line, so output is stable."""
        return (self.path, self.line, self.subject, self.message)


def errors_in(problems: Iterable[Problem]) -> list[Problem]:
    """The problems that fail a command: every one but the warnings."""
    return [problem for problem in problems if problem.severity == "error"]


CLOSE_NAMES = 0.6
"""How alike a mistyped name must be to a known one to be suggested: difflib's default, for the
short words of the tool (fields, settings, helpers, keywords)."""
CLOSE_IDS = 0.8
"""The same for names a site makes up (slugs, fixture ids): they share words and prefixes
(``first-post``, ``third-post``), so only a near copy is suggested."""


def closest(name: str, choices: Iterable[str], cutoff: float = CLOSE_NAMES) -> str | None:
    """The choice most like a mistyped ``name`` (difflib's ratio at least ``cutoff``), or None."""
    found = difflib.get_close_matches(name, sorted(set(choices)), n=1, cutoff=cutoff)
    return found[0] if found else None


def did_you_mean(name: str, choices: Iterable[str], cutoff: float = CLOSE_NAMES) -> str:
    """``; did you mean 'x'?`` naming the choice closest to ``name``; empty when none is close."""
    found = closest(name, choices, cutoff)
    return f"; did you mean {found!r}?" if found is not None else ""


def a_kind(value: object) -> str:
    """``a str``, ``an int``: the type of ``value`` with its article, for messages."""
    name = type(value).__name__
    return ("an " if name[:1].lower() in "aeiou" else "a ") + name
