"""A batch that forgot to expose its revisions."""

from site_builder import Source, paragraph, revision

A = Source(title="A", url="https://a.example/", note="a")
B = Source(title="B", url="https://b.example/", note="b")

posts = [
    revision(
        slug="never-listed",
        title="Never listed",
        categories=["Broken"],
        excerpt="The list has the wrong name.",
        published="2024-07-01",
        body=[paragraph("Enough words to pass the tiny limit of this site.")],
        sources=[A, B],
    ),
]
