"""CLDR plural rules, through Babel: which form of a word goes with a number.

Hand-written rules get the hard cases wrong (Russian 21 takes the form of 1, 22 the
form of 2, 11 to 14 the form of 5); Babel ships the Unicode CLDR rules for every
language, so a site in any language gets the rule its readers expect.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

LANGUAGE_TAG = re.compile(r"[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*")
"""A language tag as the site accepts it: ``en``, ``ru``, ``pt-BR``."""
CATEGORIES = ("zero", "one", "two", "few", "many", "other")
"""CLDR's plural categories, in CLDR's order; every language uses ``other``."""


def base(tag: str) -> str:
    """The language of a tag without its region or script: ``ru-RU`` → ``ru``."""
    return tag.split("-")[0].lower()


def categories(tag: str) -> tuple[str, ...]:
    """The plural categories ``tag`` uses, in CLDR order (``ru``: one, few, many, other)."""
    used = _rule(tag)[1]
    return tuple(name for name in CATEGORIES if name in used)


def category(tag: str, n: int) -> str:
    """The plural category of the count ``n`` in ``tag`` (``ru``, 22 → ``few``)."""
    return _rule(tag)[0](n)


@functools.lru_cache(maxsize=64)
def _rule(tag: str) -> tuple[Callable[[int], str], frozenset[str]]:
    """Babel's rule for ``tag``, else for its base language, else CLDR's root rule (``other``
    for every number) for a language CLDR does not know."""
    from babel.core import Locale, UnknownLocaleError  # imported when a count is first worded

    for name in dict.fromkeys((tag, base(tag))):
        try:
            rule = Locale.parse(name, sep="-").plural_form
        except (UnknownLocaleError, ValueError):
            continue
        return rule, frozenset(rule.tags) | {"other"}
    return (lambda _n: "other"), frozenset({"other"})
