"""The rules that need every batch, over the :class:`~.batch_rules.Refs` of each: unique slugs,
links to pages, assets and ``#fragment``s, the revisions of each slug, categories written two
ways, the size of each image, the navigation.

Nothing here raises or stops early; each rule appends problems and the caller
decides what to do with all of them at once.
"""

from __future__ import annotations

import dataclasses
import functools
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from site_builder.authoring.model import CallSite
from site_builder.check.batch_rules import Refs
from site_builder.check.categories import spelling_problems
from site_builder.check.fragments import page_problems
from site_builder.check.history import Step, history_findings, label_findings
from site_builder.check.images import image_problems
from site_builder.check.link_lines import link_site
from site_builder.errors import CLOSE_IDS, Problem, closest, did_you_mean
from site_builder.model.batches import problem_at, relative_to_root
from site_builder.model.layout import ASSETS_URL, article_url, history_urls, page_urls, resolves, revision_url
from site_builder.model.page_ids import HISTORY_IDS
from site_builder.settings.project import Settings
from site_builder.settings.pyproject import PYPROJECT


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

    @functools.cache  # listed once, and only when a link resolves to nothing
    def targets(of_assets: bool) -> list[str]:
        """The site paths a mistyped link is compared with: the assets' files, or the pages."""
        if not of_assets:
            return sorted(pages)
        found = sorted(p for p in assets.rglob("*") if p.is_file()) if assets.is_dir() else []
        return [ASSETS_URL + p.relative_to(assets).as_posix() for p in found]

    for part in parts:
        for at, subject, url, path in part.links:
            if path not in resolved:  # many revisions link the same pages and files
                resolved[path] = resolves(path, pages, assets)
            if not resolved[path]:
                message = f"{url!r} is neither a file under {settings.assets_dir}/ nor a page of the site"
                message += _meant(path, targets(path.startswith(ASSETS_URL)))
                problems.append(problem_at(root, link_site(at, url), subject, "url-target", message))
        problems += _use_problems(root, part, known)
    return problems


def _use_problems(root: Path, part: Refs, known: set[str]) -> Iterator[Problem]:
    """Each block of ``part`` that shows a fixture no batch defines, and each chart drawn from
    another batch's: its rows are in the worker that ran that batch, not in this one's."""
    own = {fid for fid, _ in part.fixtures}
    for at, subject, fid, helper in part.uses:
        if fid not in known:
            message = f"{helper} uses {fid}, which is not a fixture of a batch"
            yield problem_at(root, at, subject, "verified-fixture", message)
        elif helper == "chart" and fid not in own:
            message = (
                f"chart(): its fixture {fid} runs with another batch; "
                "draw from one of this batch or of a helper module"
            )
            yield problem_at(root, at, subject, "chart-draw", message)


def _meant(path: str, choices: list[str]) -> str:
    """``; did you mean '…'?`` naming the choice most like ``path``, a link that resolves to
    nothing; empty when none is a near copy (the rule for names a site makes up), as a whole
    and in its last part: paths of one folder share most of their letters."""
    name = _last_part(path)
    near = [choice for choice in choices if closest(name, [_last_part(choice)], CLOSE_IDS) is not None]
    return did_you_mean(path, near, CLOSE_IDS)


def _last_part(path: str) -> str:
    """``halving.svg`` of ``/assets/leftmost/halving.svg``, ``x`` of ``/articles/x/``."""
    return path.rstrip("/").rsplit("/", 1)[-1]


def _history_problems(root: Path, settings: Settings, steps: Sequence[Step]) -> list[Problem]:
    quoted: set[str] = set()

    def place(site: CallSite) -> str:
        """A line another revision's problem shows, its file noted: every history problem then
        names the files the history's messages quote (a few, and only when one is found)."""
        shown = relative_to_root(root, site.path)
        quoted.add(shown)
        return f"{shown}:{site.line}"

    history = [problem_at(root, *finding) for finding in history_findings(steps, place)]
    quotes = tuple(sorted(quoted))
    labels = [
        problem_at(root, *finding) for finding in label_findings(steps, settings.language, settings.labels)
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


def _listed_categories(parts: Sequence[Refs]) -> set[str]:
    """The categories that get a page: those of each article's latest revision (an earlier
    revision's page shows a category it alone had, unlinked)."""
    latest: dict[str, tuple[str, ...]] = {}
    for part in parts:
        for (slug, _), timing in zip(part.slugs, part.timings, strict=True):
            if not timing.draft or slug not in latest:  # a draft revision is not published
                latest[slug] = timing.categories
    return {category for categories in latest.values() for category in categories}
