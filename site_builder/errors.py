"""Problems an author can fix, and the one exception type the CLI catches.

Validation never raises per item: it returns :class:`Problem` values, and the
pipeline stops once with every problem collected. :class:`SiteBuilderError` is
for what stops a command as a whole (no site found, an unknown fixture id).
"""

from __future__ import annotations

from dataclasses import dataclass


class SiteBuilderError(Exception):
    """A failure the CLI reports as a message, without a traceback."""


class UsageError(SiteBuilderError):
    """The command line itself is wrong; the CLI exits with 2."""


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

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.subject}: {self.message}"

    def sort_key(self) -> tuple[str, int, str, str]:
        """Order problems by file, then line, so output is stable."""
        return (self.path, self.line, self.subject, self.message)


def a_kind(value: object) -> str:
    """``a str``, ``an int``: the type of ``value`` with its article, for messages."""
    name = type(value).__name__
    return ("an " if name[:1].lower() in "aeiou" else "a ") + name
