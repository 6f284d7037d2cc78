"""Source and URL mistakes."""

from site_builder import Markup, Source, markdown, paragraph, revision

A = Source(title="A", url="https://a.example/", note="a")
B = Source(title="B", url="https://b.example/", note="b")
NO_NOTE = Source(title="C", url="https://c.example/")
AGAIN = Source(title="A again", url="https://a.example/", note="the same URL as A")
FTP = Source(title="Files", url="ftp://files.example/spec.txt", note="an FTP mirror")
TEXT = "Enough words to pass the tiny limit of this site."

revisions = [
    revision(
        slug="one-source",
        title="One source",
        categories=["Sources"],
        excerpt="Cites a single source.",
        published="2024-03-01",
        body=[paragraph(TEXT)],
        sources=[A],
    ),
    revision(
        slug="source-mistakes",
        title="Source mistakes",
        categories=["Sources"],
        excerpt="A source without a note, one twice, one over FTP.",
        published="2024-03-02",
        body=[paragraph(TEXT)],
        sources=[A, B, NO_NOTE, AGAIN, FTP],
    ),
    revision(
        slug="url-mistakes",
        title="URL mistakes",
        categories=["Sources"],
        excerpt="Links no browser should follow.",
        published="2024-03-03",
        body=[
            paragraph("Do not [click here](javascript:alert(1)) at all."),
            paragraph("See [the host](//evil.example/page) now."),
            markdown(
                "See [the notes](notes.html) for more.\n\n"
                "And [an old post](/articles/no-such-post/) too."
            ),
            Markup('<a href="vbscript:msgbox(1)">trusted but wrong</a>'),
        ],
        sources=[A, B],
    ),
]
