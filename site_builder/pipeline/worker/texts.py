"""A batch's long texts, kept in a file rather than in memory.

Its elements of ``revisions.json``, its Atom entries (10,000 revisions hold some
300 MB of them), the link-check scans of its pages and the part of its summary only
a site-wide check reads (:class:`~site_builder.pipeline.worker.batch.Body`) are written once
by the worker that rendered the batch; the site-wide files are joined from them by
the main process, and the scans and the body are read back only when a step asks for them.
"""

from __future__ import annotations

import dataclasses
import os
import pickle
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from site_builder.model.page_scan import Scan
from site_builder.pipeline.cache.inputs import content_hash
from site_builder.runtime.pickled import quick_state


@quick_state
@dataclass(frozen=True, slots=True)
class Texts:
    """A batch's long texts, kept in a file rather than in memory: its elements of
    ``revisions.json``, its Atom entries (10,000 revisions hold some 300 MB of them) and
    the link-check scans of its pages (read only for the pages a check looks at), and the
    pickled body of its summary (read only when a site-wide step needs it)."""

    path: Path
    sizes: tuple[int, ...]
    """Bytes of the ``revisions.json`` fragment, of each entry, of the scans, then of the
    body, in file order."""
    stat: tuple[int, int]
    """(size, mtime in ns) of the file as written: anything else is not these texts."""
    digests: tuple[str, ...]
    """Content hash of the fragment, then of each entry: what a joined file is known by."""

    @classmethod
    def write(
        cls,
        path: Path,
        fragment: bytes,
        entries: Sequence[bytes],
        scans: dict[str, Scan],
        body: object,
        highlighted: Mapping[str, str] | None = None,
    ) -> Texts:
        """Write the texts to ``path`` (whole, or not at all); after them, ``highlighted`` (the
        batch's code blocks highlighted, for the next build of the batch: :func:`highlighted_in`)
        and its length in the file's last 8 bytes."""
        scanned = pickle.dumps(scans, protocol=pickle.HIGHEST_PROTOCOL)
        pickled = pickle.dumps(body, protocol=pickle.HIGHEST_PROTOCOL)
        memo = pickle.dumps(dict(highlighted or {}), protocol=pickle.HIGHEST_PROTOCOL)
        trailer = len(memo).to_bytes(_TRAILER, "big")
        temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        temporary.write_bytes(b"".join([fragment, *entries, scanned, pickled, memo, trailer]))
        os.replace(temporary, path)
        found = path.stat()
        sizes = (len(fragment), *map(len, entries), len(scanned), len(pickled))
        digests = tuple(content_hash(part) for part in (fragment, *entries))
        return cls(path, sizes, (found.st_size, found.st_mtime_ns), digests)

    def moved(self, path: str) -> Texts | None:
        """The same texts at ``path`` (these very ones when that is where they are), if the
        file there is the one written."""
        try:
            found = os.stat(path)
        except OSError:
            return None
        if (found.st_size, found.st_mtime_ns) != self.stat:
            return None
        return self if path == str(self.path) else dataclasses.replace(self, path=Path(path))

    def fragment(self) -> bytes:
        """The elements of ``revisions.json``, indented and joined as the array holds them."""
        with open(self.path, "rb") as file:
            return file.read(self.sizes[0])

    def scans(self) -> dict[str, Scan]:
        """The link-check scans of the batch's pages."""
        scans: dict[str, Scan] = pickle.loads(self._part(-2))
        return scans

    def body(self) -> object:
        """What was written as the body (:meth:`write`). An OSError when the file is no longer
        the one written: another build replaced it since this one read its summary."""
        return pickle.loads(self._part(-1))

    def _part(self, index: int) -> bytes:
        """The bytes of one part (by its index in ``sizes``), from the file as written."""
        with open(self.path, "rb") as file:
            found = os.fstat(file.fileno())
            if (found.st_size, found.st_mtime_ns) != self.stat:
                raise OSError(f"{self.path} was replaced while the build read it")
            file.seek(sum(self.sizes[:index]))
            return file.read(self.sizes[index])


_TRAILER = 8
"""Bytes at the end of a texts file giving the length of the highlighted blocks before them."""


def highlighted_in(path: Path) -> dict[str, str]:
    """The code blocks highlighted that the texts file at ``path`` keeps at its end
    (:meth:`Texts.write`): empty when there is no such file, or it keeps none."""
    try:
        with open(path, "rb") as file:
            file.seek(-_TRAILER, os.SEEK_END)
            size = int.from_bytes(file.read(_TRAILER), "big")
            file.seek(-_TRAILER - size, os.SEEK_END)
            found = pickle.loads(file.read(size))
    except (OSError, ValueError, EOFError, pickle.UnpicklingError, AttributeError, ImportError, IndexError):
        return {}
    if not isinstance(found, dict):
        return {}
    return {key: html for key, html in found.items() if isinstance(key, str) and isinstance(html, str)}


class Scans(Mapping[str, Scan]):
    """The scans of a site's pages, each batch's read from its texts file when asked for:
    a check of a few pages reads a few files, and a check of every page holds the scans
    of the last few batches only (10,000 pages' scans take a hundred megabytes)."""

    HELD_BATCHES = 64

    def __init__(self, owners: Mapping[str, Texts], others: dict[str, Scan]) -> None:
        """``owners``: the texts file holding each batch page's scan, by page; ``others``: the
        scans of the other pages (lists, history pages), in memory."""
        self._others = dict(others)
        self._owner = dict(owners)
        self._held: dict[Path, dict[str, Scan]] = {}  # least recently used first

    def __getitem__(self, path: str) -> Scan:
        if path in self._others:
            return self._others[path]
        texts = self._owner[path]
        batch = self._held.pop(texts.path, None)
        if batch is None:
            batch = texts.scans()
            if len(self._held) >= self.HELD_BATCHES:
                del self._held[next(iter(self._held))]
        self._held[texts.path] = batch
        return batch[path]

    def __contains__(self, path: object) -> bool:
        return path in self._others or path in self._owner

    def __iter__(self) -> Iterator[str]:
        yield from self._owner
        yield from (path for path in self._others if path not in self._owner)

    def __len__(self) -> int:
        return len(self._owner) + sum(path not in self._owner for path in self._others)
