"""Charts drawn from a fixture's data: a Vega-Lite specification and the rows the fixture
returned, drawn as SVG by vl-convert (Vega in an embedded JavaScript engine, no browser),
with the rows as a table beside the drawing so that a screen reader has the numbers.

The helper's block holds the figure and its caption only (``contentHtml``, the contract, does
not depend on a fixture's run); the page gets the drawing and the table where the figure
opens (:data:`SLOT`), as it gets the marks after verified outputs.
"""

from __future__ import annotations

import functools
import importlib.metadata
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html.parser import HTMLParser

from site_builder.authoring.escaping import attr, escape_text
from site_builder.runtime.pickled import quick_state

RENDERER = "vl-convert-python"
"""The distribution that draws charts: an extra of site_builder's (``site-builder[charts]``)."""
SLOT = '<figure class="chart">'
"""How a chart's block opens: its drawing goes right after."""
_UNSAFE_TAGS = frozenset({"a", "script", "foreignobject", "image", "use", "iframe"})
"""Elements a drawing must not hold: a link (Vega-Lite's ``href`` channel makes them, and a page
shows no link its author did not write as one), a script, or something loaded from an address
(its ``image`` mark: a reader's browser would fetch what the rows name)."""


class ChartError(Exception):
    """Why a chart cannot be drawn, in words for its author."""


@quick_state
@dataclass(frozen=True, slots=True)
class Drawn:
    """A chart of a revision, drawn: what its page shows at ``at`` in ``contentHtml``."""

    at: int
    """Offset in ``contentHtml`` right after the chart's :data:`SLOT`."""
    html: str
    """The drawing and the table of its rows."""


@functools.cache
def renderer_version() -> str:
    """The installed renderer's version (part of every batch's cache key), or ``absent``."""
    try:
        return importlib.metadata.version(RENDERER)
    except importlib.metadata.PackageNotFoundError:
        return "absent"


def rows_of(output: object, key: str) -> list[dict[str, object]]:
    """The rows a fixture returned under ``key``: a non-empty list of objects whose values are
    strings, numbers, booleans or null. Raises ChartError saying what is wrong."""
    rows = output.get(key) if isinstance(output, dict) else None
    if rows is None:
        raise ChartError(f"the fixture returns no {key!r}: a chart draws the list of rows it holds")
    if not isinstance(rows, list) or not rows:
        raise ChartError(f"{key!r} must be a non-empty list of rows (objects), not {_shown(rows)}")
    for number, row in enumerate(rows):
        if not isinstance(row, dict):
            raise ChartError(f"{key}[{number}] must be an object (a row), not {_shown(row)}")
        for name, value in row.items():
            if isinstance(value, list | dict):
                raise ChartError(f"{key}[{number}].{name} must be a string, a number, true, false or null")
    return rows


def drawing(spec: Mapping[str, object], rows: Sequence[Mapping[str, object]], alt: str, caption: str) -> str:
    """The chart's HTML: the SVG in an element named by ``alt``, then the rows as a table named
    by ``caption`` (the figure's, rendered: hidden but from screen readers, who meet the table
    apart from the figure's caption).
    Raises ChartError when the renderer is missing, the specification does not render, or
    the drawing holds a link or a script."""
    try:
        import vl_convert
    except ImportError:
        raise ChartError(f"drawing a chart needs {RENDERER}: pip install 'site-builder[charts]'") from None
    full = {**spec, "data": {"values": list(rows)}}
    try:
        svg = str(vl_convert.vegalite_to_svg(full))
    except ValueError as exc:  # the renderer's own words: its second line names the fault
        said = [line.strip() for line in str(exc).splitlines() if line.strip()]
        raise ChartError(
            f"the specification does not render: {said[1] if len(said) > 1 else said[0]}"
        ) from None
    if unsafe := _unsafe(svg):
        raise ChartError(
            f"the drawing holds {unsafe} (an href, url or image encoding?), which a chart may not"
        )
    # The element around the drawing is the image, named by ``alt``; the renderer's own roles and
    # labels inside it (one per mark, and unnamed symbols for a rule or a region) would be a second,
    # partial reading of the same picture, so the SVG is hidden from assistive technology.
    hidden = svg.replace("<svg", '<svg aria-hidden="true"', 1)
    named = f'<div class="chart-drawing" role="img"{attr("aria-label", alt)}>{hidden}</div>'
    return named + _table(rows, caption)


class _Markup(HTMLParser):
    """The first element or attribute of a drawing that loads, links or runs something."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = [name for name, _ in attrs if name.startswith("on") or name in ("href", "xlink:href", "src")]
        if not self.found and (tag in _UNSAFE_TAGS or names):
            self.found = f"<{tag}>" if tag in _UNSAFE_TAGS else f"a {names[0]} attribute"


def _unsafe(svg: str) -> str:
    """What in ``svg`` a chart may not hold; empty when nothing is."""
    reader = _Markup()
    reader.feed(svg)
    reader.close()
    return reader.found


def _table(rows: Sequence[Mapping[str, object]], caption: str) -> str:
    """The rows as a table: a column per field, in the order the rows first name them."""
    columns = list(dict.fromkeys(name for row in rows for name in row))
    head = "".join(f'<th scope="col">{escape_text(name)}</th>' for name in columns)
    body = "".join(
        "<tr>" + "".join(f"<td>{escape_text(_cell(row.get(name)))}</td>" for name in columns) + "</tr>"
        for row in rows
    )
    table = f"<table><caption>{caption}</caption><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
    return f'<div class="table-scroll">{table}</div>'


def _cell(value: object) -> str:
    return value if isinstance(value, str) else "" if value is None else json.dumps(value)


def _shown(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False, default=repr)
    return text if len(text) <= 60 else text[:57] + "…"


def with_drawings(content: str, drawn: Sequence[Drawn]) -> str:
    """``content`` (a revision's ``contentHtml``) with each drawing in its place."""
    pieces: list[str] = []
    start = 0
    for chart in drawn:
        pieces += [content[start : chart.at], chart.html]
        start = chart.at
    pieces.append(content[start:])
    return "".join(pieces)


def moved(offset: int, drawn: Sequence[Drawn]) -> int:
    """Where ``offset`` of ``contentHtml`` is once the drawings are in."""
    return offset + sum(len(chart.html) for chart in drawn if chart.at <= offset)
