"""Batch A (2020, English): the first revision of an article two later batches revise, an
article with a raster cover and a table, a fixture batch B shows, and a draft."""

from site_builder import (
    Source,
    chart,
    code_block,
    data_table,
    figure,
    fixture,
    heading,
    markdown,
    paragraph,
    revision,
    transcript,
    verified_output,
)

SOURCES = [
    Source(title="RFC 9110: HTTP Semantics", url="https://www.rfc-editor.org/rfc/rfc9110.html",
           note="which methods are idempotent",
           quote='A request method is considered "idempotent" if the intended effect on the server '
                 "of multiple identical requests with that method is the same as the effect for a "
                 "single such request."),
    Source(title="RFC 3986: URI Generic Syntax", url="https://www.rfc-editor.org/rfc/rfc3986",
           note="relative references & fragments"),
]


@fixture
def answer() -> dict:
    return {"value": 41, "checks": {"isNumber": True}}


@fixture
def budget() -> dict:
    requests, share = 100, 10
    retries = requests * share // 100
    session = ["$ budget --requests 1000 & more", *_budget_command(["--requests", "1000"])]
    rows = [{"requests": n, "retries allowed": n * share // 100} for n in (100, 1000, 10000)]
    return {"retries": retries, "session": session, "rows": rows,
            "checks": {"underTheShare": retries <= requests // 10}}


growing = revision(
    slug="growing-note",
    title="A growing note",
    categories=["HTTP", "Postgres"],
    excerpt="It grows, revision by revision: <one> & «two».",
    cover="/assets/growing/cover.svg",
    published="2020-06-18",
    body=[
        heading("Start"),
        paragraph("The first words of the note: oldword. See [the budget](/articles/retry-basics/#the-budget)"
                  " and [the path below](/articles/growing-note/#the-path)."),
        heading("The path"),
        figure("/assets/growing/path.svg", "Client and server", "The write path."),
        markdown("A photo: ![a blue strip](/assets/growing/photo.png), and [the drawing](/assets/growing/path.svg)."),
        verified_output(answer, expected={"value": 41}),
    ],
    sources=SOURCES,
)

basics = revision(
    slug="retry-basics",
    title="Retry basics",
    categories=["HTTP", "Reliability"],
    excerpt="Cap retries at a share of requests.",
    cover="/assets/basics/cover.png",
    published="2020-01-15",
    body=[
        paragraph("Retries multiply load; a budget keeps them at a share of real traffic."),
        heading("The budget"),
        data_table("Budget", ["Requests", "Retries allowed"], [["100", "10"], ["1000", "100"]]),
        code_block("retries = requests * share // 100", language="python"),
        verified_output(budget, expected={"retries": 10}),
        transcript(budget, """
            $ budget --requests 1000 & more
            retries allowed: 100 <of 1000>
        """, key="session"),
        chart(budget, {"mark": "bar", "encoding": {"x": {"field": "requests", "type": "ordinal"},
                                                    "y": {"field": "retries allowed", "type": "quantitative"}}},
              alt="Retries allowed grow tenfold with requests: 10, 100, 1000",
              caption="The budget at three sizes <of traffic> & more", data="rows"),
        heading("Elsewhere"),
        paragraph("Read [the change log](/articles/growing-note/#history), [every HTTP article](/categories/http/#main),"
                  " [the Korean notes](/articles/hangul-notes/#키-저장소), [the categories](/categories/),"
                  " [the feed](/feed.xml), [the drawing](/assets/growing/path.svg) and [home](/)."),
    ],
    sources=SOURCES,
)

draft = revision(
    slug="draft-note",
    title="A draft note",
    categories=["Drafts only"],
    excerpt="Not yet.",
    published="2020-07-01",
    draft=True,
    body=[
        paragraph("The zanzibarquux words of the draft; see [later](/articles/future-note/#soon)"
                  " and [the growing note](/articles/growing-note/#start)."),
        verified_output(answer, expected={"value": 41}),
    ],
    sources=SOURCES,
)

revisions = [growing, basics, draft]


def _budget_command(argv: list[str]) -> list[str]:
    """What ``budget --requests N`` prints: the retries a 10 % budget allows."""
    requests = int(argv[argv.index("--requests") + 1])
    return [f"retries allowed: {requests * 10 // 100} <of {requests}>"]
