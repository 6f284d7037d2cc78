"""Loading batches, and running their fixtures, in worker processes.

Importing a batch renders its text (Markdown and all), which is most of a
build's work; the batches are independent, so each worker imports some of them,
runs their fixtures (each in a process of its own, as always) and sends back
plain data: revisions, problems and fixture outcomes. A batch whose import
kills its worker (``os._exit`` at import, a crash) is tried again alone, and then
reported, so one batch never takes the others down.
"""

from __future__ import annotations

import multiprocessing
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

from .errors import Problem
from .fixtures import Outcome, run_fixtures
from .lifetime import die_with_parent
from .loader import Batch, Site, batch_paths, fixture_id, load_batch, load_site
from .settings import load_settings

Loaded = tuple[Batch | None, Problem | None, dict[str, Outcome]]


def load_in_workers(root: Path, *, jobs: int, run: bool) -> tuple[Site, dict[str, Outcome]]:
    """The site as :func:`load_site` gives it, and, with ``run``, every fixture's outcome."""
    root = root.resolve()
    settings, problems = load_settings(root)
    folder = root / settings.articles_dir
    if not folder.is_dir():
        return load_site(root), {}
    paths = batch_paths(folder)
    loaded = _in_pool(paths, root, settings.fixture_timeout, run, jobs)
    batches: list[Batch] = []
    outcomes: dict[str, Outcome] = {}
    for path in paths:  # site order, whichever worker finished first
        batch, problem, batch_outcomes = loaded[path]
        problems += [problem] if problem is not None else []
        batches += [batch] if batch is not None else []
        outcomes |= batch_outcomes
    return Site(root, settings, tuple(batches), tuple(problems)), outcomes


def _in_pool(paths: list[Path], root: Path, timeout: float, run: bool, jobs: int) -> dict[Path, Loaded]:
    context = multiprocessing.get_context("fork")
    results: dict[Path, Loaded] = {}
    broken: list[Path] = []
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=die_with_parent) as pool:
        futures: dict[Path, Future[Loaded]] = {
            path: pool.submit(load_and_run, path, root, timeout, run) for path in paths
        }
        for path, future in futures.items():
            try:
                results[path] = future.result()
            except BrokenProcessPool:
                broken.append(path)
    for path in broken:
        results[path] = _alone(path, root, timeout, run)
    return results


def _alone(path: Path, root: Path, timeout: float, run: bool) -> Loaded:
    """Retry one batch in a pool of its own: it, not a neighbour, broke the last one."""
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=1, mp_context=context, initializer=die_with_parent) as pool:
        try:
            return pool.submit(load_and_run, path, root, timeout, run).result()
        except BrokenProcessPool:
            message = "cannot import: importing it ended the process (os._exit, a signal or a crash)"
            relative = path.relative_to(root).as_posix()
            return (
                None,
                Problem(path=relative, line=1, subject=f"batch {path.stem}", rule="import", message=message),
                {},
            )


def load_and_run(path: Path, root: Path, timeout: float, run: bool) -> Loaded:
    """Worker task: import one batch and, with ``run``, run its well-defined fixtures."""
    batch, problem = load_batch(path, root)
    if batch is None or not run:
        return batch, problem, {}
    fixtures = {fixture_id(fx): fx for fx in batch.fixtures if not fx.flaws}
    return batch, problem, run_fixtures(fixtures, timeout=timeout, jobs=1)
