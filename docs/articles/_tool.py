"""What the documentation's fixtures use to run the real tool.

Each fixture makes a small site in its own temporary folder (the only place a
fixture may write) and runs ``python -m site_builder`` on it in a subprocess, with
the same interpreter and environment, so what a page shows is what the installed
tool prints today. Nothing here is shown to readers.

Every run gets one fixed build date, ``SOURCE_DATE_EPOCH`` set to :data:`BUILD_DATE`:
which revisions a build publishes depends on that date (a revision dated later is
scheduled and left out), and the pages must show the same output whatever the day the
documentation is built, and whatever ``SOURCE_DATE_EPOCH`` the docs' own build runs with.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import textwrap
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

BUILD_DATE = "2026-12-01"
"""The build date of every demonstration run: the date these pages are published."""

SOURCE_DATE_EPOCH = "1796083200"
"""``BUILD_DATE`` at 00:00 UTC, in seconds since 1970-01-01 00:00 UTC."""

SETTINGS = """\
[tool.site_builder]
title = "Demo"
base_url = "https://demo.example/"
min_body_chars = 20
min_sources = 1
"""
"""The settings of a demonstration site: limits low enough for one-paragraph articles."""

ARTICLE = """\
from site_builder import Source, paragraph, revision

revisions = [
    revision(
        slug="{slug}",
        title="{title}",
        categories=["Demo"],
        excerpt="A short demonstration article.",
        published="2026-12-01",
        body=[paragraph("This article exists so the tool has something to check.")],
        sources=[Source(title="CommonMark", url="https://spec.commonmark.org/0.31.2/", note="the syntax")],
    )
]
"""
"""A batch with one valid revision; ``{slug}`` and ``{title}`` are filled in."""


@dataclass(frozen=True)
class Ran:
    """What one command printed, and its exit code."""

    code: int
    stdout: str
    stderr: str

    @property
    def lines(self) -> list[str]:
        """The non-empty lines of stderr (where problems and messages go)."""
        return [line for line in self.stderr.splitlines() if line.strip()]

    def json(self) -> object:
        """Stdout parsed as JSON."""
        return json.loads(self.stdout)


def site(files: dict[str, str], settings: str = SETTINGS) -> Path:
    """A site in a new temporary folder: ``pyproject.toml`` and ``files`` (path → text,
    dedented), returned as its root."""
    root = Path(tempfile.mkdtemp(prefix="docs-site-"))
    (root / "pyproject.toml").write_text(textwrap.dedent(settings), "utf-8")
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), "utf-8")
    return root


def article(slug: str = "demo", title: str = "Demo") -> str:
    """The source of a batch with one valid revision."""
    return ARTICLE.format(slug=slug, title=title)


def environment(env: Mapping[str, str] | None = None) -> dict[str, str]:
    """This process's environment with the fixed build date, then ``env`` on top."""
    return {**os.environ, "SOURCE_DATE_EPOCH": SOURCE_DATE_EPOCH, **(env or {})}


def run(root: Path, *args: str, env: Mapping[str, str] | None = None) -> Ran:
    """``site-builder ARGS --root ROOT``, as a user would type it (``env``: variables set
    for this run, e.g. another ``SOURCE_DATE_EPOCH``)."""
    command, *rest = args
    done = subprocess.run(
        [sys.executable, "-m", "site_builder", command, "--root", str(root), *rest],
        env=environment(env),
        capture_output=True,
        text=True,
        timeout=110,
        check=False,
    )
    return Ran(done.returncode, done.stdout, done.stderr)


def run_in(folder: Path, *args: str, columns: int | None = None) -> Ran:
    """``site-builder ARGS`` typed in ``folder``, without ``--root``.

    ``columns`` fixes the width argparse wraps its help to (a terminal's, otherwise)."""
    env = environment({"COLUMNS": str(columns)} if columns is not None else None)
    done = subprocess.run(
        [sys.executable, "-m", "site_builder", *args],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=110,
        check=False,
    )
    return Ran(done.returncode, done.stdout, done.stderr)
