"""Mutation tests for the corrected retry decision (``decision_`` part of ``articles/revised_2026_12.py``).

The second revision of ``retry-decision-one-question`` claims that its fixtures catch a
worker that re-sends ``after_fix`` forever (or sends an approval older than its maximum
age), one that records "sent" after the dispatch or forgets an in-flight send when it
restarts, and one whose ``again`` sends a different number of times than the text says;
the checks it kept from revision 1 still catch a folded ``after_fix``, retries for
undeclared connectors, another ladder and a guessed outlook. These tests break the
batch's own code in exactly those ways, and run the first revision's decision function
through the corrected checks, and see the checks turn false.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from article_batch import ROOT, batch_of, failing_checks, run

from site_builder.model.batches import fixture_id

FIXTURE_IDS = (
    "revised_2026_12:decision_table",
    "revised_2026_12:decision_lifetimes",
    "revised_2026_12:decision_crashes",
)
NAMES = tuple(fid.split(":")[1] for fid in FIXTURE_IDS)


@pytest.fixture
def batch() -> ModuleType:
    """The corrections batch as the site loader imports it."""
    return batch_of(*FIXTURE_IDS)


def failing(batch: ModuleType, name: str) -> set[str]:
    return failing_checks(run(batch, name))


def first_revision_decide(batch: ModuleType) -> Any:
    """The decision function of revision 1 (``retry_decision.decide``), called with the new inputs:
    it ignores the approval's age."""
    old = batch.decision_v1.decide

    def decide(state: str, outlook: Any, failed: int, declared: bool, since: int, age_s: int) -> Any:
        decision = old(state, outlook, failed, declared, since)
        return batch.Decision(decision.action, decision.wait, decision.reason)

    return decide


# --- the unmutated batch -------------------------------------------------------


def test_the_fixtures_are_the_ones_the_site_runs(batch: ModuleType) -> None:
    found = tuple(fixture_id(getattr(batch, name)) for name in NAMES)
    assert found == FIXTURE_IDS


@pytest.mark.parametrize("name", NAMES)
def test_unmutated_batch_passes_every_check(batch: ModuleType, name: str) -> None:
    assert failing(batch, name) == set()


def test_the_runs_the_text_quotes(batch: ModuleType) -> None:
    lifetimes = run(batch, "decision_lifetimes")
    assert lifetimes["againSentAt"] == [0, 30, 150, 750]
    assert lifetimes["sendBudget3SentAt"] == [0, 30, 150]
    assert (
        lifetimes["runs"]["neverFixed"]["lastSentAt"] < 24 * 3600 <= lifetimes["runs"]["neverFixed"]["endAt"]
    )
    reasons = {row.split()[-1] for row in run(batch, "decision_table")["table"]}
    assert reasons == set(batch.DECISION_REASONS)


# --- item 1: an approval has a maximum age -------------------------------------------


def test_the_first_revision_fails_the_age_checks(batch: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(batch, "decision_of", first_revision_decide(batch))
    assert {"afterFixStopsWithin24h", "staleApprovalNeverSent"} <= failing(batch, "decision_lifetimes")
    assert "staleApprovalAlwaysExpires" in failing(batch, "decision_table")


@pytest.mark.parametrize("days", [7, 30], ids=["a-week", "a-month"])
def test_a_longer_maximum_age_is_caught(
    batch: ModuleType, monkeypatch: pytest.MonkeyPatch, days: int
) -> None:
    monkeypatch.setattr(batch, "DECISION_MAX_AGE_S", days * 24 * 3600)
    assert "afterFixStopsWithin24h" in failing(batch, "decision_lifetimes")
    assert "staleApprovalAlwaysExpires" in failing(batch, "decision_table")


def test_a_maximum_age_the_late_fix_outlives_is_caught(
    batch: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(batch, "DECISION_MAX_AGE_S", 30 * 24 * 3600)
    assert "staleApprovalNeverSent" in failing(batch, "decision_lifetimes")


def test_a_first_send_that_ignores_the_age_is_caught(
    batch: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = batch.decision_of

    def sends_old_approvals(state: str, *rest: Any) -> Any:
        if state == "approved":
            return batch.Decision("send", 0, "first_attempt")
        return original(state, *rest)

    monkeypatch.setattr(batch, "decision_of", sends_old_approvals)
    assert "staleApprovalNeverSent" in failing(batch, "decision_lifetimes")
    assert "staleApprovalAlwaysExpires" in failing(batch, "decision_table")


# --- item 2: "sent" is recorded before the dispatch ----------------------------------


@pytest.mark.parametrize(
    "order",
    [("dispatch", "record_result"), ("dispatch", "record_sending", "record_result")],
    ids=["no-sending-record", "sending-recorded-after-dispatch"],
)
def test_recording_sent_after_the_dispatch_is_caught(
    batch: ModuleType, monkeypatch: pytest.MonkeyPatch, order: tuple[str, ...]
) -> None:
    monkeypatch.setattr(batch, "DECISION_SEND_ORDER", order)
    failing_now = failing(batch, "decision_crashes")
    assert {"firstAttemptOnlyWhenNothingReceived", "undeclaredReceivedAtMostOnce"} <= failing_now


@pytest.mark.parametrize(
    ("read_as", "caught"),
    [
        ("approved", {"firstAttemptOnlyWhenNothingReceived", "undeclaredReceivedAtMostOnce"}),
        ("done", {"declaredAlwaysDelivered"}),
    ],
    ids=["forgets-the-in-flight-send", "assumes-it-arrived"],
)
def test_a_restart_that_misreads_an_in_flight_send_is_caught(
    batch: ModuleType, monkeypatch: pytest.MonkeyPatch, read_as: str, caught: set[str]
) -> None:
    def misreads(record: Any) -> Any:
        return replace(record, state=read_as) if record.state == "sending" else record

    monkeypatch.setattr(batch, "decision_recover", misreads)
    assert caught <= failing(batch, "decision_crashes")


def test_a_counterpart_that_cannot_receive_twice_fails_the_contrast(
    batch: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The duplicate the dispatch-first worker makes is found by running it, not assumed."""
    original = batch.decision_send

    def at_most_once(store: Any, inbox: list[int], *rest: Any) -> None:
        try:
            original(store, inbox, *rest)
        finally:
            del inbox[1:]

    monkeypatch.setattr(batch, "decision_send", at_most_once)
    assert "dispatchFirstWouldDuplicate" in failing(batch, "decision_crashes")


# --- item 3: how many times again sends ---------------------------------------------


def test_a_budget_of_three_sends_is_caught(batch: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker with a budget of three sends (an ``attempts-spent`` rule) stops one send before the text."""
    original = batch.decision_of

    def three_sends(state: str, outlook: Any, failed: int, *rest: Any) -> Any:
        if state == "failed" and failed >= 3:
            return batch.Decision("hold", None, "attempts_spent")
        return original(state, outlook, failed, *rest)

    monkeypatch.setattr(batch, "decision_of", three_sends)
    assert "againSendsFourTimesThenStops" in failing(batch, "decision_lifetimes")


@pytest.mark.parametrize("ladder", [(30, 120), (30, 120, 600, 1800)], ids=["three-sends", "five-sends"])
def test_another_number_of_sends_is_caught(
    batch: ModuleType, monkeypatch: pytest.MonkeyPatch, ladder: tuple[int, ...]
) -> None:
    monkeypatch.setattr(batch, "DECISION_BACKOFF_S", ladder)
    assert "againSendsFourTimesThenStops" in failing(batch, "decision_lifetimes")


# --- the checks kept from revision 1 ------------------------------------------------


def test_folding_after_fix_by_a_count_is_caught(batch: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    original = batch.decision_of

    def folds_after_fix(state: str, outlook: Any, attempts_failed: int, *rest: Any) -> Any:
        if state == "failed" and outlook == batch.DECISION_AFTER_FIX and attempts_failed > 3:
            return batch.Decision("hold", None, "after_fix_exhausted")
        return original(state, outlook, attempts_failed, *rest)

    monkeypatch.setattr(batch, "decision_of", folds_after_fix)
    assert {"afterFixNeverFolds", "onlyAgainFolds"} <= failing(batch, "decision_table")


def test_retrying_undeclared_connectors_is_caught(batch: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    original = batch.decision_of

    def ignores_declaration(state: str, outlook: Any, failed: int, declared: bool, *rest: Any) -> Any:
        return original(state, outlook, failed, True, *rest)

    monkeypatch.setattr(batch, "decision_of", ignores_declaration)
    assert "retryNeedsDeclaredIdempotency" in failing(batch, "decision_table")
    assert "undeclaredReceivedAtMostOnce" in failing(batch, "decision_crashes")


@pytest.mark.parametrize(
    "ladder",
    [(10, 60, 300), (30, 120, 600, 1800), (30, 120), (60, 120, 600)],
    ids=["shorter", "fourth-step", "no-ten-minutes", "first-step-60s"],
)
def test_a_different_backoff_ladder_is_caught(
    batch: ModuleType, monkeypatch: pytest.MonkeyPatch, ladder: tuple[int, ...]
) -> None:
    monkeypatch.setattr(batch, "DECISION_BACKOFF_S", ladder)
    assert "backoffIs30s2m10mThenStop" in failing(batch, "decision_table")


def test_treating_unknown_outlook_as_again_is_caught(
    batch: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = batch.decision_of

    def guesses_again(state: str, outlook: Any, *rest: Any) -> Any:
        return original(state, outlook if outlook in batch.DECISION_OUTLOOKS else batch.DECISION_AGAIN, *rest)

    monkeypatch.setattr(batch, "decision_of", guesses_again)
    assert "unknownNeverRetried" in failing(batch, "decision_table")


@pytest.mark.parametrize("dropped", ["never", "expired"])
def test_a_branch_the_table_misses_is_caught(
    batch: ModuleType, monkeypatch: pytest.MonkeyPatch, dropped: str
) -> None:
    kept = tuple(
        row
        for row in batch.DECISION_TABLE
        if not (row[1] == dropped or (dropped == "expired" and row[5] >= batch.DECISION_MAX_AGE_S))
    )
    monkeypatch.setattr(batch, "DECISION_TABLE", kept)
    assert "everyBranchCovered" in failing(batch, "decision_table")


# --- item 4 and the text --------------------------------------------------------------


def _text(batch: ModuleType) -> str:
    revision = batch.decision_revision
    return "\n".join([revision.title, revision.excerpt, *map(str, revision.body)])


def test_deterministic_is_gyeoljeongnonjeok(batch: ModuleType) -> None:
    text = _text(batch)
    assert "결정적" not in text
    assert "결정론적" in text


def test_it_is_the_second_revision_of_the_published_article(batch: ModuleType) -> None:
    first, second = batch.decision_v1.the_revision, batch.decision_revision
    assert (second.slug, second.published) == (first.slug, first.published)
    assert (second.revised, first.revised) == ("2026-12-01", None)
    assert second.changes == batch.DECISION_CHANGES


def test_the_changes_note_is_one_or_two_sentences(batch: ModuleType) -> None:
    note = batch.DECISION_CHANGES
    sentences = [s for s in re.split(r"(?<=다\.)\s+", note.strip()) if s]
    assert 1 <= len(sentences) <= 2, sentences
    assert "결정론적" in note


def test_the_figure_says_what_the_runs_say(batch: ModuleType) -> None:
    svg = (ROOT / "assets/retry_decision/decision-flow-2026-12.svg").read_text(encoding="utf-8")
    hours = batch.DECISION_MAX_AGE_S // 3600
    sends = len(run(batch, "decision_lifetimes")["againSentAt"])
    assert f"승인 뒤 {hours}시간" in svg
    assert f">n={sends}<" in svg
    assert f"전송 {sends}<" in svg
    assert Path(ROOT / batch.decision_revision.cover.lstrip("/")).is_file()
