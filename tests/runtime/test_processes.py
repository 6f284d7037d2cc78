"""A command started to die with its parent (:func:`bound_to_parent`): it does, by whichever
way this machine offers, and a background one runs at the lower priority."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from site_builder.runtime.processes import BACKGROUND_NICENESS, bound_to_parent

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="the parent-death signal is Linux's")

PARENT = """
import subprocess, sys, time
from site_builder.runtime.processes import bound_to_parent
command, before_exec = bound_to_parent(["sleep", "120"], background=sys.argv[1] == "background")
child = subprocess.Popen(command, preexec_fn=before_exec)
print(child.pid, flush=True)
time.sleep(120)
"""


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, reaped by nobody yet, counts as ended)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state not in ("Z", "X")


def program(pid: int) -> bytes:
    """The program ``pid`` runs now (it changes at each exec)."""
    return Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[0]


def niceness(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[16])


@pytest.mark.parametrize("path", ["as found", "without setpriv"])
@pytest.mark.parametrize("mode", ["foreground", "background"])
def test_the_command_ends_when_its_parent_is_killed(mode: str, path: str, tmp_path: Path) -> None:
    env = dict(os.environ)
    if path == "without setpriv":  # only python and sleep on PATH: the pre-exec functions
        bin_ = tmp_path / "bin"
        bin_.mkdir()
        for tool in ("sleep",):
            (bin_ / tool).symlink_to(subprocess.check_output(["which", tool], text=True).strip())
        env["PATH"] = str(bin_)
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT, mode],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,  # its group: the finally below ends whatever is left
    )
    try:
        assert parent.stdout is not None
        child = int(parent.stdout.readline())
        deadline = time.monotonic() + 10
        while not program(child).endswith(b"sleep"):  # the command itself, no wrapper left
            assert alive(child) and time.monotonic() < deadline, program(child)
            time.sleep(0.01)
        expected = BACKGROUND_NICENESS if mode == "background" else 0
        assert niceness(child) - niceness(parent.pid) == expected
        parent.send_signal(signal.SIGKILL)
        parent.wait(timeout=10)
        deadline = time.monotonic() + 10
        while alive(child):
            assert time.monotonic() < deadline, "the command outlived its killed parent"
            time.sleep(0.02)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(parent.pid, signal.SIGKILL)
        parent.wait(timeout=10)
        if parent.stdout is not None:
            parent.stdout.close()


def test_with_setpriv_the_command_needs_no_python_between_fork_and_exec() -> None:
    """No pre-exec function: :mod:`subprocess` may then start it with ``vfork``."""
    if not any((Path(folder) / "setpriv").exists() for folder in os.environ["PATH"].split(os.pathsep)):
        pytest.skip("no setpriv on PATH")
    command, before_exec = bound_to_parent(["sleep", "1"], background=True)
    assert before_exec is None
    assert command[-2:] == ["sleep", "1"]
