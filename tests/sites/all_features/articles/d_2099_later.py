"""Batch D: a revision scheduled for 2099 (after the tests' SOURCE_DATE_EPOCH), which links to
the draft and to the growing note."""

from a_2020_en import SOURCES

from site_builder import heading, paragraph, revision

revisions = [
    revision(
        slug="future-note",
        title="A note from the future",
        categories=["Later", "HTTP"],
        excerpt="Soon.",
        published="2099-01-01",
        body=[
            heading("Soon"),
            paragraph("The quuxplorer words of the scheduled note: see [the draft](/articles/draft-note/)"
                      " and [the growing note](/articles/growing-note/#start)."),
        ],
        sources=SOURCES,
    ),
]
