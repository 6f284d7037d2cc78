"""The search index as a base and a delta: an edit indexes the pages it changed, not a shard.

A build that indexes its shards afresh (:mod:`.shards`; every cold build) leaves them as the
*base*. A later build indexes only the pages that are new or differ from the base's copy,
into one more bundle, the *delta* (published at :data:`DELTA`); the search box hides the
base's copies of the pages the delta holds anew or that are gone, by their fragment ids
(:mod:`.merged`), which the cache keeps beside each base bundle (:func:`page_ids`). Once the
delta would hold more than :data:`FOLD_PAGES` pages, the build *folds* it: the shards whose
pages changed are indexed afresh, as a cold build would, and the shards are the next base.
"""

from __future__ import annotations

import json
import re
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from site_builder.search.pagefind import BUNDLE
from site_builder.search.shards import make_shard

DELTA = f"{BUNDLE}/delta"
"""Where the delta bundle is published."""
FOLD_PAGES = 100
"""The most pages a delta holds; a build that would index more folds instead (bench/README.md,
"The delta curve")."""
PAGES = "pages"
"""The suffix of the file the cache keeps beside a bundle: each page's hash and fragment id."""

_URL = re.compile(rb'pagefind_dcd\{"url":("(?:[^"\\]|\\.)*")')
"""A fragment's start, as Pagefind 1.x writes it (its signature, then the page's URL)."""
_HEAD = 4096
"""Bytes of a fragment decompressed to read its URL."""


@dataclass(frozen=True, slots=True)
class BaseBundle:
    """A bundle of the base: where the live site has it, its key, and what its pages were."""

    folder: str
    key: str
    pages: dict[str, tuple[str, str]]
    """Output path → the page's content hash when indexed, and its fragment id (the id the
    search gives its result)."""


@dataclass(frozen=True, slots=True)
class Delta:
    """What a build adds to the base: pages to index, and base pages to hide."""

    pages: dict[str, str]
    """Output path → content hash of every page the base lacks or holds another copy of."""
    hidden: dict[str, frozenset[str]]
    """Base bundle's folder → the fragment ids of its pages changed or gone."""


def page_ids(bundle: Path, pages: Mapping[str, str]) -> dict[str, tuple[str, str]] | None:
    """Each page's hash and fragment id in ``bundle``, which Pagefind wrote over ``pages`` (output
    path → hash; a page it left out has the id ``""``: nothing to hide); None when a fragment
    is of no page or of one page twice."""
    by_url = {_url(path): path for path in pages}
    found: dict[str, tuple[str, str]] = {}
    for fragment in sorted((bundle / "fragment").glob("*.pf_fragment")):
        head = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(fragment.read_bytes(), _HEAD)
        match = _URL.match(head)
        path = by_url.get(json.loads(match.group(1))) if match else None
        if path is None or path in found:
            return None
        found[path] = (pages[path], fragment.name.removesuffix(".pf_fragment"))
    return {path: found.get(path, (sha, "")) for path, sha in pages.items()}


def _url(path: str) -> str:
    """The URL Pagefind gives the page at output path ``path``."""
    return "/" + path.removesuffix("index.html")


def write_ids(file: Path, ids: Mapping[str, tuple[str, str]]) -> None:
    """Write what :func:`page_ids` found into ``file``, where :func:`read_base` reads it."""
    file.write_text(json.dumps(ids, sort_keys=True, ensure_ascii=False), "utf-8")


def read_ids(file: Path) -> dict[str, tuple[str, str]]:
    """What :func:`write_ids` wrote into ``file``."""
    return {path: (sha, ident) for path, (sha, ident) in json.loads(file.read_text("utf-8")).items()}


def joined_ids(files: Iterable[Path]) -> dict[str, tuple[str, str]] | None:
    """The pages' ids of a bundle joined from bundles whose ids :func:`write_ids` wrote into
    ``files`` (a page's fragment is the same file in both); None when one cannot be read."""
    ids: dict[str, tuple[str, str]] = {}
    for file in files:
        try:
            ids |= read_ids(file)
        except (OSError, ValueError, TypeError):
            return None
    return ids


def read_base(kept: Path, live: Mapping[str, str], language: str) -> tuple[BaseBundle, ...] | None:
    """The base: the live site's bundles but the delta (folder → key), with their pages as the
    cache keeps them, in the order they are merged; None when one is not kept, or was made by
    another Pagefind or for another language (its key says so)."""
    base = []
    for folder, key in sorted(live.items()):
        if folder == DELTA:
            continue
        try:
            pages = read_ids(kept / f"{key}.{PAGES}")
        except (OSError, ValueError, TypeError):
            return None
        if make_shard(0, {path: sha for path, (sha, _) in pages.items()}, language).key != key:
            return None
        base.append(BaseBundle(folder, key, pages))
    return tuple(base) or None


def ids_kept(kept: Path, key: str) -> bool:
    """Whether the cache keeps the pages' ids of the bundle of ``key`` (an older version kept none)."""
    return (kept / f"{key}.{PAGES}").is_file()


def delta_of(base: tuple[BaseBundle, ...], current: Mapping[str, str]) -> Delta:
    """What ``current`` (output path → hash of every page to index) adds to ``base``."""
    was = {path: sha for bundle in base for path, (sha, _) in bundle.pages.items()}
    hidden = {
        bundle.folder: frozenset(
            ident for path, (sha, ident) in bundle.pages.items() if ident and current.get(path) != sha
        )
        for bundle in base
    }
    pages = {path: sha for path, sha in sorted(current.items()) if was.get(path) != sha}
    return Delta(pages=pages, hidden=hidden)
