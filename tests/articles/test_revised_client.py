"""Mutation tests for the corrected client model in ``articles/revised_2026_12.py``.

The second revision of ``retry-client-one-intent-one-key`` says three things its first
revision got wrong: a repeat click must be recognised by the UI event, not by equal
data; an intent closes on a final answer; and the table of observations is what the
client does. These tests run the corrected checks against the first revision's model
(imported from ``retry_2020_06`` as the site loads it) and against the corrected model
broken one way at a time, and assert that the checks turn false. They also hold the
prose to the runs: the numbers it prints move with the model, the figure shows the
run's phases, and the typography uses non-breaking spaces.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest
from article_batch import ROOT, batch_of, failing_checks, run

from site_builder.authoring.body import body_text
from site_builder.model.batches import fixture_id

FIXTURES = (
    "revised_2026_12:client_budget",
    "revised_2026_12:client_intents",
    "revised_2026_12:client_observations",
)
OLD_FIXTURE = "retry_2020_06:intent_budget"


@pytest.fixture(scope="module")
def batch() -> ModuleType:
    """The corrections batch as the site loader imports it."""
    return batch_of(*FIXTURES)


@pytest.fixture(scope="module")
def old() -> ModuleType:
    """The first revision's batch, as the site loader imports it."""
    return batch_of(OLD_FIXTURE)


@pytest.fixture
def first_revision(batch: ModuleType, old: ModuleType) -> Any:
    """A maker of the first revision's client behind the corrected scenarios' interface."""
    return functools.partial(batch.ClientFirstRevision, model=old.Client)


def test_the_fixtures_are_the_ones_the_site_runs(batch: ModuleType) -> None:
    found = {fixture_id(getattr(batch, fid.split(":")[1])) for fid in FIXTURES}
    assert found == set(FIXTURES)


@pytest.mark.parametrize("name", ["client_budget", "client_intents", "client_observations"])
def test_unmutated_model_passes_every_check(batch: ModuleType, name: str) -> None:
    assert failing_checks(run(batch, name)) == set()


# --- The first revision's model fails the corrected checks ------------------


def test_first_revision_glues_equal_payloads(batch: ModuleType, first_revision: Any) -> None:
    output = batch.client_identity_run(first_revision)
    assert {
        "samePayloadAfterFinalIsNewIntent",
        "equalPayloadsTwoActionsTwoKeys",
        "oneEffectPerAction",
    } <= failing_checks(output)
    assert output["distinctKeys"] == 1
    assert output["serverEffects"] == 1


def test_first_revision_did_not_model_the_table(batch: ModuleType, first_revision: Any) -> None:
    output = batch.client_table_run(first_revision)
    assert failing_checks(output) == set(output["checks"])


def test_the_article_shows_what_the_first_revision_did(batch: ModuleType, first_revision: Any) -> None:
    shown = run(batch, "client_intents")["firstRevision"]
    direct = batch.client_identity_run(first_revision)
    assert shown["serverEffects"] == direct["serverEffects"]
    assert shown["failedChecks"] == sorted(failing_checks(direct))


# --- The corrected model, broken one way at a time ---------------------------


def _payload_identity_while_open(batch: ModuleType) -> Any:
    """The first revision's rule on top of the corrected model: an open intent with equal
    data is taken for a repeat click (closing on a final answer is kept)."""
    submit = batch.ClientModel.submit

    def by_payload(self: Any, click: Any) -> Any:
        same = [i for i in self.intents.values() if i.result is None and i.payload == click.payload]
        return same[0] if same else submit(self, click)

    return by_payload


def test_identity_by_payload_is_caught(batch: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(batch.ClientModel, "submit", _payload_identity_while_open(batch))
    output = run(batch, "client_intents")
    assert {"equalPayloadsTwoActionsTwoKeys", "oneEffectPerAction"} <= failing_checks(output)
    # Closing still works, so the other check of the pair still holds: the two are distinct.
    assert output["checks"]["samePayloadAfterFinalIsNewIntent"] is True


def test_identity_by_payload_without_closing_is_caught(
    batch: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    submit = batch.ClientModel.submit

    def by_payload_forever(self: Any, click: Any) -> Any:
        same = [i for i in self.intents.values() if i.payload == click.payload]
        return same[0] if same else submit(self, click)

    monkeypatch.setattr(batch.ClientModel, "submit", by_payload_forever)
    failing = failing_checks(run(batch, "client_intents"))
    assert {"samePayloadAfterFinalIsNewIntent", "equalPayloadsTwoActionsTwoKeys"} <= failing


def test_an_intent_never_closed_is_caught(batch: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(batch.ClientModel, "close", lambda self, intent, result: None)
    assert "noAttemptAfterFinalAnswer" in failing_checks(run(batch, "client_intents"))
    assert "finalAnswerClosesIntent" in failing_checks(run(batch, "client_observations"))


def test_a_new_key_per_attempt_is_caught(batch: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(batch.ClientModel, "key_for_attempt", lambda self, intent: self.keys.new_key())
    output = run(batch, "client_budget")
    assert {"keyStableAcrossAttempts", "oneServerEffect"} <= failing_checks(output)
    assert output["serverEffects"] == 2  # the article: "сервер ... выполнит обе"
    table = failing_checks(run(batch, "client_observations"))
    assert {"timeoutRepeatsSameKey", "conflictRepeatsSameKey"} <= table


def test_a_fresh_timer_per_attempt_is_caught(batch: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        batch.ClientModel, "deadline_for_attempt", lambda self, intent: self.now_ms + batch.BUDGET_MS
    )
    output = run(batch, "client_budget")
    assert {"deadlineNeverExtended", "everyAttemptHadRoom"} <= failing_checks(output)
    assert output["attempts"] == 3  # the article: "третью попытку за пределами 5 000 мс"
    assert output["phasesTotalMs"] > output["budgetMs"]


def test_trying_while_any_time_is_left_is_caught(batch: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the rule "a full timeout and the reserve must fit", a third attempt, cut short
    by the deadline, eats the time of the honest screen."""

    def while_any_time_left(self: Any, intent: Any, wait: int) -> bool:
        left = self.deadline_for_attempt(intent) - self.now_ms
        return intent.attempt < batch.MAX_ATTEMPTS and left > wait

    monkeypatch.setattr(batch.ClientModel, "has_room", while_any_time_left)
    output = run(batch, "client_budget")
    assert {"everyAttemptHadRoom", "reserveKeptForUncertain"} <= failing_checks(output)
    assert output["attempts"] == 3  # the article: "урезанную третью попытку вместо честного экрана"
    assert output["phases"][-2:] == [
        {"phase": "attempt", "ms": batch.BUDGET_MS - 2 * (batch.ATTEMPT_TIMEOUT_MS + batch.PAUSE_MS)},
        {"phase": "uncertain", "ms": 0},
    ]


def test_stopping_while_there_is_room_is_caught(batch: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(batch.ClientModel, "has_room", lambda self, intent, wait: intent.attempt < 1)
    failing = failing_checks(run(batch, "client_budget"))
    assert {"stoppedOnlyWithoutRoom", "keyStableAcrossAttempts"} <= failing


def _react_with(batch: ModuleType, change: dict[int, int]) -> Any:
    """``react`` that answers some statuses with a pause instead of the table's row."""
    react = batch.ClientModel.react

    def mutated(self: Any, intent: Any, seen: Any) -> int:
        if seen.status in change:
            return change[seen.status]
        return int(react(self, intent, seen))

    return mutated


@pytest.mark.parametrize(
    ("change", "caught"),
    [
        ({422: 250, 400: 250}, {"badRequestIsFinal", "validationErrorIsFinal"}),
        (
            {503: 250},
            {"retryAfterSecondsHonoured", "retryAfterDateHonoured", "retryAfterPastBudgetIsUncertain"},
        ),
        ({409: 0}, {"conflictRepeatsSameKey"}),
    ],
    ids=["4xx-repeated", "retry-after-ignored", "409-without-pause"],
)
def test_a_wrong_table_row_is_caught(
    batch: ModuleType, monkeypatch: pytest.MonkeyPatch, change: dict[int, int], caught: set[str]
) -> None:
    monkeypatch.setattr(batch.ClientModel, "react", _react_with(batch, change))
    assert caught <= failing_checks(run(batch, "client_observations"))


def test_retry_after_as_a_date_misread_is_caught(batch: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    def seconds_only(seen: Any) -> int:
        value = seen.retry_after or ""
        return int(value) * 1000 if value.isdigit() else 0

    monkeypatch.setattr(batch, "client_retry_after_ms", seconds_only)
    failing = failing_checks(run(batch, "client_observations"))
    assert failing == {"retryAfterDateHonoured"}


def test_an_answer_without_a_row_stops_the_model(batch: ModuleType) -> None:
    """The article: for a ``500`` the table has no row, "и модель на нём падает"."""
    client = batch.client_new(batch.ClientServer([batch.ClientSeen(500)]))
    intent = client.submit(batch.ClientClick("act-1", batch.CLIENT_ORDER))
    with pytest.raises(ValueError, match="500"):
        client.run(intent)


# --- The prose follows the runs ---------------------------------------------


def test_budget_prose_is_computed_from_the_run(batch: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    shown = batch.client_budget_text(run(batch, "client_budget"))
    assert "250 + 1\u00a0800 + 1\u00a0000 = 3\u00a0050\u00a0мс" in shown
    assert "К отметке 3\u00a0850\u00a0мс остаётся 1\u00a0150\u00a0мс" in shown
    monkeypatch.setattr(batch, "RESERVE_MS", 500)
    moved = batch.client_budget_text(batch.client_budget_run())
    assert "250 + 1\u00a0800 + 500 = 2\u00a0550\u00a0мс" in moved


def test_the_table_column_is_the_model_run(batch: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    rows = batch.client_table_rows(batch.client_table_run()["runs"])
    assert rows[1][3] == "тайм-аут\u00a0→ `201`: пауза 250\u00a0мс, 2\u00a0попытки, закрыто успехом"
    monkeypatch.setattr(batch.ClientModel, "react", _react_with(batch, {422: 250, 400: 250}))
    assert rows != batch.client_table_rows(batch.client_table_run()["runs"])


def test_the_figure_shows_the_run(batch: ModuleType) -> None:
    """The timeline SVG is drawn by hand: its labels must be the run's numbers."""
    svg = (ROOT / "assets/retry/intent-budget-timeline.svg").read_text(encoding="utf-8")
    output = run(batch, "client_budget")
    marks = [p["ms"] for p in output["phases"]] + [output["stop"]["atMs"], output["budgetMs"]]
    marks += [entry["sentAtMs"] for entry in output["log"][1:]]
    for value in marks:
        assert f"{value:,}".replace(",", " ") in svg, value


def _texts(batch: ModuleType) -> Iterator[tuple[str, str]]:
    """Every reader-facing text of the revision, without code and JSON blocks."""
    revision = batch.client_revision
    yield "title", revision.title
    yield "excerpt", revision.excerpt
    yield "changes", batch.CLIENT_CHANGES
    for n, part in enumerate(revision.body):
        yield f"body[{n}]", re.sub(r"<pre>.*?</pre>", " ", str(part), flags=re.S)
    for source in revision.sources:
        yield source.url, f"{source.title} {source.note}"


@pytest.mark.parametrize(
    ("rule", "pattern"),
    [
        ("space before a dash", r"[^\S\u00a0]—"),
        ("space inside a digit group", r"\d[^\S\u00a0]\d{3}\b"),
        ("space between a number and its unit", r"\d[^\S\u00a0](мс|с|₽|секунд\w*)(?!\w)"),
        ("space in an RFC number", r"RFC[^\S\u00a0]\d"),
    ],
)
def test_russian_typography(batch: ModuleType, rule: str, pattern: str) -> None:
    wrong = [(where, m.group()) for where, text in _texts(batch) for m in re.finditer(pattern, text)]
    assert not wrong, f"{rule}: {wrong}"


def test_body_is_within_the_limits(batch: ModuleType) -> None:
    assert 5000 <= len(body_text("\n".join(batch.client_revision.body))) <= 15000
    assert len(batch.client_revision.sources) >= 2
