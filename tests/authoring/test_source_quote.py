"""A source's ``quote``: the passage of the cited page that backs the claim, shown to readers
under the source as a quotation, given to importers in the revisions JSON, and checked at the
``Source(`` line when it is no text. The expected bytes are written out by hand."""

from __future__ import annotations

import json

import jsonschema
import pytest

from site_builder import Source, paragraph, revision
from site_builder.authoring.body import content_html
from site_builder.render.revisions_json import schema
from tests.support.sites import HEADER, MakeSite, RunCli

QUOTED = Source(
    title="RFC 9110",
    url="https://www.rfc-editor.org/rfc/rfc9110.html?x=1&y=2",
    note="idempotent methods",
    quote='PUT, DELETE, and safe request methods are idempotent & "retryable" <sic>.',
)
PLAIN = Source(title="SQLite", url="https://sqlite.org/lang_upsert.html", note="upsert")


def _content(*sources: Source) -> str:
    rev = revision(
        slug="quoted",
        title="Quoted",
        categories=["HTTP"],
        excerpt="x",
        published="2024-01-01",
        lang="en",
        body=[paragraph("Body.")],
        sources=list(sources),
    )
    return content_html(rev, "Sources", "en")


def test_a_quote_is_a_quotation_under_its_source_citing_its_address() -> None:
    assert _content(QUOTED, PLAIN) == (
        "<p>Body.</p>\n<h2>Sources</h2>\n"
        '<ul><li><a href="https://www.rfc-editor.org/rfc/rfc9110.html?x=1&amp;y=2" target="_blank" '
        'rel="noopener noreferrer">RFC 9110</a> — idempotent methods'
        '<blockquote cite="https://www.rfc-editor.org/rfc/rfc9110.html?x=1&amp;y=2">'
        "PUT, DELETE, and safe request methods are idempotent &amp; &quot;retryable&quot; &lt;sic&gt;."
        "</blockquote></li>"
        '<li><a href="https://sqlite.org/lang_upsert.html" target="_blank" rel="noopener noreferrer">'
        "SQLite</a> — upsert</li></ul>"
    )


def _site(quote: str) -> str:
    """A batch whose second source is written on line 12 with ``quote`` (Python source text)."""
    return (
        HEADER
        + """
revisions = [revision(
    slug="quoted-source", title="Quoted", categories=["HTTP"], excerpt="One effect.",
    published="2024-01-02",
    body=[paragraph("Enough words to pass the tiny limit of this test site.")],
    sources=[
        Source(title="A", url="https://a.example/", note="a"),
        Source(title="B", url="https://b.example/", note="b",
"""
        + f"               quote={quote}),\n"
        + "    ],\n)]\n"
    )


def test_the_json_gives_the_quote_and_leaves_the_key_out_without_one(
    make_site: MakeSite, run_cli: RunCli
) -> None:
    root = make_site({"articles/quoted.py": _site('"Each key is applied once."')})
    result = run_cli(["revisions", "--root", str(root)])
    assert result.code == 0, result.err
    (data,) = json.loads(result.out)
    assert data["sources"] == [
        {"title": "A", "url": "https://a.example/", "note": "a"},
        {"title": "B", "url": "https://b.example/", "note": "b", "quote": "Each key is applied once."},
    ]
    jsonschema.validate([data], schema())
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate([{**data, "sources": [{**data["sources"][1], "quote": ""}]}], schema())


def test_the_built_page_shows_the_quote_as_text(make_site: MakeSite, run_cli: RunCli) -> None:
    root = make_site({"articles/quoted.py": _site('"a <b>bold</b> & claim"')})
    assert run_cli(["build", "--root", str(root)]).code == 0
    page = (root / "build/articles/quoted-source/index.html").read_text("utf-8")
    assert '<blockquote cite="https://b.example/">a &lt;b&gt;bold&lt;/b&gt; &amp; claim</blockquote>' in page


@pytest.mark.parametrize(
    ("quote", "message"),
    [
        ("42", "source 2 quote must be text, not int"),
        ('"   "', "source 2 quote is only spaces; leave quote out to quote nothing"),
    ],
    ids=["not-text", "only-spaces"],
)
def test_a_quote_that_is_no_text_is_a_problem_at_its_source(
    make_site: MakeSite, run_cli: RunCli, quote: str, message: str
) -> None:
    root = make_site({"articles/quoted.py": _site(quote)})
    result = run_cli(["validate", "--root", str(root)])
    assert result.code == 1
    assert result.err.splitlines()[0] == f"articles/quoted.py:11: quoted-source: {message}"


def test_a_misspelt_quote_keyword_names_quote(make_site: MakeSite, run_cli: RunCli) -> None:
    text = _site('"x"').replace("quote=", "qoute=")
    result = run_cli(["validate", "--root", str(make_site({"articles/quoted.py": text}))])
    assert result.code == 1
    assert result.err.splitlines()[0] == (
        "articles/quoted.py:11: quoted-source: source 2 has no field 'qoute'; did you mean 'quote'?"
    )
