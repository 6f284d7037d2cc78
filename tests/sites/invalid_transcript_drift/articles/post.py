from site_builder import Markup, Source, code_block, data_table, figure, fixture, heading, markdown, ordered_list, paragraph, revision, transcript, unordered_list, verified_output

A = Source(title="A", url="https://a.example/", note="a")
B = Source(title="B", url="https://b.example/", note="b")


@fixture
def answer() -> dict:
    return {"transcript": ["$ echo 41", "41"], "checks": {"isAnswer": True}}


revisions = [
    revision(
        slug="sample-post",
        title="Sample",
        categories=["Notes"],
        excerpt="A sample post.",
        published="2024-01-02",
        body=[
            paragraph("Enough words to pass the tiny limit of this site."),
            transcript(answer, "$ echo 41\n42"),
        ],
        sources=[A, B],
    ),
]
