"""The rules of one revision's own fields: slug, title, excerpt, categories, date and
language, body length, sources, and characters XML forbids, each problem at the line
that wrote the field.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Set

from site_builder.authoring.body import body_html, body_text
from site_builder.authoring.escaping import forbidden_character
from site_builder.authoring.model import Block, CallSite, Flaw, Revision, Source
from site_builder.errors import closest
from site_builder.language.english import count, limit
from site_builder.language.labels import has_labels
from site_builder.language.tables import language_message
from site_builder.model.layout import MAX_CATEGORY_BYTES, category_slug
from site_builder.model.moments import EXAMPLE_TIME, is_date, is_moment
from site_builder.settings.project import LANGUAGE_TAG, Settings

SLUG = re.compile(r"[a-z0-9-]{3,120}")
"""The slug rule: 3 to 120 characters of a-z, 0-9 and ``-``."""

Finding = tuple[CallSite, str, str]
"""(where, rule, message) of one problem of a revision."""


def revision_findings(settings: Settings, rev: Revision) -> Iterator[Finding]:
    """Every problem of one revision's own fields, the flaws its helpers recorded first."""
    yield from _flaws(rev.flaws)
    yield from _xml_characters(rev)
    yield from _metadata(rev)
    yield from _revised(rev)
    yield from _language(settings, rev)
    yield from _body(settings, rev)
    yield from _sources(settings, rev)


_Text = tuple[CallSite | str, str, str]
"""(where: a call site or the revision's field, name in a message, value) of one text."""


def _xml_characters(rev: Revision) -> Iterator[Finding]:
    """Text that would make the feed or the sitemap ill-formed, named by field, at its line."""
    for where, name, value in [*_field_texts(rev), *_body_texts(rev)]:
        if (found := forbidden_character(value)) is not None:
            yield (
                rev.at(where) if isinstance(where, str) else where,
                "xml-character",
                f"{name} contains {found}",
            )


def _field_texts(rev: Revision) -> list[_Text]:
    """The texts of a revision's fields, its categories and its sources."""
    fields: list[_Text] = [
        (name, name, value)
        for name, value in (
            ("slug", rev.slug),
            ("title", rev.title),
            ("excerpt", rev.excerpt),
            ("cover", rev.cover or ""),
            ("published", rev.published),
            ("lang", rev.lang or ""),
            ("revised", rev.revised or ""),
            ("changes", rev.changes or ""),
        )
    ]
    fields += [("categories", f"category {n}", c) for n, c in enumerate(rev.categories, 1)]
    fields += [
        (src.site, f"source {n} {name}", str(getattr(src, name)))
        for n, src in rev.numbered_sources()
        for name in _SOURCE_KEYWORDS
    ]
    return fields


def _body_texts(rev: Revision) -> list[_Text]:
    """The text of each body item, but of those whose helper already named the faulty
    argument: it has said it better."""
    return [
        (block.site if isinstance(block, Block) else "body", f"body item {n}", str(block))
        for n, block in enumerate(rev.body, 1)
        if not (isinstance(block, Block) and any(f.rule == "xml-character" for f in block.flaws))
    ]


def _flaws(flaws: tuple[Flaw, ...]) -> Iterator[Finding]:
    for flaw in flaws:
        yield flaw.site, flaw.rule, flaw.message


def _metadata(rev: Revision) -> Iterator[Finding]:
    at = rev.at
    flawed = {f.field for f in rev.flaws}
    yield from _required(rev, flawed)
    if rev.slug.strip() and not SLUG.fullmatch(rev.slug):
        yield at("slug"), "slug", f"slug {rev.slug!r} must be 3 to 120 characters of a-z, 0-9 and '-'"
    yield from _category_names(rev, flawed)
    if rev.published.strip() and not is_date(rev.published):
        yield at("published"), "published", f"published {rev.published!r} is not an ISO date like 2020-06-18"
    if rev.lang is not None and not LANGUAGE_TAG.fullmatch(rev.lang):
        yield at("lang"), "lang", f"lang {rev.lang!r} is not a language tag like 'en' or 'ru'"


def _required(rev: Revision, flawed: Set[str]) -> Iterator[Finding]:
    """Each empty field of those a page needs, unless its helper already said what is wrong."""
    # An empty slug or date would pass every other rule and break only the pages built from it.
    named = (("slug", rev.slug), ("title", rev.title), ("excerpt", rev.excerpt), ("published", rev.published))
    for name, value in named:
        if not value.strip() and name not in flawed:
            yield rev.at(name), "required", f"{name} must not be empty"


def _category_names(rev: Revision, flawed: Set[str]) -> Iterator[Finding]:
    """No category, an empty one, or one whose URL name is too long for a file name."""
    at = rev.at
    if not rev.categories and "categories" not in flawed:
        yield at("categories"), "categories", "at least one category is required"
    for number, category in enumerate(rev.categories, 1):
        if not category.strip():
            yield at("categories"), "categories", f"category {number} is empty"
        elif (size := len(category_slug(category).encode("utf-8", "surrogatepass"))) > MAX_CATEGORY_BYTES:
            limit = f"at most {MAX_CATEGORY_BYTES} fit a file name"
            yield (
                at("categories"),
                "categories",
                f"category {number} makes a URL name of {size:,} bytes; {limit}",
            )


def _revised(rev: Revision) -> Iterator[Finding]:
    """A later revision's own date and its note of changes (how they tie to the earlier
    revisions is :mod:`.history`'s)."""
    if rev.revised is not None and not is_moment(rev.revised):
        message = (
            f"revised {rev.revised!r} is not an ISO date like 2026-12-01, "
            f"nor a date and time like 2026-12-01{EXAMPLE_TIME}"
        )
        yield rev.at("revised"), "revised", message
    if rev.changes is not None and not rev.changes.strip():
        yield (
            rev.at("changes"),
            "changes",
            "changes must say what this revision changed and why; it is empty",
        )


def _language(settings: Settings, rev: Revision) -> Iterator[Finding]:
    """A revision's language is one the chrome can be written in."""
    tag = rev.lang
    if tag is not None and LANGUAGE_TAG.fullmatch(tag) and not has_labels(tag, settings.labels):
        yield rev.at("lang"), "lang", language_message("lang", tag, settings.labels)


def _body(settings: Settings, rev: Revision) -> Iterator[Finding]:
    for block in rev.body:
        if isinstance(block, Block):
            yield from _flaws(block.flaws)
    if "body" in {f.field for f in rev.flaws}:
        return
    chars = len(body_text(body_html(rev)))
    low, high = settings.min_body_chars, settings.max_body_chars
    body = f"body is {count(chars, 'character')}"
    if chars < low:
        yield rev.at("body"), "body-length", f"{body}; {limit('at least', low, 'required')}"
    elif chars > high:
        yield rev.at("body"), "body-length", f"{body}; {limit('at most', high, 'allowed')}"


def _sources(settings: Settings, rev: Revision) -> Iterator[Finding]:
    need = settings.min_sources
    if len(rev.sources) < need and "sources" not in {f.field for f in rev.flaws}:
        cites = f"cites {count(len(rev.sources), 'source')}"
        yield rev.at("sources"), "sources-count", f"{cites}; {limit('at least', need, 'required')}"
    seen: set[str] = set()
    for number, source in rev.numbered_sources():
        yield from _source_fields(number, source)
        if isinstance(source.url, str) and source.url.strip():
            if source.url in seen:
                yield source.site, "source-duplicate", f"source {number} repeats the URL {source.url!r}"
            seen.add(source.url)


_SOURCE_FIELDS = ("title", "url", "note")
"""The fields every source needs."""
_SOURCE_KEYWORDS = (*_SOURCE_FIELDS, "quote")
"""Every keyword a source takes: ``quote`` may be left out."""


def _source_fields(number: int, source: Source) -> Iterator[Finding]:
    """Each keyword of source ``number`` it does not have, and each field empty or not text
    (but one a misspelt keyword was meant for: that mistake is said once)."""
    meant = set()
    for name in source.unknown:
        close = closest(name, _SOURCE_KEYWORDS)
        meant.add(close)
        hint = f"; did you mean {close!r}?" if close else f"; a source has {', '.join(_SOURCE_KEYWORDS)}"
        yield source.site, "source-field", f"source {number} has no field {name!r}{hint}"
    for name in _SOURCE_FIELDS:
        value = getattr(source, name)
        if name not in meant and (not isinstance(value, str) or not value.strip()):
            yield source.site, "source-field", f"source {number} needs a non-empty {name}"
    yield from _source_quote(number, source)


def _source_quote(number: int, source: Source) -> Iterator[Finding]:
    """A quote that is given but is no text, or only spaces (left out, it is no quote)."""
    quote = source.quote
    if not isinstance(quote, str):
        yield source.site, "source-field", f"source {number} quote must be text, not {type(quote).__name__}"
    elif quote and not quote.strip():
        yield (
            source.site,
            "source-field",
            f"source {number} quote is only spaces; leave quote out to quote nothing",
        )
