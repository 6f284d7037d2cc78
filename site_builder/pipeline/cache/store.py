"""The cache folder, ``.site-builder-cache/`` under the site root: safe to delete.

A plain store of pickled entries by kind and key. Entries are written to a
temporary name and renamed, so a killed build leaves whole entries or none; an
entry that cannot be read is a miss. What is kept there, and when, is
:mod:`site_builder.pipeline.cache.reuse`'s business.

A long-lived process (``serve``) keeps the entries it read or wrote in memory as
well (:meth:`CacheFolder.in_memory`): a rebuild then unpickles only what the last one
changed, not every batch's summary again. The entries are values no build changes
(frozen summaries, records replaced whole), so one object serves every rebuild.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import pickle
import shutil
from dataclasses import dataclass
from pathlib import Path

CACHE_DIR = ".site-builder-cache"


@dataclass(frozen=True, slots=True)
class CacheFolder:
    """The cache folder of one site; every method tolerates a missing or damaged folder."""

    folder: Path
    memory: dict[str, object] | None = None
    """Entries by ``kind/key`` as this process last read or wrote them (None: read each time)."""
    vouched: dict[str, object] | None = None
    """Entries by ``kind/key`` that this process vouches for (:meth:`vouch`); None: it never does."""

    @classmethod
    def of(cls, root: Path) -> CacheFolder:
        """The cache of the site at ``root``."""
        return cls(root / CACHE_DIR)

    @classmethod
    def in_memory(cls, root: Path) -> CacheFolder:
        """The cache of the site at ``root``, its entries also kept in this process's memory
        (for one process that builds the site again and again: other commands may write the
        cache between its builds, never during one; see :mod:`site_builder.serve.session`).
        That process alone writes the folder it builds into and its spare, so it vouches for
        the spare each build leaves (:meth:`vouch`)."""
        return cls(root / CACHE_DIR, {}, {})

    def get(self, kind: str, key: str) -> object | None:
        """The entry stored under ``kind/key``, or None."""
        name = f"{kind}/{key}"
        if self.memory is not None and name in self.memory:
            return self.memory[name]
        entry = self._read(name)
        if self.memory is not None and entry is not None:
            self.memory[name] = entry
        return entry

    def vouch(self, kind: str, key: str) -> None:
        """Note that what the entry ``kind/key`` describes is exactly as this process left it
        (a folder only its own builds write). In memory alone, never on disk: no other process
        can know it. A store not in memory vouches for nothing."""
        name = f"{kind}/{key}"
        if self.vouched is not None and self.memory is not None and name in self.memory:
            self.vouched[name] = self.memory[name]

    def spend(self, kind: str, key: str, value: object) -> bool:
        """Whether this process vouched for ``value`` as the entry ``kind/key`` and has not
        spent it since: the first build to use what the entry describes may change it, so the
        word is good once."""
        name = f"{kind}/{key}"
        return self.vouched is not None and self.vouched.pop(name, None) is value

    def _read(self, name: str) -> object | None:
        try:
            with open(os.path.join(self.folder, name), "rb") as file:
                entry: object = pickle.load(file)
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
        # An entry an older version wrote may lack a field added since: a miss, not a crash.
        fields = dataclasses.fields(entry) if dataclasses.is_dataclass(entry) else ()
        if not all(hasattr(entry, field.name) for field in fields):
            return None
        return entry

    def put(self, kind: str, key: str, value: object) -> None:
        """CacheFolder ``value`` under ``kind/key``; a cache that cannot be written is skipped."""
        written = self.write_bytes(f"{kind}/{key}", pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
        if written and self.memory is not None:
            self.memory[f"{kind}/{key}"] = value

    def write_bytes(self, name: str, data: bytes) -> bool:
        """Write one file of the cache whole, or not at all (then False)."""
        self._forget(name)
        path = self.folder / name
        temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            temporary.write_bytes(data)
            os.replace(temporary, path)
        except OSError:
            temporary.unlink(missing_ok=True)
            return False
        return True

    def move_in(self, source: Path, name: str) -> bool:
        """Move a file or folder into the cache as ``name`` (replacing what was there)."""
        target = self.folder / name
        self._forget(name)
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
        self._forget(f"{kind}/{key}")
        with contextlib.suppress(OSError):
            (self.folder / kind / key).unlink(missing_ok=True)

    def keys(self, kind: str) -> set[str]:
        """The keys stored under ``kind``."""
        try:
            return {name for name in os.listdir(self.folder / kind) if not name.startswith(".")}
        except OSError:
            return set()

    def written_at(self, kind: str, key: str) -> int | None:
        """When the entry ``kind/key`` was last written on disk (nanoseconds), or None. Read
        from the disk, not memory: another process may have written it since."""
        try:
            return os.stat(os.path.join(self.folder, kind, key)).st_mtime_ns
        except OSError:
            return None

    def keep_only(self, kind: str, keys: set[str]) -> None:
        """Drop the entries of ``kind`` the last build did not use."""
        try:
            entries = list((self.folder / kind).iterdir())
        except OSError:
            return
        for entry in entries:
            if entry.name.split(".")[0] not in keys:
                self._forget(f"{kind}/{entry.name}")
                try:
                    if entry.is_dir():
                        shutil.rmtree(entry, ignore_errors=True)
                    else:
                        entry.unlink()
                except OSError:
                    pass

    def _forget(self, name: str) -> None:
        """Drop what memory holds of ``name`` (and of what lies below it, for a folder)."""
        if self.vouched:
            self.vouched.pop(name, None)
        if self.memory:
            self.memory.pop(name, None)
            for held in [held for held in self.memory if held.startswith(name + "/")]:
                del self.memory[held]
