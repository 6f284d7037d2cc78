"""Helper-call and source mistakes: each is reported at the line of the call."""

from site_builder import (Source, code_block, data_table, figure, markdown, paragraph, revision,
                          unordered_list)

A = Source(title="A", url="https://a.example/", note="a")
B = Source(title="B", url="https://b.example/", note="b")
NO_NOTE = Source(title="C", url="https://c.example/")
FTP = Source(title="Files", url="ftp://files.example/spec.txt", note="an FTP mirror")
TEXT = "Enough words to pass the tiny limit of this site."

revisions = [
    revision(
        slug="helper-mistakes",
        title="Helper mistakes",
        categories=["Helpers"],
        excerpt="Every helper misused once.",
        published="2024-02-01",
        body=[
            paragraph(TEXT),
            figure("/assets/pic.svg", "", "A picture without alt text."),
            data_table("Sizes", ["Name", "Size"], [["a", 1], ["b"]]),
            code_block("print(1)", language="c plus plus"),
            paragraph("Do not [click here](javascript:alert(1)) at all."),
            markdown(
                "An [old post](/articles/no-such-post/) is gone."
            ),
            paragraph(42),
            unordered_list([]),
            code_block("print(1)", lang="python"),
        ],
        sources=[A, B, NO_NOTE, FTP, Source(titel="D", url="https://d.example/", note="d")],
    ),
    revision(
        slug="shared",
        title="Second use of a slug",
        categories=["Helpers"],
        excerpt="A slug a_fields used first.",
        published="2024-02-02",
        body=[paragraph(TEXT)],
        sources=[A, B],
    ),
]
