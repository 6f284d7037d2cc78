"""Heading ids and the table of contents of an article page.

Ids keep the heading's own script, so a Russian or Korean heading gets a
readable id (``#почему-ключ-один``), made unique on the page with ``-2``,
``-3``. Only the page gets them; ``contentHtml`` stays as the helpers made it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from site_builder.authoring.body import body_text
from site_builder.check.site_layout import readable_slug

_H2 = re.compile(r"<h2>(.*?)</h2>", re.DOTALL)


@dataclass(frozen=True, slots=True)
class TocEntry:
    """One h2 of the article."""

    anchor: str
    """The id given to the heading."""
    text: str
    """The heading's visible text."""


def add_heading_ids(html: str, reserved: frozenset[str] = frozenset()) -> tuple[str, tuple[TocEntry, ...]]:
    """Give every plain ``<h2>`` an id; return the new HTML and the contents."""
    used = set(reserved)
    entries: list[TocEntry] = []

    def replace(match: re.Match[str]) -> str:
        text = body_text(match.group(1))
        base = readable_slug(text, "section")
        anchor, n = base, 1
        while anchor in used:
            n += 1
            anchor = f"{base}-{n}"
        used.add(anchor)
        entries.append(TocEntry(anchor, text))
        return f'<h2 id="{anchor}">{match.group(1)}</h2>'

    return _H2.sub(replace, html), tuple(entries)
