"""The docs built once for the tests that read what that build did (tests/whole_site).

The build runs some 240 commands of the tool (45 s of a worker on 2 cores): it is made once
for the whole run (:mod:`tests.support.once`). The tests that read it are collected last
(tests/conftest.py) but the one that counts its fixtures, which runs first: the build is over
long before they run, and no worker waits."""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from site_builder import cli
from site_builder.pipeline.cache.store import CACHE_DIR
from tests.support.once import Made, once_per_run

DOCS = Path(__file__).parents[2] / "docs"

COMMANDS = "SITE_BUILDER_DOCS_COMMANDS"
"""The variable the docs' ``_tool`` reads: the file it adds each command it runs to."""

Fixture = tuple[str, str]
"""A docs fixture as ``_tool`` names it: its batch's file name and its function's name."""


@dataclass(frozen=True)
class DocsBuild:
    """What one build of the docs from scratch gave."""

    revisions: list[dict[str, object]]
    """The docs' revisions, as ``site-builder revisions`` prints them."""
    commands: dict[Fixture, list[list[str]]]
    """Each fixture's commands, in the order it ran them: the arguments after ``site-builder``."""


def build_docs(folder: Path) -> Made:
    """``site-builder build --root docs`` from scratch (the docs' cache deleted first, so every
    fixture runs, and every ``verified_output`` is compared with its fixture's result: a failed
    fixture, or a shown output its fixture contradicts, fails the build), with each command the
    fixtures run written down in ``folder``: the revisions, and the commands as ``_tool`` wrote
    them (``{"fixture": ..., "argv": ...}``)."""
    shutil.rmtree(DOCS / CACHE_DIR, ignore_errors=True)
    log = folder / "commands.jsonl"
    # In a process of its own, as a reader runs it: each fixture and each command the docs run
    # is a fork, and a fork of this test process (its heap grown by every test before) copies
    # more for each of them.
    done = subprocess.run(
        [sys.executable, "-m", "site_builder", "build", "--root", str(DOCS)],
        env={**os.environ, COMMANDS: str(log)},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert log.exists(), f"the build ran no fixture's command: {done.stderr}"
    assert (DOCS / "build" / "articles" / "getting-started" / "index.html").stat().st_size > 0
    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        assert cli.main(["revisions", "--root", str(DOCS)]) == 0
    revisions = json.loads(output.getvalue())
    assert isinstance(revisions, list)
    return {"revisions": revisions, "ran": [json.loads(line) for line in log.read_text("utf-8").splitlines()]}


def docs_build_once(run: Path) -> DocsBuild:
    """:func:`build_docs`, once for all the processes whose run folder is ``run``
    (:func:`~tests.support.once.once_per_run`), each fixture's commands gathered."""
    made = once_per_run(run, "docs-build", build_docs)
    commands: dict[Fixture, list[list[str]]] = defaultdict(list)
    for ran in made["ran"]:
        if ran["fixture"] is not None:
            file, function = ran["fixture"]
            commands[(file, function)].append(ran["argv"])
    return DocsBuild(made["revisions"], dict(commands))
