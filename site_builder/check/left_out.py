"""Links a build's left-out revisions would leave dead: problems at the author's line.

A revision the build publishes (an included draft too) that links to a revision the
build leaves out (its page, a ``#fragment`` of it, or a category page that lists only
left-out revisions), and an ordered navigation that lists one, would point at a page
the site does not have. Each is a problem at the line that holds the link, naming the
revision and the flag that would include it: the author removes the link, or publishes
the target first. Links from left-out revisions are not judged here (they are not
published); that their targets exist is checked like every link.
"""

from __future__ import annotations

import posixpath
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from site_builder.check.batch_rules import Refs
from site_builder.errors import Problem
from site_builder.model.batches import relative_to_root
from site_builder.model.layout import article_url, category_path, history_urls
from site_builder.model.schedule import Schedule, including
from site_builder.settings.project import Settings
from site_builder.settings.pyproject import PYPROJECT


@dataclass(frozen=True, slots=True)
class _Gone:
    """A page this build leaves out, as a problem names it."""

    what: str
    """``'slug', which this build leaves out (a draft)``."""
    flags: tuple[str, ...]
    """What would include it."""
    count: int = 1


def left_out_problems(
    root: Path, settings: Settings, parts: Sequence[Refs], schedule: Schedule
) -> list[Problem]:
    """Links and navigation entries from what ``schedule`` publishes to what it leaves out."""
    shown, hidden = _articles(parts, schedule)
    gone = {article_url(slug): found for slug, found in hidden.items() if slug not in shown}
    gone |= _history_pages(parts, schedule)
    gone |= _categories(parts, schedule)
    return _link_problems(root, parts, shown, gone) + _nav_problems(settings, gone)


def _articles(parts: Sequence[Refs], schedule: Schedule) -> tuple[set[str], dict[str, _Gone]]:
    """The slugs of the articles this build publishes, and why it leaves out each of the
    others (as its first revision that it leaves out says)."""
    shown: set[str] = set()
    hidden: dict[str, _Gone] = {}
    for part in parts:
        for (slug, _), timing in zip(part.slugs, part.timings, strict=True):
            missing = schedule.missing(timing)
            if not missing:
                shown.add(slug)
            elif slug not in hidden:
                what = f"{slug!r}, which this build leaves out ({schedule.why(timing)})"
                hidden[slug] = _Gone(what, missing)
    return shown, hidden


def _link_problems(
    root: Path, parts: Sequence[Refs], shown: set[str], gone: Mapping[str, _Gone]
) -> list[Problem]:
    """Each link from a published article to a page in ``gone`` (by its URL)."""
    return [
        Problem(
            path=relative_to_root(root, at.path),
            line=at.line,
            subject=subject,
            rule="left-out",
            message=f"{url!r} links to {found.what}; {including(found.flags, found.count)}",
        )
        for part in parts
        for at, subject, url, path in part.links
        if subject in shown and (found := gone.get(_page(path))) is not None
    ]


def _nav_problems(settings: Settings, gone: Mapping[str, _Gone]) -> list[Problem]:
    """Each navigation entry of the settings that names an article in ``gone``."""
    problems = []
    for page in (page for section in settings.nav for page in section.pages):
        if (found := gone.get(article_url(page.slug))) is not None:
            message = f"nav lists {found.what}; {including(found.flags, 1)}"
            problems.append(
                Problem(path=PYPROJECT, line=page.line, subject="settings", rule="nav", message=message)
            )
    return problems


def _history_pages(parts: Sequence[Refs], schedule: Schedule) -> dict[str, _Gone]:
    """The revision and diff pages this build leaves out: those of an article's revisions
    past the ones it publishes (the pages of all of them are what validation knows)."""
    written: Counter[str] = Counter()
    published: Counter[str] = Counter()
    why: dict[str, _Gone] = {}
    for part in parts:
        for (slug, _), timing in zip(part.slugs, part.timings, strict=True):
            written[slug] += 1
            if missing := schedule.missing(timing):
                why.setdefault(slug, _Gone(f"a revision of {slug!r} ({schedule.why(timing)})", missing))
            else:
                published[slug] += 1
    gone = {}
    for slug, found in why.items():
        kept = set(history_urls(slug, published[slug]))
        for url in history_urls(slug, written[slug]):
            if url not in kept:
                gone[url] = _Gone(f"the page of {found.what}, which this build leaves out", found.flags)
    return gone


def _categories(parts: Sequence[Refs], schedule: Schedule) -> dict[str, _Gone]:
    """The category pages this build leaves out: those only left-out revisions list."""
    shown: set[str] = set()
    hidden: dict[str, tuple[str, set[str], int]] = {}
    for timing in (timing for part in parts for timing in part.timings):
        missing = schedule.missing(timing)
        for name in timing.categories:
            path = category_path(name)
            if not missing:
                shown.add(path)
                continue
            _, flags, count = hidden.get(path, (name, set(), 0))
            hidden[path] = (name, flags | set(missing), count + 1)
    return {
        path: _Gone(
            f"the page of category {name!r}, which this build leaves out (it lists only left-out revisions)",
            tuple(sorted(flags)),
            count,
        )
        for path, (name, flags, count) in hidden.items()
        if path not in shown
    }


def _page(path: str) -> str:
    """A decoded site-relative path in the ``/dir/`` form pages are known by."""
    normal = posixpath.normpath(path) + ("/" if path.endswith("/") and path != "/" else "")
    return normal.removesuffix("index.html")
