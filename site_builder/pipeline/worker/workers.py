"""Loading batches, and running their fixtures, in worker processes.

Importing a batch renders its text (Markdown and all), which is most of a
build's work; the batches are independent, so each worker imports some of them,
runs their fixtures (each in a process of its own, as always), renders their
pages into the staging folder and sends back a :class:`BatchSummary`. A batch whose
import kills its worker (``os._exit`` at import, a crash) is tried again alone,
and then reported, so one batch never takes the others down; a batch whose import
does not finish within ``import_timeout`` has its worker killed (:mod:`.importing`)
and is reported, and the batches that kill took down are loaded again.
"""

from __future__ import annotations

import dataclasses
import pickle
from collections import deque
from collections.abc import Callable, Mapping
from concurrent.futures import Future, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path

import site_builder
from site_builder.check.claims import same_every_time
from site_builder.check.fixture_runs import Outcome, run_fixtures
from site_builder.check.load import forget, load_batch
from site_builder.errors import Problem
from site_builder.model.batches import Batch, fixture_id
from site_builder.model.schedule import Schedule
from site_builder.pipeline.cache.inputs import batch_key
from site_builder.pipeline.worker.batch import BatchSummary, summarize
from site_builder.pipeline.worker.importing import Watch, importing
from site_builder.pipeline.worker.pool import Pool, StartMethod
from site_builder.pipeline.worker.texts import highlighted_in
from site_builder.render.pages import compile_templates, environment
from site_builder.settings.project import Project

Task = tuple[Path, str]
"""A batch handed to the workers: its module and its cache key."""


@dataclass(frozen=True, slots=True)
class Loaded:
    """What a worker sends back for one batch: its summary, or why it did not load."""

    summary: BatchSummary | None
    """None when the batch did not import."""
    problem: Problem | None
    """Why it did not load, or a wrong item in its ``revisions``."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Job:
    """What every worker task needs to know about the site."""

    project: Project
    scratch: Path
    """A folder for the batches' long texts (the cache keeps those of clean summaries)."""
    run: bool = False
    """Run the fixtures: the well-defined ones, or those of ``fixtures``."""
    fixtures: frozenset[str] | None = None
    """Run only these fixtures (``verify ID…``); None: all."""
    flawed: bool = False
    """Run a wrongly defined fixture too, to report what it does (``verify``)."""
    repeat: int = 1
    """Run each fixture this many times; a fixture whose runs disagree fails."""
    staging: Path | None = None
    """Render the article pages into this folder (a build)."""
    keep: bool = False
    """Pickle each clean summary beside its texts in ``scratch`` (``KEY.summary``): the cache
    takes both over once the build has succeeded (:meth:`Cache.remember`)."""
    schedule: Schedule | None = None
    """What is published (drafts, scheduled revisions); None: every revision, unmarked (``verify``)."""
    superseded: frozenset[str] = frozenset()
    """Slugs whose first revision's page the main process renders (:meth:`Cache.superseded`)."""
    common: str = ""
    """What every batch's cache key shares (:attr:`Inputs.common`): the keys of the batches a
    batch imports are computed with it."""
    earlier: Mapping[str, Path] = dataclasses.field(default_factory=dict)
    """Batch name → the texts file of its summary by the last build, when it changed alone
    since (:attr:`Inputs.earlier`): the code blocks highlighted then are taken from there."""

    @property
    def imports(self) -> Path:
        """The folder where each worker says which batch it is importing (:func:`importing`)."""
        return self.scratch / "importing"


WORKERS = __name__
"""The module a forkserver preloads for the workers it starts: the package's pipeline."""


class Workers:
    """The worker processes of one build, given its batches one at a time.

    Batches can be handed over one at a time, so the workers start on what must
    be loaded while the caller is still reading the cache for the rest. The processes
    are a pool of this build's own (``start``: how they start), or one that outlives it
    (a :class:`Pool` a long-lived process keeps). ``retry``: a batch whose worker ended
    is tried again alone, to tell which one ended it; without, it is reported at once.
    """

    def __init__(
        self, job: Job, jobs: int, start: StartMethod | Pool = "fork", *, retry: bool = True
    ) -> None:
        self._job = job
        self._own = not isinstance(start, Pool)
        self._pool = Pool(jobs, start, (WORKERS,)) if not isinstance(start, Pool) else start
        self._retry = retry
        self._watch = Watch(job.imports, job.project.settings.import_timeout, self._pool.kill)
        self._futures: dict[Task, Future[Loaded]] = {}
        self._done: deque[Task] = deque()  # appended to by the pool's thread
        self._told: set[Task] = set()
        self._prepared = start != "fork"
        """Whether what the workers share is made: only forked workers take it from here."""

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, kind: type[BaseException] | None, *_exc: object) -> None:
        # Interrupted or failed: a running import or fixture is not waited for, and a kept
        # pool starts afresh rather than finish this build's tasks for nobody.
        try:
            if self._own or kind is not None:
                self._pool.close(at_once=kind is not None)
        finally:
            self._watch.stop()

    def submit(self, path: Path, key: str) -> None:
        """Load, judge and render the batch at ``path`` (cache key ``key``)."""
        if not self._prepared:
            prepare(self._job)
            self._prepared = True
        self._watch.ready()
        future = self._pool.submit(load_one, path, key, self._job)
        # Started once the pool has forked its workers (at its first task): a fork while a
        # thread of ours runs may leave a lock held in the child (Python 3.12 warns of it). The
        # markers date each import from its start, so a late start misses no deadline.
        self._watch.start()
        self._futures[(path, key)] = future
        future.add_done_callback(lambda _: self._done.append((path, key)))  # from another thread

    def ready(self, each: Callable[[Path, Loaded], None]) -> None:
        """Tell ``each`` of the batches done since the last call, without waiting."""
        while self._done:
            task = self._done.popleft()
            future = self._futures[task]
            if task not in self._told and future.exception() is None:
                self._told.add(task)
                each(task[0], future.result())

    def results(self, each: Callable[[Path, Loaded], None] | None = None) -> dict[Path, Loaded]:
        """What every batch handed over gave, waiting for the last; ``each`` is told of
        every batch (not told by :meth:`ready`) as soon as it is done."""
        results: dict[Path, Loaded] = {}
        broken = self._collect(self._futures, results, each)
        while late := [task for task in broken if self._watch.late(task[1])]:
            for task in late:
                self._tell(results, task, Loaded(None, _problem(task[0], self._job, _late(self._job))), each)
            broken = [task for task in broken if task not in late]
            # Killing a late import broke the pool: the batches it took down did nothing
            # wrong, and go to new workers together.
            self._watch.forget()
            futures = {task: self._pool.submit(load_one, *task, self._job) for task in broken}
            broken = self._collect(futures, results, each)
        self._watch.forget()
        for task in sorted(broken):  # one of them ended its worker: alone, each shows whether it did
            loaded = (
                _alone(*task, self._job)
                if self._retry
                else Loaded(None, _problem(task[0], self._job, _ENDED))
            )
            self._tell(results, task, loaded, each)
        return results

    def _collect(
        self,
        futures: dict[Task, Future[Loaded]],
        results: dict[Path, Loaded],
        each: Callable[[Path, Loaded], None] | None,
    ) -> list[Task]:
        """Wait for ``futures``, putting what each gave in ``results``; the tasks whose worker ended."""
        broken: list[Task] = []
        tasks = {future: task for task, future in futures.items()}
        for future in as_completed(tasks):
            try:
                loaded = future.result()
            except BrokenProcessPool:
                broken.append(tasks[future])
                continue
            self._tell(results, tasks[future], loaded, each)
        return broken

    def _tell(
        self,
        results: dict[Path, Loaded],
        task: Task,
        loaded: Loaded,
        each: Callable[[Path, Loaded], None] | None,
    ) -> None:
        results[task[0]] = loaded
        if each is not None and task not in self._told:
            self._told.add(task)
            each(task[0], loaded)


def prepare(job: Job) -> None:
    """Make in this process, before it forks the workers, what each would otherwise make
    again for itself: the helpers every article imports (Markdown's parser with them) and,
    for a build, the site's compiled templates."""
    for name in site_builder.__all__:
        getattr(site_builder, name)
    if job.staging is not None:
        compile_templates(environment(job.project.root))


_ENDED = "cannot import: importing it ended the process (os._exit, a signal or a crash)"


def _late(job: Job) -> str:
    return f"importing it did not finish in {job.project.settings.import_timeout:g} s"


def _problem(path: Path, job: Job, message: str) -> Problem:
    """A batch that did not load, said at its file."""
    relative = path.relative_to(job.project.root).as_posix()
    return Problem(path=relative, line=1, subject=f"batch {path.stem}", rule="import", message=message)


def _alone(path: Path, key: str, job: Job) -> Loaded:
    """Retry one batch in a pool of its own: it, not a neighbour, broke the last one."""
    with Workers(job, 1, "fork", retry=False) as workers:
        workers.submit(path, key)
        return workers.results()[path]


def load_one(path: Path, key: str, job: Job) -> Loaded:
    """Worker task: import one batch; run its fixtures; summarize (and render) it."""
    with importing(job.imports, key):
        batch, problem = load_batch(path, job.project.root)
    if batch is None:
        return Loaded(None, problem)
    outcomes = _run(batch, job) if job.run else None
    texts_file = job.scratch / f"{key}.text"
    earlier = job.earlier.get(path.stem)  # set by a build only: the others render nothing
    highlighted = highlighted_in(earlier) if earlier is not None else None
    summary = summarize(
        job.project, batch, outcomes, job.staging, texts_file, job.schedule, job.superseded, highlighted
    )
    if batch.imports:
        folder = batch.path.parent
        depends = tuple((name, batch_key(job.common, folder / f"{name}.py")) for name in batch.imports)
        summary = dataclasses.replace(summary, depends=depends)
    forget(batch)  # the summary is all that is needed of it now
    if job.keep and problem is None and summary.clean:  # pickled here, in parallel, not in the main process
        (job.scratch / f"{key}.summary").write_bytes(pickle.dumps(summary, protocol=pickle.HIGHEST_PROTOCOL))
    return Loaded(summary, problem)


def _run(batch: Batch, job: Job) -> dict[str, Outcome]:
    """Run the batch's fixtures the job asks for, each ``repeat`` times."""
    wanted = job.fixtures
    fixtures = {
        fixture_id(fx): fx
        for fx in batch.fixtures
        if (job.flawed or not fx.flaws) and (wanted is None or fixture_id(fx) in wanted)
    }
    timeout = job.project.settings.fixture_timeout
    runs = [run_fixtures(fixtures, timeout=timeout, jobs=1) for _ in range(max(1, job.repeat))]
    return {fid: same_every_time([run[fid] for run in runs]) for fid in fixtures}
