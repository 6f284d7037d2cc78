"""How the ``site-builder`` process ends: what it has to say flushed, then at once.

Python's own ending, once a command has returned, tears the interpreter down object by object:
every module's globals cleared and a last collection walked over what the build held. That
changes nothing on disk or on screen, and it is a tenth of a one-batch rebuild (35-60 ms of
0.55 s at N = 1,000, bench/README.md). The console script skips it, as a forked worker does
(``os._exit``), once nothing is left to finish: ``atexit`` handlers run (temporary folders,
``weakref.finalize``), stdout and stderr flushed, and no thread but this one running (one
that is would be waited for, so Python's usual ending then runs instead). Under a profiler or
a tracer (``python -m cProfile -m site_builder``, a debugger, coverage; on Python 3.12 and
later, any ``sys.monitoring`` tool) Python's ending runs too: the profiler writes what it
measured after the command returns."""

from __future__ import annotations

import atexit
import os
import sys
import threading
from typing import NoReturn

FLUSH_FAILED = 120
"""The exit code when stdout or stderr cannot be flushed at the end (a closed pipe): Python's own."""


def end_process(code: int) -> NoReturn:
    """End this process with ``code``, skipping the interpreter's teardown when that is safe."""
    if threading.active_count() > 1 or observed():
        sys.exit(code)
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # the reader went away, or the stream was closed
            code = code or FLUSH_FAILED
    os._exit(code)


def observed() -> bool:
    """Whether a profiler, a tracer or a debugger watches this process: through
    ``sys.setprofile``/``sys.settrace``, or as a ``sys.monitoring`` tool (Python 3.12 and
    later, where ``cProfile`` registers as one and ``sys.getprofile()`` stays None)."""
    if sys.getprofile() is not None or sys.gettrace() is not None:
        return True
    monitoring = getattr(sys, "monitoring", None)
    return monitoring is not None and any(monitoring.get_tool(tool) is not None for tool in range(6))
