"""Every command loads batches the same isolated way: a batch that ends its process at
import is a problem of that batch in ``verify`` and in the pytest plugin too, and the
other batches are still reported."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.sites import HEADER, SETTINGS, MakeSite, RunCli

GOOD = (
    HEADER
    + """
@fixture
def counts() -> dict:
    return {"effects": 1, "checks": {"oneEffect": True}}

good = revision(
    slug="good-post", title="Good", categories=["Notes"], excerpt="Fine.", published="2024-01-02",
    body=[paragraph("Enough words to pass the tiny limit of this site."),
          verified_output(counts, expected={"effects": 1})],
    sources=[Source(title="A", url="https://a.example/", note="a"),
             Source(title="B", url="https://b.example/", note="b")],
)
revisions = [good]
"""
)

EXITS = """\
import os

os._exit(3)
"""

PROBLEM = (
    "articles/b_exits.py:1: batch b_exits: cannot import: "
    "importing it ended the process (os._exit, a signal or a crash)"
)


@pytest.fixture
def site(make_site: MakeSite) -> Path:
    return make_site({"articles/a_good.py": GOOD, "articles/b_exits.py": EXITS})


def test_verify_reports_a_batch_that_exits_at_import_and_runs_the_others(site: Path, run_cli: RunCli) -> None:
    result = run_cli(["verify", "--root", str(site)])

    assert result.code == 1
    assert result.err.splitlines() == [PROBLEM, "1 problem found"]
    report = json.loads(result.out)
    assert [(entry["id"], entry["status"]) for entry in report] == [("a_good:counts", "passed")]
    assert report[0]["verifiedOutputs"][0]["status"] == "matches"


def test_verify_of_one_fixture_still_names_the_batch_that_exits(site: Path, run_cli: RunCli) -> None:
    result = run_cli(["verify", "--root", str(site), "a_good:counts"])

    assert result.code == 1
    assert PROBLEM in result.err.splitlines()
    assert [entry["id"] for entry in json.loads(result.out)] == ["a_good:counts"]


def test_the_plugin_fails_the_batch_that_exits_and_runs_the_others(pytester: pytest.Pytester) -> None:
    pytester.makefile(".toml", pyproject=SETTINGS)
    articles = pytester.mkdir("articles")
    (articles / "a_good.py").write_text(GOOD, "utf-8")
    (articles / "b_exits.py").write_text(EXITS, "utf-8")

    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-v")

    assert result.ret == 1
    result.assert_outcomes(passed=3, failed=1)  # settings, good-post, a_good:counts; the exiting batch
    result.stdout.fnmatch_lines(["*b_exits.py::batch b_exits FAILED*", f"*{PROBLEM}*"])
