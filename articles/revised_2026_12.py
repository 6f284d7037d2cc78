"""Исправленные редакции статей о повторе без второго эффекта (1 декабря 2026 года).

Клиент (`client_`): модель первой редакции узнавала повторное нажатие по равенству
данных и не закрывала намерение. Здесь намерение открывает событие интерфейса
(идентификатор действия человека), а закрывает итоговый ответ; что клиент делает с
каждым наблюдением из таблицы статьи, тоже решает модель, и фикстуры проверяют это
прогонами. Сети и часов нет: время — целые миллисекунды от нуля.
"""

from __future__ import annotations

import inspect
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime
from itertools import accumulate
from typing import Any

from retry_2020_06 import (
    ATTEMPT_TIMEOUT_MS,
    BUDGET_MS,
    MAX_ATTEMPTS,
    PAUSE_MS,
    RESERVE_MS,
    STRIPE_ERRORS,
    STRIPE_IDEMPOTENCY,
    Client,
    KeySource,
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

# === Клиент: одно намерение — один ключ =====================================

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
    return "\n\n".join(textwrap.dedent(inspect.getsource(obj)).strip() for obj in objects)


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

revisions = [client_revision]
