"""How a command stops on SIGINT and SIGTERM: once, cleanly, and at once on a second signal."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator


@contextlib.contextmanager
def interruptible() -> Iterator[threading.Event]:
    """SIGINT and SIGTERM raise KeyboardInterrupt once; a second one ends the process at once.
    A signal the process was started to ignore (``nohup``, a shell's background job) stays ignored.

    The event yielded is set by the first signal too: Python drops an exception raised where
    it cannot be handled (in a callback ``os.fork`` runs, say), and a stop must never be lost."""
    stops = (signal.SIGINT, signal.SIGTERM)
    previous = {each: signal.getsignal(each) for each in stops}
    stopping = threading.Event()

    def interrupt(_signum: int, _frame: object) -> None:
        stopping.set()
        for each in stops:
            if signal.getsignal(each) == interrupt:  # the cleanup under way may be cut short, not repeated
                signal.signal(each, signal.SIG_DFL)
        raise KeyboardInterrupt

    for each in stops:
        if previous[each] != signal.SIG_IGN:
            signal.signal(each, interrupt)
    try:
        yield stopping
    finally:
        for each, handler in previous.items():
            signal.signal(each, handler)
