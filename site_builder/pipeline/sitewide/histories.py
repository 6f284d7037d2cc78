"""Articles with more than one revision, seen from the main process once every batch is in.

A batch renders its revisions' pages on its own, but an article's history spans
batches: which revision is the latest, the number of each, the diff pages. So a
worker renders only the pages of first revisions (and not even those of an article
the last build found revised: :attr:`BatchSummary.deferred`), and here, with every batch's
summary at hand, the main process numbers the revisions of each article with a history,
renders all of its pages (:mod:`site_builder.render.history_pages`), and gives the
lists, the feed, the sitemap and ``revisions.json`` one entry per article (the
latest, with the first's ``published`` and the latest's date) or every revision
numbered. Nothing here is kept by the cache: it is cheap, and it depends on
several batches at once.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from site_builder.model.layout import article_file
from site_builder.pipeline.worker.batch import BatchSummary
from site_builder.render.items import Item
from site_builder.render.revisions_json import fragment, numbered

Place = tuple[int, int]
"""(index of a summary in site order, index of an item in it)."""


@dataclass(frozen=True)
class Histories:
    """The articles of a site that have a later revision among those it publishes."""

    summaries: tuple[BatchSummary, ...]
    """Every batch, in site order."""
    articles: dict[str, tuple[Place, ...]]
    """Slug → where its revisions are, in site order (date order: the rules see to it)."""

    @classmethod
    def of(cls, summaries: Sequence[BatchSummary]) -> Histories:
        """Find the articles with a history among what ``summaries`` publish."""
        groups: dict[str, list[Place]] = {}
        for s, part in enumerate(summaries):
            for i, item in enumerate(part.items):
                groups.setdefault(item.slug, []).append((s, i))
        articles = {
            slug: tuple(places)
            for slug, places in groups.items()
            if any(summaries[s].items[i].later for s, i in places)
        }
        return cls(tuple(summaries), articles)

    @functools.cached_property
    def numbers(self) -> dict[Place, int]:
        """Each revision of an article with a history → its number."""
        return {place: n for places in self.articles.values() for n, place in enumerate(places, 1)}

    def involves(self, index: int) -> bool:
        """Whether the summary at ``index`` holds a revision of an article with a history."""
        return index in self._involved

    @functools.cached_property
    def _read(self) -> dict[int, list[dict[str, object]]]:
        """The ``revisions`` JSON objects of the summaries read so far, by index."""
        return {}

    @functools.cached_property
    def _involved(self) -> frozenset[int]:
        return frozenset(s for places in self.articles.values() for s, _ in places)

    def data(self, index: int) -> list[dict[str, object]]:
        """The ``revisions`` JSON objects of the summary at ``index``, each numbered."""
        numbers = self.numbers
        data = self._read.get(index) or self.summaries[index].data()
        return [numbered(d, numbers[(index, i)]) if (index, i) in numbers else d for i, d in enumerate(data)]

    def fragment(self, index: int) -> bytes:
        """The summary's part of ``revisions.json``, numbered (see :meth:`data`)."""
        return ",\n  ".join(fragment(d) for d in self.data(index)).encode("utf-8", "surrogatepass")

    def listed(self) -> list[tuple[Place, Item]]:
        """What lists, the feed and the sitemap show, in site order: one item per article, its
        latest revision's (at that revision's place) with the first's date as ``published``
        and its own as ``updated``."""
        latest = {places[-1]: places for places in self.articles.values()}
        hidden = {place for places in self.articles.values() for place in places[:-1]}
        shown: list[tuple[Place, Item]] = []
        for s, part in enumerate(self.summaries):
            for i, item in enumerate(part.items):
                if (s, i) in hidden:
                    continue
                places = latest.get((s, i))
                if places is not None and len(places) > 1:
                    first = self._item(places[0])
                    item = dataclasses.replace(item, published=first.published, updated=item.date)
                shown.append(((s, i), item))
        return shown

    def whole(self, slug: str) -> list[Item]:
        """Every revision of ``slug``, oldest first, with its content and proofs (for its pages)."""
        return [self.whole_at(place) for place in self.articles[slug]]

    def whole_at(self, place: Place) -> Item:
        """The revision at ``place`` with its content, proofs and charts."""
        s, i = place
        if s not in self._read:
            self._read[s] = self.summaries[s].data()
        part = self.summaries[s]
        content = str(self._read[s][i]["contentHtml"])
        return dataclasses.replace(
            part.items[i], content_html=content, proofs=part.proofs[i], charts=part.charts[i]
        )

    @functools.cached_property
    def unrendered(self) -> tuple[Place, ...]:
        """Articles with one revision whose page no worker rendered: the last build found them
        revised (:attr:`BatchSummary.deferred`), and now they are not."""
        return tuple(
            (s, i)
            for s, part in enumerate(self.summaries)
            if part.deferred
            for i, item in enumerate(part.items)
            if item.slug not in self.articles and article_file(item.slug) in part.deferred
        )

    def owners(self) -> Iterator[tuple[str, str]]:
        """Each page the main process renders at an article's URL, and the batch whose search shard
        holds it: the batch of the article's first revision."""
        for places in self.articles.values():
            s, i = places[0]
            yield article_file(self.summaries[s].items[i].slug), self.summaries[s].name
        for s, i in self.unrendered:
            yield article_file(self.summaries[s].items[i].slug), self.summaries[s].name

    def _item(self, place: Place) -> Item:
        s, i = place
        return self.summaries[s].items[i]
