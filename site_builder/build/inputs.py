"""Whether a build has anything to do: a hash of every input against the last build's.

Kept apart from the pipeline so that ``build`` with nothing changed answers
without importing the Markdown, template and worker machinery.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from site_builder.build import staging as output
from site_builder.build.store import Cache, batch_key, site_digest
from site_builder.check.load import batch_paths
from site_builder.settings import Settings, load_settings

Stamp = tuple[int, int, int, int, str, str]
"""A batch module as last hashed: (size, mtime in ns, inode, ctime in ns, what every batch
depends on besides it, its key)."""

RACY_NS = 2_000_000_000
"""A file changed this shortly before it was hashed may change again within one tick of the
file system's clock, keeping its stat: its stat is not trusted (git's "racily clean" files)."""


@dataclass(frozen=True, slots=True)
class Inputs:
    """The hashes a build is known by, each file read once per build."""

    common: str
    """What every batch depends on besides its own module (:func:`site_digest`)."""
    keys: dict[Path, str]
    """Each batch module's cache key, in site order."""
    key: str
    """Every input of the build: the batches, the assets' names, sizes and times, the output folder."""
    stamps: dict[str, Stamp] = field(default_factory=dict)
    """For the next run (:func:`known_stamps`): each batch module whose stat can be trusted."""


def known_stamps(store: Cache | None) -> dict[str, Stamp]:
    """The batch modules' stamps a successful build kept (see :func:`keep_stamps`)."""
    found = store.get("inputs", "batches") if store is not None else None
    if not isinstance(found, dict):
        return {}
    # Well-formed entries only: a damaged cache is a miss, never a wrong key.
    return {
        name: entry
        for name, entry in found.items()
        if isinstance(entry, tuple) and len(entry) == 6 and isinstance(entry[5], str)
    }


def keep_stamps(store: Cache, inputs: Inputs) -> None:
    """Keep the stamps of these inputs for the next run to trust."""
    store.put("inputs", "batches", inputs.stamps)


def hash_inputs(
    root: Path, settings: Settings, target: Path, known: Mapping[str, Stamp] | None = None
) -> Inputs:
    """Hash every input of a build of ``root`` into ``target``. A batch module whose size,
    times and inode are those ``known`` from a run over the same other inputs is not read
    again: its key is the one found then (an edit, even one that puts the mtime back, moves
    the ctime, which nobody can set)."""
    folder = root / settings.articles_dir
    paths = batch_paths(folder) if folder.is_dir() else []
    common = site_digest(root, settings, paths)
    known = known or {}
    started = time.time_ns()
    keys: dict[Path, str] = {}
    stamps: dict[str, Stamp] = {}
    for path in paths:
        stat = _stat(path)
        entry = known.get(path.name)
        if stat is not None and entry is not None and entry[:5] == (*stat, common):
            keys[path], stamps[path.name] = entry[5], entry
            continue
        keys[path] = batch_key(common, path)
        if stat is not None and max(stat[1], stat[3]) < started - RACY_NS:
            stamps[path.name] = (*stat, common, keys[path])
    digest = hashlib.sha256(common.encode())
    for key in keys.values():
        digest.update(key.encode())
    assets = root / settings.assets_dir
    for name, (size, mtime, _) in sorted(output.stats(assets).items() if assets.is_dir() else []):
        digest.update(f"{name}\0{size}\0{mtime}\0".encode())
    digest.update(str(target).encode())
    return Inputs(common, keys, digest.hexdigest(), stamps)


def _stat(path: Path) -> tuple[int, int, int, int] | None:
    """(size, mtime in ns, inode, ctime in ns) of a file, or None."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_size, found.st_mtime_ns, found.st_ino, found.st_ctime_ns


def record_name(target: Path) -> str:
    """The cache entry that records what was written to ``target``."""
    return hashlib.sha256(str(target).encode()).hexdigest()[:32]


def last_written(store: Cache | None, target: Path) -> output.Written | None:
    """The record of the last build into ``target``, when the cache has a whole one."""
    entry = store.get("outputs", record_name(target)) if store is not None else None
    return entry if isinstance(entry, output.Written) else None


def up_to_date(store: Cache, target: Path, inputs: str) -> output.Written | None:
    """The last build's record when ``target`` is exactly what it wrote from these inputs."""
    last = last_written(store, target)
    return last if last is not None and output.unchanged(target, last, inputs) else None


def unchanged_site(root: Path, out: Path | None) -> tuple[output.Written | None, Inputs | None]:
    """The record of the last build when building ``root`` into ``out`` again would give
    the same site (every input hashes the same and the output is untouched), and the
    inputs' hash (for the build to use when there is something to do)."""
    root = root.resolve()
    settings, problems = load_settings(root)
    if problems:
        return None, None
    target = (out or root / settings.output_dir).resolve()
    store = Cache.of(root)
    inputs = hash_inputs(root, settings, target, known_stamps(store))
    new, old = output.leftovers(target)
    if new.exists() or old.exists():  # an interrupted build: the full path cleans up first
        return None, inputs
    return up_to_date(store, target, inputs.key), inputs
