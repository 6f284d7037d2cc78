"""The correction of 4 December 2026: the third revision of retry-client-one-intent-one-key.

An editor read the second revision (``revised_2026_12.client_revision``) against its
sources and the first revision's model and found two errors the second revision made
itself: its RFC 7230 note said RFC 9112 alone replaced RFC 7230 with the same rule, and
its prose said the first revision's check ``phasesAddUpToBudget`` could not fail. This
module owns the third revision: the fixture that runs the first revision's model
(``retry_2020_06``) with a fresh timer per attempt, the prose built from that run, and
the text helpers that write small counts and ordinals as words. The models, scenarios
and the second revision's fixtures it shows are imported from ``revised_2026_12``,
which stays as published.
"""

from __future__ import annotations

import types
from typing import Any

import retry_2020_06 as client_v1
import revised_2026_12 as client_v2
from retry_2020_06 import (
    ATTEMPT_TIMEOUT_MS,
    BUDGET_MS,
    MAX_ATTEMPTS,
    PAUSE_MS,
    RESERVE_MS,
    STRIPE_ERRORS,
    STRIPE_IDEMPOTENCY,
)
from revised_2026_12 import (
    CLIENT_ANSWER_MS,
    CLIENT_RESULTS,
    CLIENT_RFC7231,
    CLIENT_ROWS,
    ClientCase,
    ClientModel,
    client_figure_caption,
    client_ms,
    client_num,
    client_plural,
    client_seconds,
    client_seen_text,
    client_source_of,
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

# --- Модель первой редакции с таймером на каждую попытку ----------------------


class FreshTimerPerAttempt(client_v1.Client):
    """Модель первой редакции с одной мутацией: свежий таймер на каждую попытку."""

    def deadline_for_attempt(self, intent: client_v1.Intent) -> int:
        return self.now_ms + BUDGET_MS  # каждая попытка получает полный бюджет заново


def first_revision_run(model: type[client_v1.Client]) -> dict[str, Any]:
    """Фикстура первой редакции (simulate_intent) как есть, с её проверками, на модели model.

    simulate_intent строит клиента по имени Client из глобальных имён своего модуля.
    Её собственный код запускается с копией этих имён, где Client создаёт model: модуль
    первой редакции и его фикстура не меняются, а прогон тот же, что публиковала статья."""
    made: list[client_v1.Client] = []

    def make(**kwargs: Any) -> client_v1.Client:
        made.append(model(**kwargs))
        return made[-1]

    simulate = types.FunctionType(
        client_v1.simulate_intent.__code__, {**vars(client_v1), "Client": make}, "simulate_intent"
    )
    output: dict[str, Any] = simulate()
    checks = output["checks"]
    return {
        "attempts": output["attempts"],
        "deadlinesMs": [entry["deadlineMs"] for entry in output["log"]],
        "phasesTotalMs": sum(phase["ms"] for phase in output["phases"]),
        "clockMs": made[0].now_ms,
        "firstRevisionChecks": {
            name: checks[name] for name in ("deadlineNeverExtended", "phasesAddUpToBudget")
        },
    }


def first_revision_timer_run() -> dict[str, Any]:
    """Модель первой редакции как опубликована и с таймером на каждую попытку."""
    published = first_revision_run(client_v1.Client)
    fresh = first_revision_run(FreshTimerPerAttempt)
    runs = {"asPublished": published, "freshTimerPerAttempt": fresh}
    return {
        "budgetMs": BUDGET_MS,
        "runs": runs,
        "checks": {
            "asPublishedPassesBoth": all(published["firstRevisionChecks"].values()),
            "freshTimerFailsPhasesAddUpToBudget": fresh["firstRevisionChecks"]["phasesAddUpToBudget"] is False
            and fresh["phasesTotalMs"] != BUDGET_MS,
            "freshTimerFailsDeadlineNeverExtended": fresh["firstRevisionChecks"]["deadlineNeverExtended"]
            is False,
            # Часы модели идут с нуля и растут только фазами: сумма фаз и есть показание часов,
            # которое deadlineNeverExtended уже сравнивает с дедлайном.
            "phasesTotalIsTheClock": all(run["phasesTotalMs"] == run["clockMs"] for run in runs.values()),
        },
    }


@fixture
def client_first_revision_timer() -> dict[str, Any]:
    return first_revision_timer_run()


# --- Текст из прогонов: малые числа словами ----------------------------------

CLIENT3_CARDINALS = {
    1: {"m": "один", "n": "одно", "f": "одна"},
    2: {"m": "два", "n": "два", "f": "две"},
    3: {"m": "три", "n": "три", "f": "три"},
    4: {"m": "четыре", "n": "четыре", "f": "четыре"},
    5: {"m": "пять", "n": "пять", "f": "пять"},
    6: {"m": "шесть", "n": "шесть", "f": "шесть"},
}
CLIENT3_DATIVES = {2: "двум", 3: "трём", 4: "четырём", 5: "пяти", 6: "шести"}
CLIENT3_ORDINALS_GENITIVE = {1: "первой", 2: "второй", 3: "третьей", 4: "четвёртой"}
CLIENT3_ORDINALS = {1: "первая", 2: "вторая", 3: "третья", 4: "четвёртая"}


def client3_count(n: int, forms: tuple[str, str, str], gender: str = "m") -> str:
    """Число со словом: малые числа словами («одна попытка», «два раза»), прочие цифрами."""
    number = CLIENT3_CARDINALS.get(n, {}).get(gender) or client_num(n)
    return f"{number}\u00a0{client_plural(n, forms)}"


def client3_words(n: int) -> str:
    """«три»: малое число словом, прочие цифрами."""
    return CLIENT3_CARDINALS.get(n, {}).get("m") or client_num(n)


def client3_dative(n: int, noun: str) -> str:
    """«четырём действиям»: малые числа в дательном падеже словами."""
    return f"{CLIENT3_DATIVES.get(n) or client_num(n)}\u00a0{noun}"


def client3_ordinal(n: int, words: dict[int, str]) -> str:
    """«второй» или «вторая»; дальше таблицы — цифрой с окончанием."""
    return words.get(n) or f"{n}-й"


CLIENT3_ATTEMPTS = ("попытка", "попытки", "попыток")
CLIENT3_TIMES = ("раз", "раза", "раз")


def client3_run_text(case: ClientCase, run: dict[str, Any]) -> str:
    """Столбец «Прогон модели»: что модель сделала на сценарии строки."""
    done = [f"пауза {client_ms(ms)}" for ms in run["pausesMs"]]
    keys = "" if run["keys"] == 1 else f", ключей: {run['keys']}"  # ключ один — это норма, её не пишем
    done.append(client3_count(run["attempts"], CLIENT3_ATTEMPTS, "f") + keys)
    return f"{client_seen_text(case)}: {', '.join(done)}, {CLIENT_RESULTS[run['result']]}"


def client3_table_rows(runs: dict[str, dict[str, Any]]) -> list[list[str]]:
    return [
        [row.seen, row.allows, row.step, "; ".join(client3_run_text(c, runs[c.check]) for c in row.cases)]
        for row in CLIENT_ROWS
    ]


def client3_budget_text(run: dict[str, Any]) -> str:
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
        f"поэтому после {client3_ordinal(run['attempts'], CLIENT3_ORDINALS_GENITIVE)} попытки клиент "
        f"останавливается. Оставшиеся {client_ms(ms[-1])} уходят на честный экран: «Платёж мог пройти. "
        "Проверяем статус\u00a0— не платите повторно»."
    )


def client3_figure_alt(run: dict[str, Any]) -> str:
    ms = [p["ms"] for p in run["phases"]]
    return (
        f"Шкала времени от 0 до {client_ms(run['budgetMs'])}: первая попытка длится {client_ms(ms[0])}, "
        f"пауза {client_ms(ms[1])}, вторая попытка ещё {client_ms(ms[2])} до отметки "
        f"{client_ms(run['stop']['atMs'])}, затем {client_ms(ms[-1])} на показ неопределённого исхода до "
        f"неподвижного дедлайна в {client_ms(run['budgetMs'])}. Обе попытки несут один ключ "
        f"{run['log'][0]['key']}."
    )


def client3_identity_text(run: dict[str, Any]) -> str:
    clicks = client3_count(run["clicks"], ("нажатие", "нажатия", "нажатий"), "n")
    return (
        f"Фикстура `client_intents` проигрывает {clicks} «Пополнить кошелёк на "
        "1\u00a0200\u00a0₽» с одинаковыми данными: двойной щелчок, при котором первый ответ теряется; "
        "нажатие того же действия, обработанное после ответа; новое пополнение после итогового ответа; "
        "два пополнения, сделанные без сети и отправленные из очереди разом."
    )


def client3_identity_after(run: dict[str, Any]) -> str:
    first = run["firstRevision"]
    distinct = sorted(set(first["keys"]))
    keys = ("ключ " if len(distinct) == 1 else "ключи ") + ", ".join(f"`{key}`" for key in distinct)
    ours = client3_count(run["distinctKeys"], ("ключ", "ключа", "ключей"))
    effects = client3_count(run["serverEffects"], ("выполнение", "выполнения", "выполнений"), "n")
    return (
        f"{ours[0].upper()}{ours[1:]} и {effects}\u00a0— по одному на действие человека, и ни одной "
        "попытки после итогового ответа. Модель первой редакции на тех же нажатиях выдаёт всем "
        f"{client3_dative(len(run['intents']), 'действиям')} {keys}, и сервер выполняет операцию "
        f"{client3_count(first['serverEffects'], CLIENT3_TIMES)}: второе пополнение получило бы "
        "сохранённый ответ первого вместо денег."
    )


def client3_timer_text(run: dict[str, Any]) -> str:
    """Поправка к утверждению второй редакции о проверке первой: все числа из прогона."""
    fresh = run["runs"]["freshTimerPerAttempt"]
    return (
        "Вторая редакция писала здесь, что проверка первой редакции `phasesAddUpToBudget` провалиться "
        "не могла. Это неверно: фикстура `client_first_revision_timer` запускает проверки первой "
        "редакции на её модели с таймером на каждую попытку (`deadline_for_attempt` возвращает "
        f"`now_ms + BUDGET_MS`). Попыток {client3_words(fresh['attempts'])}, фазы дают "
        f"{client_ms(fresh['phasesTotalMs'])} вместо {client_ms(run['budgetMs'])}, и проверка ложна\u00a0— "
        "но вместе с `deadlineNeverExtended`: сумма фаз и есть часы модели, которые та уже сравнивает "
        "с дедлайном. Проверка была лишней, а не непроверяемой."
    )


client3_shown_budget = client_v2.client_budget_run()
client3_shown_identity = client_v2.client_identity_both()
client3_shown_table = client_v2.client_table_run()
client3_shown_timer = first_revision_timer_run()

# --- Источники ---------------------------------------------------------------

CLIENT3_RFC7230 = Source(
    title="RFC\u00a07230: HTTP/1.1 Message Syntax and Routing, §\u00a06.3.1 Retrying Requests",
    url="https://www.rfc-editor.org/rfc/rfc7230.html#section-6.3.1",
    note=(
        "прокси не должен (MUST NOT) автоматически повторять неидемпотентные запросы; агент "
        "пользователя не должен (MUST NOT) повторять такой запрос автоматически, если не знает, что "
        "запрос на деле идемпотентен или что исходный запрос не был применён. В июне 2022 года "
        "RFC\u00a07230 заменили вместе RFC\u00a09110 и RFC\u00a09112; §\u00a09.3.1 RFC\u00a09112 "
        "(Retrying Requests) за условиями повтора отсылает к §\u00a09.2.2 RFC\u00a09110"
    ),
)
CLIENT3_RFC9110 = Source(
    title="RFC\u00a09110: HTTP Semantics, §\u00a09.2.2 Idempotent Methods",
    url="https://www.rfc-editor.org/rfc/rfc9110.html#section-9.2.2",
    note=(
        "правила повтора, действующие с июня 2022 года: прокси по-прежнему не должен (MUST NOT) "
        "автоматически повторять неидемпотентные запросы, а клиенту это теперь лишь не следует делать "
        "(SHOULD NOT), если у него нет способа знать, что запрос на деле идемпотентен или что исходный "
        "запрос не был применён"
    ),
)

CLIENT3_CHANGES = (
    "Исправлены две ошибки второй редакции. Первая: в примечании к RFC\u00a07230 говорилось, что его "
    "заменил RFC\u00a09112, где то же требование стоит в §\u00a09.3.1; на деле RFC\u00a07230 заменили вместе "
    "RFC\u00a09110 и RFC\u00a09112, §\u00a09.3.1 RFC\u00a09112 лишь отсылает к §\u00a09.2.2 "
    "RFC\u00a09110, а там запрет для прокси остался (MUST NOT), клиенту же повтор теперь только не "
    "рекомендован (SHOULD NOT); это сказано в тексте, RFC\u00a09110 добавлен в источники. Вторая: "
    "вторая редакция утверждала, что проверка первой редакции «фазы в сумме дают бюджет» провалиться "
    "не могла; новая фикстура запускает модель первой редакции с таймером на каждую попытку, и "
    "проверка проваливается вместе с deadlineNeverExtended: она была лишней, а не непроверяемой. "
    "Кроме того, малые числа и порядковые в тексте из прогонов написаны словами («после второй "
    "попытки», «один раз»), а вывод фикстуры client_intents и абзац после него сокращены, чтобы "
    "статья осталась в пределах длины."
)

# --- Статья -----------------------------------------------------------------

client3_revision = revision(
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
    revised="2026-12-04",
    changes=CLIENT3_CHANGES,
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
            "ключом\u00a0— одна операция. С 2022 года правило в RFC\u00a09110 (§\u00a09.2.2): для прокси "
            "по-прежнему MUST NOT, для клиента\u00a0— SHOULD NOT."
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
        paragraph(client3_budget_text(client3_shown_budget)),
        figure(
            "/assets/retry/intent-budget-timeline.svg",
            alt=client3_figure_alt(client3_shown_budget),
            caption=client_figure_caption(client3_shown_budget),
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
            client_v2.client_budget,
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
            "Новый ключ на каждую попытку даёт два "
            "выполнения, таймер на каждую попытку\u00a0— третью попытку за пределами "
            f"{client_ms(BUDGET_MS)}, правило «пробовать, пока время ещё есть»\u00a0— урезанную третью "
            "попытку вместо честного экрана; мутационные тесты рядом со статьёй проверяют, что во всех "
            "трёх случаях проверки ложны."
        ),
        verified_output(
            client_v2.client_budget,
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
        paragraph(client3_timer_text(client3_shown_timer)),
        verified_output(
            client_first_revision_timer,
            expected={
                "runs": {
                    "freshTimerPerAttempt": {
                        "attempts": 3,
                        "phasesTotalMs": 10900,
                        "firstRevisionChecks": {"deadlineNeverExtended": False, "phasesAddUpToBudget": False},
                    },
                },
                "checks": {"asPublishedPassesBoth": True, "phasesTotalIsTheClock": True},
            },
        ),
        heading("Повторное нажатие узнают по событию, а не по данным"),
        paragraph(client3_identity_text(client3_shown_identity)),
        verified_output(
            client_v2.client_intents,
            expected={
                "distinctKeys": 4,
                "serverEffects": 4,
                "firstRevision": {"serverEffects": 1},
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
        paragraph(client3_identity_after(client3_shown_identity)),
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
            client3_table_rows(client3_shown_table["runs"]),
        ),
        verified_output(
            client_v2.client_observations,
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
    sources=[CLIENT_RFC7231, CLIENT3_RFC7230, CLIENT3_RFC9110, STRIPE_IDEMPOTENCY, STRIPE_ERRORS],
)

revisions = [client3_revision]
