"""Heading ids and the table of contents of an article page.

The ids come from :func:`site_builder.model.page_ids.heading_anchors`, the one
implementation validation also checks ``#fragment`` links against. Only the page
gets them; ``contentHtml`` stays as the helpers made it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from site_builder.model.page_ids import H2, RESERVED_IDS, heading_anchors


@dataclass(frozen=True, slots=True)
class TocEntry:
    """One h2 of the article."""

    anchor: str
    """The id given to the heading."""
    text: str
    """The heading's visible text."""


def add_heading_ids(html: str, reserved: frozenset[str] = RESERVED_IDS) -> tuple[str, tuple[TocEntry, ...]]:
    """Give every plain ``<h2>`` an id; return the new HTML and the contents."""
    entries = tuple(TocEntry(anchor, text) for anchor, text in heading_anchors(html, reserved))
    anchors = iter(entries)

    def replace(match: re.Match[str]) -> str:
        return f'<h2 id="{next(anchors).anchor}">{match.group(1)}</h2>'

    return H2.sub(replace, html), entries
