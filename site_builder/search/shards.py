"""Which shard of the search index each article page belongs to.

One Pagefind index of every article takes seconds on a large site, and any edit
would redo it whole. The articles are split instead into shards by batch name (a
batch stays in its shard while the number of shards stays the same); each shard
is indexed on its own and the browser merges them (Pagefind's ``mergeIndex``). A
shard is known by a hash of its pages, so a rebuild indexes only the shards whose
pages changed. The first shard lives at ``/pagefind/`` (the UI and a template that
knows only the default bundle keep working); the others at ``/pagefind/shard-NN/``.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping
from dataclasses import dataclass

from site_builder.search.pagefind import BUNDLE, pagefind_version

BATCHES_PER_SHARD = 10
"""About this many batches (30 articles) share a shard: re-indexing one takes some 0.15 s."""
MAX_SHARDS = 4
"""A reader's first search loads every shard's index (three requests each, one after another):
at 4 it costs at most twice what one Pagefind bundle over the whole site costs (bench/README.md,
"the shard curve"); past this, shards grow instead of multiplying, and re-indexing one takes
longer (about 10 s at 10,000 articles)."""

FEED = "a tree of the pages, made in path order"
"""What Pagefind reads: a bundle made from the staging folder itself (whose order it numbered
the pages in) is not reused."""


def shard_count(batches: int) -> int:
    """How many shards a site of ``batches`` batches is split into."""
    return max(1, min(MAX_SHARDS, math.ceil(batches / BATCHES_PER_SHARD)))


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


def bundle_path(index: int) -> str:
    """Where the ``index``-th non-empty shard is published, relative to the site."""
    return BUNDLE if index == 0 else f"{BUNDLE}/shard-{index:02d}"
