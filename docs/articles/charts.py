"""Documentation: charts the build draws from a fixture's rows (chart())."""

import re

from _html_probe import attrs_of, tags_of, text_of
from _pages_kit import page
from _tool import SETTINGS, run, site

from site_builder import (
    Source,
    code_block,
    fixture,
    heading,
    paragraph,
    revision,
    unordered_list,
    verified_output,
)

CHART_BATCH = """\
from site_builder import Source, chart, fixture, paragraph, revision


def delay(attempt: int, base: float = 0.25, cap: float = 30.0) -> float:
    return min(cap, base * 2 ** (attempt - 1))


@fixture
def backoff() -> dict:
    rows = [{"attempt": n, "delay": delay(n)} for n in range(1, 6)]
    return {
        "chart": rows,
        "checks": {
            "theAltTextsNumbers": (rows[0]["delay"], rows[-1]["delay"]) == (0.25, 4.0),
            "belowTheCap": all(row["delay"] < 30.0 for row in rows),
        },
    }


SPEC = {
    "mark": {"type": "line", "point": True},
    "encoding": {
        "x": {"field": "attempt", "type": "ordinal", "title": "Attempt"},
        "y": {"field": "delay", "type": "quantitative", "title": "Delay, s"},
    },
}

revisions = [
    revision(
        slug="backoff",
        title="Backoff",
        categories=["Demo"],
        excerpt="Each retry waits twice as long.",
        published="2026-12-01",
        body=[
            paragraph("Each retry waits twice as long as the one before it."),
            chart(backoff, SPEC, alt="Delay doubles with each attempt, from 0.25 s to 4 s",
                  caption="The delay before each of five attempts"),
        ],
        sources=[Source(title="Vega-Lite", url="https://vega.github.io/vega-lite/", note="the grammar")],
    )
]
"""
CHART_LINE = next(
    n for n, line in enumerate(CHART_BATCH.splitlines(), 1) if line.lstrip().startswith("chart(")
)


@fixture
def a_chart_built() -> dict:
    """The batch above, built: what the page holds of the chart, and what contentHtml holds."""
    root = site({"articles/backoff.py": CHART_BATCH}, SETTINGS)
    built = run(root, "build")
    html = page(root, "articles/backoff/index.html") if built.code == 0 else ""
    figure = re.search(r'<figure class="chart">.*?</figure>', html, re.DOTALL)
    shown = figure.group(0) if figure else ""
    rows = re.findall(r"<tr><td>(.*?)</td><td>(.*?)</td></tr>", shown)
    (data,) = run(root, "revisions").json() if built.code == 0 else [{}]
    return {
        "drawing": attrs_of(shown, "div"),
        "svg": {k: v for k, v in attrs_of(shown, "svg").items() if k.startswith("aria")},
        "axisTitles": [
            t for t in re.findall(r"<text[^>]*>([^<]*)</text>", shown) if t.startswith(("Attempt", "Delay"))
        ],
        "rows": [list(row) for row in rows],
        "after": "mark" if html[figure.end() :].lstrip().startswith('<p class="proof"') else "nothing",
        "contentHtml": re.search(r'<figure class="chart">.*?</figure>', data.get("contentHtml", "")).group(0),
        "checks": {
            "built": built.code == 0,
            "oneSvg": shown.count("<svg") == 1,
            "tableInFigure": tags_of(shown).count("table") == 1,
            "captionShown": text_of(shown).strip().endswith("The delay before each of five attempts"),
        },
    }


MISTAKES = {
    "no rows": ('"chart": rows,', '"points": rows,'),
    "a row that is no object": ('"chart": rows,', '"chart": [0.25, 0.5],'),
    "empty alt text": ('alt="Delay doubles with each attempt, from 0.25 s to 4 s"', 'alt=""'),
    "data in the specification": (
        "chart(backoff, SPEC,",
        'chart(backoff, {"data": {"url": "rows.csv"}, **SPEC},',
    ),
}


@fixture
def chart_mistakes() -> dict:
    """Each mistake, alone in the batch above: what validate says."""
    said = {}
    for name, (before, after) in MISTAKES.items():
        root = site({"articles/backoff.py": CHART_BATCH.replace(before, after)}, SETTINGS)
        ran = run(root, "validate")
        said[name] = ran.lines[0] if ran.code == 1 and len(ran.lines) == 2 else ran.lines
    return {
        "validate": said,
        "checks": {
            "eachMistakeMadeOnce": all(CHART_BATCH.count(before) == 1 for before, _ in MISTAKES.values()),
            "eachOneProblem": all(isinstance(line, str) for line in said.values()),
        },
    }


charts_page = revision(
    slug="charts",
    title="Charts",
    categories=["Reference"],
    excerpt="chart(): a figure the build draws from the rows a fixture returns, with the rows as a "
    "table under it, in the reader's colour scheme.",
    published="2026-12-05",
    body=[
        paragraph(
            "A chart in an article is a claim like any printed result: the numbers it draws must be "
            "the ones the code produces. So a chart is not an image you make and commit. You write a "
            "fixture that returns the rows, and a specification of how to draw them; every build runs "
            "the fixture and draws the chart from what it returned. Edit the code and the chart "
            "changes with it; break the code and the build stops, as for a `verified_output`."
        ),
        code_block(
            'chart(fixture: Fixture, spec: dict, alt: str, caption: str, data: str = "chart") -> Block',
            language="python",
        ),
        unordered_list(
            [
                "`fixture` — a `@fixture` function of the same batch (or of a helper module the batch "
                "imports) whose result holds the rows under the key `data`: a non-empty list of "
                "objects whose values are strings, numbers, `true`, `false` or `null`. It is run and "
                "judged like any fixture: its `checks` must all be true.",
                "`spec` — a [Vega-Lite](https://vega.github.io/vega-lite/) specification as a dict: the "
                "mark, the encodings, the titles. It has no `data`: the rows come from the fixture.",
                "`alt` — what the chart shows, in words, for a reader who cannot see it. Required.",
                "`caption` — inline Markdown shown under the figure. Required.",
                "`data` — the key of the fixture's result that holds the rows.",
            ]
        ),
        paragraph(
            "Charts are drawn by vl-convert, which runs Vega-Lite in a JavaScript engine of its own "
            "(no browser, no system library). It is an optional part of site_builder, installed "
            "with `pip install 'site-builder[charts]'`; a site that uses `chart()` without it gets a "
            "problem at the line of the call saying so."
        ),
        heading("What a build makes of it"),
        paragraph(
            "This batch draws the delays of an exponential backoff; its fixture also checks the two "
            "numbers the alt text states:"
        ),
        code_block(CHART_BATCH, language="python"),
        paragraph(
            "Built, its page holds the figure with the drawing, an SVG whose labels stay text, inside "
            'an element named by the alt text (`role="img"`), the SVG itself hidden from screen '
            "readers (the renderer's own labels, one per mark, would be a second and partial reading of "
            "the same picture); the rows as a table; the caption; and after the figure, the mark that "
            "links to the fixture. `contentHtml` — what `revisions` and "
            "`revisions.json` give importers — holds the figure with its caption only, since it is "
            "written from the article alone, before any fixture runs:"
        ),
        verified_output(
            a_chart_built,
            expected={
                "drawing": {
                    "class": "chart-drawing",
                    "role": "img",
                    "aria-label": "Delay doubles with each attempt, from 0.25 s to 4 s",
                },
                "svg": {"aria-hidden": "true"},
                "axisTitles": ["Attempt", "Delay, s"],
                "rows": [["1", "0.25"], ["2", "0.5"], ["3", "1.0"], ["4", "2.0"], ["5", "4.0"]],
                "after": "mark",
                "contentHtml": '<figure class="chart"><figcaption>The delay before each of five attempts'
                "</figcaption></figure>",
            },
        ),
        paragraph(
            "The table is named by the caption for screen readers (the caption itself is hidden "
            "there, since the figure shows it already) and, like every table, it is a region the "
            "keyboard can reach and scroll. The theme draws the chart's text, axes and grid in the "
            "page's own colours, over the page's background, so a chart follows the reader's light "
            "or dark scheme as the rest of the page does; the marks keep the colours the "
            "specification gives them."
        ),
        heading("Drawn once, and the same every time"),
        paragraph(
            "The drawing is made in the worker that ran the batch's fixtures, and kept with the "
            "batch: an incremental build that does not touch the batch draws nothing. The version of "
            "vl-convert is part of every batch's cache key, so upgrading it draws every chart again. "
            "The same rows and specification give the same bytes, whatever `--jobs` says."
        ),
        heading("Mistakes"),
        paragraph(
            "Each of these, made alone in the batch above, is one problem at the line of `chart(` "
            f"(line {CHART_LINE}), from `validate` as from `build`:"
        ),
        verified_output(
            chart_mistakes,
            expected={
                "validate": {
                    "no rows": f"articles/backoff.py:{CHART_LINE}: backoff: chart(): the fixture returns no "
                    "'chart': a chart draws the list of rows it holds",
                    "a row that is no object": f"articles/backoff.py:{CHART_LINE}: backoff: chart(): "
                    "chart[0] must be an object (a row), not 0.25",
                    "empty alt text": f"articles/backoff.py:{CHART_LINE}: backoff: chart(): alt text is "
                    "required and must not be empty",
                    "data in the specification": f"articles/backoff.py:{CHART_LINE}: backoff: chart(): "
                    "spec must be a Vega-Lite specification (a dict) without 'data': the rows come from "
                    "the fixture",
                }
            },
        ),
        paragraph(
            "A specification Vega-Lite cannot draw is a problem too, with Vega-Lite's own words; so "
            "is a drawing that would hold a link or a script (Vega-Lite's `href` channel makes links), "
            "since a page holds no link its author did not write as one."
        ),
    ],
    sources=[
        Source(
            title="Vega-Lite: a grammar of interactive graphics",
            url="https://vega.github.io/vega-lite/",
            note="the specification chart() takes: marks, encodings, titles",
        ),
        Source(
            title="vl-convert",
            url="https://github.com/vega/vl-convert",
            note="Vega-Lite to SVG without a browser, as a Python wheel",
        ),
        Source(
            title="W3C WAI: Complex images",
            url="https://www.w3.org/WAI/tutorials/images/complex/",
            note="a short text alternative, and the data in a table beside the chart",
        ),
    ],
)

revisions = [charts_page]
