"""What the documentation's fixtures use to read back the HTML a helper returned.

A fixture that shows a helper's markup also checks it: it parses the HTML with the
standard library's parser and compares what a browser would display, and which
elements it would build, with what the author typed. Nothing here is shown to readers.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser


class _Reader(HTMLParser):
    """Collects the elements and the displayed text of a piece of HTML."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.attrs: list[dict[str, str | None]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attrs.append(dict(attrs))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def _read(html: str) -> _Reader:
    reader = _Reader()
    reader.feed(html)
    reader.close()
    return reader


def text_of(html: str) -> str:
    """The text a browser displays for ``html``: entities decoded, tags gone."""
    return "".join(_read(html).text)


def tags_of(html: str) -> list[str]:
    """The elements ``html`` opens, in document order."""
    return _read(html).tags


def attrs_of(html: str, tag: str) -> dict[str, str | None]:
    """The attributes of the first ``tag`` element, decoded as a browser reads them."""
    reader = _read(html)
    return next((a for t, a in zip(reader.tags, reader.attrs, strict=True) if t == tag), {})


def lines_by_fixture(lines: list[str]) -> dict[str, str]:
    """Problem lines of failing fixtures, keyed by the fixture's function name."""
    found = {}
    for line in lines:
        match = re.search(r": fixture [^:]+:(\w+): ", line)
        if match:
            found[match.group(1)] = line
    return found
