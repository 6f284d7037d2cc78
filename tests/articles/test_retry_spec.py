"""Mutation tests for the retry-spec article, ``articles/retry_spec.py``.

The article says its fixtures would catch four broken handlers: one without
the cap, one without the total-budget clamp, one that reports OperationFailed
an attempt early, and one that waits zero before attempt 2. Each test breaks
the batch's own code in exactly that way (monkeypatching the module the site
loader imported), reruns the fixture and checks that the site would now reject
it: named checks turn false, and the numbers the article prints no longer match.
"""

from __future__ import annotations

import random
import re
from types import ModuleType

import pytest
from article_batch import ROOT, batch_of, failing_checks, run

from site_builder.check.claims import differences, fixture_failure
from site_builder.check.fixture_runs import Outcome
from site_builder.model.batches import fixture_id

BATCH_PATH = "articles/retry_spec.py"
SPEC_ID = "retry_spec:spec_contradictions"
HANDLER_ID = "retry_spec:resolved_handler"
SLUG = "retry-spec-read-as-a-test"


@pytest.fixture
def batch() -> ModuleType:
    """The article module as the site loader imports it."""
    # Other batches are written in parallel; only this one's problems matter here.
    return batch_of(SPEC_ID, HANDLER_ID, only=(BATCH_PATH, "pyproject.toml"))


def printed_mismatches(batch: ModuleType, name: str, output: dict[str, object]) -> list[str]:
    """Where the article's verified_output blocks for fixture ``name`` disagree with ``output``."""
    fx = getattr(batch, name)
    blocks = [b.verified for b in batch.the_revision.body if getattr(b, "verified", None) is not None]
    mine = [v for v in blocks if v.fixture is fx]
    assert mine, f"the article prints nothing from {name}"
    return [d for v in mine for d in differences(v.expected, output)]


def site_verdict(output: dict[str, object]) -> str | None:
    """What the site's own judge says about this output (None: passed)."""
    return fixture_failure(Outcome(output=output))


# --- the unmutated batch ----------------------------------------------------


def test_fixture_ids_are_the_ones_the_site_runs(batch: ModuleType) -> None:
    assert fixture_id(batch.spec_contradictions) == SPEC_ID
    assert fixture_id(batch.resolved_handler) == HANDLER_ID
    assert batch.the_revision.slug == SLUG
    assert batch.the_revision.lang == "en"


def test_unmutated_spec_fixture_passes_and_matches_the_article(batch: ModuleType) -> None:
    output = run(batch, "spec_contradictions")
    assert failing_checks(output) == set()
    assert site_verdict(output) is None
    assert printed_mismatches(batch, "spec_contradictions", output) == []
    # Numbers that must agree with each other, not just with the text.
    assert output["doublingExceedsCap"] > 0
    assert output["cappedOverBudget"] < output["literalOverBudget"]
    assert output["successOnAttemptMaxRetriesPlusOne"] == output["configs"]


def test_unmutated_handler_fixture_passes_and_matches_the_article(batch: ModuleType) -> None:
    spec = run(batch, "spec_contradictions")
    output = run(batch, "resolved_handler")
    assert failing_checks(output) == set()
    assert site_verdict(output) is None
    assert printed_mismatches(batch, "resolved_handler", output) == []
    assert set(output["checks"]) == set(batch.INVARIANTS)
    assert output["brokenRuns"] == dict.fromkeys(batch.INVARIANTS, 0)
    # Every scenario runs twice (plain and jittered); the budget cuts exactly the configs
    # whose capped schedule is over 30 s; only uncut configs reach attempt maxRetries + 1.
    assert output["runs"] == 2 * spec["scenarios"]
    assert output["configsCutByBudget"] == spec["cappedOverBudget"]
    assert output["successOnAttemptMaxRetriesPlusOne"] == 2 * (spec["configs"] - spec["cappedOverBudget"])


def test_the_handler_never_sleeps_for_real(batch: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    def no_sleep(seconds: float) -> None:
        raise AssertionError("the model must simulate time")

    monkeypatch.setattr(time, "sleep", no_sleep)
    config = batch.CAP_NOT_ENOUGH
    handler = batch.RetryHandler(config)
    assert handler.run(batch.failing_times(config.max_retries + 1)) is False
    assert handler.clock.now_ms == sum(batch.plan_delays(config)) == 27_000


def test_jitter_is_seeded_and_stays_under_the_ceilings(batch: ModuleType) -> None:
    config = batch.CAP_NOT_ENOUGH
    plan = batch.plan_delays(config)
    first = batch.RetryHandler(config, rng=batch.jitter_rng(config, 99))
    second = batch.RetryHandler(config, rng=batch.jitter_rng(config, 99))
    first.run(batch.failing_times(99))
    second.run(batch.failing_times(99))
    assert first.events == second.events
    delays = [e["delayMs"] for e in first.events if "delayMs" in e]
    assert len(delays) == len(plan)
    assert all(1 <= d <= c for d, c in zip(delays, plan, strict=True))
    assert isinstance(batch.jitter_rng(config, 0), random.Random)


def test_the_figure_and_cover_show_the_computed_schedule(batch: ModuleType) -> None:
    figure = (ROOT / "assets/retry_spec/delay-schedules.svg").read_text("utf-8")
    cover = (ROOT / "assets/retry_spec/cover.svg").read_text("utf-8")
    for svg in (figure, cover):
        assert re.search(r"<title[^>]*>[^<]+</title>", svg)
        assert "prefers-color-scheme: dark" in svg and 'class="bg"' in svg
    config = batch.CAP_NOT_ENOUGH
    resolved = sum(batch.plan_delays(config)) // 1000
    capped = batch.capped_total(config) // 1000
    assert f"{resolved} s, stop" in figure and f"{resolved} s, stop" in cover
    assert f">{capped} s<" in figure
    assert f"maxDelay {config.max_delay_ms // 1000} s" in figure
    assert f"budget {batch.BUDGET_MS // 1000} s" in figure


# --- mutations --------------------------------------------------------------


def test_removing_the_cap_is_caught(batch: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    spec_before = run(batch, "spec_contradictions")

    def uncapped(config: object, retry: int) -> int:
        return config.initial_delay_ms * 2 ** (retry - 1)  # type: ignore[attr-defined]

    monkeypatch.setattr(batch, "nominal_delay", uncapped)

    handler = run(batch, "resolved_handler")
    failing = failing_checks(handler)
    assert {"delayWithinMaxDelay", "delaysDoubleUntilCap"} <= failing
    assert "totalDelayWithinBudget" not in failing  # the budget clamp still holds
    assert site_verdict(handler) is not None
    assert printed_mismatches(batch, "resolved_handler", handler)

    spec = run(batch, "spec_contradictions")
    assert spec["cappedOverBudget"] == spec["literalOverBudget"] != spec_before["cappedOverBudget"]
    assert "counterexampleCappedWithinBudget" in failing_checks(spec)
    assert printed_mismatches(batch, "spec_contradictions", spec)


def test_removing_the_budget_clamp_is_caught(batch: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(batch, "fits_budget", lambda spent_ms, delay_ms: True)

    handler = run(batch, "resolved_handler")
    failing = failing_checks(handler)
    assert "totalDelayWithinBudget" in failing
    assert "delayWithinMaxDelay" not in failing  # the cap still holds
    assert handler["configsCutByBudget"] == 0
    assert handler["brokenRuns"]["totalDelayWithinBudget"] > 0
    assert site_verdict(handler) is not None
    assert printed_mismatches(batch, "resolved_handler", handler)
    example = handler["example"]
    assert example["plannedTotalMs"] == batch.capped_total(batch.CAP_NOT_ENOUGH) == 42_000
    assert len(example["alwaysFailing"]) == batch.CAP_NOT_ENOUGH.max_retries + 1


def test_failing_one_attempt_early_is_caught(batch: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    before = run(batch, "resolved_handler")
    monkeypatch.setattr(batch.RetryHandler, "attempts_allowed", lambda self, plan: len(plan))

    handler = run(batch, "resolved_handler")
    failing = failing_checks(handler)
    assert {"succeedsIfAnAllowedAttemptSucceeds", "failsOnlyAfterLastAllowedAttempt"} <= failing
    assert "eventsAreRetriesThenOneOutcome" not in failing  # well-formed, just wrong
    assert handler["outcomes"]["OperationFailed"] > before["outcomes"]["OperationFailed"]
    assert site_verdict(handler) is not None
    assert printed_mismatches(batch, "resolved_handler", handler)
    assert handler["example"]["alwaysFailing"][-1] == "OperationFailed #7"


def test_a_zero_delay_before_attempt_two_is_caught(
    batch: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = batch.delay_for_attempt

    def zero_before_attempt_two(plan: list[int], attempt: int, rng: random.Random | None) -> int:
        delay = original(plan, attempt, rng)  # still draws, so the jitter stream is unchanged
        return 0 if attempt == 2 else delay

    monkeypatch.setattr(batch, "delay_for_attempt", zero_before_attempt_two)

    handler = run(batch, "resolved_handler")
    failing = failing_checks(handler)
    assert {"delayPositiveAfterFirstAttempt", "delaysDoubleUntilCap", "jitterWithinCeiling"} <= failing
    assert "totalDelayWithinBudget" not in failing
    assert site_verdict(handler) is not None
    assert printed_mismatches(batch, "resolved_handler", handler)
    assert handler["example"]["alwaysFailing"][0] == "RetryAttempted #2 after 0 ms"
