"""Every shell command the docs and the README show is run, as a reader types it (issue 38,
item 1).

A docs page shows a command, then what it printed: a ``verified_output`` whose fixture runs
the real tool (``docs/articles/_tool.py``) on a site of its own, and the docs do not build
unless the page shows what that run printed. So each line of an ``sh`` snippet, split as a
shell splits it, must be a command the fixture of the next verified output on its page
runs, with the same arguments: the commands each fixture ran in the session's build of the
docs (``docs_build``, which compared every shown output with its fixture's result), as
``_tool`` wrote them down. A command whose output no fixture shows (installing the tool,
building the docs themselves) is run by the test :data:`RUN_ELSEWHERE` names, which must exist.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from site_builder.authoring.model import Fixture as AuthoredFixture
from tests.support.docs_build import DocsBuild, Fixture
from tests.whole_site.test_snippets import REPOSITORY, SNIPPETS, Snippet

RUN_ELSEWHERE = {
    ("docs/articles/getting_started.py", "~/.venvs/site-builder/bin/pip install ."): (
        "tests/starter/test_getting_started.py::test_the_install_commands_of_getting_started_install_the_tool"
    ),
    ("docs/articles/overview.py", "site-builder build --root docs"): (
        "tests/whole_site/conftest.py::docs_build"
    ),
    ("README.md", ".venv/bin/python -m pytest -n auto"): (
        "tests/whole_site/test_shell_snippets.py::test_the_readme_quick_start_is_what_ci_runs"
    ),
}
"""(file, a piece of the snippet) of each shell snippet run by another test than this file's
first, and that test."""

SHELL = [s for s in SNIPPETS if s.language == "sh"]


def run_elsewhere(snippet: Snippet) -> str | None:
    """The test that runs ``snippet``, when :data:`RUN_ELSEWHERE` names one."""
    path = snippet.where.rsplit(":", 1)[0]
    return next(
        (test for (file, piece), test in RUN_ELSEWHERE.items() if file == path and piece in snippet.code),
        None,
    )


def commands(code: str) -> Iterator[list[str]]:
    """Each command of a shell snippet as the shell splits it, comments left out."""
    for line in code.splitlines():
        if words := shlex.split(line, comments=True):
            yield words


def as_typed(argv: Sequence[str]) -> list[str]:
    """A command ``_tool`` ran, as its reader types it: without the ``--root`` of the fixture's
    temporary site, which ``_tool.run`` adds after the command's name."""
    if len(argv) >= 3 and argv[1] == "--root" and Path(argv[2]).is_absolute():
        return [argv[0], *argv[3:]]
    return list(argv)


def test_the_shell_snippets_are_all_found_and_each_is_run_somewhere() -> None:
    assert len(SHELL) >= 12  # 12 on 2026-12-04 (one of them a transcript's since 2026-12-05)
    for snippet in SHELL:
        assert snippet.then is not None or run_elsewhere(snippet), f"{snippet.where}: no test runs it"
    for (file, piece), test in RUN_ELSEWHERE.items():
        assert len([s for s in SHELL if run_elsewhere(s) == test and piece in s.code]) == 1, (file, piece)
        path, name = test.split("::")
        assert f"def {name}(" in (REPOSITORY / path).read_text("utf-8"), test


def fixture_of(snippet: Snippet) -> Fixture:
    """The fixture that shows ``snippet``'s output, as ``_tool`` names it."""
    assert isinstance(snippet.then, AuthoredFixture)
    return (Path(snippet.then.site.path).name, snippet.then.function.__name__)


@pytest.mark.parametrize(
    "snippet", [s for s in SHELL if s.then is not None and not run_elsewhere(s)], ids=lambda s: s.where
)
def test_each_command_shown_is_one_the_next_verified_output_s_fixture_runs(
    snippet: Snippet, docs_build: DocsBuild
) -> None:
    ran = [["site-builder", *as_typed(argv)] for argv in docs_build.commands.get(fixture_of(snippet), [])]
    for command in commands(snippet.code):
        assert command in ran, (
            f"{snippet.where}: {shlex.join(command)} is not run by its fixture; it runs {ran}"
        )


def test_the_readme_quick_start_is_what_ci_runs() -> None:
    """``.ci/run`` reads the Quick start's two commands from the README and runs them as they
    are, on a fresh copy of the checkout: the install and build, then the tests."""
    ci = (REPOSITORY / ".ci" / "run").read_text("utf-8")
    assert 'bash -c "$install_and_build"' in ci and '"## Quick start"' in ci
    (quick_start,) = [s for s in SHELL if s.where.startswith("README.md") and "pytest" in s.code]
    install_and_build, tests = quick_start.code.splitlines()
    assert install_and_build.startswith("python3 -m venv .venv && ") and tests.startswith(
        ".venv/bin/python -m pytest"
    )
