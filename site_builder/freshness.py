"""Whether a build has anything to do: a hash of every input against the last build's.

Kept apart from the pipeline so that ``build`` with nothing changed answers
without importing the Markdown, template and worker machinery.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from . import output
from .cache import Cache, batch_key, site_digest
from .loader import batch_paths
from .settings import Settings, load_settings


@dataclass(frozen=True, slots=True)
class Inputs:
    """The hashes a build is known by, each file read once per build."""

    common: str
    """What every batch depends on besides its own module (:func:`site_digest`)."""
    keys: dict[Path, str]
    """Each batch module's cache key, in site order."""
    key: str
    """Every input of the build: the batches, the assets' names, sizes and times, the output folder."""


def hash_inputs(root: Path, settings: Settings, target: Path) -> Inputs:
    """Hash every input of a build of ``root`` into ``target``."""
    folder = root / settings.articles_dir
    paths = batch_paths(folder) if folder.is_dir() else []
    common = site_digest(root, settings, paths)
    keys = {path: batch_key(common, path) for path in paths}
    digest = hashlib.sha256(common.encode())
    for key in keys.values():
        digest.update(key.encode())
    assets = root / settings.assets_dir
    for name, (size, mtime, _) in sorted(output.stats(assets).items() if assets.is_dir() else []):
        digest.update(f"{name}\0{size}\0{mtime}\0".encode())
    digest.update(str(target).encode())
    return Inputs(common, keys, digest.hexdigest())


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
    inputs = hash_inputs(root, settings, target)
    new, old = output.leftovers(target)
    if new.exists() or old.exists():  # an interrupted build: the full path cleans up first
        return None, inputs
    return up_to_date(Cache.of(root), target, inputs.key), inputs
