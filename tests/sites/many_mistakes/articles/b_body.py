"""Body mistakes: helpers given the wrong thing, limits, figures, tables."""

from site_builder import (Source, code_block, data_table, figure, heading, paragraph, revision,
                          unordered_list)

A = Source(title="A", url="https://a.example/", note="a")
B = Source(title="B", url="https://b.example/", note="b")
TEXT = "Enough words to pass the tiny limit of this site."
LONG = "This sentence is long enough to be repeated until the body is over the limit. " * 5

revisions = [
    revision(
        slug="shared-slug",
        title="Second use of a slug",
        categories=["Body"],
        excerpt="Reuses a slug of a_meta.",
        published="2024-02-01",
        body=[paragraph(TEXT)],
        sources=[A, B],
    ),
    revision(
        slug="short-body",
        title="Short",
        categories=["Body"],
        excerpt="Too short.",
        published="2024-02-02",
        body=[heading("Short")],
        sources=[A, B],
    ),
    revision(
        slug="long-body",
        title="Long",
        categories=["Body"],
        excerpt="Too long.",
        published="2024-02-03",
        body=[paragraph(LONG)],
        sources=[A, B],
    ),
    revision(
        slug="helper-mistakes",
        title="Helpers",
        categories=["Body"],
        excerpt="Every helper misused once.",
        cover="/images/cover.svg",
        published="2024-02-04",
        body=[
            paragraph(TEXT),
            figure("/assets/figures/square.svg", "", "A square."),
            figure("/assets/figures/square.svg", "A square.", " "),
            figure("/assets/figures/circle.svg", "A circle.", "A circle."),
            data_table("Sizes", ["Name", "Size"], [["a", 1], ["b"]]),
            paragraph(42),
            "A plain string is not a block.",
            code_block("print(1)", language="c plus plus"),
            unordered_list([]),
        ],
        sources=[A, B],
    ),
    revision(
        slug="body-not-a-list",
        title="Body not a list",
        categories=["Body"],
        excerpt="The body is one block, not a list.",
        published="2024-02-05",
        body=paragraph(TEXT),
        sources=[A, B],
    ),
]
