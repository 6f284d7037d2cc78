"""Tests for revision 2 of ``retry-diagnosis-lost-response`` (and the typography of both of
this part's revisions).

The corrected article claims that its fixture runs part two's real server model (the same
``reserve_or_reply`` and ``perform``, lease and transaction, on an SQLite file) and that one
client timeout hides four outcomes. The tests break the *server* model and see the diagnosis
fixture's checks turn false, which a copy of the model could not do; they check that the numbers
the prose and the new figure name are the ones the traces show; and that the Russian text uses
non-breaking spaces where Russian typography requires them.
"""

from __future__ import annotations

import re
from collections import Counter
from types import ModuleType
from typing import Any

import pytest
from article_batch import ROOT, batch_of, failing_checks, run
from server_mutations import mutate, perform_in_two_transactions

from site_builder.model.batches import fixture_id

FIXTURE_ID = "revised_2026_12:diagnosis_lost_response"
SERVER_ID = "revised_2026_12:server_sqlite_reservation"
FIGURE = "/assets/retry/four-outcomes-timeline.svg"
OLD_FIGURE = "/assets/retry/three-outcomes-timeline.svg"


@pytest.fixture
def batch() -> ModuleType:
    """The corrections batch as the site loader imports it."""
    return batch_of(FIXTURE_ID, SERVER_ID)


# --- the unmutated model -----------------------------------------------------


def test_the_fixture_is_the_one_the_site_runs(batch: ModuleType) -> None:
    assert fixture_id(batch.diagnosis_lost_response) == FIXTURE_ID


def test_unmutated_fixture_passes_every_check(batch: ModuleType) -> None:
    output = run(batch, "diagnosis_lost_response")
    assert failing_checks(output) == set()
    assert list(output["outcomes"]) == ["not-delivered", "crashed", "response-lost", "still-running"]
    assert all(outcome["payments"] == 1 for outcome in output["outcomes"].values())
    assert output["outcomes"]["still-running"]["client"] == ["timeout", 409, 201]


def test_the_diagnosis_calls_the_server_model_of_part_two(
    batch: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: Counter[str] = Counter()
    for name in ("reserve_or_reply", "perform"):
        real = getattr(batch.ServerIdempotency, name)

        def counting(self: Any, *args: Any, _real: Any = real, _name: str = name, **kwargs: Any) -> Any:
            calls[_name] += 1
            return _real(self, *args, **kwargs)

        monkeypatch.setattr(batch.ServerIdempotency, name, counting)
    assert failing_checks(run(batch, "diagnosis_lost_response")) == set()
    # attempts that reached the server (1 + 3 + 2 + 3: the first request of lane 1 is lost) and
    # the four 1 500 ₽ probes
    assert calls["reserve_or_reply"] == 13
    # owners' transactions: one per lane, plus the crashed owner's before its takeover
    assert calls["perform"] == 5


# --- mutations of the server model, caught by the diagnosis ----------------------


def test_a_takeover_that_ignores_the_lease_hides_the_fourth_outcome(
    batch: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    mutate(monkeypatch, batch, "TAKEOVER_SQL", " AND lease_until <= :now", "")
    output = run(batch, "diagnosis_lost_response")
    # The retry steals the live record and answers 201 instead of 409; the owner's own
    # transaction is then rolled back by the owner check.
    assert {"stillRunningAnswers409", "crashAndStillRunningLookAlike"} <= failing_checks(output)
    assert output["outcomes"]["still-running"]["client"] == ["timeout", 201]
    assert output["outcomes"]["still-running"]["createdBy"] == "req-02"


def test_an_effect_committed_apart_from_the_record_doubles_the_crashed_payment(
    batch: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(batch.ServerIdempotency, "perform", perform_in_two_transactions(batch))
    output = run(batch, "diagnosis_lost_response")
    assert failing_checks(output) == {"exactlyOneEffectPerLane"}
    assert output["outcomes"]["crashed"]["atTimeout"]["payments"] == 1  # the crash left a payment
    assert output["outcomes"]["crashed"]["payments"] == 2  # and the takeover made a second one


def test_a_server_without_the_fingerprint_check_is_caught(
    batch: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(batch, "fingerprint", lambda payload: "same for every payload")
    output = run(batch, "diagnosis_lost_response")
    assert failing_checks(output) == {"otherPayloadIsConflict"}


def test_prose_numbers_that_drift_from_the_model_are_caught(
    batch: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The prose takes its numbers from diagnosis_milestones(); if that arithmetic no longer
    # matches what the model does (here: the lanes keep their 60 ms of work), the check fails.
    monkeypatch.setattr(batch, "WORK_MS", 90)
    output = run(batch, "diagnosis_lost_response")
    assert failing_checks(output) == {"milestonesMatchTraces"}


# --- the article and its figure ---------------------------------------------------


def test_the_article_shows_four_outcomes_and_a_new_four_lane_figure(batch: ModuleType) -> None:
    article = batch.diagnosis_revision
    body = "\n".join(article.body)
    assert "Четыре исхода за одним тайм-аутом" in body
    assert body.count("<li><strong>") >= 4
    assert f'src="{FIGURE}"' in body and OLD_FIGURE not in body
    svg = (ROOT / FIGURE.lstrip("/")).read_text(encoding="utf-8")
    assert svg.count(">клиент<") == svg.count(">сервер<") == 4
    assert "prefers-color-scheme: dark" in svg


def test_the_figure_names_the_numbers_the_traces_show(batch: ModuleType) -> None:
    svg = (ROOT / FIGURE.lstrip("/")).read_text(encoding="utf-8")
    shown = {int(re.sub(r"\D", "", number)) for number in re.findall(r"(\d[\d\u00a0 ]*) мс", svg)}
    milestones = run(batch, "diagnosis_lost_response")["milestones"]
    assert shown == {milestones["storedAtMs"], milestones["timeoutAtMs"], milestones["slowStoredAtMs"]}


def test_the_old_revision_and_its_figure_are_untouched() -> None:
    old = batch_of("retry_2020_06:lost_response")
    assert f'src="{OLD_FIGURE}"' in "\n".join(old.diagnosis_revision.body)
    assert (ROOT / OLD_FIGURE.lstrip("/")).read_text(encoding="utf-8").count(">клиент<") == 3


# --- Russian typography of both revisions ------------------------------------------

PROSE_RULES = {
    "a breakable space before an em dash": re.compile(r"[^\S\u00a0]—"),
    "a breakable space inside a digit group": re.compile(r"\d[^\S\u00a0]\d{3}\b"),
    "a breakable space between a number and its unit": re.compile(r"\d[^\S\u00a0](мс|с|₽|часа|часов|года)\b"),
    "a breakable space in an RFC number": re.compile(r"RFC[^\S\u00a0]\d"),
}


def prose_of(revision: Any) -> str:
    """What a reader reads as text: the body without code blocks, the notes, the changes note."""
    body = re.sub(r"<pre>.*?</pre>", " ", "\n".join(revision.body), flags=re.S)
    notes = " ".join(f"{source.title} {source.note}" for source in revision.sources)
    return f"{revision.title} {revision.excerpt} {body} {notes} {revision.changes}"


@pytest.mark.parametrize("name", ["server_revision", "diagnosis_revision"])
@pytest.mark.parametrize("rule", sorted(PROSE_RULES))
def test_russian_typography(batch: ModuleType, name: str, rule: str) -> None:
    found = [match.group(0) for match in PROSE_RULES[rule].finditer(prose_of(getattr(batch, name)))]
    assert found == [], f"{name}: {rule}"
