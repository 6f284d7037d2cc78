"""Charts drawn by the build from a fixture's rows (issue 35, item 1): the drawing and a table of
the rows on the page, the same bytes build after build, a new drawing when the rows change, and
each way a chart can be wrong reported at its ``chart(`` line."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from tests.support.sites import MakeSite, RunCli, searchable, tree

BATCH = """\
from site_builder import Source, chart, fixture, paragraph, revision


@fixture
def delays() -> dict:
    rows = [{"attempt": n, "delay": DELAYS[n - 1], "kind": "<capped & jittered>"} for n in (1, 2, 3)]
    return {"chart": rows, "checks": {"growing": rows[0]["delay"] < rows[2]["delay"]}}


DELAYS = [0.5, 1.0, 2.0]
SPEC = {
    "mark": "line",
    "encoding": {
        "x": {"field": "attempt", "type": "ordinal", "title": "Attempt"},
        "y": {"field": "delay", "type": "quantitative", "title": "Delay, s"},
    },
}

revisions = [
    revision(
        slug="delays",
        title="Delays",
        categories=["Notes"],
        excerpt="Retry delays, drawn.",
        published="2024-01-02",
        body=[
            paragraph("Each retry waits twice as long as the one before."),
            chart(delays, SPEC, alt="A line rising from 0.5 s to 2 s over three attempts",
                  caption="Delay by attempt"),
        ],
        sources=[Source(title="A", url="https://a.example/", note="a"),
                 Source(title="B", url="https://b.example/", note="b")],
    ),
]
"""
CHART_LINE = next(n for n, line in enumerate(BATCH.splitlines(), 1) if "chart(delays" in line)
"""The line of ``chart(`` in :data:`BATCH`."""


def page(root: Path) -> BeautifulSoup:
    return BeautifulSoup((root / "build/articles/delays/index.html").read_text("utf-8"), "html.parser")


def test_the_page_shows_the_drawing_its_rows_and_the_mark_and_content_html_the_figure_alone(
    make_site: MakeSite, run_cli: RunCli
) -> None:
    root = make_site({"articles/post.py": BATCH})
    built = run_cli(["build", "--root", str(root)])
    assert built.code == 0, built.err

    figure = page(root).select_one("figure.chart")
    drawing = figure.select_one("div.chart-drawing[role=img]")
    assert drawing["aria-label"] == "A line rising from 0.5 s to 2 s over three attempts"
    # The div is the image: the renderer's roles and labels inside it are hidden from assistive
    # technology (axe's svg-img-alt flagged a rule's unnamed graphics-symbol in the spec article).
    assert drawing.select_one("svg")["aria-hidden"] == "true"
    texts = [t.get_text() for t in drawing.select("svg text")]
    assert "Attempt" in texts and "Delay, s" in texts  # the axes' titles, as text
    assert drawing.select("svg path.mark-line, svg .mark-line path")
    rows = [[td.get_text() for td in tr.select("td")] for tr in figure.select("table tbody tr")]
    assert [th.get_text() for th in figure.select("table th")] == ["attempt", "delay", "kind"]
    assert rows == [
        ["1", "0.5", "<capped & jittered>"],
        ["2", "1.0", "<capped & jittered>"],
        ["3", "2.0", "<capped & jittered>"],
    ]
    assert "&lt;capped &amp; jittered&gt;" in str(figure.select_one("td:nth-of-type(3)"))
    assert figure.select_one("figcaption").get_text() == "Delay by attempt"
    assert figure.find_next_sibling()["class"] == ["proof"]  # the mark, as after a verified output

    listed = run_cli(["revisions", "--root", str(root)])
    (revision,) = json.loads(listed.out)
    assert (
        '<figure class="chart"><figcaption>Delay by attempt</figcaption></figure>' in revision["contentHtml"]
    )
    assert revision["fixtures"] == ["post:delays"]


def test_the_drawing_is_the_same_bytes_each_build_and_follows_the_rows(
    make_site: MakeSite, run_cli: RunCli, tmp_path: Path
) -> None:
    root = make_site({"articles/post.py": BATCH})
    drawings = []
    for delays, flags in (
        ([0.5, 1.0, 2.0], []),
        ([0.5, 1.0, 2.0], ["--no-cache", "--jobs", "1"]),
        ([0.5, 1.5, 4.0], []),
    ):
        (root / "articles/post.py").write_text(BATCH.replace("[0.5, 1.0, 2.0]", repr(delays)), "utf-8")
        built = run_cli(["build", "--root", str(root), *flags])
        assert built.code == 0, built.err
        drawings.append(str(page(root).select_one("div.chart-drawing")))
    assert drawings[0] == drawings[1]  # rebuilt without the cache, in one worker: the same bytes
    assert drawings[2] != drawings[0] and "4.0" in page(root).select_one("table").get_text()
    first = searchable(tree(root / "build"))
    assert run_cli(["build", "--root", str(root), "--no-cache", "--jobs", "2"]).code == 0
    assert searchable(tree(root / "build")) == first


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (
            ('return {"chart": rows,', 'return {"rows": rows,'),
            "chart(): the fixture returns no 'chart': a chart draws the list of rows it holds",
        ),
        (
            ('return {"chart": rows,', 'return {"chart": [],'),
            "chart(): 'chart' must be a non-empty list of rows (objects), not []",
        ),
        (
            ('return {"chart": rows,', 'return {"chart": [1, 2],'),
            "chart(): chart[0] must be an object (a row), not 1",
        ),
        (
            ('"kind": "<capped & jittered>"', '"kind": [1]'),
            "chart(): chart[0].kind must be a string, a number, true, false or null",
        ),
        (  # the renderer's words, which its version decides: only its error's first line
            ('"mark": "line"', '"mark": "bogus"'),
            "chart(): the specification does not render: ",
        ),
    ],
    ids=["no-key", "empty", "not-rows", "nested-value", "does-not-render"],
)
def test_a_chart_that_cannot_be_drawn_is_a_problem_at_its_line(
    make_site: MakeSite, run_cli: RunCli, edit: tuple[str, str], message: str
) -> None:
    assert BATCH.count(edit[0]) == 1
    root = make_site({"articles/post.py": BATCH.replace(*edit)})
    for command in ("validate", "build"):
        done = run_cli([command, "--root", str(root)])
        assert done.code == 1
        first = done.err.splitlines()[0]
        expected = f"articles/post.py:{CHART_LINE}: delays: {message}"
        said = first.removeprefix(expected) if message.endswith(": ") else ""  # the renderer's words
        assert first == expected + said and (said or not message.endswith(": ")), done.err
    assert not (root / "build").exists()


@pytest.mark.parametrize(
    ("edit", "rule_message"),
    [
        (
            ('alt="A line rising from 0.5 s to 2 s over three attempts"', 'alt=" "'),
            "chart(): alt text is required and must not be empty",
        ),
        (
            ("chart(delays, SPEC,", 'chart(delays, {"data": {"values": []}, **SPEC},'),
            "chart(): spec must be a Vega-Lite specification (a dict) without 'data': "
            "the rows come from the fixture",
        ),
        (
            ('caption="Delay by attempt"', 'caption=""'),
            "chart(): a caption is required and must not be empty",
        ),
        (
            ("chart(delays,", "chart(DELAYS,"),
            "chart(): the first argument must be a @fixture function, not list",
        ),
    ],
    ids=["no-alt", "data-in-spec", "no-caption", "not-a-fixture"],
)
def test_a_chart_written_wrong_is_a_problem_at_its_line(
    make_site: MakeSite, run_cli: RunCli, edit: tuple[str, str], rule_message: str
) -> None:
    assert BATCH.count(edit[0]) == 1
    root = make_site({"articles/post.py": BATCH.replace(*edit)})
    done = run_cli(["validate", "--root", str(root)])
    assert done.code == 1
    lines = [line for line in done.err.splitlines() if re.match(r"articles/", line)]
    assert lines == [f"articles/post.py:{CHART_LINE}: delays: {rule_message}"], done.err


def test_a_drawing_that_would_load_or_link_something_is_a_problem_and_text_is_only_text(
    make_site: MakeSite, run_cli: RunCli
) -> None:
    """Vega-Lite's image mark loads what the rows name: the reader's browser would fetch it. A
    label that reads like markup or a handler is text, and is drawn."""
    images = BATCH.replace('"mark": "line",', '"mark": {"type": "image", "width": 8, "height": 8},').replace(
        '"encoding": {\n', '"encoding": {\n        "url": {"field": "kind"},\n'
    )
    assert images.count('"url"') == 1 and images.count('"image"') == 1
    line = next(n for n, text in enumerate(images.splitlines(), 1) if "chart(delays" in text)
    root = make_site({"articles/post.py": images.replace("<capped & jittered>", "https://x.example/a.png")})
    done = run_cli(["validate", "--root", str(root)])
    assert done.code == 1
    assert done.err.splitlines()[0] == (
        f"articles/post.py:{line}: delays: chart(): the drawing holds <image> (an href, url or image "
        "encoding?), which a chart may not"
    ), done.err

    labels = BATCH.replace("<capped & jittered>", "javascript: <b onload='x'> & more")
    root = make_site({"articles/post.py": labels}, name="labels")
    assert run_cli(["build", "--root", str(root)]).code == 0
    assert "javascript: &lt;b onload='x'&gt; &amp; more" in str(page(root).select_one("table"))
    assert page(root).select_one("figure.chart svg")  # drawn: the label is text in it


def test_a_chart_of_another_batch_s_fixture_is_one_problem_at_its_line(
    make_site: MakeSite, run_cli: RunCli
) -> None:
    """Its rows are in the worker that ran the other batch: the chart cannot be drawn here."""
    other = """\
from post import SPEC, delays

from site_builder import Source, chart, paragraph, revision

revisions = [revision(slug="borrowed", title="Borrowed", categories=["Notes"], excerpt="A chart.",
                      published="2024-01-03",
                      body=[paragraph("The same delays, drawn from the other batch."),
                            chart(delays, SPEC, alt="The delays", caption="The delays again")],
                      sources=[Source(title="A", url="https://a.example/", note="a"),
                               Source(title="B", url="https://b.example/", note="b")])]
"""
    root = make_site({"articles/post.py": BATCH, "articles/zother.py": other})
    for command in ("validate", "build"):
        done = run_cli([command, "--root", str(root)])
        assert done.code == 1
        assert done.err.splitlines()[:2] == [
            "articles/zother.py:8: borrowed: chart(): its fixture post:delays runs with another batch; "
            "draw from one of this batch or of a helper module",
            "1 problem found",
        ], done.err
