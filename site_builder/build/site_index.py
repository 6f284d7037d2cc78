"""The site index: every kept batch's summary in one file of the cache, ``index/batches``.

A rebuild after an edit of one batch at 10,000 articles needs something of each of
the 3,334 others: what the lists show of it, its pages and their hashes, its
revisions' timings, the keys its findings were kept under. Each kept summary holds
just that (the rest, its :class:`~site_builder.build.batch.Body`, stays in its texts
file until a site-wide step asks for it), and the index holds every kept summary, so
a build reads one file where it read a file per batch. The batch's own file
(``batches/KEY``) stays the truth: an index that is missing, damaged or written by
another build of the same site only sends a build to those files, and a summary
from it is taken only while its texts file is the one it describes
(:meth:`~site_builder.build.reuse.Reuse.summary`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path

from site_builder.build.batch import Summary
from site_builder.build.store import Store

KIND, KEY = "index", "batches"
"""Where the cache holds the index."""


def read_index(store: Store) -> dict[str, Summary]:
    """Every summary the index holds, by batch key (empty when there is no whole index)."""
    found = store.get(KIND, KEY)
    if not isinstance(found, dict):
        return {}
    return {key: entry for key, entry in found.items() if isinstance(key, str) and isinstance(entry, Summary)}


def write_index(store: Store, summaries: Mapping[str, Summary], kept: set[str]) -> None:
    """Keep the summaries of ``kept`` (the batches whose texts the cache now holds) as the
    index, each pointing at its texts file in the cache."""
    folder = store.folder / "batches"
    index = {key: _at(summaries[key], folder / f"{key}.text") for key in summaries if key in kept}
    store.put(KIND, KEY, index)


def _at(summary: Summary, path: Path) -> Summary:
    """``summary`` with its texts at ``path``."""
    if summary.texts.path == path:
        return summary
    return dataclasses.replace(summary, texts=dataclasses.replace(summary.texts, path=path))
