"""A revision of c_links' link-target in a module that sorts before c_links.py."""

from site_builder import Source, heading, paragraph, revision

revisions = [
    revision(
        slug="link-target",
        title="Link target",
        categories=["Links"],
        excerpt="Headings and ids other pages link to.",
        published="2024-03-01",
        revised="2024-04-01",
        changes="A word more.",
        body=[heading("Retry budget"), paragraph("Enough words to pass the tiny limit, and more.")],
        sources=[Source(title="A", url="https://a.example/", note="a"),
                 Source(title="B", url="https://b.example/", note="b")],
    ),
]
