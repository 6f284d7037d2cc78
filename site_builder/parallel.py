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
from dataclasses import dataclass
from pathlib import Path

from .errors import Problem
from .fixtures import Outcome, run_fixtures
from .lifetime import die_with_parent
from .loader import Batch, Site, batch_paths, fixture_id, load_batch, load_site
from .settings import Settings, load_settings
from .sitefiles import Prepared, prepare_batch


@dataclass(frozen=True, slots=True)
class Loaded:
    """What a worker sends back for one batch."""

    batch: Batch | None
    """The batch, or None when it did not import."""
    problem: Problem | None
    """Why it did not load, or a wrong item in its ``revisions``."""
    outcomes: dict[str, Outcome]
    """Its fixtures' outcomes, when they were run."""
    prepared: Prepared | None
    """Its revisions rendered, when asked for (a build)."""


@dataclass(frozen=True, slots=True)
class Job:
    """What every worker task needs to know about the site."""

    root: Path
    settings: Settings
    run: bool
    """Run the fixtures."""
    render: bool
    """Render the revisions (JSON objects and article pages)."""


def load_in_workers(
    root: Path, *, jobs: int, run: bool, render: bool = False
) -> tuple[Site, dict[str, Outcome], list[Prepared] | None]:
    """The site as :func:`load_site` gives it, every fixture's outcome (``run``), and
    every batch rendered (``render``), in site order."""
    root = root.resolve()
    settings, problems = load_settings(root)
    folder = root / settings.articles_dir
    if not folder.is_dir():
        return load_site(root), {}, None
    paths = batch_paths(folder)
    loaded = _in_pool(paths, Job(root, settings, run, render), jobs)
    batches: list[Batch] = []
    outcomes: dict[str, Outcome] = {}
    prepared: list[Prepared] = []
    for path in paths:  # site order, whichever worker finished first
        part = loaded[path]
        problems += [part.problem] if part.problem is not None else []
        batches += [part.batch] if part.batch is not None else []
        prepared += [part.prepared] if part.prepared is not None else []
        outcomes |= part.outcomes
    return Site(root, settings, tuple(batches), tuple(problems)), outcomes, prepared if render else None


def _in_pool(paths: list[Path], job: Job, jobs: int) -> dict[Path, Loaded]:
    context = multiprocessing.get_context("fork")
    results: dict[Path, Loaded] = {}
    broken: list[Path] = []
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=die_with_parent) as pool:
        futures: dict[Path, Future[Loaded]] = {path: pool.submit(load_and_run, path, job) for path in paths}
        for path, future in futures.items():
            try:
                results[path] = future.result()
            except BrokenProcessPool:
                broken.append(path)
    for path in broken:
        results[path] = _alone(path, job)
    return results


def _alone(path: Path, job: Job) -> Loaded:
    """Retry one batch in a pool of its own: it, not a neighbour, broke the last one."""
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=1, mp_context=context, initializer=die_with_parent) as pool:
        try:
            return pool.submit(load_and_run, path, job).result()
        except BrokenProcessPool:
            message = "cannot import: importing it ended the process (os._exit, a signal or a crash)"
            relative = path.relative_to(job.root).as_posix()
            problem = Problem(
                path=relative, line=1, subject=f"batch {path.stem}", rule="import", message=message
            )
            return Loaded(None, problem, {}, None)


def load_and_run(path: Path, job: Job) -> Loaded:
    """Worker task: import one batch; run its well-defined fixtures; render its revisions."""
    batch, problem = load_batch(path, job.root)
    if batch is None:
        return Loaded(None, problem, {}, None)
    outcomes: dict[str, Outcome] = {}
    if job.run:
        fixtures = {fixture_id(fx): fx for fx in batch.fixtures if not fx.flaws}
        outcomes = run_fixtures(fixtures, timeout=job.settings.fixture_timeout, jobs=1)
    prepared = prepare_batch(job.root, job.settings, batch) if job.render else None
    return Loaded(batch, problem, outcomes, prepared)
