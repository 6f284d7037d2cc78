"""Batch E (2023): revision 4 of the growing note, still a draft: left out by default, the
latest revision, marked, with --drafts (so its history has four entries and a fourth diff)."""

from a_2020_en import SOURCES

from site_builder import figure, heading, markdown, paragraph, revision

revisions = [
    revision(
        slug="growing-note",
        title="A growing note",
        categories=["HTTP", "Postgres"],
        excerpt="It grows, revision by revision: <one> & «two».",
        cover="/assets/growing/cover.svg",
        published="2020-06-18",
        revised="2023-05-05",
        changes="A fourth revision, still a draft.",
        draft=True,
        body=[
            heading("Start"),
            paragraph("Draft zeppelinword words. See [the budget](/articles/retry-basics/#the-budget)."),
            heading("The path"),
            figure("/assets/growing/path-2022.svg", "Client, log and server", "The write path, drafted."),
            markdown("![a blue strip](/assets/growing/photo.png)"),
        ],
        sources=SOURCES,
    ),
]
