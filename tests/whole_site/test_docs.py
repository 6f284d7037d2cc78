"""The documentation (``docs/``) is a site built by site_builder whose every shown output
is the ``verified_output`` of a fixture that runs the tool itself. These tests hold it to
that: enough pages, enough verified outputs, each backed by a fixture that calls the tool
(its CLI through ``_tool.run`` or its helpers in-process), every one of them matching.

The docs are built once for the session (``docs_build``, tests/whole_site/conftest.py), from
scratch (their cache deleted first, so every fixture runs), into ``docs/build`` as
``site-builder build --root docs`` writes it: ``.ci/run``'s own build of the docs, after the
tests, then finds nothing changed and runs no fixture a second time."""

from __future__ import annotations

import ast
import importlib
import json
import re
import sys
import tempfile
from pathlib import Path

import pytest

from site_builder import cli
from site_builder.search.delta import FOLD_PAGES
from site_builder.search.shards import BATCHES_PER_SHARD, MAX_SHARDS, MOST_BATCHES
from tests.support.docs_build import DocsBuild

DOCS = Path(__file__).parents[2] / "docs"
README = Path(__file__).parents[2] / "README.md"


def tool_names(module: ast.Module) -> set[str]:
    """Names a docs batch imports from the tool: site_builder itself and the _tool runner."""
    return {
        alias.asname or alias.name
        for node in module.body
        if isinstance(node, ast.ImportFrom) and node.module in ("site_builder", "_tool")
        for alias in node.names
    } - {"fixture", "revision", "verified_output", "Source", "site", "article"}


def calls_the_tool(path: Path, line: int) -> bool:
    """Whether the fixture defined at ``path:line`` calls the tool (not only builds data)."""
    module = ast.parse(path.read_text("utf-8"))
    names = tool_names(module)
    (function,) = [
        node
        for node in module.body
        if isinstance(node, ast.FunctionDef) and node.lineno <= line <= node.end_lineno
    ]
    called = {
        n.func.id for n in ast.walk(function) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
    }
    return bool(called & names)


def fixture_line(fixture: str) -> tuple[Path, int]:
    """Where the fixture ``batch:function`` of the docs is defined."""
    batch, name = fixture.split(":")
    path = DOCS / "articles" / f"{batch}.py"
    (line,) = [
        node.lineno
        for node in ast.parse(path.read_text("utf-8")).body
        if isinstance(node, ast.FunctionDef) and node.name == name
    ]
    return path, line


def test_the_docs_have_at_least_twelve_pages_each_linked_from_the_readme(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli.main(["revisions", "--root", str(DOCS)]) == 0
    slugs = [r["slug"] for r in json.loads(capsys.readouterr().out)]
    assert len(slugs) >= 12, slugs
    readme = README.read_text("utf-8")
    missing = [slug for slug in slugs if f"docs/articles/{slug.replace('-', '_')}.py" not in readme]
    assert missing == [], "pages the README does not link to"


@pytest.mark.slow
def test_at_least_twenty_shown_outputs_come_from_fixtures_that_run_the_tool(docs_build: DocsBuild) -> None:
    """Each fixture counted backs at least one ``verified_output`` (a revision's ``fixtures``
    are those its shown outputs name), and the build that just passed matched every one."""
    shown = {fixture for revision in docs_build.revisions for fixture in revision["fixtures"]}  # type: ignore[attr-defined]
    running = sorted(fixture for fixture in shown if calls_the_tool(*fixture_line(fixture)))
    assert len(running) >= 20, running


def test_the_readme_says_the_shard_size_the_code_uses() -> None:
    """The README's figures for search shards and the delta are the constants the code uses."""
    readme = " ".join(README.read_text("utf-8").split())
    size = re.findall(r"shards \(about (\d+) batches each", readme)
    most = re.findall(r"at most (\d+) shards", readme)
    largest = re.findall(r"until each would hold more than (\d+) batches", readme)
    fold = re.findall(r"the delta would hold more than (\d+) pages", readme)
    assert [int(n) for n in size] == [BATCHES_PER_SHARD]
    assert [int(n) for n in most] == [MAX_SHARDS]
    assert [int(n) for n in largest] == [MOST_BATCHES]
    assert [int(n) for n in fold] == [FOLD_PAGES]
    search_page = (README.parent / "docs/articles/search.py").read_text("utf-8")
    page = " ".join(search_page.replace('"\n', " ").split())
    assert [int(n) for n in re.findall(r"Once it would hold more than (\d+) pages", page)] == [FOLD_PAGES]
    largest = re.findall(r"until each would hold more than (\d+) batches", page)
    assert [int(n) for n in largest] == [MOST_BATCHES]


def test_a_docs_fixture_that_runs_pytest_says_pytest_is_missing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Without pytest installed, the pages that run it fail naming it, not with an IndexError
    on the output of a run that never started."""
    monkeypatch.syspath_prepend(str(DOCS / "articles"))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # where the fixture's site goes
    before = set(sys.modules)
    try:
        page = importlib.import_module("continuous_integration")
        with monkeypatch.context() as hidden:
            # What importlib finds of a module that is not installed: None in sys.modules hides it.
            hidden.setitem(sys.modules, "pytest", None)
            try:
                page.pytest_drift()
                failure = ""
            except ModuleNotFoundError as exc:
                failure = str(exc)
    finally:
        for name in set(sys.modules) - before:  # the docs' own modules: not this suite's
            del sys.modules[name]
    assert failure == "this page's fixture runs pytest, which is not installed: pip install pytest"
