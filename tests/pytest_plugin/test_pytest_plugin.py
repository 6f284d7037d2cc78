"""The pytest plugin: a site's revisions and fixtures as test items."""

from __future__ import annotations

import pytest

from site_builder.cli import main
from tests.support.sites import HEADER, SETTINGS

GOOD = (
    HEADER
    + """
@fixture
def counts() -> dict:
    return {"effects": 1, "checks": {"oneEffect": True}}

@fixture
def broken() -> dict:
    return {"checks": {"oneEffect": False}}

SOURCES = [Source(title="A", url="https://a.example/", note="a"),
           Source(title="B", url="https://b.example/", note="b")]

good = revision(
    slug="good-post", title="Good", categories=["Notes"], excerpt="Fine.", published="2024-01-02",
    body=[paragraph("Enough words to pass the tiny limit of this site."),
          verified_output(counts, expected={"effects": 1})],
    sources=SOURCES,
)

drifting = revision(
    slug="drifting-post", title="Drift", categories=["Notes"], excerpt="Drifts.", published="2024-01-03",
    body=[paragraph("Enough words to pass the tiny limit of this site."),
          verified_output(counts, expected={"effects": 2})],
    sources=SOURCES,
)

short = revision(
    slug="short-post", title="Short", categories=["Notes"], excerpt="Too short.", published="2024-01-04",
    body=[paragraph("Tiny.")],
    sources=SOURCES,
)
revisions = [good, drifting, short]
"""
)


@pytest.fixture
def site(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makefile(".toml", pyproject=SETTINGS)
    articles = pytester.mkdir("articles")
    (articles / "notes.py").write_text(GOOD, "utf-8")
    (articles / "zz_broken.py").write_text("from site_builder import revision\nx = (\n", "utf-8")
    return pytester


def test_items_are_named_by_slug_and_fixture_id(site: pytest.Pytester) -> None:
    result = site.runpytest("--collect-only", "-q")
    lines = [line for line in result.outlines if "::" in line]
    assert lines == [
        "articles/notes.py::settings",
        "articles/notes.py::good-post",
        "articles/notes.py::drifting-post",
        "articles/notes.py::short-post",
        "articles/notes.py::notes:counts",
        "articles/notes.py::notes:broken",
        "articles/zz_broken.py::batch zz_broken",
    ]


def test_failures_show_the_cli_problem_lines(site: pytest.Pytester) -> None:
    result = site.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(passed=3, failed=4)
    result.stdout.fnmatch_lines(
        [
            # The drift fails the article that prints it (not notes:counts, which passes).
            "*articles/notes.py:26: drifting-post: verified_output of notes:counts does not match*"
            "$.effects: the article prints 2, the fixture returns 1*",
            "*articles/notes.py:32: short-post: body is 5 characters; at least 20 are required*",
            "*articles/notes.py:10: fixture notes:broken: checks failed: oneEffect = false*",
            "*articles/zz_broken.py:2: batch zz_broken: cannot import: SyntaxError*",
        ]
    )
    assert "Traceback" not in result.stdout.str()


def test_k_selects_one_article(site: pytest.Pytester) -> None:
    result = site.runpytest("-p", "no:cacheprovider", "-k", "good-post")
    result.assert_outcomes(passed=1, deselected=6)


def test_k_with_a_slug_checks_the_outputs_that_article_prints(site: pytest.Pytester) -> None:
    result = site.runpytest("-p", "no:cacheprovider", "-k", "drifting-post")
    result.assert_outcomes(failed=1, deselected=6)
    result.stdout.fnmatch_lines(
        [
            "*articles/notes.py:26: drifting-post: verified_output of notes:counts does not match*"
            "$.effects: the article prints 2, the fixture returns 1*",
        ]
    )


def test_a_drift_fails_the_article_that_prints_it_not_the_fixture(site: pytest.Pytester) -> None:
    # notes:counts backs good-post too, whose output still matches: checking it fails nothing.
    result = site.runpytest("-p", "no:cacheprovider", "-k", "counts or good-post")
    result.assert_outcomes(passed=2, deselected=5)


def test_an_article_fails_with_the_fixture_it_shows(pytester: pytest.Pytester) -> None:
    pytester.makefile(".toml", pyproject=SETTINGS)
    batch = GOOD.replace(
        'verified_output(counts, expected={"effects": 1})', "verified_output(broken, expected={})"
    )
    pytester.mkdir("articles").joinpath("notes.py").write_text(batch, "utf-8")
    result = pytester.runpytest("-p", "no:cacheprovider", "-k", "good-post")
    result.assert_outcomes(failed=1, deselected=5)
    result.stdout.fnmatch_lines(
        ["*articles/notes.py:10: fixture notes:broken: checks failed: oneEffect = false*"]
    )


def test_outside_a_site_nothing_is_collected(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(articles="x = 1\n")
    pytester.mkdir("articles").joinpath("notes.py").write_text("x = 1\n", "utf-8")
    result = pytester.runpytest("--collect-only", "-q")
    assert "::" not in result.stdout.str()


def test_a_built_site_is_collected_from_its_cache_and_an_edited_batch_loaded_again(
    pytester: pytest.Pytester,
) -> None:
    # The batch notes where it is imported: a line in imports.log, beside the articles folder.
    marked = GOOD.replace('{"checks": {"oneEffect": False}}', '{"checks": {"oneEffect": True}}').replace(
        "revisions = [good, drifting, short]",
        "revisions = [good]\n"
        "from pathlib import Path as _Path\n"
        "with (_Path(__file__).parent.parent / 'imports.log').open('a') as _log:\n"
        "    _log.write('imported\\n')",
    )
    pytester.makefile(".toml", pyproject=SETTINGS)
    notes = pytester.mkdir("articles") / "notes.py"
    notes.write_text(marked, "utf-8")
    log = pytester.path / "imports.log"
    assert main(["build", "--root", str(pytester.path)]) == 0
    expected = [
        "articles/notes.py::settings",
        "articles/notes.py::good-post",
        "articles/notes.py::notes:counts",
        "articles/notes.py::notes:broken",
    ]
    log.unlink()

    collected = pytester.runpytest("--collect-only", "-q", "-p", "no:cacheprovider")
    assert [line for line in collected.outlines if "::" in line] == expected
    assert not log.exists()  # the batch as the build kept it: not imported

    notes.write_text(marked.replace("Enough words", "Enough new words"), "utf-8")
    collected = pytester.runpytest("--collect-only", "-q", "-p", "no:cacheprovider")
    assert [line for line in collected.outlines if "::" in line] == expected
    assert log.read_text("utf-8") == "imported\n"  # edited since: loaded again
