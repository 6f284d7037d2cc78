"""More helpers for the documentation's fixtures, beside ``_tool``.

Reading what a build wrote (a page's lines, a folder's files by content hash, the
pages a search bundle indexed), running the tool from a folder without ``--root``,
and leaving out of a message what changes from run to run (a temporary path, the
seconds a build took).
Nothing here is shown to readers.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import re
from pathlib import Path

_SECONDS = re.compile(r" in \d+(\.\d+)? s$")


def without_seconds(line: str) -> str:
    """A build's summary line without its timing (``… in 0.4 s``), which varies."""
    return _SECONDS.sub("", line)


def page(root: Path, relative: str, out: str = "build") -> str:
    """The text of a built file."""
    return (root / out / relative).read_text("utf-8")


def lines_with(text: str, needle: str) -> list[str]:
    """The lines of ``text`` that contain ``needle``, stripped."""
    return [line.strip() for line in text.splitlines() if needle in line]


def between(text: str, start: str, end: str) -> str:
    """The part of ``text`` from the first ``start`` to the next ``end`` (both kept)."""
    first = text.index(start)
    return text[first : text.index(end, first) + len(end)]


def files_by_hash(folder: Path) -> dict[str, str]:
    """Every file below ``folder`` (relative path) → the SHA-256 of its bytes."""
    return {
        path.relative_to(folder).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def kept_texts(root: Path) -> dict[str, tuple[int, int]]:
    """Each batch's texts file the site's cache keeps (named after the batch's key), with its
    size and modification time: a batch summarized again writes its file anew."""
    found = (root / ".site-builder-cache" / "batches").glob("*.text")
    return {path.name: (path.stat().st_size, path.stat().st_mtime_ns) for path in found}


def inodes(folder: Path) -> dict[str, int]:
    """Every file below ``folder`` → its inode: the same inode is the same file, not a copy."""
    return {
        path.relative_to(folder).as_posix(): path.stat().st_ino
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def edit(path: Path, old: str, new: str) -> None:
    """Replace ``old`` by ``new`` in a file, failing loudly when ``old`` is not there."""
    text = path.read_text("utf-8")
    if old not in text:
        raise ValueError(f"{old!r} is not in {path.name}")
    path.write_text(text.replace(old, new), "utf-8")


_PAGEFIND_SIGNATURE = b"pagefind_dcd"
"""What a Pagefind fragment starts with once decompressed; JSON follows."""


def indexed_pages(bundle: Path, hidden: frozenset[str] = frozenset()) -> dict[str, dict]:
    """The pages a Pagefind bundle indexed: URL → the record Pagefind keeps of it (but those of
    the ``hidden`` ids)."""
    return {record["url"]: record for record in _records(bundle, hidden)}


def _records(bundle: Path, hidden: frozenset[str]) -> list[dict]:
    records = []
    for path in sorted((bundle / "fragment").glob("*.pf_fragment")):
        if path.name.removesuffix(".pf_fragment") in hidden:
            continue
        data = gzip.decompress(path.read_bytes())
        text = data[len(_PAGEFIND_SIGNATURE) :] if data.startswith(_PAGEFIND_SIGNATURE) else data
        records.append(json.loads(text))
    return records


def search_bundles(build: Path) -> list[str]:
    """The bundle folders the search box loads, as ``site-search.js`` lists them."""
    script = (build / "pagefind" / "site-search.js").read_text("utf-8")
    listed = re.search(r"var bundles = (\[.*?\]);", script)
    return json.loads(listed.group(1)) if listed else []


def hidden_ids(build: Path) -> dict[str, frozenset[str]]:
    """Bundle → the ids of the pages the search box hides in it (a base's pages a delta holds
    anew, or that are gone), as the merging module lists them."""
    module = build / "pagefind" / "merged" / "pagefind.js"
    if not module.is_file():  # one bundle, nothing hidden
        return {}
    listed = re.search(r"const HIDDEN = (\[.*?\])\.map", module.read_text("utf-8"))
    ids = json.loads(listed.group(1)) if listed else []
    return {bundle: frozenset(gone) for bundle, gone in zip(search_bundles(build), ids, strict=True)}


def found_records(build: Path) -> list[dict]:
    """The record of every page the site's search finds, from every bundle, one per time found."""
    hidden = hidden_ids(build)
    return [
        record
        for bundle in search_bundles(build)
        for record in _records(build / bundle.strip("/"), hidden.get(bundle, frozenset()))
    ]


def site_by_hash(folder: Path) -> dict[str, str]:
    """:func:`files_by_hash` of a built site, with its search index as what a reader finds: a
    hash of each found page's record, by URL, in place of the index's files (a rebuild's index
    is the last fold's bundles and a delta, a clean build's is its shards joined)."""
    files = {path: sha for path, sha in files_by_hash(folder).items() if not path.startswith("pagefind/")}
    for record in found_records(folder):
        files["found " + record["url"]] = hashlib.sha256(
            json.dumps(record, sort_keys=True).encode()
        ).hexdigest()
    return files
