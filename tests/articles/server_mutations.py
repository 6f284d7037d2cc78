"""Ways to break the corrected server model of ``articles/revised_2026_12.py`` that both the
server and the diagnosis tests use."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest


def mutate(monkeypatch: pytest.MonkeyPatch, batch: ModuleType, name: str, old: str, new: str) -> None:
    """Replace ``old`` by ``new`` in one of the batch's SQL constants; ``old`` must be there."""
    text = getattr(batch, name)
    assert old in text, f"{name} no longer contains {old!r}: update the mutation"
    monkeypatch.setattr(batch, name, text.replace(old, new))


def perform_in_two_transactions(batch: ModuleType) -> Callable[..., Any]:
    """A ``ServerIdempotency.perform`` that commits the payment on its own, before the record."""

    def perform(self: Any, conn: sqlite3.Connection, req: Any, *, crash_after_effect: bool = False) -> Any:
        cursor = conn.execute(batch.INSERT_PAYMENT_SQL, {"actor": req.actor, **req.payload})  # autocommit
        if crash_after_effect:
            raise batch.SimulatedCrashError(req.request_id)
        reply = batch.Reply(201, {"paymentId": cursor.lastrowid, **req.payload})
        record = {**req.scope(), "owner": req.request_id, "status": 201, "body": json.dumps(reply.body)}
        conn.execute(batch.COMPLETE_SQL, record)
        return reply

    return perform
