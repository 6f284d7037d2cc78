"""The imports under way in the worker processes, and the deadline each one must meet.

A batch's import runs an author's code, which may never finish (``while True`` at module
level, a read that blocks). The worker cannot time itself out: a loop in C code holds the
interpreter, so no signal handler or thread of that worker would run. So each worker says,
with a file, which batch it is importing and since when (:func:`importing`), and a thread
of the command's own process (:class:`Watch`) kills a worker whose import has run longer
than the ``import_timeout`` setting; the batch is then reported as not finishing.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

POLL = 0.25
"""Seconds between two looks at the imports under way: how late past its deadline a stuck
import may be killed."""


@contextlib.contextmanager
def importing(folder: Path, key: str) -> Iterator[None]:
    """While the block runs, this process imports the batch of ``key``: a file of ``folder``
    named by the key holds the process id, and its time is when the import started."""
    marker = folder.absolute() / key  # absolute: the batch may change the working directory
    marker.write_text(str(os.getpid()), "ascii")
    try:
        yield
    finally:
        marker.unlink(missing_ok=True)


class Watch:
    """A thread that kills (``kill``: given a process id) the worker of each import under way
    in ``folder`` longer than ``timeout`` seconds, and remembers its batch's key."""

    def __init__(self, folder: Path, timeout: float, kill: Callable[[int], None]) -> None:
        self.folder = folder
        self._timeout = timeout
        self._kill = kill
        self._late: set[str] = set()  # added to by the thread, read once its worker is gone
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def ready(self) -> None:
        """Make the folder the workers say their imports in, before the first import is handed
        over; once watching, nothing (it is there)."""
        if self._thread is None:
            self.folder.mkdir(parents=True, exist_ok=True)

    def start(self) -> None:
        """Start watching (the first import is on its way, :meth:`ready` called); again: nothing."""
        if self._thread is None:
            thread = threading.Thread(target=self._run, daemon=True, name="site-builder-imports")
            # Kept only once started: a stop (SIGTERM to serve) landing in ``start`` leaves no
            # thread for :meth:`stop` to join unstarted, and a thread it did start ends of
            # itself at the stop's event.
            thread.start()
            self._thread = thread

    def stop(self) -> None:
        """Stop watching: no import is under way any more."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()

    def late(self, key: str) -> bool:
        """Whether the import of ``key`` ran out of time (and its worker was killed)."""
        return key in self._late

    def forget(self) -> None:
        """Forget the imports the killed workers left said as under way: they are not, and each
        is said anew when it starts again."""
        if self._thread is not None:  # else nothing was imported, and the folder is not there
            for marker in self.folder.iterdir():
                marker.unlink(missing_ok=True)

    def _run(self) -> None:
        while not self._stop.wait(POLL):
            self._look()

    def _look(self) -> None:
        now = time.time()
        with contextlib.suppress(OSError):  # the folder went with its build (interrupted)
            markers = list(os.scandir(self.folder))
            for marker in markers:
                with contextlib.suppress(OSError, ValueError):  # finished meanwhile, or not written yet
                    if now - marker.stat().st_mtime >= self._timeout and marker.name not in self._late:
                        pid = int(Path(marker.path).read_text("ascii"))
                        self._late.add(marker.name)  # before the kill: its task fails only after it
                        self._kill(pid)
