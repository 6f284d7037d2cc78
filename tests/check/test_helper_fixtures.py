"""A ``@fixture`` defined in a helper module of the articles folder (``_shared.py``, never a
batch) and shown by batches that import it: its id is ``_shared:NAME``, every batch that shows
it runs it as its own, and what it returns is checked against every output that prints it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.sites import HEADER, SETTINGS, MakeSite, RunCli

SHARED = """\
from site_builder import fixture


@fixture
def answer() -> dict:
    return {"answer": 42, "checks": {"isAnInt": True}}


def make():
    @fixture
    def hidden() -> dict:
        return {"checks": {"ok": True}}

    return hidden


HIDDEN = make()
"""
"""``answer`` is defined at line 5; ``hidden`` inside a function, so it is no module's fixture."""


def batch(slug: str, printed: int, fixture: str = "answer") -> str:
    """A batch whose one revision prints ``{"answer": printed}`` from the helper's ``fixture``
    (its ``verified_output`` at line 10)."""
    return (
        HEADER
        + f"""from _shared import {fixture}

revisions = [
    revision(
        slug="{slug}", title="T", categories=["C"], excerpt="E.", published="2024-01-02",
        body=[paragraph("Enough words for the tiny limit of this site."),
              verified_output({fixture}, expected={{"answer": {printed}}})],
        sources=[Source(title="A", url="https://example.org/a", note="a"),
                 Source(title="B", url="https://example.org/b", note="b")],
    ),
]
"""
    )


@pytest.fixture
def site(make_site: MakeSite) -> Path:
    """Two batches that show the helper's ``answer``, both rightly."""
    return make_site(
        {
            "articles/_shared.py": SHARED,
            "articles/a.py": batch("first", 42),
            "articles/b.py": batch("second", 42),
        }
    )


def test_a_helper_fixture_runs_and_backs_every_batch_that_shows_it(site: Path, run_cli: RunCli) -> None:
    checked = run_cli(["validate", "--root", str(site)])
    assert checked.code == 0, checked.err
    assert checked.err.splitlines()[-1] == "ok: 2 revisions valid, 1 fixture passed"

    result = run_cli(["verify", "--root", str(site)])

    assert result.code == 0, result.err
    (run,) = json.loads(result.out)
    assert (run["id"], run["path"], run["line"], run["status"]) == (
        "_shared:answer",
        "articles/_shared.py",
        5,
        "passed",
    )
    assert [(v["slug"], v["status"]) for v in run["verifiedOutputs"]] == [
        ("first", "matches"),
        ("second", "matches"),
    ]
    assert run_cli(["verify", "--root", str(site), "_shared:answer"]).code == 0


def test_an_output_a_helper_fixture_contradicts_is_a_problem_at_its_line(site: Path, run_cli: RunCli) -> None:
    (site / "articles/b.py").write_text(batch("second", 41), "utf-8")
    drift = (
        "articles/b.py:10: second: verified_output of _shared:answer does not match what it returns: "
        "$.answer: the article prints 41, the fixture returns 42"
    )

    for command in ("validate", "build"):
        result = run_cli([command, "--root", str(site)])
        assert result.code == 1, command
        assert result.err.splitlines()[:2] == [drift, "1 problem found"], command


def test_editing_the_helper_judges_again_the_batches_a_build_kept(site: Path, run_cli: RunCli) -> None:
    assert run_cli(["build", "--root", str(site)]).code == 0
    helper = site / "articles/_shared.py"
    helper.write_text(helper.read_text("utf-8").replace('"answer": 42', '"answer": 43'), "utf-8")

    result = run_cli(["build", "--root", str(site)])

    assert result.code == 1
    assert [line.split(": verified_output")[0] for line in result.err.splitlines()[:2]] == [
        "articles/a.py:10: first",
        "articles/b.py:10: second",
    ]


def test_a_failing_helper_fixture_is_one_problem_at_its_def(site: Path, run_cli: RunCli) -> None:
    helper = site / "articles/_shared.py"
    helper.write_text(helper.read_text("utf-8").replace('"isAnInt": True', '"isAnInt": False'), "utf-8")

    result = run_cli(["validate", "--root", str(site)])

    assert result.code == 1
    assert result.err.splitlines() == [
        "articles/_shared.py:5: fixture _shared:answer: checks failed: isAnInt = false "
        "(each check must be true)",
        "1 problem found",
    ]


@pytest.mark.parametrize(
    ("shown_by", "shown"),
    [
        ("verified_output", 'verified_output(HIDDEN, expected={"answer": 42})'),
        ("transcript", 'transcript(HIDDEN, "$ answer\\n42")'),
        ("chart", 'chart(HIDDEN, {"mark": "bar"}, alt="The answer", caption="The answer")'),
    ],
)
def test_a_fixture_made_inside_a_helper_function_is_still_no_fixture(
    make_site: MakeSite, run_cli: RunCli, shown_by: str, shown: str
) -> None:
    """Whichever helper shows it, the problem names that helper."""
    text = batch("first", 42, "HIDDEN").replace('verified_output(HIDDEN, expected={"answer": 42})', shown)
    text = text.replace("verified_output)", "verified_output, transcript, chart)")
    assert shown in text
    root = make_site({"articles/_shared.py": SHARED, "articles/a.py": text})

    result = run_cli(["validate", "--root", str(root)])

    assert result.err.splitlines() == [
        f"articles/a.py:10: first: {shown_by} uses _shared:hidden, which is not a fixture of a batch",
        "1 problem found",
    ]


def test_the_plugin_gives_each_batch_that_shows_it_an_item(pytester: pytest.Pytester) -> None:
    pytester.makefile(".toml", pyproject=SETTINGS)
    articles = pytester.mkdir("articles")
    for name, text in {"_shared.py": SHARED, "a.py": batch("first", 42), "b.py": batch("second", 41)}.items():
        (articles / name).write_text(text, "utf-8")

    collected = pytester.runpytest("--collect-only", "-q")
    assert [line for line in collected.outlines if "::_shared" in line] == [
        "articles/a.py::_shared:answer",
        "articles/b.py::_shared:answer",
    ]
    result = pytester.runpytest("-p", "no:cacheprovider", "-k", "second")
    result.assert_outcomes(failed=1, deselected=4)
    result.stdout.fnmatch_lines(
        ["*articles/b.py:10: second: verified_output of _shared:answer does not match*"]
    )
