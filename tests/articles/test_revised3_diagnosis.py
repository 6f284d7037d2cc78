"""Tests for revision 3 of ``retry-diagnosis-lost-response`` (issue 37, item 4 and the Russian
typography of the article).

Revision 2 said that at the client's timeout lanes 2 and 4 look the same on the server, while its
check ``fourDifferentServerStates`` counted four states, because the snapshot it compared held
``ownerWorking``, a flag only the model knows. The first test below recomputes, from a revision's
own fixture output, what an operator can query at the timeout (the record row and the payments)
and holds the revision's state-counting check to that number: it fails on revision 2 and passes
on revision 3. The others check that the fixture runs both SQL forms of part two, that what the
text says about part one's client is a run of part one's client model, that the IETF draft is
cited with its dates, and the typography.
"""

from __future__ import annotations

import json
import re
from types import ModuleType
from typing import Any

import pytest
from article_batch import batch_of, failing_checks, run
from russian_text import PROSE_RULES, text_of

from site_builder.model.batches import fixture_id

FIXTURE_ID = "revised_2026_12_04_diagnosis:diagnosis_lost_response"
REVISION = "diagnosis3_revision"  # with FIXTURE_ID, what to point at revision 2 to see it fail
OBSERVABLE = ("record", "payments")  # what the article's SQL query and a payment count can see
COUNTS = {"two": 2, "three": 3, "four": 4, "five": 5}
DRAFT = "draft-ietf-httpapi-idempotency-key-header"


@pytest.fixture
def batch() -> ModuleType:
    """The batch that publishes revision 3, as the site loader imports it."""
    return batch_of(FIXTURE_ID)


@pytest.fixture
def output(batch: ModuleType) -> dict[str, Any]:
    """What the article's fixture returns."""
    return run(batch, FIXTURE_ID.split(":")[1])


def observable_views(output: dict[str, Any]) -> dict[str, str]:
    """Each lane's server at the first timeout, reduced to what can be queried from outside."""
    return {
        lane: json.dumps({key: outcome["atTimeout"].get(key) for key in OBSERVABLE}, sort_keys=True)
        for lane, outcome in output["outcomes"].items()
    }


def claimed_state_counts(checks: dict[str, bool]) -> dict[str, int]:
    """The checks that name a number of server states, with that number."""
    found = {name: re.match(r"(two|three|four|five)", name) for name in checks if "States" in name}
    return {name: COUNTS[match.group(1)] for name, match in found.items() if match}


# --- item 4a: the check counts what can be observed ------------------------------------


def test_a_state_count_check_counts_only_what_an_operator_can_query(output: dict[str, Any]) -> None:
    views = observable_views(output)
    assert views["crashed"] == views["still-running"]  # what the prose says of lanes 2 and 4
    claims = claimed_state_counts(output["checks"])
    assert claims, "no check says how many states the server shows at the timeout"
    for name, count in claims.items():
        assert output["checks"][name] is True
        assert count == len(set(views.values())), (
            f"{name} says {count}; observable: {len(set(views.values()))}"
        )


def test_the_owner_is_reported_apart_from_the_snapshot(output: dict[str, Any]) -> None:
    for outcome in output["outcomes"].values():
        assert set(outcome["atTimeout"]) == set(OBSERVABLE)
    assert output["outcomes"]["crashed"]["ownerAlive"] is False
    assert output["outcomes"]["still-running"]["ownerAlive"] is True


def test_a_hidden_flag_put_back_into_the_snapshot_is_caught(
    batch: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = batch.Diagnosis3Run.snapshot

    def snapshot_with_the_flag(self: Any) -> None:  # what revision 2 compared
        real(self)
        self.at_timeout = {**self.at_timeout, "ownerWorking": bool(self.open)}

    monkeypatch.setattr(batch.Diagnosis3Run, "snapshot", snapshot_with_the_flag)
    checks = failing_checks(run(batch, "diagnosis_lost_response"))
    assert {"crashedAndStillRunningLookTheSameAtTimeout", "threeObservableStatesAtTimeout"} <= checks


def test_the_prose_states_the_computed_number(batch: ModuleType, output: dict[str, Any]) -> None:
    body = "\n".join(getattr(batch, REVISION).body)
    count = len(set(observable_views(output).values()))
    assert f"в момент тайм-аута {batch.DIAGNOSIS3_WORDS[count]}, а не четыре" in body


# --- item 4b: both SQL forms of part two -------------------------------------------------


def test_every_lane_runs_in_both_sql_forms_and_they_agree(output: dict[str, Any]) -> None:
    assert output["forms"] == ["RETURNING", "changes()"]
    assert failing_checks(output) == set()
    assert {"changesFormPassesEveryCheck", "formsGiveSameOutcomes", "sqliteHasReturning"} <= set(
        output["checks"]
    )


def test_a_broken_2020_form_is_caught(batch: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    # changes() read as "not mine" whatever it says: no attempt of the 2020 form ever owns the key
    monkeypatch.setattr(batch.ServerChangesClaims, "changed_one_row", staticmethod(lambda conn: False))
    checks = failing_checks(run(batch, "diagnosis_lost_response"))
    assert {"changesFormPassesEveryCheck", "formsGiveSameOutcomes"} <= checks


# --- item 4c: what part one's client does after its budget ---------------------------------


def test_part_one_client_sends_nothing_for_a_spent_intent(output: dict[str, Any]) -> None:
    assert output["partOneClient"]["afterAMinute"] == {"result": "uncertain", "sent": 0}
    assert output["checks"]["partOneClientSendsNothingAfterBudget"] is True


def test_a_client_that_resends_a_spent_intent_is_caught(
    batch: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    model = batch.client_new.__globals__["ClientModel"]
    real = model.submit

    def submit_with_a_fresh_budget(self: Any, click: Any) -> Any:  # a click renews a spent intent
        intent = real(self, click)
        intent.deadline_ms, intent.attempt = self.now_ms + batch.BUDGET_MS, 0
        return intent

    monkeypatch.setattr(model, "submit", submit_with_a_fresh_budget)
    output = run(batch, "diagnosis_lost_response")
    assert output["partOneClient"]["afterAMinute"]["sent"] > 0
    assert "partOneClientSendsNothingAfterBudget" in failing_checks(output)


def test_the_resend_is_named_this_articles_assumption(batch: ModuleType) -> None:
    body = "\n".join(getattr(batch, REVISION).body)
    assert "через минуту приложение отправляет его снова" not in body
    assert "допущение" in body and "а не первой части" in body


# --- item 4d: the IETF draft -------------------------------------------------------------


def test_the_draft_is_cited_in_the_body_with_its_dates(batch: ModuleType) -> None:
    article = getattr(batch, REVISION)
    body = re.sub(r"<pre>.*?</pre>", " ", "\n".join(article.body), flags=re.S)
    assert DRAFT in body
    assert "1\u00a0июля 2021\u00a0года" in body and "17\u00a0ноября 2020\u00a0года" in body
    assert any(DRAFT in source.url for source in article.sources)


# --- the revision and its note ---------------------------------------------------------------


def test_it_is_the_third_revision_of_the_article(batch: ModuleType) -> None:
    new = getattr(batch, REVISION)
    old = batch_of("revised_2026_12:diagnosis_lost_response").diagnosis_revision
    assert (new.slug, new.published, new.lang) == (old.slug, old.published, old.lang)
    assert (old.revised, new.revised) == ("2026-12-01", "2026-12-04")
    assert fixture_id(batch.diagnosis_lost_response) == FIXTURE_ID


@pytest.mark.parametrize(
    "item",
    [
        "fourDifferentServerStates",
        "ownerWorking",
        "`RETURNING`",
        "`changes()`",
        "первой части",
        "IETF",
        "§\u00a0",
    ],
)
def test_the_changes_note_lists_each_item(batch: ModuleType, item: str) -> None:
    assert item in getattr(batch, REVISION).changes


# --- Russian typography ----------------------------------------------------------------------


@pytest.mark.parametrize("rule", sorted(PROSE_RULES))
def test_russian_typography(batch: ModuleType, rule: str) -> None:
    assert PROSE_RULES[rule].findall(text_of(getattr(batch, REVISION))) == []
