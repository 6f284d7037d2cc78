"""The values a page shows of one revision: an :class:`Item`, made from the revision's
``revisions`` JSON object and its verified outputs; and a category as templates link it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from site_builder.model.images import Measured
from site_builder.model.layout import article_url, category_url
from site_builder.render.charts import Drawn
from site_builder.render.proofs import Proof
from site_builder.runtime.pickled import quick_state


@quick_state
@dataclass(frozen=True, slots=True)
class CategoryLink:
    """A category as templates show it."""

    name: str
    url: str
    count: int = 0


@quick_state
@dataclass(frozen=True, slots=True, kw_only=True)
class Item:
    """One revision as the index, category and article templates show it."""

    slug: str
    title: str
    url: str
    published: str
    minutes: int
    excerpt: str
    cover: str | None
    lang: str
    categories: tuple[CategoryLink, ...]
    fixtures: tuple[str, ...]
    verified: int
    content_html: str
    proofs: tuple[Proof, ...] = ()
    """Its ``verified_output`` blocks, for the marks on its page (empty in lists)."""
    charts: tuple[Drawn, ...] = ()
    """Its charts, drawn (:mod:`site_builder.render.charts`): empty in lists."""
    draft: bool = False
    """An included draft: marked as one."""
    scheduled: str = ""
    """The date an included revision is scheduled for, when after the build's date: marked."""
    images: Measured = ()
    """Width and height of the cover and of each image of the body, by ``src`` as written."""
    later: bool = False
    """A later revision of its article (``revised=``/``changes=``): its pages need every batch."""
    revised: str = ""
    """A later revision's own date, or date and time (RFC 3339) when its author gave one."""
    changes: str = ""
    """A later revision's note of changes, as HTML."""
    updated: str = ""
    """In lists, the feed and the sitemap: the date of the article's latest revision, when it has
    more than one (``published`` stays the first revision's)."""

    @property
    def date(self) -> str:
        """The date it takes effect: ``revised`` for a later revision, else ``published``."""
        return self.revised or self.published

    @property
    def latest_date(self) -> str:
        """The date lists show and sort by: the latest revision's."""
        return self.updated or self.published

    @property
    def cover_size(self) -> tuple[int, int] | None:
        """The cover's width and height, when it has a cover that could be measured."""
        return next(((w, h) for src, w, h in self.images if src == self.cover), None)


def items_from(revisions: Sequence[Mapping[str, object]], proofs: Sequence[tuple[Proof, ...]]) -> list[Item]:
    """Template items from the ``revisions`` JSON objects and their verified outputs."""
    return [
        Item(
            slug=str(r["slug"]),
            title=str(r["title"]),
            url=article_url(str(r["slug"])),
            published=str(r["published"]),
            minutes=int(str(r["readingMinutes"])),
            excerpt=str(r["excerpt"]),
            cover=None if r["cover"] is None else str(r["cover"]),
            lang=str(r["lang"]),
            categories=tuple(CategoryLink(str(c), category_url(str(c))) for c in _strings(r["categories"])),
            fixtures=tuple(_strings(r["fixtures"])),
            verified=len(marked),
            content_html=str(r.get("contentHtml", "")),
            proofs=marked,
            later=r.get("changes") is not None,
            revised=str(r.get("revisedAt") or r.get("revised") or ""),
            changes=str(r.get("changes") or ""),
        )
        for r, marked in zip(revisions, proofs, strict=True)
    ]


def _strings(value: object) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list) else []
