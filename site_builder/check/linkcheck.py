"""Checks of the rendered site, before anything is written.

Every internal link, ``src`` and ``#fragment`` of every page must resolve to a
file or an id in the output; every ``img`` has alt text; every link that opens
a new tab carries ``rel="noopener noreferrer"``. Whole-page trees are kept off
this path: one pass of regular expressions per page. What the articles say was
judged before (at the author's lines), so a fault found here was made by a
template: it is reported where the template wrote it (``locate``), never at a
line of a page in the output folder.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Iterable, Mapping, Set
from urllib.parse import unquote, urlsplit

from site_builder.errors import Problem
from site_builder.model.layout import site_relative
from site_builder.model.page_scan import Scan

Locate = Callable[[str, str, str, str], tuple[str, int, str]]
"""(output path, rule, tag, URL) → the file and line that wrote the faulty tag, and the
problem's subject (``template``)."""


def check_scanned(
    scanned: Mapping[str, Scan],
    files: Set[str],
    locate: Locate,
    only: Iterable[str] | None = None,
    *,
    base_path: str = "/",
) -> list[Problem]:
    """Problems of already scanned pages (output path → scan) against all output ``files``;
    of the pages ``only`` when given (the others are read only as link targets), each where
    ``locate`` finds it written, once however many pages show it. The site is served below
    ``base_path``: a root-relative link outside it is a problem."""
    problems: dict[Problem, None] = {}
    verdicts: dict[tuple[str, str], str | None] = {}  # pages of one folder share most links

    def found(path: str, rule: str, tag: str, url: str, message: str) -> None:
        file, line, subject = locate(path, rule, tag, url)
        problems[Problem(path=file, line=line, subject=subject, rule=rule, message=message)] = None

    for path in scanned if only is None else sorted(only):
        page = scanned[path]
        for _line, rule, message, url in page.faults:
            found(path, rule, "img" if rule == "page-img-alt" else "a", url, message)
        folder = posixpath.dirname("/" + path)
        for _line, tag, url in page.links:
            if url.startswith(EXTERNAL):
                continue  # the article validation already judged its scheme
            known = _verdict_key(path, folder, url)
            if known not in verdicts:
                verdicts[known] = _broken(path, url, files, scanned, base_path)
            broken = verdicts[known]
            if broken:
                found(path, "page-link", tag, url, broken)
    return list(problems)


def _verdict_key(path: str, folder: str, url: str) -> tuple[str, str]:
    """The pages that share a link's verdict: a root-relative URL means the same on every
    page, a fragment only on its own, any other relative URL on every page of its folder."""
    if url.startswith("#"):
        return path, url
    if url.startswith("/"):
        return "", url
    return folder, url


def in_output(output_name: str, scanned: Mapping[str, Scan]) -> Locate:
    """A ``locate`` for pages that no template made (tests of the check itself): the
    page's own line, below ``output_name``."""

    def locate(path: str, rule: str, tag: str, url: str) -> tuple[str, int, str]:
        page = scanned[path]
        lines = [line for line, r, _, u in page.faults if (r, u) == (rule, url)]
        lines += [line for line, t, u in page.links if (t, u) == (tag, url)]
        return f"{output_name}/{path}", min(lines, default=1), "page"

    return locate


EXTERNAL = ("https://", "http://", "mailto:")


def _broken(page: str, url: str, files: Set[str], scanned: Mapping[str, Scan], base_path: str) -> str | None:
    parts = urlsplit(url)
    if parts.scheme or parts.netloc:
        return None  # external: the article validation already judged its scheme
    found = link_path(page, parts.path, base_path)
    if found is None:
        return f"{url!r} is outside the site's path {base_path!r}: it would be dead once deployed"
    target = file_for(*found, files)
    if target is None:
        return f"{url!r} points to no file of the site"
    if parts.fragment and target in scanned and unquote(parts.fragment) not in scanned[target].ids:
        return f"{url!r}: no element with id {unquote(parts.fragment)!r} on {target}"
    return None


def link_path(page: str, url_path: str, base_path: str) -> tuple[str, str] | None:
    """Where the path of a link on ``page`` (an output path) leads: site-relative and
    normalised, and as resolved (its trailing ``/`` kept), decoded; None when it leaves
    the site's ``base_path``."""
    # Resolved where the browser resolves it, on the page as served below the base path.
    served = unquote(base_path) + page
    path = posixpath.join(posixpath.dirname(served), unquote(url_path)) if url_path else served
    normal = site_relative(base_path, posixpath.normpath(path))
    return None if normal is None else (normal, path)


def file_for(normal: str, raw: str, files: Set[str]) -> str | None:
    relative = normal.lstrip("/")
    folder = f"{relative}/index.html".lstrip("/")
    candidates = [folder] if raw.endswith("/") else [relative, folder]
    return next((c for c in candidates if c in files), None)
