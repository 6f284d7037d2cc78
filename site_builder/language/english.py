"""How the command line words a count. The command line speaks English whatever the
site's language, and a count takes English's CLDR plural form: ``1 revision``,
``0 revisions``, ``21 revisions``."""

from __future__ import annotations


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and the noun in the form that goes with it: ``1 problem``, ``2 problems``,
    ``5,000 characters`` (thousands separated by commas)."""
    return f"{n:,} {agree(n, noun, plural or noun + 's')}"


def agree(n: int, one: str, other: str) -> str:
    """``one`` or ``other``, whichever goes with the count ``n`` (``is`` / ``are``): ``one`` for
    1 alone. That is CLDR's English rule for a whole number (``one: i = 1 and v = 0``), which
    ``tests/language/test_plurals.py`` holds to Babel's; asking Babel for it loads its English
    data, 13 ms of every command that prints a count."""
    return one if n == 1 else other


def limit(bound: str, n: int, verb: str) -> str:
    """A limit that agrees with its number: ``at least 5,000 are required``, ``at most 1 is
    allowed``."""
    return f"{bound} {n:,} {agree(n, 'is', 'are')} {verb}"
