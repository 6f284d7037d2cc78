"""An article and a correction dated the same day without its time."""

from site_builder import Source, paragraph, revision

SOURCES = [Source(title="A", url="https://a.example/", note="a"), Source(title="B", url="https://b.example/", note="b")]

revisions = [
    revision(
        slug="same-day",
        title="Same day",
        categories=["Links"],
        excerpt="Corrected the day it appeared.",
        published="2024-05-01",
        body=[paragraph("Enough words to pass the tiny limit, and more.")],
        sources=SOURCES,
    ),
    revision(
        slug="same-day",
        title="Same day",
        categories=["Links"],
        excerpt="Corrected the day it appeared.",
        published="2024-05-01",
        revised="2024-05-01",
        changes="A word more.",
        body=[paragraph("Enough words to pass the tiny limit, and a few more.")],
        sources=SOURCES,
    ),
]
