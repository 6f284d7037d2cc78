"""The ids an article page will have, known before it is rendered.

One implementation for both sides: the renderer gives every plain ``<h2>`` the id
:func:`heading_anchors` names, and validation checks ``#fragment`` links against
the same ids. Ids keep the heading's own script, so a Russian or Korean heading
gets a readable id (``#почему-ключ-один``), made unique on the page with ``-2``,
``-3``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from site_builder.authoring.body import body_text
from site_builder.model.layout import readable_slug
from site_builder.model.page_scan import ids_of

RESERVED_IDS = frozenset(
    {"main", "search", "toc-heading", "verified-heading", "fixtures", "history", "history-heading"}
)
"""Ids the package's article page writes itself (``base.html``, ``article.html``):
headings never take them, and a ``#fragment`` link may name them. A template that
gains an id adds it here."""
HISTORY_IDS = frozenset({"history", "history-heading"})
"""Of those, the ids only the page of an article with more than one revision has (its history)."""

H2 = re.compile(r"<h2>(.*?)</h2>", re.DOTALL)
"""A plain ``<h2>``, the kind that gets an id; one written with attributes keeps its own."""


def fixture_anchors(fixtures: Sequence[str]) -> dict[str, str]:
    """The id of each fixture's entry in the article's list of fixtures, by fixture id
    (``MODULE:FUNCTION``): ``fixture-FUNCTION``, or ``fixture-MODULE-FUNCTION`` when two
    fixtures of the page share a name. Headings never take them."""
    unique = list(dict.fromkeys(fixtures))
    names = Counter(fid.partition(":")[2] for fid in unique)
    anchors = {}
    for fid in unique:
        module, _, name = fid.partition(":")
        anchors[fid] = f"fixture-{name}" if names[name] == 1 else f"fixture-{module}-{name}"
    return anchors


def heading_anchors(html: str, reserved: frozenset[str] = RESERVED_IDS) -> list[tuple[str, str]]:
    """The id and the visible text of every plain ``<h2>`` of ``html``, in order."""
    used = set(reserved)
    anchors = []
    for match in H2.finditer(html):
        text = body_text(match.group(1))
        base = readable_slug(text, "section")
        anchor, n = base, 1
        while anchor in used:
            n += 1
            anchor = f"{base}-{n}"
        used.add(anchor)
        anchors.append((anchor, text))
    return anchors


def content_ids(content_html: str, fixtures: Sequence[str] = ()) -> tuple[str, ...]:
    """The ids an article's content gives its page: its headings', those written in it and
    the entries of its list of ``fixtures`` (the ids its ``verified_output`` blocks use)."""
    entries = fixture_anchors(fixtures)
    headings = heading_anchors(content_html, RESERVED_IDS | set(entries.values()))
    return tuple(sorted({a for a, _ in headings} | ids_of(content_html) | set(entries.values())))
