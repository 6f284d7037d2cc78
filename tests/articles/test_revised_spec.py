"""Tests for revision 2 of the retry-spec article, the ``spec_`` part of ``articles/revised_2026_12.py``.

Revision 1 printed "only 297 of the 550 configurations satisfy every clause as written" and
backed its failure-clause contradiction with a check that counted a list built with one
scenario per configuration. Revision 2 runs the spec as written and judges each run, so:

* the unmutated fixtures pass and agree with what the article prints (0 of 550, 297 for the
  delay clauses alone, 550 broken by the failure clause, 50 where it forbids any success);
* each way of breaking the runner or the model that the article lists turns named checks false,
  and the same mistake leaves revision 1's check true (it was true by construction);
* the chart it publishes is the committed drawing named in its figure, described by the text the
  fixture's numbers give (revision 4 has the build draw it: ``test_revised_spec_chart.py``).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
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
