"""Links to #fragments, checked against the ids each page will have."""

from site_builder import Markup, Source, heading, markdown, paragraph, revision

A = Source(title="A", url="https://a.example/", note="a")
B = Source(title="B", url="https://b.example/", note="b")

revisions = [
    revision(
        slug="link-target",
        title="Link target",
        categories=["Links"],
        excerpt="Headings and ids other pages link to.",
        published="2024-03-01",
        body=[
            heading("Retry budget"),
            Markup('<p id="kept-id">An id written in trusted HTML.</p>'),
            paragraph(
                "Fine: [the budget](#retry-budget), [the id](#kept-id), [the text](#main), "
                "[the sources](#sources)."
            ),
            paragraph("Broken: [a heading that is not there](#no-such-heading)."),
        ],
        sources=[A, B],
    ),
    revision(
        slug="link-source",
        title="Link source",
        categories=["Links"],
        excerpt="Links into another article and the home page.",
        published="2024-03-02",
        body=[
            paragraph("Fine: [its budget](/articles/link-target/#retry-budget)."),
            markdown(
                "A typo: [the budget](/articles/link-target/#retry-budgte).\n\n"
                "The home page: [search](/#search), [nothing](/#nothing)."
            ),
            Markup('<p>Trusted HTML: <a href="#nowhere">a missing id</a>.</p>'),
        ],
        sources=[A, B],
    ),
]
