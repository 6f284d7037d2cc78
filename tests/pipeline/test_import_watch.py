"""The thread that times the workers' imports (``Watch``) stops cleanly whenever a stop lands.

A SIGTERM to ``serve`` raises in its main thread wherever that thread is, the start of this
thread included; the build then leaves its ``with Workers(...)`` block, which stops the watch.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from site_builder.pipeline.worker.importing import POLL, Watch

NAME = "site-builder-imports"


def watching() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == NAME]


Start = Callable[[threading.Thread], None]


def interrupted(start: Start, *, after: bool) -> Start:
    """``Thread.start`` with a KeyboardInterrupt landing before it runs, or once it has run."""

    def landing(thread: threading.Thread) -> None:
        if after:
            start(thread)
        raise KeyboardInterrupt

    return landing


@pytest.mark.parametrize("after", [False, True], ids=["before-the-thread-runs", "after-it-runs"])
def test_a_stop_landing_while_the_watch_starts_leaves_a_watch_that_stops(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, after: bool
) -> None:
    assert not watching()
    watch = Watch(tmp_path / "importing", timeout=60, kill=lambda pid: None)
    with monkeypatch.context() as patched:
        patched.setattr(threading.Thread, "start", interrupted(threading.Thread.start, after=after))
        with pytest.raises(KeyboardInterrupt):
            watch.start()

    watch.stop()  # raised "cannot join thread before it is started" before the fix

    deadline = time.monotonic() + 10 * POLL
    while watching() and time.monotonic() < deadline:
        time.sleep(POLL / 10)
    assert not watching(), "the watch's thread outlived its stop"


def test_a_watch_started_and_stopped_leaves_no_thread(tmp_path: Path) -> None:
    watch = Watch(tmp_path / "importing", timeout=60, kill=lambda pid: None)
    watch.start()
    watch.start()  # again: nothing
    assert len(watching()) == 1
    watch.stop()
    assert not watching()
