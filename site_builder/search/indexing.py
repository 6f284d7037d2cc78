"""The search index of one build, shard by shard, each started as soon as its pages are staged.

The workers render the batches shard by shard, so a shard's indexer starts while
the workers go on with the next (Pagefind reads a tree of links to the shard's pages).
A finished shard's bundle comes from the live site (untouched since the last build),
from the cache, or from a new Pagefind run into a scratch folder. Once every batch has
arrived, runs of shards are joined into bundles (:mod:`.joining`), each as soon as its
shards are indexed. Nothing here writes the site or the cache: :class:`Index` says what
to publish and what is new for the cache to keep.

``serve`` may give up waiting for the indexers once a newer edit has come (its pages are
shown already): the build then ends without publishing, and the next one indexes again.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from site_builder.errors import Problem
from site_builder.search.delta import (
    DELTA,
    FOLD_PAGES,
    PAGES,
    BaseBundle,
    delta_of,
    ids_kept,
    joined_ids,
    page_ids,
    read_base,
    write_ids,
)
from site_builder.search.joining import REFUSED, start_join
from site_builder.search.merged import UnmergeableError, search_scripts
from site_builder.search.pagefind import SCRIPT, UI_FILES, start_pagefind
from site_builder.search.shards import Shard, bundle_path, joined, make_shard, shard_count, shard_of
from site_builder.search.store import bundle_files, intact, write_hashes

Bundle = tuple[str, tuple[str, ...]]
"""A published shard: its key and the names of its files inside its folder."""
Run = tuple[Shard, list[Shard]]
"""A bundle of neighbouring shards (a shard alone is its own), and those shards."""

Live = Callable[[str], "tuple[Path, tuple[str, ...]] | None"]
"""Where the live site holds, untouched, the bundle of the shard with this key, and its files."""
GIVE_UP_STEP = 0.05
"""Seconds between two looks at whether to give up waiting for the indexers."""


def never() -> bool:
    """The default: a build always waits for its search index."""
    return False


@dataclass(frozen=True, slots=True, kw_only=True)
class Index:
    """A finished search index: what to publish, and what the next build may find again."""

    problems: tuple[Problem, ...]
    """Indexers that failed, or files Pagefind did not write; nothing else is set then."""
    files: dict[str, Path] = field(default_factory=dict)
    """Output path → the bundle file to link there."""
    scripts: dict[str, str | bytes] = field(default_factory=dict)
    """Output path → content of the files made here: ``site-search.js``, which starts the search
    box over the bundles, and with several bundles the module merging them and the bundles'
    heads (bytes)."""
    bundles: dict[str, Bundle] = field(default_factory=dict)
    """Each bundle's folder in the site → its shard key and files."""
    made: dict[str, Path] = field(default_factory=dict)
    """Shard key → the folder of a bundle indexed by this build (its hashes file beside it)."""
    ids: dict[str, Path] = field(default_factory=dict)
    """Shard key → the file of its pages' hashes and fragment ids written by this build, for a
    later build to add a delta to (:func:`~site_builder.search.delta.read_base`)."""
    used: frozenset[str] = frozenset()
    """Every shard key the index is made of."""
    given_up: bool = False
    """Waiting for the indexers was given up: nothing else is set then."""


@dataclass(slots=True, kw_only=True)
class Indexing:
    """The shards of one build: which batch belongs to which, which have arrived, which
    indexers run; at most ``jobs`` indexers at a time."""

    staging: Path
    kept: Path | None
    """Where the cache keeps the bundles of earlier builds (read only)."""
    scratch: Path
    """Where this build's indexers write their bundles."""
    language: str
    live_bundle: Live
    live: Mapping[str, str] = field(default_factory=dict)
    """The live site's bundles: folder → key (the base and the delta of the last build)."""
    jobs: int = 1
    base_path: str = "/"
    """The path of the site's base URL: the search script's URLs lie below it."""
    background: bool = False
    """Start no indexer before :meth:`finish`, and run them at a lower CPU priority (``serve``:
    the pages are shown first, and Pagefind would take the cores that they and the browser
    showing them wait for)."""
    batches: dict[str, int] = field(default_factory=dict)
    """The shard of every batch of the site."""
    seen: set[str] = field(default_factory=set)
    """The batches whose pages have arrived."""
    waiting: dict[int, int] = field(default_factory=dict)
    """Shard number → how many of its batches have not arrived yet."""
    members: dict[int, dict[str, str]] = field(default_factory=dict)
    """Shard number → the pages of its batches that have arrived."""
    shards: list[Shard] = field(default_factory=list)
    """The shards set going, whatever their source."""
    sources: dict[str, tuple[Path, tuple[str, ...]]] = field(default_factory=dict)
    """Shard key → the folder its bundle is published from, and the bundle's files."""
    running: dict[str, subprocess.Popen[str]] = field(default_factory=dict)
    queued: list[Shard] = field(default_factory=list)
    """Shards (and joins) waiting for a free core: one indexer or join per job, the rest wait."""
    joins: dict[str, Run] = field(default_factory=dict)
    """Key of a bundle of joined shards → it and its shards: joined once they are all indexed."""
    refused: bool = False
    """A join was refused (:data:`~.joining.REFUSED`): the shards are published as they are."""
    made: dict[str, Path] = field(default_factory=dict)
    """Shard (or join) key → the bundle a new indexer run (or join) made."""
    ids: dict[str, Path] = field(default_factory=dict)
    """Shard key → its pages' ids, written here (:attr:`Index.ids`)."""
    problems: list[Problem] = field(default_factory=list)
    """What the indexers that ended reported."""
    base: tuple[BaseBundle, ...] | None = None
    """The live site's base, which this build adds a delta to unless it folds (None: it folds,
    the shards indexed as :attr:`shards` says); its shards wait for :meth:`finish`."""
    delta: Shard | None = None
    """The pages this build indexes as the delta, when it adds one to :attr:`base`."""
    hidden: dict[str, frozenset[str]] = field(default_factory=dict)
    """Base bundle's folder → the fragment ids the search box hides."""
    settled: bool = False
    """Whether the delta (or the fold) is decided for the pages as they are now."""

    def start(self, batches: Sequence[str]) -> None:
        """Know the site's batches (in site order) and their shards, and the base a delta may be
        added to; nothing runs yet."""
        if self.kept is not None and self.live:
            self.base = read_base(self.kept, self.live, self.language)
        count = shard_count(len(batches))
        self.batches = {name: shard_of(name, count) for name in batches}
        for number in self.batches.values():
            self.waiting[number] = self.waiting.get(number, 0) + 1

    def shard_number(self, batch: str) -> int:
        """The shard of a batch: loading batches shard by shard lets shards start early."""
        return self.batches.get(batch, 0)

    def arrived(self, batch: str, pages: Mapping[str, str]) -> None:
        """A batch's pages are staged (output path → content hash); start its shard if it
        was the last of them."""
        number = self.batches.get(batch)
        if number is None or batch in self.seen:
            return
        self.seen.add(batch)
        self.members.setdefault(number, {}).update(pages)
        self.waiting[number] -= 1
        if not self.waiting[number] and self.members[number]:
            self.add(make_shard(number, self.members[number], self.language))

    def amend(self, batch: str, pages: Mapping[str, str]) -> None:
        """Pages of ``batch`` rewritten after they arrived (an article's latest revision, which
        needs every batch): its shard is made again from the pages as they are now."""
        number = self.batches.get(batch)
        if number is None:
            return
        members = self.members.setdefault(number, {})
        if all(members.get(p) == sha for p, sha in pages.items()):
            return
        members.update(pages)
        if self.base is not None and self.settled:  # the delta was decided without these pages
            self._unsettle()
        old = next((shard for shard in self.shards if shard.number == number), None)
        if old is not None:
            self.shards.remove(old)
            self._forget(old.key)
        if not self.waiting[number]:  # else it starts, with these pages, when its last batch arrives
            self.add(make_shard(number, members, self.language))

    def _forget(self, key: str) -> None:
        """Drop what a shard no longer in the index set going: its run, its queue place, its bundle."""
        process = self.running.pop(key, None)
        if process is not None:
            process.kill()
            process.communicate()
        self.queued = [shard for shard in self.queued if shard.key != key]
        self.sources.pop(key, None)
        self._forget_joins(key)
        made = self.made.pop(key, None)
        run, out = self._folders(key)
        for folder in (run, out) if made is not None or process is not None else ():
            shutil.rmtree(folder, ignore_errors=True)
        (self.scratch / f"{key}.hashes").unlink(missing_ok=True)
        if (ids := self.ids.pop(key, None)) is not None:
            ids.unlink(missing_ok=True)

    def _forget_joins(self, key: str) -> None:
        """Drop the join ``key``, or every join of the shard ``key``."""
        for whole, (_, parts) in list(self.joins.items()):
            if whole == key or any(shard.key == key for shard in parts):
                del self.joins[whole]
                if whole != key:
                    self._forget(whole)

    def everything(self, pages: Mapping[str, str]) -> None:
        """A site without article pages: index every HTML page, as Pagefind would."""
        if not self.shards:
            self.add(make_shard(0, pages, self.language))

    def add(self, shard: Shard) -> None:
        """A shard whose pages have all arrived: without a base, take its bundle (:meth:`_take`)."""
        self.shards.append(shard)
        if self.base is None:
            self._take(shard)

    def _take(self, shard: Shard) -> None:
        """Take a bundle from the live site or the cache, or start indexing it."""
        if (found := self._found(shard.key)) is not None:
            self.sources[shard.key] = found
            if shard is not self.delta and self.kept is not None and not ids_kept(self.kept, shard.key):
                self._write_ids(shard, found[0])  # made by a version that kept no ids: a base now
        else:
            self.queued.append(shard)
            if not self.background:
                self.launch()

    def _found(self, key: str) -> tuple[Path, tuple[str, ...]] | None:
        """Where the live site or the cache holds the bundle of ``key`` intact, and its files."""
        if (found := self.live_bundle(key)) is not None:
            return found
        if self.kept is not None and intact(self.kept, key):
            return self.kept / key, tuple(bundle_files(self.kept / key))
        return None

    def all_arrived(self) -> None:
        """Every batch's pages have arrived (none is deferred): decide the delta, or which shards
        are joined, now, so that the delta's indexer or the joins run while the site-wide pages
        are rendered and the links checked, rather than after (a page amended since decides it
        again)."""
        if self.background or not self.shards or any(self.waiting.values()):
            return
        if self.base is not None and not self.settled:
            self._add_delta(self.base)
        self._plan_joins()
        self.launch()

    def _unsettle(self) -> None:
        """Undo the delta decided by :meth:`all_arrived`: :meth:`finish` decides it again."""
        if self.delta is not None:
            self._forget(self.delta.key)
        self.delta = None
        self.hidden = {}
        self.settled = False

    def _add_delta(self, base: tuple[BaseBundle, ...]) -> None:
        """Every shard has arrived: index the pages the base lacks as the delta, or fold."""
        self.settled = True
        delta = delta_of(base, {path: sha for shard in self.shards for path, sha in shard.pages.items()})
        found = {bundle.key: source for bundle in base if (source := self._found(bundle.key)) is not None}
        if len(delta.pages) > FOLD_PAGES or len(found) < len(base):
            self.base = None
            for shard in self.shards:
                self._take(shard)
            return
        self.sources |= found
        self.hidden = delta.hidden
        if delta.pages:
            self.delta = make_shard(len(base), delta.pages, self.language)
            self._take(self.delta)

    def launch(self, *, wait: bool = False, timeout: float | None = None) -> None:
        """Collect the indexers that ended (with ``wait``, the oldest, once it ends or
        ``timeout`` seconds have passed), then start queued ones while fewer than ``jobs`` run."""
        for key, process in list(self.running.items()):
            if wait:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.wait(timeout)
                wait = False
            if process.poll() is not None:
                self._collect(key, process)
        self._queue_joins()
        while self.queued and len(self.running) < self.jobs:
            shard = self.queued.pop(0)
            run, out = self._folders(shard.key)
            if (join := self.joins.get(shard.key)) is not None:
                bundles = [self.sources[part.key][0] for part in join[1]]
                self.running[shard.key] = start_join(bundles, out, background=self.background)
            else:
                self.running[shard.key] = start_pagefind(
                    self.staging, shard.pages, run, out, self.language, background=self.background
                )

    def _plan_joins(self) -> None:
        """Every shard has arrived and there is no base: which runs of shards are joined (a run's
        bundle the live site or the cache holds is taken from there)."""
        if self.base is not None or self.refused or any(self.waiting.values()):
            return
        for whole, run in self._runs():
            if len(run) > 1 and whole.key not in self.joins:
                self.joins[whole.key] = (whole, run)
                if (found := self._found(whole.key)) is not None:
                    self.sources[whole.key] = found

    def _queue_joins(self) -> None:
        """Queue each planned join whose shards are all indexed (none once one was refused or
        anything failed: the build then publishes the shards, or nothing)."""
        if self.refused or self.problems:
            return
        waiting = {shard.key for shard in self.queued} | set(self.running)
        for key, (whole, run) in self.joins.items():
            if key not in self.sources and key not in waiting and all(s.key in self.sources for s in run):
                self.queued.append(whole)

    def _folders(self, key: str) -> tuple[Path, Path]:
        """Where the indexer of shard ``key`` runs (its settings file), and where it writes."""
        return self.scratch / f".{key}.{os.getpid()}.run", self.scratch / key

    def _collect(self, key: str, process: subprocess.Popen[str]) -> None:
        """Note an ended indexer's bundle, or its failure in ``problems``."""
        out, err = process.communicate()
        del self.running[key]
        run, made = self._folders(key)
        shutil.rmtree(run, ignore_errors=True)
        if process.returncode != 0:
            shutil.rmtree(made, ignore_errors=True)
            self._failed(key, process.returncode, err or out)
            return
        names = bundle_files(made)
        write_hashes(self.scratch / f"{key}.hashes", made, names)
        shard = next((shard for shard in self.shards if shard.key == key), None)
        if shard is not None:  # not the delta: a base to be
            self._write_ids(shard, made)
        self.made[key] = made
        self.sources[key] = (made, tuple(names))

    def _failed(self, key: str, code: int, said: str) -> None:
        """An indexer or a join that failed: a problem with the last line it ``said``; a join
        refused (:data:`~.joining.REFUSED`) is none, but no other is joined then (it would be
        refused too), and the shards are published as they are."""
        joining = key in self.joins
        if joining and code == REFUSED:
            self.refused = True
            self.queued = [shard for shard in self.queued if shard.key not in self.joins]
            return
        detail = (said.strip().splitlines() or ["no output"])[-1]
        what = "joining the search index's shards" if joining else "pagefind"
        self.problems.append(_problem(f"{what} failed with exit code {code}: {detail}"))

    def _write_ids(self, shard: Shard, bundle: Path) -> None:
        """Keep which fragment of ``bundle``, the shard's, is which page, for :attr:`ids`."""
        if (ids := page_ids(bundle, shard.pages)) is not None:
            self._keep_ids(shard.key, ids)

    def _keep_ids(self, key: str, ids: Mapping[str, tuple[str, str]]) -> None:
        self.scratch.mkdir(parents=True, exist_ok=True)
        self.ids[key] = self.scratch / f"{key}.{PAGES}"
        write_ids(self.ids[key], ids)

    def finish(self, give_up: Callable[[], bool] = never) -> Index:
        """Wait for the indexers and the joins (or until ``give_up()`` says to: they are stopped);
        then the joined bundles (or every shard's, in shard order, or the base's bundles and the
        delta), and the script."""
        if self.base is not None and not self.settled:
            self._add_delta(self.base)
        self._plan_joins()
        self.launch()
        while self.running or self.queued:
            if give_up():
                self.stop()
                return Index(problems=(), given_up=True)
            self.launch(wait=bool(self.running), timeout=GIVE_UP_STEP)
        if self.problems:
            return Index(problems=tuple(self.problems))
        return self._index()

    def _index(self) -> Index:
        """Every bundle is made: what to publish, and the scripts over it."""
        files: dict[str, Path] = {}
        bundles: dict[str, Bundle] = {}
        for published, key in self._published():
            folder, names = self.sources[key]
            files |= {f"{published}/{name}": folder / name for name in names}
            bundles[published] = (key, names)
        missing = sorted(UI_FILES - set(files) - {SCRIPT})
        if missing:
            return Index(problems=(_problem(f"pagefind did not write {', '.join(missing)}"),))
        try:
            hidden = [sorted(self.hidden.get(folder, ())) for folder in bundles]
            scripts = search_scripts(files, list(bundles), hidden, self.base_path)
        except UnmergeableError as exc:
            message = f"this Pagefind cannot merge bundles exactly ({exc}): use pagefind 1.4 or 1.5"
            return Index(problems=(_problem(message),))
        # The shards stay in the cache beside their join (the base): a fold indexes only those whose
        # pages changed, and a delta's build has every shard of the pages as they are.
        used = frozenset(key for key, _ in bundles.values()) | {shard.key for shard in self.shards}
        return Index(
            problems=(),
            files=files,
            scripts=scripts,
            bundles=bundles,
            made=dict(self.made),
            ids={key: file for key, file in self.ids.items() if key in used},
            used=used,
        )

    def _published(self) -> list[tuple[str, str]]:
        """Each bundle's folder in the site and key: the shards joined into bundles (or in
        order, where they cannot be), or the base and the delta."""
        if self.base is None:
            return self._joined_bundles()
        delta = [(DELTA, self.delta.key)] if self.delta is not None else []
        return [(bundle.folder, bundle.key) for bundle in self.base] + delta

    def _joined_bundles(self) -> list[tuple[str, str]]:
        """The runs of shards' bundles, or the shards in order if any run was not joined."""
        runs = self._runs()
        if self.refused or any(whole.key not in self.sources for whole, _ in runs):
            ordered = sorted(self.shards, key=lambda shard: shard.number)
            return [(bundle_path(index), shard.key) for index, shard in enumerate(ordered)]
        for whole, shards in runs:
            if len(shards) > 1 and (self.kept is None or not ids_kept(self.kept, whole.key)):
                self._join_ids(whole, shards)
        return [(bundle_path(index), whole.key) for index, (whole, _) in enumerate(runs)]

    def _runs(self) -> list[Run]:
        """The bundles the shards are joined into (:func:`~.shards.joined`), in order."""
        runs = joined(sorted(self.shards, key=lambda shard: shard.number))
        return [(run[0] if len(run) == 1 else self._whole(run), run) for run in runs]

    def _whole(self, run: list[Shard]) -> Shard:
        """The bundle of a run of shards' pages, known by their hash as any shard is."""
        return make_shard(0, {path: sha for shard in run for path, sha in shard.pages.items()}, self.language)

    def _join_ids(self, whole: Shard, shards: list[Shard]) -> None:
        """The joined bundle's pages' ids: its shards', else read from its fragments."""
        files = (self.ids.get(s.key) or (self.kept or self.scratch) / f"{s.key}.{PAGES}" for s in shards)
        if (ids := joined_ids(files)) is not None:
            self._keep_ids(whole.key, ids)
        else:
            self._write_ids(whole, self.sources[whole.key][0])

    def stop(self) -> None:
        """Kill what still runs."""
        for process in self.running.values():
            if process.poll() is None:
                process.kill()
            process.communicate()
        self.running.clear()
        self.queued.clear()


def _problem(message: str) -> Problem:
    return Problem(path="pyproject.toml", line=1, subject="search", rule="search-index", message=message)
