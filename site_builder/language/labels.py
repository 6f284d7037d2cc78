"""The site chrome's words in each language the site is written in.

Article text is the author's; these are only the labels around it. English, Russian
and Korean ship with the package (``en.toml``, ``ru.toml``, ``ko.toml`` beside this
module); a site adds a language, or changes some words of one, with a
``[tool.site_builder.labels.LANG]`` table of the same keys. A label with a number in
it (a :class:`Count`) holds one text per CLDR plural category of its language.
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, fields
from importlib import resources

from site_builder.language.plurals import base, category

BUILT_IN = ("en", "ko", "ru")
"""The languages whose labels ship with the package."""

Table = Mapping[str, "str | Mapping[str, str]"]
"""One language's labels as TOML gives them: key → text, or key → {category → text}."""


@dataclass(frozen=True, slots=True)
class Count:
    """A label with a number: one text per CLDR plural category of its language, each
    with ``{n}`` where the number goes."""

    lang: str
    """The language whose plural rule picks the text."""
    forms: tuple[tuple[str, str], ...]
    """(category, text) pairs: ``("one", "{n} article")``, ``("other", "{n} articles")``."""

    def __str__(self) -> str:
        """The ``other`` text, ``{n}`` and all: what a template that prints the label itself
        shows, as it did when labels were format strings."""
        return dict(self.forms).get("other", "")

    def format(self, n: int) -> str:
        """The text for the count ``n``, with ``n`` in it (templates: ``.format(n=...)``)."""
        texts = dict(self.forms)
        return texts.get(category(self.lang, n), texts.get("other", "{n}")).replace("{n}", str(n))


@dataclass(frozen=True, slots=True, kw_only=True)
class Labels:
    """Every word of the chrome, for one language. A new label goes at the end, with a
    text in each of ``en.toml``, ``ru.toml`` and ``ko.toml``; annotate it ``Count`` when
    it holds a number."""

    contents: str
    """Heading of the table of contents."""
    minutes: Count
    """Reading time; ``{n}`` is the number of minutes."""
    categories: str
    """Label before an article's categories, and the categories page title."""
    category: str
    """Prefix of a category page title."""
    search: str
    """Label of the search box."""
    verified: Count
    """Heading of the note about fixtures; ``{n}`` is how many results are verified."""
    verified_none: str
    """The note when nothing in the article is backed by a fixture."""
    published: str
    """Label before the date."""
    articles: str
    """Heading of the list of articles."""
    not_found: str
    """Title of the 404 page."""
    not_found_text: str
    """Body of the 404 page."""
    home: str
    """Link back to the index."""
    feed: str
    """Link to the Atom feed."""
    skip: str
    """The skip link to the main content."""
    navigation: str
    """Name of the ordered navigation (the sidebar)."""
    previous: str
    """Link to the previous page in reading order."""
    next: str
    """Link to the next page in reading order."""
    proof_mark: str
    """The mark after each verified output; ``{fixture}`` is the fixture's name."""
    proof_fixtures: Count
    """Heading of the article's list of fixtures; ``{n}`` is how many it lists."""
    proof_results: Count
    """After a fixture in that list; ``{n}`` is how many outputs of the article it verifies."""
    draft: str
    """The mark of a draft a build includes (``--drafts``)."""
    scheduled: str
    """The mark of a revision published later (``--future``); ``{date}`` is its date."""
    article_count: Count
    """How many articles a category holds, on the categories page; ``{n}`` is the number."""
    updated: str
    """Label before the date of an article's latest revision, when it has more than one."""
    history: str
    """Heading of an article's list of revisions."""
    revision: str
    """One revision in that list; ``{n}`` is its number."""
    revision_notice: str
    """On an earlier revision's page; ``{n}`` is its number, ``{date}`` its date."""
    latest_link: str
    """Link from an earlier revision's page to the latest."""
    diff_link: str
    """Link to the page showing what a revision changed."""
    diff_title: str
    """Title of that page; ``{n}`` is the revision's number."""
    words_added: Count
    """On that page; ``{n}`` is how many words the revision added."""
    words_removed: Count
    """On that page; ``{n}`` is how many words the revision removed."""
    compared: str
    """On that page: ``{old}``, ``{old_date}``, ``{new}``, ``{new_date}``: which two revisions."""


NAMES = tuple(f.name for f in fields(Labels))
"""Every label's key, in the order of :class:`Labels`."""
COUNTS = frozenset(f.name for f in fields(Labels) if f.type == "Count")
"""The keys of the labels that hold a number."""


@functools.lru_cache(maxsize=8)
def built_in(lang: str) -> dict[str, object]:
    """The package's own table for ``lang`` (one of :data:`BUILT_IN`)."""
    text = resources.files("site_builder.language").joinpath(f"{lang}.toml").read_text("utf-8")
    return tomllib.loads(text)


def supported(tables: Mapping[str, Table]) -> tuple[str, ...]:
    """Every language the site has labels for: the package's and the site's own, sorted."""
    return tuple(sorted({*BUILT_IN, *tables}))


def has_labels(tag: str, tables: Mapping[str, Table]) -> bool:
    """Whether the chrome can be written in ``tag`` (``ru-RU`` uses ``ru``)."""
    known = {name.lower() for name in supported(tables)}
    return tag.lower() in known or base(tag) in known


def labels_for(tag: str, tables: Mapping[str, Table]) -> Labels:
    """The chrome's words for ``tag``: the package's table for its language, then the
    site's table for its language, then the site's table for the tag itself, each
    over the one before (``pt-BR`` takes ``pt``'s words and its own). Whatever is
    still missing (a settings problem already) is English."""
    found: dict[str, object] = dict(built_in("en"))
    layers: list[Mapping[str, object]] = [built_in(base(tag))] if base(tag) in BUILT_IN else []
    lowered = {name.lower(): table for name, table in tables.items()}
    layers += [lowered[name] for name in dict.fromkeys((base(tag), tag.lower())) if name in lowered]
    for layer in layers:
        found.update(layer)
    return Labels(**{name: _value(tag, name, found[name]) for name in NAMES})  # type: ignore[arg-type]


def _value(tag: str, name: str, value: object) -> str | Count:
    if name not in COUNTS:
        return str(value)
    forms = value.items() if isinstance(value, Mapping) else [("other", str(value))]
    return Count(tag, tuple((str(k), str(v)) for k, v in forms))


class Chrome:
    """One site's chrome words by language, each language's built once: what templates call
    ``labels_in(item.lang)`` to word a card in its article's language."""

    def __init__(self, tables: Mapping[str, Table]) -> None:
        self._tables = tables
        self._known: dict[str, Labels] = {}

    def __call__(self, tag: str) -> Labels:
        """The words for ``tag``."""
        if tag not in self._known:
            self._known[tag] = labels_for(tag, self._tables)
        return self._known[tag]
