"""What a build left in the output folder, file by file: the record the next build
compares the folder with, to know what it may keep."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from site_builder.errors import Problem
from site_builder.model.schedule import Omitted, Window

Stat = tuple[int, int, int]
"""(size, mtime in ns, inode) of a file: changes whenever the file is written or replaced."""


def stat_of(path: str | Path) -> Stat | None:
    """The :data:`Stat` of a file, or None when it is not one."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return (found.st_size, found.st_mtime_ns, found.st_ino)


def stats(folder: Path) -> dict[str, Stat]:
    """Every file below ``folder`` with its :data:`Stat` (a walk without the folders' times:
    the check a build with nothing to do makes)."""
    return listing(folder, times=False)[0]


def listing(
    folder: Path, *, times: bool = True, known: Contents | None = None
) -> tuple[dict[str, Stat], dict[str, int | None]]:
    """Every file below ``folder`` with its :data:`Stat`; and every folder below it (``""``,
    ``"articles/"``, …) with its modification time, None for one that holds anything but
    files and folders (a symbolic link, say).

    A folder's time changes whenever an entry is added to it or taken out of it, and it is
    read before its entries: when it is the same later, so are they (:class:`Contents`).
    Without ``times``, every folder's time is None. With ``known`` (what an earlier listing of
    the same folder recorded), a folder whose time is still the recorded one is not read: its
    entries, and its files' stats, are taken from the record. A build never writes a file in
    place (it unlinks first, which changes the folder's time), so for its own files the record's
    stat is the file's; one changed in place by someone else keeps its recorded stat, which
    the next build's check of that file (:meth:`Written.lists`) finds wrong: the file is written
    again, never trusted."""
    found: dict[str, Stat] = {}
    folders: dict[str, int | None] = {}
    pending = [("", str(folder))]
    while pending:
        prefix, directory = pending.pop()
        try:
            time = os.stat(directory).st_mtime_ns if times else None
            if time is not None and known is not None and known.times.get(prefix) == time:
                _recorded(known, prefix, directory, found, pending)
                folders[prefix] = time
                continue
            entries = list(os.scandir(directory))
        except OSError:
            continue
        folders[prefix] = time if _read(prefix, entries, found, pending) else None
    return found, folders


def _read(
    prefix: str, entries: list[os.DirEntry[str]], found: dict[str, Stat], pending: list[tuple[str, str]]
) -> bool:
    """A folder's files (``entries``, as read) and their stats into ``found``, its folders into
    ``pending``; whether it holds only files and folders."""
    plain = True
    for entry in entries:
        if entry.is_dir(follow_symlinks=False):
            pending.append((f"{prefix}{entry.name}/", entry.path))
            continue
        if not entry.is_file(follow_symlinks=False):
            plain = False
        if entry.is_file():
            info = entry.stat()
            found[prefix + entry.name] = (info.st_size, info.st_mtime_ns, info.st_ino)
    return plain


def _recorded(
    known: Contents, prefix: str, directory: str, found: dict[str, Stat], pending: list[tuple[str, str]]
) -> None:
    """A folder's files as ``known`` records them, into ``found``; its folders, into ``pending``."""
    stats = known.stats
    for name in known.files.get(prefix, ()):
        found[prefix + name] = stats[prefix + name]
    pending.extend((f"{prefix}{name}/", f"{directory}/{name}") for name in known.folders.get(prefix, ()))


@dataclass(frozen=True, slots=True, kw_only=True)
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
    window: Window | None = None
    """The build dates and flags for which these inputs give this output."""
    omitted: Omitted = field(default_factory=Omitted)
    """What the build left out (drafts, scheduled revisions)."""
    warnings: tuple[Problem, ...] = ()
    """The build's warnings: a build with nothing to do prints them again."""
    folders: dict[str, int | None] = field(default_factory=dict)
    """Every folder of the output (``""``, ``"articles/"``, …) with its modification time then,
    None when ``files`` and these folders do not tell all it holds (see :func:`listing`)."""

    def lists(self, path: str | Path, relative: str) -> bool:
        """Whether ``path`` is the very file this build left at ``relative``: one the record
        lists, with the same size, time and inode. A file the record does not list never is,
        even when it is missing too."""
        known = self.files.get(relative)
        return known is not None and stat_of(path) == known

    def untouched(self, target: Path, folder: str, names: tuple[str, ...]) -> bool:
        """Whether the files ``folder/NAME`` of ``target`` are the very ones this build wrote."""
        root, files = f"{target}/{folder}/", self.files  # strings: a base bundle has thousands
        return bool(names) and all(
            (known := files.get(f"{folder}/{name}")) is not None and stat_of(root + name) == known
            for name in names
        )

    def contents(self) -> Contents:
        """What the record says each of its folders holds."""
        files: dict[str, list[str]] = {}
        for path in self.files:
            folder, _, name = path.rpartition("/")
            files.setdefault(f"{folder}/" if folder else "", []).append(name)
        folders: dict[str, list[str]] = {}
        for path in self.folders:
            if path:
                folder, _, name = path[:-1].rpartition("/")
                folders.setdefault(f"{folder}/" if folder else "", []).append(name)
        return Contents(self.folders, files, folders, self.files)

    def holds(self, target: Path, site: str) -> bool:
        """Whether ``target`` is exactly what this build of these inputs wrote."""
        return self.site == site and stats(target) == self.files


@dataclass(frozen=True, slots=True)
class Contents:
    """The entries of each folder of an output, as its record lists them."""

    times: dict[str, int | None]
    """Folder → its modification time when the record was made (None: read it whatever)."""
    files: dict[str, list[str]]
    """Folder → the names of its files."""
    folders: dict[str, list[str]]
    """Folder → the names of its folders."""
    stats: dict[str, Stat]
    """Each file's :data:`Stat` as the record has it."""

    def entries(self, directory: str, relative: str) -> tuple[list[str], list[str]] | None:
        """The files and folders in ``directory`` (``relative`` in the output) from the record
        alone, when its modification time says nothing was added or taken out since; else None."""
        if not self.unchanged(directory, relative):
            return None
        return self.files.get(relative, []), self.folders.get(relative, [])

    def unchanged(self, directory: str, relative: str) -> bool:
        """Whether ``directory`` (``relative`` in the output) has the modification time the
        record gives it: nothing was added to it, taken out of it or renamed in it since."""
        time = self.times.get(relative)
        if time is None:
            return False
        try:
            return os.stat(directory).st_mtime_ns == time
        except OSError:
            return False
