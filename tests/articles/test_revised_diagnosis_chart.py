"""Tests for revision 5 of the diagnosis article (``articles/revised_2026_12_05_diagnosis_chart.py``).

The four outcomes behind one timeout were a committed drawing with the model's moments typed into
its labels; revision 5 has the build draw the lanes with ``chart()`` from the traces of the model's
runs, so:

* the revision is revision 4 with the figure replaced by the chart and the rest kept as written;
* the fixture passes, and its rows are what the traces say, read here from the trace lines
  themselves: the same timeout in every lane, the owner's transaction where the lane's story puts
  it, what the network lost, and what the retry got back;
* the drawing has a bar for each span at its times and a label for each row; a slower owner in the
  model moves the fourth lane's bar and fails the check that ties it to the text's number;
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

CHART_ID = "revised_2026_12_05_diagnosis_chart:diagnosis5_outcomes_chart"
BATCH_PATH = "articles/revised_2026_12_05_diagnosis_chart.py"
LANES = ["1. Не доставлен", "2. Доставлен, не выполнен", "3. Выполнен, ответ потерян", "4. Ещё выполняется"]


@pytest.fixture
def batch() -> ModuleType:
    return batch_of(CHART_ID, only=(BATCH_PATH, "pyproject.toml"))


def model(batch: ModuleType) -> ModuleType:
    """The module the diagnosis model and its timings live in (revision 2's)."""
    return sys.modules[batch.diagnosis_lane.__module__]


def test_revision_5_is_revision_4_with_the_chart_in_place_of_the_drawing(batch: ModuleType) -> None:
    old, new = batch.diagnosis4_revision, batch.diagnosis5_revision
    assert fixture_id(batch.diagnosis5_outcomes_chart) == CHART_ID
    assert (new.slug, new.published, new.revised) == (old.slug, old.published, "2026-12-05T22:00Z")
    assert old.revised == "2026-12-05" and new.changes
    changed = [n for n, (a, b) in enumerate(zip(old.body, new.body, strict=True)) if a is not b]
    assert len(new.body) == len(old.body) and len(changed) == 1
    assert "four-outcomes-timeline.svg" in old.body[changed[0]]
    assert new.body[changed[0]].verified.fixture is batch.diagnosis5_outcomes_chart
    assert not any("four-outcomes-timeline" in block for block in new.body)


def rows_by(rows: list[dict[str, object]]) -> dict[tuple[str, str], tuple[object, object, object]]:
    return {(row["исход"], row["кто"]): (row["с, мс"], row["до, мс"], row["итог"]) for row in rows}


def test_the_rows_are_what_the_traces_say(batch: ModuleType) -> None:
    output = run(batch, "diagnosis5_outcomes_chart")
    assert failing_checks(output) == set()
    m = model(batch)
    timeout, second = m.ATTEMPT_TIMEOUT_MS, m.ATTEMPT_TIMEOUT_MS + m.PAUSE_MS
    reached, stored, slow = m.UPLINK_MS, m.UPLINK_MS + m.WORK_MS, m.UPLINK_MS + m.DIAGNOSIS_SLOW_WORK_MS
    replied = second + m.UPLINK_MS + m.DOWNLINK_MS
    assert rows_by(output["chart"]) == {
        (LANES[0], "клиент"): (0, timeout, "тайм-аут"),
        (LANES[0], "сеть"): (reached, reached, "запрос потерян"),
        (LANES[0], "повтор"): (second, replied + m.WORK_MS, "201"),  # the retry does the work itself
        (LANES[1], "клиент"): (0, timeout, "тайм-аут"),
        (LANES[1], "сервер"): (reached, stored, "сбой до COMMIT, откат"),
        (LANES[1], "повтор"): (second, replied, "409"),
        (LANES[2], "клиент"): (0, timeout, "тайм-аут"),
        (LANES[2], "сервер"): (reached, stored, "платёж создан, 201"),
        (LANES[2], "сеть"): (stored, stored, "ответ потерян"),
        (LANES[2], "повтор"): (second, replied, "201, сохранённый ответ"),
        (LANES[3], "клиент"): (0, timeout, "тайм-аут"),
        (LANES[3], "сервер"): (reached, slow, "платёж создан, 201"),
        (LANES[3], "сеть"): (slow, slow, "ответ не нужен: клиент сдался"),
        (LANES[3], "повтор"): (second, replied, "409"),
    }
    assert len(output["chart"]) == 14


def test_the_drawing_has_a_bar_per_span_and_a_label_per_row(
    pool: ProcessPoolExecutor, batch: ModuleType
) -> None:
    output = run(batch, "diagnosis5_outcomes_chart")
    spec = batch.diagnosis5_spec(output["milestones"]["timeoutAtMs"])
    html = drawn(pool, spec, output["chart"])
    scale = spec["width"] / spec["layer"][0]["encoding"]["x"]["scale"]["domain"][1]
    bars = re.findall(r'<path[^>]*d="M([\d.]+),[\d.]+h([\d.]+)v', layer(html, "", 0))
    spans = [(row["с, мс"], row["до, мс"]) for row in output["chart"] if row["до, мс"] > row["с, мс"]]
    assert [(float(x), float(x) + float(w)) for x, w in bars] == [
        pytest.approx((start * scale, end * scale), abs=0.01) for start, end in spans
    ]
    crosses = re.findall(r'<path [^>]*transform="translate\(([\d.]+),', layer(html, "", 1))
    lost = [row["с, мс"] for row in output["chart"] if row["до, мс"] == row["с, мс"]]
    assert [float(x) for x in crosses] == [pytest.approx(ms * scale, abs=0.01) for ms in lost]
    labels = re.findall(r">([^<]+)</text>", layer(html, "", 2))
    assert labels == [row["итог"] for row in output["chart"]]
    assert ">тайм-аут клиента, 1\u00a0800 мс</text>" in html


def test_a_slower_owner_moves_the_fourth_lane_and_fails_the_check_tied_to_the_text(
    pool: ProcessPoolExecutor, batch: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = run(batch, "diagnosis5_outcomes_chart")
    lanes = tuple(
        lane if lane.name != "still-running" else type(lane)(lane.name, work_ms=3000)
        for lane in model(batch).DIAGNOSIS_LANES
    )
    monkeypatch.setattr(batch, "DIAGNOSIS_LANES", lanes)
    after = run(batch, "diagnosis5_outcomes_chart")
    assert rows_by(after["chart"])[LANES[3], "сервер"][1] == model(batch).UPLINK_MS + 3000
    assert "slowStoredWhereTheTextSays" in failing_checks(after)
    spec = batch.diagnosis5_spec(1800)
    assert drawn(pool, spec, after["chart"]) != drawn(pool, spec, before["chart"])


def test_each_colour_holds_3_to_1_in_light_and_dark(batch: ModuleType) -> None:
    for colour in (*batch.DIAGNOSIS5_WHO.values(), batch.DIAGNOSIS5_TIMEOUT_COLOUR):
        for background in theme_backgrounds():
            assert contrast(colour, background) >= 3, (colour, background)  # WCAG 1.4.11
    assert len(set(batch.DIAGNOSIS5_WHO.values())) == 4


def test_the_caption_says_what_the_retry_got_in_each_lane_from_the_rows(batch: ModuleType) -> None:
    rows = run(batch, "diagnosis5_outcomes_chart")["chart"]
    said = "получает 201 в первом и третьем исходах и 409 во втором и четвёртом"
    assert batch.diagnosis5_retry_answers(rows) == said
    assert batch.DIAGNOSIS5_CAPTION.endswith(f"Повтор с тем же ключом {said}.")
    assert said in batch.diagnosis5_alt(batch.diagnosis5_at, rows)
    # Had the slow owner finished before the retry, the fourth lane would replay its answer.
    faster = [
        {**row, "итог": "201, сохранённый ответ"}
        if (row["исход"], row["кто"]) == (LANES[3], "повтор")
        else row
        for row in rows
    ]
    assert (
        batch.diagnosis5_retry_answers(faster)
        == "получает 201 в первом, третьем и четвёртом исходах и 409 во втором"
    )
