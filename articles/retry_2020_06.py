"""Повтор без второго эффекта, часть первая: сторона клиента.

Модель ниже — тот клиент, о котором говорит статья: намерение получает ключ до
первой попытки, попытки несут один и тот же ключ, у намерения один дедлайн.
Сети и часов нет: время — целые миллисекунды, ответы сервера теряются на
обратном пути, поэтому каждая попытка кончается тайм-аутом после отправки.
"""

from __future__ import annotations

import inspect
import textwrap
from dataclasses import dataclass, field

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
    return "\n\n".join(textwrap.dedent(inspect.getsource(obj)).strip() for obj in objects)


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

revisions = [the_revision]
