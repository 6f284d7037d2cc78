"""Steps 1-4 of every command: load each batch (or take its kept summary), judge it on
its own, run its fixtures and, in a build, render its pages: in worker processes.

Batches that must be loaded go to the workers first, so they start at once while
the kept summaries are read; in a build (:class:`Hooks`) batches are taken shard by
shard, so that a search shard can be indexed as soon as its last batch is staged.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from site_builder.errors import Problem
from site_builder.model.layout import article_file
from site_builder.model.schedule import views
from site_builder.pipeline.cache.reuse import Cache
from site_builder.pipeline.worker.batch import BatchSummary
from site_builder.pipeline.worker.pool import Pool, StartMethod
from site_builder.pipeline.worker.site_index import kept_summaries, kept_summary
from site_builder.pipeline.worker.workers import Job, Loaded, Workers

Arrived = Callable[[str, dict[str, str]], None]
"""Told of each batch's staged pages (batch name, output path → content hash) once summarized."""


@dataclass(frozen=True, slots=True)
class Hooks:
    """What a build adds to loading: the order batches go in, who hears of each one done,
    and whether a kept summary's pages are still at hand."""

    group: Callable[[str], int]
    """A batch name's group (its search shard): batches are taken group by group."""
    arrived: Arrived
    at_hand: Callable[[BatchSummary], bool]
    """Whether a kept summary's pages are in the staging folder or the live site, unchanged."""
    sized: Callable[[BatchSummary], bool]
    """Whether every image a kept summary's pages show still has the size they give it."""


@dataclass(frozen=True, slots=True)
class Batches:
    """Every batch of the site: its summary (in site order) or why it did not load."""

    summaries: dict[str, BatchSummary]
    """Batch key → summary, in site order."""
    problems: list[Problem]
    """Batches that did not import, or had a wrong item in ``revisions``."""

    def whole(self) -> Batches:
        """These batches, every summary's body read (:meth:`BatchSummary.body`): for a command that
        reads them once the folder it loaded them into is gone."""
        for summary in self.summaries.values():
            summary.body()
        return self


def default_jobs() -> int:
    """One worker per core."""
    return os.cpu_count() or 1


def load_batches(
    job: Job,
    keys: dict[Path, str],
    reuse: Cache | None,
    jobs: int | None,
    hooks: Hooks | None = None,
    start: StartMethod | Pool = "fork",
) -> Batches:
    """Summarize every batch of ``keys`` (path → key, in site order), in workers started by
    ``start``, or in a pool kept across builds."""
    found: dict[Path, BatchSummary] = {}
    kept = reuse.batch_keys() if reuse is not None else set()
    fresh, known = _order(keys, kept, hooks)
    tell = _teller(hooks)
    with Workers(job, min(jobs or default_jobs(), max(1, len(keys))), start) as workers:
        for path in fresh:  # what must be loaded first: the workers start on it at once
            workers.submit(path, keys[path])
        # The kept summaries are read while the workers start: at 10,000 articles the site
        # index takes 0.1 s, which an edited batch's worker spent waiting for its start.
        take = _kept_reader(job, keys, reuse, kept, hooks)
        for path in known:
            entry = take(keys[path])
            if entry is not None:
                found[path] = entry
                tell(path, Loaded(entry, None))
            else:
                workers.submit(path, keys[path])
            workers.ready(tell)
        loaded = workers.results(tell)
    return _in_site_order(keys, found, loaded)


def _order(keys: dict[Path, str], kept: set[str], hooks: Hooks | None) -> tuple[list[Path], list[Path]]:
    """The batches to load, in the order they go to the workers, and those whose summary
    the cache keeps, in the order they are read: in a build group by group, the groups of
    the batches to load first (they may be complete the soonest)."""
    paths = sorted(keys, key=lambda path: hooks.group(path.stem)) if hooks is not None else list(keys)
    fresh = [path for path in paths if keys[path] not in kept]
    if hooks is not None:
        first = {hooks.group(path.stem) for path in fresh}
        paths.sort(key=lambda path: hooks.group(path.stem) not in first)
    return fresh, [path for path in paths if keys[path] in kept]


def _kept_reader(
    job: Job, keys: dict[Path, str], reuse: Cache | None, kept: set[str], hooks: Hooks | None
) -> Callable[[str], BatchSummary | None]:
    """The kept summary of a batch key that this run can use, read from the site index (read
    once, here, before the first is asked for), or None."""
    if reuse is None:
        return lambda _key: None
    index = kept_summaries(reuse) if kept else {}
    by_name = {path.stem: key for path, key in keys.items()}

    def read(key: str) -> BatchSummary | None:
        return _usable(kept_summary(reuse, key, index), job, hooks, by_name)

    return read


def _teller(hooks: Hooks | None) -> Callable[[Path, Loaded], None]:
    """Tell the build's listener of a batch summarized (and its pages staged)."""

    def tell(_path: Path, result: Loaded) -> None:
        # A batch whose pages the kernel finishes is heard of once it has (build.sitewide).
        if hooks is not None and result.summary is not None and not result.summary.deferred:
            hooks.arrived(result.summary.name, result.summary.pages or {})

    return tell


def _usable(
    entry: BatchSummary | None, job: Job, hooks: Hooks | None, keys: dict[str, str]
) -> BatchSummary | None:
    """A kept summary that has what this run needs (fixture outcomes, pages at hand), made while
    the batches it imports were as they are (``keys``: every batch's key by name)."""
    if entry is None or (job.run and not entry.ran):
        return None
    if any(keys.get(name) != key for name, key in entry.depends):
        return None
    if entry.views != views(job.schedule, entry.timings):  # described under another date or flags
        return None
    return entry if job.staging is None else _staged(entry, hooks)


def _staged(entry: BatchSummary, hooks: Hooks | None) -> BatchSummary | None:
    """In a build, a kept summary with its pages as they are when at hand; else with them left
    to the kernel, which renders them from the summary: that needs the images they show to
    have kept their sizes (or the batch is loaded again)."""
    if entry.pages is None or hooks is None or not hooks.sized(entry):
        return None
    return entry if hooks.at_hand(entry) else _left_to_the_kernel(entry)


def _left_to_the_kernel(entry: BatchSummary) -> BatchSummary:
    """``entry`` with every page of its own left to the kernel, which renders them from its
    texts (:attr:`BatchSummary.deferred`): its pages are no longer at hand (the output folder
    is gone, as in a CI run that restored only the cache), and its batch need not be imported,
    nor its fixtures run, again."""
    own = tuple(article_file(item.slug) for item in entry.items if not item.later)
    return dataclasses.replace(entry, deferred=tuple(dict.fromkeys((*entry.deferred, *own))))


def _in_site_order(
    keys: dict[Path, str], found: dict[Path, BatchSummary], loaded: dict[Path, Loaded]
) -> Batches:
    summaries: dict[str, BatchSummary] = {}
    problems: list[Problem] = []
    for path, key in keys.items():  # site order, whichever worker finished first
        if path in found:
            summaries[key] = found[path]
            continue
        result = loaded[path]
        problems += [result.problem] if result.problem is not None else []
        if result.summary is not None:
            summaries[key] = result.summary
    return Batches(summaries, problems)
