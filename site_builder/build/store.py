"""The cache folder, ``.site-builder-cache/`` under the site root: safe to delete.

A plain store of pickled entries by kind and key. Entries are written to a
temporary name and renamed, so a killed build leaves whole entries or none; an
entry that cannot be read is a miss. What is kept there, and when, is
:mod:`site_builder.build.reuse`'s business.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import shutil
from dataclasses import dataclass
from pathlib import Path

CACHE_DIR = ".site-builder-cache"


@dataclass(frozen=True, slots=True)
class Store:
    """The cache folder of one site; every method tolerates a missing or damaged folder."""

    folder: Path

    @classmethod
    def of(cls, root: Path) -> Store:
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

    def move_in(self, source: Path, name: str) -> bool:
        """Move a file or folder into the cache as ``name`` (replacing what was there)."""
        target = self.folder / name
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            if source.is_dir():
                shutil.rmtree(target, ignore_errors=True)
            os.replace(source, target)
        except OSError:
            return False
        return True

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
