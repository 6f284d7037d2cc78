"""Mutation tests for the server model behind revision 2 of ``retry-server-idempotency-record``.

The corrected article (``articles/revised_2026_12.py``) claims that its fixture runs every
scenario in two SQL forms (``RETURNING``, which SQLite has only since 3.35.0, and the 2020 form
with ``changes()``), checks the SQLite version it runs on, and races two takeovers of one
expired lease. Each test below breaks the batch's own code in one place and checks that the
fixture then fails: a check turns false, or the fixture raises. The unmutated fixture passes.
"""

from __future__ import annotations

import html
import re
import sqlite3
import threading
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from article_batch import batch_of, failing_checks, run
from server_mutations import mutate, perform_in_two_transactions

from site_builder.model.batches import fixture_id

FIXTURE_ID = "revised_2026_12:server_sqlite_reservation"
TAKEOVER_ID = "revised_2026_12:server_takeover_race"
SCOPE_KEY = "PRIMARY KEY (actor, operation, idem_key)"
CONFLICT_TARGET = "ON CONFLICT (actor, operation, idem_key) DO NOTHING"
LEASE_CONDITION = " AND lease_until <= :now"
RESERVATION_CHECKS = {
    "exactlyOneOwner",
    "duplicateSawInProgress",
    "retryReplaysStoredReply",
    "otherPayloadIsConflict",
    "otherActorIsIndependent",
    "crashLeftNoEffect",
    "takeoverOnlyAfterLease",
    "oneEffectPerScope",
}
TAKEOVER_CHECKS = {"oneOfTwoTakeoversWins", "takeoverRaceOneEffect"}
FORMS_CHECKS = {"sqliteHasReturning", "changesFormPassesEveryCheck", "formsGiveSameOutcomes"}


@pytest.fixture
def batch() -> ModuleType:
    """The corrections batch as the site loader imports it."""
    return batch_of(FIXTURE_ID, TAKEOVER_ID)


def shown_code(revision: Any, language: str) -> list[str]:
    """The code blocks of one language in a revision's body, as the reader sees them."""
    body = "\n".join(revision.body)
    pattern = rf'<pre><code class="language-{language}">(.*?)</code></pre>'
    return [html.unescape(code) for code in re.findall(pattern, body, re.S)]


# --- the unmutated model -----------------------------------------------------


def test_the_fixtures_are_the_ones_the_site_runs(batch: ModuleType) -> None:
    assert fixture_id(batch.server_sqlite_reservation) == FIXTURE_ID
    assert fixture_id(batch.server_takeover_race) == TAKEOVER_ID


def test_unmutated_fixtures_pass_every_check_in_both_forms(batch: ModuleType) -> None:
    assert sqlite3.sqlite_version_info >= (3, 35, 0), "the RETURNING form needs SQLite 3.35.0 or newer"
    output = run(batch, "server_sqlite_reservation")
    assert failing_checks(output) == set()
    assert set(output["checks"]) == RESERVATION_CHECKS | FORMS_CHECKS
    assert output["sqlite"] == {"returningSince": "3.35.0", "forms": ["RETURNING", "changes()"]}
    assert output["race"] == {"owners": 1, "statuses": [201, 409]}
    takeovers = run(batch, "server_takeover_race")
    assert failing_checks(takeovers) == set()
    assert set(takeovers["checks"]) == TAKEOVER_CHECKS | FORMS_CHECKS
    assert takeovers["takeoverRace"] == {
        "runs": batch.SERVER_TAKEOVER_RACES,
        "winners": [1],
        "statuses": [[201, 409]],
        "paymentsPerKey": [1],
    }


@pytest.mark.parametrize("scenarios", ["server_scenarios", "server_takeover_races"])
def test_both_forms_give_the_same_outcomes_on_their_own(batch: ModuleType, scenarios: str) -> None:
    returning = getattr(batch, scenarios)(batch.ServerReturningClaims())
    changes = getattr(batch, scenarios)(batch.ServerChangesClaims())
    assert failing_checks(returning) == failing_checks(changes) == set()
    assert {k: v for k, v in returning.items() if k != "checks"} == {
        k: v for k, v in changes.items() if k != "checks"
    }


@pytest.mark.parametrize(("name", "races"), [("server_sqlite_reservation", 1), ("server_takeover_race", 10)])
def test_races_run_on_a_real_file_with_a_connection_per_thread(
    batch: ModuleType, monkeypatch: pytest.MonkeyPatch, name: str, races: int
) -> None:
    opened: list[tuple[int, str]] = []
    real_connect = batch.connect

    def recording_connect(path: str) -> sqlite3.Connection:
        opened.append((threading.get_ident(), path))
        return real_connect(path)

    monkeypatch.setattr(batch, "connect", recording_connect)
    assert failing_checks(run(batch, name)) == set()
    main = threading.get_ident()
    paths = {path for _, path in opened}
    assert len(paths) == 2  # one database file per SQL form
    for path in paths:
        assert path.endswith(".sqlite3") and not Path(path).exists()
        racing = [thread for thread, p in opened if p == path and thread != main]
        assert len(racing) == 2 * races  # two threads per race, each with its own connection


def test_the_article_shows_the_code_the_fixture_executes(batch: ModuleType) -> None:
    article = batch.server_revision
    assert shown_code(article, "sql") == [
        (batch.IDEMPOTENCY_SCHEMA_SQL + batch.RESERVE_SQL).strip(),
        (
            batch.SERVER_RESERVE_2020_SQL
            + batch.SERVER_CHANGES_SQL
            + batch.SERVER_TAKEOVER_2020_SQL
            + batch.SERVER_CHANGES_SQL
        ).strip(),
        (batch.TAKEOVER_SQL + batch.COMPLETE_SQL).strip(),
    ]
    [python] = shown_code(article, "python")
    assert "def reserve_or_reply(" in python and "def perform(" in python
    assert "RETURNING" in batch.RESERVE_SQL and "RETURNING" in batch.TAKEOVER_SQL
    assert "RETURNING" not in batch.SERVER_RESERVE_2020_SQL + batch.SERVER_TAKEOVER_2020_SQL


def test_the_article_states_the_sqlite_version_and_cites_sqlite_org(batch: ModuleType) -> None:
    article = batch.server_revision
    text = " ".join(article.body)
    assert "3.35.0" in text and "3.24.0" in text and "changes()" in text
    urls = {source.url for source in article.sources}
    assert "https://www.sqlite.org/lang_returning.html" in urls
    assert "https://www.sqlite.org/releaselog/3_35_0.html" in urls
    assert "https://datatracker.ietf.org/doc/draft-ietf-httpapi-idempotency-key-header/" in urls
    assert "https://docs.stripe.com/api/errors" in urls
    assert "https://www.rfc-editor.org/rfc/rfc7230.html#section-6.3.1" in urls


# --- mutations ---------------------------------------------------------------


def test_an_sqlite_without_returning_fails_the_version_check(
    batch: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    # SQLite 3.31.1 (January 2020) has no RETURNING: the fixtures run the 2020 form only and say so.
    monkeypatch.setattr(sqlite3, "sqlite_version_info", (3, 31, 1))
    for name in ("server_sqlite_reservation", "server_takeover_race"):
        output = run(batch, name)
        assert failing_checks(output) == {"sqliteHasReturning", "formsGiveSameOutcomes"}
        assert output["sqlite"]["forms"] == ["changes()"]


def test_a_table_without_the_unique_key_cannot_take_the_reservation(
    batch: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    mutate(monkeypatch, batch, "IDEMPOTENCY_SCHEMA_SQL", SCOPE_KEY, "CHECK (idem_key <> '')")
    with pytest.raises(sqlite3.OperationalError, match="ON CONFLICT"):
        run(batch, "server_sqlite_reservation")


def test_a_plain_insert_into_a_table_without_the_key_makes_two_owners(
    batch: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    mutate(monkeypatch, batch, "IDEMPOTENCY_SCHEMA_SQL", SCOPE_KEY, "CHECK (idem_key <> '')")
    mutate(monkeypatch, batch, "RESERVE_SQL", CONFLICT_TARGET + "\n", "")
    mutate(monkeypatch, batch, "SERVER_RESERVE_2020_SQL", "\n" + CONFLICT_TARGET, "")
    output = run(batch, "server_sqlite_reservation")
    assert {"exactlyOneOwner", "oneEffectPerScope", "changesFormPassesEveryCheck"} <= failing_checks(output)
    assert output["race"] == {"owners": 2, "statuses": [201, 201]}


def test_a_scope_without_the_actor_replays_another_clients_payment(
    batch: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    mutate(monkeypatch, batch, "IDEMPOTENCY_SCHEMA_SQL", SCOPE_KEY, "PRIMARY KEY (operation, idem_key)")
    for name in ("RESERVE_SQL", "SERVER_RESERVE_2020_SQL"):
        mutate(monkeypatch, batch, name, CONFLICT_TARGET, "ON CONFLICT (operation, idem_key) DO NOTHING")
    mutate(monkeypatch, batch, "LOOKUP_SQL", "actor = :actor AND ", "")
    output = run(batch, "server_sqlite_reservation")
    assert {"otherActorIsIndependent", "oneEffectPerScope", "changesFormPassesEveryCheck"} <= failing_checks(
        output
    )
    assert output["otherActor"]["replayed"] is True


def test_skipping_the_fingerprint_comparison_is_caught(
    batch: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(batch, "fingerprint", lambda payload: "same for every payload")
    output = run(batch, "server_sqlite_reservation")
    assert "otherPayloadIsConflict" in failing_checks(output)
    assert output["otherPayload"]["status"] == 201  # a 1 500 ₽ request answered with the 1 200 ₽ payment


def test_an_effect_committed_apart_from_the_record_is_repeated_after_takeover(
    batch: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(batch.ServerIdempotency, "perform", perform_in_two_transactions(batch))
    output = run(batch, "server_sqlite_reservation")
    assert {"crashLeftNoEffect", "oneEffectPerScope"} <= failing_checks(output)
    assert output["stuck"]["effectsAfterCrash"] == 1
    takeovers = run(batch, "server_takeover_race")
    assert "takeoverRaceOneEffect" in failing_checks(takeovers)
    assert takeovers["takeoverRace"]["paymentsPerKey"] == [2]


def test_a_takeover_that_ignores_the_lease_lets_both_takeovers_win(
    batch: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("TAKEOVER_SQL", "SERVER_TAKEOVER_2020_SQL"):
        mutate(monkeypatch, batch, name, LEASE_CONDITION, "")
    assert "takeoverOnlyAfterLease" in failing_checks(run(batch, "server_sqlite_reservation"))
    output = run(batch, "server_takeover_race")
    assert failing_checks(output) == {"oneOfTwoTakeoversWins", "changesFormPassesEveryCheck"}
    # Both "win"; the owner check at completion still rolls the first one's payment back.
    assert output["takeoverRace"]["winners"] == [2]
    assert output["takeoverRace"]["statuses"] == [[201, "rolled-back"]]
    assert output["takeoverRace"]["paymentsPerKey"] == [1]


def test_a_takeover_race_broken_in_one_form_only_breaks_the_equivalence(
    batch: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    mutate(monkeypatch, batch, "SERVER_TAKEOVER_2020_SQL", LEASE_CONDITION, "")
    for name in ("server_sqlite_reservation", "server_takeover_race"):
        output = run(batch, name)
        assert failing_checks(output) == {"changesFormPassesEveryCheck", "formsGiveSameOutcomes"}


def test_a_2020_form_that_ignores_changes_is_stopped_only_by_the_owner_check(
    batch: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every attempt now thinks the row is its own: the honest retry re-runs the payment, and only
    # the owner check at completion (the record is already completed) rolls it back, so the fixture
    # fails with that error instead of replaying the stored reply.
    monkeypatch.setattr(batch.ServerChangesClaims, "changed_one_row", staticmethod(lambda conn: True))
    with pytest.raises(batch.LostLeaseError):
        run(batch, "server_sqlite_reservation")
