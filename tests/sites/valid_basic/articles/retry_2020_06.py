"""A retried POST that has one effect, backed by a fixture."""

from site_builder import (Source, code_block, data_table, figure, fixture, heading, paragraph, revision,
                          verified_output)

RFC9110 = Source(title="RFC 9110: HTTP Semantics", url="https://www.rfc-editor.org/rfc/rfc9110.html",
                 note="defines which methods are idempotent")
KEYS = Source(title="Idempotency-Key header draft",
              url="https://datatracker.ietf.org/doc/draft-ietf-httpapi-idempotency-key-header/",
              note="a key makes a POST safe to retry")


@fixture
def lost_response() -> dict:
    seen: dict[str, int] = {}
    for key in ("k1", "k1"):
        seen[key] = seen.get(key, 0) + 1
    effects = len(seen)
    return {"effects": effects, "checks": {"onlyOneEffect": effects == 1, "retryReplayed": seen["k1"] == 2}}


practice = revision(
    slug="retry-without-second-effect",
    title="A retry without a second effect",
    categories=["HTTP", "Backend"],
    excerpt="Make a retried POST take effect once.",
    cover="/assets/retry/cover.svg",
    published="2020-06-18",
    body=[
        paragraph("A `POST` is not idempotent by itself; a key makes a retry safe."),
        heading("The request path"),
        figure("/assets/retry/request-path.svg", "Client, proxy and server in a row.", "The request path."),
        code_block("INSERT INTO effects (key) VALUES ('k1') ON CONFLICT DO NOTHING;", language="sql"),
        data_table("Attempts", ["Attempt", "Effect"], [["first", 1], ["retry", 0]]),
        verified_output(lost_response, expected={"effects": 1}),
    ],
    sources=[RFC9110, KEYS],
)

revisions = [practice]
