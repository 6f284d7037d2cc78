"""The corrections of 1 December 2026: a second revision of each of the site's five articles.

An editorial review read the five articles against their sources and dates and found
claims their fixtures did not back, results typed into the prose, checks true by
construction, code that could not have run on the article's date, and Russian text
without a single non-breaking space. Each revision below corrects its article openly:
it keeps the first publication date, carries its own date (``revised``) and a note of
what changed and why (``changes``), and backs every corrected claim with a fixture of
this batch. The first revisions stay as they were, in ``retry_2020_06``,
``retry_decision`` and ``retry_spec``; the site shows both and the difference.

The parts, in list order: ``client_`` (retry-client-one-intent-one-key), ``server_``
(retry-server-idempotency-record), ``diagnosis_`` (retry-diagnosis-lost-response),
``decision_`` (retry-decision-one-question), ``spec_`` (retry-spec-read-as-a-test).
"""

from __future__ import annotations

import contextlib
import heapq
import json
import os
import sqlite3
import tempfile
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from email.utils import parsedate_to_datetime
from itertools import accumulate, pairwise
from typing import Any, Protocol

import retry_decision as decision_v1
import retry_spec as spec_v1
from _shown_source import source_of
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
    STRIPE_ERRORS,
    STRIPE_IDEMPOTENCY,
    STRIPE_REQUEST_IDS,
    TAKEOVER_SQL,
    UPLINK_MS,
    WORK_MS,
    Client,
    KeySource,
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

# ============================== client ==============================

CLIENT_ANSWER_MS = 140  # столько идёт ответ, когда он не теряется
CLIENT_ORDER: dict[str, object] = {"order": 1042, "amountRub": 1200}
CLIENT_TOPUP: dict[str, object] = {"wallet": 77, "amountRub": 1200}
CLIENT_DATE = "Tue, 01 Dec 2026 10:00:00 GMT"  # заголовок Date ответа с Retry-After в форме даты


@dataclass(frozen=True)
class ClientClick:
    """Нажатие «Оплатить»: событие интерфейса и данные формы в этот момент."""

    action: str  # идентификатор действия человека; его выдаёт и хранит интерфейс
    payload: dict[str, object]


@dataclass(frozen=True)
class ClientSeen:
    """Что клиент узнал после попытки: статус ответа или тайм-аут (status=None)."""

    status: int | None
    retry_after: str | None = None  # Retry-After как пришёл: секунды или HTTP-дата
    date: str | None = None  # Date того же ответа: от него отсчитывается HTTP-дата


@dataclass
class ClientIntent:
    action: str
    payload: dict[str, object]
    key: str
    started_ms: int
    deadline_ms: int
    attempt: int = 0
    result: str | None = None  # None — открыто; "success" или "rejected" — закрыто итоговым ответом


class ClientServer:
    """Сервер с учётом ключей. Что клиент увидит на каждой попытке, задаёт сценарий;
    когда сценарий кончился, сервер отвечает 201."""

    def __init__(self, script: Sequence[ClientSeen] = ()) -> None:
        self.script = list(script)
        self.answers: list[tuple[str, ClientSeen]] = []  # ключ и ответ каждой попытки по порядку
        self.effects: list[str] = []  # ключи, по которым операция выполнена

    def handle(self, key: str, payload: dict[str, object]) -> ClientSeen:
        seen = self.script.pop(0) if self.script else ClientSeen(201)
        # Потерянный ответ значит, что запрос дошёл и выполнен; 409, 4xx и 503 ничего не выполняют.
        executed = seen.status is None or 200 <= seen.status < 300
        if executed and key not in self.effects:
            self.effects.append(key)
        self.answers.append((key, seen))
        return seen


def client_retry_after_ms(seen: ClientSeen) -> int:
    """Retry-After в обеих формах: число секунд или HTTP-дата, отсчитанная от Date ответа."""
    value = seen.retry_after or ""
    if value.isdigit():
        return int(value) * 1000
    delay = parsedate_to_datetime(value) - parsedate_to_datetime(seen.date or "")
    return max(0, round(delay.total_seconds() * 1000))


@dataclass
class ClientModel:
    keys: KeySource
    server: ClientServer
    now_ms: int = 0
    intents: dict[str, ClientIntent] = field(default_factory=dict)  # по идентификатору действия
    log: list[dict[str, object]] = field(default_factory=list)
    spent: list[tuple[str, int]] = field(default_factory=list)

    def submit(self, click: ClientClick) -> ClientIntent:
        """Нажатие: намерение находят по действию интерфейса; данные не сравниваются."""
        intent = self.intents.get(click.action)
        if intent is None:  # новое действие — новое намерение, даже с теми же данными
            intent = ClientIntent(
                action=click.action,
                payload=dict(click.payload),
                key=self.keys.new_key(),  # ключ появляется до первой попытки
                started_ms=self.now_ms,
                deadline_ms=self.now_ms + BUDGET_MS,
            )
            self.intents[click.action] = intent
        return intent  # повторное нажатие того же действия: то же намерение и тот же ключ

    def key_for_attempt(self, intent: ClientIntent) -> str:
        return intent.key  # номер попытки в ключ не входит

    def deadline_for_attempt(self, intent: ClientIntent) -> int:
        return intent.deadline_ms  # повтор тратит бюджет, а не продлевает его

    def run(self, intent: ClientIntent) -> str:
        """Попытки до итогового ответа; закрытое намерение больше ничего не отправляет."""
        wait = 0
        while intent.result is None:
            if not self.has_room(intent, wait):
                self.spend("uncertain", self.deadline_for_attempt(intent) - self.now_ms)
                return "uncertain"  # исход неизвестен: намерение открыто, ключ хранится
            if wait:
                self.spend("pause", wait)
            wait = self.react(intent, self.attempt(intent))
        return intent.result

    def has_room(self, intent: ClientIntent, wait: int) -> bool:
        left = self.deadline_for_attempt(intent) - self.now_ms
        return intent.attempt < MAX_ATTEMPTS and left >= wait + ATTEMPT_TIMEOUT_MS + RESERVE_MS

    def attempt(self, intent: ClientIntent) -> ClientSeen:
        intent.attempt += 1
        deadline, key = self.deadline_for_attempt(intent), self.key_for_attempt(intent)
        self.log.append(
            {"attempt": intent.attempt, "key": key, "sentAtMs": self.now_ms, "deadlineMs": deadline}
        )
        seen = self.server.handle(key, intent.payload)
        waited = ATTEMPT_TIMEOUT_MS if seen.status is None else CLIENT_ANSWER_MS
        self.spend("attempt", min(waited, deadline - self.now_ms))
        return seen

    def react(self, intent: ClientIntent, seen: ClientSeen) -> int:
        """Строка таблицы наблюдений: пауза перед повтором тем же ключом или закрытие."""
        if seen.status is None or seen.status == 409:
            return PAUSE_MS  # исход неизвестен или ключ ещё в работе
        if seen.status == 503 and seen.retry_after is not None:
            return client_retry_after_ms(seen)  # уместится ли срок в бюджет, решает has_room
        if 200 <= seen.status < 300:
            self.close(intent, "success")
        elif seen.status in (400, 422):
            self.close(intent, "rejected")  # такой же повтор получит такой же отказ
        else:
            raise ValueError(f"ответ {seen.status}: в таблице наблюдений нет такой строки")
        return 0

    def close(self, intent: ClientIntent, result: str) -> None:
        intent.result = result  # итоговый ответ: ключ больше не отправляется

    def spend(self, phase: str, ms: int) -> None:
        self.spent.append((phase, ms))
        self.now_ms += ms


class ClientFirstRevision:
    """Модель первой редакции (retry_2020_06.Client) за тем же интерфейсом нажатий:
    она видит только данные нажатия, а ответов сервера не разбирает."""

    def __init__(self, server: ClientServer, model: type[Any] = Client) -> None:
        self.inner = model(keys=KeySource(), server=server)
        self.spent = self.inner.spent

    def submit(self, click: ClientClick) -> Any:
        return self.inner.submit(dict(click.payload))

    def run(self, intent: Any) -> str:
        return str(self.inner.run(intent))


ClientMaker = Callable[[ClientServer], Any]
"""Из сервера делает клиента с submit(click), run(intent) и списком фаз spent."""


def client_new(server: ClientServer) -> ClientModel:
    return ClientModel(keys=KeySource(), server=server)


# --- Прогон 1: бюджет под потерю ответов -------------------------------------


def client_budget_run() -> dict[str, Any]:
    """Все ответы теряются; фазы, остановка и проверки считаются по прогону."""
    server = ClientServer([ClientSeen(None)] * MAX_ATTEMPTS)
    client = client_new(server)
    intent = client.submit(ClientClick("act-1", CLIENT_ORDER))
    outcome = client.run(intent)
    log = [dict(entry) for entry in client.log]
    phases = [{"phase": phase, "ms": ms} for phase, ms in client.spent]
    starts = list(accumulate([0] + [p["ms"] for p in phases]))  # начало каждой фазы
    deadline = intent.started_ms + BUDGET_MS  # по правилу статьи, а не из модели
    stop_at = starts[-2] if phases and phases[-1]["phase"] == "uncertain" else client.now_ms
    next_needs = [PAUSE_MS, ATTEMPT_TIMEOUT_MS, RESERVE_MS]  # пауза, тайм-аут и запас
    waits = [PAUSE_MS if e["attempt"] > 1 else 0 for e in log]  # пауза перед попыткой; у первой её нет
    rooms = [deadline - (e["sentAtMs"] - wait) for e, wait in zip(log, waits, strict=True)]  # до паузы
    sent_keys = [entry["key"] for entry in log]
    numbers = [entry["attempt"] for entry in log]
    uncertain_ms = phases[-1]["ms"] if phases and phases[-1]["phase"] == "uncertain" else 0
    return {
        "budgetMs": BUDGET_MS,
        "phases": phases,
        "phasesTotalMs": sum(p["ms"] for p in phases),
        "attempts": len(log),
        "distinctKeys": len(set(sent_keys)),
        "serverEffects": len(server.effects),
        "outcome": outcome,
        "stop": {
            "atMs": stop_at,
            "leftMs": deadline - stop_at,
            "nextNeedsMs": next_needs,
            "nextNeedsTotalMs": sum(next_needs),
        },
        "log": log,
        "checks": {
            "keyStableAcrossAttempts": len(sent_keys) >= 2 and set(sent_keys) == {intent.key},
            "attemptCounterGrows": numbers == list(range(1, len(numbers) + 1)),
            "deadlineNeverExtended": all(e["deadlineMs"] == deadline for e in log)
            and client.now_ms == deadline,
            "phasesMatchLog": [s for s, p in zip(starts, phases, strict=False) if p["phase"] == "attempt"]
            == [e["sentAtMs"] for e in log],
            "everyAttemptHadRoom": all(
                room >= wait + ATTEMPT_TIMEOUT_MS + RESERVE_MS
                for room, wait in zip(rooms, waits, strict=True)
            ),
            "stoppedOnlyWithoutRoom": outcome == "uncertain" and deadline - stop_at < sum(next_needs),
            "reserveKeptForUncertain": uncertain_ms >= RESERVE_MS,
            "oneServerEffect": len(server.effects) == 1,
        },
    }


@fixture
def client_budget() -> dict[str, Any]:
    return client_budget_run()


# --- Прогон 2: нажатия и намерения ------------------------------------------


def client_identity_run(make: ClientMaker = client_new) -> dict[str, Any]:
    """Шесть нажатий с одинаковыми данными: какие из них — одно намерение."""
    server = ClientServer([ClientSeen(None)])  # первый ответ теряется, дальше сервер отвечает 201
    client = make(server)
    keys: dict[str, list[str]] = {}
    results: dict[str, str] = {}

    def click(action: str) -> Any:
        intent = client.submit(ClientClick(action, CLIENT_TOPUP))
        keys.setdefault(action, []).append(intent.key)
        return intent

    first = click("act-1")
    click("act-1")  # двойной щелчок до ответа
    results["act-1"] = client.run(first)
    sent_before_late = len(server.answers)
    results["act-1"] = client.run(click("act-1"))  # нажатие, обработанное уже после ответа
    late_sent = len(server.answers) - sent_before_late
    results["act-2"] = client.run(click("act-2"))  # новое пополнение на ту же сумму
    queued = {action: click(action) for action in ("act-3", "act-4")}  # два пополнения из очереди
    for action, intent in queued.items():
        results[action] = client.run(intent)
    key_of = {action: sent[0] for action, sent in keys.items()}
    attempt_keys = [key for key, _ in server.answers]
    after_final = [
        key
        for n, (key, _) in enumerate(server.answers)
        if any(k == key and s.status is not None and s.status < 300 for k, s in server.answers[:n])
    ]
    return {
        "clicks": sum(len(sent) for sent in keys.values()),
        "intents": [
            {
                "action": action,
                "clicks": len(sent),
                "key": key_of[action],
                "attempts": attempt_keys.count(key_of[action]),
                "result": results[action],
            }
            for action, sent in keys.items()
        ],
        "distinctKeys": len(set(key_of.values())),
        "serverEffects": len(server.effects),
        "checks": {
            "repeatClickSameIntent": len(set(keys["act-1"])) == 1,
            "noAttemptAfterFinalAnswer": not after_final,
            "lateClickSendsNothing": late_sent == 0,
            "samePayloadAfterFinalIsNewIntent": key_of["act-2"] != key_of["act-1"]
            and key_of["act-2"] in server.effects,
            "equalPayloadsTwoActionsTwoKeys": key_of["act-3"] != key_of["act-4"]
            and {key_of["act-3"], key_of["act-4"]} <= set(server.effects),
            "oneEffectPerAction": len(server.effects) == len(keys),
        },
    }


def client_identity_both() -> dict[str, Any]:
    """Исправленная модель и модель первой редакции на одних и тех же нажатиях."""
    now = client_identity_run()
    old = client_identity_run(ClientFirstRevision)
    failed = sorted(name for name, ok in old["checks"].items() if not ok)
    return {
        **now,
        "firstRevision": {
            "keys": [i["key"] for i in old["intents"]],
            "serverEffects": old["serverEffects"],
            "failedChecks": failed,
        },
        "checks": {
            **now["checks"],
            "firstRevisionMergesEqualPayloads": old["distinctKeys"] < now["distinctKeys"]
            and old["serverEffects"] < now["serverEffects"],
        },
    }


@fixture
def client_intents() -> dict[str, Any]:
    return client_identity_both()


# --- Прогон 3: таблица наблюдений -------------------------------------------


@dataclass(frozen=True)
class ClientCase:
    """Прогон строки таблицы: ответы сервера по попыткам и что клиент должен сделать по строке."""

    check: str
    script: tuple[ClientSeen, ...]
    pauses_ms: tuple[int, ...]
    attempts: int
    result: str


@dataclass(frozen=True)
class ClientRow:
    seen: str
    allows: str
    step: str
    cases: tuple[ClientCase, ...]


CLIENT_ROWS = (
    ClientRow(
        "Итоговый ответ `2xx`, в том числе повторённый сервером по ключу",
        "Считать намерение завершённым: это тот же результат, что получил бы первый запрос",
        "Показать результат и закрыть намерение; ключ больше не отправлять",
        (ClientCase("finalAnswerClosesIntent", (ClientSeen(201),), (), 1, "success"),),
    ),
    ClientRow(
        "Тайм-аут транспорта после отправки",
        "Ничего не утверждать: операция могла выполниться",
        "Повторить с тем же ключом и теми же данными, если бюджет позволяет; иначе показать "
        "неопределённый исход",
        (
            ClientCase(
                "timeoutRepeatsSameKey", (ClientSeen(None), ClientSeen(201)), (PAUSE_MS,), 2, "success"
            ),
        ),
    ),
    ClientRow(
        "`409 Conflict` на тот же ключ",
        "Понять, что запрос с этим ключом ещё выполняется и результата пока нет",
        "Не менять ключ; подождать и повторить с тем же ключом в пределах бюджета",
        (
            ClientCase(
                "conflictRepeatsSameKey", (ClientSeen(409), ClientSeen(201)), (PAUSE_MS,), 2, "success"
            ),
        ),
    ),
    ClientRow(
        "Ошибка валидации `4xx` (`400`, `422`)",
        "Знать, что запрос отвергнут до выполнения и такой же повтор даст такой же ответ",
        "Не повторять; показать ошибку и закрыть намерение; исправленные данные\u00a0— новое намерение "
        "и новый ключ",
        (
            ClientCase("badRequestIsFinal", (ClientSeen(400),), (), 1, "rejected"),
            ClientCase("validationErrorIsFinal", (ClientSeen(422),), (), 1, "rejected"),
        ),
    ),
    ClientRow(
        "`503` с `Retry-After`",
        "Знать, что сервер сейчас не обслуживает запрос и когда он просит вернуться",
        "Ждать указанный срок, если он умещается в остаток бюджета, и повторить с тем же ключом; "
        "иначе\u00a0— неопределённый исход",
        (
            ClientCase(
                "retryAfterSecondsHonoured", (ClientSeen(503, "1"), ClientSeen(201)), (1000,), 2, "success"
            ),
            ClientCase(
                "retryAfterDateHonoured",
                (ClientSeen(503, "Tue, 01 Dec 2026 10:00:02 GMT", CLIENT_DATE), ClientSeen(201)),
                (2000,),
                2,
                "success",
            ),
            ClientCase("retryAfterPastBudgetIsUncertain", (ClientSeen(503, "120"),), (), 1, "uncertain"),
        ),
    ),
)


def client_play(case: ClientCase, make: ClientMaker = client_new) -> dict[str, Any]:
    """Одно намерение со сценарием строки: что увидел клиент, сколько ждал, чем кончилось."""
    server = ClientServer(case.script)
    client = make(server)
    result = client.run(client.submit(ClientClick("act-1", CLIENT_ORDER)))
    return {
        "seen": [seen.status for _, seen in server.answers],
        "pausesMs": [ms for phase, ms in client.spent if phase == "pause"],
        "attempts": len(server.answers),
        "keys": len({key for key, _ in server.answers}),
        "result": result,
    }


def client_table_run(make: ClientMaker = client_new) -> dict[str, Any]:
    """Каждый прогон каждой строки против того, что строка обещает."""
    runs = {case.check: client_play(case, make) for row in CLIENT_ROWS for case in row.cases}
    expected = {
        case.check: (list(case.pauses_ms), case.attempts, 1, case.result)
        for row in CLIENT_ROWS
        for case in row.cases
    }
    return {
        "runs": runs,
        "checks": {
            name: (run["pausesMs"], run["attempts"], run["keys"], run["result"]) == expected[name]
            for name, run in runs.items()
        },
    }


@fixture
def client_observations() -> dict[str, Any]:
    return client_table_run()


# --- Текст из прогонов -------------------------------------------------------


def client_num(value: int) -> str:
    """5000 -> «5 000»: разряды через неразрывный пробел."""
    return f"{value:,}".replace(",", "\u00a0")


def client_ms(value: int) -> str:
    """5000 -> «5 000 мс» с неразрывными пробелами."""
    return f"{client_num(value)}\u00a0мс"


def client_seconds(ms: int) -> str:
    """1800 -> «1,8»: секунды с десятичной запятой."""
    return f"{ms / 1000:g}".replace(".", ",")


def client_plural(n: int, forms: tuple[str, str, str]) -> str:
    """1 попытка, 2 попытки, 5 попыток."""
    if n % 10 == 1 and n % 100 != 11:
        return forms[0]
    return forms[1] if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14 else forms[2]


CLIENT_ATTEMPT_FORMS = ("попытка", "попытки", "попыток")
CLIENT_RESULTS = {
    "success": "закрыто успехом",
    "rejected": "закрыто отказом",
    "uncertain": "исход неизвестен",
}


def client_seen_text(case: ClientCase) -> str:
    """Ответы сценария строки: «тайм-аут → `201`»."""
    parts = []
    for seen in case.script:
        if seen.status is None:
            parts.append("тайм-аут")
        elif seen.retry_after is None:
            parts.append(f"`{seen.status}`")
        elif seen.retry_after.isdigit():
            parts.append(f"`{seen.status}` (`Retry-After` {client_num(int(seen.retry_after))}\u00a0с)")
        else:
            parts.append(f"`{seen.status}` (`Retry-After` датой)")
    return "\u00a0→ ".join(parts)


def client_run_text(case: ClientCase, run: dict[str, Any]) -> str:
    """Столбец «Прогон модели»: что модель сделала на сценарии строки."""
    done = [f"пауза {client_ms(ms)}" for ms in run["pausesMs"]]
    count = run["attempts"]
    keys = "" if run["keys"] == 1 else f", ключей: {run['keys']}"  # ключ один — это норма, её не пишем
    done.append(f"{count}\u00a0{client_plural(count, CLIENT_ATTEMPT_FORMS)}{keys}")
    return f"{client_seen_text(case)}: {', '.join(done)}, {CLIENT_RESULTS[run['result']]}"


def client_table_rows(runs: dict[str, dict[str, Any]]) -> list[list[str]]:
    return [
        [row.seen, row.allows, row.step, "; ".join(client_run_text(c, runs[c.check]) for c in row.cases)]
        for row in CLIENT_ROWS
    ]


def client_source_of(*objects: object) -> str:
    return source_of(*objects)


def client_budget_text(run: dict[str, Any]) -> str:
    """Абзац о бюджете: все числа из прогона."""
    ms = [p["ms"] for p in run["phases"]]
    stop = run["stop"]
    needs = " + ".join(client_num(need) for need in stop["nextNeedsMs"])
    return (
        f"Пример для {client_ms(run['budgetMs'])}: первая попытка ждёт до {client_ms(ms[0])}, пауза "
        f"{client_ms(ms[1])}, вторая попытка\u00a0— ещё до {client_ms(ms[2])}. К отметке "
        f"{client_ms(stop['atMs'])} остаётся {client_ms(stop['leftMs'])}. Новая попытка начинается, "
        "только если до дедлайна помещаются пауза, полный тайм-аут и запас в "
        f"{client_ms(RESERVE_MS)} на объяснение ({needs} = {client_ms(stop['nextNeedsTotalMs'])}), "
        f"поэтому после {run['attempts']}-й попытки клиент останавливается. Оставшиеся "
        f"{client_ms(ms[-1])} уходят на честный экран: «Платёж мог пройти. Проверяем статус\u00a0— не "
        "платите повторно»."
    )


def client_figure_alt(run: dict[str, Any]) -> str:
    ms = [p["ms"] for p in run["phases"]]
    return (
        f"Шкала времени от 0 до {client_ms(run['budgetMs'])}: попытка 1 длится {client_ms(ms[0])}, "
        f"пауза {client_ms(ms[1])}, попытка 2 ещё {client_ms(ms[2])} до отметки "
        f"{client_ms(run['stop']['atMs'])}, затем {client_ms(ms[-1])} на показ неопределённого исхода до "
        f"неподвижного дедлайна в {client_ms(run['budgetMs'])}. Обе попытки несут один ключ "
        f"{run['log'][0]['key']}."
    )


def client_figure_caption(run: dict[str, Any]) -> str:
    parts = " + ".join(client_num(p["ms"]) for p in run["phases"])
    return (
        f"Бюджет намерения: {parts} = {client_ms(run['phasesTotalMs'])}. Дедлайн задаётся при нажатии и "
        "не сдвигается ни одной попыткой."
    )


def client_identity_text(run: dict[str, Any]) -> str:
    clicks = run["clicks"]
    return (
        f"Фикстура `client_intents` проигрывает {clicks}\u00a0"
        f"{client_plural(clicks, ('нажатие', 'нажатия', 'нажатий'))} «Пополнить кошелёк на "
        "1\u00a0200\u00a0₽» с одинаковыми данными: двойной щелчок, при котором первый ответ теряется; "
        "нажатие того же действия, обработанное после ответа; новое пополнение после итогового ответа; "
        "два пополнения, сделанные без сети и отправленные из очереди разом."
    )


def client_identity_after(run: dict[str, Any]) -> str:
    first = run["firstRevision"]
    distinct = sorted(set(first["keys"]))
    keys = ("ключ " if len(distinct) == 1 else "ключи ") + ", ".join(f"`{key}`" for key in distinct)
    effects = first["serverEffects"]
    times = f"{effects}\u00a0{client_plural(effects, ('раз', 'раза', 'раз'))}"
    return (
        f"Ключей {run['distinctKeys']}, выполнений {run['serverEffects']}\u00a0— по одному на действие "
        "человека, и ни одной попытки после итогового ответа. Модель первой редакции на тех же нажатиях "
        f"выдаёт всем {len(run['intents'])}\u00a0действиям {keys}, и сервер выполняет операцию {times}: "
        "второе пополнение "
        "получило бы сохранённый ответ первого вместо денег. Мутационные тесты роняют эти проверки и "
        "на исправленной модели, если вернуть ей сравнение данных или отнять закрытие."
    )


client_shown_budget = client_budget_run()
client_shown_identity = client_identity_both()
client_shown_table = client_table_run()

# --- Источники ---------------------------------------------------------------

CLIENT_RFC7231 = Source(
    title="RFC\u00a07231: Hypertext Transfer Protocol (HTTP/1.1): Semantics and Content",
    url="https://www.rfc-editor.org/rfc/rfc7231.html",
    note=(
        "§\u00a04.2.2: идемпотентные методы (PUT, DELETE и безопасные) и то, что их можно повторить "
        "при обрыве связи до ответа, а POST к ним не относится; §\u00a06.5.8: 409 Conflict; "
        "§\u00a06.6.4: 503 и Retry-After; §\u00a07.1.3: Retry-After как HTTP-дата или число секунд. "
        "В 2022 году RFC\u00a07231 заменён RFC\u00a09110, эти правила в нём те же"
    ),
)
CLIENT_RFC7230 = Source(
    title="RFC\u00a07230: HTTP/1.1 Message Syntax and Routing, §\u00a06.3.1 Retrying Requests",
    url="https://www.rfc-editor.org/rfc/rfc7230.html#section-6.3.1",
    note=(
        "прокси не должен (MUST NOT) автоматически повторять неидемпотентные запросы; агент "
        "пользователя не повторяет такой запрос автоматически, если не знает, что запрос на деле "
        "идемпотентен или что исходный запрос не был применён. В 2022 году RFC\u00a07230 заменён "
        "RFC\u00a09112, то же требование там в §\u00a09.3.1"
    ),
)

CLIENT_CHANGES = (
    "Модель первой редакции узнавала повторное нажатие по равенству данных и не закрывала "
    "намерение\u00a0— то есть склеивала два одинаковых пополнения, от чего статья сама предостерегает; "
    "теперь намерение определяется событием интерфейса и закрывается итоговым ответом, а фазы бюджета "
    "и таблица наблюдений вычисляются прогонами модели. Добавлено, что RFC\u00a07230 запрещает прокси "
    "повторять неидемпотентные запросы, хотя некоторые так делают, и расставлены неразрывные пробелы."
)

# --- Статья -----------------------------------------------------------------

client_revision = revision(
    slug="retry-client-one-intent-one-key",
    title="Повтор без второго эффекта: одно намерение\u00a0— один ключ",
    categories=["HTTP", "Надёжность"],
    excerpt=(
        "Клиентская половина безопасного повтора: ключ идемпотентности создаётся до первого запроса и "
        "живёт, пока итоговый ответ не закрыл намерение; повторное нажатие узнают по событию "
        "интерфейса, а не по данным; у намерения один бюджет времени, который повторы тратят, но не "
        "продлевают."
    ),
    cover="/assets/retry/client-intent-cover.svg",
    published="2020-06-18",
    revised="2026-12-01",
    changes=CLIENT_CHANGES,
    lang="ru",
    body=[
        paragraph(
            "Человек нажимает «Оплатить». Запрос уходит, ответа нет, и через "
            f"{client_seconds(ATTEMPT_TIMEOUT_MS)}\u00a0секунды клиент прекращает ждать. Что произошло на "
            "сервере, из этой попытки узнать нельзя: запрос мог не дойти, мог дойти и упасть, а мог "
            "выполниться целиком\u00a0— тогда "
            "потерялся только ответ. Повторять нужно, но повтор `POST` без договорённости с сервером "
            "рискует вторым списанием."
        ),
        paragraph(
            "Договорённость состоит из двух половин. Сервер хранит результат по ключу идемпотентности и "
            "на повтор с тем же ключом отвечает сохранённым результатом, а не выполняет операцию заново. "
            "Клиент отвечает за всё остальное: когда ключ появляется, сколько он живёт, когда повторять и "
            "что показать человеку, если бюджет времени кончился. Эта заметка\u00a0— о клиентской половине."
        ),
        heading("Метод не спасает, спасает договорённость"),
        paragraph(
            "HTTP выделяет идемпотентные методы\u00a0— `PUT`, `DELETE` и безопасные вроде `GET`\u00a0— как "
            "раз потому, что их можно повторить, если связь оборвалась до того, как клиент прочёл ответ. "
            "`POST` в этот список не входит. RFC\u00a07230 (§\u00a06.3.1) запрещает прокси автоматически "
            "повторять такие запросы вовсе, а агенту пользователя\u00a0— если у него нет способа знать, что "
            "семантика запроса на деле идемпотентна или что исходный запрос не был применён. Ключ "
            "идемпотентности и есть такой способ: клиент и сервер условились, что все запросы с одним "
            "ключом\u00a0— одна операция."
        ),
        heading("Ключ принадлежит намерению, а не попытке"),
        paragraph(
            "Намерение\u00a0— то, чего хотел человек: «оплатить заказ 1042 на 1\u00a0200\u00a0₽». "
            "Попытка\u00a0— один HTTP-запрос, который пытается это намерение исполнить. У намерения может "
            "быть несколько попыток, и все они несут один ключ. Из этого следуют четыре правила."
        ),
        ordered_list(
            [
                "**Ключ создаётся до первой попытки** и сохраняется вместе с намерением\u00a0— там, где он "
                "переживёт перезагрузку страницы или перезапуск приложения: в хранилище сессии, локальной "
                "базе, очереди исходящих операций. Ключ, придуманный в обработчике ошибки или внутри "
                "цикла повторов, опоздал.",
                "**Номер попытки пишется в лог и метрики, но не входит в идентичность**: ни в ключ, ни в "
                "тело запроса. Сервер вправе сравнивать повтор с исходным запросом\u00a0— Stripe, например, "
                "сверяет параметры и отвечает ошибкой, если они разошлись.",
                "**Намерение узнают по событию интерфейса, а не по данным.** Интерфейс выдаёт "
                "идентификатор каждому действию человека\u00a0— когда показывает форму, когда человек "
                "меняет в ней данные и когда прежнее намерение закрыто,\u00a0— и хранит его вместе с "
                "намерением и ключом. Повторное нажатие несёт тот же идентификатор и находит открытое "
                "намерение. Два отдельных действия с одинаковыми данными\u00a0— два намерения и два ключа.",
                "**Итоговый ответ закрывает намерение**: успех или окончательный отказ. После него ключ "
                "больше не отправляется, а те же данные, отправленные снова,\u00a0— уже новое действие, "
                "новое намерение и новый ключ.",
            ]
        ),
        paragraph(
            "Сам ключ должен быть уникальным и непредсказуемым; Stripe советует UUID версии\u00a04 или "
            "другую случайную строку с достаточной энтропией. Вычислять ключ как хеш содержимого (заказ "
            "плюс сумма) соблазнительно, но тогда два честных одинаковых действия подряд, скажем два "
            "одинаковых пополнения, склеятся в одно. Модель первой редакции этой статьи ошибалась так "
            "же: повторное нажатие узнавала по равенству данных и не закрывала намерение никогда."
        ),
        heading("Один бюджет на всё намерение"),
        paragraph(
            "Вторая частая ошибка\u00a0— свежий таймер на каждую попытку. Клиент ждёт пять секунд, "
            "повторяет и снова ждёт пять, и после трёх попыток человек смотрит на индикатор пятнадцать "
            "секунд. Честнее дать бюджет намерению: в момент нажатия вычисляется дедлайн, и каждая "
            "попытка ждёт не дольше, чем осталось до него. Повтор тратит бюджет, а не продлевает его."
        ),
        paragraph(client_budget_text(client_shown_budget)),
        figure(
            "/assets/retry/intent-budget-timeline.svg",
            alt=client_figure_alt(client_shown_budget),
            caption=client_figure_caption(client_shown_budget),
        ),
        paragraph(
            "Ниже\u00a0— модель этого клиента, на которой проверены цифры статьи. Сети и часов в ней нет: "
            "время\u00a0— целые миллисекунды, сервер учитывает ключи, а что клиент увидит после "
            "попытки, задаёт сценарий: ответ теряется (запрос при этом выполнен) или приходит `201`, "
            "`409`, `4xx`, `503` с `Retry-After`. Намерения модель хранит по идентификатору действия. "
            f"Константы: `BUDGET_MS = {BUDGET_MS}`, `ATTEMPT_TIMEOUT_MS = {ATTEMPT_TIMEOUT_MS}`, "
            f"`PAUSE_MS = {PAUSE_MS}`, `RESERVE_MS = {RESERVE_MS}`, `MAX_ATTEMPTS = {MAX_ATTEMPTS}`, "
            f"`CLIENT_ANSWER_MS = {CLIENT_ANSWER_MS}` (через столько приходит ответ, если не потерялся)."
        ),
        code_block(
            client_source_of(
                ClientModel.submit,
                ClientModel.key_for_attempt,
                ClientModel.deadline_for_attempt,
                ClientModel.run,
                ClientModel.has_room,
                ClientModel.react,
                ClientModel.close,
            ),
            language="python",
        ),
        paragraph(
            "Фазы, на которые модель потратила бюджет, когда теряются все ответы, и итог. Длительности и "
            "их сумму считает прогон, а не текст: из них собраны цифры абзаца о бюджете и подпись к "
            "рисунку."
        ),
        verified_output(
            client_budget,
            expected={
                "budgetMs": 5000,
                "phases": [
                    {"phase": "attempt", "ms": 1800},
                    {"phase": "pause", "ms": 250},
                    {"phase": "attempt", "ms": 1800},
                    {"phase": "uncertain", "ms": 1150},
                ],
                "phasesTotalMs": 5000,
                "attempts": 2,
                "distinctKeys": 1,
                "serverEffects": 1,
                "outcome": "uncertain",
                "stop": {
                    "atMs": 3850,
                    "leftMs": 1150,
                    "nextNeedsMs": [250, 1800, 1000],
                    "nextNeedsTotalMs": 3050,
                },
            },
        ),
        paragraph(
            "Лог попыток и проверки, которые фикстура вычисляет по прогону. Номер попытки растёт, ключ и "
            "дедлайн одни и те же; каждая попытка началась, когда до дедлайна помещались ожидание, "
            "тайм-аут и запас, а остановился клиент, только когда следующая попытка не помещалась. "
            "Проверка первой редакции «фазы в сумме дают бюджет» провалиться не могла: последняя фаза "
            "по построению добирает остаток до дедлайна. Новый ключ на каждую попытку даёт два "
            "выполнения, таймер на каждую попытку\u00a0— третью попытку за пределами "
            f"{client_ms(BUDGET_MS)}, правило «пробовать, пока время ещё есть»\u00a0— урезанную третью "
            "попытку вместо честного экрана; мутационные тесты рядом со статьёй проверяют, что во всех "
            "трёх случаях проверки ложны."
        ),
        verified_output(
            client_budget,
            expected={
                "log": [
                    {"attempt": 1, "key": "key-001", "sentAtMs": 0, "deadlineMs": 5000},
                    {"attempt": 2, "key": "key-001", "sentAtMs": 2050, "deadlineMs": 5000},
                ],
                "checks": {
                    "keyStableAcrossAttempts": True,
                    "attemptCounterGrows": True,
                    "deadlineNeverExtended": True,
                    "phasesMatchLog": True,
                    "everyAttemptHadRoom": True,
                    "stoppedOnlyWithoutRoom": True,
                    "reserveKeptForUncertain": True,
                    "oneServerEffect": True,
                },
            },
        ),
        heading("Повторное нажатие узнают по событию, а не по данным"),
        paragraph(client_identity_text(client_shown_identity)),
        verified_output(
            client_intents,
            expected={
                "intents": [
                    {"action": "act-1", "clicks": 3, "key": "key-001", "attempts": 2},
                    {"action": "act-2", "clicks": 1, "key": "key-002", "attempts": 1},
                    {"action": "act-3", "clicks": 1, "key": "key-003", "attempts": 1},
                    {"action": "act-4", "clicks": 1, "key": "key-004", "attempts": 1},
                ],
                "serverEffects": 4,
                "firstRevision": {
                    "keys": ["key-001", "key-001", "key-001", "key-001"],
                    "serverEffects": 1,
                    "failedChecks": [
                        "equalPayloadsTwoActionsTwoKeys",
                        "oneEffectPerAction",
                        "samePayloadAfterFinalIsNewIntent",
                    ],
                },
                "checks": {
                    "repeatClickSameIntent": True,
                    "noAttemptAfterFinalAnswer": True,
                    "lateClickSendsNothing": True,
                    "samePayloadAfterFinalIsNewIntent": True,
                    "equalPayloadsTwoActionsTwoKeys": True,
                    "oneEffectPerAction": True,
                    "firstRevisionMergesEqualPayloads": True,
                },
            },
        ),
        paragraph(client_identity_after(client_shown_identity)),
        heading("Что разрешает каждое наблюдение"),
        paragraph(
            "После попытки у клиента есть наблюдение, и от него зависит не только «повторять или нет», "
            "но и что клиент вправе сказать человеку. Последний столбец собран из прогонов модели (метод "
            "`react`), а фикстура `client_observations` сверяет каждый прогон с обещанием строки: "
            "попытки, паузы, один ключ, итог."
        ),
        data_table(
            "Наблюдение после попытки и допустимый следующий шаг",
            ["Наблюдение", "Что оно позволяет", "Следующий шаг", "Прогон модели"],
            client_table_rows(client_shown_table["runs"]),
        ),
        verified_output(
            client_observations,
            expected={
                "checks": {
                    "finalAnswerClosesIntent": True,
                    "timeoutRepeatsSameKey": True,
                    "conflictRepeatsSameKey": True,
                    "badRequestIsFinal": True,
                    "validationErrorIsFinal": True,
                    "retryAfterSecondsHonoured": True,
                    "retryAfterDateHonoured": True,
                    "retryAfterPastBudgetIsUncertain": True,
                }
            },
        ),
        paragraph(
            "«Итоговый» здесь значит «окончательный», а не обязательно «успешный»: отказ `422` тоже "
            "закрывает намерение. Stripe на повтор с тем же ключом возвращает сохранённый ответ первого "
            "запроса, включая `500`, так что долбить сервер тем же ключом дальше бессмысленно: ответ не "
            "изменится. Но отличить сохранённый `500` от сбоя прокси можно только по договорённости с "
            "конкретным API, поэтому строки для него нет, и модель на нём падает, а не угадывает. "
            "Решение попробовать снова с новым "
            "ключом\u00a0— это уже новое намерение, и принимать его должен человек или бизнес-логика, "
            "которая сначала выяснила статус операции."
        ),
        paragraph(
            "Про `409` стоит помнить, что HTTP описывает этот код широко\u00a0— конфликт с текущим "
            "состоянием ресурса,\u00a0— а конкретный смысл задаёт API. У Stripe конфликт с параллельным "
            "запросом с тем же ключом не сохраняется как результат, поэтому такой запрос можно повторить. "
            "`Retry-After` бывает и HTTP-датой, и числом секунд; клиент должен понимать обе формы и "
            "сравнивать срок с остатком бюджета, а не ждать молча дольше обещанного. Дату модель "
            "отсчитывает от `Date` того же ответа: так расхождение часов не удлиняет ожидание."
        ),
        heading("Почему заблокированной кнопки мало"),
        paragraph(
            "Блокировка кнопки после нажатия полезна: она убирает самый частый дубль\u00a0— двойной "
            "щелчок. Но она живёт в одном экземпляре интерфейса и закрывает только один источник повторов."
        ),
        unordered_list(
            [
                "Перезагрузка страницы или перезапуск приложения сбрасывают состояние кнопки; если ключ "
                "жил только в памяти, следующее нажатие получит новый ключ и станет новой операцией.",
                "Кнопку обычно разблокируют по тайм-ауту\u00a0— ровно тогда, когда исход неизвестен. "
                "Нажатие в этот момент без сохранённого ключа и есть второе списание.",
                "Повторы случаются и ниже интерфейса. RFC\u00a07230 запрещает прокси автоматически "
                "повторять неидемпотентный запрос, но вопреки RFC\u00a07230 некоторые HTTP-библиотеки, "
                "мобильные SDK и прокси так делают, и кнопка об этом не узнает.",
                "Вторая вкладка или второе устройство не видят заблокированной кнопки. Ключ, сохранённый "
                "на одном устройстве, здесь тоже не поможет: нужна идентичность на уровне предметной "
                "области, например заказ, который сервер оплачивает не больше одного раза.",
            ]
        ),
        paragraph(
            "Кнопка\u00a0— это интерфейс, ключ\u00a0— это протокол. Разумно держать оба: кнопка не даёт "
            "человеку сделать лишнее, ключ делает лишнее безвредным, когда оно всё же случилось. Клиент, "
            "который создаёт ключ вместе с намерением, узнаёт повторное нажатие по действию, а не по "
            "данным, тратит один бюджет на все попытки, закрывает намерение только итоговым ответом и "
            "честно говорит «исход неизвестен», когда бюджет кончился, оставляет серверу простую задачу: "
            "узнать ключ и ответить тем, что уже было."
        ),
    ],
    sources=[CLIENT_RFC7231, CLIENT_RFC7230, STRIPE_IDEMPOTENCY, STRIPE_ERRORS],
)


# ============================== server ==============================

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
    return source_of(*objects)


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


# ============================== decision ==============================

DECISION_AGAIN, DECISION_AFTER_FIX, DECISION_NEVER = "again", "after_fix", "never"
DECISION_OUTLOOKS = (DECISION_AGAIN, DECISION_AFTER_FIX, DECISION_NEVER)  # 닫힌 어휘
DECISION_BACKOFF_S = (30, 120, 600)  # again: 30초, 2분, 10분, 그다음은 사람
DECISION_RECHECK_S = 600  # after_fix: 10분마다 다시 확인, 횟수는 세지 않는다
DECISION_MAX_AGE_S = 24 * 60 * 60  # 승인의 수명: 이보다 낡은 지시는 보내지 않는다

DECISION_REASONS = (
    "first_attempt",
    "expired",
    "outlook_unknown",
    "never_new_instruction",
    "not_declared_idempotent",
    "again_exhausted",
    "again_wait",
    "again_send",
    "after_fix_wait",
    "after_fix_send",
)


@dataclass(frozen=True)
class Decision:
    action: str  # "send" | "wait" | "hold"
    wait: int | None  # 다음에 볼 때까지 남은 초; hold면 None
    reason: str  # 운영자에게 그대로 보이는 사유


def decision_of(
    state: str,
    outlook: str | None,
    attempts_failed: int,
    declared_idempotent: bool,
    seconds_since_last: int,
    age_s: int,
) -> Decision:
    if state not in ("approved", "failed") or (state == "failed" and attempts_failed < 1):
        raise ValueError(f"no decision for {state!r} after {attempts_failed} failures")
    if age_s >= DECISION_MAX_AGE_S:  # 승인이 낡았다: 어떤 전망이든 보내지 않고 다시 묻는다
        return Decision("hold", None, "expired")
    if state == "approved":  # 보낸 기록이 없다. 기록이 전송보다 먼저이니 간 적도 없다
        return Decision("send", 0, "first_attempt")
    if outlook not in DECISION_OUTLOOKS:  # 모르는 것은 재시도로 밀어붙이지 않는다
        return Decision("hold", None, "outlook_unknown")
    if outlook == DECISION_NEVER:  # 사람이 새 지시를 내야 한다
        return Decision("hold", None, "never_new_instruction")
    if not declared_idempotent:  # 두 번 보내도 하나라는 약속이 없다
        return Decision("hold", None, "not_declared_idempotent")
    if outlook == DECISION_AFTER_FIX:  # 기다림이지 재시도가 아니다: 횟수를 읽지 않는다
        pause = DECISION_RECHECK_S
    elif attempts_failed > len(DECISION_BACKOFF_S):  # again만 횟수로 접는다
        return Decision("hold", None, "again_exhausted")
    else:
        pause = DECISION_BACKOFF_S[attempts_failed - 1]
    if seconds_since_last < pause:
        return Decision("wait", pause - seconds_since_last, f"{outlook}_wait")
    return Decision("send", 0, f"{outlook}_send")


# --- 워커의 기록과 전송 한 번 -----------------------------------------------------

DECISION_SEND_ORDER = ("record_sending", "dispatch", "record_result")  # 이 글의 워커
DECISION_DISPATCH_FIRST = ("dispatch", "record_result")  # 비교용: 보내고 나서 적는 워커


@dataclass(frozen=True)
class DecisionRecord:
    """워커가 지시 하나에 대해 저장한 것. 프로세스가 죽어도 남는다."""

    state: str  # approved | sending | failed | done
    attempts_failed: int = 0
    outlook: str | None = None
    last_sent_at: int | None = None  # 승인 뒤 초


class DecisionProcessDiedError(Exception):
    """워커 프로세스가 전송의 한 단계를 마친 뒤 죽었다."""


@dataclass
class DecisionStore:
    """워커의 데이터베이스: 죽은 프로세스가 남긴 마지막 기록."""

    record: DecisionRecord


def decision_send(
    store: DecisionStore,
    inbox: list[int],
    now: int,
    answer: str,
    order: tuple[str, ...],
    die_after: str | None,
) -> None:
    """지시를 한 번 보낸다. ``inbox``는 상대가 받은 것, ``answer``는 상대의 답."""
    before = store.record
    for step in order:
        if step == "record_sending":  # 결과는 아직 모른다: 보냈을 수 있다는 것만 적는다
            store.record = replace(before, state="sending", last_sent_at=now)
        elif step == "dispatch":
            inbox.append(now)
        elif answer == "ok":
            store.record = replace(before, state="done", last_sent_at=now)
        else:
            failed = before.attempts_failed + 1
            store.record = replace(
                before, state="failed", attempts_failed=failed, outlook=answer, last_sent_at=now
            )
        if step == die_after:
            raise DecisionProcessDiedError(step)


def decision_recover(record: DecisionRecord) -> DecisionRecord:
    """다시 뜬 워커가 기록을 읽는다. 결과 없이 남은 전송은 닿았는지 모른다: 응답을 잃은 again 실패다."""
    if record.state != "sending":
        return record
    return replace(record, state="failed", attempts_failed=record.attempts_failed + 1, outlook=DECISION_AGAIN)


# --- 시계를 움직여 지시 하나를 끝까지 돌리기 ---------------------------------------

DECISION_HORIZON_S = 60 * 24 * 60 * 60  # 관찰 기간: 끝나지 않는 실행도 여기서 멈춘다
DecisionPolicy = Callable[[str, str | None, int, bool, int, int], Decision]


@dataclass(frozen=True)
class DecisionRun:
    """지시 하나의 일생: 상대가 받은 시각들과 끝."""

    received_at: tuple[int, ...]  # 승인 뒤 초
    end: str  # "done", 멈춘 사유, 또는 관찰 기간이 끝날 때까지 이어지면 "running"
    end_at: int
    first_attempt_saw: tuple[int, ...]  # first_attempt가 나올 때마다 상대가 이미 받은 횟수


def decision_next(
    record: DecisionRecord, declared: bool, now: int, policy: DecisionPolicy | None
) -> Decision:
    """기록과 시계로 결정 함수를 부른다. 승인은 0초에 있었다."""
    since = 0 if record.last_sent_at is None else now - record.last_sent_at
    decide = policy or decision_of
    return decide(record.state, record.outlook, record.attempts_failed, declared, since, now)


def decision_run(
    answer: Callable[[int], str],
    declared: bool,
    *,
    start: int = 0,
    die_after: str | None = None,
    order: tuple[str, ...] | None = None,
    policy: DecisionPolicy | None = None,
) -> DecisionRun:
    """승인된 지시 하나를 ``start``초부터 끝까지 돌린다; 첫 전송의 ``die_after`` 단계 뒤에 한 번 죽는다."""
    store, inbox, saw, now = DecisionStore(DecisionRecord("approved")), [], [], start
    while now <= DECISION_HORIZON_S and store.record.state != "done":
        decision = decision_next(store.record, declared, now, policy)
        if decision.action == "hold":
            return DecisionRun(tuple(inbox), decision.reason, now, tuple(saw))
        if decision.action == "wait":
            now += decision.wait or 0
            continue
        if decision.reason == "first_attempt":
            saw.append(len(inbox))
        try:
            decision_send(store, inbox, now, answer(now), order or DECISION_SEND_ORDER, die_after)
        except DecisionProcessDiedError:
            store.record = decision_recover(store.record)  # 같은 순간에 다시 뜬다
        die_after = None
    return DecisionRun(tuple(inbox), "done" if store.record.state == "done" else "running", now, tuple(saw))


def decision_always(answer: str) -> Callable[[int], str]:
    """상대가 언제나 같은 답을 한다."""
    return lambda now: answer


def decision_fixed_at(fix_s: int) -> Callable[[int], str]:
    """설정이 ``fix_s``초에 고쳐진다: 그 전에는 after_fix, 그 뒤로는 성공."""
    return lambda now: "ok" if now >= fix_s else DECISION_AFTER_FIX


def decision_send_budget(
    state: str, outlook: str | None, attempts_failed: int, declared: bool, since: int, age_s: int
) -> Decision:
    """비교용: 보낸 횟수를 예산으로 세는 워커. 세 번 보내고 실패했으면 멈춘다."""
    if state == "failed" and attempts_failed >= 3:
        return Decision("hold", None, "attempts_spent")
    return decision_of(state, outlook, attempts_failed, declared, since, age_s)


def decision_first_revision(
    state: str, outlook: str | None, attempts_failed: int, declared: bool, since: int, age_s: int
) -> Decision:
    """비교용: 처음 실린(2021년 3월) 결정 함수. 승인의 나이를 읽지 않는다."""
    old = decision_v1.decide(state, outlook, attempts_failed, declared, since)
    return Decision(old.action, old.wait, old.reason)


DECISION_FIX_EARLY_S = 2 * 60 * 60 + 5 * 60  # 승인 뒤 2시간 5분에 설정을 고친다
DECISION_FIX_LATE_S = 21 * 24 * 60 * 60  # 3주 뒤에 고친다


def decision_lifetime_runs() -> dict[str, DecisionRun]:
    """글이 말하는 지시의 일생들. 모두 멱등성을 선언한 커넥터다."""
    return {
        "again": decision_run(decision_always(DECISION_AGAIN), True),
        "sendBudget3": decision_run(decision_always(DECISION_AGAIN), True, policy=decision_send_budget),
        "neverFixed": decision_run(decision_always(DECISION_AFTER_FIX), True),
        "fixedEarly": decision_run(decision_fixed_at(DECISION_FIX_EARLY_S), True),
        "fixedLate": decision_run(decision_fixed_at(DECISION_FIX_LATE_S), True),
        "workerDownLate": decision_run(decision_always("ok"), True, start=DECISION_FIX_LATE_S),
        "fixedLateFirstRevision": decision_run(
            decision_fixed_at(DECISION_FIX_LATE_S), True, policy=decision_first_revision
        ),
    }


def decision_crash_runs(order: tuple[str, ...]) -> dict[tuple[str | None, bool], DecisionRun]:
    """전송 순서 ``order``의 각 단계 뒤에서(또는 죽지 않고) 첫 전송 중에 죽는 실행. 상대는 늘 성공한다."""
    return {
        (die, declared): decision_run(decision_always("ok"), declared, die_after=die, order=order)
        for declared in (False, True)
        for die in (None, *order)
    }


# --- 글에 쓰는 숫자 ------------------------------------------------------------


DECISION_UNITS_KO = (("일", 86400), ("시간", 3600), ("분", 60), ("초", 1))
DECISION_UNITS_SHORT = (("d", 86400), ("h", 3600), ("m", 60), ("s", 1))


def decision_duration(seconds: int, units: tuple[tuple[str, int], ...] = DECISION_UNITS_KO) -> str:
    """750 -> '12분 30초', 86400 -> '24시간', 1814400 -> '21일'; with the short units '12m30s'.
    Days only from two days on: a day is '24시간'."""
    parts = []
    for name, size in units:
        if seconds >= size and (size != units[0][1] or seconds >= 2 * size):
            parts.append(f"{seconds // size}{name}")
            seconds %= size
    joined = (" " if units == DECISION_UNITS_KO else "").join(parts)
    return joined or f"0{units[-1][0]}"


def decision_times(seconds: tuple[int, ...]) -> str:
    return ", ".join(decision_duration(s) for s in seconds)


_DECISION_LIFE = decision_lifetime_runs()
_DECISION_CRASHES = decision_crash_runs(DECISION_SEND_ORDER)
_DECISION_NAIVE = decision_crash_runs(DECISION_DISPATCH_FIRST)[("dispatch", False)]
_DECISION_AGAIN_SENDS = len(_DECISION_LIFE["again"].received_at)
_DECISION_MAX_AGE = decision_duration(DECISION_MAX_AGE_S)
_DECISION_RECHECK = decision_duration(DECISION_RECHECK_S)
_DECISION_LADDER = ", ".join(decision_duration(s) for s in DECISION_BACKOFF_S)

# 운영자 화면의 사유 설명: '이걸 고쳐라'와 '우리 쪽에서 고칠 것 없음'을 가른다.
DECISION_REASON_NOTES = {
    "first_attempt": "첫 전송. 확인할 것 없음",
    "expired": (
        f"승인자에게 다시 물을 것. 승인 뒤 {_DECISION_MAX_AGE}이 지난 지시는 보내지 않는다. 상대 쪽에 "
        "이미 생겼는지 확인하고, 아직 필요하면 다시 승인한다"
    ),
    "again_wait": "고칠 것 없음. 상대가 흔들렸고 워커가 곧 다시 보낸다",
    "again_send": "고칠 것 없음. 사다리에 따라 다시 보냈다",
    "again_exhausted": (
        f"사람이 볼 차례. 첫 전송을 포함해 {_DECISION_AGAIN_SENDS}번 보내도 상대가 회복하지 않았다"
    ),
    "after_fix_wait": (
        f"설정을 고칠 것. 승인 뒤 {_DECISION_MAX_AGE} 안에 고치면 {_DECISION_RECHECK} 안에 지시가 "
        "그대로 나간다"
    ),
    "after_fix_send": "설정이 고쳐졌는지 보려고 지시를 그대로 다시 보냈다",
    "never_new_instruction": "지시를 고칠 것. 이 지시로는 안 되니 새 지시를 내야 한다",
    "not_declared_idempotent": (
        "자동 재시도 안 함. 커넥터가 “두 번 보내도 하나”를 선언하지 않았으니 상대 쪽에 지시가 "
        "생겼는지 확인하고 사람이 보낸다"
    ),
    "outlook_unknown": "어댑터를 고칠 것. 실패의 전망을 밝히지 않았거나 어휘 밖의 값을 보냈다",
}

# --- 결정표와 격자 -------------------------------------------------------------

# (state, outlook, attempts_failed, declared_idempotent, seconds_since_last, age_s)
DecisionInputs = tuple[str, str | None, int, bool, int, int]

DECISION_HOUR = 3600
DECISION_TABLE: tuple[DecisionInputs, ...] = (
    ("approved", None, 0, False, 0, 0),
    ("approved", None, 0, True, 0, DECISION_FIX_LATE_S),
    ("failed", DECISION_AGAIN, 1, True, 10, 10),
    ("failed", DECISION_AGAIN, 1, True, 30, 30),
    ("failed", DECISION_AGAIN, 2, True, 120, 150),
    ("failed", DECISION_AGAIN, 3, True, 300, 450),
    ("failed", DECISION_AGAIN, 4, True, 3600, DECISION_HOUR),
    ("failed", DECISION_AFTER_FIX, 1, True, 0, 0),
    ("failed", DECISION_AFTER_FIX, 40, True, 600, 24000),
    ("failed", DECISION_AFTER_FIX, 144, True, 600, 86400),
    ("failed", DECISION_NEVER, 1, True, 0, 0),
    ("failed", DECISION_AGAIN, 1, False, 600, 600),
    ("failed", None, 1, True, 600, 600),
    ("failed", "retry", 1, True, 600, 600),
)
DECISION_INVALID: tuple[DecisionInputs, ...] = (
    ("sending", None, 0, True, 0, 0),
    ("failed", DECISION_AGAIN, 0, True, 0, 0),
)

DECISION_GRID_OUTLOOKS = (None, "retry", DECISION_AGAIN, DECISION_AFTER_FIX, DECISION_NEVER)
DECISION_GRID_SECONDS = (0, 29, 30, 119, 120, 599, 600, 3600)
DECISION_GRID_FAILURES = range(1, 13)
DECISION_GRID_AGES = (DECISION_HOUR, 86399, 86400, DECISION_FIX_LATE_S)
DECISION_SCAN_SECONDS = range(7201)
DECISION_CLAIMED_MAX_AGE_S = 24 * DECISION_HOUR  # 글이 말하는 수명: 검사는 실행을 이 값과 견준다


def decision_grid() -> Iterator[DecisionInputs]:
    for declared in (False, True):
        for outlook in DECISION_GRID_OUTLOOKS:
            for since in DECISION_GRID_SECONDS:
                for age in DECISION_GRID_AGES:
                    yield ("approved", outlook, 0, declared, since, age)
                    for failed in DECISION_GRID_FAILURES:
                        yield ("failed", outlook, failed, declared, since, age)


def decision_row_text(inputs: DecisionInputs, decision: Decision) -> str:
    state, outlook, failed, declared, since, age = inputs
    given = (
        f"{state:<8} {outlook or '-':<9} n={failed:<3} idem={'yes' if declared else 'no':<3} "
        f"t={since:>4}s age={decision_duration(age, DECISION_UNITS_SHORT):<5}"
    )
    done = f"wait {decision.wait}s" if decision.action == "wait" else decision.action
    return f"{given} → {done:<9} {decision.reason}"


def decision_first_send(outlook: str, failed: int) -> int | None:
    """The smallest number of seconds after which ``decision_of`` sends again, found by scanning."""
    for since in DECISION_SCAN_SECONDS:
        if decision_of("failed", outlook, failed, True, since, since).action == "send":
            return since
    return None


def decision_rejects(inputs: DecisionInputs) -> bool:
    try:
        decision_of(*inputs)
    except ValueError:
        return True
    return False


def decision_varies_with_count(failed: dict[DecisionInputs, Decision], outlook: str | None) -> bool:
    """Whether, for some declaration, elapsed time and age, the decision changes with the failure count."""
    for declared in (False, True):
        for since in DECISION_GRID_SECONDS:
            for age in DECISION_GRID_AGES:
                decisions = {
                    failed["failed", outlook, n, declared, since, age] for n in DECISION_GRID_FAILURES
                }
                if len(decisions) > 1:
                    return True
    return False


def decision_grid_checks(seen: dict[DecisionInputs, Decision]) -> dict[str, bool]:
    """The checks that the wide grid computes from the function's behaviour."""
    fresh = {i: d for i, d in seen.items() if i[5] < DECISION_CLAIMED_MAX_AGE_S}
    failed = {i: d for i, d in fresh.items() if i[0] == "failed"}
    after_fix = {i: d for i, d in failed.items() if i[1] == DECISION_AFTER_FIX and i[3]}
    unknown = [d for i, d in failed.items() if i[1] not in DECISION_OUTLOOKS]
    approved = [(i, d) for i, d in fresh.items() if i[0] == "approved"]
    stale = [(i, d) for i, d in seen.items() if i[5] >= DECISION_CLAIMED_MAX_AGE_S]
    return {
        "afterFixNeverFolds": all(d.action != "hold" for d in after_fix.values())
        and all(
            len(
                {after_fix["failed", DECISION_AFTER_FIX, n, True, since, age] for n in DECISION_GRID_FAILURES}
            )
            == 1
            for since in DECISION_GRID_SECONDS
            for age in DECISION_GRID_AGES
            if age < DECISION_CLAIMED_MAX_AGE_S
        ),
        "onlyAgainFolds": {o for o in DECISION_GRID_OUTLOOKS if decision_varies_with_count(seen, o)}
        == {DECISION_AGAIN},
        "firstAttemptIgnoresIdempotency": {i[3] for i, _ in approved} == {False, True}
        and all(d == Decision("send", 0, "first_attempt") for _, d in approved),
        "retryNeedsDeclaredIdempotency": all(d.action != "send" for i, d in failed.items() if not i[3])
        and any(d.action == "send" for d in failed.values()),
        "unknownNeverRetried": bool(unknown)
        and all(d == Decision("hold", None, "outlook_unknown") for d in unknown),
        "staleApprovalAlwaysExpires": {i[0] for i, _ in stale} == {"approved", "failed"}
        and all(d == Decision("hold", None, "expired") for _, d in stale)
        and any(d.action == "send" for d in fresh.values()),
    }


@fixture
def decision_table() -> dict[str, object]:
    table = {inputs: decision_of(*inputs) for inputs in DECISION_TABLE}
    missed = decision_v1.lines_not_run(
        decision_of,
        [lambda i=inputs: decision_of(*i) for inputs in DECISION_TABLE]
        + [lambda i=inputs: decision_rejects(i) for inputs in DECISION_INVALID],
    )
    seen = {inputs: decision_of(*inputs) for inputs in decision_grid()}
    ladder = [decision_first_send(DECISION_AGAIN, n) for n in (1, 2, 3)]
    beyond = {
        decision_of("failed", DECISION_AGAIN, n, True, since, since).action
        for n in range(4, 13)
        for since in DECISION_SCAN_SECONDS
    }
    recheck = sorted({decision_first_send(DECISION_AFTER_FIX, n) for n in DECISION_GRID_FAILURES}, key=str)
    return {
        "table": [decision_row_text(inputs, decision) for inputs, decision in table.items()],
        "ladderSeconds": ladder,
        "afterFixRecheckSeconds": recheck,
        "gridSize": len(seen),
        "checks": {
            **decision_grid_checks(seen),
            "afterFixRechecksEvery10Min": recheck == [600],
            "backoffIs30s2m10mThenStop": ladder == [30, 120, 600] and beyond == {"hold"},
            "everyReasonExplained": set(DECISION_REASON_NOTES) == set(DECISION_REASONS),
            "everyBranchCovered": {d.reason for d in table.values()} == set(DECISION_REASONS)
            and {d.reason for d in seen.values()} == set(DECISION_REASONS)
            and all(decision_rejects(inputs) for inputs in DECISION_INVALID)
            and missed == [],
        },
    }


def decision_life_summary(run: DecisionRun) -> dict[str, object]:
    summary: dict[str, object] = {"sends": len(run.received_at), "end": run.end, "endAt": run.end_at}
    if run.received_at:
        summary["lastSentAt"] = run.received_at[-1]
    return summary


@fixture
def decision_lifetimes() -> dict[str, object]:
    runs = decision_lifetime_runs()
    again, budget = runs["again"], runs["sendBudget3"]
    never_fixed, early, late = runs["neverFixed"], runs["fixedEarly"], runs["fixedLate"]
    down, before = runs["workerDownLate"], runs["fixedLateFirstRevision"]
    gaps = [b - a for a, b in zip(again.received_at, again.received_at[1:], strict=False)]
    limit = DECISION_CLAIMED_MAX_AGE_S
    return {
        "againSentAt": list(again.received_at),
        "againEnd": again.end,
        "sendBudget3SentAt": list(budget.received_at),
        "sendBudget3End": budget.end,
        "runs": {
            name: decision_life_summary(run)
            for name, run in runs.items()
            if name not in ("again", "sendBudget3")
        },
        "fixedAt": {"fixedEarly": DECISION_FIX_EARLY_S, "fixedLate": DECISION_FIX_LATE_S},
        "checks": {
            "againSendsFourTimesThenStops": len(again.received_at) == 4
            and gaps == [30, 120, 600]
            and (again.end, again.end_at) == ("again_exhausted", again.received_at[-1]),
            "afterFixStopsWithin24h": never_fixed.end == "expired"
            and len(never_fixed.received_at) > 1
            and max(never_fixed.received_at) < limit
            and 0 <= never_fixed.end_at - max(never_fixed.received_at) <= 600,
            "fixWithin24hSentWithin10Min": early.end == "done"
            and 0 <= early.received_at[-1] - DECISION_FIX_EARLY_S <= 600,
            "staleApprovalNeverSent": late.end == "expired"
            and all(t < limit for t in late.received_at)
            and down.received_at == ()
            and down.end == "expired",
            "firstRevisionSentStaleApproval": before.end == "done"
            and before.received_at[-1] >= DECISION_FIX_LATE_S,
        },
    }


def decision_crash_row(die: str | None, declared: bool, run: DecisionRun) -> str:
    end = run.end if run.end in ("done", "running") else f"hold {run.end}"
    return f"{die or '-':<14} idem={'yes' if declared else 'no':<3} → received {len(run.received_at)}, {end}"


@fixture
def decision_crashes() -> dict[str, object]:
    runs = decision_crash_runs(DECISION_SEND_ORDER)
    naive = decision_crash_runs(DECISION_DISPATCH_FIRST)
    undeclared = [run for (_, declared), run in runs.items() if not declared]
    declared = [run for (_, declared), run in runs.items() if declared]
    duplicated = naive[("dispatch", False)]
    return {
        "order": list(DECISION_SEND_ORDER),
        "runs": [decision_crash_row(die, idem, run) for (die, idem), run in runs.items()],
        "dispatchFirst": decision_crash_row("dispatch", False, duplicated),
        "checks": {
            "firstAttemptOnlyWhenNothingReceived": all(
                run.first_attempt_saw and set(run.first_attempt_saw) == {0} for run in runs.values()
            ),
            "undeclaredReceivedAtMostOnce": all(len(run.received_at) <= 1 for run in undeclared),
            "declaredAlwaysDelivered": all(run.end == "done" and run.received_at for run in declared),
            "dispatchFirstWouldDuplicate": len(duplicated.received_at) == 2
            and 1 in duplicated.first_attempt_saw,
        },
    }


def decision_source_of(*objects: object) -> str:
    return source_of(*objects, gap="\n\n\n")


# --- 출처 ------------------------------------------------------------------

DECISION_STRIPE_KEYS = Source(
    title="Stripe API Reference: Idempotent requests",
    url="https://docs.stripe.com/api/idempotent_requests",
    note=(
        "멱등성 키는 적어도 24시간이 지나면 시스템에서 자동으로 지워질 수 있고, 원래 요청이 지워진 "
        "뒤 같은 키를 다시 쓰면 새 요청이 만들어진다는 설명"
    ),
)

# --- 글 --------------------------------------------------------------------

_DECISION_UNDECLARED_MAX = max(len(r.received_at) for (_, idem), r in _DECISION_CRASHES.items() if not idem)
_DECISION_DECLARED_MAX = max(len(r.received_at) for (_, idem), r in _DECISION_CRASHES.items() if idem)
_DECISION_LATE_FIX = decision_duration(DECISION_FIX_LATE_S)
_DECISION_LAST_STEP = decision_duration(DECISION_BACKOFF_S[-1])


def _decision_life(name: str) -> DecisionRun:
    return _DECISION_LIFE[name]


_DECISION_OPERATOR_ROWS = [
    [
        f"승인 뒤 {_DECISION_MAX_AGE} 이상(전망과 관계없이)",
        "보내지 않는다. 한 번도 보내지 않은 지시도 마찬가지다.",
        f"`expired`: {DECISION_REASON_NOTES['expired']}.",
    ],
    [
        "`again`",
        f"{_DECISION_LADDER} 뒤 지시를 그대로 다시 보낸다. 첫 전송을 포함해 {_DECISION_AGAIN_SENDS}번 "
        "보내고도 `again`이면 멈춘다.",
        f"`again_wait`: {DECISION_REASON_NOTES['again_wait']}. "
        f"`again_exhausted`: {DECISION_REASON_NOTES['again_exhausted']}.",
    ],
    [
        "`after_fix`",
        f"{_DECISION_RECHECK}마다 지시를 그대로 다시 보내 본다. 실패 횟수는 읽지 않고, 승인 뒤 "
        f"{_DECISION_MAX_AGE}이 되면 멈춘다.",
        f"`after_fix_wait`: {DECISION_REASON_NOTES['after_fix_wait']}.",
    ],
    [
        "`never`",
        "보내지 않는다.",
        f"`never_new_instruction`: {DECISION_REASON_NOTES['never_new_instruction']}.",
    ],
    [
        "전망 없음, 어휘 밖의 값",
        "보내지 않는다. `again`으로 짐작하지 않는다.",
        f"`outlook_unknown`: {DECISION_REASON_NOTES['outlook_unknown']}.",
    ],
    [
        "`again`·`after_fix`, 선언 없는 커넥터",
        "첫 전송만 한다. 실패한 지시는 다시 보내지 않는다.",
        f"`not_declared_idempotent`: {DECISION_REASON_NOTES['not_declared_idempotent']}.",
    ],
]

DECISION_CHANGES = (
    "`after_fix`의 재전송에 끝이 없어 몇 주 전에 승인된 지시도 설정을 고치는 순간 나가던 것을 고쳐 승인에 "
    f"{_DECISION_MAX_AGE}의 수명을 두었고, “보낸 적이 없으니 중복될 것도 없다”가 “보냈다”를 전송보다 먼저 "
    "적을 때만 맞는다는 것을 밝혀 모델로 확인했다. `again`이 첫 전송을 포함해 "
    f"{_DECISION_AGAIN_SENDS}번 보낸다는 것을 실행으로 세어 밝혔고, “결정적”을 “결정론적”으로 고쳤다."
)

decision_revision = revision(
    slug="retry-decision-one-question",
    title="워커의 질문 하나: 다시 넘길까, 언제?",
    categories=["신뢰성", "백엔드"],
    excerpt=(
        "실패한 지시를 앞에 둔 워커의 재시도 결정을 순수 함수 하나로 적었다. 어댑터는 again, "
        "after_fix, never 중 하나로 답하고, 횟수로 접는 것은 again뿐이며, 실패한 지시를 다시 "
        "보내는 것은 멱등성을 선언한 커넥터에만 허락된다. 승인에는 수명이 있고, “보냈다”는 "
        "보내기 전에 적는다."
    ),
    cover="/assets/retry_decision/cover.svg",
    published="2021-03-15",
    revised="2026-12-01",
    changes=DECISION_CHANGES,
    lang="ko",
    body=[
        paragraph(
            "지시 하나가 커넥터를 거쳐 바깥 시스템으로 나갔다가 실패로 돌아왔다. 이때 워커가 물어야 "
            "할 질문은 하나뿐이다. 이 지시를 다시 넘길 것인가, 넘긴다면 언제인가. 흔한 답은 “세 "
            "번까지 재시도”다. 짧고 설정하기도 쉽지만 이 답은 실패의 성격을 묻지 않는다. 네트워크가 "
            "잠깐 끊긴 실패도, API 키가 만료된 실패도, 금액이 음수인 지시도 똑같이 세 번 다시 "
            "보내고, 그다음에는 똑같이 포기한다."
        ),
        paragraph(
            "이 글은 그 질문을 순수 함수 하나로 적는다. 입력은 지시의 상태, 어댑터가 밝힌 전망, "
            "실패 횟수, 커넥터의 멱등성 선언, 마지막 시도 뒤 흐른 시간, 그리고 승인 뒤 흐른 시간이다. "
            "출력은 지금 보낼지, 얼마나 기다릴지, 그리고 그 이유다. 함수는 네트워크도 시계도 읽지 "
            "않으므로 모든 분기를 표 하나로 확인할 수 있다. 함수 바깥의 일, 곧 워커가 무엇을 언제 "
            "기록하는지와 시간이 흐르며 지시가 어떻게 끝나는지는 작은 모델로 따로 돌려 본다."
        ),
        heading("어댑터는 세 가지 중 하나로 답한다"),
        paragraph(
            "상대 시스템의 오류를 이해하는 것은 어댑터다. HTTP 503인지, 결제 대행사의 고유 오류 "
            "코드인지는 어댑터만 안다. 워커가 이런 코드를 직접 해석하기 시작하면 커넥터마다 재시도 "
            "규칙이 하나씩 늘어난다. 그래서 어댑터는 실패를 워커의 어휘 세 개 중 하나로 번역해 넘긴다."
        ),
        unordered_list(
            [
                "**`again`**: 일시적인 실패다. 상대에 닿지 못했거나 상대가 잠깐 흔들렸다. 같은 "
                "지시를 시간을 두고 그대로 다시 보내면 된다.",
                "**`after_fix`**: 설정 문제다. 인증서가 만료됐거나 계정 권한이 빠졌거나 수신 주소가 "
                "틀렸다. 지시 자체는 옳으므로 사람이 설정을 고치면 지시는 손대지 않고 그대로 보내면 된다.",
                "**`never`**: 지시 자체가 틀렸다. 없는 계좌, 허용되지 않는 금액, 형식이 어긋난 요청이 "
                "그렇다. 몇 번을 보내도 결과는 같고, 사람이 새 지시를 내야 한다.",
            ]
        ),
        paragraph(
            "Google SRE 책은 연쇄 장애를 다루는 장에서 재시도할 수 있는 오류와 없는 오류를 나누고, "
            "영구적인 오류나 잘못된 요청은 결코 성공하지 않으니 재시도하지 말라고 권한다. AWS "
            "Builders' Library의 글도 HTTP가 클라이언트 오류와 서버 오류를 구분한다는 점을 짚는다. "
            "클라이언트 오류는 같은 요청으로 다시 보내 봐야 나중에도 성공하지 않는다. 세 가지 전망은 "
            "이 구분을 한 칸 더 쪼갠 것이다. “다시 보내도 안 된다”를 사람이 할 일에 따라 둘로 "
            "나눈다. 설정을 고치면 같은 지시가 통하는 경우가 `after_fix`, 지시를 새로 내야 하는 "
            "경우가 `never`다."
        ),
        figure(
            "/assets/retry_decision/decision-flow-2026-12.svg",
            alt=(
                f"결정 흐름도. 어떤 지시든 승인 뒤 {_DECISION_MAX_AGE}이 지났으면 보내지 않고 expired로 "
                "멈춰 승인자에게 다시 묻는다. 승인됐지만 보낸 기록이 없는 지시는 멱등성을 묻지 않고 "
                "보낸다. 실패한 지시는 먼저 어댑터의 전망을 본다. 전망이 없거나 어휘 밖이면 보류, "
                "never면 새 지시가 필요해 보류, 커넥터가 멱등성을 선언하지 않았으면 보류한다. "
                f"after_fix는 {_DECISION_RECHECK}마다 그대로 다시 보내며 횟수를 세지 않지만 승인 뒤 "
                f"{_DECISION_MAX_AGE}에서 끝난다. again은 {_DECISION_LADDER} 뒤 다시 보내 첫 전송을 "
                f"포함해 {_DECISION_AGAIN_SENDS}번 보내고, 그래도 실패하면 멈추고 사람이 본다."
            ),
            caption=(
                f"재시도 결정의 흐름. 맨 앞의 관문은 승인의 나이다. 횟수로 접히는 것은 again의 "
                f"사다리({_DECISION_LADDER} 뒤 사람)뿐이고, after_fix는 {_DECISION_RECHECK} 간격의 "
                "기다림이다."
            ),
        ),
        heading("after_fix는 재시도가 아니라 기다림이다"),
        paragraph(
            "흔한 실수는 `after_fix`까지 재시도 횟수에 넣는 것이다. 설정 문제는 사람이 고칠 "
            "때까지 몇 번을 보내도 같은 답이 돌아온다. 그러니 “세 번까지” 규칙은 30초, 2분, 10분 "
            "만에 횟수를 다 쓰고 지시를 실패로 접는다. 담당자가 한 시간 뒤 인증서를 교체해도 접힌 "
            "지시는 움직이지 않는다. 누군가 목록을 뒤져 지시마다 “보내기”를 다시 눌러야 하고, 그 "
            "사이 빠뜨린 지시는 조용히 묻힌다."
        ),
        paragraph(
            f"그래서 `after_fix`는 세지 않는다. 워커는 {_DECISION_RECHECK}마다 지시를 그대로 다시 보내 "
            "보고, 설정이 아직 그대로면 같은 `after_fix`가 돌아올 뿐이다. 실패가 1번째든 40번째든 "
            f"결정은 같다. 사람이 설정을 고치면 늦어도 {_DECISION_RECHECK} 안에 지시가 나가고, 아무도 "
            f"다시 누를 필요가 없다. {_DECISION_RECHECK}은 고쳐지지 않은 설정으로 상대를 두드리는 "
            "횟수를 낮게 유지하면서, 고친 뒤 기다리는 시간도 짧게 두는 절충이다. 다만 세지 않는다고 "
            "끝이 없어서는 안 된다."
        ),
        heading("기다림에도 끝이 있다: 승인의 수명"),
        paragraph(
            "이 글이 처음 실렸을 때 `after_fix`의 기다림에는 끝이 없었다. 설정이 "
            f"{_DECISION_LATE_FIX} 뒤에야 고쳐지면, 그만큼 전에 승인된 지시가 설정을 고친 바로 그 "
            "순간 나갔다. 그사이 주문은 취소됐을 수 있고, 금액은 바뀌었을 수 있고, 승인한 사람은 그 "
            "지시를 잊었을 수 있다. 승인은 승인한 때의 판단이지, 아무 때나 써도 되는 허가가 아니다."
        ),
        paragraph(
            "그래서 고친 결정 함수는 승인 뒤 흐른 초 `age_s`를 하나 더 받는다. 그 값이 "
            f"`DECISION_MAX_AGE_S`({_DECISION_MAX_AGE}) 이상이면 전망이 무엇이든 보내지 않고 `hold`로 "
            "멈추며, 사유는 `expired`다. 워커는 그 지시를 포기하고, 운영 화면은 승인자에게 다시 "
            "물으라고 적는다. 이 검사는 상태 검사 바로 다음, 다른 모든 관문보다 앞에 있어서 첫 "
            "전송에도 적용된다. 워커가 며칠 멈춰 있다가 다시 떠도, 그동안 쌓인 승인된 지시 가운데 "
            "낡은 것은 나가지 않는다."
        ),
        paragraph(
            f"{_DECISION_MAX_AGE}은 이 글이 고른 값이지만, 수명을 짧게 잡을 이유가 하나 더 있다. 실패한 "
            "지시를 다시 보내도 되는 것은 커넥터가 “두 번 보내도 하나”를 약속했기 때문인데, 그 약속을 "
            "멱등성 키로 지키는 상대도 키를 영원히 기억하지는 않는다. Stripe는 키가 적어도 24시간이 "
            "지나면 자동으로 지워질 수 있고, 원래 요청이 지워진 뒤 같은 키로 온 요청은 새 요청이 된다고 "
            f"밝힌다. 모든 전송이 승인 뒤 {_DECISION_MAX_AGE} 안에 일어나면 어떤 재전송도 첫 전송 뒤 "
            f"{_DECISION_MAX_AGE}이 지나지 않았으니, 키를 그만큼 기억하는 상대에게는 약속이 아직 살아 "
            "있다. 커넥터마다 상대가 키를 기억하는 기간이 다르면 수명은 그중 가장 짧은 것을 넘지 않아야 "
            "한다."
        ),
        paragraph(
            "픽스처 `decision_lifetimes`는 시계를 움직이며 승인된 지시 하나를 끝까지 돌린다. 결정 "
            "함수가 `wait`라고 하면 그만큼 시계를 넘기고, `send`라고 하면 상대에게 보내고, `hold`면 "
            "멈춘다. 상대가 끝까지 `after_fix`로 답하면 지시는 첫 전송을 포함해 "
            f"{len(_decision_life('neverFixed').received_at)}번 나가고, 마지막 전송은 승인 뒤 "
            f"{decision_duration(_decision_life('neverFixed').received_at[-1])}, 워커가 `expired`로 "
            f"멈추는 것은 {decision_duration(_decision_life('neverFixed').end_at)}이다. 승인 뒤 "
            f"{decision_duration(DECISION_FIX_EARLY_S)}에 설정을 고치면 지시는 "
            f"{decision_duration(_decision_life('fixedEarly').received_at[-1])}에 나간다. "
            f"{_DECISION_LATE_FIX} 뒤에 고치면 지시는 나가지 않고, 그 시각에 처음 뜬 워커도 이 지시를 "
            "보내지 않는다. 처음 실린 결정 함수로 같은 실행을 돌리면 지시는 승인 뒤 "
            f"{decision_duration(_decision_life('fixedLateFirstRevision').received_at[-1])}에 나간다."
        ),
        verified_output(
            decision_lifetimes,
            expected={
                "fixedAt": {"fixedEarly": 7500, "fixedLate": 1814400},
                "runs": {
                    "neverFixed": {"sends": 144, "end": "expired", "endAt": 86400, "lastSentAt": 85800},
                    "fixedEarly": {"sends": 14, "end": "done", "endAt": 7800, "lastSentAt": 7800},
                    "fixedLate": {"sends": 144, "end": "expired", "endAt": 86400, "lastSentAt": 85800},
                    "workerDownLate": {"sends": 0, "end": "expired", "endAt": 1814400},
                    "fixedLateFirstRevision": {
                        "sends": 3025,
                        "end": "done",
                        "endAt": 1814400,
                        "lastSentAt": 1814400,
                    },
                },
                "checks": {
                    "afterFixStopsWithin24h": True,
                    "fixWithin24hSentWithin10Min": True,
                    "staleApprovalNeverSent": True,
                    "firstRevisionSentStaleApproval": True,
                },
            },
        ),
        heading("접히는 것은 again뿐이다"),
        paragraph(
            "`again`은 기다리면 나아진다는 전망이지만 그 전망이 언제까지나 맞지는 않는다. 재시도는 "
            "상대가 이미 과부하일 때 부하를 더한다. AWS의 글은 재시도를 “이기적”이라고 부르고, SRE "
            "책은 요청마다 재시도 횟수를 제한하고 무작위화한 지수 백오프를 쓰라고 한다. 이 워커의 "
            f"사다리는 {_DECISION_LADDER}이다. 기다림마다 한 번씩 다시 보내므로 `again`만 돌아오는 "
            f"지시는 첫 전송을 포함해 {_DECISION_AGAIN_SENDS}번, 승인 뒤 "
            f"{decision_times(_decision_life('again').received_at)}에 나간다. {_DECISION_AGAIN_SENDS}번째 "
            "실패가 돌아오면 워커는 멈추고 사람이 상대 쪽을 살펴보게 한다. 그 뒤에도 자동으로 계속 "
            "보내는 것은 “일시적”이라는 진단이 틀렸을 가능성을 외면하는 일이다."
        ),
        paragraph(
            "“세 번까지 재시도”의 세 번이 무엇을 세는지는 밝혀 두어야 한다. 보낸 횟수와 다시 보낸 "
            "횟수는 한 번 차이가 난다. 재시도 예산을 보낸 횟수로 세는 구현도 흔하다. 그렇게 세어 세 "
            "번 보낸 뒤 멈추면(`attempts_spent`) 같은 실행에서 지시는 "
            f"{len(_decision_life('sendBudget3').received_at)}번, 마지막으로 "
            f"{decision_duration(_decision_life('sendBudget3').received_at[-1])}에 나가고 사다리의 "
            f"마지막 칸인 {_DECISION_LAST_STEP}은 한 번도 쓰이지 않는다. 이 글의 워커는 실패한 전송을 "
            "센다. `attempts_failed`가 사다리의 칸 수를 넘으면 멈추므로 전송은 칸 수보다 하나 많다. "
            "이 글은 마지막 칸을 남기는 쪽을 골랐다. 앞의 두 칸은 잠깐의 흔들림을, 마지막 칸은 배포나 "
            "재시작처럼 조금 긴 중단을 넘기려는 것이다. 보낸 횟수를 세 번으로 맞추려면 사다리에서 "
            "마지막 칸을 빼면 된다. 어느 쪽이든 운영 화면의 사유는 모두 몇 번 보냈는지를 적는다."
        ),
        verified_output(
            decision_lifetimes,
            expected={
                "againSentAt": [0, 30, 150, 750],
                "againEnd": "again_exhausted",
                "sendBudget3SentAt": [0, 30, 150],
                "sendBudget3End": "attempts_spent",
                "checks": {"againSendsFourTimesThenStops": True},
            },
        ),
        paragraph(
            "실제 워커에서는 많은 지시가 같은 순간에 다시 몰리지 않도록 기다림에 지터를 섞는다. 아래 "
            "모델은 표를 결정론적으로 만들려고 지터를 뺐다. 간격의 상한과 횟수의 상한은 그대로다."
        ),
        heading("첫 전송은 묻지 않고, 재시도는 선언을 묻는다"),
        paragraph(
            "승인됐지만 아직 한 번도 보내지 않은 지시는 멱등성을 묻지 않고 나간다. 보낸 적이 없으니 "
            "중복될 것도 없다. 다만 이 말은 워커의 기록이 “보낸 적 없음”이라고 할 때 그것이 사실이어야 "
            "맞는다. 그 조건은 다음 절에서 따진다. 실패한 지시를 다시 보내는 일은 다르다. “실패”는 "
            "워커가 본 결과일 뿐, 상대가 지시를 받지 않았다는 뜻이 아니다. 응답이 돌아오는 길에 연결이 "
            "끊겼다면 상대 쪽에는 이미 지시가 만들어져 있을 수 있다."
        ),
        paragraph(
            "RFC 7231은 같은 요청을 여러 번 보낸 의도된 효과가 한 번 보낸 효과와 같을 때 그 메서드를 "
            "멱등이라 부르고, 그래서 응답을 읽기 전에 통신이 끊기면 요청을 자동으로 다시 보낼 수 "
            "있다고 설명한다. AWS의 글도 부작용이 있는 API는 멱등성을 제공하지 않는 한 재시도하기에 "
            "안전하지 않다고 본다. 워커에게 이 성질은 HTTP 메서드가 아니라 커넥터의 약속이다. 멱등성 "
            "키를 쓰든 상대 쪽의 자연 키를 쓰든 방법은 커넥터가 고르고, “두 번 보내도 지시는 "
            "하나”라고 선언한 커넥터만 실패한 지시를 다시 받는다. `again`의 재전송도, `after_fix`의 "
            f"{_DECISION_RECHECK} 확인도 이 규칙을 따른다."
        ),
        heading("“보냈다”는 보내기 전에 적는다"),
        paragraph(
            "워커가 지시를 먼저 보내고, 답이 온 뒤에야 기록을 바꾼다고 하자. 상대가 지시를 받은 직후, "
            "기록을 바꾸기 전에 프로세스가 죽으면 기록에는 여전히 `approved`가 남는다. 다시 뜬 워커는 "
            "그 기록을 믿고 멱등성을 묻지 않은 채 “첫” 전송을 또 한다. 선언이 없는 커넥터라면 상대 "
            "쪽에 지시가 두 개 생긴다. 결정 함수는 틀리지 않았다. 틀린 것은 함수에 들어간 기록이다."
        ),
        paragraph(
            "그래서 “보냈다”는 기록은 전송보다 먼저, 늦어도 전송과 함께 남아야 한다. “함께”는 전송이 "
            "곧 워커의 데이터베이스에 쓰는 일일 때만 가능하다. 상대가 가져갈 보낼 편지함(outbox)의 "
            "행을 상태 변경과 같은 트랜잭션에 쓰는 경우가 그렇다. 바깥 시스템을 부르는 호출은 워커의 "
            "트랜잭션에 묶을 수 없으니 순서로 지킨다. 아래 워커는 먼저 `sending`을 적고, 그다음 보내고, "
            "마지막에 결과를 적는다. 다시 뜬 워커가 결과 없는 `sending`을 보면 그 전송은 상대에 "
            "닿았는지 모르는 전송이므로 응답을 잃은 `again` 실패로 센다. 그러면 지시는 첫 전송이 아니라 "
            "재전송의 길로 들어가 멱등성 선언을 묻는 관문을 지난다."
        ),
        code_block(
            decision_source_of(DecisionRecord, DecisionStore, decision_send, decision_recover),
            language="python",
        ),
        paragraph(
            "픽스처 `decision_crashes`는 첫 전송의 각 단계 뒤에서 프로세스를 한 번 죽이고, 같은 "
            "순간에 워커를 다시 띄워 지시가 끝날 때까지 돌린다. 상대는 언제나 성공으로 답한다. 열은 "
            "프로세스가 죽은 단계(`-`는 죽지 않음), 멱등성 선언, 상대가 지시를 받은 횟수, 끝이다."
        ),
        verified_output(
            decision_crashes,
            expected={
                "order": ["record_sending", "dispatch", "record_result"],
                "runs": [
                    "-              idem=no  → received 1, done",
                    "record_sending idem=no  → received 0, hold not_declared_idempotent",
                    "dispatch       idem=no  → received 1, hold not_declared_idempotent",
                    "record_result  idem=no  → received 1, done",
                    "-              idem=yes → received 1, done",
                    "record_sending idem=yes → received 1, done",
                    "dispatch       idem=yes → received 2, done",
                    "record_result  idem=yes → received 1, done",
                ],
            },
        ),
        paragraph(
            "선언 없는 커넥터에서 상대가 받은 횟수는 어느 단계에서 죽어도 "
            f"{_DECISION_UNDECLARED_MAX}번을 넘지 않는다. 대가는 있다. `sending`을 적고 보내기 전에 "
            "죽으면 상대는 아무것도 받지 않았는데도 워커는 그것을 알 수 없어 멈추고, 사람이 상대 쪽을 "
            "확인한 뒤 보낸다. 선언한 커넥터는 전송 직후에 죽으면 지시를 "
            f"{_DECISION_DECLARED_MAX}번 받지만, 선언대로 그 둘은 지시 하나다. 같은 픽스처가 순서를 "
            "뒤집어, 보내고 나서 적는 워커를 전송 직후에 죽이면 선언 없는 커넥터가 지시를 "
            f"{len(_DECISION_NAIVE.received_at)}번 받는다. 검사 `firstAttemptOnlyWhenNothingReceived`는 "
            "모든 실행에서 `first_attempt` 결정이 상대가 아무것도 받지 않았을 때만 나왔는지를 센다. "
            "뒤집힌 순서에서는 그 결정이 상대가 이미 지시를 받은 뒤에 한 번 더 나온다."
        ),
        verified_output(
            decision_crashes,
            expected={
                "dispatchFirst": "dispatch       idem=no  → received 2, done",
                "checks": {
                    "firstAttemptOnlyWhenNothingReceived": True,
                    "undeclaredReceivedAtMostOnce": True,
                    "declaredAlwaysDelivered": True,
                    "dispatchFirstWouldDuplicate": True,
                },
            },
        ),
        heading("모르는 것은 재시도로 밀어붙이지 않는다"),
        paragraph(
            "어댑터가 전망을 밝히지 않았거나 어휘에 없는 값을 보냈다면 워커는 그 실패를 `again`으로 "
            "짐작하지 않는다. 어댑터가 `retry`라고 답해도 마찬가지다. 어휘는 닫혀 있고, 비슷해 보이는 "
            "낱말을 해석하는 순간 그 해석이 새 규칙이 된다. 선언하지 않은 커넥터도 같은 원칙을 따른다. "
            "“아마 괜찮겠지” 하고 보낸 재시도가 중복 지시를 만들면 되돌리기 어렵지만, 멈춘 지시는 "
            "사람이 확인하고 보내면 그만이다."
        ),
        paragraph(
            "멈출 때 워커는 이유를 남긴다. 이유는 운영자가 “이걸 고쳐라”와 “우리 쪽에서는 고칠 것이 "
            "없다”를 구별할 수 있을 만큼 구체적이어야 한다. 사유가 모두 “재시도 실패” 하나로 뭉쳐 "
            "있으면 운영자는 실패 목록을 하나씩 열어 로그를 읽는 수밖에 없다."
        ),
        heading("결정 함수"),
        paragraph(
            "아래가 이 글의 모델이 실제로 실행하는 코드다. 글에 보이는 코드는 모듈의 소스를 그대로 "
            "읽어 온 것이라 코드와 어긋날 수 없다. 상태는 `approved`(승인됨, 보낸 기록 없음)와 "
            "`failed` 두 가지다. 기록에 남은 `sending`은 `decision_recover`가 먼저 실패로 바꾸고, 결정 "
            "함수는 그 상태를 받으면 예외를 던진다. 시간도 두 가지다. `seconds_since_last`는 마지막 "
            "시도 뒤 흐른 초, `age_s`는 승인 뒤 흐른 초다. 상수는 "
            f"`DECISION_OUTLOOKS = {DECISION_OUTLOOKS!r}`, `DECISION_BACKOFF_S = {DECISION_BACKOFF_S!r}`, "
            f"`DECISION_RECHECK_S = {DECISION_RECHECK_S}`, `DECISION_MAX_AGE_S = {DECISION_MAX_AGE_S}`이다."
        ),
        code_block(decision_source_of(Decision, decision_of), language="python"),
        paragraph(
            "분기 순서가 곧 우선순위다. 상태를 먼저 보고, 그다음 승인의 나이를, 그다음 전망이 어휘 안에 "
            "있는지, `never`인지, 커넥터가 선언했는지를 차례로 본다. 이 관문들을 지나야 기다림이나 "
            "재전송이 나온다. `attempts_failed`를 읽는 분기는 `again`의 사다리뿐이고, `after_fix`는 그 "
            "값을 읽지 않는다. `after_fix`를 끝내는 것은 횟수가 아니라 승인의 나이다."
        ),
        heading("분기마다 한 줄: 결정표"),
        paragraph(
            "픽스처 `decision_table`은 아래 표의 각 행을 `decision_of`에 넣고 결과를 적는다. 열은 상태, "
            "전망, 실패 횟수 `n`, 멱등성 선언 `idem`, 마지막 시도 뒤 흐른 시간 `t`, 승인 뒤 흐른 시간 "
            "`age`, 결정, 사유 순이다. 표는 모든 사유를 한 번 이상 지나고, 픽스처는 `sys.settrace`로 "
            "`decision_of`의 실행 가능한 줄이 모두 실행됐는지도 센다. 표가 건드리지 않는 분기가 생기면 "
            "검사가 거짓이 된다."
        ),
        verified_output(
            decision_table,
            expected={
                "table": [
                    "approved -         n=0   idem=no  t=   0s age=0s    → send      first_attempt",
                    "approved -         n=0   idem=yes t=   0s age=21d   → hold      expired",
                    "failed   again     n=1   idem=yes t=  10s age=10s   → wait 20s  again_wait",
                    "failed   again     n=1   idem=yes t=  30s age=30s   → send      again_send",
                    "failed   again     n=2   idem=yes t= 120s age=2m30s → send      again_send",
                    "failed   again     n=3   idem=yes t= 300s age=7m30s → wait 300s again_wait",
                    "failed   again     n=4   idem=yes t=3600s age=1h    → hold      again_exhausted",
                    "failed   after_fix n=1   idem=yes t=   0s age=0s    → wait 600s after_fix_wait",
                    "failed   after_fix n=40  idem=yes t= 600s age=6h40m → send      after_fix_send",
                    "failed   after_fix n=144 idem=yes t= 600s age=24h   → hold      expired",
                    "failed   never     n=1   idem=yes t=   0s age=0s    → hold      never_new_instruction",
                    "failed   again     n=1   idem=no  t= 600s age=10m   → hold      not_declared_idempotent",
                    "failed   -         n=1   idem=yes t= 600s age=10m   → hold      outlook_unknown",
                    "failed   retry     n=1   idem=yes t= 600s age=10m   → hold      outlook_unknown",
                ],
            },
        ),
        paragraph(
            f"표 {len(DECISION_TABLE)}줄로 성질을 증명할 수는 없다. 그래서 픽스처는 더 넓은 격자(전망 "
            f"{len(DECISION_GRID_OUTLOOKS)}가지 × 실패 횟수 0~{max(DECISION_GRID_FAILURES)} × 선언 여부 × "
            f"경과 시간 {len(DECISION_GRID_SECONDS)}가지 × 승인 뒤 시간 {len(DECISION_GRID_AGES)}가지)를 "
            "돌려 성질을 함수의 행동에서 직접 계산한다. 사다리도 상수에서 읽지 않는다. 실패 횟수마다 "
            "경과 시간을 0초부터 1초씩 늘려 가며 처음 `send`가 나오는 시점을 찾는다."
        ),
        verified_output(
            decision_table,
            expected={
                "ladderSeconds": [30, 120, 600],
                "afterFixRecheckSeconds": [600],
                "gridSize": 4160,
                "checks": {
                    "afterFixNeverFolds": True,
                    "onlyAgainFolds": True,
                    "firstAttemptIgnoresIdempotency": True,
                    "retryNeedsDeclaredIdempotency": True,
                    "unknownNeverRetried": True,
                    "staleApprovalAlwaysExpires": True,
                    "afterFixRechecksEvery10Min": True,
                    "backoffIs30s2m10mThenStop": True,
                    "everyReasonExplained": True,
                    "everyBranchCovered": True,
                },
            },
        ),
        paragraph(
            "글 옆의 테스트는 이 모듈을 직접 망가뜨려 본다. `after_fix`를 횟수로 접거나, 선언하지 "
            "않은 커넥터의 지시를 다시 보내거나, 사다리를 바꾸거나, 모르는 전망을 `again`으로 "
            "취급하거나, 승인의 나이를 읽지 않거나(처음 실린 함수가 그렇다), “보냈다”를 전송 뒤에 "
            "적거나, 결과 없는 `sending`을 보낸 적 없는 것으로 읽으면 해당 검사가 거짓으로 바뀌고 "
            "픽스처가 실패한다. 이 글의 숫자가 코드와 어긋나면 사이트가 빌드되지 않는다."
        ),
        heading("운영자가 보는 것"),
        paragraph(
            "결정의 사유는 로그에만 남기지 않고 운영 화면에 그대로 보여 준다. 사유마다 붙는 설명은 "
            "누가 무엇을 해야 하는지를 말한다."
        ),
        data_table(
            "전망별로 워커가 하는 일과 운영자가 보는 사유",
            ["전망", "워커가 하는 일", "운영자가 보는 사유"],
            _DECISION_OPERATOR_ROWS,
        ),
        paragraph(
            "이렇게 나누면 멈춘 지시의 목록이 담당자별로 갈린다. `again_wait`는 지켜보기만 하면 되고, "
            "`after_fix_wait`는 설정 담당자에게, `never_new_instruction`은 지시를 낸 사람에게, "
            "`expired`는 승인한 사람에게, `outlook_unknown`은 어댑터를 만든 사람에게 간다. 재시도 "
            "정책의 목적은 실패를 숨기는 것이 아니라, 사람이 손댈 실패만 사람 앞에 남기는 데 있다."
        ),
    ],
    sources=[decision_v1.AWS_BACKOFF, decision_v1.SRE_CASCADING, decision_v1.RFC7231, DECISION_STRIPE_KEYS],
)


# ============================== spec ==============================
# Corrections of 2026-12-01: revision 2 of ``retry-spec-read-as-a-test`` (the ``spec_`` part).
#
# Revision 1 (``articles/retry_spec.py``) counted "297 of 550 configurations satisfy every
# clause as written" from schedules alone, while its own third contradiction says the failure
# clause breaks every configuration; and its check for that contradiction counted a list built
# with one scenario per configuration, true by construction. Here the spec is *run* as written
# (literal doubling, at most ``maxRetries`` retries, the outcome the operation had) for every
# configuration and every number of leading failures, and each run is judged clause by clause
# (``spec_contradictions``). The resolved handler is revision 1's model, imported unchanged and
# wrapped (``spec_resolved_handler``); the delay chart's data and crossing points are a fixture
# of their own (``spec_delay_chart``). This revision publishes the chart as a committed drawing
# (SPEC_CHART_ASSET); since revision 4 (``revised_2026_12_05_spec_chart``) the build draws it
# from the fixture's rows, and the code that drew the committed file by hand is gone.
#
# Every name defined here starts with ``spec_``/``SPEC_``: the corrections batch is assembled
# from several parts.

SPEC_DELAY_CLAUSES = (
    "doublingFromInitialDelay",
    "delayWithinMaxDelay",
    "totalDelayWithinBudget",
    "delayPositiveAfterFirstAttempt",
)
SPEC_FAILURE_CLAUSE = "lastAttemptMeansFailed"


def spec_run_as_written(
    config: spec_v1.RetryConfig, operation: Callable[[int], bool]
) -> tuple[int, bool, list[int]]:
    """The handler the spec describes, read literally: (attemptCount, succeeded, delays)."""
    schedule = spec_v1.literal_delays(config)
    delays: list[int] = []
    attempt = 1
    while True:
        succeeded = operation(attempt)
        if succeeded or attempt == config.max_retries + 1:
            return attempt, succeeded, delays
        delays.append(schedule[attempt - 1])  # the delay before attempt + 1
        attempt += 1


def spec_clauses_kept(
    config: spec_v1.RetryConfig, attempt_count: int, succeeded: bool, delays: list[int]
) -> dict[str, bool]:
    """Each clause of the spec as an assertion about one run."""
    return {
        "doublingFromInitialDelay": delays[:1] in ([], [config.initial_delay_ms])
        and all(b == 2 * a for a, b in pairwise(delays)),
        "delayWithinMaxDelay": all(d <= config.max_delay_ms for d in delays),
        "totalDelayWithinBudget": sum(delays) <= spec_v1.BUDGET_MS,
        "delayPositiveAfterFirstAttempt": all(d > 0 for d in delays),
        "lastAttemptMeansFailed": attempt_count != config.max_retries + 1 or not succeeded,
    }


def spec_one_run(config: spec_v1.RetryConfig, failures: int) -> dict[str, object]:
    """One run on an operation that fails its first ``failures`` attempts, and its verdicts."""
    attempt_count, succeeded, delays = spec_run_as_written(config, spec_v1.failing_times(failures))
    last = config.max_retries + 1
    return {
        "clauses": spec_clauses_kept(config, attempt_count, succeeded, delays),
        "succeeded": succeeded,
        "onLastAttempt": attempt_count == last,
        # Not a clause: the run is checked against the operation it ran, so a runner that
        # stops early or misreports an outcome cannot quietly produce the counts below.
        "followsOperation": attempt_count == min(failures + 1, last)
        and succeeded == (failures < attempt_count)
        and len(delays) == attempt_count - 1,
    }


def spec_config_verdict(config: spec_v1.RetryConfig) -> dict[str, object]:
    """Every run of one configuration, for 0 … maxRetries + 1 leading failures, summed up."""
    runs = [spec_one_run(config, failures) for failures in range(config.max_retries + 2)]
    return {
        "runs": len(runs),
        "broken": {name for run in runs for name, kept in run["clauses"].items() if not kept},
        "runsNotFollowingOperation": sum(not run["followsOperation"] for run in runs),
        "finalSuccess": any(run["succeeded"] and run["onLastAttempt"] for run in runs),
        "successAllowed": any(run["succeeded"] and run["clauses"][SPEC_FAILURE_CLAUSE] for run in runs),
    }


def spec_report() -> dict[str, object]:
    """What running the spec as written over the grid shows."""
    configs = spec_v1.grid()
    verdicts = [(config, spec_config_verdict(config)) for config in configs]

    def where(test: Callable[[spec_v1.RetryConfig, dict[str, object]], bool]) -> list[spec_v1.RetryConfig]:
        return [config for config, verdict in verdicts if test(config, verdict)]

    over_cap = where(lambda c, v: "delayWithinMaxDelay" in v["broken"])
    closed_form = [
        c
        for c in configs
        if c.max_retries >= 1 and c.initial_delay_ms * 2 ** (c.max_retries - 1) > c.max_delay_ms
    ]
    over_budget = where(lambda c, v: "totalDelayWithinBudget" in v["broken"])
    delay_clauses_hold = where(lambda c, v: not set(SPEC_DELAY_CLAUSES) & v["broken"])
    every_clause_holds = where(lambda c, v: not v["broken"])
    final_success = where(lambda c, v: v["finalSuccess"])
    fail_clause_broken = where(lambda c, v: SPEC_FAILURE_CLAUSE in v["broken"])
    no_success_allowed = where(lambda c, v: not v["successAllowed"])
    zero_retries = [c for c in configs if c.max_retries == 0]
    capped_over = [c for c in configs if spec_v1.capped_total(c) > spec_v1.BUDGET_MS]
    ten = [c for c in configs if c.max_retries == spec_v1.RETRY_LIMIT]
    example = spec_v1.describe(spec_v1.COUNTEREXAMPLE)
    revision_1 = spec_v1.spec_report()["satisfyEveryClause"]  # what the first revision printed
    return {
        "configs": len(configs),
        "runs": sum(verdict["runs"] for _, verdict in verdicts),
        "doublingExceedsCap": len(over_cap),
        "literalOverBudget": len(over_budget),
        "cappedOverBudget": len(capped_over),
        "satisfyDelayClauses": len(delay_clauses_hold),
        "delayClausesCollide": len(configs) - len(delay_clauses_hold),
        "configsWithFinalSuccess": len(final_success),
        "failClauseBroken": len(fail_clause_broken),
        "satisfyEveryClause": len(every_clause_holds),
        "revision1SatisfyEveryClause": revision_1,
        "zeroRetryConfigs": len(zero_retries),
        "noSuccessAllowed": len(no_success_allowed),
        "tenRetryConfigs": len(ten),
        "tenRetryCappedOverBudget": len([c for c in ten if c in capped_over]),
        "counterexample": example,
        "capIsNotEnough": spec_v1.describe(spec_v1.CAP_NOT_ENOUGH),
        "checks": {
            "everyRunFollowsItsOperation": all(v["runsNotFollowingOperation"] == 0 for _, v in verdicts),
            "conflictCountMatchesClosedForm": over_cap == closed_form,
            "counterexampleDoublingExceedsCap": example["firstRetryOverCap"] is not None,
            "counterexampleLiteralOverBudget": spec_v1.COUNTEREXAMPLE in over_budget,
            "counterexampleCappedWithinBudget": spec_v1.COUNTEREXAMPLE not in capped_over,
            "capAloneCanExceedBudget": spec_v1.CAP_NOT_ENOUGH in capped_over,
            "tenRetriesCanExceedBudget": any(c in capped_over for c in ten),
            "delayClausesHoldForSomeConfigs": 0 < len(delay_clauses_hold) < len(configs),
            "finalSuccessInEveryConfig": final_success == configs,
            "failClauseBrokenInEveryConfig": fail_clause_broken == configs,
            "noConfigSatisfiesEveryClause": every_clause_holds == [],
            "revision1CountedDelayClausesOnly": revision_1 == len(delay_clauses_hold),
            "noSuccessAllowedExactlyWithoutRetries": no_success_allowed == zero_retries != [],
        },
    }


@fixture
def spec_contradictions() -> dict[str, object]:
    return spec_report()


# --- The resolved handler: revision 1's model, one check added ----------------


def spec_handler_report() -> dict[str, object]:
    """Revision 1's invariant runs, plus where the handler reaches attempt maxRetries + 1."""
    report = spec_v1.handler_report()
    uncut = len(spec_v1.grid()) - report["configsCutByBudget"]
    report["configsNotCutByBudget"] = uncut
    example = spec_v1.CAP_NOT_ENOUGH
    _, always_failing = spec_v1.run_once(example, example.max_retries + 1, jitter=False)
    report["attemptsInExample"] = always_failing.events[-1]["attempt"]
    checks = report["checks"]
    # Computed from the runs: a plain and a jittered run reach the last attempt and succeed in
    # each configuration whose plan keeps every retry, and in no other.
    checks["finalSuccessTwicePerUncutConfig"] = report["successOnAttemptMaxRetriesPlusOne"] == 2 * uncut
    checks["exampleStopsAtItsPlan"] = report["attemptsInExample"] == len(report["example"]["planMs"]) + 1
    return report


@fixture
def spec_resolved_handler() -> dict[str, object]:
    return spec_handler_report()


# --- The chart's data, from the model --------------------------------------------

SPEC_CHART_ASSET = "assets/retry_spec/delay-schedules-2026-12.svg"
"""The drawing revisions 2 and 3 publish; revision 4 (``revised_2026_12_05_spec_chart``) has the
build draw it from the fixture instead."""
SPEC_CHART_TOP_MS = 10_000
"""Where that drawing's delay axis ends: a bar over it is cut."""


def spec_first_over(values: list[int], limit: int) -> int | None:
    """The first retry (1-based) whose value is over ``limit``."""
    return next((k for k, value in enumerate(values, start=1) if value > limit), None)


def spec_chart_data() -> dict[str, object]:
    """The three schedules of CAP_NOT_ENOUGH, per retry and cumulative, and where each crosses a limit."""
    config = spec_v1.CAP_NOT_ENOUGH
    literal = spec_v1.literal_delays(config)
    capped = [spec_v1.nominal_delay(config, k) for k in range(1, config.max_retries + 1)]
    resolved = spec_v1.plan_delays(config)
    kept = len(resolved)
    next_end = sum(resolved) + capped[kept] if kept < len(capped) else None
    return {
        "config": config.as_json(),
        "literalMs": literal,
        "cappedMs": capped,
        "resolvedMs": resolved,
        "literalOverCapAt": spec_first_over(literal, config.max_delay_ms),
        "literalOverBudgetAt": spec_first_over(list(accumulate(literal)), spec_v1.BUDGET_MS),
        "cappedOverBudgetAt": spec_first_over(list(accumulate(capped)), spec_v1.BUDGET_MS),
        "resolvedRetries": kept,
        "resolvedTotalMs": sum(resolved),
        "cappedAtMaxDelayFrom": next(
            (k for k, d in enumerate(capped, start=1) if d == config.max_delay_ms), None
        ),
        "cappedTotalMs": sum(capped),
        "nextRetryWouldEndMs": next_end,
        "checks": {
            "cappedNeverOverMaxDelay": all(d <= config.max_delay_ms for d in capped),
            "resolvedIsCappedPrefix": resolved == capped[:kept],
            "resolvedWithinBudget": sum(resolved) <= spec_v1.BUDGET_MS,
            "resolvedStopsOnlyWhenNextOverflows": next_end is None or next_end > spec_v1.BUDGET_MS,
        },
    }


@fixture
def spec_delay_chart() -> dict[str, object]:
    return spec_chart_data()


def spec_s(ms: int) -> str:
    """Milliseconds as seconds for a label: 5000 → '5', 1023000 → '1,023'."""
    return f"{ms / 1000:,g}"


def spec_chart_text(data: dict[str, object]) -> dict[str, str]:
    """Title, description (also the figure's alt text) and caption, from the chart data."""
    c = data["config"]
    setting = (
        f"initialDelay {spec_s(c['initialDelayMs'])} s, maxDelay {spec_s(c['maxDelayMs'])} s, "
        f"maxRetries {c['maxRetries']}"
    )
    kept, retries = data["resolvedRetries"], len(data["cappedMs"])
    off_chart = spec_first_over(data["literalMs"], SPEC_CHART_TOP_MS)
    desc = (
        f"Bar charts for {setting}, three bars per retry: resolved (solid), capped (outlined) and literal "
        f"doubling (hatched). Top: the delay before each retry. Literal doubling passes the maxDelay line at "
        f"retry {data['literalOverCapAt']} and is cut off at the top of the chart from retry "
        f"{off_chart}; the capped bars reach the maxDelay line from retry {data['cappedAtMaxDelayFrom']} "
        f"to retry {retries} and never pass it; the resolved bars match the capped ones and stop after "
        f"retry {kept}. Bottom: the cumulative delay. Literal doubling passes the budget line at retry "
        f"{data['literalOverBudgetAt']}, the capped schedule at retry {data['cappedOverBudgetAt']} and "
        f"ends at {spec_s(data['cappedTotalMs'])} s; the resolved schedule "
        f"ends at {spec_s(data['resolvedTotalMs'])} s, under the line."
    )
    caption = (
        f"The same configuration three ways: literal doubling breaks the cap at retry "
        f"{data['literalOverCapAt']} and the budget at retry {data['literalOverBudgetAt']}; capping alone "
        f"breaks the budget at retry {data['cappedOverBudgetAt']}; the budget-clamped plan stops after "
        f"retry {kept} at {spec_s(data['resolvedTotalMs'])} s."
    )
    title = f"Delay schedules for {setting}: literal doubling, capped, budget-clamped"
    return {"setting": setting, "title": title, "desc": desc, "caption": caption}


# --- Numbers the prose quotes, computed from the same code the fixtures run ------

SPEC_REPORT = spec_report()
SPEC_HANDLER = spec_handler_report()
SPEC_CHART = spec_chart_data()
SPEC_CHART_TEXT = spec_chart_text(SPEC_CHART)
SPEC_LITERAL = SPEC_REPORT["counterexample"]
SPEC_CAPPED = SPEC_REPORT["capIsNotEnough"]
SPEC_EXAMPLE = SPEC_HANDLER["example"]

SPEC_CROSSINGS = {
    "literalOverCapAt": 4,
    "literalOverBudgetAt": 5,
    "cappedOverBudgetAt": 8,
    "resolvedRetries": 7,
    "resolvedTotalMs": 27000,
    "cappedTotalMs": 42000,
    "nextRetryWouldEndMs": 32000,
}
"""Where the delay chart's schedules cross a limit, as the article prints them."""

SPEC_CHANGES = (
    f"Revision 1 said that {SPEC_REPORT['revision1SatisfyEveryClause']} of the {SPEC_REPORT['configs']} "
    "configurations satisfy every clause as written, although its own third contradiction shows that the "
    f"failure clause breaks every one of them: {SPEC_REPORT['revision1SatisfyEveryClause']} counts the delay "
    "clauses alone, and with the failure clause none is left. The counts now come from runs of the spec as "
    "written, the failure-clause check can fail, and the delay chart is redrawn so that the capped schedule "
    "no longer disappears under the `maxDelay` line."
)


def spec_source_of(*objects: object) -> str:
    """The source of the model's functions, as the article shows them."""
    return source_of(*objects)


def spec_ms(value: int) -> str:
    return f"{value:,}"


def spec_duration(ms: int) -> str:
    """A grid value as a reader would say it: 10 → '10 ms', 500 → '500 ms', 5000 → '5 s'."""
    return f"{ms:,} ms" if ms < 1000 else f"{spec_s(ms)} s"


def spec_schedule_rows(config: spec_v1.RetryConfig) -> list[list[str]]:
    """The table's rows: literal, capped and resolved delay per retry, and the resolved total."""
    literal, plan = spec_v1.literal_delays(config), spec_v1.plan_delays(config)
    rows, cumulative = [], 0
    for retry in range(1, config.max_retries + 1):
        capped = spec_v1.nominal_delay(config, retry)
        if retry <= len(plan):
            cumulative += plan[retry - 1]
            taken, total = spec_ms(plan[retry - 1]), spec_ms(cumulative)
        else:
            taken, total = "dropped", "—"
        rows.append([str(retry), spec_ms(literal[retry - 1]), spec_ms(capped), taken, total])
    return rows


def spec_list(values: list[int]) -> str:
    """'100, 200 and 400 ms'."""
    shown = [spec_ms(v) for v in values]
    return f"{', '.join(shown[:-1])} and {shown[-1]} ms"


SPEC_OVER_CAP_AT = SPEC_LITERAL["firstRetryOverCap"]
SPEC_UNDER_CAP = SPEC_LITERAL["literalDelaysMs"][: SPEC_OVER_CAP_AT - 1]
SPEC_FIRST_OVER_CAP_MS = SPEC_LITERAL["literalDelaysMs"][SPEC_OVER_CAP_AT - 1]
SPEC_CX, SPEC_CAP_CONFIG = spec_v1.COUNTEREXAMPLE, spec_v1.CAP_NOT_ENOUGH
SPEC_LAST_ATTEMPT = SPEC_CAP_CONFIG.max_retries + 1

spec_revision = revision(
    slug="retry-spec-read-as-a-test",
    title="Reading a retry spec as a test",
    categories=["Reliability", "Testing"],
    excerpt=(
        "A retry-handler spec is a list of assertions. Run them over every configuration in a small "
        "grid before writing the handler, and three of them collide: doubling against the cap, ten "
        "retries against a 30-second total, and a failure clause that forbids success on the last "
        "attempt. Then choose an order of precedence and check the handler against it."
    ),
    cover="/assets/retry_spec/cover.svg",
    published="2022-09-20",
    revised="2026-12-01",
    changes=SPEC_CHANGES,
    lang="en",
    body=[
        paragraph(
            "Here is a spec for a retry handler, as it might arrive in a ticket. Every line reads "
            "like an assertion, so before writing the handler, run the spec itself over a grid of "
            "inputs. A spec that fails its own tests cannot be rescued by careful code, only by a "
            "decision."
        ),
        unordered_list(
            [
                "`0 ≤ maxRetries ≤ 10`, `initialDelay > 0`, `maxDelay ≥ initialDelay`.",
                "Each delay is double the previous one; the first is `initialDelay`.",
                "Each delay is `≤ maxDelay`.",
                "`totalDelay == sum(delays) ≤ 30 s`.",
                "If `attempt > 1`, the delay before it is positive.",
                "If `attemptCount == maxRetries + 1`, the operation failed.",
                "The handler emits `RetryAttempted`, `OperationSucceeded` and `OperationFailed`.",
            ]
        ),
        paragraph(
            "Attempt 1 is the original call; attempt *k* + 1 is retry *k* and waits "
            "delay *k*. So `maxRetries = 10` allows eleven attempts and ten delays. gRPC's retry "
            "design draws the same line from the other side: its `maxAttempts` counts the original "
            "request."
        ),
        heading("Enumerate the configurations"),
        paragraph(
            "The configuration space is small enough to enumerate. The grid takes `maxRetries` from "
            f"0 to {spec_v1.RETRY_LIMIT}, `initialDelay` from {spec_duration(spec_v1.INITIAL_DELAYS_MS[0])} "
            f"to {spec_duration(spec_v1.INITIAL_DELAYS_MS[-1])} and `maxDelay` from "
            f"{spec_duration(spec_v1.MAX_DELAYS_MS[0])} to {spec_duration(spec_v1.MAX_DELAYS_MS[-1])}, and "
            "keeps only combinations that satisfy the first clause: "
            f"{SPEC_REPORT['configs']} configurations. The doubling clause leaves no freedom: once the "
            "first delay is fixed, so is every later one. "
            "The fixture runs the spec as written on each configuration (literal doubling, at most "
            "`maxRetries` retries, and the outcome the operation had), once for every number of leading "
            f"failures from 0 to `maxRetries + 1`: {spec_ms(SPEC_REPORT['runs'])} runs. Each run is then "
            "tested against every clause (`spec_v1` is the first revision's model, unchanged):"
        ),
        code_block(
            spec_source_of(spec_v1.literal_delays, spec_run_as_written, spec_clauses_kept), language="python"
        ),
        paragraph(
            "Each run is also checked against the operation it ran (`everyRunFollowsItsOperation`): it "
            "stops at the first success or the last allowed attempt and reports what the operation returned, "
            "so no count below can come from scenarios built to agree with it."
        ),
        heading("Contradiction 1: doubling meets the cap"),
        paragraph(
            f"Take `initialDelay = {spec_duration(SPEC_CX.initial_delay_ms)}`, "
            f"`maxDelay = {spec_duration(SPEC_CX.max_delay_ms)}`, "
            f"`maxRetries = {SPEC_CX.max_retries}`. Doubling gives {spec_list(SPEC_UNDER_CAP)}, "
            f"and then retry {SPEC_OVER_CAP_AT} must wait {spec_ms(SPEC_FIRST_OVER_CAP_MS)} ms, above the "
            "cap. No schedule satisfies both: doubling has already chosen every value, and the cap forbids "
            "one. This happens whenever `initialDelay · 2^(maxRetries − 1) > maxDelay`; the fixture counts "
            "the configurations in which some run breaks the cap and checks that count against the closed "
            "form."
        ),
        heading("Contradiction 2: ten retries against 30 seconds"),
        paragraph(
            "Doubled literally, the same configuration waits "
            f"{spec_s(SPEC_LITERAL['literalTotalMs'])} s in total. Obeying the cap instead brings it "
            f"to {spec_s(SPEC_LITERAL['cappedTotalMs'])} s, under budget, but the cap does not "
            "rescue every configuration. With "
            f"`initialDelay = {spec_duration(SPEC_CAP_CONFIG.initial_delay_ms)}`, "
            f"`maxDelay = {spec_duration(SPEC_CAP_CONFIG.max_delay_ms)}` and ten retries, the capped delays "
            f"add up to {spec_s(SPEC_CAPPED['cappedTotalMs'])} s. Even capped, "
            f"{SPEC_REPORT['tenRetryCappedOverBudget']} of the grid's "
            f"{SPEC_REPORT['tenRetryConfigs']} ten-retry configurations exceed 30 s. The budget is a "
            "third, independent constraint, and it has to be "
            "ranked against the other two."
        ),
        verified_output(
            spec_contradictions,
            expected={
                "configs": 550,
                "runs": 3850,
                "doublingExceedsCap": 244,
                "literalOverBudget": 175,
                "cappedOverBudget": 104,
                "tenRetryConfigs": 50,
                "tenRetryCappedOverBudget": 26,
                "counterexample": {
                    "config": {"maxRetries": 10, "initialDelayMs": 100, "maxDelayMs": 5000},
                    "literalDelaysMs": [100, 200, 400, 800, 1600, 3200, 6400, 12800, 25600, 51200],
                    "firstRetryOverCap": 7,
                    "literalTotalMs": 102300,
                    "cappedTotalMs": 26300,
                },
                "capIsNotEnough": {
                    "config": {"maxRetries": 10, "initialDelayMs": 1000, "maxDelayMs": 5000},
                    "cappedTotalMs": 42000,
                },
            },
        ),
        heading("Contradiction 3: the failure clause"),
        paragraph(
            "“If `attemptCount == maxRetries + 1` the operation failed” means to say that the handler "
            "gives up after its last retry. As an assertion it says that the final attempt never "
            f"succeeds. In every one of the {SPEC_REPORT['configsWithFinalSuccess']} "
            "configurations, some run fails `maxRetries` times and then succeeds; the handler reports "
            "`OperationSucceeded` with `attemptCount == maxRetries + 1`, and the clause calls that a "
            "failure. With `maxRetries = 0` "
            f"({SPEC_REPORT['zeroRetryConfigs']} of the configurations) the first attempt is also the "
            "last, so the clause leaves no room for success at all: an operation that "
            "succeeds on the first call has “failed”. A handler can keep this clause only by reporting a "
            "success as a failure. What matters is how the last attempt ended, not its number."
        ),
        paragraph(
            f"So the spec as written holds in none of the {SPEC_REPORT['configs']} configurations. "
            f"The delay clauses alone hold together in {SPEC_REPORT['satisfyDelayClauses']}; "
            f"the failure clause is broken in all {SPEC_REPORT['failClauseBroken']}, "
            f"and those {SPEC_REPORT['satisfyDelayClauses']} are no exception."
        ),
        verified_output(
            spec_contradictions,
            expected={
                "satisfyDelayClauses": 297,
                "delayClausesCollide": 253,
                "configsWithFinalSuccess": 550,
                "failClauseBroken": 550,
                "satisfyEveryClause": 0,
                "revision1SatisfyEveryClause": 297,
                "zeroRetryConfigs": 50,
                "noSuccessAllowed": 50,
                "checks": {
                    "everyRunFollowsItsOperation": True,
                    "conflictCountMatchesClosedForm": True,
                    "counterexampleDoublingExceedsCap": True,
                    "counterexampleLiteralOverBudget": True,
                    "counterexampleCappedWithinBudget": True,
                    "capAloneCanExceedBudget": True,
                    "tenRetriesCanExceedBudget": True,
                    "delayClausesHoldForSomeConfigs": True,
                    "finalSuccessInEveryConfig": True,
                    "failClauseBrokenInEveryConfig": True,
                    "noConfigSatisfiesEveryClause": True,
                    "revision1CountedDelayClausesOnly": True,
                    "noSuccessAllowedExactlyWithoutRetries": True,
                },
            },
        ),
        heading("A resolution is an order of precedence"),
        paragraph(
            "Contradictions are settled by deciding which clause wins. The handler below uses this "
            "order, strongest first:"
        ),
        ordered_list(
            [
                "**The total budget**, the promise the caller plans around. A retry whose whole delay "
                "does not fit in what is left is dropped, with every later one; `maxRetries` becomes "
                "an upper bound.",
                "**The cap**: every delay is `≤ maxDelay`.",
                "**Doubling below the cap**: delay *k* is `min(initialDelay · 2^(k−1), maxDelay)`, "
                "the capped exponential backoff of the AWS articles and gRPC.",
                "**Positive delays**, which follow from the rules above and `initialDelay > 0`.",
                "**Failure** only when the last allowed attempt fails; allowed attempts = 1 + planned "
                "retries ≤ `maxRetries + 1`.",
            ]
        ),
        paragraph(
            "Shortening the last delay to land exactly on 30 s would add a retry after a short wait "
            "just where backoff should be longest, with a delay that is neither double nor the cap. "
            "Jitter is optional: with a seeded `random.Random`, each delay is drawn between 1 ms and "
            "its planned ceiling. That is AWS's full jitter with the lower bound moved from 0 (where "
            "gRPC starts too) to 1 ms, for the positive-delay clause. The budget is checked against "
            "the ceilings, so jitter can only shorten the total."
        ),
        heading("The handler"),
        paragraph(
            "Time is simulated: the clock moves only when the handler sleeps, and the operation is "
            "a function of the attempt number. This is the code the fixtures run:"
        ),
        code_block(
            spec_source_of(
                spec_v1.nominal_delay,
                spec_v1.fits_budget,
                spec_v1.plan_delays,
                spec_v1.delay_for_attempt,
                spec_v1.RetryHandler,
            ),
            language="python",
        ),
        paragraph(
            f"Where the cap alone was not enough, the plan keeps {SPEC_CHART['resolvedRetries']} of the "
            f"{spec_v1.CAP_NOT_ENOUGH.max_retries} retries, {spec_s(SPEC_CHART['resolvedTotalMs'])} s in "
            f"total; the next would end at {spec_s(SPEC_CHART['nextRetryWouldEndMs'])} s."
        ),
        data_table(
            "Delay before each retry (ms): "
            f"initialDelay = {spec_duration(SPEC_CAP_CONFIG.initial_delay_ms)}, "
            f"maxDelay = {spec_duration(SPEC_CAP_CONFIG.max_delay_ms)}, "
            f"maxRetries = {SPEC_CAP_CONFIG.max_retries}",
            ["Retry", "Literal doubling", "Capped", "Resolved", "Resolved total"],
            spec_schedule_rows(spec_v1.CAP_NOT_ENOUGH),
        ),
        figure(
            "/" + SPEC_CHART_ASSET,
            alt=SPEC_CHART_TEXT["desc"],
            caption=SPEC_CHART_TEXT["caption"],
        ),
        paragraph(
            "The chart draws the three schedules side by side, retry by retry, from the same functions; "
            "where it says a line is crossed, the fixture computed it:"
        ),
        verified_output(spec_delay_chart, expected=SPEC_CROSSINGS),
        heading("The spec, restated as invariants"),
        paragraph(
            "The second fixture runs the handler on every configuration, for every number of "
            "leading failures from 0 to `maxRetries + 1`, once without jitter and once with a seeded "
            "generator. Each run is checked against these invariants:"
        ),
        unordered_list(
            [
                "the configuration satisfies the first clause;",
                "events are *k* × `RetryAttempted` (attempts 2 … *k* + 1), then one "
                "`OperationSucceeded` or `OperationFailed` for attempt *k* + 1, with *k* ≤ `maxRetries`;",
                "every delay is positive and `≤ maxDelay`;",
                "without jitter, delays start at `initialDelay` and go `min(2 × previous, maxDelay)`; "
                "with jitter, each lies within its ceiling and a seed always gives the same run;",
                "the simulated clock equals the sum of the delays, and that sum is `≤ 30 s`;",
                "the budget drops a retry only when the next capped delay would overflow it;",
                "the first successful allowed attempt is reported as a success; `OperationFailed` "
                "comes only after the last allowed attempt failed, and always then.",
            ]
        ),
        verified_output(
            spec_resolved_handler,
            expected={
                "runs": 7700,
                "outcomes": {"OperationSucceeded": 5960, "OperationFailed": 1740},
                "configsCutByBudget": 104,
                "configsNotCutByBudget": 446,
                "successOnAttemptMaxRetriesPlusOne": 892,
                "checks": {
                    **dict.fromkeys(spec_v1.INVARIANTS, True),
                    "finalSuccessTwicePerUncutConfig": True,
                    "exampleStopsAtItsPlan": True,
                },
            },
        ),
        paragraph(
            "`successOnAttemptMaxRetriesPlusOne` counts runs where the handler rightly breaks the "
            "literal failure clause: one plain and one jittered run in each of the "
            f"{SPEC_HANDLER['configsNotCutByBudget']} configurations the budget does not cut, which the "
            "fixture checks. Below, an operation that never succeeds: `OperationFailed` on attempt "
            f"{SPEC_HANDLER['attemptsInExample']}, not {SPEC_LAST_ATTEMPT}, because the budget ran out first."
        ),
        verified_output(
            spec_resolved_handler,
            expected={
                "attemptsInExample": 8,
                "example": {
                    "plannedTotalMs": 27000,
                    "alwaysFailing": [
                        "RetryAttempted #2 after 1000 ms",
                        "RetryAttempted #3 after 2000 ms",
                        "RetryAttempted #4 after 4000 ms",
                        "RetryAttempted #5 after 5000 ms",
                        "RetryAttempted #6 after 5000 ms",
                        "RetryAttempted #7 after 5000 ms",
                        "RetryAttempted #8 after 5000 ms",
                        "OperationFailed #8",
                    ],
                    "jitteredTotalMs": 9794,
                },
            },
        ),
        heading("Do the checks bite?"),
        paragraph(
            "A check that cannot fail proves nothing, so the tests beside this article monkeypatch "
            "the model and rerun the fixtures:"
        ),
        unordered_list(
            [
                "no cap in `nominal_delay`: `delayWithinMaxDelay` and `delaysDoubleUntilCap` fail, "
                "and the capped over-budget count rises to the literal one;",
                "a `fits_budget` that always agrees: `totalDelayWithinBudget` fails;",
                "`attempts_allowed` one short: the handler gives up an attempt early, and both "
                "outcome checks fail, with `finalSuccessTwicePerUncutConfig`;",
                "a zero delay before attempt 2: `delayPositiveAfterFirstAttempt` fails;",
                "a spec runner that stops one attempt early, as if `maxRetries` counted attempts: "
                "`everyRunFollowsItsOperation`, `finalSuccessInEveryConfig` and "
                "`failClauseBrokenInEveryConfig` fail. The first revision of this article counted a list "
                "built with one scenario per configuration, and its check stayed true when the handler made "
                "the same mistake;",
                "a runner that obeys the failure clause, reporting a last-attempt success as a failure: "
                "`everyRunFollowsItsOperation` and `noConfigSatisfiesEveryClause` fail.",
            ]
        ),
        heading("Send the answers back to the spec"),
        paragraph(
            f"Read as written, the spec holds in none of the {SPEC_REPORT['configs']} configurations. "
            f"Its delay clauses collide in {SPEC_REPORT['delayClausesCollide']} of them, and there the "
            "spec's owner can rank the clauses, as above, or reject those configurations at load time. The "
            "failure clause has no "
            "such way out, since it fails in every configuration: it has to be reworded, for instance as "
            "“`OperationFailed` if and only if the last allowed attempt failed”. Leaving either choice to "
            "whoever writes the loop is the only wrong answer. The question returns with the next input: "
            "an HTTP `Retry-After` may ask for more than `maxDelay` or than the budget has left (gRPC's "
            "pushback, for one, never adds attempts beyond `maxAttempts`). Decide before the first 503, "
            "and write the decision down as a check."
        ),
    ],
    sources=[spec_v1.AWS_BUILDERS, spec_v1.AWS_JITTER, spec_v1.GRPC_A6, spec_v1.RFC9110_RETRY_AFTER],
)


revisions = [client_revision, server_revision, diagnosis_revision, decision_revision, spec_revision]
