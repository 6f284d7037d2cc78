"""``revisions.json`` and the Atom feed, joined from each batch's texts file.

Each is known by a hash of its parts' hashes rather than of its bytes: the bytes
(hundreds of megabytes on a large site) are copied from the batches' files by the
kernel, never read here, and not copied at all when the staging folder or the live
site already holds them.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Sequence
from pathlib import Path

from site_builder.build.batch import Summary
from site_builder.build.staging import Stage
from site_builder.build.texts import Texts
from site_builder.render.feeds import feed_head, feed_order, write_atom_feed
from site_builder.render.pages import Item
from site_builder.settings import Settings


def write_joined(
    settings: Settings, summaries: Sequence[Summary], items: Sequence[Item], stage: Stage, today: str
) -> tuple[dict[str, str], list[Callable[[], None]]]:
    """What ``revisions.json`` and the feed, joined from each batch's texts, are known by
    (by output path), and the steps that write those the staging folder lacks (``today``: the
    feed's date when no article gives one).

    Each is known by a hash of its parts' hashes rather than of its bytes: the bytes
    (hundreds of megabytes on a large site) are copied from the batches' files by the
    kernel, never read here, and not copied at all when the staging folder or the live
    site already holds them. The steps may run in another thread (the kernel copies
    without holding the interpreter) while the build goes on.
    """
    steps: list[Callable[[], None]] = []
    digest = hashlib.sha256(b"revisions.json")
    for part in summaries:
        digest.update(part.texts.digests[0].encode())
    known = {"revisions.json": digest.hexdigest()}
    if not stage.has("revisions.json", known["revisions.json"]):

        def revisions() -> None:
            with _Joined(stage.folder / "revisions.json") as out:
                write_revisions(summaries, out.write, out.copy)

        steps.append(revisions)
    where = [(part.texts, n) for part in summaries for n in range(len(part.items))]
    digest = hashlib.sha256(b"feed.xml\0" + feed_head(settings, items, today=today))
    for n in feed_order(items, settings.feed_limit):  # only the entries the feed holds
        texts, number = where[n]
        digest.update(texts.digests[number + 1].encode())
    known["feed.xml"] = digest.hexdigest()
    if not stage.has("feed.xml", known["feed.xml"]):

        def feed() -> None:
            with _Joined(stage.folder / "feed.xml") as out:

                def entry(n: int) -> None:
                    texts, number = where[n]
                    out.copy(texts, sum(texts.sizes[: number + 1]), texts.sizes[number + 1])

                write_atom_feed(settings, items, entry, out.write, today=today)

        steps.append(feed)
    return known, steps


class _Joined:
    """A new file (never one shared with the live site) made of small writes and of
    ranges of the batches' texts files, copied by the kernel."""

    OPEN_FILES = 64

    def __init__(self, path: Path) -> None:
        path.unlink(missing_ok=True)
        self._fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        self._sources: dict[Path, int] = {}

    def __enter__(self) -> _Joined:
        return self

    def __exit__(self, *_exc: object) -> None:
        for fd in self._sources.values():
            os.close(fd)
        os.close(self._fd)

    def write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(self._fd, view) :]

    def copy(self, texts: Texts, offset: int, size: int) -> None:
        source = self._sources.pop(texts.path, None)  # re-inserted: the most recent last
        if source is None:
            if len(self._sources) >= self.OPEN_FILES:
                os.close(self._sources.pop(next(iter(self._sources))))
            source = os.open(texts.path, os.O_RDONLY)
        self._sources[texts.path] = source
        while size > 0:
            try:
                done = os.copy_file_range(source, self._fd, size, offset)
            except OSError:  # not between these file systems: through memory
                done = os.write(self._fd, os.pread(source, min(size, 1 << 20), offset))
            if done <= 0:
                raise OSError(f"{texts.path} is shorter than its record")
            offset, size = offset + done, size - done


def write_revisions(
    summaries: Sequence[Summary],
    write: Callable[[bytes], object],
    copy: Callable[[Texts, int, int], object] | None = None,
) -> None:
    """``revisions.json`` from each batch's fragment, streamed: what ``dumps(data, 2)`` gives.
    With ``copy``, each fragment is handed to it as (texts, offset, size) instead of read."""
    first = True
    for part in summaries:
        if part.texts.sizes[0]:
            write(b"[\n  " if first else b",\n  ")
            if copy is None:
                write(part.texts.fragment())
            else:
                copy(part.texts, 0, part.texts.sizes[0])
            first = False
    write(b"[]\n" if first else b"\n]\n")
