"""Batches load, and their fixtures run, in worker processes: a dying batch is one problem."""

from __future__ import annotations

import pytest

from tests.support.sites import HEADER, MakeSite, RunCli

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


def test_a_worker_keeps_nothing_of_a_batch_once_it_is_summarized(make_site: MakeSite) -> None:
    """A worker imports thousands of batches at N = 10,000: neither the module nor the
    source lines read to place its fixtures' ``def`` may stay behind (a worker grew by
    some 50 KB a batch before linecache was emptied too)."""
    import linecache
    import sys

    from site_builder.check.load import forget, load_batch

    root = make_site({"articles/a_good.py": GOOD})
    path = root / "articles/a_good.py"
    batch, problem = load_batch(path, root)
    assert problem is None and batch is not None and batch.fixtures
    assert str(path) in linecache.cache  # read to find the fixture's def line
    modules = [name for name in sys.modules if name.endswith("a_good")]
    assert modules

    forget(batch)

    assert str(path) not in linecache.cache
    assert not [name for name in sys.modules if name.endswith("a_good")]


def test_a_check_of_every_page_holds_the_scans_of_a_few_batches_only(tmp_path: object) -> None:
    from pathlib import Path

    from site_builder.model.page_scan import scan_page
    from site_builder.pipeline.worker.texts import Scans, Texts

    folder = Path(str(tmp_path))
    summaries = []
    for number in range(Scans.HELD_BATCHES + 10):
        page = f"articles/p{number}/index.html"
        texts = Texts.write(
            folder / f"{number}.text", b"", [], {page: scan_page(f'<p id="x{number}"></p>')}, None
        )
        summaries.append(_Part(texts, {page: "sha"}))
    owners = {path: part.texts for part in summaries for path in part.pages}
    scans = Scans(owners, {"index.html": scan_page("<p></p>")})

    assert [scans[path].ids for path in scans][:2] == [{"x0"}, {"x1"}]
    assert len(scans) == Scans.HELD_BATCHES + 11
    assert len(scans._held) == Scans.HELD_BATCHES  # the least recently used were let go
    assert scans["articles/p0/index.html"].ids == {"x0"}  # and are read again when asked for


class _Part:
    """The two fields of a summary that :class:`Scans` reads."""

    def __init__(self, texts: object, pages: dict[str, str]) -> None:
        self.texts, self.pages = texts, pages
