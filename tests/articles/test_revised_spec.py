"""Tests for revision 2 of the retry-spec article, the ``spec_`` part of ``articles/revised_2026_12.py``.

Revision 1 printed "only 297 of the 550 configurations satisfy every clause as written" and
backed its failure-clause contradiction with a check that counted a list built with one
scenario per configuration. Revision 2 runs the spec as written and judges each run, so:

* the unmutated fixtures pass and agree with what the article prints (0 of 550, 297 for the
  delay clauses alone, 550 broken by the failure clause, 50 where it forbids any success);
* each way of breaking the runner or the model that the article lists turns named checks false,
  and the same mistake leaves revision 1's check true (it was true by construction);
* the new chart is the SVG the model draws, bar by bar, readable in light and dark mode.
"""

from __future__ import annotations

import ast
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from itertools import accumulate
from types import ModuleType

import pytest
from article_batch import ROOT, batch_of, failing_checks, run

from site_builder.check.claims import differences, fixture_failure
from site_builder.check.fixture_runs import Outcome
from site_builder.model.batches import fixture_id

BATCH_PATH = "articles/revised_2026_12.py"
SPEC_ID = "revised_2026_12:spec_contradictions"
HANDLER_ID = "revised_2026_12:spec_resolved_handler"
CHART_ID = "revised_2026_12:spec_delay_chart"
SLUG = "retry-spec-read-as-a-test"
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture
def batch() -> ModuleType:
    """The corrections batch as the site loader imports it."""
    # The other parts of the batch are written in parallel; only this file's problems matter here.
    return batch_of(SPEC_ID, HANDLER_ID, CHART_ID, only=(BATCH_PATH, "pyproject.toml"))


def printed_mismatches(batch: ModuleType, name: str, output: dict[str, object]) -> list[str]:
    """Where the article's verified_output blocks for fixture ``name`` disagree with ``output``."""
    fx = getattr(batch, name)
    blocks = [b.verified for b in batch.spec_revision.body if getattr(b, "verified", None) is not None]
    mine = [v for v in blocks if v.fixture is fx]
    assert mine, f"the article prints nothing from {name}"
    return [d for v in mine for d in differences(v.expected, output)]


def site_verdict(output: dict[str, object]) -> str | None:
    """What the site's own judge says about this output (None: passed)."""
    return fixture_failure(Outcome(output=output))


def body_text(batch: ModuleType) -> str:
    """The article's text with tags removed and whitespace collapsed."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", "\n".join(batch.spec_revision.body)))


# --- the unmutated batch ----------------------------------------------------


def test_the_revision_revises_the_english_article(batch: ModuleType) -> None:
    old = batch.spec_v1.the_revision
    new = batch.spec_revision
    assert fixture_id(batch.spec_contradictions) == SPEC_ID
    assert fixture_id(batch.spec_resolved_handler) == HANDLER_ID
    assert fixture_id(batch.spec_delay_chart) == CHART_ID
    assert new.slug == old.slug == SLUG
    assert (new.revised, old.revised) == ("2026-12-01", None)
    assert new.changes and old.changes is None
    assert (new.lang, new.published, new.title, new.cover) == (old.lang, old.published, old.title, old.cover)
    assert [s.url for s in new.sources] == [s.url for s in old.sources]
    assert new in batch.revisions  # the lead joins the parts' revisions into one list


def test_no_part_of_the_batch_redefines_another_parts_name() -> None:
    """The batch is assembled from several parts: a module-level name bound by two statements
    would make one part silently use another's value."""
    tree = ast.parse((ROOT / BATCH_PATH).read_text("utf-8"))
    defined: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            defined.append(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            defined += [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]
        elif isinstance(node, ast.Import | ast.ImportFrom):
            defined += [(alias.asname or alias.name).partition(".")[0] for alias in node.names]
    assert any(name.startswith("spec_") for name in defined)
    assert sorted({name for name in defined if defined.count(name) > 1}) == []


def test_unmutated_spec_fixture_passes_and_matches_the_article(batch: ModuleType) -> None:
    output = run(batch, "spec_contradictions")
    assert failing_checks(output) == set()
    assert site_verdict(output) is None
    assert printed_mismatches(batch, "spec_contradictions", output) == []
    # The corrected claim: none of the configurations passes every clause; 297 is the delay clauses'.
    assert output["satisfyEveryClause"] == 0
    assert output["satisfyDelayClauses"] + output["delayClausesCollide"] == output["configs"]
    assert output["failClauseBroken"] == output["configsWithFinalSuccess"] == output["configs"]
    assert output["noSuccessAllowed"] == output["zeroRetryConfigs"] > 0
    assert output["runs"] == sum(c.max_retries + 2 for c in batch.spec_v1.grid())
    kept = batch.spec_clauses_kept(batch.spec_v1.COUNTEREXAMPLE, 1, True, [])
    assert set(kept) == {*batch.SPEC_DELAY_CLAUSES, batch.SPEC_FAILURE_CLAUSE}


def test_the_text_states_the_counts_consistently(batch: ModuleType) -> None:
    spec = run(batch, "spec_contradictions")
    text = body_text(batch)
    assert f"holds in none of the {spec['configs']} configurations" in text
    assert f"delay clauses alone hold together in {spec['satisfyDelayClauses']}" in text
    assert f"broken in all {spec['failClauseBroken']}" in text
    assert f"maxRetries = 0 ({spec['zeroRetryConfigs']} of the configurations)" in text
    assert "satisfy every clause as written" not in text  # revision 1's wrong sentence


def test_unmutated_handler_fixture_passes_and_matches_the_article(batch: ModuleType) -> None:
    spec = run(batch, "spec_contradictions")
    output = run(batch, "spec_resolved_handler")
    assert failing_checks(output) == set()
    assert site_verdict(output) is None
    assert printed_mismatches(batch, "spec_resolved_handler", output) == []
    assert output["runs"] == 2 * spec["runs"]
    assert output["configsCutByBudget"] == spec["cappedOverBudget"]
    assert output["configsNotCutByBudget"] == spec["configs"] - spec["cappedOverBudget"]


def test_unmutated_chart_fixture_passes_and_matches_the_article(batch: ModuleType) -> None:
    output = run(batch, "spec_delay_chart")
    assert failing_checks(output) == set()
    assert site_verdict(output) is None
    assert printed_mismatches(batch, "spec_delay_chart", output) == []
    text = batch.spec_chart_text(output)
    fig = next(b for b in batch.spec_revision.body if "<figure>" in b)
    assert f'src="/{batch.SPEC_CHART_ASSET}"' in fig
    assert "delay-schedules.svg" not in fig  # revision 1's chart stays as it was, for revision 1
    for part in ("desc", "caption"):
        assert text[part].replace("'", "&#039;") in fig


# --- the spec runner: mutations the article lists --------------------------------


def stops_an_attempt_early(batch: ModuleType) -> Callable[..., tuple[int, bool, list[int]]]:
    """``maxRetries`` read as the number of attempts, as gRPC's ``maxAttempts`` is."""

    def runner(config: object, operation: Callable[[int], bool]) -> tuple[int, bool, list[int]]:
        schedule = batch.spec_v1.literal_delays(config)
        delays: list[int] = []
        attempt = 1
        while True:
            succeeded = operation(attempt)
            if succeeded or attempt >= max(config.max_retries, 1):  # type: ignore[attr-defined]
                return attempt, succeeded, delays
            delays.append(schedule[attempt - 1])
            attempt += 1

    return runner


def test_a_runner_that_stops_early_is_caught(batch: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(batch, "spec_run_as_written", stops_an_attempt_early(batch))
    output = run(batch, "spec_contradictions")
    failing = failing_checks(output)
    assert {
        "everyRunFollowsItsOperation",
        "finalSuccessInEveryConfig",
        "failClauseBrokenInEveryConfig",
    } <= failing
    assert output["configsWithFinalSuccess"] == output["zeroRetryConfigs"]  # only where 0 retries = 1 attempt
    assert site_verdict(output) is not None
    assert printed_mismatches(batch, "spec_contradictions", output)


def test_revision_1_check_stays_true_under_the_same_mistake(
    batch: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The old check counted a list built to agree: a handler that gives up early leaves it true."""
    old = batch.spec_v1
    monkeypatch.setattr(old.RetryHandler, "attempts_allowed", lambda self, plan: len(plan))
    old_spec = old.spec_report()
    assert old_spec["checks"]["failClauseContradictsFinalSuccess"] is True
    assert old_spec["successOnAttemptMaxRetriesPlusOne"] == old_spec["configs"]
    # The handler fixture of both revisions sees the mistake; only revision 2's sees it twice.
    new_handler = run(batch, "spec_resolved_handler")
    assert {"succeedsIfAnAllowedAttemptSucceeds", "finalSuccessTwicePerUncutConfig"} <= failing_checks(
        new_handler
    )
    assert new_handler["successOnAttemptMaxRetriesPlusOne"] < 2 * new_handler["configsNotCutByBudget"]


def test_an_operation_that_never_succeeds_is_caught_only_by_revision_2(
    batch: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    old = batch.spec_v1
    monkeypatch.setattr(old, "failing_times", lambda failures: lambda attempt: False)
    assert old.spec_report()["checks"]["failClauseContradictsFinalSuccess"] is True
    output = run(batch, "spec_contradictions")
    assert {"everyRunFollowsItsOperation", "finalSuccessInEveryConfig", "failClauseBrokenInEveryConfig"} <= (
        failing_checks(output)
    )
    assert output["configsWithFinalSuccess"] == 0


def test_a_runner_that_obeys_the_failure_clause_is_caught(
    batch: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    honest = batch.spec_run_as_written

    def obedient(config: object, operation: Callable[[int], bool]) -> tuple[int, bool, list[int]]:
        attempt, succeeded, delays = honest(config, operation)
        return attempt, succeeded and attempt != config.max_retries + 1, delays  # type: ignore[attr-defined]

    monkeypatch.setattr(batch, "spec_run_as_written", obedient)
    output = run(batch, "spec_contradictions")
    assert {"everyRunFollowsItsOperation", "noConfigSatisfiesEveryClause"} <= failing_checks(output)
    # Revision 1's 297 is what "every clause" counts only for a handler that reports a success as a failure.
    assert output["satisfyEveryClause"] == output["satisfyDelayClauses"] == 297
    assert output["failClauseBroken"] == 0
    assert printed_mismatches(batch, "spec_contradictions", output)


def test_a_runner_without_doubling_is_caught(batch: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    """The clauses are judged on the run, not on the schedule function the runner uses."""
    monkeypatch.setattr(batch.spec_v1, "literal_delays", lambda config: [config.initial_delay_ms] * 10)
    output = run(batch, "spec_contradictions")
    assert output["doublingExceedsCap"] == 0
    assert "conflictCountMatchesClosedForm" in failing_checks(output)
    # Only a run with at least two delays can break the doubling clause.
    assert output["satisfyDelayClauses"] == sum(c.max_retries <= 1 for c in batch.spec_v1.grid())


# --- the resolved handler and the chart: mutations of revision 1's model --------------


def uncapped(config: object, retry: int) -> int:
    return config.initial_delay_ms * 2 ** (retry - 1)  # type: ignore[attr-defined]


def test_removing_the_cap_is_caught(batch: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(batch.spec_v1, "nominal_delay", uncapped)
    handler = run(batch, "spec_resolved_handler")
    assert {"delayWithinMaxDelay", "delaysDoubleUntilCap"} <= failing_checks(handler)
    chart = run(batch, "spec_delay_chart")
    assert "cappedNeverOverMaxDelay" in failing_checks(chart)
    spec = run(batch, "spec_contradictions")
    assert spec["cappedOverBudget"] == spec["literalOverBudget"]
    assert "counterexampleCappedWithinBudget" in failing_checks(spec)
    for name, output in (("spec_resolved_handler", handler), ("spec_delay_chart", chart)):
        assert printed_mismatches(batch, name, output)


def test_removing_the_budget_clamp_is_caught(batch: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(batch.spec_v1, "fits_budget", lambda spent_ms, delay_ms: True)
    handler = run(batch, "spec_resolved_handler")
    assert "totalDelayWithinBudget" in failing_checks(handler)
    assert handler["configsNotCutByBudget"] == handler["runs"] // 2 // 7  # every config, uncut
    chart = run(batch, "spec_delay_chart")
    assert "resolvedWithinBudget" in failing_checks(chart)
    assert printed_mismatches(batch, "spec_delay_chart", chart)
    # The committed chart no longer shows what the model computes.
    assert batch.spec_chart_svg() != (ROOT / batch.SPEC_CHART_ASSET).read_text("utf-8")


def test_a_budget_that_stops_too_early_is_caught(batch: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        batch.spec_v1, "fits_budget", lambda spent_ms, delay_ms: spent_ms + delay_ms <= 20_000
    )
    chart = run(batch, "spec_delay_chart")
    assert "resolvedStopsOnlyWhenNextOverflows" in failing_checks(chart)
    handler = run(batch, "spec_resolved_handler")
    assert "budgetCutsOnlyWhenNeeded" in failing_checks(handler)


def test_a_zero_delay_before_attempt_two_is_caught(
    batch: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = batch.spec_v1.delay_for_attempt

    def zero_before_attempt_two(plan: list[int], attempt: int, rng: object) -> int:
        delay = original(plan, attempt, rng)  # still draws, so the jitter stream is unchanged
        return 0 if attempt == 2 else delay

    monkeypatch.setattr(batch.spec_v1, "delay_for_attempt", zero_before_attempt_two)
    handler = run(batch, "spec_resolved_handler")
    assert "delayPositiveAfterFirstAttempt" in failing_checks(handler)
    assert printed_mismatches(batch, "spec_resolved_handler", handler)


# --- the chart asset -------------------------------------------------------------


def test_the_committed_chart_is_the_one_the_model_draws(batch: ModuleType) -> None:
    committed = (ROOT / batch.SPEC_CHART_ASSET).read_text("utf-8")
    assert committed == batch.spec_chart_svg(), (
        "regenerate it: see the module docstring of articles/revised_2026_12.py"
    )


def chart_root(batch: ModuleType) -> ET.Element:
    return ET.fromstring((ROOT / batch.SPEC_CHART_ASSET).read_text("utf-8"))


def test_every_bar_shows_the_model_value(batch: ModuleType) -> None:
    config = batch.spec_v1.CAP_NOT_ENOUGH
    per_retry = {
        "literal": batch.spec_v1.literal_delays(config),
        "capped": [batch.spec_v1.nominal_delay(config, k) for k in range(1, config.max_retries + 1)],
        "resolved": batch.spec_v1.plan_delays(config),
    }
    bars = [r for r in chart_root(batch).iter(f"{SVG}rect") if "data-series" in r.attrib]
    panels = (per_retry, {name: list(accumulate(v)) for name, v in per_retry.items()})
    for (_, _, top, axis_s, _, _), values in zip(batch.SPEC_PANELS, panels, strict=True):
        bottom = top + batch.SPEC_PANEL_HEIGHT
        shown = [
            b for b in bars if float(b.get("y")) + float(b.get("height")) == pytest.approx(bottom, abs=0.1)
        ]
        for series, expected in values.items():
            mine = sorted(
                (b for b in shown if b.get("data-series") == series), key=lambda b: int(b.get("data-retry"))
            )
            assert [int(b.get("data-ms")) for b in mine] == expected
            for bar, ms in zip(mine, expected, strict=True):
                height = min(ms / 1000 / axis_s, 1) * batch.SPEC_PANEL_HEIGHT
                assert float(bar.get("height")) == pytest.approx(height, abs=0.06)
    dropped = [t for t in chart_root(batch).iter(f"{SVG}text") if t.get("data-dropped") == "true"]
    kept = len(per_retry["resolved"])
    assert sorted({int(t.get("data-retry")) for t in dropped}) == list(
        range(kept + 1, config.max_retries + 1)
    )
    assert len(dropped) == 2 * (config.max_retries - kept)  # in both panels


def css_rules(block: str) -> dict[str, dict[str, str]]:
    """``.name { prop: value; … }`` rules of one CSS block."""
    rules: dict[str, dict[str, str]] = {}
    for name, body in re.findall(r"\.([\w-]+)\s*\{([^}]*)\}", block):
        props = dict(p.split(":", 1) for p in body.split(";") if ":" in p)
        rules[name] = {k.strip(): v.strip() for k, v in props.items()}
    return rules


def luminance(hex_colour: str) -> float:
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_the_series_are_told_apart_in_light_and_dark_mode(batch: ModuleType) -> None:
    svg = (ROOT / batch.SPEC_CHART_ASSET).read_text("utf-8")
    assert re.search(r"<title[^>]*>[^<]+</title>", svg) and "<desc" in svg
    light_css, dark_css = svg.split("@media (prefers-color-scheme: dark)")
    light, dark = css_rules(light_css), css_rules(dark_css)
    used = set(re.findall(r'class="([\w-]+)', svg)) | {"lit-hatch"}
    assert used <= set(light), used - set(light)
    # Every class that paints something gets a dark-mode colour too.
    assert {
        n for n in used if {"fill", "stroke"} & set(light[n]) - {"fill"} or "#" in light[n].get("fill", "")
    } <= set(dark)
    for mode in (light, dark):
        background = mode["bg"]["fill"]
        colours = {name: mode[name]["stroke"] for name in ("lit", "cap", "res", "limit")}
        assert len(set(colours.values())) == 4, colours  # four different colours
        for name, colour in colours.items():
            assert contrast(colour, background) >= 3, (name, colour, background)  # WCAG 1.4.11
    # Not by colour alone: hatched, translucent with an outline, solid; and a dashed limit line.
    assert light["lit"]["fill"] == "url(#spec-hatch)"
    assert float(light["cap"]["fill-opacity"]) < 0.5 and light["cap"]["stroke-width"]
    assert "fill-opacity" not in light["res"]
    assert "stroke-dasharray" in light["limit"]
    assert not any("stroke-dasharray" in light[n] for n in ("lit", "cap", "res"))


def test_the_capped_bars_do_not_hide_under_the_max_delay_line(batch: ModuleType) -> None:
    """Revision 1's complaint: the capped line lay on the dashed maxDelay line from retry 4 to 10."""
    root = chart_root(batch)
    config = batch.spec_v1.CAP_NOT_ENOUGH
    _, _, top, axis_s, _, _ = batch.SPEC_PANELS[0]
    limit_y = top + batch.SPEC_PANEL_HEIGHT * (1 - config.max_delay_ms / 1000 / axis_s)
    limit = [
        ln
        for ln in root.iter(f"{SVG}line")
        if ln.get("class") == "limit" and float(ln.get("y1")) == pytest.approx(limit_y, abs=0.1)
    ]
    assert len(limit) == 1
    at_cap = [
        r
        for r in root.iter(f"{SVG}rect")
        if r.get("data-series") == "capped"
        and int(r.get("data-ms")) == config.max_delay_ms
        and float(r.get("y")) == pytest.approx(limit_y, abs=0.1)
    ]
    assert [int(r.get("data-retry")) for r in at_cap] == list(range(4, config.max_retries + 1))
    # Each of them is a bar of its own width, not a line: it has an area under the limit line.
    assert all(float(r.get("width")) >= 10 and float(r.get("height")) > 50 for r in at_cap)
    assert f"maxDelay {config.max_delay_ms // 1000} s" in ET.tostring(root, encoding="unicode")
