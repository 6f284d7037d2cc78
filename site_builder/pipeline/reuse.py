"""One home for everything a build remembers of the last one.

The cache (``.site-builder-cache/``) holds, for one site: each clean batch's
:class:`~site_builder.pipeline.batch.Summary` under its input key, the list pages,
the search bundles, and per output folder the record of what was written, what
the link check knew, the site before the live one (the *spare*, which the next
build brings up to date instead of writing every file again) and the batch
modules' stat stamps. A build reads all of it through one :class:`Reuse`, and
writes it in one call, :meth:`Reuse.remember`, once the new site is swapped in: a
failed build changes nothing in the cache. ``--no-cache`` is simply no ``Reuse``.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import pickle
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from site_builder.pipeline.inputs import Inputs, Stamp
from site_builder.pipeline.link_memory import Links
from site_builder.pipeline.store import Store
from site_builder.pipeline.written import Written

if TYPE_CHECKING:
    from site_builder.pipeline.batch import Summary
    from site_builder.pipeline.site_check import Rules
    from site_builder.render.site_files import Lists
    from site_builder.search.indexing import Index


@dataclass(frozen=True, slots=True)
class Memory:
    """What a successful build leaves for the next one (see :meth:`Reuse.remember`)."""

    inputs: Inputs
    written: Written
    """The record of the site now live."""
    before: Written | None
    """The record of the site that was live until now: kept as the spare when it was."""
    spare_kept: bool
    links: Links
    lists: tuple[str, Lists] | None
    """The list pages by their key, when they were rendered anew."""
    summaries: Mapping[str, Summary]
    """Every batch of the site by its key (kept ones included)."""
    index: Index
    covers: Mapping[str, Path | None] = dataclasses.field(default_factory=dict)
    """Every cover drawing the site uses → the PNG this build drew (None: kept already)."""
    superseded: frozenset[str] = frozenset()
    """The slugs of the articles with a later revision: the next build's workers leave their
    pages to the kernel (:meth:`Reuse.superseded`)."""
    rules: Rules | None = None
    """The site-wide rules' findings and what they were found under (:meth:`Reuse.rules`)."""


@dataclass(frozen=True, slots=True)
class Reuse:
    """What the cache knows of earlier builds of one site into one output folder."""

    store: Store
    target: Path
    """The output folder."""
    read: dict[str, object] = dataclasses.field(default_factory=dict, compare=False, repr=False)
    """What this build read of the cache that :meth:`remember` writes against: the site
    index (its changes are written against the base read)."""

    @classmethod
    def of(cls, root: Path, target: Path, store: Store | None = None) -> Reuse:
        """The cache of the site at ``root`` (or ``store``, one kept in memory), for builds
        into ``target``."""
        return cls(store or Store.of(root), target)

    @property
    def _record(self) -> str:
        """The name the entries about ``target`` share."""
        return hashlib.sha256(str(self.target).encode()).hexdigest()[:32]

    def stamps(self) -> dict[str, Stamp]:
        """The batch modules' stamps the last successful build kept."""
        found = self.store.get("inputs", "batches")
        if not isinstance(found, dict):
            return {}
        # Well-formed entries only: a damaged cache is a miss, never a wrong key.
        return {
            name: entry
            for name, entry in found.items()
            if isinstance(entry, tuple) and len(entry) == 6 and isinstance(entry[5], str)
        }

    def live(self) -> Written | None:
        """The record of the last build into ``target``, when the cache has a whole one."""
        entry = self.store.get("outputs", self._record)
        return entry if isinstance(entry, Written) else None

    def spare(self) -> Path:
        """Where the site before the live one is kept (see :func:`~site_builder.pipeline.staging.swap`)."""
        return self.store.folder / "spare" / self._record

    def spare_record(self) -> Written | None:
        """The record of what the spare site holds."""
        held = self.store.get("outputs", self._record + ".spare")
        return held if isinstance(held, Written) else None

    def keep_spare(self, folder: Path, record: Written) -> None:
        """Make ``folder`` the spare site, ``record`` saying what it holds, unless a spare is
        kept already (a build that was not published keeps its staging folder so). Its record
        is written only once the folder is in place."""
        spare = self.spare()
        if spare.exists():
            return
        self.store.drop("outputs", self._record + ".spare")
        try:
            spare.parent.mkdir(parents=True, exist_ok=True)
            folder.rename(spare)
        except OSError:
            return
        self.store.put("outputs", self._record + ".spare", record)

    def scratch(self) -> Path:
        """A folder in the cache for this build's new texts and search bundles: what
        :meth:`remember` keeps is moved from there, on the same file system."""
        folder = self.store.folder / f".spool-{os.getpid()}"
        folder.mkdir(parents=True, exist_ok=True)
        return folder

    def batch_keys(self) -> set[str]:
        """The keys of the batches kept."""
        return self.store.keys("batches")

    def index(self) -> dict[str, Summary]:
        """The kept summaries the site index holds, by batch key (:mod:`.site_index`)."""
        from site_builder.pipeline.site_index import read_index  # the render machinery: only when loading

        found = read_index(self.store)
        self.read["index"] = found
        return found.summaries

    def summary(self, key: str, index: Mapping[str, Summary] | None = None) -> Summary | None:
        """A kept summary (from ``index`` when it holds it, else from the batch's own file),
        its texts file where the cache keeps it; or None (also when that file is not the one
        it was kept with)."""
        from site_builder.pipeline.batch import Summary  # the render machinery: only when loading

        entry: object = index.get(key) if index is not None else None
        if entry is None:
            entry = self.store.get("batches", key)
        if not isinstance(entry, Summary):
            return None
        texts = entry.texts.moved(self.store.folder / "batches" / f"{key}.text")
        if texts is None:
            return None
        return entry if texts is entry.texts else dataclasses.replace(entry, texts=texts)

    def lists(self, key: str) -> Lists | None:
        """The list pages and sitemap kept under ``key``."""
        from site_builder.render.site_files import Lists

        found = self.store.get("lists", key)
        return found if isinstance(found, Lists) else None

    def rules(self, key: str) -> Rules | None:
        """The site-wide rules' findings kept under ``key``
        (:func:`~site_builder.pipeline.site_check.rules_key`)."""
        from site_builder.pipeline.site_check import Rules

        found = self.store.get("rules", key)
        return found if isinstance(found, Rules) else None

    def cover(self, key: str) -> bytes | None:
        """The PNG of a cover an earlier build drew, by its drawing key (checked whole)."""
        entry = self.store.get("og", key)
        if not (isinstance(entry, tuple) and len(entry) == 2 and isinstance(entry[1], bytes)):
            return None
        return entry[1] if entry[0] == hashlib.sha256(entry[1]).hexdigest() else None

    def keep_cover(self, key: str, png: bytes) -> Path:
        """Put a newly drawn cover in this build's scratch folder, for :meth:`remember`."""
        path = self.scratch() / "og" / key
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(
            pickle.dumps((hashlib.sha256(png).hexdigest(), png), protocol=pickle.HIGHEST_PROTOCOL)
        )
        return path

    def bundles(self) -> Path:
        """Where the search bundles of earlier builds are kept."""
        return self.store.folder / "search"

    def links(self, live: Written | None) -> Links | None:
        """What the check of the live site knew, when the cache holds it for that very site."""
        found = self.store.get("outputs", self._record + ".links") if live is not None else None
        return found if isinstance(found, Links) and live is not None and found.site == live.site else None

    def superseded(self) -> frozenset[str]:
        """The slugs the last build found revised by a later revision: a worker does not render
        their first revision's page, which the kernel renders with the article's history (a
        hint only: whatever a worker leaves, the kernel renders)."""
        found = self.store.get("outputs", self._record + ".superseded")
        return found if isinstance(found, frozenset) else frozenset()

    def remember(self, memory: Memory) -> None:
        """Keep what this build learned, and drop what no build will use again."""
        from site_builder.pipeline.site_index import SiteIndex, write_index

        last = self.read.get("index")
        last = last if isinstance(last, SiteIndex) else SiteIndex({})
        write_index(self.store, last, memory.summaries, self._keep_batches(memory.summaries))
        if memory.lists is not None:
            self.store.put("lists", *memory.lists)
            self.store.keep_only("lists", {memory.lists[0]})
        for key, folder in memory.index.made.items():
            if self.store.move_in(folder, f"search/{key}"):
                self.store.move_in(folder.with_name(f"{key}.hashes"), f"search/{key}.hashes")
        self.store.keep_only("search", set(memory.index.used))
        for key, drawn in memory.covers.items():
            if drawn is not None:
                self.store.move_in(drawn, f"og/{key}")
        self.store.keep_only("og", set(memory.covers))
        if memory.rules is not None:
            if self.rules(memory.rules.key) != memory.rules:
                self.store.put("rules", memory.rules.key, memory.rules)
            self.store.keep_only("rules", {memory.rules.key})
        if memory.spare_kept and memory.before is not None:  # the spare is the site live until now
            self.store.put("outputs", self._record + ".spare", memory.before)
        else:
            self.store.drop("outputs", self._record + ".spare")
        self.store.put("outputs", self._record, memory.written)
        self.store.put("outputs", self._record + ".links", memory.links)
        self.store.put("outputs", self._record + ".superseded", memory.superseded)
        self.store.keep_only("spare", self._spares_kept(memory.spare_kept))
        self.store.put("inputs", "batches", memory.inputs.stamps)

    def _spares_kept(self, mine: bool) -> set[str]:
        """The spare sites worth keeping: this output folder's (when ``mine``) and that of the
        one other folder built last (``serve``'s, for a writer who also runs ``build``: without
        its spare, that folder's next rebuild makes and links the whole site again). Never
        more: spares of folders built once must not pile up."""
        kept = {self._record} if mine else set()
        others = [
            (when, name)
            for name in self.store.keys("spare")
            if name != self._record and (when := self.store.written_at("outputs", name)) is not None
        ]
        if others:  # a spare with no record of its folder's site is no use: it goes
            kept.add(max(others)[1])
        return kept

    def _keep_batches(self, summaries: Mapping[str, Summary]) -> set[str]:
        """Keep each batch summarized by this build (its pickle and texts file, made by the
        worker in the scratch folder, are moved in); drop the batches the site no longer has.
        The keys of the batches the cache holds now."""
        folder = self.store.folder / "batches"
        held: set[str] = set()
        for key, summary in summaries.items():
            if summary.texts.path == folder / f"{key}.text":  # kept by an earlier build
                held.add(key)
                continue
            pickled = summary.texts.path.with_name(f"{key}.summary")
            if (
                pickled.is_file()
                and self.store.move_in(summary.texts.path, f"batches/{key}.text")
                and self.store.move_in(pickled, f"batches/{key}")
            ):
                held.add(key)
        self.store.keep_only("batches", set(summaries))
        return held
