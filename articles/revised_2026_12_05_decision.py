"""The quotes of 5 December 2026: the fourth revision of retry-decision-one-question.

The sources whose sentences the article's claims rest on get their quotes, so
``site-builder check-sources`` can tell when a page stops saying them: RFC 7231's definition
of an idempotent method, the Amazon Builders' Library's view of retrying APIs with side
effects, and Stripe's sentence on a key reused after it was pruned. The paragraph on RFC 7231
says what its quote says and the paraphrase had left out: the effect that must be the same is
the effect on the server. Every other block is the third revision's
(``revised_2026_12_04_decision``), kept as written."""

from __future__ import annotations

import retry_decision as decision_v1
from _revising import quoting, with_blocks_replaced
from revised_2026_12 import _DECISION_RECHECK, DECISION_STRIPE_KEYS
from revised_2026_12_04_decision import decision3_revision

from site_builder import paragraph, revision

# --- 출처와 인용 ------------------------------------------------------------------

DECISION4_AWS_BACKOFF = quoting(
    decision_v1.AWS_BACKOFF,
    "In general, our view is that APIs with side effects aren't safe to retry unless they provide "
    "idempotency.",
)
DECISION4_RFC7231 = quoting(
    decision_v1.RFC7231,
    'A request method is considered "idempotent" if the intended effect on the server of multiple '
    "identical requests with that method is the same as the effect for a single such request.",
)
DECISION4_STRIPE_KEYS = quoting(
    DECISION_STRIPE_KEYS, "We generate a new request if a key is reused after the original is pruned."
)

DECISION4_CHANGES = (
    "세 출처에 글의 주장이 기대는 문장을 인용으로 붙였다. RFC\u00a07231의 멱등 정의, 부작용이 있는 "
    "API는 멱등성을 제공하지 않는 한 재시도하기에 안전하지 않다는 AWS의 견해, 원래 요청이 지워진 "
    "뒤 같은 키를 다시 쓰면 새 요청이 만들어진다는 Stripe의 설명이다. RFC\u00a07231을 옮긴 문단은 "
    "정의의 “on the server”를 빠뜨렸는데, 같아야 하는 것은 서버에 미치는 의도된 효과다. 이제 "
    "본문이 그렇게 말한다."
)

# --- 글, 넷째 판 -------------------------------------------------------------

decision4_revision = revision(
    slug=decision3_revision.slug,
    title=decision3_revision.title,
    categories=list(decision3_revision.categories),
    excerpt=decision3_revision.excerpt,
    cover=decision3_revision.cover,
    published=decision3_revision.published,
    revised="2026-12-05",
    changes=DECISION4_CHANGES,
    lang=decision3_revision.lang,
    body=with_blocks_replaced(
        decision3_revision.body,
        {
            "RFC 7231은 같은 요청을": paragraph(
                "RFC 7231은 같은 요청을 여러 번 보냈을 때 서버에 미치는 의도된 효과가 한 번 보낸 "
                "효과와 같으면 그 메서드를 멱등이라 부르고, 그래서 응답을 읽기 전에 통신이 끊기면 "
                "요청을 자동으로 다시 보낼 수 있다고 설명한다. AWS의 글도 부작용이 있는 API는 "
                "멱등성을 제공하지 않는 한 재시도하기에 안전하지 않다고 본다. 워커에게 이 성질은 "
                "HTTP 메서드가 아니라 커넥터의 약속이다. 멱등성 키를 쓰든 상대 쪽의 자연 키를 쓰든 "
                "방법은 커넥터가 고르고, “두 번 보내도 지시는 하나”라고 선언한 커넥터만 실패한 "
                "지시를 다시 받는다. `again`의 재전송도, `after_fix`의 "
                f"{_DECISION_RECHECK} 확인도 이 규칙을 따른다."
            ),
        },
    ),
    sources=[DECISION4_AWS_BACKOFF, decision_v1.SRE_CASCADING, DECISION4_RFC7231, DECISION4_STRIPE_KEYS],
)

revisions = [decision4_revision]
