"""Writing the site: a staging folder beside the output, swapped in whole.

The pipeline is the only caller. A build writes everything into
``.NAME.new`` next to the output folder ``NAME``; only a complete, checked
site is swapped in, by two renames (``NAME`` → ``.NAME.old``, ``.NAME.new`` →
``NAME``). A kill at any moment leaves ``NAME`` as the old or the new complete
site, or, between the two renames, no ``NAME`` and a whole ``.NAME.old`` that
:func:`recover` puts back before the next build does anything else.
"""

from __future__ import annotations

import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path


def _siblings(target: Path) -> tuple[Path, Path]:
    return target.with_name(f".{target.name}.new"), target.with_name(f".{target.name}.old")


def recover(target: Path) -> None:
    """Undo what a killed build left: restore the old site, drop half-written folders."""
    new, old = _siblings(target)
    if old.is_dir() and not target.exists():
        old.rename(target)
    for leftover in (new, old):
        _remove(leftover)


def _remove(folder: Path) -> None:
    """Remove ``folder``; retry while a dying process of a killed build still writes in it."""
    for attempt in range(20):
        if not folder.exists():
            return
        try:
            shutil.rmtree(folder)
        except OSError:
            if attempt == 19:
                raise
            time.sleep(0.1)


def listing(folder: Path) -> set[str]:
    """Every file below ``folder``, as forward-slash paths relative to it."""
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}


def discard(staging: Path) -> None:
    """Remove a staging folder that will not be published."""
    shutil.rmtree(staging, ignore_errors=True)


def swap(staging: Path, target: Path) -> None:
    """Replace ``target`` by ``staging`` with two renames, then drop the old site."""
    _, old = _siblings(target)
    if target.exists():
        target.rename(old)
    staging.rename(target)
    _remove(old)


Stat = tuple[int, int, int]
"""(size, mtime in ns, inode) of a file: changes whenever the file is written or replaced."""


def stat_of(path: Path) -> Stat | None:
    """The :data:`Stat` of a file, or None when it is not one."""
    try:
        found = path.stat()
    except OSError:
        return None
    return (found.st_size, found.st_mtime_ns, found.st_ino)


def stats(folder: Path) -> dict[str, Stat]:
    """Every file below ``folder`` with its :data:`Stat`."""
    found: dict[str, Stat] = {}
    for directory, _, names in os.walk(folder):
        for name in names:
            path = Path(directory, name)
            known = stat_of(path)
            if known is not None:
                found[path.relative_to(folder).as_posix()] = known
    return found


@dataclass(frozen=True, slots=True)
class Written:
    """What a build left in the output folder: the cache keeps it for the next build."""

    site: str
    """Hash of every input of the build."""
    files: dict[str, Stat]
    """Every file of the output."""
    hashes: dict[str, str]
    """Content hash of every generated page and file (assets and the index apart)."""
    revisions: int
    pages: int
    bundles: dict[str, tuple[str, tuple[str, ...]]]
    """Search-index shards: folder in the output → (shard key, its files' names)."""

    def untouched(self, target: Path, folder: str, names: tuple[str, ...]) -> bool:
        """Whether the files ``folder/NAME`` of ``target`` are the very ones this build wrote."""
        return bool(names) and all(
            stat_of(target / folder / name) == self.files.get(f"{folder}/{name}") for name in names
        )


def unchanged(target: Path, written: Written | None, site: str) -> bool:
    """Whether ``target`` is exactly what a build of these inputs wrote."""
    return written is not None and written.site == site and stats(target) == written.files


def fresh_staging(target: Path) -> Path:
    """An empty staging folder beside ``target``."""
    staging, _ = _siblings(target)
    _remove(staging)
    staging.mkdir(parents=True)
    return staging


def reuse(target: Path, staging: Path, written: Written | None, relative: str, sha: str) -> bool:
    """Hard-link ``relative`` from the live site into staging when it holds these bytes.

    The live file is taken only when it is the very file the last build wrote
    (same size, mtime and inode) and that build recorded the same hash: its bytes
    are not written again, and its mtime says so to whatever syncs the site.
    """
    if written is None or written.hashes.get(relative) != sha:
        return False
    live = target / relative
    if stat_of(live) != written.files.get(relative):
        return False
    copy = staging / relative
    try:
        os.link(live, copy)
    except FileNotFoundError:  # its folder is not there yet
        copy.parent.mkdir(parents=True, exist_ok=True)
        os.link(live, copy)
    except OSError:
        return False
    return True


def copy_assets(assets: Path, staging: Path) -> None:
    """Copy ``assets`` into ``staging/assets`` (a symlink to a file outside it is never published)."""
    if not assets.is_dir():
        return
    inside = assets.resolve()
    sources = (p for p in assets.rglob("*") if p.is_file() and p.resolve().is_relative_to(inside))
    for source in sorted(sources):
        copy = staging / "assets" / source.relative_to(assets)
        copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, copy)
