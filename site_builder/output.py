"""Writing the site: a staging folder beside the output, swapped in whole.

The pipeline is the only caller. A build writes everything into
``.NAME.new`` next to the output folder ``NAME``; only a complete, checked
site is swapped in, by two renames (``NAME`` → ``.NAME.old``, ``.NAME.new`` →
``NAME``). A kill at any moment leaves ``NAME`` as the old or the new complete
site, or, between the two renames, no ``NAME`` and a whole ``.NAME.old`` that
:func:`recover` puts back before the next build does anything else.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Mapping
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


def stage(target: Path, files: Mapping[str, bytes], *, assets: Path) -> Path:
    """Write ``files`` and a copy of ``assets`` into a fresh staging folder."""
    staging, _ = _siblings(target)
    _remove(staging)
    staging.mkdir(parents=True)
    if assets.is_dir():
        inside = assets.resolve()
        # A symlink to a file outside assets/ is never published.
        sources = (p for p in assets.rglob("*") if p.is_file() and p.resolve().is_relative_to(inside))
        for source in sorted(sources):
            copy = staging / "assets" / source.relative_to(assets)
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, copy)
    for relative, data in sorted(files.items()):
        path = staging / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return staging


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
