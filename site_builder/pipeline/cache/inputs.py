"""What a build's output depends on, hashed: the one home of input hashing.

A batch's key hashes everything its result can depend on: the batch module's
bytes, every other file under ``articles/`` (modules a batch may import), the
site's ``templates/``, the settings, and site_builder's own files. Change any of
them and the key changes; nothing is ever invalidated by time. The build's own
key adds the assets' names, sizes and times and the output folder.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import time
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import site_builder
from site_builder import __version__
from site_builder.check.load import batch_paths
from site_builder.errors import UnreadableInputError
from site_builder.pipeline.staging.written import stats
from site_builder.render.charts import renderer_version
from site_builder.settings.project import Project

_FORMAT = "4"
"""Changes whenever what the cache keeps changes shape."""

Stamp = tuple[int, int, int, int, str, str]
"""A batch module as last hashed: (size, mtime in ns, inode, ctime in ns, what every batch
depends on besides it, its key)."""
UNTRUSTED = (-1, -1, -1, -1)
"""The stat of a stamp whose module changed too shortly before it was hashed: no file has it,
so the module is read again; the stamp says only what its key was (:attr:`Inputs.earlier`)."""

RACY_NS = 2_000_000_000
"""A file changed this shortly before it was hashed may change again within one tick of the
file system's clock, keeping its stat: its stat is not trusted (git's "racily clean" files)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Inputs:
    """The hashes a build is known by, each file read once per build."""

    common: str
    """What every batch depends on besides its own module (:func:`site_digest`)."""
    keys: dict[Path, str]
    """Each batch module's cache key, in site order."""
    key: str
    """Every input of the build: the batches, the assets' names, sizes and times, the output folder."""
    stamps: dict[str, Stamp] = field(default_factory=dict)
    """For the next run: each batch module, with its stat where it can be trusted."""
    earlier: dict[Path, str] = field(default_factory=dict)
    """Each batch module changed alone since the last run (what every batch depends on is the
    same): its key then, whose summary the cache may still hold."""
    assets: str = ""
    """The assets' names, sizes and times: what the site-wide rules read of the assets folder."""


def content_hash(data: bytes) -> str:
    """The hash output files are known by."""
    return hashlib.sha256(data).hexdigest()


PACKAGE = Path(site_builder.__file__).parent
"""site_builder's own folder: every file below it is an input of every build."""


def package_files() -> list[Path]:
    """site_builder's own files, sorted: code, templates, theme, schema (not bytecode)."""
    found: list[Path] = []
    for directory, folders, names in os.walk(PACKAGE):
        folders[:] = [name for name in folders if name != "__pycache__"]
        found += [Path(directory, name) for name in names]
    return sorted(found)


def package_digest() -> str:
    """A hash of site_builder's own files (:func:`package_files`), read again only when one of
    them shows another stat: a process that builds many times (``serve``, a test run) reads
    the package once."""
    files = package_files()
    return _package_digest(tuple((path, _stat(path)) for path in files))


@functools.lru_cache(maxsize=1)
def _package_digest(files: tuple[tuple[Path, tuple[int, int, int, int] | None], ...]) -> str:
    digest = hashlib.sha256(f"{__version__}\0{_FORMAT}".encode())
    for path, _ in files:
        digest.update(path.relative_to(PACKAGE).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def _tree_digest(digest: Any, folder: Path, skip: frozenset[str] = frozenset()) -> None:
    """Hash every file below ``folder`` but those named in ``skip`` (paths relative to it)."""
    if not folder.is_dir():
        return
    found: list[tuple[str, str]] = []
    for directory, folders, names in os.walk(folder):
        folders[:] = [name for name in folders if name != "__pycache__"]
        base = os.path.relpath(directory, folder).replace(os.sep, "/")
        prefix = "" if base == "." else base + "/"
        found += [
            (prefix + name, os.path.join(directory, name)) for name in names if prefix + name not in skip
        ]
    for relative, path in sorted(found):
        with open(path, "rb") as file:
            digest.update(relative.encode() + b"\0" + file.read() + b"\0")


def site_digest(project: Project, batches: Iterable[Path]) -> str:
    """What every batch's result depends on besides the batch module itself."""
    digest = hashlib.sha256(package_digest().encode())
    digest.update(json.dumps(asdict(project.settings), sort_keys=True, default=str).encode())
    digest.update(f"\0charts\0{renderer_version()}\0".encode())  # a drawing depends on its renderer
    digest.update(b"\0templates\0")
    _tree_digest(digest, project.root / "templates")
    digest.update(b"\0articles\0")
    folder = project.articles
    _tree_digest(digest, folder, frozenset(_below(folder, batches)))
    return digest.hexdigest()


def _below(folder: Path, paths: Iterable[Path]) -> Iterator[str]:
    """Each of ``paths`` relative to ``folder``, as a POSIX path: by their strings (3,333
    ``relative_to`` calls were 13 ms of every plan)."""
    prefix = f"{folder}{os.sep}"
    for path in paths:
        text = str(path)
        yield (
            text[len(prefix) :].replace(os.sep, "/")
            if text.startswith(prefix)
            else path.relative_to(folder).as_posix()
        )


def batch_key(common: str, path: Path) -> str:
    """The cache key of one batch module."""
    return hashlib.sha256(f"{common}\0{path.name}\0".encode() + path.read_bytes()).hexdigest()


def hash_inputs(project: Project, target: Path, known: Mapping[str, Stamp] | None = None) -> Inputs:
    """Hash every input of a build of ``project`` into ``target``. A batch module whose size,
    times and inode are those ``known`` from a run over the same other inputs is not read
    again: its key is the one found then (an edit, even one that puts the mtime back, moves
    the ctime, which nobody can set).

    Raises UnreadableInputError naming a file that cannot be read (a symbolic link to nothing,
    a file without read permission): nothing is built from inputs not all read."""
    folder = project.articles
    paths = batch_paths(folder) if folder.is_dir() else []
    try:
        common = site_digest(project, paths)
        keys, stamps = _batch_keys(paths, common, known or {})
        earlier = _earlier(keys, common, known or {})
    except OSError as exc:
        raise UnreadableInputError(_unreadable(project.root, exc)) from None
    digest = hashlib.sha256(common.encode())
    for key in keys.values():
        digest.update(key.encode())
    assets = _assets_digest(project.root / project.settings.assets_dir)
    digest.update(bytes.fromhex(assets))
    digest.update(str(target).encode())
    return Inputs(
        common=common, keys=keys, key=digest.hexdigest(), stamps=stamps, assets=assets, earlier=earlier
    )


def _unreadable(root: Path, exc: OSError) -> str:
    path = Path(exc.filename) if exc.filename else None
    if path is None:
        return f"an input of the site cannot be read: {exc.strerror or exc}"
    shown = path.relative_to(root).as_posix() if path.is_relative_to(root) else str(path)
    link = f" (a symbolic link to {os.readlink(path)})" if path.is_symlink() else ""
    return f"{shown}: cannot be read{link}: {exc.strerror or exc}"


def _batch_keys(
    paths: list[Path], common: str, known: Mapping[str, Stamp]
) -> tuple[dict[Path, str], dict[str, Stamp]]:
    """Each batch module's cache key, and the stamps to know it by next time: a module's own
    stamp when it was not read again, a new one with its stat when its times are not too recent
    to trust, else with :data:`UNTRUSTED`."""
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
        trusted = stat if stat is not None and max(stat[1], stat[3]) < started - RACY_NS else UNTRUSTED
        stamps[path.name] = (*trusted, common, keys[path])
    return keys, stamps


def _earlier(keys: dict[Path, str], common: str, known: Mapping[str, Stamp]) -> dict[Path, str]:
    """The key at the last run of each module whose key changed while ``common`` did not."""
    earlier: dict[Path, str] = {}
    for path, key in keys.items():
        entry = known.get(path.name)
        if entry is not None and entry[4] == common and entry[5] != key:
            earlier[path] = entry[5]
    return earlier


def _assets_digest(folder: Path) -> str:
    """A hash of the assets' names, sizes and times."""
    assets = hashlib.sha256()
    for name, (size, mtime, _) in sorted(stats(folder).items() if folder.is_dir() else []):
        assets.update(f"{name}\0{size}\0{mtime}\0".encode())
    return assets.hexdigest()


def _stat(path: Path) -> tuple[int, int, int, int] | None:
    """(size, mtime in ns, inode, ctime in ns) of a file, or None."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_size, found.st_mtime_ns, found.st_ino, found.st_ctime_ns
