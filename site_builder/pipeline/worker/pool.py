"""The worker processes a build hands its batches to, and how they start.

A build owns a pool for its own length. A long-lived process (``serve``) keeps one pool
for all its rebuilds instead: its workers stay warm (modules imported, templates
compiled, lexers loaded), so an edit costs the import and render of one batch rather
than the start of new processes that learn all that again.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Literal, TypeVar

from site_builder.runtime.processes import short_socket_folder, start_forkserver, start_worker

StartMethod = Literal["fork", "forkserver"]
"""How worker processes start: ``fork``, from this process (at once, sharing what it has
loaded); ``forkserver``, from a small server process started once, importing only the
package: what a long-lived process whose memory has grown (``serve``) uses, so that each
worker, and each fixture run it forks, does not carry that memory along."""

T = TypeVar("T")


class Pool:
    """Up to ``jobs`` worker processes, started with the first task and again after a
    task broke them (a batch whose import ended its process)."""

    def __init__(self, jobs: int, start: StartMethod = "fork", preload: tuple[str, ...] = ()) -> None:
        self.jobs = max(1, jobs)
        self._start = start
        self._preload = preload
        """Modules the forkserver imports once, for every worker it starts."""
        self._executor: ProcessPoolExecutor | None = None

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, kind: type[BaseException] | None, *_exc: object) -> None:
        self.close(at_once=kind is not None)

    def submit(self, task: Callable[..., T], *args: object) -> Future[T]:
        """Run ``task(*args)`` in a worker.

        A submit may start a worker; from a forkserver, that start is a request and an
        answer, and a signal cutting it in half (its KeyboardInterrupt lands in the main
        thread) leaves a worker this process does not know of, which fails with a
        traceback once this process is gone. So while workers may still start, the
        submit runs in a thread of its own and is waited for."""
        try:
            return self._submit(task, *args)
        except BrokenProcessPool:  # a worker ended between the look at the pool and the submit
            return self._submit(task, *args)

    def _submit(self, task: Callable[..., T], *args: object) -> Future[T]:
        executor = self._working()
        started = len(getattr(executor, "_processes", None) or {})
        if self._start == "fork" or started >= self.jobs:
            return executor.submit(task, *args)
        with ThreadPoolExecutor(max_workers=1) as launcher:  # its exit waits for the submit
            return launcher.submit(executor.submit, task, *args).result()

    def close(self, *, at_once: bool) -> None:
        """Stop the workers: after their tasks, or ``at_once`` (interrupted or failed: a
        running import or fixture is not waited for). The next task starts new ones."""
        executor, self._executor = self._executor, None
        if executor is None:
            return
        if at_once:
            for process in list((getattr(executor, "_processes", None) or {}).values()):
                process.terminate()
        executor.shutdown(cancel_futures=True)

    def kill(self, pid: int) -> None:
        """End the worker ``pid`` at once, if it is one of this pool's: a task that will not
        finish (:class:`~site_builder.pipeline.worker.importing.Watch`). Its task and every other one under
        way fail (the pool is broken); the next task starts new workers."""
        executor = self._executor
        if executor is not None and pid in (getattr(executor, "_processes", None) or {}):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)

    def _working(self) -> ProcessPoolExecutor:
        """The executor, new when there was none or the last one broke."""
        if self._executor is not None and getattr(self._executor, "_broken", False):
            self.close(at_once=True)
        if self._executor is None:
            context = multiprocessing.get_context(self._start)
            if self._start == "forkserver":
                short_socket_folder()
                start_forkserver(list(self._preload))
            self._executor = ProcessPoolExecutor(
                max_workers=self.jobs,
                mp_context=context,
                initializer=start_worker,
                initargs=(os.getpid(),),
            )
        return self._executor
