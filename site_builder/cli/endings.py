"""How a command ends: the exit code of each way it can stop, and the one line it says."""

from __future__ import annotations

import contextlib
import os
import sys

from site_builder.cli.printing import ReaderGoneError
from site_builder.errors import SiteBuilderError, UsageError

STOPPED = 130
"""The exit code of a command stopped by Ctrl-C (or by SIGTERM while it waited for the site's
lock): 128 + SIGINT, as a shell reports a command Ctrl-C ended."""


def ended_by(exc: ReaderGoneError | SiteBuilderError | KeyboardInterrupt) -> int:
    """The exit code of a command that ``exc`` ended, said on stderr if there is a word to say."""
    if isinstance(exc, ReaderGoneError):  # `| head` read what it wanted: as SIGPIPE ends a command
        _quiet_stdout()
        return 1
    if isinstance(exc, UsageError):
        print("".join(f"site-builder: {line}\n" for line in str(exc).splitlines()), end="", file=sys.stderr)
        return 2
    if isinstance(exc, SiteBuilderError):
        print(f"site-builder: {exc}", file=sys.stderr)
        return 1
    return STOPPED  # Ctrl-C: what was under way is undone already, as the shell shows


def _quiet_stdout() -> None:
    """stdout onto /dev/null: what is left in its buffer has no reader, and Python's last
    flush would print a traceback about it (the way Python's documentation gives, on SIGPIPE)."""
    with contextlib.suppress(OSError, ValueError):  # a stdout with no file (a test's capture)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
