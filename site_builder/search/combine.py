"""One Pagefind bundle made of several: the shards' indexes joined into the index one Pagefind
run over all their pages would write, but for the order of the pages.

Pagefind holds some 280 KB per page while it indexes (bench/README.md), so a large site is
indexed as shards, one Pagefind run each; a reader's search, though, costs a request and a
search per bundle. So the shards are joined: their pages listed one bundle after another,
each word's pages from every shard under the word once (renumbered), cut into chunks by
Pagefind's rule of size; the fragments, the scripts and the WebAssembly are the shards' own files.

The files are Pagefind's own format (gzip of ``pagefind_dcd`` and CBOR), which it does not
document: this reads what 1.4 and 1.5 write and refuses any other version, and a bundle with
sort orders (which keep no values to merge by) or with other metadata fields than the first's.
"""

from __future__ import annotations

import gzip
import hashlib
import heapq
import itertools
import json
import os
import shutil
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cbor2

SIGNATURE = b"pagefind_dcd"
"""What every compressed file of a bundle starts with once uncompressed."""
VERSIONS = ("1.4.", "1.5.")
"""The Pagefind versions whose files this reads and writes."""
DIFFERENCES = "1.5."
"""The versions whose word index gives each page of a word by how far it lies past the page
before it (the first from 0); 1.4 gives the page's number itself."""
CHUNK_SIZE = 20_000
"""Pagefind's: a chunk of the word index ends with the word that takes its count of locations
(those in the text and, in 1.5, those in the metadata, plus one per page of each word) to this
many."""
ENTRY = "pagefind-entry.json"
_META, _INDEX, _FILTER, _FRAGMENT = "pf_meta", "index", "filter", "fragment"
_LEVEL = 6
"""gzip's level: Pagefind's own is 9, which takes 2.6 times as long for files 0.8 % smaller (its
word index at N = 10,000: 5.1 s against 1.9 s)."""

Word = list[Any]
"""``[word, [[page number, locations, ...], ...], ...]`` as CBOR decodes it (1.5 adds the word's
other spellings: ``[[spelling, pages], ...]``)."""


class UncombinableError(Exception):
    """The bundles cannot be joined exactly; the message says why."""


def combine(bundles: Sequence[Path], out: Path) -> None:
    """Write into ``out`` (made afresh) one bundle holding every page of ``bundles``, in their
    order. Raises :class:`UncombinableError` when they cannot be joined exactly, or their files
    are not as Pagefind 1.4 or 1.5 writes them."""
    try:
        _combine(bundles, out)
    except (KeyError, IndexError, TypeError, ValueError, EOFError) as exc:  # cbor2's errors are ValueErrors
        raise UncombinableError(f"a file is not as Pagefind writes it ({type(exc).__name__}: {exc})") from exc


def _combine(bundles: Sequence[Path], out: Path) -> None:
    language, entries, metas = _heads(bundles)
    shutil.rmtree(out, ignore_errors=True)
    for folder in (_INDEX, _FRAGMENT, _FILTER):
        (out / folder).mkdir(parents=True)
    offsets = list(itertools.accumulate((len(meta[1]) for meta in metas[:-1]), initial=0))
    pages = [page for meta in metas for page in meta[1]]
    with ThreadPoolExecutor(max_workers=1) as compressing:  # zlib lets go of the GIL meanwhile
        files = _Files(out, language, compressing)
        chunks = _write_words(files, bundles, metas, offsets)
        filters = _write_filters(files, bundles, metas, offsets)
        meta_hash = files.write(
            "", [metas[0][0], pages, chunks, filters, [], *metas[0][5:]], "pagefind.{}.pf_meta"
        )
        files.wait()
    _link_files(bundles, out)
    entry = entries[0]
    entry["languages"] = {
        language: {**entry["languages"][language], "hash": meta_hash, "page_count": len(pages)}
    }
    (out / ENTRY).write_text(json.dumps(entry, ensure_ascii=False, separators=(",", ":")), "utf-8")
    if not filters:
        (out / _FILTER).rmdir()


def _heads(bundles: Sequence[Path]) -> tuple[str, list[dict[str, Any]], list[list[Any]]]:
    """The bundles' language, entries and metadata, checked joinable."""
    if not bundles:
        raise UncombinableError("no bundle to join")
    entries = [json.loads((bundle / ENTRY).read_text("utf-8")) for bundle in bundles]
    language = _language(entries)
    metas = [_meta(bundle, entry, language) for bundle, entry in zip(bundles, entries, strict=True)]
    if any(meta[0] != metas[0][0] or meta[5:] != metas[0][5:] for meta in metas):
        raise UncombinableError("the bundles differ in version or metadata fields")
    return language, entries, metas


def _language(entries: list[dict[str, Any]]) -> str:
    """The one language of bundles whose entries are ``entries``, which this can read."""
    for entry in entries:
        if not str(entry.get("version", "")).startswith(VERSIONS):
            raise UncombinableError(f"Pagefind {entry.get('version')} writes files this does not read")
    languages: set[str] = {str(language) for entry in entries for language in entry["languages"]}
    if len(languages) != 1:
        raise UncombinableError("the bundles are not of one language")
    return languages.pop()


def _meta(bundle: Path, entry: dict[str, Any], language: str) -> list[Any]:
    """A bundle's metadata, which must keep no sort order."""
    meta: list[Any] = _load(bundle / f"pagefind.{entry['languages'][language]['hash']}.{_META}")
    if meta[4]:
        raise UncombinableError("a bundle has sort orders")
    return meta


def _link_files(bundles: Sequence[Path], out: Path) -> None:
    """Every bundle's fragments, and the first's scripts, styles and WebAssembly, into ``out``."""
    for bundle in bundles:
        _link_all(bundle / _FRAGMENT, out / _FRAGMENT)
    for name in sorted(os.listdir(bundles[0])):
        source = bundles[0] / name
        if source.is_file() and name != ENTRY and not name.endswith(f".{_META}"):
            _link(source, out / name)


def _write_words(
    files: _Files, bundles: Sequence[Path], metas: list[list[Any]], offsets: list[int]
) -> list[list[str]]:
    """The word index of every bundle as one, in chunks: the metadata's list of chunks."""
    join = _join_differences if str(metas[0][0]).startswith(DIFFERENCES) else _join_numbers
    streams = [
        _words(bundle, meta, offset) for bundle, meta, offset in zip(bundles, metas, offsets, strict=True)
    ]
    chunks: list[list[str]] = []
    chunk: list[Word] = []
    size = 0
    for spelling, same in itertools.groupby(heapq.merge(*streams, key=_spelling), key=_spelling):
        word = _join_word(spelling, list(same), join)
        chunk.append(word)
        size += _size(word[1]) + sum(_size(pages) for _, pages in (word[2] if len(word) > 2 else ()))
        if size >= CHUNK_SIZE:
            chunks.append(_write_chunk(files, chunk))
            chunk, size = [], 0
    if chunk:
        chunks.append(_write_chunk(files, chunk))
    for before, after in itertools.pairwise(chunks):
        before[1], after[0] = _prefixes(before[1], after[0])
    return chunks


def _spelling(word: tuple[Word, int]) -> str:
    return str(word[0][0])


def _words(bundle: Path, meta: list[Any], offset: int) -> Iterator[tuple[Word, int]]:
    """A bundle's words in order, each with the number its bundle's first page takes."""
    for _, _, name in meta[2]:
        for word in _load(bundle / _INDEX / f"{name}.pf_index")[0]:
            yield word, offset


Join = Callable[[Iterable[tuple[list[list[Any]], int]]], list[list[Any]]]


def _join_word(spelling: str, same: list[tuple[Word, int]], join: Join) -> Word:
    """One word from the bundles that hold it: its pages, and in 1.5 its other spellings (those
    with diacritics, found under the plain one), each with its pages, in order of appearance."""
    word: Word = [spelling, join((found[1], offset) for found, offset in same)]
    if len(same[0][0]) > 2:
        variants: dict[str, list[tuple[list[list[Any]], int]]] = {}
        for found, offset in same:
            for variant, pages in found[2]:
                variants.setdefault(variant, []).append((pages, offset))
        word.append([[variant, join(parts)] for variant, parts in variants.items()])
    return word


def _size(pages: list[list[Any]]) -> int:
    """What a word's pages count towards a chunk's size: one each, and one per location."""
    return sum(1 + sum(map(len, page[1:])) for page in pages)


def _join_numbers(parts: Iterable[tuple[list[list[Any]], int]]) -> list[list[Any]]:
    """One word's pages from several bundles, each page by its number (Pagefind 1.4)."""
    joined = []
    for pages, offset in parts:
        for page in pages:
            page[0] += offset
        joined.extend(pages)
    return joined


def _join_differences(parts: Iterable[tuple[list[list[Any]], int]]) -> list[list[Any]]:
    """One word's pages from several bundles, each page by how far it lies past the one before
    (Pagefind 1.5): only each bundle's first page moves."""
    joined: list[list[Any]] = []
    last = 0
    for pages, offset in parts:
        if not pages:
            continue
        end = offset + sum(page[0] for page in pages)
        pages[0][0] += offset - last
        last = end
        joined.extend(pages)
    return joined


def _write_chunk(files: _Files, words: list[Word]) -> list[str]:
    """Write one chunk of the word index: its first word, last word and name."""
    return [words[0][0], words[-1][0], files.write(_INDEX, [words], "{}.pf_index")]


def _prefixes(a: str, b: str) -> tuple[str, str]:
    """Pagefind's bounds between two chunks: each word cut one letter past what they share."""
    shared = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    return a[: shared + 1], b[: shared + 1]


def _write_filters(
    files: _Files, bundles: Sequence[Path], metas: list[list[Any]], offsets: list[int]
) -> list[list[str]]:
    """Every bundle's filters as one: each value's pages from every bundle, renumbered."""
    values: dict[str, dict[str, list[int]]] = {}
    for bundle, meta, offset in zip(bundles, metas, offsets, strict=True):
        for name, file in meta[3]:
            filter_index = _load(bundle / _FILTER / f"{file}.pf_filter")
            into = values.setdefault(name, {})
            for value, pages in filter_index[1]:
                into.setdefault(value, []).extend(page + offset for page in pages)
    written = []
    for name, found in sorted(values.items()):
        value = [name, [[v, pages] for v, pages in sorted(found.items())]]
        written.append([name, files.write(_FILTER, value, "{}.pf_filter")])
    return written


def _load(file: Path) -> Any:
    data = gzip.decompress(file.read_bytes())
    if not data.startswith(SIGNATURE):
        raise UncombinableError(f"{file.name} is not a Pagefind file")
    return cbor2.loads(data[len(SIGNATURE) :])


@dataclass(frozen=True, slots=True)
class _Files:
    """Where the joined bundle's files go: each named by a hash of its contents, and compressed
    and written in another thread while the next is made."""

    out: Path
    language: str
    compressing: ThreadPoolExecutor
    written: list[Future[None]] = field(default_factory=list)

    def write(self, folder: str, value: Any, pattern: str) -> str:
        """Write ``value`` as Pagefind does; its name without its suffix."""
        data = SIGNATURE + cbor2.dumps(value)
        name = f"{self.language}_{hashlib.sha256(data).hexdigest()[:10]}"
        self.written.append(
            self.compressing.submit(_compressed, self.out / folder / pattern.format(name), data)
        )
        return name

    def wait(self) -> None:
        """Once every file is written (raising what writing one raised)."""
        for done in self.written:
            done.result()


def _compressed(path: Path, data: bytes) -> None:
    path.write_bytes(gzip.compress(data, _LEVEL, mtime=0))


def _link_all(source: Path, target: Path) -> None:
    with os.scandir(source) as found:
        for item in found:
            if not os.path.exists(target / item.name):  # one page twice: Pagefind names it once
                _link(Path(item.path), target / item.name)


def _link(source: Path, target: Path) -> None:
    try:
        os.link(source, target)
    except OSError:
        shutil.copyfile(source, target)
