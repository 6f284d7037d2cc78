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

import bisect
import html
import posixpath
import re
from collections.abc import Callable, Iterable, Mapping, Set
from dataclasses import dataclass, field
from urllib.parse import unquote, urlsplit

from site_builder.check.site_layout import site_relative
from site_builder.errors import Problem

URL_ATTRS = {"a": "href", "link": "href", "img": "src", "script": "src", "source": "src", "iframe": "src"}
"""The URL-valued attribute of each tag the check follows."""


@dataclass(slots=True)
class Scan:
    """What the check needs of one page: found once, kept with its batch."""

    ids: set[str] = field(default_factory=set)
    links: list[tuple[int, str, str]] = field(default_factory=list)
    """(line, tag, url) of every URL-valued attribute."""
    faults: list[tuple[int, str, str, str]] = field(default_factory=list)
    """(line, rule, message, the tag's URL) found while parsing."""

    def __reduce__(
        self,
    ) -> tuple[type[Scan], tuple[set[str], list[tuple[int, str, str]], list[tuple[int, str, str, str]]]]:
        # The cache holds one per page: rebuilt from a tuple, not a state dict.
        return (Scan, (self.ids, self.links, self.faults))


# One pass of regular expressions per page: html.parser took most of a build's
# checking time. Comments, scripts and styles are blanked first (newlines kept, so
# line numbers stay true) so that text inside them is never taken for a tag.
OPAQUE = re.compile(r"<!--.*?-->|<(script|style)\b[^>]*>.*?</\1\s*>", re.DOTALL | re.IGNORECASE)
TAG = re.compile(
    r"<([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s/>=\"']+(?:\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s\"'=<>`]+))?)*)\s*/?>"
)
_NEWLINE = re.compile("\n")
_ATTR = re.compile(r"([^\s/>=\"']+)(?:\s*=\s*(\"[^\"]*\"|'[^']*'|[^\s\"'=<>`]+))?")


def blank(match: re.Match[str]) -> str:
    """The matched text as spaces, its newlines kept (so line numbers stay true)."""
    return re.sub(r"[^\n]", " ", match.group(0))


def attributes(text: str) -> dict[str, str]:
    """The attributes of a tag's text, names lower-cased, values unquoted and decoded."""
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
    text = OPAQUE.sub(blank, page_html)
    newlines = [m.start() for m in _NEWLINE.finditer(text)]
    for match in TAG.finditer(text):
        tag, attrs = match.group(1).lower(), match.group(2)
        # Most tags are highlighting spans: only links, media and ids matter here.
        if tag not in URL_ATTRS and "id" not in attrs and "name" not in attrs:
            continue
        line = bisect.bisect_left(newlines, match.start()) + 1
        _tag(page, tag, attributes(attrs), line)
    return page


def ids_of(html_text: str) -> set[str]:
    """The ids a piece of HTML gives its page, found as :func:`scan_page` finds them (element
    ids and the names of ``<a>``), without the rest of a scan."""
    found = Scan()
    if not _may_have_ids(html_text):
        return found.ids
    for match in TAG.finditer(OPAQUE.sub(blank, html_text)):
        tag, attrs = match.group(1).lower(), match.group(2)
        if "id" in attrs or (tag == "a" and "name" in attrs):
            values = attributes(attrs)
            found.ids.update(v for k, v in values.items() if k == "id" or (tag == "a" and k == "name"))
    return found.ids


def _may_have_ids(text: str) -> bool:
    """Whether ``id`` or ``name`` is ever followed by ``=`` (spaces between allowed): most
    article bodies have no id at all, and a scan of their tags is their largest cost here."""
    for word in ("id", "name"):
        at = text.find(word)
        while at != -1:
            if text[at + len(word) : at + len(word) + 40].lstrip().startswith("="):
                return True
            at = text.find(word, at + len(word))
    return False


def _tag(page: Scan, tag: str, values: dict[str, str], line: int) -> None:
    if "id" in values:
        page.ids.add(values["id"])
    if tag == "a" and "name" in values:
        page.ids.add(values["name"])
    url_attr = URL_ATTRS.get(tag)
    if url_attr and url_attr in values:
        page.links.append((line, tag, values[url_attr]))
    page.faults.extend((line, *fault) for fault in tag_faults(tag, values))


def tag_faults(tag: str, values: Mapping[str, str]) -> list[tuple[str, str, str]]:
    """(rule, message, the tag's URL) of what is wrong with one tag on its own."""
    if tag == "img" and not values.get("alt", "").strip():
        src = values.get("src", "")
        return [("page-img-alt", f"<img src={src!r}> has no alt text", src)]
    if tag == "a" and values.get("target") == "_blank":
        rel = set(values.get("rel", "").split())
        if not {"noopener", "noreferrer"} <= rel:
            href = values.get("href", "")
            return [("page-rel", f'link to {href!r} opens a new tab without rel="noopener noreferrer"', href)]
    return []


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
