"""The quote of 5 December 2026: the third revision of retry-spec-read-as-a-test.

The article's last paragraph rests on one sentence of RFC 9110 §10.2.3: ``Retry-After`` is the
server saying how long the client ought to wait, whatever the client's own schedule allows. The
source now quotes it, so ``site-builder check-sources`` can tell when the page stops saying it,
and the paragraph says so in its own words. Every other block is the second revision's
(``revised_2026_12``, the ``spec_`` part), kept as written, and so are the other sources."""

from __future__ import annotations

import retry_spec as spec_v1
from _revising import quoting, with_blocks_replaced
from revised_2026_12 import SPEC_REPORT, spec_revision

from site_builder import paragraph, revision

SPEC3_RFC9110_RETRY_AFTER = quoting(
    spec_v1.RFC9110_RETRY_AFTER,
    'Servers send the "Retry-After" header field to indicate how long the user agent ought to wait '
    "before making a follow-up request.",
)

SPEC3_CHANGES = (
    "The RFC 9110 source quotes the sentence the last paragraph rests on: a server sends "
    "`Retry-After` to say how long the client ought to wait. The paragraph now says that in its "
    "own words, which is why the wait can exceed `maxDelay` or the budget left: the server sets "
    "it, not the handler's schedule."
)

spec3_revision = revision(
    slug=spec_revision.slug,
    title=spec_revision.title,
    categories=list(spec_revision.categories),
    excerpt=spec_revision.excerpt,
    cover=spec_revision.cover,
    published=spec_revision.published,
    revised="2026-12-05",
    changes=SPEC3_CHANGES,
    lang=spec_revision.lang,
    body=with_blocks_replaced(
        spec_revision.body,
        {
            "Its delay clauses collide in": paragraph(
                f"Its delay clauses collide in {SPEC_REPORT['delayClausesCollide']} of them, and there "
                "the spec's owner can rank the clauses, as above, or reject those configurations at "
                "load time. The failure clause has no such way out, since it fails in every "
                "configuration: it has to be reworded, for instance as “`OperationFailed` if and only "
                "if the last allowed attempt failed”. Leaving either choice to whoever writes the loop "
                "is the only wrong answer. The question returns with the next input: an HTTP "
                "`Retry-After` is the server saying how long to wait, not the handler's schedule, so "
                "it may ask for more than `maxDelay` or than the budget has left (gRPC's pushback, for "
                "one, never adds attempts beyond `maxAttempts`). Decide before the first 503, and "
                "write the decision down as a check."
            ),
        },
    ),
    sources=[spec_v1.AWS_BUILDERS, spec_v1.AWS_JITTER, spec_v1.GRPC_A6, SPEC3_RFC9110_RETRY_AFTER],
)

revisions = [spec3_revision]
