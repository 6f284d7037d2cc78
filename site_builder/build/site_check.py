"""Steps 1-5 of every command: the site loaded and judged, nothing written.

``validate`` and ``revisions`` stop here (:func:`check_site`); ``build`` goes on from
the same :class:`Judged` site (:mod:`site_builder.build.pipeline`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from site_builder.build.batch import Summary
from site_builder.build.inputs import hash_inputs
from site_builder.build.loading import Batches, load_batches
from site_builder.build.reuse import Reuse
from site_builder.build.workers import Job
from site_builder.check.claims import drift_problems
from site_builder.check.fixture_runs import Outcome
from site_builder.check.load import missing_articles
from site_builder.check.rules import site_problems
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

    @property
    def summaries(self) -> tuple[Summary, ...]:
        """Every batch that loaded, in site order."""
        return tuple(self.batches.values())

    @property
    def revisions(self) -> int:
        """How many revisions the site has."""
        return sum(len(part.items) for part in self.summaries)


def check_site(
    project: Project, *, run: bool, spool: Path, reuse: Reuse | None = None, jobs: int | None = None
) -> Judged:
    """Steps 1-5, writing nothing (the batches' texts go to ``spool``); fixtures only with ``run``."""
    if not project.articles.is_dir():
        problems = (*project.problems, missing_articles(project.settings))
        return Judged(project, {}, tuple(sorted(problems, key=Problem.sort_key)), {})
    inputs = hash_inputs(project, project.output(), reuse.stamps() if reuse is not None else None)
    batches = load_batches(Job(project, spool, run=run), inputs.keys, reuse, jobs)
    return judge(project, batches, run)


def judge(project: Project, batches: Batches, run: bool) -> Judged:
    """Step 5 over the loaded batches: the settings' problems, the batches' own, then the site's rules, then
    every claim against its fixture's outcome."""
    summaries = tuple(batches.summaries.values())
    problems = [*project.problems, *batches.problems, *(p for part in summaries for p in part.problems)]
    problems += site_problems(project.root, project.settings, [part.refs for part in summaries])
    outcomes: dict[str, Outcome] = {}
    if run:
        for part in summaries:
            outcomes |= part.outcomes or {}
        claims = [claim for part in summaries for claim in part.refs.claims]
        problems += drift_problems(project.root, claims, outcomes)
    unique = sorted(dict.fromkeys(problems), key=Problem.sort_key)  # a template error, once
    return Judged(project, batches.summaries, tuple(unique), outcomes)
