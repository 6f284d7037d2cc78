"""``revisions.json`` and the Atom feed, joined from each batch's texts file.

Each is known by a hash of its parts' hashes rather than of its bytes: the bytes
(hundreds of megabytes on a large site) are copied from the batches' files by the
kernel, never read here, and not copied at all when the staging folder or the live
site already holds them. When the cache keeps the layout of the live site's
``revisions.json`` (each part's hash and size, in order), each run of parts it holds
in the order wanted is one range of it: an edit of one batch of 3,333 copies two
ranges of it and the batch's own part, not 3,333 pieces of as many files.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple, TypeGuard, TypeVar

from site_builder.pipeline.cache.inputs import content_hash
from site_builder.pipeline.sitewide.histories import Histories, Place
from site_builder.pipeline.staging.folder import Stage
from site_builder.pipeline.worker.texts import Texts
from site_builder.render.feeds import feed_entry, feed_head, feed_order, write_atom_feed
from site_builder.render.items import Item
from site_builder.settings.project import Settings

Layout = tuple[tuple[str, int], ...]
"""The parts of a ``revisions.json`` in file order, each a batch's elements: digest and size."""
Layouts = Callable[[str], "Layout | None"]
"""The layout of the ``revisions.json`` known by a hash, when the cache keeps it."""
P = TypeVar("P")
"""A piece of ``revisions.json`` between two separators."""


class _Part(NamedTuple):
    """One batch's elements of ``revisions.json``, and where they come from."""

    digest: str
    size: int
    source: Texts | bytes
    """The batch's texts file (its first range), or the elements made here."""


class _Range(NamedTuple):
    """A range of the live site's ``revisions.json``: parts it holds in the order wanted."""

    offset: int
    size: int


@dataclass(frozen=True, slots=True)
class Joined:
    """What the joined files are known by, the steps that write them, and the layout of the new
    ``revisions.json`` (its hash and parts: the next build copies the runs of parts it keeps
    from it)."""

    hashes: dict[str, str]
    steps: list[Callable[[], None]]
    layout: tuple[str, Layout]


def write_joined(
    settings: Settings,
    histories: Histories,
    listed: Sequence[tuple[Place, Item]],
    stage: Stage,
    today: str,
    layouts: Layouts | None = None,
) -> Joined:
    """What ``revisions.json`` and the feed, joined from each batch's texts, are known by
    (by output path), and the steps that write those the staging folder lacks (``listed``: what
    the feed may show, see :meth:`Histories.listed`; ``today``: the feed's date when no article
    gives one; ``layouts``: the cache's layouts of earlier ``revisions.json`` files).

    Each is known by a hash of its parts' hashes rather than of its bytes: the bytes
    (hundreds of megabytes on a large site) are copied from the batches' files by the
    kernel, never read here, and not copied at all when the staging folder or the live
    site already holds them. The parts of articles with a history (:mod:`.histories`) are
    made here instead. The steps may run in another thread (the kernel copies without
    holding the interpreter) while the build goes on.
    """
    sha, parts = _revisions(histories)
    layout = tuple((part.digest, part.size) for part in parts)
    feed = _feed(settings, histories, listed, stage, today)
    steps = [step for step in (_revisions_step(stage, sha, parts, layouts), feed[1]) if step is not None]
    return Joined({"revisions.json": sha, "feed.xml": feed[0]}, steps, (sha, layout))


def _revisions(histories: Histories) -> tuple[str, list[_Part]]:
    """What ``revisions.json`` is known by, and its parts (the batches with elements, in order)."""
    summaries = histories.summaries
    made = {n: histories.fragment(n) for n in range(len(summaries)) if histories.involves(n)}
    digest = hashlib.sha256(b"revisions.json")
    parts: list[_Part] = []
    for n, part in enumerate(summaries):
        own = made.get(n)
        known = content_hash(own) if own is not None else part.texts.digests[0]
        digest.update(known.encode())
        if part.texts.sizes[0]:  # a batch without elements has no part
            parts.append(
                _Part(known, len(own), own)
                if own is not None
                else _Part(known, part.texts.sizes[0], part.texts)
            )
    return digest.hexdigest(), parts


def _revisions_step(
    stage: Stage, sha: str, parts: Sequence[_Part], layouts: Layouts | None
) -> Callable[[], None] | None:
    """The step that writes ``revisions.json`` when the staging folder lacks it: from the live
    site's where the cache knows that one's parts (a range of it for each run of parts it holds
    in the same order: at 10,000 articles an edit copies 171 MB in 3 pieces rather than 3,333),
    else from each batch's texts."""
    if stage.has("revisions.json", sha):
        return None
    live = _live_revisions(stage, layouts)

    def revisions() -> None:
        with _Joined(stage.folder / "revisions.json") as out:
            _join(out, parts, live)

    return revisions


def _live_revisions(stage: Stage, layouts: Layouts | None) -> tuple[str, Layout] | None:
    """The live site's ``revisions.json`` and its layout, when the cache knows it and the file
    is the very one the last build wrote (its record's size, time and inode)."""
    live = stage.live
    sha = live.hashes.get("revisions.json") if live is not None else None
    layout = layouts(sha) if layouts is not None and sha is not None else None
    path = f"{stage.target}/revisions.json"
    if live is None or not _well_formed(layout) or not live.lists(path, "revisions.json"):
        return None
    size = sum(part_size for _, part_size in layout) + 4 * len(layout) + 3 if layout else 3
    return (path, layout) if live.files["revisions.json"][0] == size else None


def _well_formed(layout: object) -> TypeGuard[Layout]:
    """Whether a layout the cache gave is one (a damaged or foreign entry is a miss)."""
    return isinstance(layout, tuple) and all(
        isinstance(part, tuple) and len(part) == 2 and isinstance(part[0], str) and isinstance(part[1], int)
        for part in layout
    )


def _join(out: _Joined, parts: Sequence[_Part], live: tuple[str, Layout] | None) -> None:
    """Write ``revisions.json``'s parts, each run of them that ``live``'s file holds in the same
    order copied from there as one range."""
    path, pieces = (live[0], _pieces(parts, live[1])) if live is not None else ("", list(parts))

    def put(piece: _Part | _Range) -> None:
        if isinstance(piece, _Range):
            out.copy_range(path, piece.offset, piece.size)
        elif isinstance(piece.source, bytes):
            out.write(piece.source)
        else:
            out.copy(piece.source, 0, piece.size)

    _bracketed(out.write, pieces, put)


def _bracketed(write: Callable[[bytes], object], pieces: Sequence[P], put: Callable[[P], object]) -> None:
    """``revisions.json`` around ``pieces``, each written by ``put``: what ``dumps(data, 2)``
    gives when each piece is one or more batches' elements."""
    for n, piece in enumerate(pieces):
        write(b",\n  " if n else b"[\n  ")
        put(piece)
    write(b"\n]\n" if pieces else b"[]\n")


def _pieces(parts: Sequence[_Part], layout: Layout) -> list[_Part | _Range]:
    """``parts``, each run of them that ``layout`` holds in the same order as one range of its
    file (which begins with 4 bytes, and has 4 between two parts)."""
    starts: list[int] = []
    at = 4
    first: dict[str, int] = {}
    for index, (digest, size) in enumerate(layout):
        starts.append(at)
        at += size + 4
        first.setdefault(digest, index)
    pieces: list[_Part | _Range] = []
    last = -1  # the layout's index of the part the last range ends with (-1: not a range)
    for part in parts:
        follows = 0 <= last < len(layout) - 1 and layout[last + 1][0] == part.digest
        index = last + 1 if follows else first.get(part.digest, -1)
        if index < 0:
            pieces.append(part)
            last = -1
            continue
        end = starts[index] + layout[index][1]
        previous = pieces[-1] if follows else None  # a range whenever ``last`` is an index
        if isinstance(previous, _Range):
            pieces[-1] = _Range(previous.offset, end - previous.offset)
        else:
            pieces.append(_Range(starts[index], end - starts[index]))
        last = index
    return pieces


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
        self._sources: dict[str | Path, int] = {}

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
        self.copy_range(texts.path, offset, size)

    def copy_range(self, path: str | Path, offset: int, size: int) -> None:
        """Append ``size`` bytes of the file ``path`` from ``offset``, copied by the kernel."""
        source = self._sources.pop(path, None)  # re-inserted: the most recent last
        if source is None:
            if len(self._sources) >= self.OPEN_FILES:
                os.close(self._sources.pop(next(iter(self._sources))))
            source = os.open(path, os.O_RDONLY)
        self._sources[path] = source
        while size > 0:
            try:
                done = os.copy_file_range(source, self._fd, size, offset)
            except OSError:  # not between these file systems: through memory
                done = os.write(self._fd, os.pread(source, min(size, 1 << 20), offset))
            if done <= 0:
                raise OSError(f"{path} is shorter than its record")
            offset, size = offset + done, size - done


def write_revisions(histories: Histories, write: Callable[[bytes], object]) -> None:
    """``revisions.json`` streamed, what ``dumps(data, 2)`` gives: each batch's elements read
    from its texts file, or made here for a batch with a revision of an article's history."""

    def put(part: _Part) -> None:
        write(part.source if isinstance(part.source, bytes) else part.source.fragment())

    _bracketed(write, _revisions(histories)[1], put)
