"""``revisions.json`` and the Atom feed, joined from each batch's texts file.

Each is known by a hash of its parts' hashes rather than of its bytes: the bytes
(hundreds of megabytes on a large site) are copied from the batches' files by the
kernel, never read here, and not copied at all when the staging folder or the live
site already holds them.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from site_builder.pipeline.cache.inputs import content_hash
from site_builder.pipeline.sitewide.histories import Histories, Place
from site_builder.pipeline.staging.folder import Stage
from site_builder.pipeline.worker.batch import BatchSummary
from site_builder.pipeline.worker.texts import Texts
from site_builder.render.feeds import feed_entry, feed_head, feed_order, write_atom_feed
from site_builder.render.items import Item
from site_builder.settings.project import Settings


def write_joined(
    settings: Settings,
    histories: Histories,
    listed: Sequence[tuple[Place, Item]],
    stage: Stage,
    today: str,
) -> tuple[dict[str, str], list[Callable[[], None]]]:
    """What ``revisions.json`` and the feed, joined from each batch's texts, are known by
    (by output path), and the steps that write those the staging folder lacks (``listed``: what
    the feed may show, see :meth:`Histories.listed`; ``today``: the feed's date when no article
    gives one).

    Each is known by a hash of its parts' hashes rather than of its bytes: the bytes
    (hundreds of megabytes on a large site) are copied from the batches' files by the
    kernel, never read here, and not copied at all when the staging folder or the live
    site already holds them. The parts of articles with a history (:mod:`.histories`) are
    made here instead. The steps may run in another thread (the kernel copies without
    holding the interpreter) while the build goes on.
    """
    revisions = _revisions(histories, stage)
    feed = _feed(settings, histories, listed, stage, today)
    steps = [step for _, step in (revisions, feed) if step is not None]
    return {"revisions.json": revisions[0], "feed.xml": feed[0]}, steps


def _revisions(histories: Histories, stage: Stage) -> tuple[str, Callable[[], None] | None]:
    """What ``revisions.json`` is known by, and the step that writes it when the staging
    folder lacks it."""
    summaries = histories.summaries
    made = {n: histories.fragment(n) for n in range(len(summaries)) if histories.involves(n)}
    digest = hashlib.sha256(b"revisions.json")
    for n, part in enumerate(summaries):
        digest.update((content_hash(made[n]) if n in made else part.texts.digests[0]).encode())
    sha = digest.hexdigest()
    if stage.has("revisions.json", sha):
        return sha, None

    def revisions() -> None:
        with _Joined(stage.folder / "revisions.json") as out:
            write_revisions(summaries, out.write, out.copy, made)

    return sha, revisions


def _feed(
    settings: Settings, histories: Histories, listed: Sequence[tuple[Place, Item]], stage: Stage, today: str
) -> tuple[str, Callable[[], None] | None]:
    """What the feed is known by, and the step that writes it when the staging folder lacks it."""
    items = [item for _, item in listed]
    entries = [_entry(settings, histories, place, item) for place, item in listed]
    digest = hashlib.sha256(b"feed.xml\0" + feed_head(settings, items, today=today))
    for n in feed_order(items, settings.feed_limit):  # only the entries the feed holds
        entry = entries[n]
        digest.update(
            (content_hash(entry) if isinstance(entry, bytes) else entry[0].digests[entry[1] + 1]).encode()
        )
    sha = digest.hexdigest()
    if stage.has("feed.xml", sha):
        return sha, None

    def feed() -> None:
        with _Joined(stage.folder / "feed.xml") as out:

            def entry(n: int) -> None:
                found = entries[n]
                if isinstance(found, bytes):
                    out.write(found)
                    return
                texts, number = found
                out.copy(texts, sum(texts.sizes[: number + 1]), texts.sizes[number + 1])

            write_atom_feed(settings, items, entry, out.write, today=today)

    return sha, feed


def _entry(settings: Settings, histories: Histories, place: Place, item: Item) -> tuple[Texts, int] | bytes:
    """Where the feed finds an item's entry: in its batch's texts, or made here for an article
    with a history (its latest revision, published when the first was, updated when it was)."""
    if item.slug not in histories.articles:
        return histories.summaries[place[0]].texts, place[1]
    whole = histories.whole(item.slug)[-1]
    dated = dataclasses.replace(whole, published=item.published, updated=item.updated)
    return feed_entry(settings, dated).encode("utf-8")


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
    summaries: Sequence[BatchSummary],
    write: Callable[[bytes], object],
    copy: Callable[[Texts, int, int], object] | None = None,
    made: Mapping[int, bytes] | None = None,
) -> None:
    """``revisions.json`` from each batch's fragment, streamed: what ``dumps(data, 2)`` gives.
    With ``copy``, each fragment is handed to it as (texts, offset, size) instead of read;
    ``made`` holds fragments to write instead of a batch's own (by its index)."""
    first = True
    for n, part in enumerate(summaries):
        if part.texts.sizes[0]:
            write(b"[\n  " if first else b",\n  ")
            if made is not None and n in made:
                write(made[n])
            elif copy is None:
                write(part.texts.fragment())
            else:
                copy(part.texts, 0, part.texts.sizes[0])
            first = False
    write(b"[]\n" if first else b"\n]\n")
