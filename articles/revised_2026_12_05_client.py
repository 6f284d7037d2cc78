"""The quotes of 5 December 2026: the fourth revision of retry-client-one-intent-one-key.

``site-builder check-sources`` can now check that a cited page still says what an article relies
on, if the source quotes it. This revision gives the sources whose sentences the article's
claims rest on their quotes (the definition of an idempotent method in RFC 7231, the retry
requirements of RFC 7230 and RFC 9110, Stripe's comparison of a retry with the original
request), and says in the text what the RFC sentences support. Every other block is the third
revision's (``revised_2026_12_04_client``), kept as written."""

from __future__ import annotations

from _revising import quoting, with_blocks_replaced
from retry_2020_06 import STRIPE_ERRORS, STRIPE_IDEMPOTENCY
from revised_2026_12 import CLIENT_RFC7231
from revised_2026_12_04_client import CLIENT3_RFC7230, CLIENT3_RFC9110, client3_revision

from site_builder import paragraph, revision

# --- Источники с цитатами ------------------------------------------------------

CLIENT4_RFC7231 = quoting(
    CLIENT_RFC7231,
    'A request method is considered "idempotent" if the intended effect on the server of '
    "multiple identical requests with that method is the same as the effect for a single such "
    "request.",
)
CLIENT4_RFC7230 = quoting(
    CLIENT3_RFC7230,
    "A user agent MUST NOT automatically retry a request with a non-idempotent method unless it "
    "has some means to know that the request semantics are actually idempotent, regardless of "
    "the method, or some means to detect that the original request was never applied.",
)
CLIENT4_RFC9110 = quoting(
    CLIENT3_RFC9110,
    "A client SHOULD NOT automatically retry a request with a non-idempotent method unless it "
    "has some means to know that the request semantics are actually idempotent, regardless of "
    "the method, or some means to detect that the original request was never applied.",
)
CLIENT4_STRIPE_IDEMPOTENCY = quoting(
    STRIPE_IDEMPOTENCY,
    "The idempotency layer compares incoming parameters to those of the original request and "
    "errors if they're not the same to prevent accidental misuse.",
)

CLIENT4_CHANGES = (
    "К четырём источникам добавлены цитаты\u00a0— предложения, на которых стоят утверждения статьи: "
    "определение идемпотентного метода из RFC\u00a07231, требование к агенту пользователя из "
    "RFC\u00a07230 (§\u00a06.3.1), требование к клиенту из RFC\u00a09110 (§\u00a09.2.2) и "
    "предложение Stripe о том, что повтор сверяется с параметрами исходного запроса. Абзац о методах "
    "пересказывал требование RFC\u00a07230 без слов «regardless of the method» (независимо от "
    "метода), а именно они делают ключ идемпотентности законным способом знать, что повтор `POST` "
    "безопасен; теперь абзац их приводит и говорит, что RFC\u00a09110 их повторяет. Чтобы статья "
    "осталась в пределах длины, остальной абзац сказан короче."
)

# --- Статья -----------------------------------------------------------------

client4_revision = revision(
    slug=client3_revision.slug,
    title=client3_revision.title,
    categories=list(client3_revision.categories),
    excerpt=client3_revision.excerpt,
    cover=client3_revision.cover,
    published=client3_revision.published,
    revised="2026-12-05",
    changes=CLIENT4_CHANGES,
    lang=client3_revision.lang,
    body=with_blocks_replaced(
        client3_revision.body,
        {
            "HTTP выделяет идемпотентные методы": paragraph(
                "HTTP выделяет идемпотентные методы\u00a0— `PUT`, `DELETE` и безопасные вроде "
                "`GET`\u00a0— потому, что их можно повторить, если связь оборвалась до того, как клиент "
                "прочёл ответ. RFC\u00a07230 (§\u00a06.3.1) запрещает прокси автоматически повторять "
                "неидемпотентные запросы вовсе, а агенту пользователя\u00a0— если нет способа знать, что "
                "семантика запроса на деле идемпотентна «regardless of the method», независимо от "
                "метода, или что исходный запрос не был применён. Эти слова и делают повтор `POST` "
                "законным: ключ идемпотентности\u00a0— такой способ, все запросы с одним ключом\u00a0— "
                "одна операция. RFC\u00a09110 (§\u00a09.2.2) с 2022 года повторяет эти слова: для прокси "
                "по-прежнему MUST NOT, для клиента\u00a0— SHOULD NOT."
            ),
        },
    ),
    sources=[CLIENT4_RFC7231, CLIENT4_RFC7230, CLIENT4_RFC9110, CLIENT4_STRIPE_IDEMPOTENCY, STRIPE_ERRORS],
)

revisions = [client4_revision]
