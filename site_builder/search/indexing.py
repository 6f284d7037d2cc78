"""The search index: Pagefind, in shards, each built as soon as its pages are staged.

One Pagefind index of every article takes seconds on a large site, and any
edit would redo it whole. The articles are split instead into shards by batch
name (a batch stays in its shard while the number of shards stays the same);
each shard is indexed on its own by the Pagefind binary, and the browser merges
them (Pagefind's ``mergeIndex``). A shard is known by a hash of its pages, so a
rebuild indexes only the shards whose pages changed and takes the others from
the cache. The first shard lives at ``/pagefind/`` (the UI and a template that
knows only the default bundle keep working); the others at ``/pagefind/shard-NN/``.

The workers render the batches shard by shard, so a shard's indexer starts
while the workers go on with the next; Pagefind reads the staging folder itself,
told the shard's pages by a glob.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from site_builder.build.staging import link
from site_builder.build.store import Cache, content_hash
from site_builder.errors import Problem
from site_builder.processes import die_with_parent

UI_FILES = frozenset({"pagefind/pagefind-ui.js", "pagefind/pagefind-ui.css", "pagefind/site-search.js"})
"""What the pages link to from the index: checked links may count on them."""

BATCHES_PER_SHARD = 10
"""About this many batches (30 articles) share a shard: re-indexing one takes some 0.15 s."""
MAX_SHARDS = 32
"""A search loads every shard's index: past this, shards grow instead of multiplying."""

_BUNDLE = "pagefind"
_GLOB_SPECIAL = re.compile(r"[\\*?\[\]{},]")
"""What a glob would read as syntax in a page's path: each is escaped with a backslash."""


def shard_count(batches: int) -> int:
    """How many shards a site of ``batches`` batches is split into."""
    return max(1, min(MAX_SHARDS, math.ceil(batches / BATCHES_PER_SHARD)))


def shard_of(batch: str, count: int) -> int:
    """The shard of a batch: a hash of its name, so neighbours do not move it."""
    return int(hashlib.sha256(batch.encode("utf-8")).hexdigest()[:8], 16) % count


@dataclass(frozen=True, slots=True)
class Shard:
    """Some article pages indexed together, and the hash they are cached by."""

    number: int
    pages: tuple[str, ...]
    """Output paths of its pages (every HTML page when the site has no articles)."""
    key: str


def make_shard(number: int, pages: Mapping[str, str], language: str) -> Shard:
    """Shard ``number`` of these pages (output path → content hash), with its cache key."""
    digest = hashlib.sha256(f"{_pagefind_version()}\0{language}\0".encode())
    for path, sha in sorted(pages.items()):
        digest.update(f"{path}\0{sha}\0".encode())
    return Shard(number, tuple(sorted(pages)), digest.hexdigest())


def bundle_path(index: int) -> str:
    """Where the ``index``-th non-empty shard is published, relative to the site."""
    return _BUNDLE if index == 0 else f"{_BUNDLE}/shard-{index:02d}"


Bundle = tuple[str, tuple[str, ...]]
"""A published shard: its key and the names of its files inside its folder."""

Live = Callable[[str], "tuple[Path, tuple[str, ...]] | None"]
"""Where the live site holds, untouched, the bundle of the shard with this key, and its files."""


@dataclass(slots=True)
class Indexing:
    """The search index of one build, shard by shard: each is started as soon as the last
    of its batches has its pages staged (so indexing overlaps rendering), and each
    finished bundle comes from the live site, the cache or a new Pagefind run."""

    staging: Path
    store: Path
    """Where shard bundles are kept (the cache, or a temporary folder)."""
    language: str
    live_bundle: Live
    jobs: int = 1
    scratch: tempfile.TemporaryDirectory[str] | None = None
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
    live: dict[str, tuple[Path, tuple[str, ...]]] = field(default_factory=dict)
    """Shards the live site already holds, untouched: key → its bundle folder there."""
    running: dict[str, subprocess.Popen[str]] = field(default_factory=dict)
    queued: list[Shard] = field(default_factory=list)
    """Shards waiting for a free core: one indexer per job, the rest wait."""
    problems: list[Problem] = field(default_factory=list)
    """What the indexers that ended reported."""

    @classmethod
    def open(
        cls,
        staging: Path,
        batches: Sequence[str],
        language: str,
        cache: Cache | None,
        live: Live,
        jobs: int,
    ) -> Indexing:
        """The index of a site of these batches, nothing started yet."""
        scratch = None
        if cache is not None:
            store = cache.folder / "search"
        else:
            scratch = tempfile.TemporaryDirectory(prefix="site-builder-search-")
            store = Path(scratch.name)
        count = shard_count(len(batches))  # the store is made when a shard is first indexed
        indexing = cls(staging, store, language, live, max(1, jobs), scratch)
        indexing.batches = {name: shard_of(name, count) for name in batches}
        for number in indexing.batches.values():
            indexing.waiting[number] = indexing.waiting.get(number, 0) + 1
        return indexing

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

    def everything(self, pages: Mapping[str, str]) -> None:
        """A site without article pages: index every HTML page, as Pagefind would."""
        if not self.shards:
            self.add(make_shard(0, pages, self.language))

    def add(self, shard: Shard) -> None:
        """Take a shard's bundle from the live site or the cache, or start indexing it."""
        self.shards.append(shard)
        if (found := self.live_bundle(shard.key)) is not None:
            self.live[shard.key] = found
            return
        if _intact(self.store, shard.key):
            return
        self.queued.append(shard)
        self.launch()

    def launch(self, *, wait: bool = False) -> None:
        """Collect the indexers that ended (with ``wait``, the oldest, once it ends), then
        start queued ones while fewer than ``jobs`` run."""
        for key, process in list(self.running.items()):
            if wait or process.poll() is not None:
                self._collect(key, process)
                wait = False
        while self.queued and len(self.running) < self.jobs:
            shard = self.queued.pop(0)
            run, out = self._scratch(shard.key)
            self.running[shard.key] = _pagefind(self.staging, shard.pages, run, out, self.language)

    def _scratch(self, key: str) -> tuple[Path, Path]:
        """Where the indexer of shard ``key`` runs (its settings file), and where it writes."""
        return self.store / f".{key}.{os.getpid()}.run", self.store / f".{key}.{os.getpid()}.out"

    def _collect(self, key: str, process: subprocess.Popen[str]) -> None:
        """Keep an ended indexer's bundle in the store, or its failure in ``problems``."""
        out, err = process.communicate()
        del self.running[key]
        run, made = self._scratch(key)
        shutil.rmtree(run, ignore_errors=True)
        if process.returncode != 0:
            detail = ((err or out).strip().splitlines() or ["no output"])[-1]
            self.problems.append(_problem(f"pagefind failed with exit code {process.returncode}: {detail}"))
            shutil.rmtree(made, ignore_errors=True)
            return
        _keep(self.store, key, made)

    def stop(self) -> None:
        """Kill what still runs and drop temporary folders."""
        for process in self.running.values():
            if process.poll() is None:
                process.kill()
            process.communicate()
        self.running.clear()
        self.queued.clear()
        if self.scratch is not None:
            self.scratch.cleanup()
            self.scratch = None


def finish_index(indexing: Indexing) -> tuple[list[Problem], dict[str, Bundle]]:
    """Wait for the indexers, then publish every shard and the script that merges them.

    Returns the problems, and each published bundle (its folder in the site →
    its shard key and files) for the next build to find it in the live site.
    """
    staging = indexing.staging
    try:
        while indexing.running:
            indexing.launch(wait=True)
        if indexing.problems:
            return list(indexing.problems), {}
        published: dict[str, Bundle] = {}
        indexing.shards.sort(key=lambda shard: shard.number)
        for index, shard in enumerate(indexing.shards):
            folder = bundle_path(index)
            if shard.key in indexing.live:  # the very files the last build published: linked
                source, names = indexing.live[shard.key]
                for name in names:
                    link(source / name, staging / folder / name)
            else:  # linked: a file of the site edited in place fails _intact before reuse
                names = tuple(_files(indexing.store / shard.key, nested=False))
                for name in names:
                    link(indexing.store / shard.key / name, staging / folder / name)
            published[folder] = (shard.key, names)
        bundles = ["/" + bundle_path(index) + "/" for index in range(len(indexing.shards))]
        script = staging / _BUNDLE / "site-search.js"
        script.unlink(missing_ok=True)
        script.write_text(_SCRIPT.replace("BUNDLES", json.dumps(bundles)), "utf-8")
        missing = sorted(name for name in UI_FILES if not (staging / name).is_file())
        return ([_problem(f"pagefind did not write {', '.join(missing)}")] if missing else []), published
    finally:
        indexing.stop()


def kept(indexing: Indexing) -> set[str]:
    """The shard bundles this build used: the cache keeps these and drops the rest."""
    return {shard.key for shard in indexing.shards}


def _files(folder: Path, *, nested: bool) -> list[str]:
    """A bundle's files; the first bundle's folder also holds the others and our script."""
    names = []
    for path in sorted(folder.rglob("*")):
        name = path.relative_to(folder).as_posix()
        if path.is_file() and not (nested and (name.startswith("shard-") or name == "site-search.js")):
            names.append(name)
    return names


def _keep(store: Path, key: str, made: Path) -> None:
    """Move a finished bundle into the store with the hashes of its files beside it."""
    final = store / key
    shutil.rmtree(final, ignore_errors=True)
    hashes = {name: content_hash((made / name).read_bytes()) for name in _files(made, nested=False)}
    made.rename(final)
    (store / f"{key}.hashes").write_text(json.dumps(hashes, sort_keys=True), "utf-8")


def _intact(store: Path, key: str) -> bool:
    """Whether the store holds the bundle of ``key`` whole and unaltered."""
    try:
        hashes = json.loads((store / f"{key}.hashes").read_text("utf-8"))
        folder = store / key
        return (
            isinstance(hashes, dict)
            and bool(hashes)
            and all(content_hash((folder / name).read_bytes()) == sha for name, sha in hashes.items())
            and set(_files(folder, nested=False)) == set(hashes)
        )
    except (OSError, ValueError):
        return False


def _pagefind(site: Path, pages: Sequence[str], run: Path, out: Path, language: str) -> subprocess.Popen[str]:
    """Index ``pages`` (paths relative to ``site``) into ``out``. They are named by a glob in
    a settings file (a command line has a length limit), read from ``run``, the working folder."""
    alternatives = ",".join(_GLOB_SPECIAL.sub(r"\\\g<0>", page) for page in pages)
    settings = {
        "site": str(site),
        "output_path": str(out),
        "glob": "{" + alternatives + "}",
        # One forced language, so the search box on any page finds ru, ko and en text alike;
        # Pagefind would otherwise keep an index per language and search only the page's own.
        "force_language": language,
    }
    shutil.rmtree(run, ignore_errors=True)
    run.mkdir(parents=True)
    (run / "pagefind.json").write_text(json.dumps(settings, ensure_ascii=False), "utf-8")
    command = [_executable(), "--quiet"]
    # die_with_parent: a killed build must not leave an indexer running.
    return subprocess.Popen(
        command,
        cwd=run,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=die_with_parent,
    )


def _executable() -> str:
    """The Pagefind binary the ``pagefind[bin]`` wheel ships: run directly, not through Python."""
    try:
        import pagefind_bin  # type: ignore[import-untyped]

        return str(pagefind_bin.get_executable())
    except (ImportError, FileNotFoundError):
        return shutil.which("pagefind") or "pagefind"


@functools.cache
def _pagefind_version() -> str:
    try:
        from importlib.metadata import version

        return version("pagefind")
    except Exception:  # noqa: BLE001 - an unknown version only means a different cache key
        return "unknown"


def _problem(message: str) -> Problem:
    return Problem(path="pyproject.toml", line=1, subject="search", rule="search-index", message=message)


_SCRIPT = """\
(function () {
  var box = document.getElementById("search");
  if (!window.PagefindUI || !box) return;
  var bundles = BUNDLES;
  new PagefindUI({element: box, bundlePath: bundles[0], showSubResults: false, showImages: false,
                  mergeIndex: bundles.slice(1).map(function (path) { return {bundlePath: path}; }),
                  translations: {placeholder: box.dataset.label}});
  var input = box.querySelector(".pagefind-ui__search-input");
  if (input) input.setAttribute("aria-label", box.dataset.label);
})();
"""
