"""A site checked on several machines: ``--shard I/N`` does the batches of one shard and
keeps their summaries in the cache; ``--shards N`` builds (or validates) from a cache that
every shard's was merged into, and refuses one that lacks a shard.

A batch belongs to the shard its module's file name hashes to, so adding a batch moves no
other. A shard writes, besides its batches' summaries (``batches/KEY``, as any build keeps
them), a mark (``shards/I-of-N``): the tool that made it, what every batch depended on
(settings, templates, code), each of its batches' keys, and whether it rendered their pages
(``build --shard``: what a build from the merged cache needs). Merging the shards' cache
folders is copying them into one, times kept (``cp -a``, or ``tar``).
"""

from __future__ import annotations

import hashlib
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from site_builder import __version__
from site_builder.errors import Problem, SiteBuilderError, errors_in
from site_builder.model.schedule import Schedule
from site_builder.pipeline.cache.inputs import Inputs, hash_inputs
from site_builder.pipeline.cache.reuse import Cache
from site_builder.pipeline.loading import load_batches
from site_builder.pipeline.worker.batch import BatchSummary
from site_builder.pipeline.worker.site_index import keep_batches
from site_builder.pipeline.worker.workers import Job
from site_builder.settings.project import Project

KIND = "shards"
"""Where the cache keeps the shards' marks."""

_SHARD = re.compile(r"([1-9]\d*)/([1-9]\d*)")


@dataclass(frozen=True, slots=True)
class Shard:
    """One shard of ``count``: the batches whose file name hashes to ``number``."""

    number: int
    """1-based."""
    count: int

    @classmethod
    def parse(cls, text: str) -> Shard:
        """``I/N`` as typed after ``--shard``; ValueError when it is not one."""
        found = _SHARD.fullmatch(text.strip())
        if found is None or int(found.group(1)) > int(found.group(2)):
            raise ValueError(f"give I/N, a shard I of N with 1 <= I <= N (e.g. 2/4), not {text!r}")
        return cls(int(found.group(1)), int(found.group(2)))

    def takes(self, path: Path) -> bool:
        """Whether the batch module at ``path`` is this shard's."""
        return shard_of(path.name, self.count) == self.number

    def __str__(self) -> str:
        return f"{self.number} of {self.count}"


def shard_of(name: str, count: int) -> int:
    """The shard (1-based) of the batch module ``name`` among ``count``: a stable hash of the name."""
    return 1 + int(hashlib.sha256(name.encode("utf-8")).hexdigest()[:16], 16) % count


@dataclass(frozen=True, slots=True, kw_only=True)
class Mark:
    """What a shard leaves in the cache beside its batches' summaries."""

    number: int
    count: int
    version: str
    """The site-builder that made it."""
    common: str
    """What every batch depended on (:attr:`Inputs.common`): settings, templates, helper
    modules, site-builder's own code."""
    keys: tuple[tuple[str, str], ...]
    """Each of its batches: module file name and cache key."""
    rendered: bool
    """Whether it rendered their pages (``build --shard``): a build needs them so."""
    schedule: Schedule


@dataclass(frozen=True, slots=True, kw_only=True)
class ShardRun:
    """What one shard's run found."""

    shard: Shard
    problems: tuple[Problem, ...]
    batches: int
    """How many batches are the shard's."""
    revisions: int
    fixtures: int


def run_shard(
    project: Project,
    shard: Shard,
    *,
    reuse: Cache,
    schedule: Schedule,
    render: bool,
    jobs: int | None = None,
) -> ShardRun:
    """Load, judge and run the fixtures of the batches of ``shard`` (rendering their pages too
    with ``render``) and, when none has an error, keep their summaries and the shard's mark in
    ``reuse``. The rules that need every batch are the final run's (``--shards N``)."""
    inputs = hash_inputs(project, project.output(), reuse.stamps())
    mine = {path: key for path, key in inputs.keys.items() if shard.takes(path)}
    scratch = reuse.scratch()
    try:
        job = Job(
            project=project,
            scratch=scratch,
            run=True,
            staging=_pages_folder(scratch) if render else None,
            keep=True,
            schedule=schedule,
            common=inputs.common,
        )
        summaries, problems = _loaded(project, job, mine, reuse, jobs)
        fixtures = sum(len(summary.outcomes or {}) for summary in summaries.values())  # read here
        if not errors_in(problems):
            keep_batches(reuse.store, summaries)
            mark = Mark(
                number=shard.number,
                count=shard.count,
                version=__version__,
                common=inputs.common,
                keys=tuple((path.name, key) for path, key in mine.items()),
                rendered=render,
                schedule=schedule,
            )
            reuse.store.put(KIND, f"{shard.number}-of-{shard.count}", mark)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return ShardRun(
        shard=shard,
        problems=tuple(sorted(dict.fromkeys(problems), key=Problem.sort_key)),
        batches=len(mine),
        revisions=sum(len(summary.timings) for summary in summaries.values()),
        fixtures=fixtures,
    )


def _pages_folder(scratch: Path) -> Path:
    """Where a shard renders its pages: they are kept by their hashes, the files are not."""
    folder = scratch / "pages"
    folder.mkdir()
    return folder


def _loaded(
    project: Project, job: Job, keys: dict[Path, str], reuse: Cache, jobs: int | None
) -> tuple[dict[str, BatchSummary], list[Problem]]:
    """The shard's batches summarized, and the problems of the settings and of those batches."""
    batches = load_batches(job, keys, reuse, jobs)
    own = (problem for summary in batches.summaries.values() for problem in summary.problems)
    return batches.summaries, [*project.problems, *batches.problems, *own]


def check_merged(reuse: Cache, inputs: Inputs, count: int, schedule: Schedule, *, build: bool) -> None:
    """Refuse a cache that does not hold a whole set of ``count`` shards of this very site:
    a shard missing, made by another site-builder, from other settings, templates or helper
    modules, under another schedule, by ``validate`` for a build, or without a batch the
    site has. Raises SiteBuilderError naming what is wrong."""
    marks = _marks(reuse, count)
    missing = [n for n in range(1, count + 1) if n not in marks]
    if missing:
        raise SiteBuilderError(_missing(reuse, count, missing))
    for number, mark in sorted(marks.items()):
        _same_site(f"shard {number} of {count}", mark, inputs, schedule, build=build)
    done = {name: key for mark in marks.values() for name, key in mark.keys}
    for path, key in inputs.keys.items():
        number = shard_of(path.name, count)
        if done.get(path.name) != key:
            why = "was not done by it" if path.name not in done else "has changed since it was"
            raise SiteBuilderError(
                f"{path.name} is shard {number} of {count}'s and {why}: run that shard again "
                "on these sources, then merge its cache folder"
            )


def _marks(reuse: Cache, count: int) -> dict[int, Mark]:
    found: dict[int, Mark] = {}
    for name in reuse.store.keys(KIND):
        mark = reuse.kept(KIND, name, Mark)
        if mark is not None and mark.count == count:
            found[mark.number] = mark
    return found


def _missing(reuse: Cache, count: int, missing: list[int]) -> str:
    """The message for shards not in the cache, naming the counts of the shards that are."""
    numbers = [str(n) for n in missing]
    listed = numbers[0] if len(numbers) == 1 else f"{', '.join(numbers[:-1])} and {numbers[-1]}"
    named = f"shard {listed} of {count} is" if len(numbers) == 1 else f"shards {listed} of {count} are"
    others = sorted({mark.count for name in reuse.store.keys(KIND) if (mark := reuse.kept(KIND, name, Mark))})
    other = [n for n in others if n != count]
    hint = f"; the cache holds shards of {' and of '.join(map(str, other))}, not of {count}" if other else ""
    return (
        f"--shards {count}: {named} not in {reuse.store.folder}{hint}; merge every shard's "
        "cache folder into this one before the final run (nothing was built)"
    )


def _same_site(which: str, mark: Mark, inputs: Inputs, schedule: Schedule, *, build: bool) -> None:
    """Refuse a shard made by another site-builder, from other shared inputs, under another
    schedule, or (for a build) without its pages."""
    if mark.version != __version__:
        raise SiteBuilderError(f"{which} was made by site-builder {mark.version}; this is {__version__}")
    if mark.common != inputs.common:
        raise SiteBuilderError(
            f"{which} was made from other settings, templates, helper modules or site-builder code "
            "than this site's: run every shard again on the same sources"
        )
    if mark.schedule != schedule:
        raise SiteBuilderError(
            f"{which} was made for {_publishing(mark.schedule)}, this run is for {_publishing(schedule)}: "
            "give every shard the same SOURCE_DATE_EPOCH, --drafts and --future"
        )
    if build and not mark.rendered:
        raise SiteBuilderError(f"{which} was made by validate --shard: a build needs build --shard")


def _publishing(schedule: Schedule) -> str:
    flags = [flag for flag, on in (("--drafts", schedule.drafts), ("--future", schedule.future)) if on]
    return " ".join([schedule.today, *flags])
