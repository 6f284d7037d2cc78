"""The corrections of 4 December 2026 to the diagnosis article: revision 3 of
``retry-diagnosis-lost-response``.

Issue 37 found four misleading places in revision 2 (``revised_2026_12``, the ``diagnosis_``
part). Its check ``fourDifferentServerStates`` counted four states only because the compared
snapshot held ``ownerWorking``, a flag inside the model, while the prose said that at the
timeout lanes 2 and 4 look the same on the server. Its "real model of part two" ran only the
``RETURNING`` form, which SQLite did not have in June 2020. Its client resent the intent a
minute after the budget as if part one said so, though part one's client sends nothing for an
intent whose budget is spent. And it listed the IETF draft without citing it or saying that the
draft came later. Here the snapshot at the timeout holds only what an operator can query (the
record row and the payments) and the owner's life is reported apart; every lane runs in both SQL
forms and the forms must agree; part one's client model is run to back what the text says about
it; and the draft is cited where the codes are discussed, with its dates.

The lane model, the server model and the milestones are revision 2's, imported unchanged; this
module owns the snapshot, the runs in both forms, the fixture and the revision. Its names start
with ``diagnosis3_``/``DIAGNOSIS3_`` (the fixture keeps the article's name).
"""

from __future__ import annotations

import json
import os
import sqlite3
import tempfile
from dataclasses import dataclass

from retry_2020_06 import (
    ATTEMPT_TIMEOUT_MS,
    BUDGET_MS,
    DOWNLINK_MS,
    IDEMPOTENCY_SCHEMA_SQL,
    PAUSE_MS,
    PAYMENT_SCHEMA_SQL,
    STRIPE_REQUEST_IDS,
    UPLINK_MS,
    WORK_MS,
    Reply,
    connect,
)
from revised_2026_12 import (
    CLIENT_ORDER,
    DIAGNOSIS_LANES,
    DIAGNOSIS_RECORD_SQL,
    DIAGNOSIS_RESEND_MS,
    DIAGNOSIS_SLOW_WORK_MS,
    SERVER_RETURNING_SINCE,
    SERVER_STRIPE_IDEMPOTENCY,
    ClientClick,
    ClientSeen,
    ClientServer,
    DiagnosisLane,
    DiagnosisRun,
    ServerChangesClaims,
    ServerClaims,
    ServerIdempotency,
    ServerReturningClaims,
    client_new,
    diagnosis_milestones,
    diagnosis_observed,
    server_grouped,
    server_request,
)
from revised_2026_12_04_server import SERVER3_IDEMPOTENCY_KEY_DRAFT, SERVER3_RFC7230

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

DIAGNOSIS3_HIDDEN = ("ownerAlive",)  # что знает только модель: снаружи этого не запросить


@dataclass
class Diagnosis3Run(DiagnosisRun):
    """Прогон второй редакции, но снимок в момент тайм-аута разделён: что видно снаружи и что
    знает только модель."""

    owner_alive: bool = False

    def snapshot(self) -> None:
        """В момент тайм-аута первой попытки: строка записи (тот же запрос, что в статье) и число
        платежей; жив ли владелец, записано отдельно."""
        record = self.record(self.attempts[0].req)
        self.lease_until = record and record["leaseUntil"]
        self.at_timeout = {"record": record, "payments": self.payments()}
        self.owner_alive = bool(self.open)


def diagnosis3_lane(
    tmp: str, lane: DiagnosisLane, claims: ServerClaims
) -> tuple[Diagnosis3Run, dict[str, object], Reply]:
    """Один исход на своём файле SQLite в одной форме SQL: прогон, итог и тот же ключ с суммой
    1 500 ₽."""
    path = os.path.join(tmp, f"{lane.name}-{claims.name.strip('()')}.sqlite3")
    conn = connect(path)
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.executescript(IDEMPOTENCY_SCHEMA_SQL + PAYMENT_SCHEMA_SQL)
        run = Diagnosis3Run(path, lane, conn, server=ServerIdempotency(claims))
        run.run()
        summary = {
            "atTimeout": run.at_timeout,
            "ownerAlive": run.owner_alive,
            "client": [attempt.seen for attempt in run.attempts],
            "createdBy": (run.record(run.attempts[0].req) or {}).get("owner"),
            "payments": run.payments(),
        }
        probe = run.server.handle(conn, server_request("req-probe", amountRub=1500), run.now + 1000)
    finally:
        conn.close()
    return run, summary, probe


def diagnosis3_view(summary: dict[str, object]) -> str:
    """Снимок в момент тайм-аута как строка, чтобы сравнивать исходы между собой."""
    return json.dumps(summary["atTimeout"], sort_keys=True)


def diagnosis3_timeout_checks(outcomes: dict[str, dict[str, object]]) -> dict[str, bool]:
    """Что видно снаружи в момент тайм-аута: второй и четвёртый исходы одинаковы, остальные
    различаются; различает второй и четвёртый только жизнь владельца, которую знает модель."""
    views = {name: diagnosis3_view(summary) for name, summary in outcomes.items()}
    crashed, running = outcomes["crashed"], outcomes["still-running"]
    others = [views[name] for name in ("not-delivered", "crashed", "response-lost")]
    return {
        "crashedAndStillRunningLookTheSameAtTimeout": views["crashed"] == views["still-running"],
        "threeObservableStatesAtTimeout": len(set(views.values())) == 3 == len(set(others)),
        "onlyOwnerLifeTellsThemApart": crashed["ownerAlive"] is False and running["ownerAlive"] is True,
    }


def diagnosis3_lane_checks(
    runs: dict[str, Diagnosis3Run], outcomes: dict[str, dict[str, object]]
) -> dict[str, bool]:
    """Проверки второй редакции о клиенте, записи и эффектах, на прогонах этой формы."""
    in_budget = {name: [a.seen for a in run.attempts if a.sent_ms < BUDGET_MS] for name, run in runs.items()}
    return {
        "sameTimeoutInEveryLane": all(
            run.attempts[0].seen == "timeout" and run.attempts[0].seen_ms == ATTEMPT_TIMEOUT_MS
            for run in runs.values()
        ),
        "responseLostAfterStore": runs["response-lost"].lost_state == "completed",
        "stillRunningAnswers409": in_budget["still-running"] == ["timeout", 409],
        "crashAndStillRunningLookAlike": in_budget["crashed"] == in_budget["still-running"]
        and outcomes["crashed"]["createdBy"] != outcomes["still-running"]["createdBy"],
        "everyLaneEndsWithStoredAnswer": all(
            run.final is not None and run.final.seen == 201 for run in runs.values()
        ),
        "exactlyOneEffectPerLane": all(summary["payments"] == 1 for summary in outcomes.values()),
        "oneKeyOneRequestIdPerAttempt": all(
            len({a.req.key for a in run.attempts}) == 1
            and len({a.req.request_id for a in run.attempts}) == len(run.attempts)
            for run in runs.values()
        ),
        "traceInTimeOrder": all(run.trace.times == sorted(run.trace.times) for run in runs.values()),
        "milestonesMatchTraces": diagnosis_observed(runs) == diagnosis_milestones(),  # type: ignore[arg-type]
    }


def diagnosis3_simulate(claims: ServerClaims) -> dict[str, object]:
    """Четыре исхода за одним тайм-аутом на модели второй части в одной форме SQL."""
    with tempfile.TemporaryDirectory() as tmp:
        lanes = {lane.name: diagnosis3_lane(tmp, lane, claims) for lane in DIAGNOSIS_LANES}
    runs = {name: run for name, (run, _, _) in lanes.items()}
    outcomes = {name: summary for name, (_, summary, _) in lanes.items()}
    lost, conflict = runs["response-lost"], lanes["response-lost"][2]
    first, final = lost.attempts[0], lost.final
    created = first.server_reply or Reply(0, {})
    received = final.reply if final and final.reply else Reply(0, {})
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
            **diagnosis3_lane_checks(runs, outcomes),
            **diagnosis3_timeout_checks(outcomes),
            "retryReplaysSameResult": received.replayed
            and received.body.get("paymentId") == created.body.get("paymentId") is not None,
            "otherPayloadIsConflict": conflict.status == 422,
            "answerWithinBudget": final is not None
            and final.seen_ms is not None
            and final.seen_ms <= BUDGET_MS,
        },
    }


def diagnosis3_part_one_client() -> dict[str, object]:
    """Что делает клиент первой части с намерением, бюджет которого кончился: каждая попытка
    теряет ответ, а через минуту человек нажимает «Оплатить» ещё раз тем же действием."""
    server = ClientServer([ClientSeen(None)] * 3)  # ни одна попытка в бюджете не получает ответа
    client = client_new(server)
    click = ClientClick("pay-1042", dict(CLIENT_ORDER))
    first = client.run(client.submit(click))
    sent_in_budget = len(server.answers)
    client.now_ms = DIAGNOSIS_RESEND_MS  # прошла минута с первого нажатия
    again = client.run(client.submit(click))
    return {
        "inBudget": {"result": first, "sent": sent_in_budget},
        "afterAMinute": {"result": again, "sent": len(server.answers) - sent_in_budget},
    }


def diagnosis3_report() -> dict[str, object]:
    """Обе формы SQL второй части (RETURNING, если SQLite его знает, и форма 2020 года через
    changes()), их совпадение, и прогон клиента первой части после бюджета."""
    has_returning = sqlite3.sqlite_version_info >= SERVER_RETURNING_SINCE
    without = diagnosis3_simulate(ServerChangesClaims())
    main = diagnosis3_simulate(ServerReturningClaims()) if has_returning else without
    outcome = {k: v for k, v in main.items() if k != "checks"}
    same = has_returning and outcome == {k: v for k, v in without.items() if k != "checks"}
    part_one = diagnosis3_part_one_client()
    return {
        "forms": [ServerReturningClaims.name] * has_returning + [ServerChangesClaims.name],
        **outcome,
        "partOneClient": part_one,
        "checks": {
            **main["checks"],  # type: ignore[dict-item]
            "sqliteHasReturning": has_returning,
            "changesFormPassesEveryCheck": all(v is True for v in without["checks"].values()),  # type: ignore[attr-defined]
            "formsGiveSameOutcomes": same,
            "partOneClientSendsNothingAfterBudget": part_one["afterAMinute"]
            == {"result": "uncertain", "sent": 0},
        },
    }


@fixture
def diagnosis_lost_response() -> dict[str, object]:
    return diagnosis3_report()


# --- Числа текста из тех же прогонов ------------------------------------------

diagnosis3_at = diagnosis_milestones()  # моменты, которые текст называет; фикстура сверяет их с трассами
diagnosis3_shown = diagnosis3_report()
DIAGNOSIS3_WORDS = {1: "один", 2: "два", 3: "три", 4: "четыре"}


def diagnosis3_observable_count(report: dict[str, object]) -> int:
    """Сколько различных состояний видно снаружи в момент тайм-аута."""
    outcomes: dict[str, dict[str, object]] = report["outcomes"]  # type: ignore[assignment]
    return len({diagnosis3_view(summary) for summary in outcomes.values()})


DIAGNOSIS3_OBSERVABLE = DIAGNOSIS3_WORDS[diagnosis3_observable_count(diagnosis3_shown)]
DIAGNOSIS3_PART_ONE: dict[str, dict[str, object]] = diagnosis3_shown["partOneClient"]  # type: ignore[assignment]
DIAGNOSIS3_RESULTS = {"uncertain": "исход неизвестен", "success": "платёж прошёл", "rejected": "отказ"}
DIAGNOSIS3_PART_ONE_RESULT = DIAGNOSIS3_RESULTS[str(DIAGNOSIS3_PART_ONE["afterAMinute"]["result"])]
DIAGNOSIS3_SENT_AFTER = (
    "ни одной попытки"
    if DIAGNOSIS3_PART_ONE["afterAMinute"]["sent"] == 0
    else f"{DIAGNOSIS3_PART_ONE['afterAMinute']['sent']}\u00a0попыт."
)

# --- Источники ---------------------------------------------------------------

DIAGNOSIS3_RFC7231 = Source(
    title="RFC\u00a07231: HTTP/1.1 Semantics and Content, §\u00a04.2.2 Idempotent Methods",
    url="https://www.rfc-editor.org/rfc/rfc7231.html#section-4.2.2",
    note=(
        "идемпотентные методы выделены потому, что запрос можно повторить автоматически, если связь "
        "оборвалась до того, как клиент прочитал ответ сервера"
    ),
)


# --- Статья 3, редакция 3 --------------------------------------------------

DIAGNOSIS3_CHANGES_NOTE = (
    "Исправлены ошибки второй редакции. Её проверка `fourDifferentServerStates` насчитывала четыре "
    "состояния сервера в момент тайм-аута только потому, что в снимок попал `ownerWorking`\u00a0— флаг "
    "внутри модели, а текст говорил, что второй и четвёртый исходы снаружи выглядят одинаково. Теперь "
    "снимок держит только то, что можно запросить у базы (строку записи и число платежей), жизнь "
    "владельца показана отдельно, а проверки называют то, что сравнивают: "
    "`crashedAndStillRunningLookTheSameAtTimeout`, `threeObservableStatesAtTimeout`, "
    "`onlyOwnerLifeTellsThemApart`. «Настоящая модель второй части» исполнялась только с `RETURNING`, "
    "которого в SQLite июня 2020\u00a0года не было: теперь каждый исход идёт и в форме 2020\u00a0года "
    "через `changes()`, и формы должны совпасть. Отправка через минуту после бюджета была подана как "
    "правило первой части, хотя клиент первой части открытое намерение после дедлайна не отправляет: "
    "фикстура прогоняет его модель, а отправка названа допущением этой статьи. Черновик IETF стоял в "
    "источниках, но в тексте не упоминался: теперь он процитирован там, где речь о кодах `409` и "
    "`422`, с датами, которые показывают, что он вышел позже статьи. Неразрывные пробелы: «§\u00a04.2.2» "
    "и «§\u00a06.3.1» в названиях источников, «Попытка\u00a01» и «Попытка\u00a02» в таблице бюджета."
)

diagnosis3_revision = revision(
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
    revised="2026-12-04",
    changes=DIAGNOSIS3_CHANGES_NOTE,
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
                f"{server_grouped(diagnosis3_at['timeoutAtMs'])}\u00a0мс. В первой запрос теряется по пути к "
                "серверу, и сервер ничего не видит. Во второй сервер принимает запрос и падает, транзакция "
                "откатывается, запись остаётся в in_progress, эффекта нет. В третьей сервер создаёт платёж "
                f"и сохраняет ответ к {server_grouped(diagnosis3_at['storedAtMs'])}\u00a0мс, но ответ "
                "теряется по пути назад. В четвёртой владелец ещё работает, когда клиент сдаётся: повтор "
                "получает 409, а платёж и ответ сохраняются только к "
                f"{server_grouped(diagnosis3_at['slowStoredAtMs'])}\u00a0мс."
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
            "копия в словаре, без аренды и транзакции, хотя текст называл её той же логикой. Вторая "
            "редакция исполняла модель только с `RETURNING`, которого в SQLite июня 2020\u00a0года ещё не "
            "было. Теперь каждый исход идёт дважды: с `RETURNING` и в форме 2020\u00a0года, где свою "
            "строку попытка узнаёт по `changes()`; трассы и итоги обеих форм должны совпасть, это одна из "
            "проверок. Клиент в бюджете живёт по правилам первой части: тайм-аут попытки "
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
                "forms": ["RETURNING", "changes()"],
                "trace": [
                    "    0 client  req-01 key-001 attempt=1 POST /payments",
                    "   40 server  req-01 key-001 reserved state=in_progress",
                    "  100 server  req-01 key-001 created payment 1 state=completed 201",
                    "  100 network req-01 key-001 response lost",
                    " 1800 client  req-01 key-001 attempt=1 timeout, outcome unknown",
                    " 2050 client  req-02 key-001 attempt=2 POST /payments",
                    " 2090 server  req-02 key-001 replay 201 payment 1 stored by req-01",
                    " 2130 client  req-02 key-001 attempt=2 got 201 payment 1 (replay)",
                ],
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
            "бюджет уже не помещается, и клиент честно говорит «исход неизвестен». Здесь правила первой "
            "части кончаются. Её клиент открытое намерение после дедлайна не отправляет: фикстура "
            "прогоняет его модель, и нажатие тем же действием через минуту находит то же намерение, "
            f"отвечает «{DIAGNOSIS3_PART_ONE_RESULT}» и не отправляет "
            f"{DIAGNOSIS3_SENT_AFTER}. Чтобы довести разбор до конца, модель этой статьи делает своё "
            "допущение: через минуту приложение проверяет исход, отправив намерение с тем же ключом ещё "
            "раз. Это правило разбора, а не первой части:"
        ),
        verified_output(
            diagnosis_lost_response,
            expected={
                "partOneClient": {
                    "inBudget": {"result": "uncertain", "sent": 2},
                    "afterAMinute": {"result": "uncertain", "sent": 0},
                },
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
                ],
            },
        ),
        paragraph(
            "Ответ первой попытки сервер сохранил и отправил на "
            f"{server_grouped(diagnosis3_at['slowStoredAtMs'])}\u00a0мс, когда клиент её уже не ждал. "
            "Отправка через минуту получила сохранённый ответ: платёж один, и сделала его первая попытка. "
            "Со вторым исходом иначе: запись брошена, аренда кончается на "
            f"{server_grouped(diagnosis3_at['leaseEndsAtMs'])}\u00a0мс, и отправка через минуту "
            "перехватывает запись и создаёт платёж сама. Все четыре прогона: что можно было запросить у "
            "базы в момент тайм-аута (строку записи и число платежей), жив ли был владелец (это знает "
            "только модель), что видел клиент и какая попытка создала платёж:"
        ),
        verified_output(
            diagnosis_lost_response,
            expected={
                "outcomes": {
                    "not-delivered": {
                        "atTimeout": {"record": None, "payments": 0},
                        "ownerAlive": False,
                        "client": ["timeout", 201],
                        "createdBy": "req-02",
                        "payments": 1,
                    },
                    "crashed": {
                        "atTimeout": {
                            "record": {"state": "in_progress", "owner": "req-01", "leaseUntil": 30040},
                            "payments": 0,
                        },
                        "ownerAlive": False,
                        "client": ["timeout", 409, 201],
                        "createdBy": "req-03",
                        "payments": 1,
                    },
                    "response-lost": {
                        "atTimeout": {
                            "record": {"state": "completed", "owner": "req-01", "leaseUntil": 30040},
                            "payments": 1,
                        },
                        "ownerAlive": False,
                        "client": ["timeout", 201],
                        "createdBy": "req-01",
                        "payments": 1,
                    },
                    "still-running": {
                        "atTimeout": {
                            "record": {"state": "in_progress", "owner": "req-01", "leaseUntil": 30040},
                            "payments": 0,
                        },
                        "ownerAlive": True,
                        "client": ["timeout", 409, 201],
                        "createdBy": "req-01",
                        "payments": 1,
                    },
                },
                "checks": {
                    "sameTimeoutInEveryLane": True,
                    "crashedAndStillRunningLookTheSameAtTimeout": True,
                    "threeObservableStatesAtTimeout": True,
                    "onlyOwnerLifeTellsThemApart": True,
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
                    "sqliteHasReturning": True,
                    "changesFormPassesEveryCheck": True,
                    "formsGiveSameOutcomes": True,
                    "partOneClientSendsNothingAfterBudget": True,
                },
            },
        ),
        paragraph(
            "Второй и четвёртый прогоны клиент видит одинаково\u00a0— тайм-аут, затем `409`,\u00a0— и сервер "
            "в момент тайм-аута тоже выглядит одинаково: та же строка записи в `in_progress`, тот же "
            "владелец и та же аренда, платежей нет. Проверки сравнивают только то, что можно запросить: "
            f"различных состояний, видимых снаружи, в момент тайм-аута {DIAGNOSIS3_OBSERVABLE}, а не четыре. "
            "Второй и четвёртый исходы различает только то, жив ли владелец, а это знает модель, но не "
            "база: живой завершит запись сам, а брошенная останется в `in_progress`, пока не истечёт "
            "аренда и её не перехватит повтор. Вторая редакция клала этот флаг в тот же снимок и потому "
            "насчитала четыре состояния."
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
        paragraph(
            "Коды `409` и `422`\u00a0— соглашение второй части, а не правило HTTP. Такое же разделение "
            "позже предложил черновик IETF draft-ietf-httpapi-idempotency-key-header: `422` на ключ с "
            "другим телом, `409` на повтор, пока исходный запрос ещё обрабатывается. Статья его знать не "
            "могла: первая версия черновика рабочей группы вышла 1\u00a0июля 2021\u00a0года, а его "
            "предшественник\u00a0— 17\u00a0ноября 2020\u00a0года, позже этой статьи."
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
                    "Попытка\u00a01",
                    f"0–{server_grouped(diagnosis3_at['timeoutAtMs'])}",
                    f"Запрос доходит до сервера за {UPLINK_MS}\u00a0мс, платёж и ответ сохранены к "
                    f"{server_grouped(diagnosis3_at['storedAtMs'])}\u00a0мс, ответ потерян; клиент ждёт до "
                    "конца тайм-аута",
                ],
                [
                    "Пауза",
                    f"{server_grouped(diagnosis3_at['timeoutAtMs'])}–"
                    f"{server_grouped(diagnosis3_at['secondSentAtMs'])}",
                    "Ничего не отправляется",
                ],
                [
                    "Попытка\u00a02",
                    f"{server_grouped(diagnosis3_at['secondSentAtMs'])}–"
                    f"{server_grouped(diagnosis3_at['secondDeadlineAtMs'])}",
                    "Тот же ключ, новый request id; сохранённый ответ у клиента к "
                    f"{server_grouped(diagnosis3_at['replayReceivedAtMs'])}\u00a0мс",
                ],
                [
                    "Запас на неопределённый исход",
                    f"{server_grouped(diagnosis3_at['secondDeadlineAtMs'])}–{server_grouped(BUDGET_MS)}",
                    "Не понадобился; без ответа на вторую попытку клиент сказал бы «платёж мог пройти, "
                    "проверяем статус»",
                ],
            ],
        ),
        paragraph(
            f"Сервер закончил работу к {server_grouped(diagnosis3_at['storedAtMs'])}\u00a0мс, а клиент ждал "
            f"до {server_grouped(diagnosis3_at['timeoutAtMs'])}\u00a0мс: ответ потерялся не из-за медленного "
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
        DIAGNOSIS3_RFC7231,
        SERVER3_RFC7230,
        STRIPE_REQUEST_IDS,
        SERVER_STRIPE_IDEMPOTENCY,
        SERVER3_IDEMPOTENCY_KEY_DRAFT,
    ],
)

revisions = [diagnosis3_revision]
