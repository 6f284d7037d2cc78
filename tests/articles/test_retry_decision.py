"""Mutation tests for the retry decision behind ``articles/retry_decision.py``.

The article claims that its fixture catches a worker that folds ``after_fix`` by
a count, retries for connectors that never declared idempotency, walks a
different backoff ladder, or treats an unknown outlook as ``again``. These tests
break the batch's own code in exactly those ways and check that the fixture's
computed checks turn false.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest
from article_batch import batch_of, failing_checks, run

from site_builder.model.batches import fixture_id

FIXTURE_ID = "retry_decision:decision_table"


@pytest.fixture
def batch() -> ModuleType:
    """The article module as the site loader imports it."""
    return batch_of(FIXTURE_ID)


def test_the_fixture_is_the_one_the_site_runs(batch: ModuleType) -> None:
    assert fixture_id(batch.decision_table) == FIXTURE_ID


def test_unmutated_decision_passes_every_check(batch: ModuleType) -> None:
    output = run(batch, "decision_table")
    assert failing_checks(output) == set()
    assert output["ladderSeconds"] == [30, 120, 600]
    assert output["afterFixRecheckSeconds"] == [600]
    reasons = {row.split()[-1] for row in output["table"]}
    assert reasons == set(batch.REASONS)


def test_folding_after_fix_by_a_count_is_caught(batch: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    original = batch.decide

    def folds_after_fix(state: str, outlook: Any, attempts_failed: int, *rest: Any) -> Any:
        if state == "failed" and outlook == batch.AFTER_FIX and attempts_failed > len(batch.BACKOFF_S):
            return batch.Decision("hold", None, "after_fix_exhausted")
        return original(state, outlook, attempts_failed, *rest)

    monkeypatch.setattr(batch, "decide", folds_after_fix)
    failing = failing_checks(run(batch, "decision_table"))
    assert {"afterFixNeverFolds", "onlyAgainFolds"} <= failing


def test_retrying_undeclared_connectors_is_caught(batch: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    original = batch.decide

    def ignores_declaration(
        state: str, outlook: Any, attempts_failed: int, declared: bool, since: int
    ) -> Any:
        return original(state, outlook, attempts_failed, True, since)

    monkeypatch.setattr(batch, "decide", ignores_declaration)
    assert "retryNeedsDeclaredIdempotency" in failing_checks(run(batch, "decision_table"))


@pytest.mark.parametrize(
    "ladder",
    [(10, 60, 300), (30, 120, 600, 1800), (30, 120), (60, 120, 600)],
    ids=["shorter", "fourth-step", "no-ten-minutes", "first-step-60s"],
)
def test_a_different_backoff_ladder_is_caught(
    batch: ModuleType, monkeypatch: pytest.MonkeyPatch, ladder: tuple[int, ...]
) -> None:
    monkeypatch.setattr(batch, "BACKOFF_S", ladder)
    assert "backoffIs30s2m10mThenStop" in failing_checks(run(batch, "decision_table"))


def test_treating_unknown_outlook_as_again_is_caught(
    batch: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = batch.decide

    def guesses_again(state: str, outlook: Any, *rest: Any) -> Any:
        return original(state, outlook if outlook in batch.OUTLOOKS else batch.AGAIN, *rest)

    monkeypatch.setattr(batch, "decide", guesses_again)
    assert "unknownNeverRetried" in failing_checks(run(batch, "decision_table"))


def test_a_branch_the_table_misses_is_caught(batch: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    without_never = tuple(row for row in batch.TABLE if row[1] != batch.NEVER)
    monkeypatch.setattr(batch, "TABLE", without_never)
    assert "everyBranchCovered" in failing_checks(run(batch, "decision_table"))
