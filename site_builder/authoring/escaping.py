"""Escaping and tag building: the only place that spells HTML entities.

The spellings are part of the contract that downstream importers read:
``& < > " '`` become ``&amp; &lt; &gt; &quot; &#039;``. markupsafe's own
``escape`` spells quotes differently (``&#34;``), so it is not used for text.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

from markupsafe import Markup

NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
"""Characters no XML 1.0 document can contain, escaped or not (feeds and sitemaps)."""


def forbidden_character(text: str) -> str | None:
    """Describe the first character XML 1.0 cannot carry, or None."""
    match = NOT_XML.search(text)
    if match is None:
        return None
    return f"U+{ord(match.group()):04X} at character {match.start() + 1}, which XML 1.0 forbids"


_ENTITIES = (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ('"', "&quot;"), ("'", "&#039;"))


def escape_text(text: str) -> str:
    """Return ``text`` with the five HTML-special characters spelled as entities."""
    # str() first: Markup.replace would escape its arguments and double-escape.
    text = str(text)
    for char, entity in _ENTITIES:
        text = text.replace(char, entity)
    return text


def escape(value: str) -> Markup:
    """Escape ``value`` unless it is already trusted :class:`Markup`."""
    if isinstance(value, Markup):
        return value
    return Markup(escape_text(value))


def attr(name: str, value: str) -> str:
    """Render `` name="value"`` with the value escaped and double-quoted."""
    return f' {name}="{escape_text(value)}"'


def element(tag: str, inner: str, attrs: str = "") -> Markup:
    """Wrap already-safe ``inner`` HTML in ``<tag attrs>…</tag>``."""
    return Markup(f"<{tag}{attrs}>{inner}</{tag}>")


class _UrlCollector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in _URL_ATTRS and value is not None:
                self.urls.append(value)


_URL_ATTRS = frozenset({"href", "src", "action", "formaction", "poster", "data"})


def urls_in_html(html: str) -> tuple[str, ...]:
    """Return every URL-valued attribute in hand-written HTML, in order."""
    collector = _UrlCollector()
    collector.feed(html)
    collector.close()
    return tuple(collector.urls)
