"""A revision's ``contentHtml``, its body text and its reading time.

These are the numbers and bytes downstream importers read, so they follow the
contract literally: body parts joined by ``"\\n"``, then the sources section.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from functools import lru_cache

from markupsafe import Markup

from site_builder.authoring.escaping import attr, escape_text
from site_builder.authoring.model import Revision, Source

_TAG = re.compile(r"<[^>]*>")
_WIDE = re.compile(
    "[\u1100-\u11ff\u3040-\u30ff\u3130-\u318f\u3400-\u4dbf\u4e00-\u9fff"
    "\ua960-\ua97f\uac00-\ud7af\ud7b0-\ud7ff\uf900-\ufaff\U00020000-\U0003134f]"
)


def body_html(revision: Revision) -> str:
    """The body parts joined by newlines, without the sources section."""
    return "\n".join(revision.body)


def placed(revision: Revision) -> Iterator[tuple[int, Markup]]:
    """Each part of the body with the offset where it starts in :func:`body_html` (and so in
    ``contentHtml``, which begins with it)."""
    start = 0
    for part in revision.body:
        yield start, part
        start += len(part) + 1  # the "\n" between the body's parts


_SPACE_BEFORE_DASH = {"ru": "\u00a0"}
"""The space before the dash between a source's title and its note, by language: Russian
typography keeps a dash on the line of the word before it, so a non-breaking space; an
ordinary space in every other language, as the contract writes it."""


def sources_html(revision: Revision, label: str, lang: str) -> str:
    """``<h2>LABEL</h2>`` and the list of sources, joined by a newline; ``lang`` is the
    revision's language (its own, or the site's)."""
    space = _SPACE_BEFORE_DASH.get(lang.split("-")[0].lower(), " ")
    items = "".join(
        f'<li><a{attr("href", s.url)} target="_blank" rel="noopener noreferrer">'
        f"{escape_text(s.title)}</a>{space}— {escape_text(s.note)}{_quoted(s)}</li>"
        for s in revision.sources
    )
    return f"<h2>{escape_text(label)}</h2>\n<ul>{items}</ul>"


def _quoted(source: Source) -> str:
    """The source's quote as a quotation under it, citing its address; nothing without one."""
    if not source.quote:
        return ""
    return f"<blockquote{attr('cite', source.url)}>{escape_text(source.quote)}</blockquote>"


def content_html(revision: Revision, label: str, lang: str) -> str:
    """The article's HTML as importers read it: body, newline, sources section."""
    return body_html(revision) + "\n" + sources_html(revision, label, lang)


@lru_cache(maxsize=16)  # a revision's body is measured for validation and for its JSON
def body_text(markup: str) -> str:
    """Visible text: tags become spaces, entities are decoded, spaces collapse."""
    # str.split() splits at exactly what ``\s`` matches, and faster than a regular expression.
    return " ".join(html.unescape(_TAG.sub(" ", markup)).split())


def reading_minutes(text: str) -> int:
    """Words at 200 a minute, Hangul and CJK characters at 500; at least 1."""
    wide = len(_WIDE.findall(text))
    words = len(_WIDE.sub(" ", text).split())
    # Integer arithmetic: words/200 + wide/500 == (5*words + 2*wide) / 1000.
    return max(1, -(-(5 * words + 2 * wide) // 1000))
