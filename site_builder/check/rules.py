"""Validation: a pure pass over a loaded site that returns every problem: each batch on its
own (its revisions' own fields by :mod:`.revision_fields`), then the rules that need every batch.

Nothing here raises or stops early; each rule appends problems and the caller
decides what to do with all of them at once.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, fields
from pathlib import Path

from markupsafe import Markup

from site_builder.authoring.body import content_html
from site_builder.authoring.escaping import urls_in_html
from site_builder.authoring.model import Block, CallSite, Revision
from site_builder.check.categories import Spelling, spelling_problems
from site_builder.check.claims import Claim, as_json
from site_builder.check.fragments import FragmentLink, fragment_link, page_problems
from site_builder.check.history import Step, history_findings, label_findings
from site_builder.check.images import image_problems, shown_images
from site_builder.check.revision_fields import revision_findings
from site_builder.errors import Problem
from site_builder.model.batches import Batch, fixture_id, relative_to_root
from site_builder.model.layout import article_url, history_urls, page_urls, resolves, revision_url
from site_builder.model.page_ids import HISTORY_IDS, content_ids
from site_builder.model.schedule import Timing
from site_builder.model.url_policy import check_url
from site_builder.runtime.pickled import quick_state
from site_builder.settings.project import Settings
from site_builder.settings.pyproject import PYPROJECT


@quick_state
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
    steps: tuple[Step, ...] = ()
    """What the history rules need of each revision, in list order."""


def batch_problems(root: Path, settings: Settings, batch: Batch) -> tuple[list[Problem], Refs]:
    """The problems one batch has on its own, and what the site-wide rules need of it."""
    problems: list[Problem] = []
    each: list[Refs] = []
    for rev in batch.revisions:
        found, refs = _revision_refs(root, settings, rev)
        problems += found
        each.append(refs)
    fixtures = {fixture_id(fx): fx for fx in batch.fixtures}
    for fid, fx in fixtures.items():
        problems += [_problem(root, f.site, f"fixture {fid}", f.rule, f.message) for f in fx.flaws]
    return problems, _joined(each, tuple((fid, fx.site) for fid, fx in fixtures.items()))


def _joined(each: Sequence[Refs], fixtures: tuple[tuple[str, CallSite], ...]) -> Refs:
    """One batch's refs: every field its revisions' in list order, and the fixtures it defines."""
    joined = {f.name: tuple(item for refs in each for item in getattr(refs, f.name)) for f in fields(Refs)}
    return Refs(**{**joined, "fixtures": fixtures})


def _revision_refs(root: Path, settings: Settings, rev: Revision) -> tuple[list[Problem], Refs]:
    """The problems of one revision on its own, and what it says about the rest of the site."""
    subject = rev.slug or "revision"
    problems = [
        _problem(root, where, subject, rule, message)
        for where, rule, message in revision_findings(settings, rev)
    ]
    url_problems, links, fragments = _url_refs(root, rev, subject)
    uses, claims = _verified_outputs(rev, subject)
    refs = Refs(
        slugs=((rev.slug, rev.at("slug")),),
        categories=rev.categories,
        links=links,
        uses=uses,
        claims=claims,
        fixtures=(),
        timings=(Timing(rev.draft, rev.date, rev.categories),),
        fragments=fragments,
        ids=(_article_ids(settings, rev),),
        spellings=tuple((c, rev.site, subject) for c in rev.categories if c.strip()),
        images=tuple((where, subject, url) for where, url in shown_images(rev)),
        steps=(Step.of(rev),),
    )
    return problems + url_problems, refs


def _url_refs(
    root: Path, rev: Revision, subject: str
) -> tuple[list[Problem], tuple[tuple[CallSite, str, str, str], ...], tuple[FragmentLink, ...]]:
    """A revision's URLs that the policy refuses, its links into the site, and its links to a
    ``#fragment`` of one of the site's pages."""
    problems: list[Problem] = []
    links: list[tuple[CallSite, str, str, str]] = []
    fragments: list[FragmentLink] = []
    for where, url in _urls(rev):
        checked = check_url(url)
        if checked.error:
            problems.append(_problem(root, where, subject, "url", checked.error))
            continue
        if checked.local_path is not None:
            links.append((where, subject, url, checked.local_path))
        if "#" in url and (link := fragment_link(where, subject, url, rev.slug)) is not None:
            fragments.append(link)
    return problems, tuple(links), tuple(fragments)


def _verified_outputs(
    rev: Revision, subject: str
) -> tuple[tuple[tuple[CallSite, str, str], ...], tuple[Claim, ...]]:
    """Each ``verified_output`` block of a revision as a use of its fixture and as a claim."""
    uses: list[tuple[CallSite, str, str]] = []
    claims: list[Claim] = []
    for block in rev.body:
        if isinstance(block, Block) and block.verified:
            fid = fixture_id(block.verified.fixture)
            uses.append((block.site, subject, fid))
            expected = as_json(block.verified.expected)
            claims.append(Claim(block.site, rev.slug, fid, expected, sound=not block.flaws))
    return tuple(uses), tuple(claims)


def _article_ids(settings: Settings, rev: Revision) -> tuple[str, tuple[str, ...]]:
    """The article page a revision is shown on, and the ids its content gives that page."""
    label = settings.sources_label(rev.lang or settings.language)
    shown = [fixture_id(b.verified.fixture) for b in rev.body if isinstance(b, Block) and b.verified]
    return article_url(rev.slug), content_ids(content_html(rev, label), shown)


def site_problems(root: Path, settings: Settings, parts: Sequence[Refs]) -> list[Problem]:
    """The rules that need every batch: unique slugs, links to pages and to ``#fragment``s,
    fixtures that exist, and the literal links of the site's own templates."""
    steps = [step for part in parts for step in part.steps]
    pages = _site_pages(parts, steps)
    problems = _reference_problems(root, settings, parts, pages)
    problems.extend(nav_problems(settings, _first_slugs(parts)))
    problems.extend(_history_problems(root, settings, steps))
    problems.extend(spelling_problems(root, (use for part in parts for use in part.spellings)))
    problems.extend(image_problems(root, settings, (image for part in parts for image in part.images)))
    links = [link for part in parts for link in part.fragments]
    return problems + page_problems(root, settings, links, _page_ids(parts, steps), pages)


def _site_pages(parts: Sequence[Refs], steps: Sequence[Step]) -> frozenset[str]:
    """The URL of every page the site has: articles, categories, and each revised article's
    revision and diff pages."""
    pages = page_urls((s for p in parts for s, _ in p.slugs), _listed_categories(parts))
    pages |= {url for slug, n in Counter(s.slug for s in steps).items() for url in history_urls(slug, n)}
    return pages


def _first_slugs(parts: Sequence[Refs]) -> dict[str, CallSite]:
    """Each slug, at the first revision that gives it."""
    first_slug: dict[str, CallSite] = {}
    for part in parts:
        for slug, at in part.slugs:
            if slug:
                first_slug.setdefault(slug, at)
    return first_slug


def _reference_problems(
    root: Path, settings: Settings, parts: Sequence[Refs], pages: frozenset[str]
) -> list[Problem]:
    """Batch by batch, each link to neither a file of the assets nor a page of the site, and
    each ``verified_output`` of a fixture that no batch defines."""
    known = {fid for part in parts for fid, _ in part.fixtures}
    assets = root / settings.assets_dir
    resolved: dict[str, bool] = {}
    problems = []
    for part in parts:
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
    return problems


def _history_problems(root: Path, settings: Settings, steps: Sequence[Step]) -> list[Problem]:
    quoted: set[str] = set()

    def place(site: CallSite) -> str:
        """A line another revision's problem shows, its file noted: every history problem then
        names the files the history's messages quote (a few, and only when one is found)."""
        shown = relative_to_root(root, site.path)
        quoted.add(shown)
        return f"{shown}:{site.line}"

    history = [_problem(root, *finding) for finding in history_findings(steps, place)]
    quotes = tuple(sorted(quoted))
    labels = [
        _problem(root, *finding) for finding in label_findings(steps, settings.language, settings.labels)
    ]
    return [dataclasses.replace(problem, quotes=quotes) for problem in history] + labels


def _page_ids(parts: Sequence[Refs], steps: Sequence[Step]) -> dict[str, tuple[str, ...]]:
    """Each article page's ids from its content (the latest revision's), each earlier
    revision's page's from its own, and the ids of the history on all of them when the article
    has one."""
    contents: dict[str, list[tuple[str, ...]]] = {}
    for part in parts:
        for (slug, _), (_, ids) in zip(part.slugs, part.ids, strict=True):
            contents.setdefault(slug, []).append(ids)
    revised = {step.slug for step in steps if step.later}
    pages: dict[str, tuple[str, ...]] = {}
    for slug, each in contents.items():
        history = tuple(HISTORY_IDS) if slug in revised else ()
        pages[article_url(slug)] = (*each[-1], *history)
        for number, ids in enumerate(each[:-1], 1):
            pages[revision_url(slug, number)] = (*ids, *history)
    return pages


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


def _urls(rev: Revision) -> Iterator[tuple[CallSite, str]]:
    if rev.cover is not None:
        yield rev.at("cover"), rev.cover
    yield from _body_urls(rev)
    for source in rev.sources:
        if isinstance(source.url, str) and source.url.strip():
            yield source.site, source.url
    yield from ((rev.at("changes"), url) for url in rev.changes_urls)


def _body_urls(rev: Revision) -> Iterator[tuple[CallSite, str]]:
    """The URLs of a revision's body: each helper's block knows its own, raw HTML is searched."""
    for block in rev.body:
        if isinstance(block, Block):
            yield from ((block.site, url) for url in block.urls)
        elif isinstance(block, Markup):
            yield from ((rev.at("body"), url) for url in urls_in_html(block))


def _listed_categories(parts: Sequence[Refs]) -> set[str]:
    """The categories that get a page: those of each article's latest revision (an earlier
    revision's page shows a category it alone had, unlinked)."""
    latest: dict[str, tuple[str, ...]] = {}
    for part in parts:
        for (slug, _), timing in zip(part.slugs, part.timings, strict=True):
            if not timing.draft or slug not in latest:  # a draft revision is not published
                latest[slug] = timing.categories
    return {category for categories in latest.values() for category in categories}
