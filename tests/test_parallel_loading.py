"""Batches load, and their fixtures run, in worker processes: a dying batch is one problem."""

from __future__ import annotations

import pytest
from conftest import HEADER, MakeSite, RunCli

GOOD = (
    HEADER
    + """
@fixture
def answer() -> dict:
    return {"answer": 42, "checks": {"known": True}}

revisions = [revision(
    slug="good-post", title="Good", categories=["Notes"], excerpt="Fine.", published="2024-01-02",
    body=[paragraph("Enough words to pass the tiny limit of this site."),
          verified_output(answer, expected={"answer": 42})],
    sources=[Source(title="A", url="https://a.example/", note="a"),
             Source(title="B", url="https://b.example/", note="b")],
)]
"""
)

DIES = "import os\nfrom site_builder import revision\nos._exit(3)\n"


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_batch_that_ends_its_process_at_import_is_one_problem(
    jobs: str, make_site: MakeSite, run_cli: RunCli
) -> None:
    root = make_site(
        {
            "articles/a_good.py": GOOD,
            "articles/b_dies.py": DIES,
            "articles/c_good.py": GOOD.replace("good-post", "other-post"),
        }
    )
    result = run_cli(["build", "--root", str(root), "--jobs", jobs])
    assert result.code == 1
    assert result.err.splitlines()[:2] == [
        "articles/b_dies.py:1: batch b_dies: cannot import: importing it ended the process "
        "(os._exit, a signal or a crash)",
        "1 problem found",
    ]
    assert not (root / "build").exists()


def test_validate_reports_fixture_outcomes_from_the_workers(make_site: MakeSite, run_cli: RunCli) -> None:
    drift = GOOD.replace('expected={"answer": 42}', 'expected={"answer": 41}')
    root = make_site({"articles/a.py": drift, "articles/b.py": GOOD.replace("good-post", "b-post")})
    result = run_cli(["validate", "--root", str(root)])
    assert result.code == 1
    assert result.err.splitlines() == [
        "articles/a.py:12: good-post: verified_output of a:answer does not match what it returns: "
        "$.answer: the article prints 41, the fixture returns 42",
        "1 problem found",
    ]
