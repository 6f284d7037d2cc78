"""Checks of the rendered site, before anything is written.

Every internal link, ``src`` and ``#fragment`` of every page must resolve to a
file or an id in the output; every ``img`` has alt text; every link that opens
a new tab carries ``rel="noopener noreferrer"``. Whole-page trees are kept off
this path: one pass of regular expressions per page.
"""

from __future__ import annotations

import bisect
import hashlib
import html
import posixpath
import re
from collections.abc import Iterable, Mapping, Set
from dataclasses import dataclass, field
from urllib.parse import unquote, urlsplit

from site_builder.errors import Problem

_URL_ATTRS = {"a": "href", "link": "href", "img": "src", "script": "src", "source": "src", "iframe": "src"}


@dataclass(slots=True)
class Scan:
    """What the check needs of one page: found once, kept with its batch."""

    ids: set[str] = field(default_factory=set)
    links: list[tuple[int, str, str]] = field(default_factory=list)
    """(line, tag, url) of every URL-valued attribute."""
    faults: list[tuple[int, str, str]] = field(default_factory=list)
    """(line, rule, message) found while parsing."""

    def __reduce__(
        self,
    ) -> tuple[type[Scan], tuple[set[str], list[tuple[int, str, str]], list[tuple[int, str, str]]]]:
        # The cache holds one per page: rebuilt from a tuple, not a state dict.
        return (Scan, (self.ids, self.links, self.faults))


# One pass of regular expressions per page: html.parser took most of a build's
# checking time. Comments, scripts and styles are blanked first (newlines kept, so
# line numbers stay true) so that text inside them is never taken for a tag.
_OPAQUE = re.compile(r"<!--.*?-->|<(script|style)\b[^>]*>.*?</\1\s*>", re.DOTALL | re.IGNORECASE)
_TAG = re.compile(
    r"<([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s/>=\"']+(?:\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s\"'=<>`]+))?)*)\s*/?>"
)
_NEWLINE = re.compile("\n")
_ATTR = re.compile(r"([^\s/>=\"']+)(?:\s*=\s*(\"[^\"]*\"|'[^']*'|[^\s\"'=<>`]+))?")


def _blank(match: re.Match[str]) -> str:
    return re.sub(r"[^\n]", " ", match.group(0))


def _attributes(text: str) -> dict[str, str]:
    values: dict[str, str] = {}
    for match in _ATTR.finditer(text):
        raw = match.group(2) or ""
        if raw[:1] in ("'", '"'):
            raw = raw[1:-1]
        values.setdefault(match.group(1).lower(), html.unescape(raw))
    return values


def scan_page(page_html: str) -> Scan:
    """Ids, URL-valued attributes and local faults of one page."""
    page = Scan()
    text = _OPAQUE.sub(_blank, page_html)
    newlines = [m.start() for m in _NEWLINE.finditer(text)]
    for match in _TAG.finditer(text):
        tag, attrs = match.group(1).lower(), match.group(2)
        # Most tags are highlighting spans: only links, media and ids matter here.
        if tag not in _URL_ATTRS and "id" not in attrs and "name" not in attrs:
            continue
        line = bisect.bisect_left(newlines, match.start()) + 1
        _tag(page, tag, _attributes(attrs), line)
    return page


def _tag(page: Scan, tag: str, values: dict[str, str], line: int) -> None:
    if "id" in values:
        page.ids.add(values["id"])
    if tag == "a" and "name" in values:
        page.ids.add(values["name"])
    url_attr = _URL_ATTRS.get(tag)
    if url_attr and url_attr in values:
        page.links.append((line, tag, values[url_attr]))
    if tag == "img" and not values.get("alt", "").strip():
        page.faults.append((line, "page-img-alt", f"<img src={values.get('src', '')!r}> has no alt text"))
    if tag == "a" and values.get("target") == "_blank":
        rel = set(values.get("rel", "").split())
        if not {"noopener", "noreferrer"} <= rel:
            href = values.get("href", "")
            message = f'link to {href!r} opens a new tab without rel="noopener noreferrer"'
            page.faults.append((line, "page-rel", message))


def check_pages(pages: Mapping[str, str], files: Set[str], output_name: str) -> list[Problem]:
    """Problems of the rendered ``pages`` (output path → HTML) against all output ``files``."""
    return check_scanned({path: scan_page(text) for path, text in pages.items()}, files, output_name)


def check_scanned(
    scanned: Mapping[str, Scan], files: Set[str], output_name: str, only: Iterable[str] | None = None
) -> list[Problem]:
    """Problems of already scanned pages (output path → scan) against all output ``files``;
    of the pages ``only`` when given (the others are read only as link targets)."""
    problems = []
    verdicts: dict[tuple[str, str], str | None] = {}  # pages of one folder share most links
    for path in scanned if only is None else sorted(only):
        page = scanned[path]
        where = f"{output_name}/{path}"
        for line, rule, message in page.faults:
            problems.append(Problem(path=where, line=line, subject="page", rule=rule, message=message))
        folder = posixpath.dirname("/" + path)
        for line, _tag, url in page.links:
            if url.startswith(_EXTERNAL):
                continue  # the article validation already judged its scheme
            # A root-relative URL means the same on every page; a fragment only on its own.
            known = (
                (path, url) if url.startswith("#") else ("", url) if url.startswith("/") else (folder, url)
            )
            if known not in verdicts:
                verdicts[known] = _broken(path, url, files, scanned)
            broken = verdicts[known]
            if broken:
                problems.append(
                    Problem(path=where, line=line, subject="page", rule="page-link", message=broken)
                )
    return problems


_EXTERNAL = ("https://", "http://", "mailto:")


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
) -> Links:
    """The :class:`Links` of a passing check of the pages ``checked`` (None: all) after ``last``."""
    fresh = set(scanned if checked is None else checked)
    fragments: dict[str, set[str]] = {}
    if last is not None and checked is not None:  # what the pages not looked at again still link to
        for target, sources in last.fragments.items():
            if kept := sources - fresh:
                fragments[target] = set(kept)
    for path in fresh:
        for target in _fragment_targets(path, scanned[path], files):
            fragments.setdefault(target, set()).add(path)
    return Links(site, context, dict(pages), {target: frozenset(s) for target, s in fragments.items()})


def _fragment_targets(page: str, scan: Scan, files: Set[str]) -> set[str]:
    """The other pages whose ids ``page`` links to."""
    found = set()
    for _line, _tag, url in scan.links:
        if url.startswith(("#", *_EXTERNAL)) or "#" not in url:
            continue
        parts = urlsplit(url)
        if parts.scheme or parts.netloc or not parts.fragment:
            continue
        path = unquote(parts.path) if parts.path else "/" + page
        normal = posixpath.normpath(posixpath.join(posixpath.dirname("/" + page), path))
        if (target := _file_for(normal, path, files)) is not None and target != page:
            found.add(target)
    return found


def _broken(page: str, url: str, files: Set[str], scanned: Mapping[str, Scan]) -> str | None:
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
