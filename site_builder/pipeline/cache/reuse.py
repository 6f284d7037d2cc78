"""One home for everything a build remembers of the last one.

The cache (``.site-builder-cache/``) holds, for one site: each clean batch's
:class:`~site_builder.pipeline.worker.batch.BatchSummary` under its input key, the list pages,
the search bundles, and per output folder the record of what was written, what
the link check knew, the site before the live one (the *spare*, which the next
build brings up to date instead of writing every file again) and the batch
modules' stat stamps. A build reads all of it through one :class:`Cache`, and
writes it once the new site is swapped in (:func:`site_builder.pipeline.remember.remember`): a
failed build changes nothing in the cache. ``--no-cache`` is simply no ``Cache``.

The cache holds values and knows none of the steps that make them: a caller names the
type it expects (:meth:`Cache.kept`), and a kept summary's own rules live with the summary
(:mod:`site_builder.pipeline.worker.site_index`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import pickle
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from site_builder.pipeline.cache.inputs import Stamp
from site_builder.pipeline.cache.link_memory import Links
from site_builder.pipeline.cache.store import CacheFolder
from site_builder.pipeline.staging.written import Written
from site_builder.search.delta import PAGES

T = TypeVar("T")


@dataclass(frozen=True, slots=True, kw_only=True)
class KeptSite:
    """What :meth:`Cache.keep_site` keeps of one output folder."""

    written: Written
    """The record of the site now live."""
    before: Written | None
    """The record of the site that was live until now: kept as the spare when it was."""
    spare_kept: bool
    links: Links
    superseded: frozenset[str]
    """The slugs of the articles with a later revision: the next build's workers leave their
    pages to the main process (:meth:`Cache.superseded`)."""
    stamps: Mapping[str, Stamp]
    """The batch modules' stat stamps."""


@dataclass(frozen=True, slots=True)
class Cache:
    """What the cache knows of earlier builds of one site into one output folder."""

    store: CacheFolder
    target: Path
    """The output folder."""
    read: dict[str, object] = dataclasses.field(default_factory=dict, compare=False, repr=False)
    """What this build read of the cache that :meth:`remember` writes against: the site
    index (its changes are written against the base read)."""

    @classmethod
    def of(cls, root: Path, target: Path, store: CacheFolder | None = None) -> Cache:
        """The cache of the site at ``root`` (or ``store``, one kept in memory), for builds
        into ``target``."""
        return cls(store or CacheFolder.of(root), target)

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
        return self.kept("outputs", self._record, Written)

    def spare(self) -> Path:
        """Where the site before the live one is kept
        (see :func:`~site_builder.pipeline.staging.folder.swap`)."""
        return self.store.folder / "spare" / self._record

    def spare_record(self) -> Written | None:
        """The record of what the spare site holds."""
        return self.kept("outputs", self._record + ".spare", Written)

    def spare_vouched(self, record: Written) -> bool:
        """Whether this process vouches that the spare holds exactly what ``record`` says, with
        no look at its files: its last build moved the spare aside itself, from a folder only
        its builds write (``serve``'s, whose store is kept in memory:
        :meth:`~site_builder.pipeline.cache.store.CacheFolder.in_memory`). Good for one build,
        which may change the spare (and puts it back changed when it fails)."""
        return self.store.spend("outputs", self._record + ".spare", record)

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
        folder = self.store.folder / f".scratch-{os.getpid()}"
        folder.mkdir(parents=True, exist_ok=True)
        return folder

    def batch_keys(self) -> set[str]:
        """The keys of the batches kept."""
        return self.store.keys("batches")

    def texts_file(self, key: str) -> Path:
        """Where the cache keeps the texts file of the batch summarized under ``key``."""
        return Path(self.texts_name(key))

    def texts_name(self, key: str) -> str:
        """:meth:`texts_file` as a string: a build asks it of every batch it keeps, and at
        10,000 articles making 3,333 paths was 30 ms of each edit."""
        return f"{self.store.folder}/batches/{key}.text"

    def kept(self, kind: str, key: str, of: type[T]) -> T | None:
        """The value kept under ``kind``/``key`` when it is an ``of`` (a damaged or older entry
        is a miss). The cache holds values; what they are is the caller's to say."""
        found = self.store.get(kind, key)
        return found if isinstance(found, of) else None

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
        found = self.kept("outputs", self._record + ".links", Links) if live is not None else None
        return found if found is not None and live is not None and found.site == live.site else None

    def superseded(self) -> frozenset[str]:
        """The slugs the last build found revised by a later revision: a worker does not render
        their first revision's page, which the main process renders with the article's history (a
        hint only: whatever a worker leaves, the main process renders)."""
        return self.kept("outputs", self._record + ".superseded", frozenset) or frozenset()

    def keep_site(self, site: KeptSite) -> None:
        """Keep what this build learned of the site now live in ``target``, and drop the spare
        sites no build will use again."""
        if site.spare_kept and site.before is not None:  # the spare is the site live until now
            self.store.put("outputs", self._record + ".spare", site.before)
            self.store.vouch("outputs", self._record + ".spare")  # see spare_vouched
        else:
            self.store.drop("outputs", self._record + ".spare")
        self.store.put("outputs", self._record, site.written)
        self.store.put("outputs", self._record + ".links", site.links)
        self.store.put("outputs", self._record + ".superseded", site.superseded)
        self.store.put(
            "outputs", self._record + ".bundles", frozenset(key for key, _ in site.written.bundles.values())
        )
        self.store.keep_only("spare", self._spares_kept(site.spare_kept))
        self.store.put("inputs", "batches", dict(site.stamps))

    def keep_bundles(self, made: Mapping[str, Path], used: Iterable[str], ids: Mapping[str, Path]) -> None:
        """Move in the search bundles this build made (by shard key) and the files of their
        pages' ids it wrote (by key: a bundle a later build may add a delta to), and keep only
        those ``used``."""
        for key, folder in made.items():
            if self.store.move_in(folder, f"search/{key}"):
                self.store.move_in(folder.with_name(f"{key}.hashes"), f"search/{key}.hashes")
        for key, file in ids.items():
            self.store.move_in(file, f"search/{key}.{PAGES}")
        other = self._other_folder()  # its next rebuild adds a delta to its bundles: they stay
        theirs = self.kept("outputs", other + ".bundles", frozenset) if other is not None else None
        self.store.keep_only("search", set(used) | set(theirs or ()))

    def keep_covers(self, covers: Mapping[str, Path | None]) -> None:
        """Move in the covers this build drew (None: kept already); drop the ones unused."""
        for key, drawn in covers.items():
            if drawn is not None:
                self.store.move_in(drawn, f"og/{key}")
        self.store.keep_only("og", set(covers))

    def _spares_kept(self, mine: bool) -> set[str]:
        """The spare sites worth keeping: this output folder's (when ``mine``) and that of the
        one other folder built last (``serve``'s, for a writer who also runs ``build``: without
        its spare, that folder's next rebuild makes and links the whole site again). Never
        more: spares of folders built once must not pile up."""
        kept = {self._record} if mine else set()
        other = self._other_folder(self.store.keys("spare"))
        if other is not None:  # a spare with no record of its folder's site is no use: it goes
            kept.add(other)
        return kept

    def _other_folder(self, among: Iterable[str] | None = None) -> str | None:
        """The record name of the other output folder built last (of those ``among``; by default
        of every folder with a record)."""
        names = self.store.keys("outputs") if among is None else among
        others = [
            (when, name)
            for name in names
            if name != self._record
            and "." not in name
            and (when := self.store.written_at("outputs", name)) is not None
        ]
        return max(others)[1] if others else None
