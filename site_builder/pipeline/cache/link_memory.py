"""What the last passing link check knew, so the next one looks only at what may have changed.

A page's verdict depends on its own bytes, on which files exist, and on the ids of
the pages it links to with a ``#fragment``. The memory keeps, for the live site,
every checked page's hash and a reverse index of cross-page ``#fragment`` links.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Set
from dataclasses import dataclass
from urllib.parse import urlsplit

from site_builder.check.linkcheck import EXTERNAL, file_for, link_path
from site_builder.model.page_scan import Scan


@dataclass(frozen=True, slots=True)
class Links:
    """What a passing check knew, for the next one to look only at what may have changed.

    A page's verdict depends on its own bytes, on which files exist, and on the ids of
    the pages it links to with a ``#fragment``: an unchanged page in an unchanged set of
    files needs a new look only when such a target changed.
    """

    site: str
    """The build (hash of its inputs) whose check this was."""
    context: str
    """Hash of the package, templates, settings, the output's name and every file name."""
    pages: dict[str, str]
    """Every page checked → the content hash it had."""
    fragments: dict[str, frozenset[str]]
    """A page → the other pages that link into it with a ``#fragment``."""


def link_context(common: str, files: Set[str], output_name: str) -> str:
    """What every verdict depends on besides the pages themselves."""
    digest = hashlib.sha256(f"{common}\n{output_name}\n".encode())
    for name in sorted(files):
        digest.update(name.encode("utf-8", "surrogatepass") + b"\n")
    return digest.hexdigest()


def to_check(last: Links | None, context: str, pages: Mapping[str, str]) -> set[str] | None:
    """The pages (output path → content hash) a check must look at after ``last``; None: all."""
    if last is None or last.context != context or last.pages.keys() != pages.keys():
        return None
    changed = {path for path, sha in pages.items() if last.pages[path] != sha}
    return changed | {source for path in changed for source in last.fragments.get(path, ())}


def links_after(
    last: Links | None,
    checked: Iterable[str] | None,
    scanned: Mapping[str, Scan],
    files: Set[str],
    pages: Mapping[str, str],
    site: str,
    context: str,
    *,
    base_path: str = "/",
) -> Links:
    """The :class:`Links` of a passing check of the pages ``checked`` (None: all) after ``last``."""
    fresh = set(scanned if checked is None else checked)
    fragments: dict[str, set[str]] = {}
    if last is not None and checked is not None:  # what the pages not looked at again still link to
        for target, sources in last.fragments.items():
            if kept := sources - fresh:
                fragments[target] = set(kept)
    for path in fresh:
        for target in _fragment_targets(path, scanned[path], files, base_path):
            fragments.setdefault(target, set()).add(path)
    return Links(site, context, dict(pages), {target: frozenset(s) for target, s in fragments.items()})


def _fragment_targets(page: str, scan: Scan, files: Set[str], base_path: str) -> set[str]:
    """The other pages whose ids ``page`` links to."""
    found = set()
    for _line, _tag, url in scan.links:
        if url.startswith(("#", *EXTERNAL)) or "#" not in url:
            continue
        parts = urlsplit(url)
        if parts.scheme or parts.netloc or not parts.fragment:
            continue
        where = link_path(page, parts.path, base_path)
        if where is not None and (target := file_for(*where, files)) is not None and target != page:
            found.add(target)
    return found
