"""Validation: a pure pass over a loaded site that returns every problem.

Nothing here raises or stops early; each rule appends problems and the caller
decides what to do with all of them at once.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterator

from markupsafe import Markup

from .content import body_html, body_text
from .errors import Problem
from .html import forbidden_character, urls_in_html
from .loader import Site, fixture_id
from .model import Block, CallSite, Flaw, Revision
from .paths import MAX_CATEGORY_BYTES, category_slug, page_urls, resolves
from .settings import LANGUAGE_TAG
from .urls import check_url

_SLUG = re.compile(r"[a-z0-9-]{3,120}")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def validate(site: Site) -> list[Problem]:
    """Every problem of the site: loading, settings, revisions and fixture definitions."""
    problems = list(site.problems)
    pages = page_urls(
        (rev.slug for _, rev in site.revisions()),
        (c for _, rev in site.revisions() for c in rev.categories),
    )
    known_fixtures = set(site.fixtures())
    first_slug: dict[str, CallSite] = {}
    for _, rev in site.revisions():
        subject = rev.slug or "revision"
        for site_, rule, message in _revision_findings(site, rev, pages, known_fixtures):
            problems.append(
                Problem(
                    path=site.relative(site_.path),
                    line=site_.line,
                    subject=subject,
                    rule=rule,
                    message=message,
                )
            )
        if rev.slug in first_slug:
            where = first_slug[rev.slug]
            problems.append(
                Problem(
                    path=site.relative(rev.site.path),
                    line=rev.site.line,
                    subject=subject,
                    rule="slug-unique",
                    message=f"slug {rev.slug!r} is already used at {site.relative(where.path)}:{where.line}",
                )
            )
        elif rev.slug:
            first_slug[rev.slug] = rev.site
    for fid, fx in site.fixtures().items():
        problems.extend(
            Problem(
                path=site.relative(f.site.path),
                line=f.site.line,
                subject=f"fixture {fid}",
                rule=f.rule,
                message=f.message,
            )
            for f in fx.flaws
        )
    return sorted(problems, key=Problem.sort_key)


Finding = tuple[CallSite, str, str]


def _revision_findings(
    site: Site, rev: Revision, pages: frozenset[str], fixtures: set[str]
) -> Iterator[Finding]:
    yield from _flaws(rev.flaws)
    yield from _xml_characters(rev)
    yield from _metadata(rev)
    yield from _body(site, rev)
    yield from _sources(site, rev)
    assets = site.root / site.settings.assets_dir
    for where, url in _urls(rev):
        checked = check_url(url)
        if checked.error:
            yield where, "url", checked.error
        elif checked.local_path is not None and not resolves(checked.local_path, pages, assets):
            yield (
                where,
                "url-target",
                f"{url!r} is neither a file under {site.settings.assets_dir}/ nor a page of the site",
            )
    for block in rev.body:
        if isinstance(block, Block) and block.verified and fixture_id(block.verified.fixture) not in fixtures:
            yield (
                block.site,
                "verified-fixture",
                f"verified_output uses {fixture_id(block.verified.fixture)}, "
                "which is not a fixture of a batch",
            )


def _xml_characters(rev: Revision) -> Iterator[Finding]:
    """Text that would make the feed or the sitemap ill-formed, named by field."""
    fields: list[tuple[CallSite, str, str]] = [
        (rev.site, name, value)
        for name, value in (
            ("slug", rev.slug),
            ("title", rev.title),
            ("excerpt", rev.excerpt),
            ("cover", rev.cover or ""),
            ("published", rev.published),
            ("lang", rev.lang or ""),
        )
    ]
    fields += [(rev.site, f"category {n}", c) for n, c in enumerate(rev.categories, 1)]
    fields += [
        (src.site, f"source {n} {name}", str(getattr(src, name)))
        for n, src in enumerate(rev.sources, 1)
        for name in ("title", "url", "note")
    ]
    fields += [
        (block.site if isinstance(block, Block) else rev.site, f"body item {n}", str(block))
        for n, block in enumerate(rev.body, 1)
        # A helper that already named the faulty argument has said it better.
        if not (isinstance(block, Block) and any(f.rule == "xml-character" for f in block.flaws))
    ]
    for where, name, value in fields:
        if (found := forbidden_character(value)) is not None:
            yield where, "xml-character", f"{name} contains {found}"


def _flaws(flaws: tuple[Flaw, ...]) -> Iterator[Finding]:
    for flaw in flaws:
        yield flaw.site, flaw.rule, flaw.message


def _metadata(rev: Revision) -> Iterator[Finding]:
    at = rev.site
    flawed = {f.field for f in rev.flaws}
    if rev.slug and not _SLUG.fullmatch(rev.slug):
        yield at, "slug", f"slug {rev.slug!r} must be 3 to 120 characters of a-z, 0-9 and '-'"
    for name, value in (("title", rev.title), ("excerpt", rev.excerpt)):
        if not value.strip() and name not in flawed:
            yield at, "required", f"{name} must not be empty"
    if not rev.categories and "categories" not in flawed:
        yield at, "categories", "at least one category is required"
    for number, category in enumerate(rev.categories, 1):
        if not category.strip():
            yield at, "categories", f"category {number} is empty"
        elif (size := len(category_slug(category).encode("utf-8", "surrogatepass"))) > MAX_CATEGORY_BYTES:
            limit = f"at most {MAX_CATEGORY_BYTES} fit a file name"
            yield at, "categories", f"category {number} makes a URL name of {size:,} bytes; {limit}"
    if rev.published and not _is_date(rev.published):
        yield at, "published", f"published {rev.published!r} is not an ISO date like 2020-06-18"
    if rev.lang is not None and not LANGUAGE_TAG.fullmatch(rev.lang):
        yield at, "lang", f"lang {rev.lang!r} is not a language tag like 'en' or 'ru'"


def _is_date(text: str) -> bool:
    if not _DATE.fullmatch(text):
        return False
    try:
        datetime.date.fromisoformat(text)
    except ValueError:
        return False
    return True


def _body(site: Site, rev: Revision) -> Iterator[Finding]:
    for block in rev.body:
        if isinstance(block, Block):
            yield from _flaws(block.flaws)
    if "body" in {f.field for f in rev.flaws}:
        return
    chars = len(body_text(body_html(rev)))
    low, high = site.settings.min_body_chars, site.settings.max_body_chars
    if chars < low:
        yield rev.site, "body-length", f"body is {chars:,} characters; at least {low:,} are required"
    elif chars > high:
        yield rev.site, "body-length", f"body is {chars:,} characters; at most {high:,} are allowed"


def _sources(site: Site, rev: Revision) -> Iterator[Finding]:
    need = site.settings.min_sources
    if len(rev.sources) < need and "sources" not in {f.field for f in rev.flaws}:
        count = f"{len(rev.sources)} source" + ("" if len(rev.sources) == 1 else "s")
        yield rev.site, "sources-count", f"cites {count}; at least {need} are required"
    seen: set[str] = set()
    for number, source in enumerate(rev.sources, 1):
        for name in ("title", "url", "note"):
            value = getattr(source, name)
            if not isinstance(value, str) or not value.strip():
                yield source.site, "source-field", f"source {number} needs a non-empty {name}"
        if isinstance(source.url, str) and source.url.strip():
            if source.url in seen:
                yield source.site, "source-duplicate", f"source {number} repeats the URL {source.url!r}"
            seen.add(source.url)


def _urls(rev: Revision) -> Iterator[tuple[CallSite, str]]:
    if rev.cover is not None:
        yield rev.site, rev.cover
    for block in rev.body:
        if isinstance(block, Block):
            yield from ((block.site, url) for url in block.urls)
        elif isinstance(block, Markup):
            yield from ((rev.site, url) for url in urls_in_html(block))
    for source in rev.sources:
        if isinstance(source.url, str) and source.url.strip():
            yield source.site, source.url
