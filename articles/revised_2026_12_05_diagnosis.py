"""The quotes of 5 December 2026: the fourth revision of retry-diagnosis-lost-response.

The sources whose sentences the article's claims rest on get their quotes, so
``site-builder check-sources`` can tell when a page stops saying them: why RFC 7231 sets
idempotent methods apart, the user-agent requirement of RFC 7230 §6.3.1, where Stripe puts a
request's identifier and what Stripe saves under a key. The paragraph on what HTTP admits says
what the RFC 7230 quote supports, with the words "regardless of the method" its paraphrase had
left out, as the client article's fourth revision does. Every other block is the third
revision's (``revised_2026_12_04_diagnosis``), kept as written."""

from __future__ import annotations

from _revising import quoting, with_blocks_replaced
from retry_2020_06 import STRIPE_REQUEST_IDS
from revised_2026_12_04_diagnosis import DIAGNOSIS3_RFC7231, diagnosis3_revision
from revised_2026_12_04_server import SERVER3_IDEMPOTENCY_KEY_DRAFT, SERVER3_RFC7230
from revised_2026_12_05_client import CLIENT4_RFC7230
from revised_2026_12_05_server import SERVER4_STRIPE_IDEMPOTENCY

from site_builder import paragraph, revision

# --- Источники с цитатами ------------------------------------------------------

DIAGNOSIS4_RFC7231 = quoting(
    DIAGNOSIS3_RFC7231,
    "Idempotent methods are distinguished because the request can be repeated automatically if a "
    "communication failure occurs before the client is able to read the server's response.",
)
DIAGNOSIS4_RFC7230 = quoting(SERVER3_RFC7230, CLIENT4_RFC7230.quote)
DIAGNOSIS4_STRIPE_REQUEST_IDS = quoting(
    STRIPE_REQUEST_IDS,
    "Each API request has an associated request identifier. You can find this value in the response "
    "headers, under Request-Id.",
)

DIAGNOSIS4_CHANGES_NOTE = (
    "К четырём источникам добавлены цитаты\u00a0— предложения, на которых стоят утверждения статьи: "
    "почему RFC\u00a07231 выделяет идемпотентные методы, требование к агенту пользователя из "
    "RFC\u00a07230 (§\u00a06.3.1), где Stripe отдаёт идентификатор запроса и что Stripe сохраняет по "
    "ключу. Абзац о том, что HTTP признаёт неоднозначность, пересказывал требование RFC\u00a07230 без "
    "слов «regardless of the method» (независимо от метода); теперь они в тексте, как в четвёртой "
    "редакции статьи о клиенте: именно они делают ключ и запись способом знать, что повтор безопасен."
)

# --- Статья 3, редакция 4 --------------------------------------------------

diagnosis4_revision = revision(
    slug=diagnosis3_revision.slug,
    title=diagnosis3_revision.title,
    categories=list(diagnosis3_revision.categories),
    excerpt=diagnosis3_revision.excerpt,
    cover=diagnosis3_revision.cover,
    published=diagnosis3_revision.published,
    revised="2026-12-05",
    changes=DIAGNOSIS4_CHANGES_NOTE,
    lang=diagnosis3_revision.lang,
    body=with_blocks_replaced(
        diagnosis3_revision.body,
        {
            "HTTP эту неоднозначность признаёт.": paragraph(
                "HTTP эту неоднозначность признаёт. RFC\u00a07231 выделяет идемпотентные методы потому, "
                "что их можно повторить, если связь оборвалась до того, как клиент прочитал ответ. "
                "RFC\u00a07230 (§\u00a06.3.1) запрещает агенту автоматически повторять неидемпотентный "
                "запрос, если нет способа узнать, что он на деле идемпотентен «regardless of the "
                "method», независимо от метода, или что исходный запрос не был применён. Ключ и запись "
                "из второй части и есть такой способ; без них третий исход от первого не отличить. "
                "Прокси тот же раздел не разрешает автоматически повторять такие запросы вовсе, но "
                "вопреки RFC\u00a07230 некоторые прокси и HTTP-библиотеки так делают, и тогда на сервер "
                "приходит повтор, которого клиент не посылал."
            ),
        },
    ),
    sources=[
        DIAGNOSIS4_RFC7231,
        DIAGNOSIS4_RFC7230,
        DIAGNOSIS4_STRIPE_REQUEST_IDS,
        SERVER4_STRIPE_IDEMPOTENCY,
        SERVER3_IDEMPOTENCY_KEY_DRAFT,
    ],
)

revisions = [diagnosis4_revision]
