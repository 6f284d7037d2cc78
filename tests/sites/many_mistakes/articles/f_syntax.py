"""A batch with a syntax error: an unclosed call."""

from site_builder import Source, paragraph, revision

A = Source(title="A", url="https://a.example/", note="a")

revisions = [
    revision(
        slug="syntax-error",
        title="Syntax",
        categories=["Broken"],
        excerpt="Never parsed."
        published="2024-06-01",
        body=[paragraph("Enough words to pass the tiny limit of this site.")],
        sources=[A, A],
    ),
]
