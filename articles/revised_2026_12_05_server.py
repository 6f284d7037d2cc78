"""The quotes of 5 December 2026: the fourth revision of retry-server-idempotency-record.

The sources whose sentences the article's claims about SQLite and Stripe rest on get their
quotes, so ``site-builder check-sources`` can tell when a page stops saying them: the release
notes of SQLite 3.35.0 (``RETURNING``) and 3.37.0 (``sqlite3_changes64()``), the pages on
``UPSERT``, ``RETURNING`` and ``changes()``, and Stripe's sentence on what a key saves. The
paragraph on ``changes()`` says what its quote supports: the function counts rows by the same
rules since it wraps ``sqlite3_changes64()``. Every other block is the third revision's
(``revised_2026_12_04_server``), kept as written."""

from __future__ import annotations

from _revising import quoting, with_blocks_replaced
from retry_2020_06 import BRANDUR_IDEMPOTENCY, POSTGRES_INSERT
from revised_2026_12 import SERVER_SQLITE_3_35_0, SERVER_STRIPE_ERRORS, SERVER_STRIPE_IDEMPOTENCY
from revised_2026_12_04_server import (
    SERVER3_IDEMPOTENCY_KEY_DRAFT,
    SERVER3_RFC7230,
    SERVER3_SQLITE_3_37_0,
    SERVER3_SQLITE_C_CHANGES,
    SERVER3_SQLITE_CHANGES,
    SERVER3_SQLITE_CHRONOLOGY,
    SERVER3_SQLITE_RETURNING,
    SERVER3_SQLITE_UPSERT,
    server3_revision,
)

from site_builder import paragraph, revision

# --- Источники с цитатами ------------------------------------------------------


SERVER4_SQLITE_UPSERT = quoting(
    SERVER3_SQLITE_UPSERT, "UPSERT syntax was added to SQLite with version 3.24.0 (2018-06-04)."
)
SERVER4_SQLITE_RETURNING = quoting(
    SERVER3_SQLITE_RETURNING,
    "The RETURNING syntax has been supported by SQLite since version 3.35.0 (2021-03-12).",
)
SERVER4_SQLITE_3_35_0 = quoting(
    SERVER_SQLITE_3_35_0, "Add support for the RETURNING clause on DELETE, INSERT, and UPDATE statements."
)
SERVER4_SQLITE_CHANGES = quoting(
    SERVER3_SQLITE_CHANGES,
    "The changes() SQL function is a wrapper around the sqlite3_changes64() C/C++ function and hence "
    "follows the same rules for counting changes.",
)
SERVER4_SQLITE_3_37_0 = quoting(
    SERVER3_SQLITE_3_37_0, "Added new sqlite3_changes64() and sqlite3_total_changes64() interfaces."
)
SERVER4_STRIPE_IDEMPOTENCY = quoting(
    SERVER_STRIPE_IDEMPOTENCY,
    "Stripe's idempotency works by saving the resulting status code and body of the first request "
    "made for any given idempotency key, regardless of whether it succeeds or fails.",
)

SERVER4_RFC7230 = quoting(SERVER3_RFC7230, "A proxy MUST NOT automatically retry non-idempotent requests.")

SERVER4_CHANGES_NOTE = (
    "К семи источникам добавлены цитаты\u00a0— предложения, на которых стоят утверждения статьи: "
    "с какой версии в SQLite есть `UPSERT` (3.24.0) и `RETURNING` (3.35.0, со страницы `RETURNING` и "
    "из списка изменений выпуска); что `changes()` обёртывает `sqlite3_changes64()` и считает строки "
    "по его правилам; что выпуск\u00a03.37.0 добавил `sqlite3_changes64()`; что Stripe сохраняет по "
    "ключу статус и тело первого ответа, успешен он или нет; что RFC\u00a07230 (§\u00a06.3.1) "
    "запрещает прокси автоматически повторять неидемпотентные запросы. Абзац о `changes()` теперь "
    "говорит, что подкрепляет его цитата: раз `changes()` обёртывает `sqlite3_changes64()`, строки она "
    "считает по тем же правилам, и для модели важно только это."
)

# --- Статья 2, редакция 4 --------------------------------------------------

server4_revision = revision(
    slug=server3_revision.slug,
    title=server3_revision.title,
    categories=list(server3_revision.categories),
    excerpt=server3_revision.excerpt,
    cover=server3_revision.cover,
    published=server3_revision.published,
    revised="2026-12-05",
    changes=SERVER4_CHANGES_NOTE,
    lang=server3_revision.lang,
    body=with_blocks_replaced(
        server3_revision.body,
        {
            "тот же вопрос задают вторым оператором": paragraph(
                "Без `RETURNING` тот же вопрос задают вторым оператором. `changes()` возвращает, сколько "
                "строк изменил последний завершённый `INSERT`, `UPDATE` или `DELETE` этого соединения: "
                "`1` после вставки значит «ключ мой», `0`\u00a0— сработал `DO NOTHING`. С перехватом так "
                "же: условный `UPDATE`, затем `changes()`. Счётчик свой у каждого соединения: спрашивать "
                "его надо тем же соединением сразу после оператора. Речь о SQLite июня 2020\u00a0года "
                "(3.32.3), где `changes()`\u00a0— обёртка над `sqlite3_changes()`. С\u00a03.37.0 "
                "(ноябрь\u00a02021) это обёртка над `sqlite3_changes64()`, и потому, как пишет SQLite, "
                "считает строки по тем же правилам; от `sqlite3_changes()` та отличается лишь "
                "типом результата. Для одной строки это те же `0` и `1`."
            ),
        },
    ),
    sources=[
        POSTGRES_INSERT,
        SERVER4_SQLITE_UPSERT,
        SERVER4_SQLITE_RETURNING,
        SERVER4_SQLITE_3_35_0,
        SERVER4_SQLITE_CHANGES,
        SERVER4_SQLITE_3_37_0,
        SERVER3_SQLITE_C_CHANGES,
        SERVER3_SQLITE_CHRONOLOGY,
        SERVER4_STRIPE_IDEMPOTENCY,
        SERVER_STRIPE_ERRORS,
        SERVER3_IDEMPOTENCY_KEY_DRAFT,
        SERVER4_RFC7230,
        BRANDUR_IDEMPOTENCY,
    ],
)

revisions = [server4_revision]
