"""Work done once for a whole test run, whichever process asks first.

pytest-xdist runs a session-scoped fixture once in each worker. For work that takes a worker
many seconds (the docs' build, this repository's site built from scratch), the first process
to ask does it under a lock on a file in the run's folder and writes down what it gave; a
process asking meanwhile waits for the lock and reads that. What was made is read-only for
the tests that share it."""

from __future__ import annotations

import fcntl
import json
from collections.abc import Callable
from pathlib import Path

Made = dict[str, object]
"""What the work gave, as JSON keeps it."""


def once_per_run(run: Path, name: str, make: Callable[[Path], Made]) -> Made:
    """``make(folder)``'s result, made once for all the processes whose run folder is ``run``:
    ``folder`` is ``run/name``, made for it. A failure (an ``AssertionError``) is kept too:
    the other processes fail with it instead of doing the work again."""
    folder = run / name
    folder.mkdir(exist_ok=True)
    result, failure = folder / "made.json", folder / "failed.txt"
    with open(folder / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not result.exists() and not failure.exists():
            try:
                made = make(folder)
            except AssertionError as failed:
                failure.write_text(str(failed), "utf-8")
                raise
            result.write_text(json.dumps(made), "utf-8")
    if failure.exists():
        raise AssertionError(f"{name} failed once for this run: {failure.read_text('utf-8')}")
    made = json.loads(result.read_text("utf-8"))
    assert isinstance(made, dict)
    return made
