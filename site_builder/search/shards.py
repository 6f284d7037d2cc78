"""Which shard of the search index each article page belongs to.

One Pagefind run over every article holds some 280 KB per page (2.8 GB at 10,000
articles) and starts only once every page is written. The articles are split instead
into shards by batch name (a batch stays in its shard while the number of shards
stays the same); each shard is indexed on its own, as soon as its pages are written,
and runs of neighbouring shards are joined into bundles (:func:`joined`,
:mod:`.combine`): one on a small site, at most :data:`MAX_SHARDS` on a large one, the
first published at ``/pagefind/``, the others at ``/pagefind/shard-NN/``, which the
browser merges (:mod:`.merged`). A shard is known by a hash of its pages, so a fold
indexes only the shards whose pages changed. Shards that cannot be joined are
published as they are, in the same folders.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from site_builder.search.pagefind import BUNDLE, pagefind_version

BATCHES_PER_SHARD = 10
"""About this many batches (30 articles) share a shard on a small site, so that the first
shard's indexer starts early."""
MAX_SHARDS = 4
"""A small site has at most this many shards: past this, shards grow instead of multiplying,
each Pagefind run's start costing more than its pages, up to :data:`MOST_BATCHES`."""
MOST_BATCHES = 200
"""No shard holds more batches than this (600 articles of the benchmark's corpus: Pagefind
holds some 170 MB over them), so that a build's memory does not grow with its site's size."""

JOINED_PAGES = 2_500
"""About this many pages of shards are joined into one bundle (and at most :data:`MAX_SHARDS`
bundles): in Chromium, the merging module's first search over four bundles of 2,500 pages and a
delta took about half the time of one over a bundle of 10,000 and a delta (bench/README.md), for
one more index chunk asked for per bundle."""

FEED = "a tree of the pages, made in path order"
"""What Pagefind reads: a bundle made from the staging folder itself (whose order it numbered
the pages in) is not reused."""


def shard_count(batches: int) -> int:
    """How many shards a site of ``batches`` batches is split into."""
    return max(1, min(MAX_SHARDS, math.ceil(batches / BATCHES_PER_SHARD)), math.ceil(batches / MOST_BATCHES))


def shard_of(batch: str, count: int) -> int:
    """The shard of a batch: a hash of its name, so neighbours do not move it."""
    return int(hashlib.sha256(batch.encode("utf-8")).hexdigest()[:8], 16) % count


@dataclass(frozen=True, slots=True)
class Shard:
    """Some article pages indexed together, and the hash they are cached by."""

    number: int
    pages: dict[str, str]
    """Output path → content hash of its pages (every HTML page when the site has no articles)."""
    key: str


def make_shard(number: int, pages: Mapping[str, str], language: str) -> Shard:
    """Shard ``number`` of these pages (output path → content hash), with its cache key."""
    digest = hashlib.sha256(f"{pagefind_version()}\0{FEED}\0{language}\0".encode())
    for path, sha in sorted(pages.items()):
        digest.update(f"{path}\0{sha}\0".encode())
    return Shard(number, dict(sorted(pages.items())), digest.hexdigest())


def joined(shards: Sequence[Shard]) -> list[list[Shard]]:
    """The shards (in order) in the bundles they are joined into: runs of neighbours, as even in
    number as they can be, one per :data:`JOINED_PAGES` pages, at most :data:`MAX_SHARDS`."""
    pages = sum(len(shard.pages) for shard in shards)
    count = max(1, min(MAX_SHARDS, len(shards), round(pages / JOINED_PAGES)))
    size, longer = divmod(len(shards), count)
    runs, start = [], 0
    for number in range(count):
        end = start + size + (number < longer)
        runs.append(list(shards[start:end]))
        start = end
    return runs


def bundle_path(index: int) -> str:
    """Where the ``index``-th bundle (of joined shards, or a shard) is published, relative to
    the site."""
    return BUNDLE if index == 0 else f"{BUNDLE}/shard-{index:02d}"
