"""Mutation tests for the server and diagnosis models behind ``articles/retry_2020_06.py``.

Articles 2 and 3 of the batch claim that their fixtures would catch a server
that gets idempotency wrong. Each test below breaks the batch's own code in one
place — the unique key, the reservation, the scope, the fingerprint, the
transaction, the lease, the replay — and checks that the fixture then fails:
a check turns false, or the fixture raises. The unmutated fixtures must pass.
"""

from __future__ import annotations

import html
import json
import re
import sqlite3
import threading
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from article_batch import batch_of, failing_checks, run

from site_builder.model.batches import fixture_id

SQLITE_ID = "retry_2020_06:sqlite_reservation"
MEMORY_ID = "retry_2020_06:lost_response"
SCOPE_KEY = "PRIMARY KEY (actor, operation, idem_key)"
CONFLICT_TARGET = "ON CONFLICT (actor, operation, idem_key) DO NOTHING"


@pytest.fixture
def batch() -> ModuleType:
    """The article module as the site loader imports it."""
    return batch_of(SQLITE_ID, MEMORY_ID)


def mutate(monkeypatch: pytest.MonkeyPatch, batch: ModuleType, name: str, old: str, new: str) -> None:
    """Replace ``old`` by ``new`` in one of the batch's SQL constants; ``old`` must be there."""
    text = getattr(batch, name)
    assert old in text, f"{name} no longer contains {old!r}: update the mutation"
    monkeypatch.setattr(batch, name, text.replace(old, new))


# --- the unmutated models --------------------------------------------------


def test_the_fixtures_are_the_ones_the_site_runs(batch: ModuleType) -> None:
    assert fixture_id(batch.sqlite_reservation) == SQLITE_ID
    assert fixture_id(batch.lost_response) == MEMORY_ID


def test_unmutated_sqlite_reservation_passes_every_check(batch: ModuleType) -> None:
    assert sqlite3.sqlite_version_info >= (3, 35, 0), "RETURNING needs SQLite 3.35 or newer"
    output = run(batch, "sqlite_reservation")
    assert failing_checks(output) == set()
    assert output["race"] == {"owners": 1, "statuses": [201, 409]}
    assert output["retry"]["replayed"] is True
    assert output["otherPayload"]["status"] == 422
    assert [p["count"] for p in output["payments"]] == [1, 1, 1]


def test_unmutated_lost_response_passes_every_check(batch: ModuleType) -> None:
    output = run(batch, "lost_response")
    assert failing_checks(output) == set()
    assert output["effects"] == 1
    assert output["firstAttempt"]["paymentId"] == output["retry"]["paymentId"] == "pay-0001"
    assert output["retry"]["receivedAtMs"] <= batch.BUDGET_MS


def test_the_race_runs_on_a_real_file_with_a_connection_per_thread(
    batch: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[tuple[int, str]] = []
    real_connect = batch.connect

    def recording_connect(path: str) -> sqlite3.Connection:
        opened.append((threading.get_ident(), path))
        return real_connect(path)

    monkeypatch.setattr(batch, "connect", recording_connect)
    assert failing_checks(run(batch, "sqlite_reservation")) == set()
    threads = {thread for thread, _ in opened}
    paths = {path for _, path in opened}
    assert len(opened) == len(threads) == 3  # the setup connection and one per racing attempt
    assert len(paths) == 1
    [path] = paths
    assert path.endswith(".sqlite3") and path != ":memory:"
    assert not Path(path).exists(), "the temporary directory must be gone after the fixture"


def test_the_server_article_shows_the_sql_the_fixture_executes(batch: ModuleType) -> None:
    body = "\n".join(batch.server_revision.body)
    shown = [
        html.unescape(code)
        for code in re.findall(r'<pre><code class="language-sql">(.*?)</code></pre>', body, re.S)
    ]
    assert shown == [
        (batch.IDEMPOTENCY_SCHEMA_SQL + batch.RESERVE_SQL).strip(),
        (batch.TAKEOVER_SQL + batch.COMPLETE_SQL).strip(),
    ]
    assert CONFLICT_TARGET in batch.RESERVE_SQL and "RETURNING" in batch.RESERVE_SQL


# --- mutations of the SQLite model -------------------------------------------


def test_a_table_without_the_unique_key_cannot_take_the_reservation(
    batch: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    mutate(monkeypatch, batch, "IDEMPOTENCY_SCHEMA_SQL", SCOPE_KEY, "CHECK (idem_key <> '')")
    with pytest.raises(sqlite3.OperationalError, match="ON CONFLICT"):
        run(batch, "sqlite_reservation")


def test_a_plain_insert_into_a_table_without_the_key_makes_two_owners(
    batch: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    mutate(monkeypatch, batch, "IDEMPOTENCY_SCHEMA_SQL", SCOPE_KEY, "CHECK (idem_key <> '')")
    mutate(monkeypatch, batch, "RESERVE_SQL", CONFLICT_TARGET + "\n", "")
    output = run(batch, "sqlite_reservation")
    assert {
        "exactlyOneOwner",
        "retryReplaysStoredReply",
        "otherPayloadIsConflict",
        "takeoverOnlyAfterLease",
        "oneEffectPerScope",
    } <= failing_checks(output)
    assert output["race"] == {"owners": 2, "statuses": [201, 201]}


def test_a_scope_without_the_actor_replays_another_clients_payment(
    batch: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    mutate(monkeypatch, batch, "IDEMPOTENCY_SCHEMA_SQL", SCOPE_KEY, "PRIMARY KEY (operation, idem_key)")
    mutate(monkeypatch, batch, "RESERVE_SQL", CONFLICT_TARGET, "ON CONFLICT (operation, idem_key) DO NOTHING")
    mutate(monkeypatch, batch, "LOOKUP_SQL", "actor = :actor AND ", "")
    output = run(batch, "sqlite_reservation")
    assert {"otherActorIsIndependent", "oneEffectPerScope"} <= failing_checks(output)
    assert output["otherActor"]["replayed"] is True
    assert output["otherActor"]["body"]["paymentId"] == output["retry"]["body"]["paymentId"]


def test_skipping_the_fingerprint_comparison_is_caught_by_both_fixtures(
    batch: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(batch, "fingerprint", lambda payload: "same for every payload")
    sqlite_output = run(batch, "sqlite_reservation")
    assert "otherPayloadIsConflict" in failing_checks(sqlite_output)
    assert (
        sqlite_output["otherPayload"]["status"] == 201
    )  # a 1 500 ₽ request answered with the 1 200 ₽ payment
    memory_output = run(batch, "lost_response")
    assert "otherPayloadIsConflict" in failing_checks(memory_output)


def test_an_effect_committed_apart_from_the_record_is_repeated_after_takeover(
    batch: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    def perform_in_two_transactions(
        conn: sqlite3.Connection, req: Any, *, crash_after_effect: bool = False
    ) -> Any:
        cursor = conn.execute(batch.INSERT_PAYMENT_SQL, {"actor": req.actor, **req.payload})  # autocommit
        if crash_after_effect:
            raise batch.SimulatedCrashError(req.request_id)
        reply = batch.Reply(201, {"paymentId": cursor.lastrowid, **req.payload})
        conn.execute(
            batch.COMPLETE_SQL,
            {
                **req.scope(),
                "owner": req.request_id,
                "status": reply.status,
                "body": json.dumps(reply.body),
            },
        )
        return reply

    monkeypatch.setattr(batch, "perform", perform_in_two_transactions)
    output = run(batch, "sqlite_reservation")
    assert {"crashLeftNoEffect", "oneEffectPerScope"} <= failing_checks(output)
    assert output["stuck"]["effectsAfterCrash"] == 1
    assert {"actor": "shop-1", "order": 1043, "count": 2} in output["payments"]


def test_a_takeover_that_ignores_the_lease_is_stopped_by_the_owner_check(
    batch: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The duplicate now steals a live record; the original owner's completion
    # finds another owner and rolls its payment back, so the fixture raises.
    mutate(monkeypatch, batch, "TAKEOVER_SQL", " AND lease_until <= :now", "")
    with pytest.raises(batch.LostLeaseError):
        run(batch, "sqlite_reservation")


# --- mutations of the in-memory model -----------------------------------------


def test_a_service_that_executes_the_effect_again_on_retry_is_caught(
    batch: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(batch.MemoryIdempotencyService, "lookup", lambda self, req: None)
    output = run(batch, "lost_response")
    assert {"retryReplaysSameResult", "exactlyOneEffect", "otherPayloadIsConflict"} <= failing_checks(output)
    assert output["retry"]["paymentId"] != output["firstAttempt"]["paymentId"]
    assert output["effects"] == 3


def test_a_service_that_loses_the_result_before_the_response_is_caught(
    batch: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_handle = batch.MemoryIdempotencyService.handle

    def handle_then_forget(self: Any, req: Any, at_ms: int) -> Any:
        reply, ready_ms = real_handle(self, req, at_ms)
        self.records.clear()  # the result lived only as long as the response did
        return reply, ready_ms

    monkeypatch.setattr(batch.MemoryIdempotencyService, "handle", handle_then_forget)
    output = run(batch, "lost_response")
    assert {"responseLostAfterStore", "retryReplaysSameResult", "exactlyOneEffect"} <= failing_checks(output)
