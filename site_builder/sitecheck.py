"""Checks of the rendered site, before anything is written.

Every internal link, ``src`` and ``#fragment`` of every page must resolve to a
file or an id in the output; every ``img`` has alt text; every link that opens
a new tab carries ``rel="noopener noreferrer"``. One streaming pass of the
standard library's parser per page: whole-page trees are kept off this path.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping, Set
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import unquote, urlsplit

from .errors import Problem

_URL_ATTRS = {"a": "href", "link": "href", "img": "src", "script": "src", "source": "src", "iframe": "src"}


@dataclass(slots=True)
class _Page:
    ids: set[str] = field(default_factory=set)
    links: list[tuple[int, str, str]] = field(default_factory=list)
    """(line, tag, url) of every URL-valued attribute."""
    faults: list[tuple[int, str, str]] = field(default_factory=list)
    """(line, rule, message) found while parsing."""


class _Scanner(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.page = _Page()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        line = self.getpos()[0]
        if "id" in values:
            self.page.ids.add(values["id"])
        if tag == "a" and "name" in values:
            self.page.ids.add(values["name"])
        url_attr = _URL_ATTRS.get(tag)
        if url_attr and url_attr in values:
            self.page.links.append((line, tag, values[url_attr]))
        if tag == "img" and not values.get("alt", "").strip():
            self.page.faults.append(
                (line, "page-img-alt", f"<img src={values.get('src', '')!r}> has no alt text")
            )
        if tag == "a" and values.get("target") == "_blank":
            rel = set(values.get("rel", "").split())
            if not {"noopener", "noreferrer"} <= rel:
                href = values.get("href", "")
                self.page.faults.append(
                    (line, "page-rel", f'link to {href!r} opens a new tab without rel="noopener noreferrer"')
                )

    handle_startendtag = handle_starttag


def check_pages(pages: Mapping[str, str], files: Set[str], output_name: str) -> list[Problem]:
    """Problems of the rendered ``pages`` (output path → HTML) against all output ``files``."""
    scanned = {path: _scan(html) for path, html in pages.items()}
    problems = []
    for path, page in scanned.items():
        where = f"{output_name}/{path}"
        for line, rule, message in page.faults:
            problems.append(Problem(path=where, line=line, subject="page", rule=rule, message=message))
        for line, _tag, url in page.links:
            broken = _broken(path, url, files, scanned)
            if broken:
                problems.append(
                    Problem(path=where, line=line, subject="page", rule="page-link", message=broken)
                )
    return problems


def _scan(html: str) -> _Page:
    scanner = _Scanner()
    scanner.feed(html)
    scanner.close()
    return scanner.page


def _broken(page: str, url: str, files: Set[str], scanned: Mapping[str, _Page]) -> str | None:
    parts = urlsplit(url)
    if parts.scheme or parts.netloc:
        return None  # external: the article validation already judged its scheme
    base = "/" + page
    path = unquote(parts.path) if parts.path else base
    target = _file_for(posixpath.normpath(posixpath.join(posixpath.dirname(base), path)), path, files)
    if target is None:
        return f"{url!r} points to no file of the site"
    if parts.fragment and target in scanned and unquote(parts.fragment) not in scanned[target].ids:
        return f"{url!r}: no element with id {unquote(parts.fragment)!r} on {target}"
    return None


def _file_for(normal: str, raw: str, files: Set[str]) -> str | None:
    relative = normal.lstrip("/")
    candidates = (
        [f"{relative}/index.html".lstrip("/")] if raw.endswith("/") else [relative, f"{relative}/index.html"]
    )
    return next((c for c in candidates if c in files), None)
