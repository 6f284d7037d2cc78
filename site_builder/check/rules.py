"""Validation: a pure pass over a loaded site that returns every problem.

Nothing here raises or stops early; each rule appends problems and the caller
decides what to do with all of them at once.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from markupsafe import Markup

from site_builder.authoring.body import body_html, body_text, content_html
from site_builder.authoring.escaping import forbidden_character, urls_in_html
from site_builder.authoring.model import Block, CallSite, Flaw, Revision
from site_builder.check.categories import Spelling, locator, spelling_problems
from site_builder.check.claims import Claim, as_json
from site_builder.check.fragments import FragmentLink, content_ids, fragment_link, page_problems
from site_builder.check.images import image_problems, shown_images
from site_builder.check.load import Batch, fixture_id, relative_to_root
from site_builder.check.schedule import Timing
from site_builder.check.site_layout import MAX_CATEGORY_BYTES, article_url, category_slug, page_urls, resolves
from site_builder.check.url_policy import check_url
from site_builder.errors import Problem
from site_builder.language.english import count, limit
from site_builder.language.labels import has_labels
from site_builder.language.tables import language_message
from site_builder.settings import LANGUAGE_TAG, Settings
from site_builder.settings_file import PYPROJECT

SLUG = re.compile(r"[a-z0-9-]{3,120}")
"""The slug rule: 3 to 120 characters of a-z, 0-9 and ``-``."""
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


@dataclass(frozen=True, slots=True)
class Refs:
    """What one batch says about the rest of the site, checked once every batch is in.

    Everything else about a batch is judged by :func:`batch_problems` alone, so a
    build can keep those problems with the batch and redo only this cheap part.
    """

    slugs: tuple[tuple[str, CallSite], ...]
    """Every revision's slug and the line of its ``slug=``, in list order."""
    categories: tuple[str, ...]
    """Every revision's categories."""
    links: tuple[tuple[CallSite, str, str, str], ...]
    """Site-relative URLs: (where, subject, URL as written, decoded path)."""
    uses: tuple[tuple[CallSite, str, str], ...]
    """``verified_output`` blocks: (where, subject, fixture id)."""
    claims: tuple[Claim, ...]
    """Every ``verified_output`` block; only the sound ones are judged against their fixture."""
    fixtures: tuple[tuple[str, CallSite], ...]
    """The fixtures the batch defines: id, and the line of its ``def``."""
    timings: tuple[Timing, ...] = ()
    """Every revision's draft flag, date and categories, in list order (as ``slugs``): what
    decides whether a build publishes it."""
    fragments: tuple[FragmentLink, ...] = ()
    """Links to a ``#fragment`` of a page of the site."""
    ids: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """Each article page's site path, and the ids its content gives it."""
    spellings: tuple[Spelling, ...] = ()
    """Every revision's categories as written: name, line, slug (for near-duplicates)."""
    images: tuple[tuple[CallSite, str, str], ...] = ()
    """Images its pages show (covers, ``<img>`` in the body): (where, subject, URL as written)."""


def batch_problems(root: Path, settings: Settings, batch: Batch) -> tuple[list[Problem], Refs]:
    """The problems one batch has on its own, and what the site-wide rules need of it."""
    problems: list[Problem] = []
    slugs: list[tuple[str, CallSite]] = []
    categories: list[str] = []
    links: list[tuple[CallSite, str, str, str]] = []
    uses: list[tuple[CallSite, str, str]] = []
    claims: list[Claim] = []
    fragments: list[FragmentLink] = []
    ids: list[tuple[str, tuple[str, ...]]] = []
    spellings: list[Spelling] = []
    images: list[tuple[CallSite, str, str]] = []
    written_at = locator()
    for rev in batch.revisions:
        subject = rev.slug or "revision"
        spellings += [(c, written_at(rev.site, c), subject) for c in rev.categories if c.strip()]
        images += ((where, subject, url) for where, url in shown_images(rev))
        for where, rule, message in _revision_findings(settings, rev):
            problems.append(_problem(root, where, subject, rule, message))
        slugs.append((rev.slug, rev.at("slug")))
        categories += rev.categories
        label = settings.sources_label(rev.lang or settings.language)
        shown = [fixture_id(b.verified.fixture) for b in rev.body if isinstance(b, Block) and b.verified]
        ids.append((article_url(rev.slug), content_ids(content_html(rev, label), shown)))
        for where, url in _urls(rev):
            checked = check_url(url)
            if checked.error:
                problems.append(_problem(root, where, subject, "url", checked.error))
                continue
            if checked.local_path is not None:
                links.append((where, subject, url, checked.local_path))
            if "#" in url and (link := fragment_link(where, subject, url, rev.slug)) is not None:
                fragments.append(link)
        for block in rev.body:
            if isinstance(block, Block) and block.verified:
                fid = fixture_id(block.verified.fixture)
                uses.append((block.site, subject, fid))
                expected = as_json(block.verified.expected)
                claims.append(Claim(block.site, rev.slug, fid, expected, sound=not block.flaws))
    fixtures = {fixture_id(fx): fx for fx in batch.fixtures}
    for fid, fx in fixtures.items():
        problems += [_problem(root, f.site, f"fixture {fid}", f.rule, f.message) for f in fx.flaws]
    defined = tuple((fid, fx.site) for fid, fx in fixtures.items())
    timings = tuple(Timing(rev.draft, rev.published, rev.categories) for rev in batch.revisions)
    refs = Refs(
        tuple(slugs),
        tuple(categories),
        tuple(links),
        tuple(uses),
        tuple(claims),
        defined,
        timings=timings,
        fragments=tuple(fragments),
        ids=tuple(ids),
        spellings=tuple(spellings),
        images=tuple(images),
    )
    return problems, refs


def site_problems(root: Path, settings: Settings, parts: Sequence[Refs]) -> list[Problem]:
    """The rules that need every batch: unique slugs, links to pages and to ``#fragment``s,
    fixtures that exist, and the literal links of the site's own templates."""
    problems = []
    pages = page_urls((s for p in parts for s, _ in p.slugs), (c for p in parts for c in p.categories))
    known = {fid for part in parts for fid, _ in part.fixtures}
    assets = root / settings.assets_dir
    first_slug: dict[str, CallSite] = {}
    resolved: dict[str, bool] = {}
    for part in parts:
        for slug, at in part.slugs:
            if slug in first_slug:
                where = first_slug[slug]
                message = (
                    f"slug {slug!r} is already used at {relative_to_root(root, where.path)}:{where.line}"
                )
                problems.append(_problem(root, at, slug or "revision", "slug-unique", message))
            elif slug:
                first_slug[slug] = at
        for at, subject, url, path in part.links:
            if path not in resolved:  # many revisions link the same pages and files
                resolved[path] = resolves(path, pages, assets)
            if not resolved[path]:
                message = f"{url!r} is neither a file under {settings.assets_dir}/ nor a page of the site"
                problems.append(_problem(root, at, subject, "url-target", message))
        for at, subject, fid in part.uses:
            if fid not in known:
                message = f"verified_output uses {fid}, which is not a fixture of a batch"
                problems.append(_problem(root, at, subject, "verified-fixture", message))
    problems.extend(nav_problems(settings, first_slug))
    problems.extend(spelling_problems(root, (use for part in parts for use in part.spellings)))
    problems.extend(image_problems(root, settings, (image for part in parts for image in part.images)))
    articles = {page: ids for part in parts for page, ids in part.ids}
    links = [link for part in parts for link in part.fragments]
    return problems + page_problems(root, settings, links, articles, pages)


def nav_problems(settings: Settings, slugs: Iterable[str]) -> list[Problem]:
    """Every page of the ordered navigation is an article of the site, listed once."""
    known = set(slugs)
    seen: set[str] = set()
    problems = []
    for page in (page for section in settings.nav for page in section.pages):
        if page.slug not in known:
            message = f"nav lists {page.slug!r}, which is not the slug of an article"
        elif page.slug in seen:
            message = f"nav lists {page.slug!r} twice"
        else:
            seen.add(page.slug)
            continue
        problems.append(
            Problem(path=PYPROJECT, line=page.line, subject="settings", rule="nav", message=message)
        )
    return problems


def _problem(root: Path, where: CallSite, subject: str, rule: str, message: str) -> Problem:
    return Problem(
        path=relative_to_root(root, where.path), line=where.line, subject=subject, rule=rule, message=message
    )


Finding = tuple[CallSite, str, str]


def _revision_findings(settings: Settings, rev: Revision) -> Iterator[Finding]:
    yield from _flaws(rev.flaws)
    yield from _xml_characters(rev)
    yield from _metadata(rev)
    yield from _language(settings, rev)
    yield from _body(settings, rev)
    yield from _sources(settings, rev)


def _xml_characters(rev: Revision) -> Iterator[Finding]:
    """Text that would make the feed or the sitemap ill-formed, named by field, at its line."""
    fields: list[tuple[CallSite | str, str, str]] = [
        (name, name, value)
        for name, value in (
            ("slug", rev.slug),
            ("title", rev.title),
            ("excerpt", rev.excerpt),
            ("cover", rev.cover or ""),
            ("published", rev.published),
            ("lang", rev.lang or ""),
        )
    ]
    fields += [("categories", f"category {n}", c) for n, c in enumerate(rev.categories, 1)]
    fields += [
        (src.site, f"source {n} {name}", str(getattr(src, name)))
        for n, src in enumerate(rev.sources, 1)
        for name in ("title", "url", "note")
    ]
    fields += [
        (block.site if isinstance(block, Block) else "body", f"body item {n}", str(block))
        for n, block in enumerate(rev.body, 1)
        # A helper that already named the faulty argument has said it better.
        if not (isinstance(block, Block) and any(f.rule == "xml-character" for f in block.flaws))
    ]
    for where, name, value in fields:
        if (found := forbidden_character(value)) is not None:
            yield (
                rev.at(where) if isinstance(where, str) else where,
                "xml-character",
                f"{name} contains {found}",
            )


def _flaws(flaws: tuple[Flaw, ...]) -> Iterator[Finding]:
    for flaw in flaws:
        yield flaw.site, flaw.rule, flaw.message


def _metadata(rev: Revision) -> Iterator[Finding]:
    at = rev.at
    flawed = {f.field for f in rev.flaws}
    if rev.slug and not SLUG.fullmatch(rev.slug):
        yield at("slug"), "slug", f"slug {rev.slug!r} must be 3 to 120 characters of a-z, 0-9 and '-'"
    for name, value in (("title", rev.title), ("excerpt", rev.excerpt)):
        if not value.strip() and name not in flawed:
            yield at(name), "required", f"{name} must not be empty"
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
    if rev.published and not _is_date(rev.published):
        yield at("published"), "published", f"published {rev.published!r} is not an ISO date like 2020-06-18"
    if rev.lang is not None and not LANGUAGE_TAG.fullmatch(rev.lang):
        yield at("lang"), "lang", f"lang {rev.lang!r} is not a language tag like 'en' or 'ru'"


def _language(settings: Settings, rev: Revision) -> Iterator[Finding]:
    """A revision's language is one the chrome can be written in."""
    tag = rev.lang
    if tag is not None and LANGUAGE_TAG.fullmatch(tag) and not has_labels(tag, settings.labels):
        yield rev.at("lang"), "lang", language_message("lang", tag, settings.labels)


def _is_date(text: str) -> bool:
    if not _DATE.fullmatch(text):
        return False
    try:
        datetime.date.fromisoformat(text)
    except ValueError:
        return False
    return True


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
        yield rev.at("cover"), rev.cover
    for block in rev.body:
        if isinstance(block, Block):
            yield from ((block.site, url) for url in block.urls)
        elif isinstance(block, Markup):
            yield from ((rev.at("body"), url) for url in urls_in_html(block))
    for source in rev.sources:
        if isinstance(source.url, str) and source.url.strip():
            yield source.site, source.url
