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


def indexed_pages(bundle: Path) -> dict[str, dict]:
    """The pages a Pagefind bundle indexed: URL → the record Pagefind keeps of it."""
    found = {}
    for path in sorted((bundle / "fragment").glob("*.pf_fragment")):
        data = gzip.decompress(path.read_bytes())
        text = data[len(_PAGEFIND_SIGNATURE) :] if data.startswith(_PAGEFIND_SIGNATURE) else data
        record = json.loads(text)
        found[record["url"]] = record
    return found
