"""Where a fixture's worker is, asked from outside: the stack it writes on SIGUSR1.

The worker registers ``faulthandler`` for SIGUSR1 before the fixture runs, writing to a file
in its own temporary directory. ``faulthandler`` writes from C, in the signal handler, so
the answer comes whatever the Python code is doing: a loop, a sleep, a call into C. The
parent asks once the worker is past its deadline, then kills it.
"""

from __future__ import annotations

import contextlib
import faulthandler
import os
import re
import signal
import time

STACK_FILE = ".stack"
"""In a worker's own temporary directory: where it writes its stack when asked."""
STACK_WAIT = 0.5
"""Seconds a worker has to write its stack before the parent reads what there is."""
_STACK_LINE = re.compile(r'^\s*File "(?P<path>[^"]+)", line (?P<line>\d+) in (?P<function>\S+)', re.MULTILINE)


def answer_when_asked(scratch: str) -> None:
    """In the worker, before the fixture runs (and before its guards): write the stack to
    ``scratch`` on SIGUSR1. The file stays open for the worker's life."""
    stack = open(os.path.join(scratch, STACK_FILE), "w", encoding="utf-8")  # noqa: SIM115
    faulthandler.register(signal.SIGUSR1, file=stack, all_threads=False)


def ask(pid: int, scratch: str) -> list[tuple[str, int, str]]:
    """The stack of worker ``pid`` (whose temporary directory is ``scratch``), innermost last,
    as (path, line, function); empty when it does not answer within :data:`STACK_WAIT`."""
    path = os.path.join(scratch, STACK_FILE)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(pid, signal.SIGUSR1)
    deadline, size = time.monotonic() + STACK_WAIT, -1
    while time.monotonic() < deadline:
        time.sleep(0.01)
        try:
            now = os.path.getsize(path)
        except OSError:
            return []
        if now and now == size:  # written, and no longer growing
            break
        size = now
    try:
        with open(path, encoding="utf-8", errors="replace") as file:
            text = file.read()
    except OSError:
        return []
    return [(m["path"], int(m["line"]), m["function"]) for m in reversed(list(_STACK_LINE.finditer(text)))]
