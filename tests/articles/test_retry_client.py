"""Mutation tests for the client model behind ``articles/retry_2020_06.py``.

The article claims that its fixture would catch two broken clients: one that
makes a new idempotency key per attempt, and one that starts a fresh timer per
attempt. These tests break the batch's own model in exactly those two ways and
check that the fixture's computed checks turn false.
"""

from __future__ import annotations

from types import ModuleType

import pytest
from article_batch import batch_of, failing_checks, run

from site_builder.model.batches import fixture_id

FIXTURE_ID = "retry_2020_06:intent_budget"


@pytest.fixture
def batch() -> ModuleType:
    """The article module as the site loader imports it."""
    return batch_of(FIXTURE_ID)


def test_the_fixture_is_the_one_the_site_runs(batch: ModuleType) -> None:
    assert fixture_id(batch.intent_budget) == FIXTURE_ID


def test_unmutated_model_passes_every_check(batch: ModuleType) -> None:
    output = run(batch, "intent_budget")
    assert failing_checks(output) == set()
    assert output["attempts"] == 2
    assert output["distinctKeys"] == 1
    assert sum(phase["ms"] for phase in output["phases"]) == output["budgetMs"] == 5000


def test_a_new_key_per_attempt_is_caught(batch: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    def new_key_every_time(self: object, intent: object) -> str:
        return self.keys.new_key()  # type: ignore[attr-defined]

    monkeypatch.setattr(batch.Client, "key_for_attempt", new_key_every_time)
    output = run(batch, "intent_budget")
    failing = failing_checks(output)
    assert {"keyStableAcrossAttempts", "oneServerEffect"} <= failing
    assert output["distinctKeys"] == output["attempts"] == 2
    assert output["serverEffects"] == 2


def test_a_fresh_timer_per_attempt_is_caught(batch: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    def fresh_timer(self: object, intent: object) -> int:
        return self.now_ms + batch.BUDGET_MS  # type: ignore[attr-defined]

    monkeypatch.setattr(batch.Client, "deadline_for_attempt", fresh_timer)
    output = run(batch, "intent_budget")
    failing = failing_checks(output)
    assert {"deadlineNeverExtended", "phasesAddUpToBudget"} <= failing
    assert output["attempts"] > 2
    assert sum(phase["ms"] for phase in output["phases"]) > output["budgetMs"]
