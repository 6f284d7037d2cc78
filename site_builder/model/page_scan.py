"""What one rendered page holds for the link check: its ids, every URL-valued attribute with
its line, and the faults of single tags (an ``<img>`` without alt text, a new tab without
``rel="noopener noreferrer"``): found once, in one pass of regular expressions, and kept with
its batch.
"""

from __future__ import annotations

import bisect
import html
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

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
