"""A batch that fails to import: a misspelt helper name."""

from site_builder import Source, paragraph, revision

A = Source(title="A", url="https://a.example/", note="a")
B = Source(title="B", url="https://b.example/", note="b")

revisions = [
    revision(
        slug="broken-batch",
        title="Broken",
        categories=["Broken"],
        excerpt="Never loaded.",
        published="2024-04-01",
        body=[
            paragraph("Enough words to pass the tiny limit of this site."),
            paragrap("A misspelt helper stops the import here."),
        ],
        sources=[A, B],
    ),
]
