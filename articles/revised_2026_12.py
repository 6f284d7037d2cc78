"""Исправления 1 декабря 2026 года: вторые редакции статей серии «Повтор без второго эффекта».

Части ``server_`` и ``diagnosis_``. Модель сервера — та же запись идемпотентности, что в
retry_2020_06, но её SQL исполняется в двух формах: с ``RETURNING`` (SQLite 3.35.0 и новее) и без
него, как его можно было исполнить в 2020 году; фикстура сравнивает формы, проверяет версию SQLite и
гоняет два перехвата одной истёкшей аренды. Разбор «ответ потерян» исполняет эту же модель на файле
SQLite, а не её копию, и показывает четыре исхода за одним тайм-аутом. Время — целые миллисекунды.
"""

from __future__ import annotations

import contextlib
import heapq
import inspect
import json
import os
import sqlite3
import tempfile
import textwrap
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from retry_2020_06 import (
    ATTEMPT_TIMEOUT_MS,
    BRANDUR_IDEMPOTENCY,
    BUDGET_MS,
    COMPLETE_SQL,
    DOWNLINK_MS,
    IDEMPOTENCY_SCHEMA_SQL,
    INSERT_PAYMENT_SQL,
    LOOKUP_SQL,
    MAX_ATTEMPTS,
    PAUSE_MS,
    PAYMENT_SCHEMA_SQL,
    POSTGRES_INSERT,
    RESERVE_MS,
    RESERVE_SQL,
    STRIPE_REQUEST_IDS,
    TAKEOVER_SQL,
    UPLINK_MS,
    WORK_MS,
    LostLeaseError,
    Reply,
    Request,
    SimulatedCrashError,
    Trace,
    connect,
    fetch,
    fingerprint,
)

from site_builder import (
    Source,
    code_block,
    data_table,
    figure,
    fixture,
    heading,
    ordered_list,
    paragraph,
    revision,
    unordered_list,
    verified_output,
)

# === Часть вторая, редакция 2: сервер =======================================

SERVER_LEASE_MS = 30_000  # столько попытка-владелец держит запись в in_progress
SERVER_RETENTION_MS = 24 * 3600 * 1000  # столько живёт запись: много дольше любого окна повторов
SERVER_RETURNING_SINCE = (3, 35, 0)  # первая версия SQLite с RETURNING (2021-03-12)
SERVER_TAKEOVER_RACES = 10  # сколько раз фикстура гоняет два перехвата одной брошенной записи

# Форма 2020 года: те же операторы без RETURNING; чья строка — говорит changes() соединения.
SERVER_RESERVE_2020_SQL = """
INSERT INTO idempotency_record
       (actor, operation, idem_key, fingerprint, state, owner, lease_until, expires_at)
VALUES (:actor, :operation, :key, :fingerprint, 'in_progress', :owner,
        :now + :lease, :now + :retention)
ON CONFLICT (actor, operation, idem_key) DO NOTHING;
"""

SERVER_TAKEOVER_2020_SQL = """
UPDATE idempotency_record
   SET owner = :owner, lease_until = :now + :lease
 WHERE actor = :actor AND operation = :operation AND idem_key = :key
   AND state = 'in_progress' AND lease_until <= :now;
"""

SERVER_CHANGES_SQL = """
SELECT changes();  -- 1: строка вставлена или обновлена этим соединением, 0: нет
"""


def server_grouped(value: int) -> str:
    """5000 -> «5 000» с неразрывным пробелом между разрядами, как требует русская типографика."""
    return f"{value:,}".replace(",", "\u00a0")


def server_source_of(*objects: object) -> str:
    """Исходный текст функций и методов модели: статья показывает то, что исполняет фикстура."""
    return "\n\n".join(textwrap.dedent(inspect.getsource(obj)).strip() for obj in objects)


class ServerClaims(Protocol):
    """Как попытка узнаёт, что строка записи досталась именно ей."""

    name: str

    def reserve(self, conn: sqlite3.Connection, params: dict[str, object]) -> bool: ...

    def take_over(self, conn: sqlite3.Connection, params: dict[str, object]) -> bool: ...


class ServerReturningClaims:
    """PostgreSQL и SQLite 3.35.0+: строка в ответе оператора — значит, запись наша."""

    name = "RETURNING"

    def reserve(self, conn: sqlite3.Connection, params: dict[str, object]) -> bool:
        return bool(fetch(conn, RESERVE_SQL, params))

    def take_over(self, conn: sqlite3.Connection, params: dict[str, object]) -> bool:
        return bool(fetch(conn, TAKEOVER_SQL, params))


class ServerChangesClaims:
    """Без RETURNING, как в 2020 году: оператор, затем changes() того же соединения."""

    name = "changes()"

    def reserve(self, conn: sqlite3.Connection, params: dict[str, object]) -> bool:
        conn.execute(SERVER_RESERVE_2020_SQL, params)
        return self.changed_one_row(conn)

    def take_over(self, conn: sqlite3.Connection, params: dict[str, object]) -> bool:
        conn.execute(SERVER_TAKEOVER_2020_SQL, params)
        return self.changed_one_row(conn)

    @staticmethod
    def changed_one_row(conn: sqlite3.Connection) -> bool:
        [(changed,)] = fetch(conn, SERVER_CHANGES_SQL, {})
        return changed == 1


@dataclass(frozen=True)
class ServerIdempotency:
    """Запись идемпотентности второй части; claims — форма, которой попытка узнаёт свою строку."""

    claims: ServerClaims

    def reserve_or_reply(self, conn: sqlite3.Connection, req: Request, now: int) -> Reply | None:
        """None — ключ достался этой попытке и работу делает она; иначе — ответ дублю."""
        fp = fingerprint(req.payload)
        lease = {**req.scope(), "owner": req.request_id, "now": now, "lease": SERVER_LEASE_MS}
        if self.claims.reserve(conn, {**lease, "fingerprint": fp, "retention": SERVER_RETENTION_MS}):
            return None
        [(stored_fp, state, status, body)] = fetch(conn, LOOKUP_SQL, req.scope())
        if stored_fp != fp:  # 422 — соглашение статьи, см. текст
            return Reply(422, {"error": "idempotency_key_reused"})
        if state == "completed":
            return Reply(int(status), json.loads(str(body)), replayed=True)
        if self.claims.take_over(conn, lease):  # аренда истекла: эффекта нет, работа наша
            return None
        return Reply(409, {"error": "request_in_progress"})

    def perform(self, conn: sqlite3.Connection, req: Request, *, crash_after_effect: bool = False) -> Reply:
        """Платёж и завершение записи фиксируются одной транзакцией — или не фиксируются."""
        conn.execute("BEGIN IMMEDIATE")
        try:
            cursor = conn.execute(INSERT_PAYMENT_SQL, {"actor": req.actor, **req.payload})
            if crash_after_effect:
                raise SimulatedCrashError(req.request_id)
            reply = Reply(201, {"paymentId": cursor.lastrowid, **req.payload})
            completed = conn.execute(
                COMPLETE_SQL,
                {
                    **req.scope(),
                    "owner": req.request_id,
                    "status": reply.status,
                    "body": json.dumps(reply.body),
                },
            )
            if completed.rowcount != 1:
                raise LostLeaseError(req.request_id)
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
        return reply

    def handle(self, conn: sqlite3.Connection, req: Request, now: int) -> Reply:
        reply = self.reserve_or_reply(conn, req, now)
        return self.perform(conn, req) if reply is None else reply

    def finish(self, conn: sqlite3.Connection, req: Request, early: Reply | None) -> Reply | None:
        """Ответ попытки после работы владельца; None — её работу откатила проверка владельца."""
        if early is not None:
            return early
        try:
            return self.perform(conn, req)
        except LostLeaseError:
            return None


def server_request(
    request_id: str, *, actor: str = "shop-1", key: str = "key-001", **changes: object
) -> Request:
    """Попытка оплатить заказ 1042 на 1 200 ₽; changes меняют поля тела."""
    payload: dict[str, object] = {"order": 1042, "amountRub": 1200, **changes}
    return Request(actor, "POST /payments", key, payload, request_id)


def server_race(
    path: str, requests: list[Request], now: int, server: ServerIdempotency
) -> list[tuple[bool, Reply | None]]:
    """Попытки в разных потоках, у каждой своё соединение с файлом базы; дубли получают ответ
    раньше, чем владелец закончит работу."""
    start = threading.Barrier(len(requests), timeout=5)
    answered = threading.Barrier(len(requests), timeout=5)
    results: list[tuple[bool, Reply | None]] = []
    errors: list[BaseException] = []

    def attempt(req: Request) -> None:
        conn = connect(path)
        try:
            start.wait()  # все попытки уходят в базу одновременно
            early = server.reserve_or_reply(conn, req, now)
            answered.wait()
            results.append((early is None, server.finish(conn, req, early)))
        except BaseException as exc:  # noqa: BLE001 - ошибка потока поднимается в фикстуре
            errors.append(exc)
            start.abort()
            answered.abort()
        finally:
            conn.close()

    threads = [threading.Thread(target=attempt, args=(req,)) for req in requests]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    return results


def server_status(reply: Reply | None) -> int | str:
    return reply.status if reply is not None else "rolled-back"


def server_one_takeover_race(
    path: str, conn: sqlite3.Connection, server: ServerIdempotency, run: int
) -> dict:
    """Владелец нового ключа падает посреди транзакции; после конца аренды два повтора одновременно
    пытаются перехватить запись."""
    key, order, crashed_at = f"key-{101 + run}", 2000 + run, 100_000
    owner = server_request(f"req-{run}-owner", key=key, order=order)
    server.reserve_or_reply(conn, owner, crashed_at)
    with contextlib.suppress(SimulatedCrashError):
        server.perform(conn, owner, crash_after_effect=True)
    retries = [server_request(f"req-{run}-{n}", key=key, order=order) for n in (1, 2)]
    race = server_race(path, retries, crashed_at + SERVER_LEASE_MS, server)
    [(payments,)] = fetch(conn, "SELECT COUNT(*) FROM payment WHERE order_id = :order", {"order": order})
    return {
        "winners": sum(won for won, _ in race),
        "statuses": sorted((server_status(reply) for _, reply in race), key=str),
        "payments": payments,
    }


def server_scenarios(claims: ServerClaims) -> dict[str, object]:
    """Сценарии статьи в одной форме SQL: гонка за ключ, повтор, чужое тело, чужой клиент,
    падение владельца и перехват после аренды."""
    server = ServerIdempotency(claims)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "idempotency.sqlite3")
        conn = connect(path)
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.executescript(IDEMPOTENCY_SCHEMA_SQL + PAYMENT_SCHEMA_SQL)
            race = server_race(path, [server_request("req-a"), server_request("req-b")], 0, server)
            retry = server.handle(conn, server_request("req-c"), 2_000)
            other_payload = server.handle(conn, server_request("req-d", amountRub=1500), 3_000)
            other_actor = server.handle(conn, server_request("req-e", actor="shop-2"), 3_000)
            stuck = server_stuck_owner(conn, server)
            payments = [
                {"actor": actor, "order": order_id, "count": count}
                for actor, order_id, count in fetch(
                    conn,
                    "SELECT actor, order_id, COUNT(*) FROM payment"
                    " GROUP BY actor, order_id ORDER BY actor, order_id",
                    {},
                )
            ]
        finally:
            conn.close()
    return server_report(race, retry, other_payload, other_actor, stuck, payments)


def server_stuck_owner(conn: sqlite3.Connection, server: ServerIdempotency) -> dict[str, object]:
    """Владелец второго ключа падает после вставки платежа; повторы до и после конца аренды."""
    crashed = server_request("req-f", key="key-002", order=1043)
    server.reserve_or_reply(conn, crashed, 10_000)
    with contextlib.suppress(SimulatedCrashError):
        server.perform(conn, crashed, crash_after_effect=True)
    [(_, state_after_crash, _, _)] = fetch(conn, LOOKUP_SQL, crashed.scope())
    [(effects_after_crash,)] = fetch(conn, "SELECT COUNT(*) FROM payment WHERE order_id = 1043", {})
    before = server.handle(conn, server_request("req-g", key="key-002", order=1043), 20_000)
    after = server.handle(conn, server_request("req-h", key="key-002", order=1043), 10_000 + SERVER_LEASE_MS)
    return {
        "stateAfterCrash": state_after_crash,
        "effectsAfterCrash": effects_after_crash,
        "beforeLease": before.status,
        "afterLease": after.status,
        "afterLeaseReplayed": after.replayed,
    }


def server_report(
    race: list[tuple[bool, Reply | None]],
    retry: Reply,
    other_payload: Reply,
    other_actor: Reply,
    stuck: dict[str, object],
    payments: list[dict[str, object]],
) -> dict[str, object]:
    """Что печатает статья, и проверки, вычисленные из прогонов."""
    owned = [reply for won, reply in race if won and reply is not None]
    waiting = [reply for won, reply in race if not won]
    first = owned[0] if owned else Reply(0, {})
    return {
        "race": {
            "owners": sum(won for won, _ in race),
            "statuses": sorted(map(server_status, (r for _, r in race)), key=str),
        },
        "retry": {"status": retry.status, "body": retry.body, "replayed": retry.replayed},
        "otherPayload": {"status": other_payload.status, "body": other_payload.body},
        "otherActor": {
            "status": other_actor.status,
            "body": other_actor.body,
            "replayed": other_actor.replayed,
        },
        "stuck": {k: v for k, v in stuck.items() if k != "afterLeaseReplayed"},
        "payments": payments,
        "checks": {
            "exactlyOneOwner": len(owned) == 1 and len(race) == 2,
            "duplicateSawInProgress": [r.body for r in waiting if r] == [{"error": "request_in_progress"}],
            "retryReplaysStoredReply": retry.replayed
            and (retry.status, retry.body) == (first.status, first.body),
            "otherPayloadIsConflict": other_payload.status == 422,
            "otherActorIsIndependent": other_actor.status == 201
            and not other_actor.replayed
            and other_actor.body.get("paymentId") != first.body.get("paymentId"),
            "crashLeftNoEffect": stuck["stateAfterCrash"] == "in_progress"
            and stuck["effectsAfterCrash"] == 0,
            "takeoverOnlyAfterLease": stuck["beforeLease"] == 409
            and stuck["afterLease"] == 201
            and not stuck["afterLeaseReplayed"],
            "oneEffectPerScope": [p["count"] for p in payments] == [1, 1, 1],
        },
    }


def server_takeover_races(claims: ServerClaims) -> dict[str, object]:
    """Гонки двух перехватов одной брошенной записи, SERVER_TAKEOVER_RACES раз подряд."""
    server = ServerIdempotency(claims)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "takeovers.sqlite3")
        conn = connect(path)
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.executescript(IDEMPOTENCY_SCHEMA_SQL + PAYMENT_SCHEMA_SQL)
            runs = [server_one_takeover_race(path, conn, server, run) for run in range(SERVER_TAKEOVER_RACES)]
        finally:
            conn.close()
    winners = sorted({run["winners"] for run in runs})
    per_key = sorted({run["payments"] for run in runs})
    return {
        "takeoverRace": {
            "runs": len(runs),
            "winners": winners,
            "statuses": [list(s) for s in sorted({tuple(run["statuses"]) for run in runs}, key=str)],
            "paymentsPerKey": per_key,
        },
        "checks": {
            "oneOfTwoTakeoversWins": len(runs) == SERVER_TAKEOVER_RACES and winners == [1],
            "takeoverRaceOneEffect": per_key == [1],
        },
    }


def server_in_both_forms(scenarios: Callable[[ServerClaims], dict[str, object]]) -> dict[str, object]:
    """Сценарии дважды: с RETURNING (если SQLite его знает) и в форме 2020 года; итог — первой
    формы, а проверки — обеих и их совпадения."""
    has_returning = sqlite3.sqlite_version_info >= SERVER_RETURNING_SINCE
    without = scenarios(ServerChangesClaims())
    main = scenarios(ServerReturningClaims()) if has_returning else without
    outcome = {k: v for k, v in main.items() if k != "checks"}
    without_outcome = {k: v for k, v in without.items() if k != "checks"}
    checks: dict[str, bool] = dict(main["checks"])  # type: ignore[call-overload]
    without_checks: dict[str, bool] = dict(without["checks"])  # type: ignore[call-overload]
    return {
        "sqlite": {
            "returningSince": ".".join(map(str, SERVER_RETURNING_SINCE)),
            "forms": [ServerReturningClaims.name] * has_returning + [ServerChangesClaims.name],
        },
        **outcome,
        "checks": {
            **checks,
            "sqliteHasReturning": has_returning,
            "changesFormPassesEveryCheck": all(value is True for value in without_checks.values()),
            "formsGiveSameOutcomes": has_returning and outcome == without_outcome,
        },
    }


@fixture
def server_sqlite_reservation() -> dict[str, object]:
    return server_in_both_forms(server_scenarios)


@fixture
def server_takeover_race() -> dict[str, object]:
    return server_in_both_forms(server_takeover_races)


# === Часть третья, редакция 2: разбор в поле ================================

DIAGNOSIS_SLOW_WORK_MS = 2_500  # четвёртый исход: владелец работает дольше, чем клиент ждёт
DIAGNOSIS_RESEND_MS = 60_000  # через минуту приложение снова отправляет отложенное намерение

DIAGNOSIS_RECORD_SQL = """
SELECT state, owner, lease_until
  FROM idempotency_record
 WHERE actor = :actor AND operation = :operation AND idem_key = :key;
"""


@dataclass(frozen=True)
class DiagnosisLane:
    """Один исход: что сеть и сервер делают с первой попыткой намерения."""

    name: str
    request_lost: bool = False  # запрос теряется по дороге к серверу
    crash: bool = False  # владелец падает посреди транзакции, после вставки платежа
    response_lost: bool = False  # ответ теряется по дороге к клиенту
    work_ms: int = WORK_MS  # сколько длится транзакция владельца


DIAGNOSIS_LANES = (
    DiagnosisLane("not-delivered", request_lost=True),
    DiagnosisLane("crashed", crash=True),
    DiagnosisLane("response-lost", response_lost=True),
    DiagnosisLane("still-running", work_ms=DIAGNOSIS_SLOW_WORK_MS),
)


@dataclass
class DiagnosisAttempt:
    """Одна попытка: что ушло, когда, и что клиент в итоге увидел."""

    number: int
    req: Request
    sent_ms: int
    seen: int | str | None = None  # "timeout" или статус ответа
    seen_ms: int | None = None
    reply: Reply | None = None  # ответ, который клиент получил
    server_reply: Reply | None = None  # ответ, который сервер отправил, даже если он не дошёл
    timeout_ms: int = 0  # когда клиент перестанет ждать эту попытку


@dataclass
class DiagnosisRun:
    """Одно намерение по правилам первой части против модели второй части на файле SQLite.

    События идут по часам модели. Транзакция владельца исполняется целиком в момент своего
    COMMIT: до него другие соединения видят запись такой, какой её оставило резервирование,
    ровно как в базе, где транзакция ещё открыта.
    """

    path: str
    lane: DiagnosisLane
    conn: sqlite3.Connection  # соединение разбирающего: им читаются запись и платежи
    server: ServerIdempotency = field(default_factory=lambda: ServerIdempotency(ServerReturningClaims()))
    trace: Trace = field(default_factory=Trace)
    attempts: list[DiagnosisAttempt] = field(default_factory=list)
    queue: list[tuple[int, int, Callable[[], None]]] = field(default_factory=list)
    open: dict[str, sqlite3.Connection] = field(default_factory=dict)  # соединения работающих владельцев
    now: int = 0
    scheduled: int = 0
    final: DiagnosisAttempt | None = None
    at_timeout: dict[str, object] = field(default_factory=dict)
    lease_until: object = None
    lost_state: object = None

    def at(self, ms: int, action: Callable[[], None]) -> None:
        heapq.heappush(self.queue, (ms, self.scheduled, action))
        self.scheduled += 1

    def run(self) -> None:
        try:
            self.send(1, 0)
            self.at(ATTEMPT_TIMEOUT_MS, self.snapshot)
            while self.queue:
                self.now, _, action = heapq.heappop(self.queue)
                action()
        finally:
            for conn in self.open.values():
                conn.close()

    def record(self, req: Request) -> dict[str, object] | None:
        rows = fetch(self.conn, DIAGNOSIS_RECORD_SQL, req.scope())
        return dict(zip(("state", "owner", "leaseUntil"), rows[0], strict=True)) if rows else None

    def payments(self) -> int:
        [(count,)] = fetch(self.conn, "SELECT COUNT(*) FROM payment", {})
        return int(count)

    # --- клиент: правила первой части ---

    def send(self, number: int, sent_ms: int, note: str = "") -> None:
        attempt = DiagnosisAttempt(number, server_request(f"req-{number:02d}"), sent_ms)
        self.attempts.append(attempt)
        self.trace.log(sent_ms, "client", attempt.req, f"attempt={number} POST /payments{note}")
        attempt.timeout_ms = sent_ms + ATTEMPT_TIMEOUT_MS
        self.at(attempt.timeout_ms, lambda: self.time_out(attempt))
        if number == 1 and self.lane.request_lost:
            self.at(
                sent_ms + UPLINK_MS, lambda: self.trace.log(self.now, "network", attempt.req, "request lost")
            )
        else:
            self.at(sent_ms + UPLINK_MS, lambda: self.arrive(attempt))

    def time_out(self, attempt: DiagnosisAttempt) -> None:
        if attempt.seen is not None:
            return
        attempt.seen, attempt.seen_ms = "timeout", self.now
        self.trace.log(self.now, "client", attempt.req, f"attempt={attempt.number} timeout, outcome unknown")
        self.next_attempt()

    def deliver(self, attempt: DiagnosisAttempt, reply: Reply) -> None:
        if attempt.seen is not None:
            self.trace.log(self.now, "network", attempt.req, "response dropped: client gave up")
            return
        attempt.seen, attempt.seen_ms, attempt.reply = reply.status, self.now, reply
        if reply.status == 409:
            self.trace.log(
                self.now, "client", attempt.req, f"attempt={attempt.number} got 409 request_in_progress"
            )
            self.next_attempt()
            return
        mark = " (replay)" if reply.replayed else ""
        got = f"got {reply.status} payment {reply.body.get('paymentId')}{mark}"
        self.trace.log(self.now, "client", attempt.req, f"attempt={attempt.number} {got}")
        self.final = attempt

    def next_attempt(self) -> None:
        """Новая попытка, только если до дедлайна помещаются пауза, полный тайм-аут и запас;
        иначе честный неопределённый исход, а намерение с ключом ждёт повторной отправки."""
        number = len(self.attempts) + 1
        if number <= MAX_ATTEMPTS and BUDGET_MS - self.now >= PAUSE_MS + ATTEMPT_TIMEOUT_MS + RESERVE_MS:
            sent = self.now + PAUSE_MS
            self.at(sent, lambda: self.send(number, sent))
        elif self.now < BUDGET_MS:
            self.at(BUDGET_MS, self.give_up)

    def give_up(self) -> None:
        if self.final is not None:
            return
        self.trace.log(self.now, "client", self.attempts[-1].req, "budget spent, outcome unknown")
        number = len(self.attempts) + 1
        self.at(DIAGNOSIS_RESEND_MS, lambda: self.send(number, DIAGNOSIS_RESEND_MS, " (resend)"))

    # --- сервер: модель второй части ---

    def arrive(self, attempt: DiagnosisAttempt) -> None:
        req = attempt.req
        before = self.record(req)
        conn = connect(self.path)
        reply = self.server.reserve_or_reply(conn, req, self.now)
        if reply is not None:
            conn.close()
            self.trace.log(self.now, "server", req, self.describe(req, reply))
            self.respond(attempt, reply)
            return
        self.open[req.request_id] = conn
        taken = f"took over from {before['owner']}, lease expired," if before else "reserved"
        self.trace.log(self.now, "server", req, f"{taken} state=in_progress")
        work = self.lane.work_ms if attempt.number == 1 else WORK_MS
        self.at(self.now + work, lambda: self.finish(attempt))

    def describe(self, req: Request, reply: Reply) -> str:
        owner = (self.record(req) or {}).get("owner")
        if reply.replayed:
            return f"replay {reply.status} payment {reply.body.get('paymentId')} stored by {owner}"
        if reply.status == 409:
            return f"409 in progress, owner {owner}"
        return f"{reply.status} {reply.body.get('error')}"

    def finish(self, attempt: DiagnosisAttempt) -> None:
        req = attempt.req
        conn = self.open.pop(req.request_id)
        try:
            reply = self.server.perform(conn, req, crash_after_effect=attempt.number == 1 and self.lane.crash)
        except SimulatedCrashError:
            self.trace.log(self.now, "server", req, "crashed before COMMIT, rolled back")
            return
        except LostLeaseError:
            self.trace.log(self.now, "server", req, "lease taken by another attempt, rolled back")
            return
        finally:
            conn.close()
        attempt.server_reply = reply
        state = (self.record(req) or {}).get("state")
        self.trace.log(
            self.now, "server", req, f"created payment {reply.body['paymentId']} state={state} 201"
        )
        self.respond(attempt, reply)

    def respond(self, attempt: DiagnosisAttempt, reply: Reply) -> None:
        if attempt.number == 1 and self.lane.response_lost:
            self.lost_state = (self.record(attempt.req) or {}).get("state")
            self.trace.log(self.now, "network", attempt.req, "response lost")
        elif attempt.seen is not None:
            self.trace.log(self.now, "network", attempt.req, "response dropped: client gave up")
        else:
            self.at(self.now + DOWNLINK_MS, lambda: self.deliver(attempt, reply))

    def snapshot(self) -> None:
        """Что на сервере в момент, когда клиент перестал ждать первую попытку."""
        record = self.record(self.attempts[0].req)
        self.lease_until = record and record["leaseUntil"]
        self.at_timeout = {
            "record": record and record["state"],
            "payments": self.payments(),
            "ownerWorking": bool(self.open),
        }


def diagnosis_lane(tmp: str, lane: DiagnosisLane) -> tuple[DiagnosisRun, dict[str, object], Reply]:
    """Прогон одного исхода на своём файле SQLite: трасса, итог и тот же ключ с суммой 1 500 ₽."""
    path = os.path.join(tmp, f"{lane.name}.sqlite3")
    conn = connect(path)
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.executescript(IDEMPOTENCY_SCHEMA_SQL + PAYMENT_SCHEMA_SQL)
        run = DiagnosisRun(path, lane, conn)
        run.run()
        summary = {
            "atTimeout": run.at_timeout,
            "client": [attempt.seen for attempt in run.attempts],
            "createdBy": (run.record(run.attempts[0].req) or {}).get("owner"),
            "payments": run.payments(),
        }
        changed = server_request("req-probe", amountRub=1500)
        probe = run.server.handle(conn, changed, run.now + 1000)
    finally:
        conn.close()
    return run, summary, probe


def diagnosis_when(run: DiagnosisRun, request_id: str, text: str) -> int | None:
    """Момент первой строки трассы этой попытки, где есть text."""
    for ms, line in zip(run.trace.times, run.trace.lines, strict=True):
        if f" {request_id} " in line and text in line:
            return ms
    return None


def diagnosis_milestones() -> dict[str, int]:
    """Моменты, которые текст называет числами; фикстура сверяет их с трассами прогонов."""
    second = ATTEMPT_TIMEOUT_MS + PAUSE_MS
    return {
        "storedAtMs": UPLINK_MS + WORK_MS,
        "timeoutAtMs": ATTEMPT_TIMEOUT_MS,
        "secondSentAtMs": second,
        "secondDeadlineAtMs": second + ATTEMPT_TIMEOUT_MS,
        "replayReceivedAtMs": second + UPLINK_MS + DOWNLINK_MS,
        "conflictAtMs": second + UPLINK_MS,
        "slowStoredAtMs": UPLINK_MS + DIAGNOSIS_SLOW_WORK_MS,
        "leaseEndsAtMs": UPLINK_MS + SERVER_LEASE_MS,
    }


def diagnosis_observed(runs: dict[str, DiagnosisRun]) -> dict[str, object]:
    """Те же моменты, найденные в трассах: что на самом деле сделали модели."""
    lost, slow, crashed = runs["response-lost"], runs["still-running"], runs["crashed"]
    second = lost.attempts[1] if len(lost.attempts) > 1 else None
    return {
        "storedAtMs": diagnosis_when(lost, "req-01", "created payment"),
        "timeoutAtMs": diagnosis_when(lost, "req-01", "timeout"),
        "secondSentAtMs": second and second.sent_ms,
        "secondDeadlineAtMs": second and second.timeout_ms,
        "replayReceivedAtMs": lost.final and lost.final.seen_ms,
        "conflictAtMs": diagnosis_when(slow, "req-02", "409 in progress"),
        "slowStoredAtMs": diagnosis_when(slow, "req-01", "created payment"),
        "leaseEndsAtMs": crashed.lease_until,
    }


def diagnosis_simulate() -> dict[str, object]:
    """Четыре исхода за одним тайм-аутом на настоящей модели второй части."""
    with tempfile.TemporaryDirectory() as tmp:
        lanes = {lane.name: diagnosis_lane(tmp, lane) for lane in DIAGNOSIS_LANES}
    runs = {name: run for name, (run, _, _) in lanes.items()}
    outcomes = {name: summary for name, (_, summary, _) in lanes.items()}
    lost, conflict = runs["response-lost"], lanes["response-lost"][2]
    first, final = lost.attempts[0], lost.final
    created = first.server_reply or Reply(0, {})
    received = final.reply if final and final.reply else Reply(0, {})
    in_budget = {name: [a.seen for a in run.attempts if a.sent_ms < BUDGET_MS] for name, run in runs.items()}
    views = {json.dumps(summary["atTimeout"], sort_keys=True) for summary in outcomes.values()}
    return {
        "firstAttempt": {
            "requestId": first.req.request_id,
            "serverStatus": created.status,
            "paymentId": created.body.get("paymentId"),
            "clientSaw": first.seen,
        },
        "retry": {
            "requestId": final and final.req.request_id,
            "status": received.status,
            "paymentId": received.body.get("paymentId"),
            "replayed": received.replayed,
            "receivedAtMs": final and final.seen_ms,
        },
        "otherPayload": {"status": conflict.status, "body": conflict.body},
        "effects": outcomes["response-lost"]["payments"],
        "trace": lost.trace.lines,
        "stillRunningTrace": runs["still-running"].trace.lines,
        "outcomes": outcomes,
        "milestones": diagnosis_milestones(),
        "checks": {
            "sameTimeoutInEveryLane": all(
                run.attempts[0].seen == "timeout" and run.attempts[0].seen_ms == ATTEMPT_TIMEOUT_MS
                for run in runs.values()
            ),
            "fourDifferentServerStates": len(views) == len(DIAGNOSIS_LANES) == 4,
            "responseLostAfterStore": lost.lost_state == "completed",
            "retryReplaysSameResult": received.replayed
            and received.body.get("paymentId") == created.body.get("paymentId") is not None,
            "stillRunningAnswers409": in_budget["still-running"] == ["timeout", 409]
            and outcomes["still-running"]["atTimeout"]["ownerWorking"] is True,  # type: ignore[index]
            "crashAndStillRunningLookAlike": in_budget["crashed"] == in_budget["still-running"]
            and outcomes["crashed"]["createdBy"] != outcomes["still-running"]["createdBy"],
            "everyLaneEndsWithStoredAnswer": all(
                run.final is not None and run.final.seen == 201 for run in runs.values()
            ),
            "exactlyOneEffectPerLane": all(summary["payments"] == 1 for summary in outcomes.values()),
            "otherPayloadIsConflict": conflict.status == 422,
            "oneKeyOneRequestIdPerAttempt": all(
                len({a.req.key for a in run.attempts}) == 1
                and len({a.req.request_id for a in run.attempts}) == len(run.attempts)
                for run in runs.values()
            ),
            "answerWithinBudget": final is not None
            and final.seen_ms is not None
            and final.seen_ms <= BUDGET_MS,
            "traceInTimeOrder": all(run.trace.times == sorted(run.trace.times) for run in runs.values()),
            "milestonesMatchTraces": diagnosis_observed(runs) == diagnosis_milestones(),
        },
    }


@fixture
def diagnosis_lost_response() -> dict[str, object]:
    return diagnosis_simulate()


# --- Источники обеих частей --------------------------------------------------

SERVER_SQLITE_UPSERT = Source(
    title="SQLite: UPSERT",
    url="https://www.sqlite.org/lang_upsert.html",
    note=(
        "ON CONFLICT … DO NOTHING в SQLite повторяет синтаксис PostgreSQL; conflict target называет "
        "ограничение уникальности, при нарушении которого вставка пропускается; UPSERT появился в "
        "версии 3.24.0 (2018-06-04)"
    ),
)
SERVER_SQLITE_RETURNING = Source(
    title="SQLite: The RETURNING Clause",
    url="https://www.sqlite.org/lang_returning.html",
    note=(
        "RETURNING в конце DELETE, INSERT и UPDATE возвращает по строке на каждую удалённую, вставленную "
        "или изменённую строку; синтаксис взят из PostgreSQL; поддерживается с версии 3.35.0 (2021-03-12)"
    ),
)
SERVER_SQLITE_3_35_0 = Source(
    title="SQLite Release 3.35.0 On 2021-03-12",
    url="https://www.sqlite.org/releaselog/3_35_0.html",
    note="в списке изменений этого выпуска есть поддержка RETURNING для DELETE, INSERT и UPDATE",
)
SERVER_SQLITE_CHANGES = Source(
    title="SQLite: Built-In Scalar SQL Functions, changes()",
    url="https://www.sqlite.org/lang_corefunc.html#changes",
    note=(
        "changes() возвращает число строк, изменённых, вставленных или удалённых последним завершённым "
        "INSERT, DELETE или UPDATE этого соединения (обёртка над sqlite3_changes())"
    ),
)
SERVER_STRIPE_IDEMPOTENCY = Source(
    title="Stripe API Reference: Idempotent requests",
    url="https://docs.stripe.com/api/idempotent_requests",
    note=(
        "по ключу сохраняются статус и тело первого ответа, включая 500; параметры повтора "
        "сравниваются с исходными; ошибки валидации и конфликт с параллельным запросом не сохраняются; "
        "ключ может быть удалён, когда ему не меньше 24\u00a0часов, и ключ, повторённый после удаления, "
        "порождает новый запрос"
    ),
)
SERVER_STRIPE_ERRORS = Source(
    title="Stripe API Reference: Errors",
    url="https://docs.stripe.com/api/errors",
    note=(
        "код 409 Conflict значит, что запрос конфликтует с другим, например из-за того же ключа "
        "идемпотентности; ошибка типа idempotency_error возникает, когда ключ идемпотентности повторён с "
        "запросом, который не совпадает с первым по эндпоинту и параметрам"
    ),
)
SERVER_IDEMPOTENCY_KEY_DRAFT = Source(
    title="IETF draft-ietf-httpapi-idempotency-key-header: The Idempotency-Key HTTP Header Field",
    url="https://datatracker.ietf.org/doc/draft-ietf-httpapi-idempotency-key-header/",
    note=(
        "черновик рабочей группы httpapi, не RFC; раздел об ошибках: на ключ, повторённый с другим телом, "
        "сервер SHOULD отвечать 422, на повтор, пока исходный запрос ещё обрабатывается,\u00a0— 409"
    ),
)
DIAGNOSIS_RFC7231 = Source(
    title="RFC\u00a07231: HTTP/1.1 Semantics and Content, §4.2.2 Idempotent Methods",
    url="https://www.rfc-editor.org/rfc/rfc7231.html#section-4.2.2",
    note=(
        "идемпотентные методы выделены потому, что запрос можно повторить автоматически, если связь "
        "оборвалась до того, как клиент прочитал ответ сервера"
    ),
)
SERVER_RFC7230 = Source(
    title="RFC\u00a07230: HTTP/1.1 Message Syntax and Routing, §6.3.1 Retrying Requests",
    url="https://www.rfc-editor.org/rfc/rfc7230.html#section-6.3.1",
    note=(
        "прокси MUST NOT автоматически повторять неидемпотентные запросы; агент пользователя повторяет "
        "такой запрос автоматически, только если знает, что он на деле идемпотентен, или может выяснить, "
        "что исходный запрос не был применён"
    ),
)


# --- Статья 2, редакция 2: сервер --------------------------------------------

SERVER_CHANGES_NOTE = (
    "`RETURNING` есть в SQLite только с версии 3.35.0 (март 2021), так что в июне 2020 модель на SQLite "
    "не исполнилась бы: добавлена форма без него, через `changes()`, а фикстура проверяет версию SQLite, "
    "совпадение обеих форм и гонку двух перехватов истёкшей аренды. Код `422` назван соглашением статьи "
    "со ссылками на Stripe и черновик IETF, о прокси сказано, что вопреки RFC\u00a07230 некоторые "
    "повторяют запрос сами, в тексте расставлены неразрывные пробелы."
)

server_revision = revision(
    slug="retry-server-idempotency-record",
    title="Повтор без второго эффекта: запись идемпотентности на сервере",
    categories=["HTTP", "Надёжность", "Базы данных"],
    excerpt=(
        "Серверная половина безопасного повтора: запись с областью, отпечатком тела, состоянием и "
        "сохранённым ответом; уникальность, которую держит база, а не память процесса; эффект в одной "
        "транзакции с записью, восстановление зависшей записи и срок хранения."
    ),
    cover="/assets/retry/server-record-cover.svg",
    published="2020-06-22",
    revised="2026-12-01",
    changes=SERVER_CHANGES_NOTE,
    lang="ru",
    body=[
        paragraph(
            "В первой части клиент научился создавать ключ идемпотентности вместе с намерением и тратить "
            "на все попытки один бюджет времени. Этого мало, если сервер не держит свою половину "
            "договорённости: запрос с уже знакомым ключом не выполняет операцию снова, а получает тот "
            "ответ, который получил бы первый запрос. Держится это на одной строке в базе\u00a0— записи "
            "идемпотентности\u00a0— и нескольких операторах вокруг неё."
        ),
        heading("Что лежит в записи"),
        paragraph(
            "Запись отвечает на три вопроса о входящем запросе: видели ли мы эту операцию, тот ли это "
            "запрос и чем он закончился. Отсюда её поля."
        ),
        unordered_list(
            [
                "**Область: клиент, операция, ключ.** Ключ придумывает клиент, поэтому уникален он только "
                "среди ключей этого клиента. Без клиента в области два магазина со случайно совпавшими "
                "ключами делят одну запись, и второй получает чужой ответ вместе с чужими данными. Клиента "
                "берут из аутентификации, а не из тела; операция\u00a0— метод и маршрут.",
                "**Отпечаток тела**\u00a0— хеш канонической формы: поля отсортированы, разделители "
                "фиксированы. Номер попытки, время отправки и request id в него не входят, иначе каждый "
                "честный повтор выглядел бы новым запросом. Тот же ключ с другим отпечатком\u00a0— ошибка "
                "клиента: сервер ничего не выполняет и отвечает ошибкой. В модели это `422`; почему "
                "именно этот код и что о нём говорят другие\u00a0— ниже.",
                "**Состояние** `in_progress` или `completed`: «ключ занят, работа идёт» или «результат "
                "сохранён». Сохранённый результат\u00a0— не обязательно успех. Stripe повторяет по ключу "
                "даже `500`, а вот ошибку валидации и конфликт с параллельным запросом не сохраняет: до "
                "выполнения дело не дошло.",
                "**Сохранённый ответ: статус и тело.** Повтор получает их как есть, с тем же "
                "идентификатором платежа. Собирать ответ заново из текущего состояния нельзя: платёж мог "
                "с тех пор измениться, а клиенту нужен ответ на свой первый запрос.",
                "**Владелец и аренда**: `owner`\u00a0— request id попытки, которая ведёт запись, "
                "`lease_until`\u00a0— до какого момента. Без аренды запись, брошенную упавшим процессом, не "
                "отличить от записи, над которой ещё работают. О сроке хранения `expires_at`\u00a0— в конце.",
            ]
        ),
        figure(
            "/assets/retry/idempotency-record-states.svg",
            alt=(
                "Диаграмма состояний записи идемпотентности. Из «нет записи» вставка с ON CONFLICT DO "
                "NOTHING переводит запись в in_progress; эффект вместе с завершением в одной транзакции "
                "переводит её в completed. Дубль при in_progress получает 409, дубль при completed\u00a0— "
                "сохранённые статус и тело, тот же ключ с другим отпечатком\u00a0— 422. Истёкшая аренда "
                "позволяет другой попытке перехватить in_progress; по истечении срока хранения запись "
                "удаляется."
            ),
            caption=(
                "Жизнь записи: резервирование, завершение вместе с эффектом, ответы дублям, перехват "
                "брошенной записи и удаление после срока хранения."
            ),
        ),
        heading("Уникальность держит база, а не память процесса"),
        paragraph(
            "Наивный обработчик ищет ключ и, не найдя, выполняет операцию и сохраняет ключ. Между поиском и "
            "вставкой есть окно: два одновременных запроса\u00a0— двойной щелчок или повтор клиента поверх "
            "повтора, который сделал прокси,\u00a0— оба видят «ключа нет». RFC\u00a07230 (§\u00a06.3.1) "
            "запрещает прокси автоматически повторять неидемпотентные запросы, но вопреки RFC\u00a07230 "
            "некоторые так делают. Словарь или мьютекс в памяти закрывают окно только внутри процесса: "
            "второй экземпляр за балансировщиком, перезапуск и выкладка о нём не знают. Арбитр должен быть "
            "общим для всех экземпляров, и он уже есть\u00a0— ограничение уникальности в базе."
        ),
        paragraph(
            "Резервирование\u00a0— один оператор: вставить запись в `in_progress`, а при конфликте по "
            "области не делать ничего. `RETURNING` отдаёт строку, только если вставка случилась, так что "
            "ответ на вопрос «ключ мой?» приходит вместе с ней, без отдельного чтения. Синтаксис\u00a0— "
            "PostgreSQL, где такой оператор работал и в 2020\u00a0году; параметры `:name`\u00a0— форма "
            "драйвера sqlite3, потому что модель рядом со статьёй исполняет именно эти строки на SQLite."
        ),
        code_block(IDEMPOTENCY_SCHEMA_SQL + RESERVE_SQL, language="sql"),
        heading("Что умел SQLite в июне 2020\u00a0года"),
        paragraph(
            "Первая редакция утверждала, что SQLite понимает ту же форму. Это было верно наполовину. "
            "`ON CONFLICT … DO NOTHING` в SQLite есть с версии 3.24.0 (2018), а `RETURNING`\u00a0— только "
            "с 3.35.0, вышедшей 12\u00a0марта 2021\u00a0года. В июне 2020\u00a0года, когда статья вышла, "
            "SQLite отверг бы эти строки как синтаксическую ошибку. Сегодня модель исполняется, потому что "
            "SQLite рядом с ней новее, и фикстура больше не принимает это на веру: версия SQLite, на "
            "которой она идёт, проверяется наравне с остальным."
        ),
        paragraph(
            "Без `RETURNING` тот же вопрос задают вторым оператором. `changes()` возвращает, сколько строк "
            "изменил последний завершённый `INSERT`, `UPDATE` или `DELETE` этого соединения: `1` после "
            "вставки значит «ключ мой», `0`\u00a0— сработал `DO NOTHING`. С перехватом так же: условный "
            "`UPDATE`, затем `changes()`. Счётчик принадлежит соединению, поэтому спрашивать его нужно тем "
            "же соединением сразу после оператора, пока оно не выполнило другой изменяющий оператор и не "
            "вернулось в пул."
        ),
        code_block(
            SERVER_RESERVE_2020_SQL + SERVER_CHANGES_SQL + SERVER_TAKEOVER_2020_SQL + SERVER_CHANGES_SQL,
            language="sql",
        ),
        paragraph(
            "В модели обе формы\u00a0— два маленьких класса с методами `reserve` и `take_over`, и фикстура "
            "прогоняет каждый сценарий статьи на обоих. Результаты должны совпасть целиком; это одна из "
            "проверок."
        ),
        paragraph(
            "Резервирование стоит делать отдельной короткой транзакцией и фиксировать сразу. Тогда дубль, "
            "пришедший во время работы, видит `in_progress` и получает `409`: подождите и повторите с тем "
            "же ключом. Если держать вставку незафиксированной до конца операции, конкурирующая вставка "
            "того же ключа в PostgreSQL будет ждать исхода первой транзакции и всё это время занимать "
            "соединение."
        ),
        heading("Гонка двух попыток на настоящей базе"),
        paragraph(
            "Фикстура `server_sqlite_reservation` создаёт файл SQLite во временном каталоге и запускает две "
            "попытки с одним ключом в двух потоках, у каждой своё соединение. Барьер выпускает обе "
            "вставки одновременно; второй барьер придерживает владельца, пока дубль не получит ответ, "
            "поэтому дубль застаёт именно `in_progress`. Потом тот же ключ приходит ещё трижды: честный "
            "повтор, повтор с другой суммой и тот же ключ от другого магазина. Победитель меняется от "
            "запуска к запуску, поэтому печатается только то, что от него не зависит. Всё это фикстура "
            "проделывает в обеих формах SQL."
        ),
        verified_output(
            server_sqlite_reservation,
            expected={
                "sqlite": {"returningSince": "3.35.0", "forms": ["RETURNING", "changes()"]},
                "race": {"owners": 1, "statuses": [201, 409]},
                "retry": {
                    "status": 201,
                    "body": {"paymentId": 1, "order": 1042, "amountRub": 1200},
                    "replayed": True,
                },
                "otherPayload": {"status": 422, "body": {"error": "idempotency_key_reused"}},
                "otherActor": {
                    "status": 201,
                    "body": {"paymentId": 2, "order": 1042, "amountRub": 1200},
                    "replayed": False,
                },
            },
        ),
        heading("Чей это код ответа"),
        paragraph(
            "Коды в модели\u00a0— `409` на дубль, пока первая попытка работает, и `422` на тот же ключ с "
            "другим телом\u00a0— соглашение этой статьи, а не правило HTTP. Stripe в первом случае "
            "отвечает `409`: запрос конфликтует с другим, например из-за того же ключа идемпотентности. Во "
            "втором он возвращает ошибку типа `idempotency_error`: ключ повторён с запросом, который не "
            "совпадает с первым по эндпоинту и параметрам. Разделение «`422`\u00a0— чужое тело, `409`\u00a0— "
            "исходный запрос ещё выполняется» позже предложил черновик IETF "
            "draft-ietf-httpapi-idempotency-key-header; его первые версии вышли уже после этой статьи."
        ),
        paragraph(
            "Коды разные потому, что у клиента разные следующие шаги. На `409` он ждёт и повторяет с тем "
            "же ключом. На чужое тело повтор бессмыслен: ответ не изменится, а новые данные\u00a0— новое "
            "намерение и новый ключ. Какие бы коды ни выбрал API, их стоит описать в документации: клиент "
            "не должен их угадывать."
        ),
        heading("Эффект и запись\u00a0— одна транзакция"),
        paragraph(
            "Владелец ключа создаёт платёж и переводит запись в `completed` одной транзакцией. Состояния "
            "«платёж есть, а запись ещё `in_progress`» не бывает: зафиксировано либо и то и другое, либо "
            "ничего. Завершение вдобавок проверяет, что запись ведёт всё ещё эта попытка: если аренда "
            "истекла и работу перехватили, `UPDATE` не найдёт строку, и транзакция откатит свой платёж."
        ),
        code_block(
            server_source_of(ServerIdempotency.reserve_or_reply, ServerIdempotency.perform), language="python"
        ),
        code_block(TAKEOVER_SQL + COMPLETE_SQL, language="sql"),
        paragraph(
            "Отсюда правило восстановления. Запись в `in_progress` с истёкшей арендой значит, что владелец "
            "начал и не закончил, а раз эффект фиксируется только вместе с записью, эффекта нет. Такую "
            "запись можно перехватить: условный `UPDATE` меняет владельца, только если аренда "
            "действительно истекла. Фикстура роняет владельца второго ключа посреди транзакции, уже после "
            "вставки платежа, и повторяет запрос до и после конца аренды "
            f"({server_grouped(SERVER_LEASE_MS // 1000)}\u00a0с):"
        ),
        verified_output(
            server_sqlite_reservation,
            expected={
                "stuck": {
                    "stateAfterCrash": "in_progress",
                    "effectsAfterCrash": 0,
                    "beforeLease": 409,
                    "afterLease": 201,
                },
                "payments": [
                    {"actor": "shop-1", "order": 1042, "count": 1},
                    {"actor": "shop-1", "order": 1043, "count": 1},
                    {"actor": "shop-2", "order": 1042, "count": 1},
                ],
                "checks": {
                    "exactlyOneOwner": True,
                    "duplicateSawInProgress": True,
                    "retryReplaysStoredReply": True,
                    "otherPayloadIsConflict": True,
                    "otherActorIsIndependent": True,
                    "crashLeftNoEffect": True,
                    "takeoverOnlyAfterLease": True,
                    "oneEffectPerScope": True,
                    "sqliteHasReturning": True,
                    "changesFormPassesEveryCheck": True,
                    "formsGiveSameOutcomes": True,
                },
            },
        ),
        paragraph(
            "Условие аренды внутри того же `UPDATE` делает перехват атомарным: если к брошенной записи "
            "одновременно пришли два повтора, первый `UPDATE` продлевает аренду, и для второго условие уже "
            "ложно, так что строку получает один. Первая редакция утверждала это без проверки. Теперь "
            f"фикстура `server_takeover_race` {SERVER_TAKEOVER_RACES} раз роняет владельца нового ключа, "
            "ждёт конца аренды и пускает два перехвата одновременно, в двух потоках со своими "
            "соединениями, в обеих формах SQL, и в каждом прогоне считает победителей, ответы и платежи:"
        ),
        verified_output(
            server_takeover_race,
            expected={
                "takeoverRace": {
                    "runs": SERVER_TAKEOVER_RACES,
                    "winners": [1],
                    "statuses": [[201, 409]],
                    "paymentsPerKey": [1],
                },
                "checks": {
                    "oneOfTwoTakeoversWins": True,
                    "takeoverRaceOneEffect": True,
                    "sqliteHasReturning": True,
                    "changesFormPassesEveryCheck": True,
                    "formsGiveSameOutcomes": True,
                },
            },
        ),
        paragraph(
            "Мутационные тесты рядом со статьёй ломают модель по одному месту\u00a0— ключ таблицы, "
            "резервирование, клиента в области, сравнение отпечатков, общую транзакцию, условие аренды в "
            "перехвате, проверку `changes()`\u00a0— и каждый раз фикстура падает."
        ),
        heading("Когда эффект за пределами базы"),
        paragraph(
            "Правило перестаёт работать, когда эффект\u00a0— вызов платёжного шлюза, письмо или сообщение в "
            "чужую систему. Локальная транзакция не может включить их в себя: процесс может упасть после "
            "того, как шлюз списал деньги, но до `COMMIT`. Запись останется в `in_progress`, и истёкшая "
            "аренда уже значит не «эффекта нет», а «неизвестно». Перехватить такую запись и вызвать шлюз "
            "снова\u00a0— тот самый двойной эффект, от которого всё строилось."
        ),
        ordered_list(
            [
                "Передавайте внешней системе свой ключ идемпотентности, выведенный из области записи, если "
                "она такие ключи принимает. Тогда вызов после перехвата и для неё окажется повтором.",
                "Перед повторным вызовом спрашивайте внешнюю систему о статусе операции по своему "
                "идентификатору и завершайте запись по её ответу.",
                "Делите работу на шаги с точками восстановления: каждый локальный шаг фиксируется вместе с "
                "отметкой в записи, внешние вызовы стоят между шагами, и повтор продолжает с последней "
                "отметки, а не с начала. Подробно этот подход разобран у Брандура Лича.",
                "Если исход узнать нельзя, не повторяйте автоматически: отвечайте `409` и отдавайте запись "
                "на ручную сверку. Ложный успех хуже честного «в обработке».",
            ]
        ),
        paragraph(
            "Аренду для внешних вызовов берут длиннее самого долгого законного вызова с его тайм-аутом, "
            "иначе перехват отнимет запись у живой попытки. Проверка владельца при завершении защитит "
            "локальную часть, но не вернёт деньги, списанные дважды."
        ),
        heading("Сколько хранить запись"),
        paragraph(
            "Срок хранения задаёт окно, в котором повтор безопасен, и оно должно быть длиннее любого "
            f"повтора с этим ключом\u00a0— не бюджета одного экрана ({server_grouped(BUDGET_MS)}\u00a0мс), "
            "а жизни намерения: приложение, перезапущенное через час, отправит отложенную операцию с тем же "
            "ключом. Stripe может удалить ключ, когда ему исполнится 24\u00a0часа, и ключ, пришедший после "
            "удаления, порождает новый запрос. Защита после срока исчезает молча, поэтому срок\u00a0— часть "
            "контракта API: клиент должен знать, после какого возраста ключ нельзя повторять вслепую. В "
            f"модели срок\u00a0— {SERVER_RETENTION_MS // 3_600_000}\u00a0часа."
        ),
        paragraph(
            "Чистка удаляет только записи `completed` с прошедшим `expires_at`. Записи, застрявшие в "
            "`in_progress`, сначала разбирают: за ними может стоять внешний эффект с неизвестным исходом. "
            "В третьей части\u00a0— как по логам и этой таблице разобрать жалобу «ответа не было, а платёж "
            "создан»."
        ),
    ],
    sources=[
        POSTGRES_INSERT,
        SERVER_SQLITE_UPSERT,
        SERVER_SQLITE_RETURNING,
        SERVER_SQLITE_3_35_0,
        SERVER_SQLITE_CHANGES,
        SERVER_STRIPE_IDEMPOTENCY,
        SERVER_STRIPE_ERRORS,
        SERVER_IDEMPOTENCY_KEY_DRAFT,
        SERVER_RFC7230,
        BRANDUR_IDEMPOTENCY,
    ],
)


# --- Статья 3, редакция 2: разбор в поле -------------------------------------

diagnosis_at = diagnosis_milestones()  # числа текста; фикстура сверяет их с трассами

DIAGNOSIS_CHANGES_NOTE = (
    "За одним тайм-аутом не три исхода, а четыре: запрос может ещё выполняться, когда клиент сдался "
    "(отсюда `409` на повторе),\u00a0— добавлены пункт, трасса, строки таблицы улик и новая схема из "
    "четырёх дорожек. Фикстура теперь исполняет настоящую модель второй части на SQLite вместо "
    "упрощённой копии, о прокси сказано, что вопреки RFC\u00a07230 некоторые повторяют запрос сами, в "
    "тексте расставлены неразрывные пробелы."
)

diagnosis_revision = revision(
    slug="retry-diagnosis-lost-response",
    title="Повтор без второго эффекта: «ответ потерян, а платёж создан»",
    categories=["HTTP", "Надёжность", "Наблюдаемость"],
    excerpt=(
        "Разбор жалобы «был тайм-аут, а платёж создан»: четыре исхода за одним тайм-аутом, "
        "идентификатор попытки против ключа намерения, таблица улик и трассы одного намерения на "
        "настоящей модели сервера."
    ),
    cover="/assets/retry/lost-response-cover.svg",
    published="2020-06-26",
    revised="2026-12-01",
    changes=DIAGNOSIS_CHANGES_NOTE,
    lang="ru",
    body=[
        paragraph(
            "Обращение в поддержку: «Нажал „Оплатить“, долго крутилось, потом ошибка. Нажал ещё раз\u00a0— "
            "прошло. Сколько раз с меня списали?» В логе клиента\u00a0— тайм-аут первой попытки, в "
            "базе\u00a0— платёж, созданный как раз тогда. Похоже на ошибку сервера, но чаще это штатная "
            "работа механизма из первых двух частей. Здесь\u00a0— как отличить штатное от поломки по логам "
            "и записи идемпотентности."
        ),
        heading("Четыре исхода за одним тайм-аутом"),
        paragraph(
            "Клиент во всех случаях видит одно и то же: запрос ушёл, ответа за "
            f"{server_grouped(ATTEMPT_TIMEOUT_MS)}\u00a0мс нет. На сервере за этим стоят четыре разные "
            "истории. Первая редакция называла три: четвёртую, частую при медленном сервере, она "
            "упоминала только в конце и по ошибке звала третьей."
        ),
        ordered_list(
            [
                "**Не доставлен.** Запрос не дошёл до приложения: потерялся в сети или балансировщик не "
                "нашёл живого экземпляра. На сервере нет ни строки с этой попыткой, нет и записи по ключу. "
                "Повтор с тем же ключом станет первым выполнением.",
                "**Доставлен и не выполнен.** Сервер принял запрос и сломался, не зафиксировав эффект. "
                "Записи нет, если сбой случился до резервирования; запись висит в `in_progress`, если "
                "процесс упал между резервированием и завершением; в записи лежит ошибка, если операция "
                "началась и её отказ сохранён как результат\u00a0— Stripe так повторяет даже `500`.",
                "**Доставлен и выполнен, ответ потерян.** Платёж и запись зафиксированы, ответ не доехал: "
                "оборвалось соединение, прокси ждал меньше, чем работал сервер, или клиент сдался раньше. "
                "Это и есть «ответ потерян, а платёж создан». Повтор с тем же ключом получит сохранённый "
                "ответ.",
                "**Доставлен и ещё выполняется.** Сервер работает дольше, чем клиент ждёт: транзакция "
                "владельца открыта, запись в `in_progress`, аренда не истекла. Эффекта пока нет, но он "
                "будет. Повтор с тем же ключом получит `409`, повтор после завершения\u00a0— сохранённый "
                "ответ. Пока владелец не закончил, снаружи этот исход не отличить от второго с упавшим "
                "владельцем: там тоже `in_progress` и `409`.",
            ]
        ),
        paragraph(
            "HTTP эту неоднозначность признаёт. RFC\u00a07231 выделяет идемпотентные методы потому, что их "
            "можно повторить, если связь оборвалась до того, как клиент прочитал ответ. RFC\u00a07230 "
            "(§\u00a06.3.1) запрещает агенту автоматически повторять неидемпотентный запрос, если нет "
            "способа узнать, что он на деле идемпотентен или что исходный запрос не был применён. Ключ и "
            "запись из второй части и есть такой способ; без них третий исход от первого не отличить. "
            "Прокси тот же раздел не разрешает автоматически повторять такие запросы вовсе, но вопреки "
            "RFC\u00a07230 некоторые прокси и HTTP-библиотеки так делают, и тогда на сервер приходит "
            "повтор, которого клиент не посылал."
        ),
        figure(
            "/assets/retry/four-outcomes-timeline.svg",
            alt=(
                "Четыре дорожки времени с одинаковым тайм-аутом клиента на "
                f"{server_grouped(diagnosis_at['timeoutAtMs'])}\u00a0мс. В первой запрос теряется по пути к "
                "серверу, и сервер ничего не видит. Во второй сервер принимает запрос и падает, транзакция "
                "откатывается, запись остаётся в in_progress, эффекта нет. В третьей сервер создаёт платёж "
                f"и сохраняет ответ к {server_grouped(diagnosis_at['storedAtMs'])}\u00a0мс, но ответ "
                "теряется по пути назад. В четвёртой владелец ещё работает, когда клиент сдаётся: повтор "
                "получает 409, а платёж и ответ сохраняются только к "
                f"{server_grouped(diagnosis_at['slowStoredAtMs'])}\u00a0мс."
            ),
            caption=(
                "Клиент во всех четырёх случаях видит одно: тайм-аут. Различить исходы можно только по "
                "логам сервера и записи идемпотентности, а второй от четвёртого\u00a0— лишь когда владелец "
                "завершит запись или истечёт его аренда."
            ),
        ),
        heading("Идентификатор попытки и ключ намерения"),
        paragraph(
            "В разборе участвуют два идентификатора с разной работой. Request id назначается каждому "
            "HTTP-запросу заново и связывает строку лога клиента со строками балансировщика и сервера "
            "для этой попытки; Stripe, например, возвращает его в заголовке `Request-Id` каждого ответа. "
            "Ключ идемпотентности один на все попытки намерения: он связывает попытки в одну операцию и "
            "служит ключом записи. Путать их дорого."
        ),
        unordered_list(
            [
                "Request id вместо ключа идемпотентности: каждый повтор становится новой операцией, второе "
                "списание обеспечено.",
                "Ключ вместо request id: строки разных попыток сливаются, и уже не видно, какая попытка "
                "сделала работу, а какая получила повтор.",
                "Правильно\u00a0— писать в каждую строку лога оба, а в запись\u00a0— request id владельца. "
                "Тогда строка повтора может назвать попытку, чей результат она отдаёт.",
            ]
        ),
        heading("Трасса одного намерения"),
        paragraph(
            "Фикстура `diagnosis_lost_response` исполняет модель второй части, а не её копию: те же "
            "`reserve_or_reply` и `perform`, тот же SQL с арендой и транзакцией, файл SQLite во временном "
            "каталоге и своё соединение у каждой попытки. В первой редакции здесь работала упрощённая "
            "копия в словаре, без аренды и транзакции, хотя текст называл её той же логикой. Клиент живёт "
            "по правилам первой части: тайм-аут попытки "
            f"{server_grouped(ATTEMPT_TIMEOUT_MS)}\u00a0мс, пауза {server_grouped(PAUSE_MS)}\u00a0мс, "
            "новая попытка\u00a0— только если до дедлайна помещаются пауза, тайм-аут и запас. Запрос идёт "
            f"до сервера {UPLINK_MS}\u00a0мс, работа занимает {WORK_MS}\u00a0мс, ответ идёт назад "
            f"{DOWNLINK_MS}\u00a0мс. Каждый исход прогоняется на своём файле базы. В третьем сеть теряет "
            "первый ответ уже после того, как результат сохранён; строки пишет сама модель: время в "
            "миллисекундах, источник, request id, ключ, событие."
        ),
        verified_output(
            diagnosis_lost_response,
            expected={
                "trace": [
                    "    0 client  req-01 key-001 attempt=1 POST /payments",
                    "   40 server  req-01 key-001 reserved state=in_progress",
                    "  100 server  req-01 key-001 created payment 1 state=completed 201",
                    "  100 network req-01 key-001 response lost",
                    " 1800 client  req-01 key-001 attempt=1 timeout, outcome unknown",
                    " 2050 client  req-02 key-001 attempt=2 POST /payments",
                    " 2090 server  req-02 key-001 replay 201 payment 1 stored by req-01",
                    " 2130 client  req-02 key-001 attempt=2 got 201 payment 1 (replay)",
                ]
            },
        ),
        paragraph(
            "Поиск по `req-01` показывает противоречие, с которого началась жалоба: сервер создал платёж "
            "и ответил `201`, клиент увидел тайм-аут. Это третий исход, и сервер тут ни при чём: ответ "
            "потерялся по дороге. Поиск по `key-001` показывает намерение целиком\u00a0— одно создание и "
            "один повтор, а строка повтора называет попытку, которая сделала работу. Итог и проверки "
            "модели; в конце\u00a0— тот же ключ с суммой 1\u00a0500\u00a0₽:"
        ),
        verified_output(
            diagnosis_lost_response,
            expected={
                "firstAttempt": {
                    "requestId": "req-01",
                    "serverStatus": 201,
                    "paymentId": 1,
                    "clientSaw": "timeout",
                },
                "retry": {
                    "requestId": "req-02",
                    "status": 201,
                    "paymentId": 1,
                    "replayed": True,
                    "receivedAtMs": 2130,
                },
                "effects": 1,
                "otherPayload": {"status": 422, "body": {"error": "idempotency_key_reused"}},
            },
        ),
        heading("Четвёртый исход: владелец ещё работает"),
        paragraph(
            "Тот же клиент, но транзакция владельца длится "
            f"{server_grouped(DIAGNOSIS_SLOW_WORK_MS)}\u00a0мс\u00a0— дольше, чем клиент ждёт попытку. "
            "Повтор приходит к записи, которую владелец ещё держит, и получает `409`. Следующая попытка в "
            "бюджет уже не помещается, и клиент честно говорит «исход неизвестен». Намерение с ключом "
            "сохранено, и через минуту приложение отправляет его снова:"
        ),
        verified_output(
            diagnosis_lost_response,
            expected={
                "stillRunningTrace": [
                    "    0 client  req-01 key-001 attempt=1 POST /payments",
                    "   40 server  req-01 key-001 reserved state=in_progress",
                    " 1800 client  req-01 key-001 attempt=1 timeout, outcome unknown",
                    " 2050 client  req-02 key-001 attempt=2 POST /payments",
                    " 2090 server  req-02 key-001 409 in progress, owner req-01",
                    " 2130 client  req-02 key-001 attempt=2 got 409 request_in_progress",
                    " 2540 server  req-01 key-001 created payment 1 state=completed 201",
                    " 2540 network req-01 key-001 response dropped: client gave up",
                    " 5000 client  req-02 key-001 budget spent, outcome unknown",
                    "60000 client  req-03 key-001 attempt=3 POST /payments (resend)",
                    "60040 server  req-03 key-001 replay 201 payment 1 stored by req-01",
                    "60080 client  req-03 key-001 attempt=3 got 201 payment 1 (replay)",
                ]
            },
        ),
        paragraph(
            "Ответ первой попытки сервер сохранил и отправил на "
            f"{server_grouped(diagnosis_at['slowStoredAtMs'])}\u00a0мс, когда клиент её уже не ждал. "
            "Повторная отправка получила сохранённый ответ: платёж один, и сделала его первая попытка. Со "
            "вторым исходом иначе: запись брошена, аренда кончается на "
            f"{server_grouped(diagnosis_at['leaseEndsAtMs'])}\u00a0мс, и повторная отправка перехватывает "
            "запись и создаёт платёж сама. Все четыре прогона: что было на сервере в момент тайм-аута, что "
            "видел клиент и какая попытка создала платёж:"
        ),
        verified_output(
            diagnosis_lost_response,
            expected={
                "outcomes": {
                    "not-delivered": {
                        "atTimeout": {"record": None, "payments": 0, "ownerWorking": False},
                        "client": ["timeout", 201],
                        "createdBy": "req-02",
                        "payments": 1,
                    },
                    "crashed": {
                        "atTimeout": {"record": "in_progress", "payments": 0, "ownerWorking": False},
                        "client": ["timeout", 409, 201],
                        "createdBy": "req-03",
                        "payments": 1,
                    },
                    "response-lost": {
                        "atTimeout": {"record": "completed", "payments": 1, "ownerWorking": False},
                        "client": ["timeout", 201],
                        "createdBy": "req-01",
                        "payments": 1,
                    },
                    "still-running": {
                        "atTimeout": {"record": "in_progress", "payments": 0, "ownerWorking": True},
                        "client": ["timeout", 409, 201],
                        "createdBy": "req-01",
                        "payments": 1,
                    },
                },
                "checks": {
                    "sameTimeoutInEveryLane": True,
                    "fourDifferentServerStates": True,
                    "responseLostAfterStore": True,
                    "retryReplaysSameResult": True,
                    "stillRunningAnswers409": True,
                    "crashAndStillRunningLookAlike": True,
                    "everyLaneEndsWithStoredAnswer": True,
                    "exactlyOneEffectPerLane": True,
                    "otherPayloadIsConflict": True,
                    "oneKeyOneRequestIdPerAttempt": True,
                    "answerWithinBudget": True,
                    "traceInTimeOrder": True,
                    "milestonesMatchTraces": True,
                },
            },
        ),
        paragraph(
            "Второй и четвёртый прогоны клиент видит одинаково\u00a0— тайм-аут, затем `409`,\u00a0— и сервер "
            "в момент тайм-аута тоже выглядит одинаково: запись `in_progress`, платежей нет. Различает их "
            "только то, жив ли владелец: живой завершит запись сам, а брошенная останется в `in_progress`, "
            "пока не истечёт аренда и её не перехватит повтор."
        ),
        heading("Таблица улик"),
        paragraph(
            "Каждое наблюдение что-то доказывает и что-то оставляет открытым. Полезно выписать это явно, "
            "прежде чем делать вывод."
        ),
        data_table(
            "Наблюдение, что оно доказывает и что делать дальше",
            ["Что видно", "Что это доказывает", "Что ещё неизвестно", "Следующий шаг"],
            [
                [
                    "Тайм-аут клиента на `req-01`",
                    "Ответ не пришёл за время попытки",
                    "Дошёл ли запрос и был ли эффект",
                    "Найти `req-01` в логах балансировщика и сервера, запись\u00a0— по области и ключу",
                ],
                [
                    "Ни одной строки с `req-01` на сервере",
                    "Приложение запрос не обрабатывало, если логи за этот интервал полны",
                    "Не застрял ли запрос в прокси или очереди",
                    "Проверить запись по ключу; если её нет, повтор с тем же ключом безопасен",
                ],
                [
                    "Запись `completed`, владелец `req-01`, платёж создан",
                    "Эффект был, его сделала первая попытка: третий исход",
                    "Где потерялся ответ: сервер, прокси или сеть клиента",
                    "Сравнить время ответа сервера с тайм-аутами прокси и клиента",
                ],
                [
                    "`409` на повторе, запись `in_progress`, аренда не истекла",
                    "Запрос с этим ключом ещё выполняется или его владелец упал недавно",
                    "Четвёртый это исход или второй: жив ли владелец",
                    "Не перехватывать; повторить с тем же ключом позже: сохранённый ответ придёт сам, а "
                    "брошенную запись после конца аренды перехватит повтор",
                ],
                [
                    "Запись `in_progress`, аренда истекла",
                    "Владелец начал и не закончил; при локальном эффекте эффекта нет",
                    "Для внешнего эффекта\u00a0— прошёл ли вызов",
                    "Локальный эффект: повтор перехватит запись; внешний: сначала спросить внешнюю систему",
                ],
                [
                    "Две строки сервера с одним request id, а клиент отправил попытку один раз",
                    "Запрос повторил кто-то между клиентом и сервером\u00a0— прокси или библиотека, вопреки "
                    "RFC\u00a07230",
                    "Какой узел повторяет `POST` сам",
                    "По записи убедиться, что второй запрос получил повтор или `409`; автоматический повтор "
                    "`POST` в этом узле отключить",
                ],
                [
                    "Два платежа по заказу с разными ключами",
                    "Сервер честно выполнил две разные операции",
                    "Откуда второй ключ: новый на попытку или потерян при перезапуске",
                    "Разбирать клиента: где создаётся и где хранится ключ",
                ],
                [
                    "`422` на повторе",
                    "Ключ пришёл с другим телом",
                    "Менялись ли данные или в отпечаток попал шум: время, номер попытки",
                    "Сравнить канонические тела; новым данным\u00a0— новый ключ",
                ],
            ],
        ),
        heading("Где в бюджете потерялся ответ"),
        paragraph(
            f"Бюджет намерения из первой части\u00a0— {server_grouped(BUDGET_MS)}\u00a0мс. Наложим на него "
            "трассу третьего исхода:"
        ),
        data_table(
            f"Фазы бюджета {server_grouped(BUDGET_MS)}\u00a0мс и события трассы",
            ["Фаза", "Интервал, мс", "Что происходит в трассе"],
            [
                [
                    "Попытка 1",
                    f"0–{server_grouped(diagnosis_at['timeoutAtMs'])}",
                    f"Запрос доходит до сервера за {UPLINK_MS}\u00a0мс, платёж и ответ сохранены к "
                    f"{server_grouped(diagnosis_at['storedAtMs'])}\u00a0мс, ответ потерян; клиент ждёт до "
                    "конца тайм-аута",
                ],
                [
                    "Пауза",
                    f"{server_grouped(diagnosis_at['timeoutAtMs'])}–"
                    f"{server_grouped(diagnosis_at['secondSentAtMs'])}",
                    "Ничего не отправляется",
                ],
                [
                    "Попытка 2",
                    f"{server_grouped(diagnosis_at['secondSentAtMs'])}–"
                    f"{server_grouped(diagnosis_at['secondDeadlineAtMs'])}",
                    "Тот же ключ, новый request id; сохранённый ответ у клиента к "
                    f"{server_grouped(diagnosis_at['replayReceivedAtMs'])}\u00a0мс",
                ],
                [
                    "Запас на неопределённый исход",
                    f"{server_grouped(diagnosis_at['secondDeadlineAtMs'])}–{server_grouped(BUDGET_MS)}",
                    "Не понадобился; без ответа на вторую попытку клиент сказал бы «платёж мог пройти, "
                    "проверяем статус»",
                ],
            ],
        ),
        paragraph(
            f"Сервер закончил работу к {server_grouped(diagnosis_at['storedAtMs'])}\u00a0мс, а клиент ждал "
            f"до {server_grouped(diagnosis_at['timeoutAtMs'])}\u00a0мс: ответ потерялся не из-за медленного "
            "сервера, искать надо в соединении и прокси. Обратный случай тревожнее. Если время работы "
            "сервера подбирается к тайм-ауту попытки, нормой становится четвёртый исход: повторы "
            "приходят, пока первая попытка ещё в `in_progress`, и в логах растёт доля `409`. Это лечится "
            "не ключами, а согласованием тайм-аутов: сервер укладывается в тайм-аут клиента с запасом, "
            "прокси ждёт не меньше сервера."
        ),
        heading("Что считать ошибкой"),
        unordered_list(
            [
                "**Не ошибка**: тайм-аут у клиента, `201` на сервере и повтор с тем же ключом, получивший "
                "сохранённый ответ. И `409` на повторе, пока первая попытка ещё работает. Механизм "
                "сработал.",
                "**Ошибка сервера**: два эффекта в одной области; повтор, отданный другому клиенту; "
                "`in_progress`, который никто не восстанавливает.",
                "**Ошибка клиента**: два ключа на одно намерение; ключ, переживший изменение данных "
                "(`422`); повтор после срока хранения записи.",
            ]
        ),
        paragraph(
            "Разбор начинается с двух поисков\u00a0— по request id попытки и по ключу намерения\u00a0— и с "
            "одного запроса к таблице записей. Вот он, тот же, каким фикстура смотрит на запись:"
        ),
        code_block(DIAGNOSIS_RECORD_SQL, language="sql"),
        paragraph(
            "Если логи пишут оба идентификатора, а запись помнит владельца и его аренду, жалоба «ответа не "
            "было, а платёж создан» закрывается за минуты: списание одно, повтор получил тот же платёж."
        ),
    ],
    sources=[
        DIAGNOSIS_RFC7231,
        SERVER_RFC7230,
        STRIPE_REQUEST_IDS,
        SERVER_STRIPE_IDEMPOTENCY,
        SERVER_IDEMPOTENCY_KEY_DRAFT,
    ],
)

revisions = [server_revision, diagnosis_revision]
