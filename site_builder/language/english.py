"""How the command line words a count. The command line speaks English whatever the
site's language, and a count takes English's CLDR plural form: ``1 revision``,
``0 revisions``, ``21 revisions``."""

from __future__ import annotations

from site_builder.language.plurals import category


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and the noun in the form that goes with it: ``1 problem``, ``2 problems``,
    ``5,000 characters`` (thousands separated by commas)."""
    return f"{n:,} {agree(n, noun, plural or noun + 's')}"


def agree(n: int, one: str, other: str) -> str:
    """``one`` or ``other``, whichever goes with the count ``n`` (``is`` / ``are``)."""
    return one if category("en", n) == "one" else other


def limit(bound: str, n: int, verb: str) -> str:
    """A limit that agrees with its number: ``at least 5,000 are required``, ``at most 1 is
    allowed``."""
    return f"{bound} {n:,} {agree(n, 'is', 'are')} {verb}"
