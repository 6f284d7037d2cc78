"""The chart of 5 December 2026: the fifth revision of retry-diagnosis-lost-response.

The four outcomes behind one timeout were a drawing committed beside the article, with the
model's moments (the timeout at 1 800 ms, the answer stored at 100 ms and at 2 540 ms) typed into
its labels; the alt text was computed from the model, the drawing was not. Here the build draws
the four lanes with ``chart()`` from the traces of the model's runs, which the fixture
``diagnosis5_outcomes_chart`` turns into rows (who, from, to, what came of it), so a change of the
model's timings redraws the lanes, and its proof mark links to that fixture. The lanes also show
the retry and what it got back, which the drawing showed for the fourth lane alone. Every other
block is the fourth revision's (``revised_2026_12_05_diagnosis``), kept as written; the earlier
revisions keep the drawing they published."""

from __future__ import annotations

import tempfile
from typing import Any

from _revising import with_blocks_replaced
from revised_2026_12 import (
    ATTEMPT_TIMEOUT_MS,
    DIAGNOSIS_LANES,
    diagnosis_lane,
    diagnosis_milestones,
    server_grouped,
)
from revised_2026_12_05_client_chart import CLIENT5_CHART_CONFIG
from revised_2026_12_05_diagnosis import diagnosis4_revision

from site_builder import chart, fixture, revision

# --- Строки рисунка: трассы четырёх прогонов ------------------------------------

DIAGNOSIS5_TITLES = {
    "not-delivered": "1. Не доставлен",
    "crashed": "2. Доставлен, не выполнен",
    "response-lost": "3. Выполнен, ответ потерян",
    "still-running": "4. Ещё выполняется",
}
"""Исход прогона и подпись его дорожки, в порядке дорожек."""
DIAGNOSIS5_WHO = {"клиент": "#0969da", "сервер": "#1a7f37", "сеть": "#bc4c00", "повтор": "#8250df"}
"""Участники дорожки по порядку и их цвета: каждый не меньше 3:1 к светлому и тёмному фону темы."""
DIAGNOSIS5_TIMEOUT_COLOUR = "#cf222e"
DIAGNOSIS5_NETWORK = {
    "request lost": "запрос потерян",
    "response lost": "ответ потерян",
    "response dropped: client gave up": "ответ не нужен: клиент сдался",
}
"""Что сеть сделала с первой попыткой, словами рисунка."""


def diagnosis5_entries(lines: list[str], request_id: str) -> list[tuple[int, str, str]]:
    """Строки трассы одной попытки: момент, источник и сообщение."""
    entries = []
    for line in lines:
        ms, source, request, _key, message = line.split(maxsplit=4)
        if request == request_id:
            entries.append((int(ms), source, message))
    return entries


def diagnosis5_server_end(message: str) -> str:
    """Чем кончилась транзакция владельца."""
    if message.startswith("crashed"):
        return "сбой до COMMIT, откат"
    if message.startswith("created payment"):
        return f"платёж создан, {message.split()[-1]}"
    return message


def diagnosis5_retry_seen(message: str) -> str:
    """Что повтор получил в ответ: «attempt=2 got 409 request_in_progress» → «409»."""
    status = message.split()[2]
    return f"{status}, сохранённый ответ" if message.endswith("(replay)") else status


def diagnosis5_lane_rows(name: str, lines: list[str]) -> list[dict[str, object]]:
    """Дорожка одного исхода: ожидание первой попытки, транзакция владельца, что сделала сеть,
    повтор от отправки до ответа."""
    title = DIAGNOSIS5_TITLES[name]
    first, retry = diagnosis5_entries(lines, "req-01"), diagnosis5_entries(lines, "req-02")

    def row(who: str, start: int, end: int, result: str) -> dict[str, object]:
        return {"исход": title, "кто": who, "с, мс": start, "до, мс": end, "итог": result}

    timeout = next(ms for ms, source, message in first if source == "client" and "timeout" in message)
    rows = [row("клиент", 0, timeout, "тайм-аут")]
    server = [(ms, message) for ms, source, message in first if source == "server"]
    if server:
        rows.append(row("сервер", server[0][0], server[-1][0], diagnosis5_server_end(server[-1][1])))
    rows += [row("сеть", ms, ms, DIAGNOSIS5_NETWORK[m]) for ms, source, m in first if source == "network"]
    sent = next(ms for ms, source, message in retry if source == "client" and "POST" in message)
    seen = next((ms, m) for ms, source, m in retry if source == "client" and m.startswith("attempt=2 got"))
    rows.append(row("повтор", sent, seen[0], diagnosis5_retry_seen(seen[1])))
    return rows


def diagnosis5_rows() -> list[dict[str, object]]:
    with tempfile.TemporaryDirectory() as tmp:
        runs = [(lane.name, diagnosis_lane(tmp, lane)[0]) for lane in DIAGNOSIS_LANES]
    return [row for name, run in runs for row in diagnosis5_lane_rows(name, run.trace.lines)]


@fixture
def diagnosis5_outcomes_chart() -> dict[str, Any]:
    rows = diagnosis5_rows()
    at = diagnosis_milestones()
    ends = {(row["исход"], row["кто"]): row["до, мс"] for row in rows}
    lanes = list(DIAGNOSIS5_TITLES.values())
    return {
        "chart": rows,
        "milestones": at,
        "checks": {
            # Клиент видит одно и то же: первая попытка кончается тайм-аутом в один момент везде.
            "sameTimeoutInEveryLane": {ends[lane, "клиент"] for lane in lanes} == {at["timeoutAtMs"]},
            # Моменты, которые называет текст статьи, и есть концы транзакций в трассах.
            "storedWhereTheTextSays": ends[lanes[2], "сервер"] == at["storedAtMs"],
            "slowStoredWhereTheTextSays": ends[lanes[3], "сервер"] == at["slowStoredAtMs"],
            "slowOwnerOutlivesTheTimeout": ends[lanes[3], "сервер"] > at["timeoutAtMs"],
            "undeliveredNeverReachesTheServer": (lanes[0], "сервер") not in ends,
            "retryAfterTheTimeout": all(
                row["с, мс"] == at["secondSentAtMs"] > at["timeoutAtMs"]
                for row in rows
                if row["кто"] == "повтор"
            ),
        },
    }


def diagnosis5_spec(timeout_ms: int) -> dict[str, object]:
    """Четыре дорожки, в каждой по полосе на участника; подпись у конца полосы, крест там, где сеть
    что-то потеряла; тайм-аут клиента штриховой линией."""
    lane = {
        "field": "исход",
        "type": "nominal",
        "sort": list(DIAGNOSIS5_TITLES.values()),
        "title": None,
        "axis": {"labelFontWeight": "bold", "labelLimit": 220},
    }
    who = {"field": "кто", "type": "nominal", "sort": list(DIAGNOSIS5_WHO)}
    start = {
        "field": "с, мс",
        "type": "quantitative",
        "title": "мс от первой попытки",
        "scale": {"domain": [0, 3600], "nice": False},
        "axis": {"format": ",d", "values": list(range(0, 3600, 500))},
    }
    colour = {
        "field": "кто",
        "type": "nominal",
        "title": None,
        "scale": {"domain": list(DIAGNOSIS5_WHO), "range": list(DIAGNOSIS5_WHO.values())},
        "legend": {"orient": "top"},
    }
    at = {"y": lane, "yOffset": who}
    once = [{"aggregate": [{"op": "count", "as": "строк"}]}]
    return {
        "width": 640,
        "height": {"step": 14},
        # Подписи дорожек вычислены по шрифту рендерера; шрифт читателя может быть шире.
        "padding": {"left": 40, "top": 5, "right": 5, "bottom": 5},
        "layer": [
            {
                "transform": [{"filter": "datum['до, мс'] > datum['с, мс']"}],
                "mark": {"type": "bar", "height": 9},
                "encoding": {**at, "x": start, "x2": {"field": "до, мс"}, "color": colour},
            },
            {
                "transform": [{"filter": "datum['до, мс'] === datum['с, мс']"}],
                "mark": {"type": "point", "shape": "cross", "angle": 45, "size": 70, "filled": True},
                "encoding": {**at, "x": start, "color": colour},
            },
            {
                "mark": {"type": "text", "align": "left", "dx": 7, "fontSize": 11},
                "encoding": {
                    **at,
                    "x": {"field": "до, мс", "type": "quantitative"},
                    "text": {"field": "итог"},
                },
            },
            {
                "transform": once,
                "mark": {
                    "type": "rule",
                    "strokeDash": [6, 3],
                    "color": DIAGNOSIS5_TIMEOUT_COLOUR,
                    "strokeWidth": 2,
                },
                "encoding": {"x": {"datum": timeout_ms}},
            },
            {
                "transform": once,
                "mark": {"type": "text", "y": -8, "fontWeight": "bold"},
                "encoding": {
                    "x": {"datum": timeout_ms},
                    "text": {"value": f"тайм-аут клиента, {server_grouped(timeout_ms)} мс"},
                },
            },
        ],
        "config": CLIENT5_CHART_CONFIG,
    }


DIAGNOSIS5_IN_LANE = (("в", "первом"), ("во", "втором"), ("в", "третьем"), ("в", "четвёртом"))
"""«в первом» … «в четвёртом» (исходе): дорожка по номеру, в предложном падеже."""


def diagnosis5_retry_answers(rows: list[dict[str, object]]) -> str:
    """Что повтор получает в каждой дорожке: «получает 201 в первом и третьем исходах и 409 во
    втором и четвёртом»."""
    lanes = list(DIAGNOSIS5_TITLES.values())
    by_status: dict[str, list[int]] = {}
    for row in rows:
        if row["кто"] == "повтор":
            by_status.setdefault(str(row["итог"]).split(",")[0], []).append(lanes.index(row["исход"]))
    parts = []
    for status, numbers in by_status.items():
        words = [DIAGNOSIS5_IN_LANE[n][1] for n in numbers]
        listed = words[0] if len(words) == 1 else f"{', '.join(words[:-1])} и {words[-1]}"
        noun = "" if parts else " исходе" if len(words) == 1 else " исходах"  # слово раз, при первой группе
        parts.append(f"{status} {DIAGNOSIS5_IN_LANE[numbers[0]][0]} {listed}{noun}")
    return "получает " + ", ".join(parts[:-1]) + (" и " if len(parts) > 1 else "") + parts[-1]


def diagnosis5_alt(at: dict[str, int], rows: list[dict[str, object]]) -> str:
    """Что показывает рисунок, словами, с моментами и ответами из модели."""
    return (
        "Четыре дорожки времени, в каждой полосы клиента, сервера и повтора; у всех первая попытка "
        f"кончается тайм-аутом клиента на {server_grouped(at['timeoutAtMs'])}\u00a0мс. В первой сеть "
        "теряет запрос, и сервера в дорожке нет. Во второй транзакция сервера обрывается сбоем до "
        "COMMIT и откатывается. В третьей сервер создаёт платёж к "
        f"{server_grouped(at['storedAtMs'])}\u00a0мс, а ответ теряется. В четвёртой транзакция идёт до "
        f"{server_grouped(at['slowStoredAtMs'])}\u00a0мс, дольше тайм-аута, и ответ уже не нужен. Повтор "
        f"уходит на {server_grouped(at['secondSentAtMs'])}\u00a0мс и {diagnosis5_retry_answers(rows)}."
    )


diagnosis5_at = diagnosis_milestones()
diagnosis5_shown = diagnosis5_rows()  # ответы повтора, которые называют подпись и описание рисунка

DIAGNOSIS5_CAPTION = (
    "Клиент во всех четырёх случаях видит одно: тайм-аут. Различить исходы в этот момент можно только "
    "по логам сервера и записи идемпотентности, а второй от четвёртого\u00a0— лишь когда владелец "
    "завершит запись или истечёт его аренда. Повтор с тем же ключом "
    f"{diagnosis5_retry_answers(diagnosis5_shown)}."
)

DIAGNOSIS5_CHANGES = (
    "Рисунок с четырьмя исходами теперь рисует сборка сайта по трассам прогонов модели, которые "
    "фикстура `diagnosis5_outcomes_chart` превращает в строки, а не готовый файл, в подписи которого "
    "моменты 1\u00a0800, 100 и 2\u00a0540\u00a0мс были вписаны вручную. Полосы стоят по шкале времени, "
    "и в каждой дорожке теперь есть повтор и его ответ (раньше\u00a0— только 409 в четвёртой); подпись "
    "говорит, что он получает в каждом исходе. Под рисунком\u00a0— таблица тех же строк."
)

# --- Статья 3, редакция 5 --------------------------------------------------

diagnosis5_revision = revision(
    slug=diagnosis4_revision.slug,
    title=diagnosis4_revision.title,
    categories=list(diagnosis4_revision.categories),
    excerpt=diagnosis4_revision.excerpt,
    cover=diagnosis4_revision.cover,
    published=diagnosis4_revision.published,
    revised="2026-12-05T22:00Z",
    changes=DIAGNOSIS5_CHANGES,
    lang=diagnosis4_revision.lang,
    body=with_blocks_replaced(
        diagnosis4_revision.body,
        {
            "four-outcomes-timeline.svg": chart(
                diagnosis5_outcomes_chart,
                diagnosis5_spec(ATTEMPT_TIMEOUT_MS),
                alt=diagnosis5_alt(diagnosis5_at, diagnosis5_shown),
                caption=DIAGNOSIS5_CAPTION,
            ),
        },
    ),
    sources=list(diagnosis4_revision.sources),
)

revisions = [diagnosis5_revision]
