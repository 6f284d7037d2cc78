"""Повтор без второго эффекта, часть первая: сторона клиента.

Модель ниже — тот клиент, о котором говорит статья: намерение получает ключ до
первой попытки, попытки несут один и тот же ключ, у намерения один дедлайн.
Сети и часов нет: время — целые миллисекунды, ответы сервера теряются на
обратном пути, поэтому каждая попытка кончается тайм-аутом после отправки.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
import tempfile
import threading
from dataclasses import dataclass, field

from _shown_source import source_of

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

# --- Модель клиента -------------------------------------------------------

BUDGET_MS = 5000  # бюджет одного намерения целиком
ATTEMPT_TIMEOUT_MS = 1800  # предел одной попытки
PAUSE_MS = 250  # пауза перед повтором
RESERVE_MS = 1000  # запас, чтобы честно показать неопределённый исход
MAX_ATTEMPTS = 3


class KeySource:
    """Детерминированная замена uuid4(): в модели ключи просто нумеруются."""

    def __init__(self) -> None:
        self.issued = 0

    def new_key(self) -> str:
        self.issued += 1
        return f"key-{self.issued:03d}"


class LossyServer:
    """Сервер с учётом ключей; его ответы теряются по дороге к клиенту."""

    def __init__(self) -> None:
        self.effects = 0
        self.stored: dict[str, dict[str, object]] = {}

    def handle(self, key: str, payload: dict[str, object]) -> None:
        if key not in self.stored:  # новый ключ: операция выполняется
            self.effects += 1
            self.stored[key] = {"status": 201, "payload": dict(payload)}
        # повтор с известным ключом получил бы сохранённый ответ; он тоже теряется


@dataclass
class Intent:
    payload: dict[str, object]
    key: str
    started_ms: int
    deadline_ms: int
    attempt: int = 0


@dataclass
class Client:
    keys: KeySource
    server: LossyServer
    now_ms: int = 0
    current: Intent | None = None
    log: list[dict[str, object]] = field(default_factory=list)
    spent: list[tuple[str, int]] = field(default_factory=list)

    def submit(self, payload: dict[str, object]) -> Intent:
        """Нажатие кнопки: те же данные — то же намерение, другие — новое."""
        if self.current is not None and self.current.payload == payload:
            return self.current
        self.current = Intent(
            payload=dict(payload),
            key=self.keys.new_key(),  # ключ появляется до первой попытки
            started_ms=self.now_ms,
            deadline_ms=self.now_ms + BUDGET_MS,
        )
        return self.current

    def key_for_attempt(self, intent: Intent) -> str:
        return intent.key  # номер попытки в ключ не входит

    def deadline_for_attempt(self, intent: Intent) -> int:
        return intent.deadline_ms  # повтор тратит бюджет, а не продлевает его

    def run(self, intent: Intent) -> str:
        while intent.attempt < MAX_ATTEMPTS:
            deadline = self.deadline_for_attempt(intent)
            pause = PAUSE_MS if intent.attempt else 0
            if deadline - self.now_ms < pause + ATTEMPT_TIMEOUT_MS + RESERVE_MS:
                break  # следующая попытка не уместится вместе с запасом
            if pause:
                self.spend("pause", pause)
            intent.attempt += 1
            key = self.key_for_attempt(intent)
            self.log.append(
                {"attempt": intent.attempt, "key": key, "sentAtMs": self.now_ms, "deadlineMs": deadline}
            )
            self.server.handle(key, intent.payload)
            timeout = min(ATTEMPT_TIMEOUT_MS, deadline - self.now_ms)
            self.spend("attempt", timeout)  # ответа нет: тайм-аут после отправки
        self.spend("uncertain", self.deadline_for_attempt(intent) - self.now_ms)
        return "uncertain"

    def spend(self, phase: str, ms: int) -> None:
        self.spent.append((phase, ms))
        self.now_ms += ms


def simulate_intent() -> dict[str, object]:
    """Одно намерение под потерю ответов, затем двойное нажатие и смена суммы."""
    keys, server = KeySource(), LossyServer()
    client = Client(keys=keys, server=server)
    payload: dict[str, object] = {"order": 1042, "amountRub": 1200}
    intent = client.submit(payload)
    same_click = client.submit(dict(payload))  # второе нажатие до ответа
    outcome = client.run(intent)
    changed = client.submit({"order": 1042, "amountRub": 1500})

    sent_keys = [entry["key"] for entry in client.log]
    numbers = [entry["attempt"] for entry in client.log]
    budget_end = intent.started_ms + BUDGET_MS
    return {
        "budgetMs": BUDGET_MS,
        "phases": [{"phase": phase, "ms": ms} for phase, ms in client.spent],
        "attempts": len(client.log),
        "distinctKeys": len(set(sent_keys)),
        "serverEffects": server.effects,
        "outcome": outcome,
        "log": client.log,
        "checks": {
            "keyStableAcrossAttempts": len(sent_keys) >= 2 and set(sent_keys) == {intent.key},
            "attemptCounterGrows": numbers == list(range(1, len(numbers) + 1)),
            "deadlineNeverExtended": all(e["deadlineMs"] == budget_end for e in client.log)
            and client.now_ms == budget_end,
            "phasesAddUpToBudget": sum(ms for _, ms in client.spent) == BUDGET_MS,
            "oneServerEffect": server.effects == 1,
            "repeatedClickKeepsKey": same_click is intent,
            "changedPayloadGetsNewKey": changed.key != intent.key,
        },
    }


@fixture
def intent_budget() -> dict[str, object]:
    return simulate_intent()


def _source_of(*objects: object) -> str:
    return source_of(*objects)


# === Часть вторая: сервер ==================================================
#
# Запись идемпотентности живёт в таблице базы. Те же константы SQL, что ниже
# исполняет фикстура sqlite_reservation, показывает статья: текст не разойдётся
# с кодом. Время модели — целые секунды от нуля, а не часы машины.

LEASE_S = 30  # столько секунд попытка-владелец держит запись в in_progress
RETENTION_S = 24 * 3600  # столько живёт запись: много дольше любого окна повторов

IDEMPOTENCY_SCHEMA_SQL = """
CREATE TABLE idempotency_record (
    actor       TEXT    NOT NULL,  -- из аутентификации, не из тела
    operation   TEXT    NOT NULL,  -- метод и маршрут
    idem_key    TEXT    NOT NULL,  -- Idempotency-Key намерения
    fingerprint TEXT    NOT NULL,  -- sha256 канонического тела
    state       TEXT    NOT NULL CHECK (state IN ('in_progress', 'completed')),
    owner       TEXT    NOT NULL,  -- request id попытки-владельца
    lease_until INTEGER NOT NULL,  -- до какого момента
    status_code INTEGER,           -- сохранённый ответ: статус
    body        TEXT,              -- и тело
    expires_at  INTEGER NOT NULL,  -- когда запись можно удалить
    PRIMARY KEY (actor, operation, idem_key)
);
"""

PAYMENT_SCHEMA_SQL = """
CREATE TABLE payment (
    id         INTEGER PRIMARY KEY,
    actor      TEXT    NOT NULL,
    order_id   INTEGER NOT NULL,
    amount_rub INTEGER NOT NULL
);
"""

RESERVE_SQL = """
INSERT INTO idempotency_record
       (actor, operation, idem_key, fingerprint, state, owner, lease_until, expires_at)
VALUES (:actor, :operation, :key, :fingerprint, 'in_progress', :owner,
        :now + :lease, :now + :retention)
ON CONFLICT (actor, operation, idem_key) DO NOTHING
RETURNING state;
"""

LOOKUP_SQL = """
SELECT fingerprint, state, status_code, body
  FROM idempotency_record
 WHERE actor = :actor AND operation = :operation AND idem_key = :key;
"""

TAKEOVER_SQL = """
UPDATE idempotency_record
   SET owner = :owner, lease_until = :now + :lease
 WHERE actor = :actor AND operation = :operation AND idem_key = :key
   AND state = 'in_progress' AND lease_until <= :now
RETURNING owner;
"""

COMPLETE_SQL = """
UPDATE idempotency_record
   SET state = 'completed', status_code = :status, body = :body
 WHERE actor = :actor AND operation = :operation AND idem_key = :key
   AND state = 'in_progress' AND owner = :owner;
"""

INSERT_PAYMENT_SQL = """
INSERT INTO payment (actor, order_id, amount_rub) VALUES (:actor, :order, :amountRub);
"""


@dataclass(frozen=True)
class Request:
    actor: str  # кто: берётся из аутентификации
    operation: str  # что: метод и маршрут
    key: str  # Idempotency-Key: один на намерение
    payload: dict[str, object]
    request_id: str  # один на попытку: для логов и аренды, не для идентичности

    def scope(self) -> dict[str, str]:
        return {"actor": self.actor, "operation": self.operation, "key": self.key}


@dataclass(frozen=True)
class Reply:
    status: int
    body: dict[str, object]
    replayed: bool = False


class SimulatedCrashError(Exception):
    """Процесс «упал» посреди транзакции: база откатит всё, что в ней было."""


class LostLeaseError(Exception):
    """Запись уже ведёт другая попытка: свой эффект откатываем вместе с транзакцией."""


def fingerprint(payload: dict[str, object]) -> str:
    """Отпечаток канонической формы тела: порядок полей и пробелы не влияют."""
    canonical = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def fetch(conn: sqlite3.Connection, sql: str, params: dict[str, object]) -> list[tuple[object, ...]]:
    """Все строки сразу: недочитанный курсор держал бы блокировку базы."""
    return conn.execute(sql, params).fetchall()


def reserve_or_reply(conn: sqlite3.Connection, req: Request, now: int) -> Reply | None:
    """None — ключ достался этой попытке и работу делает она; иначе — ответ дублю."""
    fp = fingerprint(req.payload)
    lease = {**req.scope(), "owner": req.request_id, "now": now, "lease": LEASE_S}
    if fetch(conn, RESERVE_SQL, {**lease, "fingerprint": fp, "retention": RETENTION_S}):
        return None
    [(stored_fp, state, status, body)] = fetch(conn, LOOKUP_SQL, req.scope())
    if stored_fp != fp:
        return Reply(422, {"error": "idempotency_key_reused"})
    if state == "completed":
        return Reply(int(status), json.loads(str(body)), replayed=True)
    if fetch(conn, TAKEOVER_SQL, lease):  # аренда истекла: эффекта нет, работа наша
        return None
    return Reply(409, {"error": "request_in_progress"})


def perform(conn: sqlite3.Connection, req: Request, *, crash_after_effect: bool = False) -> Reply:
    """Платёж и завершение записи фиксируются одной транзакцией — или не фиксируются."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        cursor = conn.execute(INSERT_PAYMENT_SQL, {"actor": req.actor, **req.payload})
        if crash_after_effect:
            raise SimulatedCrashError(req.request_id)
        reply = Reply(201, {"paymentId": cursor.lastrowid, **req.payload})
        completed = conn.execute(
            COMPLETE_SQL,
            {**req.scope(), "owner": req.request_id, "status": reply.status, "body": json.dumps(reply.body)},
        )
        if completed.rowcount != 1:
            raise LostLeaseError(req.request_id)
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
    return reply


def handle(conn: sqlite3.Connection, req: Request, now: int) -> Reply:
    reply = reserve_or_reply(conn, req, now)
    return perform(conn, req) if reply is None else reply


def connect(path: str) -> sqlite3.Connection:
    # isolation_level=None: транзакции открываем сами, каждый оператор вне BEGIN — своя.
    return sqlite3.connect(path, timeout=5, isolation_level=None)


def race_same_key(path: str, requests: list[Request], now: int) -> list[tuple[bool, Reply]]:
    """Попытки с одним ключом в разных потоках, у каждой своё соединение с базой."""
    start = threading.Barrier(len(requests), timeout=5)
    answered = threading.Barrier(len(requests), timeout=5)
    results: list[tuple[bool, Reply]] = []
    errors: list[BaseException] = []

    def attempt(req: Request) -> None:
        conn = connect(path)
        try:
            start.wait()  # все вставки уходят в базу одновременно
            early = reserve_or_reply(conn, req, now)
            answered.wait()  # владелец работает, когда дубль уже получил ответ
            results.append((early is None, perform(conn, req) if early is None else early))
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


def simulate_sqlite_reservation() -> dict[str, object]:
    """Гонка за ключ, повтор, чужое тело, чужой клиент, падение и перехват аренды."""
    order: dict[str, object] = {"order": 1042, "amountRub": 1200}

    def request(
        request_id: str, *, actor: str = "shop-1", key: str = "key-001", **changes: object
    ) -> Request:
        return Request(actor, "POST /payments", key, {**order, **changes}, request_id)

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "idempotency.sqlite3")
        conn = connect(path)
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.executescript(IDEMPOTENCY_SCHEMA_SQL + PAYMENT_SCHEMA_SQL)

            race = race_same_key(path, [request("req-a"), request("req-b")], now=0)
            owned = [reply for is_owner, reply in race if is_owner]
            waiting = [reply for is_owner, reply in race if not is_owner]
            first = owned[0] if owned else Reply(0, {})

            retry = handle(conn, request("req-c"), now=2)
            other_payload = handle(conn, request("req-d", amountRub=1500), now=3)
            other_actor = handle(conn, request("req-e", actor="shop-2"), now=3)

            crashed = request("req-f", key="key-002", order=1043)
            assert reserve_or_reply(conn, crashed, now=10) is None
            with contextlib.suppress(SimulatedCrashError):
                perform(conn, crashed, crash_after_effect=True)
            [(_, state_after_crash, _, _)] = fetch(conn, LOOKUP_SQL, crashed.scope())
            [(effects_after_crash,)] = fetch(conn, "SELECT COUNT(*) FROM payment WHERE order_id = 1043", {})
            before_lease = handle(conn, request("req-g", key="key-002", order=1043), now=20)
            after_lease = handle(conn, request("req-h", key="key-002", order=1043), now=10 + LEASE_S)

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

    return {
        "race": {"owners": len(owned), "statuses": sorted(reply.status for _, reply in race)},
        "retry": {"status": retry.status, "body": retry.body, "replayed": retry.replayed},
        "otherPayload": {"status": other_payload.status, "body": other_payload.body},
        "otherActor": {
            "status": other_actor.status,
            "body": other_actor.body,
            "replayed": other_actor.replayed,
        },
        "stuck": {
            "stateAfterCrash": state_after_crash,
            "effectsAfterCrash": effects_after_crash,
            "beforeLease": before_lease.status,
            "afterLease": after_lease.status,
        },
        "payments": payments,
        "checks": {
            "exactlyOneOwner": len(owned) == 1,
            "duplicateSawInProgress": [reply.body for reply in waiting] == [{"error": "request_in_progress"}],
            "retryReplaysStoredReply": retry.replayed
            and (retry.status, retry.body) == (first.status, first.body),
            "otherPayloadIsConflict": other_payload.status == 422,
            "otherActorIsIndependent": other_actor.status == 201
            and not other_actor.replayed
            and other_actor.body.get("paymentId") != first.body.get("paymentId"),
            "crashLeftNoEffect": state_after_crash == "in_progress" and effects_after_crash == 0,
            "takeoverOnlyAfterLease": before_lease.status == 409
            and after_lease.status == 201
            and not after_lease.replayed,
            "oneEffectPerScope": [p["count"] for p in payments] == [1, 1, 1],
        },
    }


@fixture
def sqlite_reservation() -> dict[str, object]:
    return simulate_sqlite_reservation()


# === Часть третья: одна и та же запись в памяти и трасса ==================

UPLINK_MS = 40  # запрос идёт до сервера
WORK_MS = 60  # сервер резервирует ключ, создаёт платёж, сохраняет ответ
DOWNLINK_MS = 40  # ответ идёт обратно, если сеть его не теряет


class Trace:
    """Строки лога в порядке событий: время, источник, попытка, ключ, сообщение."""

    def __init__(self) -> None:
        self.times: list[int] = []
        self.lines: list[str] = []

    def log(self, ms: int, source: str, req: Request, message: str) -> None:
        self.times.append(ms)
        self.lines.append(f"{ms:>5} {source:<7} {req.request_id} {req.key} {message}")


class MemoryIdempotencyService:
    """Та же логика записи, что в SQLite, но в словаре одного процесса."""

    def __init__(self, trace: Trace) -> None:
        self.trace = trace
        self.records: dict[tuple[str, ...], dict[str, object]] = {}
        self.payments: list[dict[str, object]] = []

    def lookup(self, req: Request) -> dict[str, object] | None:
        return self.records.get(tuple(req.scope().values()))

    def handle(self, req: Request, at_ms: int) -> tuple[Reply, int]:
        """Ответ и момент, когда он готов уйти клиенту."""
        fp = fingerprint(req.payload)
        record = self.lookup(req)
        if record is None:
            record = {"fingerprint": fp, "state": "in_progress", "owner": req.request_id}
            self.records[tuple(req.scope().values())] = record
            self.trace.log(at_ms, "server", req, "reserved state=in_progress")
            payment_id = f"pay-{len(self.payments) + 1:04d}"
            self.payments.append({"id": payment_id, **req.payload})
            reply = Reply(201, {"paymentId": payment_id, **req.payload})
            record.update(state="completed", status=reply.status, body=reply.body)
            self.trace.log(at_ms + WORK_MS, "server", req, f"created {payment_id} state=completed 201")
            return reply, at_ms + WORK_MS
        if record["fingerprint"] != fp:
            self.trace.log(at_ms, "server", req, "422 fingerprint differs")
            return Reply(422, {"error": "idempotency_key_reused"}), at_ms
        if record["state"] != "completed":
            return Reply(409, {"error": "request_in_progress"}), at_ms
        body = dict(record["body"])
        self.trace.log(at_ms, "server", req, f"replay 201 {body['paymentId']} stored by {record['owner']}")
        return Reply(int(record["status"]), body, replayed=True), at_ms


def simulate_lost_response() -> dict[str, object]:
    """Одно намерение, две попытки; сеть теряет первый ответ уже после сохранения."""
    trace = Trace()
    service = MemoryIdempotencyService(trace)
    payload: dict[str, object] = {"order": 1042, "amountRub": 1200}
    lost_responses = {"req-01"}
    sent_ms, attempts = 0, []
    first: Reply | None = None
    final: Reply | None = None
    state_when_lost: object = None
    received_ms = BUDGET_MS + 1
    for number in range(1, MAX_ATTEMPTS + 1):
        req = Request("shop-1", "POST /payments", "key-001", dict(payload), f"req-{number:02d}")
        trace.log(sent_ms, "client", req, f"attempt={number} POST /payments")
        reply, ready_ms = service.handle(req, sent_ms + UPLINK_MS)
        first = first or reply
        attempts.append({"requestId": req.request_id, "key": req.key, "sentAtMs": sent_ms})
        if req.request_id in lost_responses:
            state_when_lost = (service.lookup(req) or {}).get("state")
            trace.log(ready_ms, "network", req, "response lost")
            trace.log(
                sent_ms + ATTEMPT_TIMEOUT_MS, "client", req, f"attempt={number} timeout, outcome unknown"
            )
            sent_ms += ATTEMPT_TIMEOUT_MS + PAUSE_MS
            continue
        received_ms = ready_ms + DOWNLINK_MS
        replay_mark = " (replay)" if reply.replayed else ""
        trace.log(
            received_ms,
            "client",
            req,
            f"attempt={number} got {reply.status} {reply.body.get('paymentId')}{replay_mark}",
        )
        final = reply
        break
    shown_trace = list(trace.lines)
    changed = Request("shop-1", "POST /payments", "key-001", {**payload, "amountRub": 1500}, "req-03")
    conflict, _ = service.handle(changed, received_ms + 1000)
    assert first is not None and final is not None
    return {
        "firstAttempt": {
            "requestId": attempts[0]["requestId"],
            "serverStatus": first.status,
            "paymentId": first.body.get("paymentId"),
            "clientSaw": "timeout",
        },
        "retry": {
            "requestId": attempts[-1]["requestId"],
            "status": final.status,
            "paymentId": final.body.get("paymentId"),
            "replayed": final.replayed,
            "receivedAtMs": received_ms,
        },
        "otherPayload": {"status": conflict.status, "body": conflict.body},
        "effects": len(service.payments),
        "trace": shown_trace,
        "checks": {
            "responseLostAfterStore": state_when_lost == "completed",
            "retryReplaysSameResult": final.replayed
            and final.body.get("paymentId") == first.body.get("paymentId"),
            "otherPayloadIsConflict": conflict.status == 422,
            "exactlyOneEffect": len(service.payments) == 1,
            "oneKeyTwoRequestIds": len({a["key"] for a in attempts}) == 1
            and len({a["requestId"] for a in attempts}) == len(attempts) == 2,
            "answerWithinBudget": received_ms <= BUDGET_MS,
            "traceInTimeOrder": trace.times == sorted(trace.times),
        },
    }


@fixture
def lost_response() -> dict[str, object]:
    return simulate_lost_response()


# --- Источники -------------------------------------------------------------

RFC7231 = Source(
    title="RFC 7231: Hypertext Transfer Protocol (HTTP/1.1): Semantics and Content",
    url="https://www.rfc-editor.org/rfc/rfc7231.html",
    note=(
        "§4.2.2: идемпотентные методы (PUT, DELETE и безопасные) и то, что их можно повторить "
        "при обрыве связи до ответа, а POST к ним не относится; §6.5.8: 409 Conflict; "
        "§6.6.4: 503 и Retry-After; §7.1.3: Retry-After как HTTP-дата или число секунд"
    ),
)
RFC7230 = Source(
    title="RFC 7230: HTTP/1.1 Message Syntax and Routing, §6.3.1 Retrying Requests",
    url="https://www.rfc-editor.org/rfc/rfc7230.html#section-6.3.1",
    note=(
        "агент не повторяет неидемпотентный запрос автоматически, если не знает, что запрос "
        "на деле идемпотентен или что исходный запрос не был применён"
    ),
)
STRIPE_IDEMPOTENCY = Source(
    title="Stripe API Reference: Idempotent requests",
    url="https://docs.stripe.com/api/idempotent_requests",
    note=(
        "ключ создаёт клиент (рекомендуется UUID v4); сохраняется первый ответ по ключу, "
        "включая 500; параметры повтора сравниваются с исходными; при ошибке валидации или "
        "конфликте с параллельным запросом результат не сохраняется и запрос можно повторить"
    ),
)
STRIPE_ERRORS = Source(
    title="Stripe API Reference: Errors",
    url="https://docs.stripe.com/api/errors",
    note="409 Conflict: запрос конфликтует с другим, например из-за того же ключа идемпотентности",
)

# --- Статья ----------------------------------------------------------------

the_revision = revision(
    slug="retry-client-one-intent-one-key",
    title="Повтор без второго эффекта: одно намерение — один ключ",
    categories=["HTTP", "Надёжность"],
    excerpt=(
        "Клиентская половина безопасного повтора: ключ идемпотентности создаётся до первого "
        "запроса и живёт, пока живёт намерение, а у намерения один бюджет времени, который "
        "повторы тратят, но не продлевают."
    ),
    cover="/assets/retry/client-intent-cover.svg",
    published="2020-06-18",
    lang="ru",
    body=[
        paragraph(
            "Человек нажимает «Оплатить». Запрос уходит, ответа нет, и через 1,8 секунды клиент "
            "прекращает ждать. Что произошло на сервере, из этой попытки узнать нельзя: запрос мог "
            "не дойти, мог дойти и упасть, а мог выполниться целиком — тогда потерялся только ответ. "
            "Повторять нужно, но повтор `POST` без договорённости с сервером рискует вторым списанием."
        ),
        paragraph(
            "Договорённость состоит из двух половин. Сервер хранит результат по ключу "
            "идемпотентности и на повтор с тем же ключом отвечает сохранённым результатом, а не "
            "выполняет операцию заново. Клиент отвечает за всё остальное: когда ключ появляется, "
            "сколько он живёт, когда повторять и что показать человеку, если бюджет времени кончился. "
            "Эта заметка — о клиентской половине."
        ),
        heading("Метод не спасает, спасает договорённость"),
        paragraph(
            "HTTP выделяет идемпотентные методы — `PUT`, `DELETE` и безопасные вроде `GET` — как раз "
            "потому, что их можно повторить, если связь оборвалась до того, как клиент прочёл ответ. "
            "`POST` в этот список не входит, и RFC 7230 прямо запрещает агенту повторять такой "
            "запрос автоматически, если у него нет способа знать, что семантика запроса на деле "
            "идемпотентна или что исходный запрос не был применён. Ключ идемпотентности и есть такой "
            "способ: клиент и сервер условились, что все запросы с одним ключом — одна операция."
        ),
        heading("Ключ принадлежит намерению, а не попытке"),
        paragraph(
            "Намерение — то, чего хотел человек: «оплатить заказ 1042 на 1 200 ₽». Попытка — один "
            "HTTP-запрос, который пытается это намерение исполнить. У намерения может быть несколько "
            "попыток, и все они несут один ключ. Из этого следуют три правила."
        ),
        ordered_list(
            [
                "**Ключ создаётся до первой попытки** и сохраняется вместе с намерением — там, где он "
                "переживёт перезагрузку страницы или перезапуск приложения: в хранилище сессии, "
                "локальной базе, очереди исходящих операций. Ключ, придуманный в обработчике ошибки "
                "или внутри цикла повторов, опоздал.",
                "**Номер попытки пишется в лог и метрики, но не входит в идентичность**: ни в ключ, "
                "ни в тело запроса. Сервер вправе сравнивать повтор с исходным запросом — Stripe, "
                "например, сверяет параметры и отвечает ошибкой, если они разошлись.",
                "**Новый ключ — только для нового намерения**: человек изменил сумму, адрес, состав "
                "корзины. Второе нажатие той же кнопки с теми же данными — не новое намерение, а ещё "
                "одна попытка прежнего.",
            ]
        ),
        paragraph(
            "Сам ключ должен быть уникальным и непредсказуемым; Stripe советует UUID версии 4 или "
            "другую случайную строку с достаточной энтропией. Вычислять ключ как хеш содержимого "
            "(заказ плюс сумма) соблазнительно, но тогда два честных одинаковых действия подряд, "
            "скажем два одинаковых пополнения, склеятся в одно."
        ),
        heading("Один бюджет на всё намерение"),
        paragraph(
            "Вторая частая ошибка — свежий таймер на каждую попытку. Клиент ждёт пять секунд, "
            "повторяет и снова ждёт пять, и после трёх попыток человек смотрит на индикатор "
            "пятнадцать секунд. Честнее дать бюджет намерению: в момент нажатия вычисляется "
            "дедлайн, и каждая попытка ждёт не дольше, чем осталось до него. Повтор тратит "
            "бюджет, а не продлевает его."
        ),
        paragraph(
            "Пример для 5 000 мс: первая попытка ждёт до 1 800 мс, пауза 250 мс, вторая попытка — "
            "ещё до 1 800 мс. К отметке 3 850 мс остаётся 1 150 мс. Новая попытка начинается, "
            "только если до дедлайна помещаются пауза, полный тайм-аут и запас в 1 000 мс на "
            "объяснение (250 + 1 800 + 1 000 = 3 050 мс), поэтому третьей не будет. Оставшиеся "
            "1 150 мс уходят на честный экран: «Платёж мог пройти. Проверяем статус — не платите "
            "повторно»."
        ),
        figure(
            "/assets/retry/intent-budget-timeline.svg",
            alt=(
                "Шкала времени от 0 до 5 000 мс: попытка 1 длится 1 800 мс, пауза 250 мс, "
                "попытка 2 ещё 1 800 мс до отметки 3 850 мс, затем 1 150 мс на показ "
                "неопределённого исхода до неподвижного дедлайна в 5 000 мс. Обе попытки несут "
                "один ключ key-001."
            ),
            caption=(
                "Бюджет намерения: 1 800 + 250 + 1 800 + 1 150 = 5 000 мс. Дедлайн задаётся при "
                "нажатии и не сдвигается ни одной попыткой."
            ),
        ),
        paragraph(
            "Ниже — модель этого клиента, на которой проверены цифры статьи. Сети и часов в ней "
            "нет: время — целые миллисекунды, сервер учитывает ключи, а его ответы теряются по "
            "дороге назад, так что каждая попытка кончается тайм-аутом после отправки. Запрос "
            "при этом доходит, и именно поэтому важен ключ. Константы: "
            f"`BUDGET_MS = {BUDGET_MS}`, `ATTEMPT_TIMEOUT_MS = {ATTEMPT_TIMEOUT_MS}`, "
            f"`PAUSE_MS = {PAUSE_MS}`, `RESERVE_MS = {RESERVE_MS}`, `MAX_ATTEMPTS = {MAX_ATTEMPTS}`."
        ),
        code_block(
            _source_of(
                Client.submit, Client.key_for_attempt, Client.deadline_for_attempt, Client.run, Client.spend
            ),
            language="python",
        ),
        paragraph("Фазы, на которые модель потратила бюджет, и итог:"),
        verified_output(
            intent_budget,
            expected={
                "budgetMs": 5000,
                "phases": [
                    {"phase": "attempt", "ms": 1800},
                    {"phase": "pause", "ms": 250},
                    {"phase": "attempt", "ms": 1800},
                    {"phase": "uncertain", "ms": 1150},
                ],
                "attempts": 2,
                "distinctKeys": 1,
                "serverEffects": 1,
                "outcome": "uncertain",
            },
        ),
        paragraph(
            "Лог попыток и проверки, которые модель вычисляет сама. Номер попытки растёт, ключ и "
            "дедлайн одни и те же. Если выдавать новый ключ на каждую попытку, сервер увидит две "
            "разные операции и выполнит обе; если заводить таймер на каждую попытку, та же модель "
            "сделает третью попытку и выйдет за 5 000 мс. Обе поломки проверены мутационным тестом "
            "рядом со статьёй: проверки становятся ложными."
        ),
        verified_output(
            intent_budget,
            expected={
                "log": [
                    {"attempt": 1, "key": "key-001", "sentAtMs": 0, "deadlineMs": 5000},
                    {"attempt": 2, "key": "key-001", "sentAtMs": 2050, "deadlineMs": 5000},
                ],
                "checks": {
                    "keyStableAcrossAttempts": True,
                    "attemptCounterGrows": True,
                    "deadlineNeverExtended": True,
                    "phasesAddUpToBudget": True,
                    "oneServerEffect": True,
                    "repeatedClickKeepsKey": True,
                    "changedPayloadGetsNewKey": True,
                },
            },
        ),
        heading("Что разрешает каждое наблюдение"),
        paragraph(
            "После попытки у клиента есть наблюдение, и от него зависит не только «повторять или "
            "нет», но и что клиент вправе сказать человеку."
        ),
        data_table(
            "Наблюдение после попытки и допустимый следующий шаг",
            ["Наблюдение", "Что оно позволяет", "Следующий шаг"],
            [
                [
                    "Итоговый ответ, сохранённый сервером (в том числе повторённый по ключу)",
                    "Считать намерение завершённым: это тот же результат, что получил бы первый запрос",
                    "Показать результат и закрыть намерение; ключ больше не отправлять",
                ],
                [
                    "Тайм-аут транспорта после отправки",
                    "Ничего не утверждать: операция могла выполниться",
                    "Повторить с тем же ключом и теми же данными, если бюджет позволяет; иначе "
                    "показать неопределённый исход",
                ],
                [
                    "`409 Conflict` на тот же ключ",
                    "Понять, что запрос с этим ключом ещё выполняется и результата пока нет",
                    "Не менять ключ; подождать и повторить с тем же ключом в пределах бюджета",
                ],
                [
                    "Ошибка валидации `4xx` (`400`, `422`)",
                    "Знать, что запрос отвергнут до выполнения и такой же повтор даст такой же ответ",
                    "Не повторять; показать ошибку; исправленные данные — новое намерение и новый ключ",
                ],
                [
                    "`503` с `Retry-After`",
                    "Знать, что сервер сейчас не обслуживает запрос и когда он просит вернуться",
                    "Ждать указанный срок, если он умещается в остаток бюджета, и повторить с тем же "
                    "ключом; иначе — неопределённый исход",
                ],
            ],
        ),
        paragraph(
            "«Итоговый» здесь значит «сохранённый», а не «успешный». Stripe на повтор с тем же "
            "ключом возвращает сохранённый ответ первого запроса, включая `500`, так что долбить "
            "сервер тем же ключом дальше бессмысленно: ответ не изменится. Решение попробовать "
            "снова с новым ключом — это уже новое намерение, и принимать его должен человек или "
            "бизнес-логика, которая сначала выяснила статус операции."
        ),
        paragraph(
            "Про `409` стоит помнить, что HTTP описывает этот код широко — конфликт с текущим "
            "состоянием ресурса, — а конкретный смысл задаёт API. У Stripe конфликт с параллельным "
            "запросом с тем же ключом не сохраняется как результат, поэтому такой запрос можно "
            "повторить. `Retry-After` бывает и HTTP-датой, и числом секунд; клиент должен понимать "
            "обе формы и сравнивать срок с остатком бюджета, а не ждать молча дольше обещанного."
        ),
        heading("Почему заблокированной кнопки мало"),
        paragraph(
            "Блокировка кнопки после нажатия полезна: она убирает самый частый дубль — двойной "
            "щелчок. Но она живёт в одном экземпляре интерфейса и закрывает только один источник "
            "повторов."
        ),
        unordered_list(
            [
                "Перезагрузка страницы или перезапуск приложения сбрасывают состояние кнопки; если "
                "ключ жил только в памяти, следующее нажатие получит новый ключ и станет новой "
                "операцией.",
                "Кнопку обычно разблокируют по тайм-ауту — ровно тогда, когда исход неизвестен. "
                "Нажатие в этот момент без сохранённого ключа и есть второе списание.",
                "Повторы случаются и ниже интерфейса: HTTP-библиотека, мобильный SDK или прокси "
                "могут переотправить запрос сами, и кнопка об этом не узнает.",
                "Вторая вкладка или второе устройство не видят заблокированной кнопки. Ключ, "
                "сохранённый на одном устройстве, здесь тоже не поможет: нужна идентичность на "
                "уровне предметной области, например заказ, который сервер оплачивает не больше "
                "одного раза.",
            ]
        ),
        paragraph(
            "Кнопка — это интерфейс, ключ — это протокол. Разумно держать оба: кнопка не даёт "
            "человеку сделать лишнее, ключ делает лишнее безвредным, когда оно всё же случилось. "
            "Клиент, который создаёт ключ вместе с намерением, тратит один бюджет на все попытки и "
            "честно говорит «исход неизвестен», когда бюджет кончился, оставляет серверу простую "
            "задачу: узнать ключ и ответить тем, что уже было."
        ),
    ],
    sources=[RFC7231, RFC7230, STRIPE_IDEMPOTENCY, STRIPE_ERRORS],
)


def _ms(value: int) -> str:
    """1800 -> «1 800», как в тексте статей."""
    return f"{value:,}".replace(",", " ")


# --- Источники второй и третьей части --------------------------------------

POSTGRES_INSERT = Source(
    title="PostgreSQL 12 Documentation: INSERT",
    url="https://www.postgresql.org/docs/12/sql-insert.html",
    note=(
        "ON CONFLICT с conflict target по уникальному ограничению или индексу и действием DO NOTHING; "
        "RETURNING возвращает только те строки, которые действительно вставлены или обновлены"
    ),
)
SQLITE_UPSERT = Source(
    title="SQLite: UPSERT",
    url="https://www.sqlite.org/lang_upsert.html",
    note=(
        "ON CONFLICT … DO NOTHING в SQLite повторяет синтаксис PostgreSQL; conflict target называет "
        "ограничение уникальности, при нарушении которого вставка пропускается"
    ),
)
STRIPE_IDEMPOTENCY_STORAGE = Source(
    title="Stripe API Reference: Idempotent requests",
    url="https://docs.stripe.com/api/idempotent_requests",
    note=(
        "по ключу сохраняются статус и тело первого ответа, включая 500; параметры повтора "
        "сравниваются с исходными; ошибки валидации и конфликт с параллельным запросом не сохраняются; "
        "ключ может быть удалён, когда ему не меньше 24 часов, и ключ, повторённый после удаления, "
        "порождает новый запрос"
    ),
)
BRANDUR_IDEMPOTENCY = Source(
    title="Brandur Leach: Implementing Stripe-like Idempotency Keys in Postgres (2017)",
    url="https://brandur.org/idempotency-keys",
    note=(
        "если эндпоинт меняет только локальное состояние в ACID-базе, достаточно отобразить запрос на "
        "транзакцию; при изменениях во внешних системах сервер по ключу находит состояние запроса и "
        "продолжает с места остановки (атомарные фазы и точки восстановления)"
    ),
)
RFC7231_RETRY = Source(
    title="RFC 7231: HTTP/1.1 Semantics and Content, §4.2.2 Idempotent Methods",
    url="https://www.rfc-editor.org/rfc/rfc7231.html#section-4.2.2",
    note=(
        "идемпотентные методы выделены потому, что запрос можно повторить автоматически, если связь "
        "оборвалась до того, как клиент прочитал ответ сервера"
    ),
)
RFC7230_RETRY = Source(
    title="RFC 7230: HTTP/1.1 Message Syntax and Routing, §6.3.1 Retrying Requests",
    url="https://www.rfc-editor.org/rfc/rfc7230.html#section-6.3.1",
    note=(
        "соединение может закрыться в любой момент; неидемпотентный запрос агент повторяет "
        "автоматически, только если знает, что он на деле идемпотентен, или может выяснить, что "
        "исходный запрос не был применён"
    ),
)
STRIPE_REQUEST_IDS = Source(
    title="Stripe API Reference: Request IDs",
    url="https://docs.stripe.com/api/request_ids",
    note="у каждого запроса к API свой идентификатор, он приходит в заголовке ответа Request-Id",
)

# --- Статья 2: сервер ------------------------------------------------------

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
    lang="ru",
    body=[
        paragraph(
            "В первой части клиент научился создавать ключ идемпотентности вместе с намерением и тратить "
            "на все попытки один бюджет времени. Этого мало, если сервер не держит свою половину "
            "договорённости: запрос с уже знакомым ключом не выполняет операцию снова, а получает тот "
            "ответ, который получил бы первый запрос. Держится это на одной строке в базе — записи "
            "идемпотентности — и нескольких операторах вокруг неё."
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
                "берут из аутентификации, а не из тела; операция — метод и маршрут.",
                "**Отпечаток тела** — хеш канонической формы: поля отсортированы, разделители "
                "фиксированы. Номер попытки, время отправки и request id в него не входят, иначе каждый "
                "честный повтор выглядел бы новым запросом. Тот же ключ с другим отпечатком — ошибка "
                "клиента: сервер отвечает `422` и ничего не выполняет.",
                "**Состояние** `in_progress` или `completed`: «ключ занят, работа идёт» или «результат "
                "сохранён». Сохранённый результат — не обязательно успех. Stripe повторяет по ключу даже "
                "`500`, а вот ошибку валидации и конфликт с параллельным запросом не сохраняет: до "
                "выполнения дело не дошло.",
                "**Сохранённый ответ: статус и тело.** Повтор получает их как есть, с тем же "
                "идентификатором платежа. Собирать ответ заново из текущего состояния нельзя: платёж мог "
                "с тех пор измениться, а клиенту нужен ответ на свой первый запрос.",
                "**Владелец и аренда**: `owner` — request id попытки, которая ведёт запись, "
                "`lease_until` — до какого момента. Без аренды запись, брошенную упавшим процессом, не "
                "отличить от записи, над которой ещё работают. О сроке хранения `expires_at` — в конце.",
            ]
        ),
        figure(
            "/assets/retry/idempotency-record-states.svg",
            alt=(
                "Диаграмма состояний записи идемпотентности. Из «нет записи» вставка с ON CONFLICT DO "
                "NOTHING переводит запись в in_progress; эффект вместе с завершением в одной транзакции "
                "переводит её в completed. Дубль при in_progress получает 409, дубль при completed — "
                "сохранённые статус и тело, тот же ключ с другим отпечатком — 422. Истёкшая аренда "
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
            "Наивный обработчик ищет ключ и, не найдя, выполняет операцию и сохраняет ключ. Между поиском "
            "и вставкой есть окно: два одновременных запроса — двойной щелчок или повтор клиента поверх "
            "повтора прокси — оба видят «ключа нет». Словарь или мьютекс в памяти закрывают окно только "
            "внутри процесса: второй экземпляр за балансировщиком, перезапуск и выкладка о нём не знают. "
            "Арбитр должен быть общим для всех экземпляров, и он уже есть — ограничение уникальности в "
            "базе."
        ),
        paragraph(
            "Резервирование — один оператор: вставить запись в `in_progress`, а при конфликте по "
            "области не делать ничего. `RETURNING` отдаёт строку, только если вставка случилась, так что "
            "ответ на вопрос «ключ мой?» приходит вместе с ней, без отдельного чтения. Синтаксис — "
            "PostgreSQL; SQLite понимает ту же форму `ON CONFLICT … DO NOTHING`, и модель рядом со "
            "статьёй исполняет именно эти строки (параметры `:name` — форма драйвера sqlite3)."
        ),
        code_block(IDEMPOTENCY_SCHEMA_SQL + RESERVE_SQL, language="sql"),
        paragraph(
            "Резервирование стоит делать отдельной короткой транзакцией и фиксировать сразу. Тогда дубль, "
            "пришедший во время работы, видит `in_progress` и получает `409`: подождите и повторите с тем "
            "же ключом. Если держать вставку незафиксированной до конца операции, конкурирующая вставка "
            "того же ключа в PostgreSQL будет ждать исхода первой транзакции и всё это время занимать "
            "соединение."
        ),
        heading("Гонка двух попыток на настоящей базе"),
        paragraph(
            "Фикстура `sqlite_reservation` создаёт файл SQLite во временном каталоге и запускает две "
            "попытки с одним ключом в двух потоках, у каждой своё соединение. Барьер выпускает обе "
            "вставки одновременно; второй барьер придерживает владельца, пока дубль не получит ответ, "
            "поэтому дубль застаёт именно `in_progress`. Потом тот же ключ приходит ещё трижды: честный "
            "повтор, повтор с другой суммой и тот же ключ от другого магазина. Победитель меняется от "
            "запуска к запуску, поэтому печатается только то, что от него не зависит."
        ),
        verified_output(
            sqlite_reservation,
            expected={
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
        heading("Эффект и запись — одна транзакция"),
        paragraph(
            "Владелец ключа создаёт платёж и переводит запись в `completed` одной транзакцией. Состояния "
            "«платёж есть, а запись ещё `in_progress`» не бывает: зафиксировано либо и то и другое, либо "
            "ничего. "
            "Завершение вдобавок проверяет, что запись ведёт всё ещё эта попытка: если аренда истекла и "
            "работу перехватили, `UPDATE` не найдёт строку, и транзакция откатит свой платёж."
        ),
        code_block(_source_of(reserve_or_reply, perform), language="python"),
        code_block(TAKEOVER_SQL + COMPLETE_SQL, language="sql"),
        paragraph(
            "Отсюда правило восстановления. Запись в `in_progress` с истёкшей арендой значит, что владелец "
            "начал и не закончил, а раз эффект фиксируется только вместе с записью, эффекта нет. Такую "
            "запись можно перехватить: условный `UPDATE` меняет владельца, только если аренда "
            "действительно истекла, и из двух перехватчиков строку получит один. Фикстура роняет "
            "владельца второго ключа посреди транзакции, уже после вставки платежа, и повторяет запрос "
            f"до и после конца аренды ({LEASE_S} с):"
        ),
        verified_output(
            sqlite_reservation,
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
                },
            },
        ),
        paragraph(
            "Мутационные тесты рядом со статьёй ломают модель по одному месту — ключ таблицы, "
            "резервирование, клиента в области, сравнение отпечатков, общую транзакцию, — и каждый раз "
            "фикстура падает."
        ),
        heading("Когда эффект за пределами базы"),
        paragraph(
            "Правило перестаёт работать, когда эффект — вызов платёжного шлюза, письмо или сообщение в "
            "чужую систему. Локальная транзакция не может включить их в себя: процесс может упасть после "
            "того, как шлюз списал деньги, но до `COMMIT`. Запись останется в `in_progress`, и истёкшая "
            "аренда уже значит не «эффекта нет», а «неизвестно». Перехватить такую запись и вызвать шлюз "
            "снова — тот самый двойной эффект, от которого всё строилось."
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
            f"повтора с этим ключом — не бюджета одного экрана ({_ms(BUDGET_MS)} мс), а жизни намерения: "
            "приложение, перезапущенное через час, отправит отложенную операцию с тем же ключом. Stripe "
            "может удалить ключ, когда ему исполнится 24 часа, и ключ, пришедший после удаления, "
            "порождает новый запрос. Защита после срока исчезает молча, поэтому срок — часть контракта "
            "API: клиент должен знать, после какого возраста ключ нельзя повторять вслепую. В модели "
            f"срок — {RETENTION_S // 3600} часа."
        ),
        paragraph(
            "Чистка удаляет только записи `completed` с прошедшим `expires_at`. Записи, застрявшие в "
            "`in_progress`, сначала разбирают: за ними может стоять внешний эффект с неизвестным исходом. "
            "В третьей части — как по логам и этой таблице разобрать жалобу «ответа не было, а платёж "
            "создан»."
        ),
    ],
    sources=[POSTGRES_INSERT, SQLITE_UPSERT, STRIPE_IDEMPOTENCY_STORAGE, BRANDUR_IDEMPOTENCY],
)

# --- Статья 3: разбор в поле -----------------------------------------------

_PAUSE_END_MS = ATTEMPT_TIMEOUT_MS + PAUSE_MS
_SECOND_END_MS = _PAUSE_END_MS + ATTEMPT_TIMEOUT_MS

diagnosis_revision = revision(
    slug="retry-diagnosis-lost-response",
    title="Повтор без второго эффекта: «ответ потерян, а платёж создан»",
    categories=["HTTP", "Надёжность", "Наблюдаемость"],
    excerpt=(
        "Разбор жалобы «был тайм-аут, а платёж создан»: три исхода за одним тайм-аутом, идентификатор "
        "попытки против ключа намерения, таблица улик и трасса одного намерения с двумя попытками."
    ),
    cover="/assets/retry/lost-response-cover.svg",
    published="2020-06-26",
    lang="ru",
    body=[
        paragraph(
            "Обращение в поддержку: «Нажал „Оплатить“, долго крутилось, потом ошибка. Нажал ещё раз — "
            "прошло. Сколько раз с меня списали?» В логе клиента — тайм-аут первой попытки, в базе — "
            "платёж, созданный как раз тогда. Похоже на ошибку сервера, но чаще это штатная работа "
            "механизма из первых двух частей. Здесь — как отличить штатное от поломки по логам и записи "
            "идемпотентности."
        ),
        heading("Три исхода за одним тайм-аутом"),
        paragraph(
            f"Клиент во всех случаях видит одно и то же: запрос ушёл, ответа за {_ms(ATTEMPT_TIMEOUT_MS)} "
            "мс нет. На сервере за этим стоят три разные истории."
        ),
        ordered_list(
            [
                "**Не доставлен.** Запрос не дошёл до приложения: потерялся в сети или балансировщик не "
                "нашёл живого экземпляра. На сервере нет ни строки с этой попыткой, нет и записи по ключу. "
                "Повтор с тем же ключом станет первым выполнением.",
                "**Доставлен и не выполнен.** Сервер принял запрос и сломался, не зафиксировав эффект. "
                "Записи нет, если сбой случился до резервирования; запись висит в `in_progress`, если "
                "процесс упал между резервированием и завершением; в записи лежит ошибка, если операция "
                "началась и её отказ сохранён как результат — Stripe так повторяет даже `500`.",
                "**Доставлен и выполнен, ответ потерян.** Платёж и запись зафиксированы, ответ не доехал: "
                "оборвалось соединение, прокси ждал меньше, чем работал сервер, или клиент сдался раньше. "
                "Это и есть «ответ потерян, а платёж создан». Повтор с тем же ключом получит сохранённый "
                "ответ.",
            ]
        ),
        paragraph(
            "HTTP эту неоднозначность признаёт. RFC 7231 выделяет идемпотентные методы потому, что их "
            "можно повторить, если связь оборвалась до того, как клиент прочитал ответ. RFC 7230 "
            "запрещает автоматически повторять неидемпотентный запрос, если нет способа узнать, что он на "
            "деле идемпотентен или что исходный запрос не был применён. Ключ и запись из второй части и "
            "есть такой способ; без них третий исход от первого не отличить."
        ),
        figure(
            "/assets/retry/three-outcomes-timeline.svg",
            alt=(
                "Три дорожки времени с одинаковым тайм-аутом клиента на 1 800 мс. В первой запрос "
                "теряется по пути к серверу, и сервер ничего не видит. Во второй сервер принимает запрос и "
                "падает, транзакция откатывается, эффекта нет. В третьей сервер создаёт платёж и сохраняет "
                "ответ к 100 мс, но ответ теряется по пути назад."
            ),
            caption=(
                "Клиент во всех трёх случаях видит одно: тайм-аут. Различить исходы можно только по "
                "логам сервера и записи идемпотентности."
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
                "Правильно — писать в каждую строку лога оба, а в запись — request id владельца. Тогда "
                "строка повтора может назвать попытку, чей результат она отдаёт.",
            ]
        ),
        heading("Трасса одного намерения"),
        paragraph(
            "Фикстура `lost_response` — та же логика записи, что во второй части, только в словаре одного "
            f"процесса. Клиент живёт по константам первой части: тайм-аут попытки {_ms(ATTEMPT_TIMEOUT_MS)} "
            f"мс, пауза {PAUSE_MS} мс. Запрос идёт до сервера {UPLINK_MS} мс, работа занимает {WORK_MS} "
            f"мс, ответ идёт назад {DOWNLINK_MS} мс. Сеть теряет первый ответ уже после того, как результат "
            "сохранён. Строки пишет сама модель: время в миллисекундах, источник, request id, ключ, "
            "событие."
        ),
        verified_output(
            lost_response,
            expected={
                "trace": [
                    "    0 client  req-01 key-001 attempt=1 POST /payments",
                    "   40 server  req-01 key-001 reserved state=in_progress",
                    "  100 server  req-01 key-001 created pay-0001 state=completed 201",
                    "  100 network req-01 key-001 response lost",
                    " 1800 client  req-01 key-001 attempt=1 timeout, outcome unknown",
                    " 2050 client  req-02 key-001 attempt=2 POST /payments",
                    " 2090 server  req-02 key-001 replay 201 pay-0001 stored by req-01",
                    " 2130 client  req-02 key-001 attempt=2 got 201 pay-0001 (replay)",
                ]
            },
        ),
        paragraph(
            "Поиск по `req-01` показывает противоречие, с которого началась жалоба: сервер создал платёж "
            "и ответил `201`, клиент увидел тайм-аут. Это третий исход, и сервер тут ни при чём: ответ "
            "потерялся по дороге. Поиск по `key-001` показывает намерение целиком — одно создание и один "
            "повтор, а строка повтора называет попытку, которая сделала работу. Итог и проверки модели; "
            "в конце — тот же ключ с суммой 1 500 ₽:"
        ),
        verified_output(
            lost_response,
            expected={
                "firstAttempt": {
                    "requestId": "req-01",
                    "serverStatus": 201,
                    "paymentId": "pay-0001",
                    "clientSaw": "timeout",
                },
                "retry": {
                    "requestId": "req-02",
                    "status": 201,
                    "paymentId": "pay-0001",
                    "replayed": True,
                    "receivedAtMs": 2130,
                },
                "effects": 1,
                "checks": {
                    "responseLostAfterStore": True,
                    "retryReplaysSameResult": True,
                    "otherPayloadIsConflict": True,
                    "exactlyOneEffect": True,
                    "oneKeyTwoRequestIds": True,
                    "answerWithinBudget": True,
                    "traceInTimeOrder": True,
                },
                "otherPayload": {"status": 422, "body": {"error": "idempotency_key_reused"}},
            },
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
                    "Найти `req-01` в логах балансировщика и сервера, запись — по области и ключу",
                ],
                [
                    "Ни одной строки с `req-01` на сервере",
                    "Приложение запрос не обрабатывало, если логи за этот интервал полны",
                    "Не застрял ли запрос в прокси или очереди",
                    "Проверить запись по ключу; если её нет, повтор с тем же ключом безопасен",
                ],
                [
                    "Запись `completed`, владелец `req-01`, платёж `pay-0001`",
                    "Эффект был, его сделала первая попытка: третий исход",
                    "Где потерялся ответ: сервер, прокси или сеть клиента",
                    "Сравнить время ответа сервера с тайм-аутами прокси и клиента",
                ],
                [
                    "Запись `in_progress`, аренда истекла",
                    "Владелец начал и не закончил; при локальном эффекте эффекта нет",
                    "Для внешнего эффекта — прошёл ли вызов",
                    "Локальный эффект: повтор перехватит запись; внешний: сначала спросить внешнюю систему",
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
                    "Сравнить канонические тела; новым данным — новый ключ",
                ],
            ],
        ),
        heading("Где в бюджете потерялся ответ"),
        paragraph(
            f"Бюджет намерения из первой части — {_ms(BUDGET_MS)} мс. Наложим на него трассу `lost_response`:"
        ),
        data_table(
            f"Фазы бюджета {_ms(BUDGET_MS)} мс и события трассы",
            ["Фаза", "Интервал, мс", "Что происходит в трассе"],
            [
                [
                    "Попытка 1",
                    f"0–{_ms(ATTEMPT_TIMEOUT_MS)}",
                    f"Запрос доходит до сервера за {UPLINK_MS} мс, платёж и ответ сохранены к "
                    f"{UPLINK_MS + WORK_MS} мс, ответ потерян; клиент ждёт до конца тайм-аута",
                ],
                ["Пауза", f"{_ms(ATTEMPT_TIMEOUT_MS)}–{_ms(_PAUSE_END_MS)}", "Ничего не отправляется"],
                [
                    "Попытка 2",
                    f"{_ms(_PAUSE_END_MS)}–{_ms(_SECOND_END_MS)}",
                    "Тот же ключ, новый request id; сохранённый ответ у клиента к "
                    f"{_ms(_PAUSE_END_MS + UPLINK_MS + DOWNLINK_MS)} мс",
                ],
                [
                    "Запас на неопределённый исход",
                    f"{_ms(_SECOND_END_MS)}–{_ms(BUDGET_MS)}",
                    "Не понадобился; без ответа на вторую попытку клиент сказал бы «платёж мог пройти, "
                    "проверяем статус»",
                ],
            ],
        ),
        paragraph(
            f"Сервер закончил работу к {UPLINK_MS + WORK_MS} мс, а клиент ждал до "
            f"{_ms(ATTEMPT_TIMEOUT_MS)}: ответ потерялся не из-за медленного сервера, искать надо в "
            "соединении и прокси. Обратный случай тревожнее. Если время работы сервера подбирается к "
            "тайм-ауту попытки, третий исход становится нормой: повторы приходят, пока первая попытка ещё "
            "в `in_progress`, и в логах растёт доля `409`. Это лечится не ключами, а согласованием "
            "тайм-аутов: сервер укладывается в тайм-аут клиента с запасом, прокси ждёт не меньше сервера."
        ),
        heading("Что считать ошибкой"),
        unordered_list(
            [
                "**Не ошибка**: тайм-аут у клиента, `201` на сервере и повтор с тем же ключом, получивший "
                "сохранённый ответ. Механизм сработал.",
                "**Ошибка сервера**: два эффекта в одной области; повтор, отданный другому клиенту; "
                "`in_progress`, который никто не восстанавливает.",
                "**Ошибка клиента**: два ключа на одно намерение; ключ, переживший изменение данных "
                "(`422`); повтор после срока хранения записи.",
            ]
        ),
        paragraph(
            "Разбор начинается с двух поисков — по request id попытки и по ключу намерения — и с одного "
            "запроса к таблице записей. Если логи пишут оба идентификатора, а запись помнит владельца, "
            "жалоба «ответа не было, а платёж создан» закрывается за минуты: списание одно, повтор "
            "получил тот же платёж."
        ),
    ],
    sources=[RFC7231_RETRY, RFC7230_RETRY, STRIPE_REQUEST_IDS, STRIPE_IDEMPOTENCY_STORAGE],
)

revisions = [the_revision, server_revision, diagnosis_revision]
