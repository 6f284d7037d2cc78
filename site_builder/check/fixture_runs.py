"""Run fixtures in worker processes, each with its own timeout.

A fixture is an author's code: it may hang, call ``os._exit``, print, leak
state or raise anything. Each one runs in a forked worker in a process group of
its own, so the command outlives every one of them; a worker still running at
its deadline is asked where it is (:mod:`.worker_stack`), then killed with its whole group.
"""

from __future__ import annotations

import contextlib
import json
import os
import pickle
import shutil
import signal
import sys
import tempfile
import time
import traceback
from collections.abc import Mapping
from dataclasses import dataclass, field
from multiprocessing.connection import wait
from typing import NoReturn

from site_builder.authoring.model import Fixture
from site_builder.check.sandbox import Guards
from site_builder.check.worker_stack import answer_when_asked, ask
from site_builder.runtime.pickled import quick_state
from site_builder.runtime.processes import die_with_parent

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


@quick_state
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


@dataclass(slots=True, kw_only=True)
class _Worker:
    fid: str
    path: str
    """The file the fixture is defined in: the frames of a timeout are those of it."""
    pid: int
    reader: int
    """The read end of the pipe the worker sends its one message on (not blocking)."""
    ended: int
    """Readable once the worker has exited, whatever still holds the pipe open (a pidfd);
    the reader itself where the system has none."""
    started: float
    scratch: str
    """The worker's own temporary directory: the only place it may write."""
    received: bytearray = field(default_factory=bytearray)
    closed: bool = False
    """The pipe is at its end: the worker and everything it started let go of it."""

    def complete(self) -> bool:
        """Whether the whole message has arrived (an 8-byte length, then the pickle)."""
        size = int.from_bytes(self.received[:_HEADER], "big") if len(self.received) >= _HEADER else -1
        return size >= 0 and len(self.received) >= _HEADER + size

    def read(self) -> None:
        """Take what the pipe holds now."""
        while not self.closed:
            try:
                chunk = os.read(self.reader, 1 << 16)
            except BlockingIOError:
                return
            if not chunk:
                self.closed = True
            self.received += chunk

    def exited(self, ready: set[int]) -> bool:
        """Whether ``ready`` says the worker has exited (known only with a pidfd)."""
        return self.ended != self.reader and self.ended in ready

    def close(self) -> None:
        os.close(self.reader)
        if self.ended != self.reader:
            os.close(self.ended)


_HEADER = 8
"""Bytes of the length that comes before a worker's message."""


def run_fixtures(fixtures: Mapping[str, Fixture], *, timeout: float, jobs: int) -> dict[str, Outcome]:
    """Run every fixture, at most ``jobs`` at a time; results in the given order."""
    pending = list(fixtures.items())
    running: list[_Worker] = []
    done: dict[str, Outcome] = {}
    while pending or running:
        while pending and len(running) < max(1, jobs):
            running.append(_start(*pending.pop(0)))
        ready = _ready(running, timeout)
        for worker in list(running):
            outcome = _settle(worker, ready, timeout)
            if outcome is None:
                continue
            done[worker.fid] = outcome
            running.remove(worker)
            worker.close()
            _remove(worker.scratch)
    return {fid: done[fid] for fid in fixtures}


def _ready(running: list[_Worker], timeout: float) -> set[int]:
    """The descriptors of ``running`` workers that are ready, waiting at most until the
    oldest of them reaches its ``timeout``."""
    next_deadline = min(w.started for w in running) + timeout
    watched = {fd for w in running for fd in (w.reader, w.ended)}
    return {
        fd
        for fd in wait(list(watched), timeout=max(0.0, next_deadline - time.monotonic()))
        if isinstance(fd, int)
    }


def _settle(worker: _Worker, ready: set[int], timeout: float) -> Outcome | None:
    """The worker's outcome once it has finished or run out of time, else None."""
    # Ended too: a worker that died while something it started still holds the
    # pipe open is finished, not hanging.
    exited = worker.exited(ready)
    if worker.reader in ready or exited:
        worker.read()
    if worker.complete() or worker.closed or exited:
        return _finish(worker)
    if time.monotonic() - worker.started >= timeout:
        return _timed_out(worker, timeout)
    return None


def _remove(scratch: str) -> None:
    """Remove a worker's temporary directory: most fixtures leave it empty."""
    try:
        os.rmdir(scratch)
    except OSError:
        shutil.rmtree(scratch, ignore_errors=True)


def _timed_out(worker: _Worker, timeout: float) -> Outcome:
    # Where it is, in the fixture's own file: as a raise gives it.
    frames = tuple(Frame(*f) for f in ask(worker.pid, worker.scratch) if f[0] == worker.path)
    _kill(worker.pid)
    return Outcome(
        error=f"did not finish within {timeout:g} s",
        frames=frames,
        duration=time.monotonic() - worker.started,
    )


def _start(fid: str, fx: Fixture) -> _Worker:
    """Fork a worker for one fixture. A bare fork, not a ``multiprocessing`` process: less
    of the interpreter runs in the child, so fewer of its pages are copied (bench/README.md)."""
    reader, writer = os.pipe()  # not inherited by what the fixture may execute
    # Whatever sits in our buffers would otherwise be written twice by the child.
    sys.stdout.flush()
    sys.stderr.flush()
    scratch = tempfile.mkdtemp(prefix="site-builder-fixture-")
    pid = os.fork()
    if pid == 0:
        os.close(reader)
        _child(fx, writer, scratch)  # never returns
    os.close(writer)
    with contextlib.suppress(OSError):
        os.setpgid(pid, pid)  # as the child does: its group exists before any kill
    os.set_blocking(reader, False)
    return _Worker(
        fid=fid,
        path=fx.site.path,
        pid=pid,
        reader=reader,
        ended=_ended(pid, reader),
        started=time.monotonic(),
        scratch=scratch,
    )


def _ended(pid: int, reader: int) -> int:
    """A descriptor that is readable once ``pid`` has exited (Linux), else ``reader``."""
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):
        return reader


def _finish(worker: _Worker) -> Outcome:
    code = _kill(worker.pid)
    if not worker.complete():
        return Outcome(
            error=f"the worker exited with code {code} without returning (os._exit or a crash)",
            duration=time.monotonic() - worker.started,
        )
    kind, payload, frames, duration = pickle.loads(worker.received[_HEADER:])
    outcome_frames = tuple(Frame(*f) for f in frames)
    if kind == "ok":
        return Outcome(output=json.loads(payload), duration=duration)
    return Outcome(error=payload, frames=outcome_frames, duration=duration)


def _kill(pid: int) -> int:
    """Kill the worker and anything it started, then reap it; its exit code."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


def _child(fx: Fixture, writer: int, scratch: str) -> NoReturn:
    """Worker body: call the fixture under guards, send one message, never return."""
    try:
        die_with_parent()
        os.setpgid(0, 0)
        # Nothing to read; and a fixture's prints must not mix with the JSON a command
        # writes on stdout.
        stdin = os.open(os.devnull, os.O_RDONLY)
        os.dup2(stdin, 0)
        os.close(stdin)
        os.dup2(2, 1)
        sys.stdout = sys.stderr
        # Its own temporary directory: a site that itself lives under /tmp stays out of reach.
        os.environ["TMPDIR"] = scratch
        tempfile.tempdir = scratch
        answer_when_asked(scratch)  # before the guards: it opens a file
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
        data = pickle.dumps((*message, time.perf_counter() - started), protocol=pickle.HIGHEST_PROTOCOL)
        _send(writer, len(data).to_bytes(_HEADER, "big") + data)
    finally:
        os._exit(0)


def _send(fd: int, data: bytes) -> None:
    """Write all of ``data`` (the parent reads while the pipe is full)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


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
