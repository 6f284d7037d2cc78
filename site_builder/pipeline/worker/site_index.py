"""The site index: every kept batch's summary in the cache's ``index/`` folder.

A rebuild after an edit of one batch at 10,000 articles needs something of each of
the 3,334 others: what the lists show of it, its pages and their hashes, its
revisions' timings, the keys its findings were kept under. Each kept summary holds
just that (the rest, its :class:`~site_builder.pipeline.worker.batch.Body`, stays in its texts
file until a site-wide step asks for it), and the index holds every kept summary, so
a build reads one file where it read a file per batch.

The index is a *base* (``index/batches``: every summary, and a token naming that
file's contents) and the *changes* since it (``index/batches.changes``: the
summaries added or made again, the keys dropped, and the base's token). A build
that changed a few batches writes only the changes, so what it writes is in
proportion to what it changed; once the changes pass a sixteenth of the site (and 16
batches), a new base is written and the changes are dropped. Changes made against another
base (another build wrote one since) are not applied.

The batch's own file (``batches/KEY``) stays the truth: an index that is missing,
damaged or written by another build of the same site only sends a build to those
files, and a summary from it is taken only while its texts file is the one it
describes (:func:`kept_summary`).
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from site_builder.pipeline.cache.reuse import Cache
from site_builder.pipeline.cache.store import CacheFolder
from site_builder.pipeline.worker.batch import BatchSummary

KIND, KEY = "index", "batches"
"""Where the cache holds the base of the index."""
CHANGES = KEY + ".changes"
"""Where it holds the changes since that base."""


@dataclass(frozen=True, slots=True)
class SiteIndex:
    """The index as a build read it: its summaries, and what the next build's changes are
    made against."""

    summaries: dict[str, BatchSummary]
    """Every summary it holds, by batch key."""
    token: str = ""
    """The token of the base it was read from ("" when there was none)."""
    base: frozenset[str] = frozenset()
    """The keys the base holds."""
    changed: frozenset[str] = frozenset()
    """The keys whose summary came from the changes."""


def kept_summaries(reuse: Cache) -> dict[str, BatchSummary]:
    """The kept summaries the site index holds, by batch key; what was read is noted in
    ``reuse`` for :func:`keep_summaries` to write its changes against."""
    found = read_index(reuse.store)
    reuse.read["index"] = found
    return found.summaries


def kept_summary(
    reuse: Cache, key: str, index: Mapping[str, BatchSummary] | None = None
) -> BatchSummary | None:
    """A kept summary (from ``index`` when it holds it, else from the batch's own file),
    its texts file where the cache keeps it; or None (also when that file is not the one
    it was kept with)."""
    indexed = _with_texts(reuse, key, index.get(key) if index is not None else None)
    return indexed if indexed is not None else _with_texts(reuse, key, reuse.store.get("batches", key))


def _with_texts(reuse: Cache, key: str, entry: object) -> BatchSummary | None:
    """``entry`` with its texts file where the cache keeps it, when it is a summary and that
    file is the one it was kept with (a shard may have summarized the batch again since the
    index was written: then the batch's own file is the truth)."""
    if not isinstance(entry, BatchSummary):
        return None
    texts = entry.texts.moved(reuse.texts_name(key))
    if texts is None:
        return None
    return entry if texts is entry.texts else dataclasses.replace(entry, texts=texts)


def keep_summaries(reuse: Cache, summaries: Mapping[str, BatchSummary]) -> None:
    """Keep each batch summarized by this build and write the index of them, as changes to
    the one this build read when it can."""
    last = reuse.read.get("index")
    last = last if isinstance(last, SiteIndex) else SiteIndex({})
    held = keep_batches(reuse.store, summaries)
    reuse.store.keep_only("batches", set(summaries))  # the batches the site no longer has
    write_index(reuse.store, last, summaries, held)


def keep_batches(store: CacheFolder, summaries: Mapping[str, BatchSummary]) -> set[str]:
    """Keep each batch summarized by this run (its pickle and texts file, made by the worker
    in the scratch folder, are moved in), leaving the others the cache holds as they are (a
    shard keeps its own beside the other shards'). The keys of ``summaries`` the cache holds now."""
    folder = store.folder / "batches"
    held: set[str] = set()
    for key, summary in summaries.items():
        if str(summary.texts.path) == f"{folder}/{key}.text":  # kept by an earlier build
            held.add(key)
            continue
        pickled = summary.texts.path.with_name(f"{key}.summary")
        if (
            pickled.is_file()
            and store.move_in(summary.texts.path, f"batches/{key}.text")
            and store.move_in(pickled, f"batches/{key}")
        ):
            held.add(key)
    return held


def read_index(store: CacheFolder) -> SiteIndex:
    """The index the cache holds (empty when there is no whole base)."""
    found = store.get(KIND, KEY)
    if not (isinstance(found, tuple) and len(found) == 2 and isinstance(found[0], str)):
        return SiteIndex({})
    token, base = found[0], _summaries(found[1])
    summaries = dict(base)
    changed: frozenset[str] = frozenset()
    changes = store.get(KIND, CHANGES)
    if isinstance(changes, tuple) and len(changes) == 3 and changes[0] == token:
        added, dropped = _summaries(changes[1]), changes[2]
        for key in dropped if isinstance(dropped, frozenset) else ():
            summaries.pop(key, None)
        summaries |= added
        changed = frozenset(added)
    return SiteIndex(summaries, token, frozenset(base), changed)


def write_index(
    store: CacheFolder, last: SiteIndex, summaries: Mapping[str, BatchSummary], kept: set[str]
) -> None:
    """Keep the summaries of ``kept`` (the batches whose texts the cache now holds) as the
    index, each pointing at its texts file in the cache: as changes to the base ``last`` was
    read from, or as a new base."""
    folder = store.folder / "batches"
    index = {
        key: _as_kept(last, key, summaries[key], f"{folder}/{key}.text") for key in summaries if key in kept
    }
    if last.token:
        added = _added(last, index)
        dropped = last.base - index.keys()
        if len(added) + len(dropped) <= max(16, len(index) // 16):
            if added or dropped or last.changed:
                store.put(KIND, CHANGES, (last.token, added, frozenset(dropped)))
            return
    store.drop(KIND, CHANGES)
    store.put(KIND, KEY, (_token(index), index))


def _added(last: SiteIndex, index: Mapping[str, BatchSummary]) -> dict[str, BatchSummary]:
    """The summaries of ``index`` that the base ``last`` was read from does not hold as they
    are: new keys, keys already changed since that base, and batches summarized again."""
    return {
        key: summary
        for key, summary in index.items()
        if key not in last.base or key in last.changed or _made_again(summary, last.summaries.get(key))
    }


def _made_again(summary: BatchSummary, held: BatchSummary | None) -> bool:
    """Whether ``summary`` is not the one the index held under its key (its batch was
    summarized again, into a new texts file)."""
    return held is None or held.texts.stat != summary.texts.stat


def _token(index: Mapping[str, BatchSummary]) -> str:
    """What a base is known by: its keys and their texts files' stat."""
    digest = hashlib.sha256()
    for key in sorted(index):
        digest.update(f"{key}\0{index[key].texts.stat}\0".encode())
    return digest.hexdigest()


def _summaries(found: object) -> dict[str, BatchSummary]:
    """The well-formed entries of a pickled mapping of summaries."""
    if not isinstance(found, dict):
        return {}
    return {
        key: entry for key, entry in found.items() if isinstance(key, str) and isinstance(entry, BatchSummary)
    }


def _as_kept(last: SiteIndex, key: str, summary: BatchSummary, path: str) -> BatchSummary:
    """What the index keeps of ``summary``: as the index held it when its batch was not
    summarized again (this build may have used it otherwise: with its pages left to the
    kernel, by :mod:`~site_builder.pipeline.loading`), else ``summary`` with its texts at ``path``."""
    held = last.summaries.get(key)
    return held if held is not None and not _made_again(summary, held) else _at(summary, path)


def _at(summary: BatchSummary, path: str) -> BatchSummary:
    """``summary`` with its texts at ``path`` (a string: the index asks it of every batch)."""
    if str(summary.texts.path) == path:
        return summary
    return dataclasses.replace(summary, texts=dataclasses.replace(summary.texts, path=Path(path)))
