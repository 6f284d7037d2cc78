"""An English article (lang "en"): the oldest of the three."""

from site_builder import Source, data_table, heading, paragraph, revision

AWS = Source(title="Timeouts, retries and backoff with jitter",
             url="https://aws.amazon.com/builders-library/timeouts-retries-and-backoff-with-jitter/",
             note="retry budgets & jitter")
SRE = Source(title="Site Reliability Engineering: Handling Overload",
             url="https://sre.google/sre-book/handling-overload/", note="client-side throttling")

revisions = [
    revision(
        slug="retry-budget",
        title="A retry budget for \"safe\" clients",
        categories=["HTTP", "Reliability"],
        excerpt="Cap retries at a share of requests: <10% & no storms.",
        published="2020-01-15",
        lang="en",
        body=[
            paragraph("Retries multiply load; a budget keeps them at a share of real traffic."),
            heading("The budget"),
            data_table("Budget", ["Requests", "Retries allowed"], [["100", "10"], ["1000", "100"]]),
        ],
        sources=[AWS, SRE],
    ),
]
