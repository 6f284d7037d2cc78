"""The chart of 5 December 2026: the fourth revision of retry-spec-read-as-a-test.

Until this revision the delay chart was an SVG file that the article's code drew by hand and
that a test compared with the model: the build itself never looked at it, so a change of the
model left the published chart stale until someone ran that test. Here the build draws it, with
``chart()``, from the rows the fixture ``spec4_delay_chart`` returns, and its proof mark links to
that fixture; the table of those rows, which the page shows under the chart, takes the place of
the schedule table, which gave the same delays in milliseconds. Every other block is the third
revision's (``revised_2026_12_05_spec``), kept as written; revisions 2 and 3 keep the drawing they
published (``assets/retry_spec/delay-schedules-2026-12.svg``)."""

from __future__ import annotations

from itertools import accumulate

import retry_spec as spec_v1
from _revising import with_blocks_replaced
from revised_2026_12 import SPEC_CROSSINGS, spec_chart_data, spec_chart_text, spec_s
from revised_2026_12_05_spec import spec3_revision

from site_builder import chart, fixture, paragraph, revision, verified_output

# --- The rows the chart draws, and what the prose says it shows ---------------------

SPEC4_SCHEDULES = ("resolved", "capped", "literal")
"""The three schedules, in the order of their bars."""
SPEC4_COLOURS = ("#1a7f37", "#0969da", "#bc4c00")
"""Their colours: each at least 3:1 against the theme's light and dark backgrounds."""
SPEC4_FILLS = ("#1a7f37", "rgba(9, 105, 218, 0.3)", "transparent")
"""Their bars' fills, so that the series differ by more than colour: solid, light, none."""
SPEC4_AXIS_S = (10, 60)
"""Where each panel's axis ends, in seconds: a bar above it is cut, and its value written over it."""


def spec4_rows(data: dict[str, object]) -> list[dict[str, object]]:
    """One row per retry: each schedule's delay before it and total after it, in seconds; a
    retry the resolved plan drops has no resolved values (null)."""
    per_retry = {name: data[f"{name}Ms"] for name in SPEC4_SCHEDULES}
    totals = {name: list(accumulate(values)) for name, values in per_retry.items()}
    rows: list[dict[str, object]] = []
    for index in range(len(per_retry["literal"])):
        row: dict[str, object] = {"retry": index + 1}
        for name in SPEC4_SCHEDULES:
            row[f"{name} (s)"] = spec4_seconds(per_retry[name], index)
        for name in SPEC4_SCHEDULES:
            row[f"{name} total (s)"] = spec4_seconds(totals[name], index)
        rows.append(row)
    return rows


def spec4_seconds(values_ms: list[int], index: int) -> int | float | None:
    """``values_ms[index]`` in seconds (whole ones as integers), None past the end."""
    if index >= len(values_ms):
        return None
    seconds = values_ms[index] / 1000
    return int(seconds) if seconds.is_integer() else seconds


@fixture
def spec4_delay_chart() -> dict[str, object]:
    data = spec_chart_data()
    return {**data, "chart": spec4_rows(data)}


def spec4_panel(title: str, suffix: str, axis_s: int, limit_ms: int, limit_name: str) -> dict[str, object]:
    """One panel of bars, three per retry, for the columns ``<schedule><suffix>``: the region over
    the limit shaded, the limit dashed, a cut bar's value over it, a dropped retry marked ×."""
    columns = [f"{name}{suffix}" for name in SPEC4_SCHEDULES]
    x = {"field": "retry", "type": "ordinal", "title": "retry", "axis": {"labelAngle": 0}}
    offset = {"field": "schedule", "type": "nominal", "sort": list(SPEC4_SCHEDULES)}
    series = {"type": "nominal", "field": "schedule", "title": None}

    def scale(values: object) -> dict[str, object]:
        return {**series, "scale": {"type": "ordinal", "domain": list(SPEC4_SCHEDULES), "range": values}}

    once = [{"aggregate": [{"op": "count", "as": "rows"}]}]
    limit_s = limit_ms / 1000
    return {
        "title": {"text": title, "anchor": "start"},
        "width": 640,
        "height": 190,
        "transform": [
            {"fold": columns, "as": ["column", "seconds"]},
            {"calculate": f"replace(datum.column, '{suffix}', '')", "as": "schedule"},
        ],
        "layer": [
            {
                "transform": once,
                "mark": {"type": "rect", "fill": "#cf222e", "fillOpacity": 0.1},
                "encoding": {"y": {"datum": limit_s}, "y2": {"datum": axis_s}},
            },
            {
                "mark": {"type": "bar", "clip": True, "strokeWidth": 1.5},
                "encoding": {
                    "x": x,
                    "xOffset": offset,
                    "y": {
                        "field": "seconds",
                        "type": "quantitative",
                        "title": None,
                        "scale": {"domain": [0, axis_s]},
                    },
                    "fill": {
                        **scale(list(SPEC4_FILLS)),
                        "legend": {"orient": "top", "symbolStrokeWidth": 1.5},
                    },
                    "stroke": scale(list(SPEC4_COLOURS)),
                },
            },
            {
                "transform": once,
                "mark": {"type": "rule", "color": "#cf222e", "strokeDash": [8, 4], "strokeWidth": 2},
                "encoding": {"y": {"datum": limit_s}},
            },
            {
                "transform": once,
                "mark": {"type": "text", "align": "left", "dx": 6, "dy": -9, "fontWeight": "bold"},
                "encoding": {
                    "y": {"datum": limit_s},
                    "x": {"value": 0},
                    "text": {"value": f"{limit_name} {limit_s:g} s"},
                },
            },
            {
                "transform": [{"filter": f"datum.seconds > {axis_s}"}],
                "mark": {"type": "text", "dy": -6, "fontSize": 10, "baseline": "bottom"},
                "encoding": {
                    "x": x,
                    "xOffset": offset,
                    "y": {"datum": axis_s},
                    "text": {"field": "seconds", "type": "quantitative", "format": ","},
                },
            },
            {
                "transform": [{"filter": "datum.seconds === null"}],
                "mark": {"type": "text", "fontSize": 15, "fontWeight": "bold", "baseline": "bottom"},
                "encoding": {"x": x, "xOffset": offset, "y": {"datum": 0}, "text": {"value": "×"}},
            },
        ],
    }


SPEC4_CHART_SPEC: dict[str, object] = {
    "vconcat": [
        spec4_panel(
            "Delay before each retry (s)",
            " (s)",
            SPEC4_AXIS_S[0],
            spec_v1.CAP_NOT_ENOUGH.max_delay_ms,
            "maxDelay",
        ),
        spec4_panel(
            "Total delay after each retry (s)", " total (s)", SPEC4_AXIS_S[1], spec_v1.BUDGET_MS, "budget"
        ),
    ],
    "config": {"font": "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"},
}


def spec4_alt(data: dict[str, object]) -> str:
    """What the chart shows, in words, from the data it draws."""
    config = data["config"]
    kept, retries = data["resolvedRetries"], len(data["cappedMs"])
    cut = next(k for k, ms in enumerate(data["literalMs"], start=1) if ms > SPEC4_AXIS_S[0] * 1000)
    return (
        f"Two bar charts for initialDelay {spec_s(config['initialDelayMs'])} s, maxDelay "
        f"{spec_s(config['maxDelayMs'])} s, maxRetries {config['maxRetries']}, three bars per retry: "
        "resolved (solid green), capped (light blue, outlined) and literal doubling (orange outline). "
        f"Top, the delay before each retry: literal doubling passes the maxDelay line at retry "
        f"{data['literalOverCapAt']} and runs off the chart from retry {cut}; the capped bars reach the "
        f"line from retry {data['cappedAtMaxDelayFrom']} and never pass it; the resolved bars are the "
        f"capped ones, and retries {kept + 1} to {retries} are marked × for dropped. Bottom, the total "
        f"delay: literal doubling passes the budget line at retry {data['literalOverBudgetAt']}, the "
        f"capped schedule at retry {data['cappedOverBudgetAt']} and ends at "
        f"{spec_s(data['cappedTotalMs'])} s; the resolved one stops at {spec_s(data['resolvedTotalMs'])} s, "
        "under the line."
    )


def spec4_caption(data: dict[str, object]) -> str:
    """Revision 2's caption, and how to read the marks this drawing adds."""
    return (
        f"{spec_chart_text(data)['caption']} × marks a retry the plan drops; a bar over the axis is "
        "cut, its value written above it."
    )


SPEC4_CHART = spec_chart_data()

SPEC4_CHANGES = (
    "The delay chart is drawn by the build from the rows the `spec4_delay_chart` fixture returns, "
    "instead of being a drawing committed beside the article, so it cannot fall behind the model. "
    "The table of those rows under it replaces the schedule table: the same delays, in seconds "
    "rather than milliseconds, and each schedule's running total beside them. The bars read as "
    "before: per retry, resolved, capped and literal doubling side by side, with `maxDelay` and the "
    "budget as dashed lines."
)

spec4_revision = revision(
    slug=spec3_revision.slug,
    title=spec3_revision.title,
    categories=list(spec3_revision.categories),
    excerpt=spec3_revision.excerpt,
    cover=spec3_revision.cover,
    published=spec3_revision.published,
    revised="2026-12-05T21:00Z",
    changes=SPEC4_CHANGES,
    lang=spec3_revision.lang,
    body=with_blocks_replaced(
        spec3_revision.body,
        {
            "Delay before each retry (ms)": chart(
                spec4_delay_chart,
                SPEC4_CHART_SPEC,
                alt=spec4_alt(SPEC4_CHART),
                caption=spec4_caption(SPEC4_CHART),
            ),
            "delay-schedules-2026-12.svg": None,
            "The chart draws the three schedules side by side": paragraph(
                "The build draws the chart from the rows the fixture returns, and the table under it "
                "holds the same rows; where the chart says a line is crossed, the fixture computed it:"
            ),
            "literalOverCapAt": verified_output(spec4_delay_chart, expected=SPEC_CROSSINGS),
        },
    ),
    sources=list(spec3_revision.sources),
)

revisions = [spec4_revision]
