"""Scrolling regions of an article page that a keyboard can reach.

A code block or a wide table scrolls sideways; without a tab stop, a reader
without a mouse cannot scroll it (axe: ``scrollable-region-focusable``). The
page gets ``tabindex="0"`` on them, and each table wrapper a region name from
its caption. ``contentHtml`` keeps the helpers' markup; only the page changes.
"""

from __future__ import annotations

import re

from site_builder.authoring.body import body_text
from site_builder.authoring.escaping import attr

_PRE = re.compile(r"<pre>")
_TABLE = re.compile(r'<div class="table-scroll"><table><caption>(.*?)</caption>', re.DOTALL)


def focusable_regions(html: str) -> str:
    """Add tab stops to plain code blocks and named regions to table wrappers."""
    html = _PRE.sub('<pre tabindex="0">', html)
    return _TABLE.sub(_table, html)


def _table(match: re.Match[str]) -> str:
    caption = match.group(1)
    region = f'class="table-scroll" tabindex="0" role="region"{attr("aria-label", body_text(caption))}'
    return f"<div {region}><table><caption>{caption}</caption>"
