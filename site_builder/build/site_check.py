"""Steps 1-5 of every command: the site loaded and judged, nothing written.

``validate`` and ``revisions`` stop here (:func:`check_site`); ``build`` goes on from
the same :class:`Judged` site (:mod:`site_builder.build.pipeline`).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

from site_builder.build.batch import Summary
from site_builder.build.inputs import hash_inputs
from site_builder.build.loading import Batches, load_batches
from site_builder.build.reuse import Reuse
from site_builder.build.workers import Job
from site_builder.check.claims import drift_problems
from site_builder.check.fixture_runs import Outcome
from site_builder.check.left_out import left_out_problems
from site_builder.check.load import missing_articles
from site_builder.check.rules import site_problems
from site_builder.check.schedule import Omitted, Schedule, Timing, including
from site_builder.errors import Problem
from site_builder.settings import Project


@dataclass(frozen=True, slots=True)
class Judged:
    """A site after steps 1-5: every batch and every problem."""

    project: Project
    batches: dict[str, Summary]
    """Every batch that loaded by its key, in site order."""
    problems: tuple[Problem, ...]
    """Every problem found, sorted by file and line."""
    outcomes: dict[str, Outcome]
    """Fixture outcomes by id (empty when fixtures were not run)."""
    schedule: Schedule | None = None
    """What the site publishes; None: every revision (``verify``, ``new``)."""

    @property
    def summaries(self) -> tuple[Summary, ...]:
        """Every batch that loaded, in site order."""
        return tuple(self.batches.values())

    @property
    def revisions(self) -> int:
        """How many revisions the site publishes."""
        return sum(len(part.items) for part in self.summaries)

    @property
    def validated(self) -> int:
        """How many revisions were judged: those left out too."""
        return sum(len(part.refs.slugs) for part in self.summaries)

    def timings(self) -> list[Timing]:
        """Every revision's timing, in site order."""
        return [timing for part in self.summaries for timing in part.refs.timings]

    def omitted(self) -> Omitted:
        """What the schedule leaves out."""
        return Omitted() if self.schedule is None else Omitted.of(self.schedule, self.timings())

    def left_out(self, slugs: Collection[str]) -> str:
        """Which of ``slugs`` (not published) the schedule leaves out, and what includes them:
        ``; left out: x (a draft); --drafts includes it``, or "" when none of them is one."""
        schedule = self.schedule
        found = {
            slug: timing
            for part in self.summaries
            for (slug, _), timing in zip(part.refs.slugs, part.refs.timings, strict=True)
            if slug in slugs
        }
        if schedule is None or not found:
            return ""
        flags = sorted({flag for timing in found.values() for flag in schedule.missing(timing)})
        which = ", ".join(f"{slug} ({schedule.why(timing)})" for slug, timing in found.items())
        return f"; left out: {which}; {including(flags, len(found))}"


def check_site(
    project: Project,
    *,
    run: bool,
    spool: Path,
    schedule: Schedule | None,
    reuse: Reuse | None = None,
    jobs: int | None = None,
) -> Judged:
    """Steps 1-5, writing nothing (the batches' texts go to ``spool``); fixtures only with ``run``;
    what ``schedule`` publishes described (every revision without one)."""
    if not project.articles.is_dir():
        problems = (*project.problems, missing_articles(project.settings))
        return Judged(project, {}, tuple(sorted(problems, key=Problem.sort_key)), {}, schedule)
    inputs = hash_inputs(project, project.output(), reuse.stamps() if reuse is not None else None)
    job = Job(project, spool, run=run, schedule=schedule, common=inputs.common)
    batches = load_batches(job, inputs.keys, reuse, jobs)
    return judge(project, batches, run, schedule)


def judge(project: Project, batches: Batches, run: bool, schedule: Schedule | None) -> Judged:
    """Step 5 over the loaded batches: the settings' problems, the batches' own, then the site's rules
    (links to what ``schedule`` leaves out among them), then every claim against its fixture's outcome."""
    summaries = tuple(batches.summaries.values())
    problems = [*project.problems, *batches.problems, *(p for part in summaries for p in part.problems)]
    refs = [part.refs for part in summaries]
    problems += site_problems(project.root, project.settings, refs)
    if schedule is not None:
        problems += left_out_problems(project.root, project.settings, refs, schedule)
    outcomes: dict[str, Outcome] = {}
    if run:
        for part in summaries:
            outcomes |= part.outcomes or {}
        claims = [claim for part in summaries for claim in part.refs.claims]
        problems += drift_problems(project.root, claims, outcomes)
    unique = sorted(dict.fromkeys(problems), key=Problem.sort_key)  # a template error, once
    return Judged(project, batches.summaries, tuple(unique), outcomes, schedule)
