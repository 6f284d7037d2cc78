"""What the documentation's fixtures use to run the real tool.

Each fixture makes a small site in its own temporary folder (the only place a
fixture may write) and runs the tool on it in a process of its own: a fork of the
fixture's process that calls ``site_builder.cli.main`` with the command's arguments,
its environment and folder, its output going to files read back afterwards. That is
what ``site-builder`` runs once Python has started and imported the package, so what
a page shows is what the installed tool prints today; the fork skips only starting
Python again, which made up most of a small command's time and over half of the
documentation's build.

The fork would keep one thing a new process does not have: the guards of the fixture
it was forked from (:mod:`site_builder.check.sandbox`), audit hooks that refuse a
network connection or a write outside the fixture's folder, in the command and in every
process it starts, before the command's own guards for its own fixtures see it. So the
forked process lifts them (they judge nothing there), and sets ``sys.dont_write_bytecode``
back to what the environment says: the command runs as in a new process, with no more
guards than a subprocess of the fixture had. ``serve`` alone still starts Python anew: it
starts its workers from multiprocessing's forkserver, one per process and found again by
every fork of it, so a forked ``serve`` could be handed the forkserver of the process the
documentation's build was forked from (the test suite's, serving another site).
Nothing here is shown to readers.

Every run gets one fixed build date, ``SOURCE_DATE_EPOCH`` set to :data:`BUILD_DATE`:
which revisions a build publishes depends on that date (a revision dated later is
scheduled and left out), and the pages must show the same output whatever the day the
documentation is built, and whatever ``SOURCE_DATE_EPOCH`` the docs' own build runs with.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
import traceback
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import NoReturn

from site_builder.check.sandbox import Guards

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
    argv = [command, "--root", str(root), *rest]
    return (_started if command == "serve" else _forked)(argv, environment(env), None)


def run_in(folder: Path, *args: str, columns: int | None = None) -> Ran:
    """``site-builder ARGS`` typed in ``folder``, without ``--root``.

    ``columns`` fixes the width argparse wraps its help to (a terminal's, otherwise)."""
    env = environment({"COLUMNS": str(columns)} if columns is not None else None)
    return (_started if args[:1] == ("serve",) else _forked)(list(args), env, folder)


@dataclass(frozen=True)
class Session:
    """A terminal session: what a reader would see, and each command's exit code."""

    lines: list[str]
    """``$ site-builder ARGS``, then what it printed, for each command."""
    codes: list[int]


SECONDS = re.compile(r" in \d+(?:\.\d+)? s$")
"""The time a command took, at the end of its summary line: shown as ``in … s``."""


def session(folder: Path, *commands: Sequence[str], env: Mapping[str, str] | None = None) -> Session:
    """Each of ``commands`` (the arguments after ``site-builder``) typed in ``folder``, one after
    another, as a transcript shows them: the command after ``$ ``, then its stdout and stderr
    as a terminal interleaves them, with the seconds it took masked (``in … s``)."""
    lines: list[str] = []
    codes: list[int] = []
    for argv in commands:
        ran = _forked(list(argv), environment(env), folder, merged=True)
        lines.append("$ " + shlex.join(["site-builder", *argv]))
        lines += [SECONDS.sub(" in … s", line) for line in ran.stdout.splitlines()]
        codes.append(ran.code)
    return Session(lines, codes)


TIMEOUT = 110.0
"""Seconds one command may take before it is killed and the fixture fails saying so."""

COMMANDS = "SITE_BUILDER_DOCS_COMMANDS"
"""When this variable names a file (the test suite's build of the docs sets it), each command
run here is added to it as a line of JSON: ``{"fixture": [file, function], "argv": [...]}``,
the page's fixture it ran for (``None`` outside one) and its arguments after ``site-builder``.
tests/whole_site/test_shell_snippets.py reads it: each command a page shows is one its next
shown output's fixture ran, in the build that compared that output, not in a second run."""


def _fixture() -> list[str] | None:
    """The page fixture this process runs a command for: the outermost frame of a page's batch
    (a file beside this one whose name has no leading ``_``), as ``[file, function]``."""
    here = os.path.dirname(__file__)
    found = None
    frame: FrameType | None = sys._getframe()
    while frame is not None:
        folder, name = os.path.split(frame.f_code.co_filename)
        if folder == here and not name.startswith("_"):
            found = [name, frame.f_code.co_name]
        frame = frame.f_back
    return found


def _note(argv: Sequence[str]) -> None:
    """Add ``argv`` to the file :data:`COMMANDS` names, if it names one; in a process whose
    guards are lifted (the file is outside the fixture's folder). One ``write`` to a file open
    for appending: the lines of commands run at once in several processes do not mix."""
    log = os.environ.get(COMMANDS)
    if not log:
        return
    line = json.dumps({"fixture": _fixture(), "argv": list(argv)}, ensure_ascii=False) + "\n"
    fd = os.open(log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.write(fd, line.encode("utf-8"))
    finally:
        os.close(fd)


def _started(argv: list[str], env: dict[str, str], cwd: Path | None) -> Ran:
    """``python -m site_builder ARGV`` in a new process."""
    if os.environ.get(COMMANDS):  # noted from a fork: this process's guards refuse the write
        pid = os.fork()
        if pid == 0:
            try:
                _lift_guards(os.environ)
                _note(argv)
            finally:
                os._exit(0)
        os.waitpid(pid, 0)
    done = subprocess.run(
        [sys.executable, "-m", "site_builder", *argv],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    return Ran(done.returncode, done.stdout, done.stderr)


def _forked(argv: list[str], env: dict[str, str], cwd: Path | None, *, merged: bool = False) -> Ran:
    """``site-builder ARGV`` in a forked process: its exit code, stdout and stderr (``merged``:
    both in ``stdout``, in the order a terminal shows them, and ``stderr`` empty)."""
    outputs = Path(tempfile.mkdtemp(prefix="run-"))
    pid = os.fork()
    if pid == 0:
        _command(argv, env, cwd, outputs, merged=merged)
    deadline = time.monotonic() + TIMEOUT
    ended, status = os.waitpid(pid, os.WNOHANG)
    while not ended:
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            raise TimeoutError(f"site-builder {' '.join(argv)} ran over {TIMEOUT:.0f} s")
        time.sleep(0.005)
        ended, status = os.waitpid(pid, os.WNOHANG)
    read = [(outputs / name).read_text("utf-8", "replace") for name in ("stdout", "stderr")]
    return Ran(os.waitstatus_to_exitcode(status), *read)


def _lift_guards(env: Mapping[str, str]) -> None:
    """Make the guards of the fixture this process was forked from judge nothing (there are
    none outside a fixture run), as in a process the fixture started anew. They are found
    in the frames this process inherited (the fixture run's, which holds them): looking
    through every object instead (``gc.get_objects``) touched each page of the heap, so the
    fork copied all of it, for every command the docs run."""
    frame: FrameType | None = sys._getframe()
    while frame is not None:
        for guards in (found for found in frame.f_locals.values() if type(found) is Guards):
            guards._judge = _nothing_refused  # type: ignore[method-assign,assignment]
        frame = frame.f_back
    sys.dont_write_bytecode = bool(env.get("PYTHONDONTWRITEBYTECODE"))


def _nothing_refused(_event: str, _args: tuple[object, ...]) -> None:
    return None


def _command(
    argv: Sequence[str], env: dict[str, str], cwd: Path | None, outputs: Path, *, merged: bool = False
) -> NoReturn:
    """In the forked process: run the command as ``python -m site_builder`` would, then end;
    ``merged``: stdout and stderr one file, each written a line at a time, as on a terminal."""
    code = 1
    try:
        _lift_guards(env)
        _note(argv)
        os.environ.clear()
        os.environ.update(env)
        if cwd is not None:
            os.chdir(cwd)
        for fd, name in ((1, "stdout"), (2, "stderr")):
            target = os.open(outputs / name, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            os.dup2(target, fd)
            os.close(target)
        if merged:  # stderr into stdout's open file: one offset, the writes in their order
            os.dup2(1, 2)
        lines = 1 if merged else -1  # a line at a time, as on a terminal; else the default
        sys.stdout = open(1, "w", encoding="utf-8", closefd=False, buffering=lines)  # noqa: SIM115
        sys.stderr = open(  # noqa: SIM115
            2, "w", encoding="utf-8", errors="backslashreplace", closefd=False, buffering=lines
        )
        from site_builder.cli import main

        code = main(argv)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    except BaseException:  # noqa: BLE001 - what Python prints for an uncaught exception
        traceback.print_exc()
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)
