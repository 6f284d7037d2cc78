"""Documentation: what site_builder is and how these pages are checked."""

from _tool import article, session, site

from site_builder import (
    Source,
    code_block,
    fixture,
    heading,
    paragraph,
    revision,
    transcript,
    unordered_list,
)


@fixture
def a_valid_site() -> dict:
    """Validate a site of one article and report what the command says."""
    ran = session(site({"articles/demo.py": article()}), ["validate"])
    return {
        "transcript": ran.lines,
        "checks": {"exitsWithZero": ran.codes == [0], "saysOk": ran.lines[-1].startswith("ok:")},
    }


@fixture
def a_wrong_date() -> dict:
    """The same site with an impossible date: the problem is reported at the author's line."""
    source = article().replace('published="2026-12-01"', 'published="2026-02-30"')
    ran = session(site({"articles/demo.py": source}), ["validate"])
    return {
        "transcript": ran.lines,
        "checks": {
            "exitsWithOne": ran.codes == [1],
            "namesTheFile": ran.lines[1].startswith("articles/demo.py:"),
        },
    }


overview = revision(
    slug="overview",
    title="What site_builder is",
    categories=["Guide"],
    excerpt="A static site generator for technical writing whose printed results are checked by code.",
    published="2026-12-01",
    body=[
        paragraph(
            "site_builder turns articles written as Python data into a static web site: "
            "an index, a page per article and per category, an Atom feed, a sitemap, a "
            "search index and a JSON file of every revision for the systems that import "
            "them. What sets it apart from Hugo, MkDocs or Pelican is how much it checks "
            "before anything is published."
        ),
        unordered_list(
            [
                "**Text is escaped by default.** An article's text goes through helpers "
                "(`paragraph`, `heading`, `code_block`, …) that treat what you type as text; "
                "a stray `&` or `<` can never break a page.",
                "**Every article is validated**: its length, its sources, its links, its "
                "figures and their alternative text, its dates. Every problem of the whole "
                "site is reported in one run, each at the file and line where you wrote it.",
                "**Results are computed, not typed.** A number or an output an article prints "
                "comes from a *fixture*, a small deterministic function next to the article; "
                "if the function no longer returns what the page says, nothing is built.",
                "**Corrections are public.** A published article is never edited in place: a "
                "later revision corrects it, with its date and a note of what changed, and "
                "readers get the history, every earlier text and what each correction changed "
                "([Correcting an article](/articles/revisions-over-time/)).",
                "**A build is atomic.** A site that fails to build leaves the previous one "
                "exactly as it was.",
            ]
        ),
        heading("What a check looks like"),
        paragraph(
            "A site is a folder with a `pyproject.toml` (its settings) and an `articles/` "
            "folder of Python modules. Here is what `site-builder validate` says about a site "
            "of one valid article — this output, like every output in this documentation, is "
            "produced by running the tool while the documentation is built:"
        ),
        transcript(
            a_valid_site,
            """
            $ site-builder validate
            ok: 1 revision valid, 0 fixtures passed
            """,
        ),
        paragraph(
            "Change its publication date to a day that does not exist and the same command "
            "exits with 1 and names the file, the line, the article and the problem:"
        ),
        transcript(
            a_wrong_date,
            """
            $ site-builder validate
            articles/demo.py:9: demo: published '2026-02-30' is not an ISO date like 2020-06-18
            1 problem found
            """,
        ),
        heading("How these pages are checked"),
        paragraph(
            "This documentation is itself a site built by site_builder (its source is the "
            "`docs/` folder of the project). Each block of output you read here is a "
            "`verified_output`, or a `transcript` of a terminal session: the fixture behind it "
            "builds or validates a small site in a "
            "temporary folder with the real tool, and the documentation does not build if "
            "the tool's output ever differs from what the page shows. When a message of the "
            "tool changes, the page that quotes it has to change too."
        ),
        code_block("site-builder build --root docs", language="sh"),
        paragraph(
            "Read on in order — the sidebar follows the path of a new user, from starting a "
            "site to deploying it — or jump to the reference pages for the exact markup of "
            "each helper, every validation rule and every command."
        ),
    ],
    sources=[
        Source(
            title="Hugo: Quick start",
            url="https://gohugo.io/getting-started/quick-start/",
            note="the peer most users come from",
        ),
    ],
)

revisions = [overview]
