"""Tests for revision 5 of the client article (``articles/revised_2026_12_05_client_chart.py``).

The budget timeline was a drawing committed beside the article with its durations typed into the
SVG; revision 5 has the build draw it with ``chart()`` from the phases its fixture returns, so:

* the revision is revision 4 with the figure replaced by the chart and the rest kept as written;
* the fixture passes, and its rows tile the budget from the click to the deadline, phase by phase,
  as the article's rules say (an attempt waits its timeout, a pause between attempts, the rest of
  the budget for the honest screen);
* the drawing has a bar per phase spanning its rows' times, its durations written in Russian
  digit grouping, and the deadline where the budget ends; a longer pause in the model redraws it;
* each colour holds 3:1 against the theme's light and dark backgrounds.
"""

from __future__ import annotations

import re
import sys
from concurrent.futures import ProcessPoolExecutor
from types import ModuleType

import pytest
from article_batch import batch_of, failing_checks, run
from chart_drawing import contrast, drawn, layer, theme_backgrounds

from site_builder.model.batches import fixture_id

CHART_ID = "revised_2026_12_05_client_chart:client5_budget_chart"
BATCH_PATH = "articles/revised_2026_12_05_client_chart.py"


@pytest.fixture
def batch() -> ModuleType:
    return batch_of(CHART_ID, only=(BATCH_PATH, "pyproject.toml"))


def model(batch: ModuleType) -> ModuleType:
    """The module the client model and its constants live in (revision 2's)."""
    return sys.modules[batch.client_budget_run.__module__]


def test_revision_5_is_revision_4_with_the_chart_in_place_of_the_drawing(batch: ModuleType) -> None:
    old, new = batch.client4_revision, batch.client5_revision
    assert fixture_id(batch.client5_budget_chart) == CHART_ID
    assert (new.slug, new.published, new.revised) == (old.slug, old.published, "2026-12-05T21:45Z")
    assert old.revised == "2026-12-05" and new.changes
    assert len(new.body) == len(old.body)
    changed = [n for n, (a, b) in enumerate(zip(old.body, new.body, strict=True)) if a is not b]
    assert len(changed) == 1
    assert "intent-budget-timeline.svg" in old.body[changed[0]]
    assert new.body[changed[0]].chart is not None
    assert new.body[changed[0]].verified.fixture is batch.client5_budget_chart
    assert not any("intent-budget-timeline" in block for block in new.body)


def test_the_rows_tile_the_budget_as_the_article_s_rules_say(batch: ModuleType) -> None:
    output = run(batch, "client5_budget_chart")
    assert failing_checks(output) == set()
    m = model(batch)
    rows = output["chart"]
    assert [row["фаза"] for row in rows] == ["попытка 1", "пауза", "попытка 2", "исход неясен"]
    starts = [row["начало, мс"] for row in rows]
    ends = [row["конец, мс"] for row in rows]
    assert starts == [0, *ends[:-1]] and ends[-1] == m.BUDGET_MS  # no gap, up to the deadline
    assert [row["длится, мс"] for row in rows] == [
        m.ATTEMPT_TIMEOUT_MS,
        m.PAUSE_MS,
        m.ATTEMPT_TIMEOUT_MS,
        m.BUDGET_MS - 2 * m.ATTEMPT_TIMEOUT_MS - m.PAUSE_MS,
    ]
    # A third attempt would not fit: pause, timeout and reserve are more than what is left.
    assert m.PAUSE_MS + m.ATTEMPT_TIMEOUT_MS + m.RESERVE_MS > rows[-1]["длится, мс"] >= m.RESERVE_MS


def spans(html: str) -> list[tuple[float, float]]:
    """Each bar's left and right edge, in drawing units, in order."""
    found = re.findall(r'<path[^>]*d="M([\d.]+),[\d.]+h([\d.]+)v', layer(html, "", 0))
    return [(float(x), float(x) + float(width)) for x, width in found]


def test_the_drawing_has_a_bar_per_phase_and_the_deadline_where_the_budget_ends(
    pool: ProcessPoolExecutor, batch: ModuleType
) -> None:
    output = run(batch, "client5_budget_chart")
    spec = batch.client5_spec(output)
    html = drawn(pool, spec, output["chart"])
    width = spec["width"]
    scale = width / output["budgetMs"]
    wanted = [(row["начало, мс"] * scale, row["конец, мс"] * scale) for row in output["chart"]]
    assert spans(html) == [pytest.approx(span, abs=0.01) for span in wanted]
    assert re.findall(r">([^<]+)</text>", layer(html, "", 1)) == [
        "попытка 1",
        "пауза",
        "попытка 2",
        "исход неясен",
    ]
    assert re.findall(r">([^<]+)</text>", layer(html, "", 2)) == [
        "1\u00a0800",
        "250",
        "1\u00a0800",
        "1\u00a0150",
    ]
    rule = re.search(r'<line transform="translate\(([\d.]+),', layer(html, "", 3))
    assert rule and float(rule.group(1)) == pytest.approx(width)
    assert ">Одно намерение, один ключ key-001, один дедлайн</text>" in html


def test_a_longer_pause_in_the_model_redraws_the_chart(
    pool: ProcessPoolExecutor, batch: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = run(batch, "client5_budget_chart")
    monkeypatch.setattr(model(batch), "PAUSE_MS", 400)
    after = run(batch, "client5_budget_chart")
    assert [row["длится, мс"] for row in after["chart"]] == [1800, 400, 1800, 1000]
    spec = batch.client5_spec(before)
    assert drawn(pool, spec, after["chart"]) != drawn(pool, spec, before["chart"])


def test_each_colour_holds_3_to_1_in_light_and_dark(batch: ModuleType) -> None:
    for colour in (*batch.CLIENT5_COLOURS, batch.CLIENT5_DEADLINE_COLOUR):
        for background in theme_backgrounds():
            assert contrast(colour, background) >= 3, (colour, background)  # WCAG 1.4.11
    assert len(set(batch.CLIENT5_COLOURS)) == 3
