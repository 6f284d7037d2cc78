"""Run fixtures in worker processes, each with its own timeout.

A fixture is an author's code: it may hang, call ``os._exit``, print, leak
state or raise anything. Each one runs in a forked worker in a process group of
its own, so the command outlives every one of them; a worker still running at
its deadline is killed with its whole group.
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import shutil
import signal
import sys
import tempfile
import time
import traceback
from collections.abc import Mapping
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess

from site_builder.authoring.model import Fixture
from site_builder.check.sandbox import Guards
from site_builder.processes import die_with_parent

MAX_OUTPUT_CHARS = 10_000_000
"""A fixture's output is a claim an article prints part of, not a data dump."""


@dataclass(frozen=True, slots=True)
class Frame:
    """One line of a fixture's own file on a traceback."""

    path: str
    """Absolute path of the fixture's file."""
    line: int
    """Line number in it."""
    function: str
    """Function running there."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Outcome:
    """What one fixture run produced."""

    output: object = None
    """The returned value, decoded from JSON; None when there was none."""
    error: str | None = None
    """Why the run produced no usable value, or None."""
    frames: tuple[Frame, ...] = ()
    """For an exception: the frames of the fixture's own file, innermost last."""
    duration: float = 0.0
    """Seconds the run took."""


@dataclass(frozen=True, slots=True)
class _Worker:
    fid: str
    process: BaseProcess
    started: float
    scratch: str
    """The worker's own temporary directory: the only place it may write."""


def run_fixtures(fixtures: Mapping[str, Fixture], *, timeout: float, jobs: int) -> dict[str, Outcome]:
    """Run every fixture, at most ``jobs`` at a time; results in the given order."""
    pending = list(fixtures.items())
    running: dict[Connection, _Worker] = {}
    done: dict[str, Outcome] = {}
    while pending or running:
        while pending and len(running) < max(1, jobs):
            conn, worker = _start(*pending.pop(0))
            running[conn] = worker
        next_deadline = min(w.started for w in running.values()) + timeout
        # The sentinel too: a worker that died while something it started still
        # holds the pipe open is finished, not hanging.
        watched: list[Connection | int] = [*running, *(w.process.sentinel for w in running.values())]
        ready = wait(watched, timeout=max(0.0, next_deadline - time.monotonic()))
        for conn, worker in list(running.items()):
            if conn in ready or worker.process.sentinel in ready:
                del running[conn]
                done[worker.fid] = _finish(conn, worker)
            elif time.monotonic() - worker.started >= timeout:
                del running[conn]
                done[worker.fid] = _timed_out(conn, worker, timeout)
            else:
                continue
            _remove(worker.scratch)
    return {fid: done[fid] for fid in fixtures}


def _remove(scratch: str) -> None:
    """Remove a worker's temporary directory: most fixtures leave it empty."""
    try:
        os.rmdir(scratch)
    except OSError:
        shutil.rmtree(scratch, ignore_errors=True)


def _timed_out(conn: Connection, worker: _Worker, timeout: float) -> Outcome:
    _kill(worker.process)
    conn.close()
    return Outcome(error=f"did not finish within {timeout:g} s", duration=time.monotonic() - worker.started)


def _start(fid: str, fx: Fixture) -> tuple[Connection, _Worker]:
    reader, writer = multiprocessing.Pipe(duplex=False)
    # Whatever sits in our buffers would otherwise be written twice by the child.
    sys.stdout.flush()
    sys.stderr.flush()
    scratch = tempfile.mkdtemp(prefix="site-builder-fixture-")
    process = multiprocessing.get_context("fork").Process(
        target=_child, args=(fx, writer, scratch), daemon=True
    )
    process.start()
    writer.close()
    return reader, _Worker(fid, process, time.monotonic(), scratch)


def _finish(conn: Connection, worker: _Worker) -> Outcome:
    try:
        message = conn.recv() if conn.poll(0) else None
    except EOFError:
        message = None
    finally:
        conn.close()
    worker.process.join(5)
    _kill(worker.process)
    if message is None:
        code = worker.process.exitcode
        return Outcome(
            error=f"the worker exited with code {code} without returning (os._exit or a crash)",
            duration=time.monotonic() - worker.started,
        )
    kind, payload, frames, duration = message
    outcome_frames = tuple(Frame(*f) for f in frames)
    if kind == "ok":
        return Outcome(output=json.loads(payload), duration=duration)
    return Outcome(error=payload, frames=outcome_frames, duration=duration)


def _kill(process: BaseProcess) -> None:
    """Kill the worker and anything it started, then reap it."""
    if process.pid is not None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
    process.join()


def _child(fx: Fixture, conn: Connection, scratch: str) -> None:
    """Worker body: call the fixture under guards, send one message, never return."""
    die_with_parent()
    os.setpgid(0, 0)
    # A fixture's prints must not mix with the JSON a command writes on stdout.
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    # Its own temporary directory: a site that itself lives under /tmp stays out of reach.
    os.environ["TMPDIR"] = scratch
    tempfile.tempdir = scratch
    guards = Guards(scratch)
    guards.install()
    started = time.perf_counter()
    try:
        message = _encode(fx.function())
    except BaseException as exc:  # noqa: BLE001 - everything a fixture raises is reported
        frames = tuple(
            (f.filename, f.lineno or 0, f.name)
            for f in traceback.extract_tb(exc.__traceback__)
            if f.filename == fx.site.path
        )
        message = ("error", f"raised {type(exc).__name__}: {_short(exc)}", frames)
    if guards.violations:
        # Reported even when the fixture caught the PermissionError and went on.
        message = ("error", "; ".join(guards.violations), message[2])
    try:
        conn.send((*message, time.perf_counter() - started))
    finally:
        conn.close()
        os._exit(0)


def _short(exc: BaseException) -> str:
    text = str(exc)
    return text if len(text) <= 500 else text[:497] + "…"


def _encode(value: object) -> tuple[str, str, tuple[tuple[str, int, str], ...]]:
    if not isinstance(value, dict):
        return ("error", f"returned {type(value).__name__}, not a dict", ())
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as exc:
        return ("error", f"returned a value that is not JSON: {exc}", ())
    if len(text) > MAX_OUTPUT_CHARS:
        return (
            "error",
            f"returned {len(text):,} characters of JSON; at most {MAX_OUTPUT_CHARS:,} are allowed",
            (),
        )
    return ("ok", text, ())
