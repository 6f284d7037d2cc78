"""How a command stops on SIGINT and SIGTERM: once, cleanly, and at once on a second signal."""

from __future__ import annotations

import contextlib
import faulthandler
import signal
import sys
import threading
from collections.abc import Callable, Iterator


@contextlib.contextmanager
def interruptible(within: float | None = None) -> Iterator[threading.Event]:
    """SIGINT and SIGTERM raise KeyboardInterrupt once; a second one ends the process at once.
    A signal the process was started to ignore (``nohup``, a shell's background job) stays ignored.

    The event yielded is set by the first signal too: Python drops an exception raised where
    it cannot be handled (in a callback ``os.fork`` runs, a finaliser the collector runs), and
    a stop must never be lost. Python reports such a dropped KeyboardInterrupt on stderr, with
    a traceback (``Exception ignored in ...``): once the stop is under way it is ours, carried
    by the event, and is not printed; any other exception dropped so still is.

    ``within``: the seconds a signalled process has to end, its exit included. Past them it
    has not heard the stop, or its cleanup is stuck: a bug of ours. The stacks of its threads
    are then written to stderr, to report it, and the process ends at once, exit code 1.
    The watch runs in a thread of the interpreter's own (``faulthandler``), which needs no
    Python code to run."""
    stops = (signal.SIGINT, signal.SIGTERM)
    previous = {each: signal.getsignal(each) for each in stops}
    stopping = threading.Event()

    def interrupt(_signum: int, _frame: object) -> None:
        if within is not None and not stopping.is_set():
            faulthandler.dump_traceback_later(within, exit=True)
        stopping.set()
        for each in stops:
            if signal.getsignal(each) == interrupt:  # the cleanup under way may be cut short, not repeated
                signal.signal(each, signal.SIG_DFL)
        raise KeyboardInterrupt

    reported = sys.unraisablehook
    for each in stops:
        if previous[each] != signal.SIG_IGN:
            signal.signal(each, interrupt)
    sys.unraisablehook = _quiet_while_stopping(stopping, reported)
    try:
        yield stopping
    finally:  # the watch, once armed, stays: it covers the interpreter's exit too; so does the hook
        for each, handler in previous.items():
            signal.signal(each, handler)
        if not stopping.is_set():
            sys.unraisablehook = reported


def _quiet_while_stopping(
    stopping: threading.Event, reported: Callable[[sys.UnraisableHookArgs], object]
) -> Callable[[sys.UnraisableHookArgs], None]:
    """``sys.unraisablehook`` but silent on a KeyboardInterrupt once ``stopping`` is set."""

    def report(unraisable: sys.UnraisableHookArgs) -> None:
        if not (stopping.is_set() and isinstance(unraisable.exc_value, KeyboardInterrupt)):
            reported(unraisable)

    return report
