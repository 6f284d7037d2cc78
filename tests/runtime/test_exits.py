"""The ``site-builder`` process ends at once when its command returns, losing nothing: its
``atexit`` handlers run, its buffered output is written, a running thread is waited for, a
profiler still writes its file, and the exit code is the command's (or Python's own 120 when
the output cannot be written)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from site_builder.runtime.exits import observed
from tests.support.sites import SITES

ENDING = textwrap.dedent(
    """
    import atexit, sys, threading, time
    from pathlib import Path

    from site_builder.runtime.exits import end_process

    folder = Path(sys.argv[1])
    atexit.register(lambda: (folder / "atexit").write_text("ran"))
    if "thread" in sys.argv:
        threading.Thread(target=lambda: (time.sleep(0.3), (folder / "thread").write_text("done"))).start()
    # Held in stdout's buffer until the end (a pipe's: 8 KiB), or more than a pipe holds at once.
    print("x" * (10 if "short" in sys.argv else 100_000))
    end_process(int(sys.argv[2]))
    print("never", file=sys.stderr)
    """
)

BUFFERED = {name: value for name, value in os.environ.items() if name != "PYTHONUNBUFFERED"}
"""The child's environment: its output held in buffers, as Python holds it by default."""


def ending(
    folder: Path, code: int, *extra: str, stdout: int | None = subprocess.PIPE
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", ENDING, str(folder), str(code), *extra],
        env=BUFFERED,
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        timeout=60,
        check=False,
    )


def test_the_exit_code_the_buffered_output_and_the_atexit_handlers_all_come_through(tmp_path: Path) -> None:
    done = ending(tmp_path, 3)
    assert (done.returncode, done.stdout, done.stderr) == (3, "x" * 100_000 + "\n", "")
    assert (tmp_path / "atexit").read_text() == "ran"


def test_a_thread_still_running_is_waited_for(tmp_path: Path) -> None:
    done = ending(tmp_path, 0, "thread")
    assert (done.returncode, done.stderr) == (0, "")
    assert (tmp_path / "thread").read_text() == "done"
    assert (tmp_path / "atexit").read_text() == "ran"


def test_output_that_cannot_be_written_ends_with_python_s_own_code(tmp_path: Path) -> None:
    """stdout is a pipe whose reader has gone: the flush at the end fails, as under ``| head``."""
    read, write = os.pipe()
    os.close(read)
    try:
        done = ending(tmp_path, 0, "short", stdout=write)
    finally:
        os.close(write)
    assert done.returncode == 120, done.stderr
    assert (tmp_path / "atexit").read_text() == "ran"


def test_the_command_s_whole_output_reaches_a_pipe(tmp_path: Path) -> None:
    """``python -m site_builder revisions`` as a script reads it: every revision, valid JSON."""
    site = shutil.copytree(SITES / "valid_site", tmp_path / "site")
    done = subprocess.run(
        [sys.executable, "-m", "site_builder", "revisions", "--root", str(site)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert [revision["slug"] for revision in json.loads(done.stdout)]


def test_a_profiler_still_writes_what_it_measured(tmp_path: Path) -> None:
    profile = tmp_path / "build.prof"
    done = subprocess.run(
        [sys.executable, "-m", "cProfile", "-o", str(profile), "-m", "site_builder", "--version"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert (done.returncode, done.stdout.startswith("site-builder ")) == (0, True), done.stderr
    assert profile.stat().st_size > 0


class Monitoring:
    """A stand-in for ``sys.monitoring`` (Python 3.12 and later) with the tools ``tools`` registered."""

    def __init__(self, tools: dict[int, str]) -> None:
        self.tools = tools

    def get_tool(self, tool_id: int) -> str | None:
        return self.tools.get(tool_id)


@pytest.mark.parametrize(
    ("tools", "watched"), [({}, False), ({2: "cProfile"}, True), ({1: "coverage.py"}, True)]
)
def test_a_monitoring_tool_keeps_python_s_ending(
    monkeypatch: pytest.MonkeyPatch, tools: dict[int, str], watched: bool
) -> None:
    """From Python 3.12 ``cProfile`` (and coverage, a debugger) may register as a
    ``sys.monitoring`` tool, ``sys.getprofile()`` staying None: such a tool counts as watching,
    so the profiler still writes its file (the test above, run on 3.12 and later)."""
    monkeypatch.setattr(sys, "getprofile", lambda: None)
    monkeypatch.setattr(sys, "gettrace", lambda: None)
    monkeypatch.setattr(sys, "monitoring", Monitoring(tools), raising=False)
    assert observed() is watched
