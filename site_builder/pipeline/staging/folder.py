"""Writing the site: a staging folder beside the output, swapped in whole.

The pipeline is the only caller. A build writes everything into
``.NAME.new`` next to the output folder ``NAME``; only a complete, checked
site is swapped in, by two renames (``NAME`` → ``.NAME.old``, ``.NAME.new`` →
``NAME``). A kill at any moment leaves ``NAME`` as the old or the new complete
site, or, between the two renames, no ``NAME`` and a whole ``.NAME.old`` that
:func:`recover` puts back before the next build does anything else.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from site_builder.pipeline.staging.written import Contents, Written


def _siblings(target: Path) -> tuple[Path, Path]:
    return target.with_name(f".{target.name}.new"), target.with_name(f".{target.name}.old")


def leftovers(target: Path) -> tuple[Path, Path]:
    """The staging folder and the moved-aside old site a build of ``target`` uses."""
    return _siblings(target)


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


def discard(stage: Stage, spare: Path | None) -> None:
    """Put away a staging folder that will not be published: back where the spare was when it
    was the spare (one rename, however large the site: a failed or interrupted build ends at
    once), else removed. What the build changed in it is known by its stat, which no longer
    matches the spare's record, so the next build does not trust those files."""
    if not stage.folder.exists():
        return
    if spare is not None and stage.held is not None and not spare.exists():
        try:
            stage.folder.rename(spare)
            return
        except OSError:
            pass
    shutil.rmtree(stage.folder, ignore_errors=True)


def swap(staging: Path, target: Path, spare: Path | None = None) -> bool:
    """Replace ``target`` by ``staging`` with two renames, then keep the old site as
    ``spare`` (for the next build to bring up to date) or drop it. True when kept."""
    _, old = _siblings(target)
    if target.exists():
        target.rename(old)
    staging.rename(target)
    if spare is not None and old.is_dir():
        try:
            _remove(spare)
            spare.parent.mkdir(parents=True, exist_ok=True)
            old.rename(spare)  # fails across file systems: then it is dropped like any old site
            return True
        except OSError:
            pass
    _remove(old)
    return False


@dataclass(frozen=True, slots=True, kw_only=True)
class Stage:
    """The staging folder of one build, and what is known of the files already in it.

    It is empty, or it is the spare: the site before the live one, kept by the last
    build (:func:`swap`), to be brought up to date. Either way a file is kept when
    it already holds the right bytes, hard-linked from the live site when that
    holds them, and written otherwise; nothing in it is ever written in place,
    since its files may be links shared with the live site.
    """

    folder: Path
    target: Path
    live: Written | None
    """The record of the live site."""
    held: Written | None
    """The record of what ``folder`` held when the build took it (None: nothing known)."""
    known: Contents | None = None
    """What ``held`` says each folder holds (made once: the prune and the new record read it)."""
    vouched: bool = False
    """Whether ``held`` is known true of every file in ``folder`` without a ``stat`` of each: the
    spare of a process that alone writes it (``serve``'s; see
    :meth:`~site_builder.pipeline.cache.reuse.Cache.spare_vouched`). At 10,000 articles the
    ``stat`` of each kept page was 60 ms of every edit's wait for its page."""

    @classmethod
    def open(
        cls,
        target: Path,
        spare: Path | None,
        live: Written | None,
        held: Written | None,
        *,
        vouched: bool = False,
    ) -> Stage:
        """The spare when there is one, brought beside ``target``; an empty folder otherwise."""
        staging, _ = _siblings(target)
        _remove(staging)
        if spare is not None and spare.is_dir():
            try:
                spare.rename(staging)
                known = held.contents() if held is not None else None
                return cls(folder=staging, target=target, live=live, held=held, known=known, vouched=vouched)
            except OSError:
                _remove(spare)
        staging.mkdir(parents=True)
        return cls(folder=staging, target=target, live=live, held=None)

    def has(self, relative: str, sha: str) -> bool:
        """Make ``relative`` hold the bytes hashed ``sha`` without writing them, if it can:
        already there, or linked from the live site."""
        held = self.held
        if held is not None and held.hashes.get(relative) == sha:
            if self.vouched and relative in held.files:
                return True  # no stat: see vouched
            if held.lists(f"{self.folder}/{relative}", relative):  # strings: asked of every kept page
                return True
        live = self.live
        if live is None or live.hashes.get(relative) != sha:
            return False
        source = f"{self.target}/{relative}"
        if not live.lists(source, relative):
            return False
        try:
            link(Path(source), self.folder / relative)
        except OSError:
            return False
        return True

    def live_bundle(self, key: str) -> tuple[Path, tuple[str, ...]] | None:
        """Where the live site holds, untouched, the search bundle of a shard key, and its files."""
        last = self.live
        for folder, (known, names) in (last.bundles if last is not None else {}).items():
            if known == key and last is not None and last.untouched(self.target, folder, names):
                return self.target / folder, names
        return None

    def linked_from_live(self) -> Callable[[str, Path], bool]:
        """Whether the staging folder's ``path`` is already the very file ``source``, without a
        ``stat`` of either: ``source`` is the live site's file at ``path`` (a bundle the build
        took from the live site, which :meth:`live_bundle` found untouched), the records of both
        folders give it the same inode, and its folder here has not changed since its record was
        made (a name is bound to another file only by a link, an unlink or a rename in its
        folder, each of which changes the folder's time). At 10,000 articles the base bundles are
        10,604 files: two ``stat`` calls each were 0.08 s of every edit."""
        held, live, known = self.held, self.live, self.known
        if held is None or live is None or known is None:
            return lambda _path, _source: False
        target, folder = f"{self.target}/", str(self.folder)
        unchanged: dict[str, bool] = {}

        def linked(path: str, source: Path) -> bool:
            was, now = held.files.get(path), live.files.get(path)
            if was is None or now is None or was[2] != now[2] or str(source) != target + path:
                return False
            parent = path.rpartition("/")[0] + "/"  # a bundle's file is always below pagefind/
            if parent not in unchanged:
                unchanged[parent] = known.unchanged(f"{folder}/{parent}", parent)
            return unchanged[parent]

        return linked

    def prune(self, wanted: set[str], *, but: str | None = None, within: str | None = None) -> None:
        """Remove every file not ``wanted`` (except below folder ``but``; only below folder
        ``within`` when given), then empty folders. A folder nothing was added to or taken out
        of since the held record was made is not read: the record says what it holds."""
        known = self.known
        if within is None:
            _prune(str(self.folder), "", wanted, but, known)
        elif os.path.isdir(self.folder / within) and not _prune(
            str(self.folder / within), within + "/", wanted, but, known
        ):
            os.rmdir(self.folder / within)


def _prune(directory: str, prefix: str, wanted: set[str], but: str | None, known: Contents | None) -> bool:
    """Prune below ``directory`` (output path ``prefix``); whether anything is left in it."""
    left = False
    files, folders = _entries(directory, prefix, known)
    for name in folders:
        relative = prefix + name
        path = f"{directory}/{name}"
        if relative == but or _prune(path, relative + "/", wanted, but, known):
            left = True
        else:
            os.rmdir(path)
    for name in files:
        if prefix + name in wanted:
            left = True
        else:
            os.unlink(f"{directory}/{name}")
    return left


def _entries(directory: str, prefix: str, known: Contents | None) -> tuple[list[str], list[str]]:
    """The names of the files and of the folders in ``directory``: from the record when it
    still tells them, else read."""
    if known is not None and (listed := known.entries(directory, prefix)) is not None:
        return listed
    files: list[str] = []
    folders: list[str] = []
    for entry in os.scandir(directory):
        (folders if entry.is_dir(follow_symlinks=False) else files).append(entry.name)
    return files, folders


def link(source: Path, target: Path) -> None:
    """Make ``target`` a hard link to ``source`` (a copy across file systems), replacing it."""
    try:
        there = os.stat(target)
    except FileNotFoundError:
        there = None
    if there is not None and os.path.samestat(os.stat(source), there):
        return  # one stat each, no path objects: publishing links some 10,000 files at N = 10,000
    with contextlib.suppress(FileNotFoundError):
        os.unlink(target)
    try:
        _hard_link(source, target)
    except OSError:  # another file system (the cache's, or the temporary folder's, may be)
        shutil.copyfile(source, target)


def _hard_link(source: Path, target: Path) -> None:
    """``os.link``, making ``target``'s folder first when it is not there yet."""
    try:
        os.link(source, target)
    except FileNotFoundError:
        target.parent.mkdir(parents=True, exist_ok=True)
        os.link(source, target)


def copy_assets(assets: Path, staging: Path) -> set[str]:
    """Copy ``assets`` into ``staging/assets`` (a symlink to a file outside it is never
    published); the paths written."""
    if not assets.is_dir():
        return set()
    inside = assets.resolve()
    sources = (p for p in assets.rglob("*") if p.is_file() and p.resolve().is_relative_to(inside))
    written = set()
    for source in sorted(sources):
        relative = "assets/" + source.relative_to(assets).as_posix()
        copy = staging / relative
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.unlink(missing_ok=True)  # never written in place: it may be shared with the live site
        shutil.copyfile(source, copy)
        written.add(relative)
    return written


def write_file(folder: Path, relative: str, data: bytes) -> None:
    """Write a new file: unlinked first, since the name may be a hard link into the live site."""
    path = folder / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.unlink(missing_ok=True)
    path.write_bytes(data)
