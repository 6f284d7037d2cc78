"""A second batch: a short note linking back to the first article."""

from site_builder import Source, ordered_list, paragraph, revision

MDN = Source(title="MDN: Idempotent", url="https://developer.mozilla.org/en-US/docs/Glossary/Idempotent",
             note="the term in one page")
RFC9110 = Source(title="RFC 9110: HTTP Semantics", url="https://www.rfc-editor.org/rfc/rfc9110.html",
                 note="section 9.2.2")

revisions = [
    revision(
        slug="idempotency-checklist",
        title="An idempotency checklist",
        categories=["HTTP"],
        excerpt="Three questions before retrying.",
        published="2021-01-05",
        lang="en",
        body=[
            paragraph("Read [the first article](/articles/retry-without-second-effect/) before this one."),
            ordered_list(["Is the method idempotent?", "Is there a key?", "Is the response replayed?"]),
        ],
        sources=[MDN, RFC9110],
    ),
]
