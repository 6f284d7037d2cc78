"""The search index: Pagefind, in shards, built while the staged site is checked.

One Pagefind index of every article takes seconds on a large site, and any
edit would redo it whole. The articles are split instead into shards by batch
name (a batch stays in its shard while the number of shards stays the same);
each shard is indexed on its own by the Pagefind binary, and the browser merges
them (Pagefind's ``mergeIndex``). A shard is known by a hash of its pages, so a
rebuild indexes only the shards whose pages changed and takes the others from
the cache. The first shard lives at ``/pagefind/`` (the UI and a template that
knows only the default bundle keep working); the others at ``/pagefind/shard-NN/``.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .cache import Cache, content_hash
from .errors import Problem
from .lifetime import die_with_parent
from .output import link

UI_FILES = frozenset({"pagefind/pagefind-ui.js", "pagefind/pagefind-ui.css", "pagefind/site-search.js"})
"""What the pages link to from the index: checked links may count on them."""

BATCHES_PER_SHARD = 10
"""About this many batches (30 articles) share a shard: re-indexing one takes some 0.15 s."""
MAX_SHARDS = 32
"""A search loads every shard's index: past this, shards grow instead of multiplying."""

_BUNDLE = "pagefind"


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


def plan(
    pages_by_batch: Mapping[str, Mapping[str, str]], everything: Mapping[str, str], language: str
) -> list[Shard]:
    """The non-empty shards of a site: batch name → (page path → content hash)."""
    count = shard_count(len(pages_by_batch))
    members: dict[int, dict[str, str]] = {}
    for batch, pages in pages_by_batch.items():
        members.setdefault(shard_of(batch, count), {}).update(pages)
    if not any(members.values()):
        members = {0: dict(everything)}  # no articles: index what there is, as Pagefind would
    version = _pagefind_version()
    shards = []
    for number, pages in sorted(members.items()):
        digest = hashlib.sha256(f"{version}\0{language}\0".encode())
        for path, sha in sorted(pages.items()):
            digest.update(f"{path}\0{sha}\0".encode())
        shards.append(Shard(number, tuple(sorted(pages)), digest.hexdigest()))
    return shards


def bundle_path(index: int) -> str:
    """Where the ``index``-th non-empty shard is published, relative to the site."""
    return _BUNDLE if index == 0 else f"{_BUNDLE}/shard-{index:02d}"


Bundle = tuple[str, tuple[str, ...]]
"""A published shard: its key and the names of its files inside its folder."""

Live = Callable[[str], "tuple[Path, tuple[str, ...]] | None"]
"""Where the live site holds, untouched, the bundle of the shard with this key, and its files."""


@dataclass(slots=True)
class Indexing:
    """Shards being indexed in the background, and where each finished bundle comes from."""

    shards: list[Shard]
    store: Path
    """Where shard bundles are kept (the cache, or a temporary folder)."""
    live: dict[str, tuple[Path, tuple[str, ...]]] = field(default_factory=dict)
    """Shards the live site already holds, untouched: key → its bundle folder there."""
    running: dict[str, subprocess.Popen[str]] = field(default_factory=dict)
    queued: list[str] = field(default_factory=list)
    """Shards waiting for a free core: one indexer per job, the rest wait."""
    jobs: int = 1
    language: str = "en"
    scratch: tempfile.TemporaryDirectory[str] | None = None

    def launch(self) -> None:
        """Start queued indexers while fewer than ``jobs`` run."""
        pid = os.getpid()
        while self.queued and len(self.running) < self.jobs:
            key = self.queued.pop(0)
            site, out = self.store / f".{key}.{pid}.site", self.store / f".{key}.{pid}.out"
            self.running[key] = _pagefind(site, out, self.language)

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


def start_index(
    staging: Path, shards: Sequence[Shard], language: str, cache: Cache | None, live: Live, jobs: int
) -> Indexing:
    """Start Pagefind on every shard that neither the live site nor the cache holds."""
    scratch = None
    if cache is not None:
        store = cache.folder / "search"
    else:
        scratch = tempfile.TemporaryDirectory(prefix="site-builder-search-")
        store = Path(scratch.name)
    indexing = Indexing(list(shards), store, jobs=max(1, jobs), language=language, scratch=scratch)
    store.mkdir(parents=True, exist_ok=True)
    for shard in shards:
        if (found := live(shard.key)) is not None:
            indexing.live[shard.key] = found
            continue
        if _intact(store, shard.key):
            continue
        site = store / f".{shard.key}.{os.getpid()}.site"
        shutil.rmtree(site, ignore_errors=True)
        for page in shard.pages:
            link(staging / page, site / page)
        indexing.queued.append(shard.key)
    indexing.launch()
    return indexing


def finish_index(indexing: Indexing, staging: Path) -> tuple[list[Problem], dict[str, Bundle]]:
    """Wait for the indexers, then publish every shard and the script that merges them.

    Returns the problems, and each published bundle (its folder in the site →
    its shard key and files) for the next build to find it in the live site.
    """
    problems = []
    try:
        while indexing.running:
            key = next(iter(indexing.running))
            out, err = indexing.running[key].communicate()
            process = indexing.running.pop(key)
            indexing.launch()
            site = indexing.store / f".{key}.{os.getpid()}.site"
            made = indexing.store / f".{key}.{os.getpid()}.out"
            shutil.rmtree(site, ignore_errors=True)
            if process.returncode != 0:
                detail = ((err or out).strip().splitlines() or ["no output"])[-1]
                problems.append(_problem(f"pagefind failed with exit code {process.returncode}: {detail}"))
                shutil.rmtree(made, ignore_errors=True)
                continue
            _keep(indexing.store, key, made)
        if problems:
            return problems, {}
        published: dict[str, Bundle] = {}
        for index, shard in enumerate(indexing.shards):
            folder = bundle_path(index)
            if shard.key in indexing.live:  # the very files the last build published: linked
                source, names = indexing.live[shard.key]
                for name in names:
                    link(source / name, staging / folder / name)
            else:  # copied: the cache's files are never shared with a site that can be edited
                names = tuple(_files(indexing.store / shard.key, nested=False))
                for name in names:
                    _copy(indexing.store / shard.key / name, staging / folder / name)
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


def _pagefind(site: Path, out: Path, language: str) -> subprocess.Popen[str]:
    # One forced language, so the search box on any page finds ru, ko and en text alike;
    # Pagefind would otherwise keep an index per language and search only the page's own.
    command = [
        _executable(),
        "--site",
        str(site),
        "--output-path",
        str(out),
        "--force-language",
        language,
        "--quiet",
    ]
    # die_with_parent: a killed build must not leave an indexer running.
    return subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=die_with_parent
    )


def _executable() -> str:
    """The Pagefind binary the ``pagefind[bin]`` wheel ships: run directly, not through Python."""
    try:
        import pagefind_bin  # type: ignore[import-untyped]

        return str(pagefind_bin.get_executable())
    except (ImportError, FileNotFoundError):
        return shutil.which("pagefind") or "pagefind"


def _pagefind_version() -> str:
    try:
        from importlib.metadata import version

        return version("pagefind")
    except Exception:  # noqa: BLE001 - an unknown version only means a different cache key
        return "unknown"


def _copy(source: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    target.unlink(missing_ok=True)  # never written in place: it may be shared with the live site
    shutil.copyfile(source, target)


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
