"""The ordered navigation a site sets in ``[[tool.site_builder.nav]]``: a sidebar in
reading order and previous/next links, as documentation sites (MkDocs) have.

Link texts come from the settings, not from the articles, so an article's page still
depends on its own revision and the settings only (an incremental build stays exact).
"""

from __future__ import annotations

from dataclasses import dataclass

from site_builder.model.layout import article_url
from site_builder.settings.project import Settings


@dataclass(frozen=True, slots=True)
class NavLink:
    """One link of the sidebar or the pager."""

    title: str
    url: str
    current: bool = False
    """The page being shown (``aria-current="page"``)."""


@dataclass(frozen=True, slots=True)
class NavGroup:
    """A section of the sidebar."""

    title: str
    links: tuple[NavLink, ...]


@dataclass(frozen=True, slots=True)
class SiteNav:
    """What an article page shows of the reading order; empty when the site sets none."""

    groups: tuple[NavGroup, ...] = ()
    previous: NavLink | None = None
    next: NavLink | None = None


def site_nav(settings: Settings, slug: str) -> SiteNav:
    """The sidebar and the neighbours of ``slug`` in the site's reading order."""
    groups = tuple(
        NavGroup(
            section.title,
            tuple(NavLink(p.title, article_url(p.slug), p.slug == slug) for p in section.pages),
        )
        for section in settings.nav
    )
    order = [link for group in groups for link in group.links]
    here = next((n for n, link in enumerate(order) if link.current), None)
    if here is None:
        return SiteNav(groups)
    before = order[here - 1] if here > 0 else None
    after = order[here + 1] if here + 1 < len(order) else None
    return SiteNav(groups, before, after)


def nav_rank(settings: Settings) -> dict[str, int]:
    """Each navigation page's place in the reading order."""
    return {p.slug: n for n, p in enumerate(p for s in settings.nav for p in s.pages)}
