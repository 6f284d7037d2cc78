"""A search bundle's files on disk: their names, the hashes file written beside a bundle a build
made, and whether the cache holds a bundle whole and unaltered."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path


def bundle_files(folder: Path) -> list[str]:
    """A bundle's files, the first bundle's included (not the other bundles inside it)."""
    names = []
    for path in sorted(folder.rglob("*")):
        name = path.relative_to(folder).as_posix()
        if path.is_file():
            names.append(name)
    return names


def write_hashes(file: Path, folder: Path, names: list[str]) -> None:
    """Write the hash of each of the bundle's files (``names`` in ``folder``) into ``file``, which
    :func:`intact` checks against."""
    hashes = {name: _file_hash(folder / name) for name in names}
    file.write_text(json.dumps(hashes, sort_keys=True), "utf-8")


def intact(store: Path, key: str) -> bool:
    """Whether the store holds the bundle of ``key`` whole and unaltered."""
    try:
        hashes = json.loads((store / f"{key}.hashes").read_text("utf-8"))
        folder = store / key
        return (
            isinstance(hashes, dict)
            and bool(hashes)
            and all(_file_hash(folder / name) == sha for name, sha in hashes.items())
            and set(bundle_files(folder)) == set(hashes)
        )
    except (OSError, ValueError):
        return False


def _file_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()
