"""The docs built once for the tests that read what that build did (tests/whole_site).

pytest-xdist runs a session-scoped fixture once in each worker. The docs' build takes some
240 commands of the tool (45 s of a worker on 2 cores), so the first worker to need it builds
and writes down what it gave, beside the other workers' folders; a worker asking meanwhile
waits for it (a lock on a file) and reads that. The tests that read it are collected last
(tests/conftest.py) but the one that counts its fixtures, which runs first: the build is over
long before they run, and no worker waits."""

from __future__ import annotations

import contextlib
import fcntl
import io
import json
import os
import shutil
import subprocess
import sys
from collections import defaultdict
from dataclasses import asdict, dataclass
from pathlib import Path

from site_builder import cli
from site_builder.pipeline.cache.store import CACHE_DIR

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


def build_docs(folder: Path) -> DocsBuild:
    """``site-builder build --root docs`` from scratch (the docs' cache deleted first, so every
    fixture runs, and every ``verified_output`` is compared with its fixture's result: a failed
    fixture, or a shown output its fixture contradicts, fails the build), with each command the
    fixtures run written down in ``folder``."""
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
    commands: dict[Fixture, list[list[str]]] = defaultdict(list)
    for line in log.read_text("utf-8").splitlines():
        ran = json.loads(line)
        if ran["fixture"] is not None:
            file, function = ran["fixture"]
            commands[(file, function)].append(ran["argv"])
    return DocsBuild(revisions, dict(commands))


def shared_docs_build(run: Path) -> DocsBuild:
    """:func:`build_docs`, once for all the processes whose run folder is ``run``: the first
    to ask builds and writes its result to ``run/docs-build/built.json``; the others wait
    for the lock and read it."""
    folder = run / "docs-build"
    folder.mkdir(exist_ok=True)
    result, failure = folder / "built.json", folder / "failed.txt"
    with open(folder / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not result.exists() and not failure.exists():
            try:
                built = build_docs(folder)
            except AssertionError as failed:  # the other workers fail with it, not build again
                failure.write_text(str(failed), "utf-8")
                raise
            kept = {**asdict(built), "commands": [[list(k), v] for k, v in built.commands.items()]}
            result.write_text(json.dumps(kept), "utf-8")
    if failure.exists():
        raise AssertionError(f"the docs' build failed: {failure.read_text('utf-8')}")
    kept = json.loads(result.read_text("utf-8"))
    commands = {(file, function): argvs for (file, function), argvs in kept["commands"]}
    return DocsBuild(kept["revisions"], commands)
