"""Getting started's install commands, run as a reader runs them (issue 38, item 1): pasted
into a shell in the project's folder, with a home folder of their own."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from site_builder import __version__
from tests.support.sites import REPOSITORY
from tests.whole_site.test_snippets import SNIPPETS

PROJECT_FILES = ("pyproject.toml", "README.md", "LICENSE")
"""What the project's packaging reads besides the package (its ``readme`` and ``license-files``)."""


@pytest.mark.slow
def test_the_install_commands_of_getting_started_install_the_tool(tmp_path: Path) -> None:
    """The snippet as it is, in ``bash -e``: a virtual environment under ``~``, ``pip install .``
    in a copy of the project's folder, then the installed tool's ``--version``."""
    (snippet,) = [
        s for s in SNIPPETS if s.where.startswith("docs/articles/getting_started.py") and "venv" in s.code
    ]
    project = tmp_path / "site_builder"
    project.mkdir()
    for name in PROJECT_FILES:
        shutil.copy2(REPOSITORY / name, project / name)
    shutil.copytree(
        REPOSITORY / "site_builder", project / "site_builder", ignore=shutil.ignore_patterns("__pycache__")
    )
    home = tmp_path / "home"
    home.mkdir()
    # A reader's shell: no virtual environment of this test run on its PATH.
    path = os.pathsep.join(
        p for p in os.environ["PATH"].split(os.pathsep) if not p.startswith(str(REPOSITORY))
    )
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    env |= {"HOME": str(home), "PATH": path, "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    done = subprocess.run(
        ["bash", "-e", "-c", snippet.code],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.splitlines()[-1] == f"site-builder {__version__}"
    assert (home / ".venvs" / "site-builder" / "bin" / "site-builder").is_file()
