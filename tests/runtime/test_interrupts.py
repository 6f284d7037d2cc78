"""A stop that is not heard, or a cleanup that never ends, still ends the process in time."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

STUCK = textwrap.dedent(
    """
    import time

    from site_builder.runtime.interrupts import interruptible


    def stuck_cleanup():
        while True:  # a join that never returns, or a stop whose KeyboardInterrupt was lost
            time.sleep(0.05)


    with interruptible(0.5):
        try:
            print("ready", flush=True)
            time.sleep(30)
        except KeyboardInterrupt:
            stuck_cleanup()
    """
)

CLEAN = STUCK.replace("stuck_cleanup()\n", "time.sleep(0.1)\n").replace("(0.5)", "(2.0)")


def _signalled(script: str, signum: int) -> tuple[int, str]:
    process = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert process.stdout is not None and process.stdout.readline() == "ready\n"
    process.send_signal(signum)
    try:
        _out, err = process.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        raise AssertionError("the process did not end within 10 s of the signal") from None
    return process.returncode, err


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_process_stuck_after_the_signal_ends_and_says_where(signum: int) -> None:
    code, err = _signalled(STUCK, signum)
    assert code == 1
    assert "Timeout" in err and "in stuck_cleanup" in err, err


def test_a_process_that_stops_in_time_is_not_cut_short() -> None:
    code, err = _signalled(CLEAN, signal.SIGTERM)
    assert (code, err) == (0, "")


DROPPED = textwrap.dedent(
    """
    import os
    import time

    from site_builder.runtime.interrupts import interruptible


    def slow_after_fork():  # the signal comes here, where Python cannot raise: in a fork's callback
        print("ready", flush=True)
        time.sleep(5)


    class Broken:
        def __del__(self):
            raise ValueError("a finaliser's own bug")


    os.register_at_fork(after_in_parent=slow_after_fork)
    with interruptible(2.0) as stopping:
        child = os.fork()
        if child == 0:
            os._exit(0)
        os.waitpid(child, 0)
        print("heard" if stopping.is_set() else "lost", flush=True)
        Broken()
    """
)


def test_a_stop_python_drops_is_heard_and_not_printed_but_other_dropped_errors_are() -> None:
    process = subprocess.Popen(
        [sys.executable, "-c", DROPPED], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert process.stdout is not None and process.stdout.readline() == "ready\n"
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=10)
    assert (process.returncode, out) == (0, "heard\n"), err
    assert "KeyboardInterrupt" not in err, err
    assert "Exception ignored in" in err and "a finaliser's own bug" in err, err


SLOW_BATCH = textwrap.dedent(
    """
    import os
    import pathlib
    import time

    pathlib.Path(os.environ["IMPORT_MARK"]).write_text("importing")
    time.sleep(30)
    revisions = []
    """
)


def test_ctrl_c_during_a_build_exits_130_without_a_traceback(tmp_path: Path) -> None:
    """Ctrl-C while a build imports its batches: the build stops with the code a shell gives
    a command Ctrl-C ended, prints no traceback, and publishes nothing."""
    root = tmp_path / "site"
    (root / "articles").mkdir(parents=True)
    (root / "pyproject.toml").write_text(
        '[tool.site_builder]\ntitle = "T"\nbase_url = "https://example.org/"\n', "utf-8"
    )
    (root / "articles/slow.py").write_text(SLOW_BATCH, "utf-8")
    mark = tmp_path / "importing"
    process = subprocess.Popen(
        [sys.executable, "-m", "site_builder", "build", "--root", str(root)],
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "IMPORT_MARK": str(mark)},
    )
    deadline = time.monotonic() + 30
    while not mark.exists() and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert mark.exists(), "the batch's import never started"
    process.send_signal(signal.SIGINT)
    _out, err = process.communicate(timeout=20)
    assert (process.returncode, err) == (130, "")
    assert not (root / "build").exists()
