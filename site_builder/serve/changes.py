"""Edits to a site's sources, watched from before ``serve``'s first build.

The watcher runs in a thread of its own from the start, so an edit saved while the
first build runs (a minute at 10,000 articles), or between that build and the first
look for changes, is queued and rebuilt, never lost. Once it has reported a change,
the thread waits until ``serve`` asks for the next one: while a rebuild runs, the
watcher's own (Rust) thread gathers what happens, the rebuild's writes into the served
folder included, and no Python code filters those events against the rebuild for the
interpreter's lock.

The kernel's queue of file events is bounded, and a rebuild at 10,000 articles (Pagefind
writing thousands of files, folders of 10,000 pages renamed) can overflow it: an edit's
event is then lost. So, while it waits, ``serve`` also compares the sources' sizes and
times with those it last built from, twice a second: a lost event costs half a second,
never the edit.

The thread and ``serve`` speak through two C-level queues, not a ``threading.Event`` and a
``queue.Queue``: a signal's KeyboardInterrupt (Ctrl-C, SIGTERM) lands between two bytecodes
of the main thread, and one landing inside their Python-level handling of a lock can leave
the lock held. The SIGTERM test caught it: the stop and the watcher both waited on the lock
of the Event an interrupted ``set()`` had taken, until the process was killed. A
``queue.SimpleQueue``'s ``put`` and ``get`` are single C calls: they run whole or not at all.
"""

from __future__ import annotations

import contextlib
import queue
import threading
from collections.abc import Callable
from pathlib import Path

import watchfiles

STEP_MS = 10
"""How long the watcher waits for more changes after one before it reports them: an
editor's save (a temporary file renamed over the old one) takes well under that; the
watcher's default, 50 ms, is that much more of every save's wait for the page."""

Filter = Callable[[watchfiles.Change, str], bool]
Fingerprint = Callable[[], object]
"""What the sources are now (their paths, sizes and times): equal while nothing changed."""
LOOK = 0.5
"""Seconds between two looks at the sources' fingerprint while ``serve`` waits."""


class Changes:
    """Changes below ``root`` that ``watched`` keeps, gathered by a thread until :meth:`close`."""

    def __init__(self, root: Path, watched: Filter, fingerprint: Fingerprint) -> None:
        self._fingerprint = fingerprint
        self._seen = fingerprint()
        """The sources as the last rebuild started from them."""
        self._arrived: queue.SimpleQueue[None] = queue.SimpleQueue()
        self._stop = threading.Event()
        """Set by :meth:`close` alone; the watcher only reads it."""
        self._asked: queue.SimpleQueue[None] = queue.SimpleQueue()
        """A token each time ``serve`` asks for a change: the thread may look for the next one.
        Those put before the change the thread reports are answered by it (an Event cleared)."""
        self._thread = threading.Thread(
            target=self._watch, args=(root, watched), daemon=True, name="site-builder-watch"
        )
        self._thread.start()

    def __enter__(self) -> Changes:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def wait(self, stop: threading.Event | None) -> bool:
        """Wait for a change (True), taking every one already queued, or until ``stop`` is set or
        the watcher ended (False). A change is an event, or sources unlike the last ones seen."""
        self._asked.put(None)
        while not (stop is not None and stop.is_set()):
            try:
                self._arrived.get(timeout=LOOK)
            except queue.Empty:
                if not self._thread.is_alive():
                    return False
                if (now := self._fingerprint()) == self._seen:
                    continue
                self._seen = now  # an event was lost: the sources tell
                return True
            while not self._arrived.empty():
                self._arrived.get_nowait()
            self._seen = self._fingerprint()
            return True
        return False

    def listen(self) -> None:
        """Let the thread report changes while the rebuild goes on (once its pages are shown
        and it only waits for its search index): :meth:`arrived` says when one came."""
        self._asked.put(None)

    def arrived(self) -> bool:
        """Whether a change is queued: the next :meth:`wait` takes it at once."""
        return not self._arrived.empty()

    def close(self) -> None:
        """Stop watching, and wait for the thread to end (within a step of the watcher): a
        thread still inside the watcher's native code when the interpreter exits aborts the
        process with older watchfiles ("FATAL: exception not rethrown")."""
        self._stop.set()
        self._asked.put(None)
        self._thread.join(timeout=1.0)

    def _watch(self, root: Path, watched: Filter) -> None:
        watching = watchfiles.watch(
            root,
            watch_filter=watched,
            step=STEP_MS,
            rust_timeout=500,
            stop_event=self._stop,
            raise_interrupt=False,
        )
        for _changes in watching:
            with contextlib.suppress(queue.Empty):
                while True:  # what was asked before this change is answered by it
                    self._asked.get_nowait()
            self._arrived.put(None)
            self._asked.get()  # the rebuild runs meanwhile; the watcher gathers what it sees
