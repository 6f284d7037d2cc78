"""Tests for revision 4 of the retry-spec article (``articles/revised_2026_12_05_spec_chart.py``).

Until revision 3 the delay chart was a drawing committed beside the article, drawn by hand-written
SVG code and compared with the model by a test: the build never looked at it. Revision 4 has the
build draw it with ``chart()`` from the rows its fixture returns, so:

* the revision is revision 3 with the figure and the schedule table replaced by the chart, and the
  rest kept as written;
* the fixture passes, and its rows are the three schedules of the configuration, computed here
  from the spec's own words rather than by the article's functions;
* the chart the build draws has a bar for each value of those rows, in both panels, and a mark for
  each retry the plan drops; a model without its budget clamp makes the fixture fail and the
  drawing change;
* the series differ by more than colour, and each colour holds 3:1 against the theme's light and
  dark backgrounds.
"""

from __future__ import annotations

import re
from concurrent.futures import ProcessPoolExecutor
from itertools import accumulate
from types import ModuleType

import pytest
from article_batch import batch_of, failing_checks, run
from chart_drawing import contrast, drawn, layer, theme_backgrounds

from site_builder.check.claims import differences
from site_builder.model.batches import fixture_id

BATCH_PATH = "articles/revised_2026_12_05_spec_chart.py"
CHART_ID = "revised_2026_12_05_spec_chart:spec4_delay_chart"
SCHEDULES = ("resolved", "capped", "literal")
BUDGET_MS = 30_000  # the spec: totalDelay ≤ 30 s


@pytest.fixture
def batch() -> ModuleType:
    return batch_of(CHART_ID, only=(BATCH_PATH, "pyproject.toml"))


def bars(html: str, panel: int) -> dict[str, list[float]]:
    """Each schedule's bar values in ``panel`` (0: per retry, 1: total), in retry order, read from
    the labels the renderer gives each bar."""
    found: dict[str, list[tuple[int, float]]] = {name: [] for name in SCHEDULES}
    for retry, seconds, schedule in re.findall(
        r'aria-label="retry: (\d+); seconds: ([\d.,]+); schedule: (\w+)"', layer(html, f"concat_{panel}_", 1)
    ):
        found[schedule].append((int(retry), float(seconds.replace(",", ""))))
    return {name: [value for _, value in sorted(pairs)] for name, pairs in found.items()}


def schedules_from_the_spec(config: object) -> dict[str, list[int]]:
    """The three schedules, from the spec's words: doubling from initialDelay; the same capped
    at maxDelay; the capped one while the total stays within the budget."""
    initial, cap, retries = config.initial_delay_ms, config.max_delay_ms, config.max_retries  # type: ignore[attr-defined]
    literal = [initial * 2 ** (k - 1) for k in range(1, retries + 1)]
    capped = [min(delay, cap) for delay in literal]
    resolved = [d for d, total in zip(capped, accumulate(capped), strict=True) if total <= BUDGET_MS]
    return {"literal": literal, "capped": capped, "resolved": resolved}


def shown(block: object) -> tuple[str, str | None]:
    """A block's markup and the fixture it shows, if any."""
    verified = getattr(block, "verified", None)
    return str(block), verified and verified.fixture.name


def test_revision_4_is_revision_3_with_the_chart_in_place_of_the_drawing_and_the_table(
    batch: ModuleType,
) -> None:
    old, new = batch.spec3_revision, batch.spec4_revision
    assert fixture_id(batch.spec4_delay_chart) == CHART_ID
    assert (new.slug, new.published, new.revised) == (old.slug, old.published, "2026-12-05T21:00Z")
    assert old.revised == "2026-12-05" and new.changes
    kept = [block for block in old.body if "delay-schedules-2026-12.svg" not in block]
    assert len(new.body) == len(old.body) - 1
    charts = [block for block in new.body if getattr(block, "chart", None) is not None]
    assert len(charts) == 1 and charts[0].verified.fixture is batch.spec4_delay_chart
    changed = [n for n, (a, b) in enumerate(zip(kept, new.body, strict=True)) if shown(a) != shown(b)]
    assert len(changed) == 3, changed  # the table → the chart, the paragraph, the verified output
    assert kept[changed[0]].startswith('<div class="table-scroll">')  # the schedule table
    assert not any("delay-schedules" in block for block in new.body)


def test_the_fixture_passes_and_its_rows_are_the_schedules_the_spec_describes(batch: ModuleType) -> None:
    output = run(batch, "spec4_delay_chart")
    assert failing_checks(output) == set()
    verified = [getattr(b, "verified", None) for b in batch.spec4_revision.body]
    mine = [v for v in verified if v is not None and v.fixture is batch.spec4_delay_chart]
    assert [v.helper for v in mine] == ["chart", "verified_output"]
    assert [list(differences(v.expected, output)) for v in mine] == [[], []]
    wanted = schedules_from_the_spec(batch.spec_v1.CAP_NOT_ENOUGH)
    rows = output["chart"]
    assert [row["retry"] for row in rows] == list(range(1, 11))
    for name, delays in wanted.items():
        column = [row[f"{name} (s)"] for row in rows]
        totals = [row[f"{name} total (s)"] for row in rows]
        assert column == [d / 1000 for d in delays] + [None] * (10 - len(delays))
        assert totals == [t / 1000 for t in accumulate(delays)] + [None] * (10 - len(delays))
    assert len(wanted["resolved"]) == output["resolvedRetries"] == 7


def test_the_drawing_has_a_bar_for_each_value_and_a_mark_for_each_dropped_retry(
    pool: ProcessPoolExecutor, batch: ModuleType
) -> None:
    output = run(batch, "spec4_delay_chart")
    html = drawn(pool, batch.SPEC4_CHART_SPEC, output["chart"])
    wanted = schedules_from_the_spec(batch.spec_v1.CAP_NOT_ENOUGH)
    assert bars(html, 0) == {name: [d / 1000 for d in delays] for name, delays in wanted.items()}
    assert bars(html, 1) == {name: [t / 1000 for t in accumulate(delays)] for name, delays in wanted.items()}
    for panel in (0, 1):
        dropped = re.findall(
            r'aria-label="retry: (\d+); schedule: resolved"[^>]*>×</text>', layer(html, f"concat_{panel}_", 5)
        )
        assert dropped == ["8", "9", "10"]
    cut = [re.findall(r">([\d,]+)</text>", layer(html, f"concat_{panel}_", 4)) for panel in (0, 1)]
    assert cut == [["16", "32", "64", "128", "256", "512"], ["63", "127", "255", "511", "1,023"]]
    assert ">maxDelay 5 s</text>" in layer(html, "concat_0_", 3)
    assert ">budget 30 s</text>" in layer(html, "concat_1_", 3)


def test_without_its_budget_clamp_the_fixture_fails_and_the_drawing_changes(
    pool: ProcessPoolExecutor, batch: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = drawn(pool, batch.SPEC4_CHART_SPEC, run(batch, "spec4_delay_chart")["chart"])
    monkeypatch.setattr(batch.spec_v1, "fits_budget", lambda spent_ms, delay_ms: True)
    output = run(batch, "spec4_delay_chart")
    assert "resolvedWithinBudget" in failing_checks(output)
    after = drawn(pool, batch.SPEC4_CHART_SPEC, output["chart"])
    assert after != before
    assert bars(after, 0)["resolved"] == bars(after, 0)["capped"]  # ten resolved bars now
    assert "×</text>" not in after


def test_the_series_differ_by_more_than_colour_and_hold_3_to_1_in_light_and_dark(batch: ModuleType) -> None:
    backgrounds = theme_backgrounds()
    limit = batch.SPEC4_CHART_SPEC["vconcat"][0]["layer"][2]["mark"]["color"]
    for colour in (*batch.SPEC4_COLOURS, limit):
        for background in backgrounds:
            assert contrast(colour, background) >= 3, (colour, background)  # WCAG 1.4.11
    assert len(set(batch.SPEC4_COLOURS)) == 3
    fills = batch.SPEC4_FILLS
    assert fills[0] == batch.SPEC4_COLOURS[0] and "0.3)" in fills[1] and fills[2] == "transparent"
