"""The build cache: ``.site-builder-cache/`` under the site root, safe to delete.

What a worker learned about a batch (its :class:`~site_builder.summary.Summary`)
is kept under a key that hashes everything the summary can depend on: the
batch module's bytes, every other file under ``articles/`` (modules a batch may
import), the site's ``templates/``, the settings, and site_builder's own code.
Change any of them and the key changes; nothing is ever invalidated by time.

Beside the summaries the cache keeps the manifest of the last site it wrote
(output path → content hash, size, mtime, inode) and the search-index shards.
Entries are written to a temporary name and renamed, so a killed build leaves
whole entries or none; an entry that cannot be read is a miss.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import os
import pickle
import shutil
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from site_builder import __version__
from site_builder.settings import Settings

if TYPE_CHECKING:
    from site_builder.build.batch import Summary

CACHE_DIR = ".site-builder-cache"
_FORMAT = "1"


def package_digest() -> str:
    """A hash of site_builder's own files: code, templates, theme, schema."""
    package = Path(__file__).parents[1]
    digest = hashlib.sha256(f"{__version__}\0{_FORMAT}".encode())
    for path in sorted(p for p in package.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        digest.update(path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes())
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


def site_digest(root: Path, settings: Settings, batches: Iterable[Path]) -> str:
    """What every batch's summary depends on besides the batch module itself."""
    digest = hashlib.sha256(package_digest().encode())
    digest.update(json.dumps(asdict(settings), sort_keys=True, default=str).encode())
    digest.update(b"\0templates\0")
    _tree_digest(digest, root / "templates")
    digest.update(b"\0articles\0")
    folder = root / settings.articles_dir
    _tree_digest(digest, folder, frozenset(p.relative_to(folder).as_posix() for p in batches))
    return digest.hexdigest()


def batch_key(common: str, path: Path) -> str:
    """The cache key of one batch module."""
    return hashlib.sha256(f"{common}\0{path.name}\0".encode() + path.read_bytes()).hexdigest()


def content_hash(data: bytes) -> str:
    """The hash output files are known by."""
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True, slots=True)
class Cache:
    """The cache folder of one site; every method tolerates a missing or damaged folder."""

    folder: Path

    @classmethod
    def of(cls, root: Path) -> Cache:
        """The cache of the site at ``root``."""
        return cls(root / CACHE_DIR)

    def get(self, kind: str, key: str) -> object | None:
        """The entry stored under ``kind/key``, or None."""
        try:
            with open(os.path.join(self.folder, kind, key), "rb") as file:
                entry: object = pickle.load(file)
                return entry
        except (
            OSError,
            EOFError,
            pickle.UnpicklingError,
            AttributeError,
            ImportError,
            TypeError,
            ValueError,
        ):
            return None

    def put(self, kind: str, key: str, value: object) -> None:
        """Store ``value`` under ``kind/key``; a cache that cannot be written is skipped."""
        self.write_bytes(f"{kind}/{key}", pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))

    def put_summary(self, key: str, summary: Summary) -> Summary:
        """Keep a batch's summary; its texts file moves into the cache beside it.
        Returns the summary as kept (or as given, when it could not be kept)."""
        target = self.folder / "batches" / f"{key}.text"
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(summary.texts.path, target)
        except OSError:
            return summary
        texts = summary.texts.moved(target)
        if texts is None:
            return summary
        kept = dataclasses.replace(summary, texts=texts)
        self.put("batches", key, kept)
        return kept

    def get_summary(self, key: str) -> Summary | None:
        """A kept summary, or None (also when its texts file is not the one it was kept with)."""
        from site_builder.build.batch import Summary

        entry = self.get("batches", key)
        if not isinstance(entry, Summary):
            return None
        texts = entry.texts.moved(self.folder / "batches" / f"{key}.text")
        if texts is None:
            return None
        return entry if texts is entry.texts else dataclasses.replace(entry, texts=texts)

    def write_bytes(self, name: str, data: bytes) -> None:
        """Write one file of the cache whole, or not at all."""
        path = self.folder / name
        temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            temporary.write_bytes(data)
            os.replace(temporary, path)
        except OSError:
            temporary.unlink(missing_ok=True)

    def drop(self, kind: str, key: str) -> None:
        """Forget one entry."""
        with contextlib.suppress(OSError):
            (self.folder / kind / key).unlink(missing_ok=True)

    def keys(self, kind: str) -> set[str]:
        """The keys stored under ``kind``."""
        try:
            return {name for name in os.listdir(self.folder / kind) if not name.startswith(".")}
        except OSError:
            return set()

    def keep_only(self, kind: str, keys: set[str]) -> None:
        """Drop the entries of ``kind`` the last build did not use."""
        try:
            entries = list((self.folder / kind).iterdir())
        except OSError:
            return
        for entry in entries:
            if entry.name.split(".")[0] not in keys:
                try:
                    if entry.is_dir():
                        shutil.rmtree(entry, ignore_errors=True)
                    else:
                        entry.unlink()
                except OSError:
                    pass
