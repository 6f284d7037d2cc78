"""The chart of 5 December 2026: the fifth revision of retry-client-one-intent-one-key.

The budget timeline (attempt, pause, attempt, the time left for the honest screen, the deadline)
was a drawing committed beside the article since the first revision, its numbers typed into the
SVG by hand; the caption and the alt text were computed from the model's run, the drawing was
not. Here the build draws it with ``chart()`` from the phases the fixture ``client5_budget_chart``
returns, so a change of the model's timeout, pause or reserve redraws it, and its proof mark links
to that fixture. Every other block is the fourth revision's (``revised_2026_12_05_client``), kept
as written; the earlier revisions keep the drawing they published."""

from __future__ import annotations

from typing import Any

from _revising import with_blocks_replaced
from revised_2026_12 import client_budget_run, client_figure_caption
from revised_2026_12_04_client import client3_figure_alt
from revised_2026_12_05_client import client4_revision

from site_builder import chart, fixture, revision

# --- Строки рисунка: фазы прогона ---------------------------------------------

CLIENT5_KINDS = {"attempt": "попытка", "pause": "пауза", "uncertain": "исход неясен"}
"""Вид фазы в подписи; попытки ещё и нумеруются."""
CLIENT5_COLOURS = ("#0969da", "#6e7781", "#bc4c00")
"""Цвета видов в порядке CLIENT5_KINDS: каждый не меньше 3:1 к светлому и тёмному фону темы."""
CLIENT5_DEADLINE_COLOUR = "#cf222e"
CLIENT5_CHART_CONFIG: dict[str, object] = {
    "view": {"stroke": None},
    "font": "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
    "locale": {
        "number": {
            "decimal": ",",
            "thousands": "\u00a0",
            "grouping": [3],
            "currency": ["", "\u00a0₽"],
        }
    },
}
"""Настройки рисунков русских статей: шрифт темы, разряды через неразрывный пробел, без рамки."""


def client5_rows(run: dict[str, Any]) -> list[dict[str, object]]:
    """Фазы прогона по порядку: название, вид, начало, конец и длительность в миллисекундах."""
    rows: list[dict[str, object]] = []
    start, attempt = 0, 0
    for phase in run["phases"]:
        kind = CLIENT5_KINDS[phase["phase"]]
        attempt += phase["phase"] == "attempt"
        rows.append(
            {
                "фаза": f"{kind} {attempt}" if phase["phase"] == "attempt" else kind,
                "вид": kind,
                "начало, мс": start,
                "конец, мс": start + phase["ms"],
                "длится, мс": phase["ms"],
            }
        )
        start += phase["ms"]
    return rows


@fixture
def client5_budget_chart() -> dict[str, Any]:
    run = client_budget_run()
    return {**run, "chart": client5_rows(run)}


def client5_spec(run: dict[str, Any]) -> dict[str, object]:
    """Одна полоса от нажатия до дедлайна: фазы цветом вида, над каждой её название, под ней
    длительность; дедлайн штриховой линией."""
    budget = run["budgetMs"]
    middle = {"field": "середина", "type": "quantitative"}
    once = [{"aggregate": [{"op": "count", "as": "строк"}]}]
    deadline = {"x": {"datum": budget}}
    return {
        "title": {
            "text": f"Одно намерение, один ключ {run['log'][0]['key']}, один дедлайн",
            "anchor": "start",
        },
        "width": 640,
        "height": 100,
        "transform": [{"calculate": "(datum['начало, мс'] + datum['конец, мс']) / 2", "as": "середина"}],
        "layer": [
            {
                "mark": {"type": "bar", "height": 40},
                "encoding": {
                    "x": {
                        "field": "начало, мс",
                        "type": "quantitative",
                        "title": "мс от нажатия",
                        "scale": {"domain": [0, budget]},
                        "axis": {"format": ",d", "tickCount": 5},
                    },
                    "x2": {"field": "конец, мс"},
                    "color": {
                        "field": "вид",
                        "type": "nominal",
                        "title": None,
                        "scale": {"domain": list(CLIENT5_KINDS.values()), "range": list(CLIENT5_COLOURS)},
                        "legend": {"orient": "top"},
                    },
                },
            },
            {
                "mark": {"type": "text", "dy": -28, "fontWeight": "bold"},
                "encoding": {"x": middle, "text": {"field": "фаза"}},
            },
            {
                "mark": {"type": "text", "dy": 30},
                "encoding": {"x": middle, "text": {"field": "длится, мс", "format": ",d"}},
            },
            {
                "transform": once,
                "mark": {
                    "type": "rule",
                    "color": CLIENT5_DEADLINE_COLOUR,
                    "strokeDash": [6, 3],
                    "strokeWidth": 2,
                    "y": 0,
                    "y2": 100,
                },
                "encoding": deadline,
            },
            {
                "transform": once,
                "mark": {"type": "text", "align": "right", "dx": -4, "y": 6, "fontWeight": "bold"},
                "encoding": {**deadline, "text": {"value": "дедлайн"}},
            },
        ],
        "config": CLIENT5_CHART_CONFIG,
    }


client5_shown_budget = client_budget_run()

CLIENT5_CHANGES = (
    "Рисунок с бюджетом намерения теперь рисует сборка сайта по фазам, которые возвращает фикстура "
    "`client5_budget_chart`, а не готовый файл рядом со статьёй, в котором длительности были "
    "вписаны вручную: изменится тайм-аут, пауза или запас модели\u00a0— изменится и рисунок. Под "
    "рисунком\u00a0— таблица тех же фаз с началом, концом и длительностью каждой."
)

# --- Статья -----------------------------------------------------------------

client5_revision = revision(
    slug=client4_revision.slug,
    title=client4_revision.title,
    categories=list(client4_revision.categories),
    excerpt=client4_revision.excerpt,
    cover=client4_revision.cover,
    published=client4_revision.published,
    revised="2026-12-05T21:45Z",
    changes=CLIENT5_CHANGES,
    lang=client4_revision.lang,
    body=with_blocks_replaced(
        client4_revision.body,
        {
            "intent-budget-timeline.svg": chart(
                client5_budget_chart,
                client5_spec(client5_shown_budget),
                alt=client3_figure_alt(client5_shown_budget),
                caption=client_figure_caption(client5_shown_budget),
            ),
        },
    ),
    sources=list(client4_revision.sources),
)

revisions = [client5_revision]
