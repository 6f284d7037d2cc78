"""When Python's cyclic garbage collector runs (not in the middle of a build), and when the
memory a build freed goes back to the system.

A build's main process holds what every batch's summary holds (3,334 summaries, some
millions of objects, at 10,000 articles) and keeps allocating while it reads and
joins them; each collection of the older generations walks all of it again. On a
one-batch rebuild at N = 10,000 that was 0.75 s of 2.9 s. A command is short and
its cycles are few, so it runs with the collector off (reference counting still
frees almost everything). ``serve``, which runs for hours, keeps it on: paused in its
builds and collecting between them, it once left an edit at N = 10,000 unshown for a
minute and its process tree grew to 640 MB (bench/serve.py). Worker processes keep the
collector on: their heap is small and they render for a whole cold build.

What a build frees, Python hands back to the C library's ``malloc``, which keeps most of it
for later instead of giving it back to the system: after building every page of a site of
10,000 articles into a new folder, ``serve``'s process stayed at 1,067 MB, 247 MB of it in use
(glibc's ``malloc_trim``, bench/README.md). ``serve`` gives it back after each build.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def collection_paused() -> Iterator[None]:
    """No cyclic garbage collection inside the block (as it was, after it)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def give_back_memory() -> None:
    """Return to the system the memory the C library's ``malloc`` holds free (glibc's
    ``malloc_trim(0)``); nothing where the C library has no such call (musl, macOS)."""
    try:
        trim = ctypes.CDLL(None).malloc_trim  # the C library this process runs with
    except (OSError, AttributeError):
        return
    trim(0)
