"""Validation: a pure pass over a loaded site that returns every problem: each batch on its
own (its revisions' own fields by :mod:`.revision_fields`), then the rules that need every batch.

Nothing here raises or stops early; each rule appends problems and the caller
decides what to do with all of them at once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
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
@dataclass(frozen=True, slots=True, kw_only=True)
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
    slugs: list[tuple[str, CallSite]] = []
    categories: list[str] = []
    links: list[tuple[CallSite, str, str, str]] = []
    uses: list[tuple[CallSite, str, str]] = []
    claims: list[Claim] = []
    fragments: list[FragmentLink] = []
    ids: list[tuple[str, tuple[str, ...]]] = []
    spellings: list[Spelling] = []
    images: list[tuple[CallSite, str, str]] = []
    for rev in batch.revisions:
        subject = rev.slug or "revision"
        spellings += [(c, rev.site, subject) for c in rev.categories if c.strip()]
        images += ((where, subject, url) for where, url in shown_images(rev))
        for where, rule, message in revision_findings(settings, rev):
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
                claims.append(
                    Claim(
                        where=block.site, slug=rev.slug, fixture=fid, expected=expected, sound=not block.flaws
                    )
                )
    fixtures = {fixture_id(fx): fx for fx in batch.fixtures}
    for fid, fx in fixtures.items():
        problems += [_problem(root, f.site, f"fixture {fid}", f.rule, f.message) for f in fx.flaws]
    defined = tuple((fid, fx.site) for fid, fx in fixtures.items())
    timings = tuple(Timing(rev.draft, rev.date, rev.categories) for rev in batch.revisions)
    refs = Refs(
        slugs=tuple(slugs),
        categories=tuple(categories),
        links=tuple(links),
        uses=tuple(uses),
        claims=tuple(claims),
        fixtures=defined,
        timings=timings,
        fragments=tuple(fragments),
        ids=tuple(ids),
        spellings=tuple(spellings),
        images=tuple(images),
        steps=tuple(Step.of(rev) for rev in batch.revisions),
    )
    return problems, refs


def site_problems(root: Path, settings: Settings, parts: Sequence[Refs]) -> list[Problem]:
    """The rules that need every batch: unique slugs, links to pages and to ``#fragment``s,
    fixtures that exist, and the literal links of the site's own templates."""
    problems = []
    steps = [step for part in parts for step in part.steps]
    pages = page_urls((s for p in parts for s, _ in p.slugs), _listed_categories(parts))
    pages |= {url for slug, n in Counter(s.slug for s in steps).items() for url in history_urls(slug, n)}
    known = {fid for part in parts for fid, _ in part.fixtures}
    assets = root / settings.assets_dir
    first_slug: dict[str, CallSite] = {}
    resolved: dict[str, bool] = {}
    for part in parts:
        for slug, at in part.slugs:
            if slug:
                first_slug.setdefault(slug, at)
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
    problems.extend(_history_problems(root, settings, steps))
    problems.extend(spelling_problems(root, (use for part in parts for use in part.spellings)))
    problems.extend(image_problems(root, settings, (image for part in parts for image in part.images)))
    links = [link for part in parts for link in part.fragments]
    return problems + page_problems(root, settings, links, _page_ids(parts, steps), pages)


def _history_problems(root: Path, settings: Settings, steps: Sequence[Step]) -> list[Problem]:
    found = history_findings(steps, lambda site: _place(root, site))
    found += label_findings(steps, settings.language, settings.labels)
    return [_problem(root, at, subject, rule, message) for at, subject, rule, message in found]


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
    for block in rev.body:
        if isinstance(block, Block):
            yield from ((block.site, url) for url in block.urls)
        elif isinstance(block, Markup):
            yield from ((rev.at("body"), url) for url in urls_in_html(block))
    for source in rev.sources:
        if isinstance(source.url, str) and source.url.strip():
            yield source.site, source.url
    yield from ((rev.at("changes"), url) for url in rev.changes_urls)


def _listed_categories(parts: Sequence[Refs]) -> set[str]:
    """The categories that get a page: those of each article's latest revision (an earlier
    revision's page shows a category it alone had, unlinked)."""
    latest: dict[str, tuple[str, ...]] = {}
    for part in parts:
        for (slug, _), timing in zip(part.slugs, part.timings, strict=True):
            if not timing.draft or slug not in latest:  # a draft revision is not published
                latest[slug] = timing.categories
    return {category for categories in latest.values() for category in categories}


def _place(root: Path, site: CallSite) -> str:
    return f"{relative_to_root(root, site.path)}:{site.line}"
