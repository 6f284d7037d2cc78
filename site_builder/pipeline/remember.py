"""Step 10 of a build: what a successful build leaves in the cache for the next one (and
what one given up for a newer edit leaves: its staging folder, as the spare).

Called once the new site is swapped in, so a failed build changes nothing there. Each
kind of value goes where it is kept: the batches' summaries into the site index, the list
pages, the search bundles, the covers' PNGs, the site-wide rules' findings, and the record
of the output folder.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from site_builder.pipeline.cache.inputs import Inputs
from site_builder.pipeline.cache.link_memory import Links
from site_builder.pipeline.cache.reuse import Cache, KeptSite
from site_builder.pipeline.site_check import RuleFindings
from site_builder.pipeline.staging.folder import Stage
from site_builder.pipeline.staging.written import Written, listing
from site_builder.pipeline.worker.batch import BatchSummary
from site_builder.pipeline.worker.site_index import keep_summaries
from site_builder.render.site_files import Lists
from site_builder.search.indexing import Index


@dataclass(frozen=True, slots=True, kw_only=True)
class Learned:
    """What a successful build leaves for the next one (see :func:`remember`)."""

    inputs: Inputs
    written: Written
    """The record of the site now live."""
    before: Written | None
    """The record of the site that was live until now: kept as the spare when it was."""
    spare_kept: bool
    links: Links
    lists: tuple[str, Lists] | None
    """The list pages by their key, when they were rendered anew."""
    summaries: Mapping[str, BatchSummary]
    """Every batch of the site by its key (kept ones included)."""
    index: Index
    covers: Mapping[str, Path | None] = field(default_factory=dict)
    """Every cover drawing the site uses → the PNG this build drew (None: kept already)."""
    superseded: frozenset[str] = frozenset()
    """The slugs of the articles with a later revision: the next build's workers leave their
    pages to the main process (:meth:`Cache.superseded`)."""
    rules: RuleFindings | None = None
    """The site-wide rules' findings and what they were found under."""
    layout: tuple[str, tuple[tuple[str, int], ...]] | None = None
    """``revisions.json``'s hash and parts (:class:`~site_builder.pipeline.sitewide.joined.Joined`)."""


def remember(reuse: Cache, memory: Learned) -> None:
    """Keep what this build learned, and drop what no build will use again."""
    keep_summaries(reuse, memory.summaries)
    if memory.lists is not None:
        reuse.store.put("lists", *memory.lists)
        reuse.store.keep_only("lists", {memory.lists[0]})
    reuse.keep_bundles(memory.index.made, memory.index.used, memory.index.ids)
    reuse.keep_covers(memory.covers)
    if memory.layout is not None:
        sha, layout = memory.layout
        if reuse.kept("joined", sha, tuple) is None:
            reuse.store.put("joined", sha, layout)
        reuse.store.keep_only("joined", {sha})
    if memory.rules is not None:
        if reuse.kept("rules", memory.rules.key, RuleFindings) != memory.rules:
            reuse.store.put("rules", memory.rules.key, memory.rules)
        reuse.store.keep_only("rules", {memory.rules.key})
    reuse.keep_site(
        KeptSite(
            written=memory.written,
            before=memory.before,
            spare_kept=memory.spare_kept,
            links=memory.links,
            superseded=memory.superseded,
            stamps=memory.inputs.stamps,
        )
    )


def keep_given_up(reuse: Cache | None, stage: Stage, hashes: dict[str, str]) -> None:
    """A build given up for a newer edit leaves its staging folder whole but for the search
    index: when that folder was not the spare already (the first rebuild after a site was
    built into an empty folder), it becomes the spare, with its record (``hashes``: every
    generated file's). Else every rebuild given up in a row would make the whole site's
    folders again: 10,000 ``mkdir`` calls and 4 s at 10,000 articles."""
    if reuse is None or stage.held is not None:  # the spare goes back as it is (discard)
        return
    files, folders = listing(stage.folder)
    spare = Written(site="", files=files, hashes=hashes, revisions=0, pages=0, bundles={}, folders=folders)
    reuse.keep_spare(stage.folder, spare)
