"""``verify`` and the pytest plugin's fixture items: fixtures run on demand.

Batches are loaded the way every command loads them, each in a worker process
(:mod:`.loading`), so a batch that calls ``os._exit`` at import, or whose import
never finishes, is a problem of that batch, not the end (or the hang) of the command;
its fixtures run in that worker.
"""

from __future__ import annotations

import tempfile
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path

from site_builder.authoring.model import CallSite
from site_builder.check.claims import Claim, drift_problems, fixture_problems
from site_builder.check.fixture_runs import Outcome
from site_builder.check.load import batch_paths, missing_articles
from site_builder.errors import CLOSE_IDS, Problem, UsageError, did_you_mean
from site_builder.pipeline.loading import Batches, load_batches
from site_builder.pipeline.worker.workers import Job
from site_builder.settings.project import Project


@dataclass(frozen=True, slots=True)
class FixtureRuns:
    """Fixtures run by ``verify``: where each is defined, its outcome, and the problems."""

    fixtures: dict[str, CallSite]
    """Every fixture run, by id, in the order asked for (site order by default)."""
    outcomes: dict[str, Outcome]
    claims: tuple[Claim, ...]
    """Every ``verified_output`` of the site."""
    problems: tuple[Problem, ...]
    """Settings, batches that did not load, failed fixtures and contradicted claims."""


def verify_fixtures(
    project: Project, ids: Sequence[str], *, repeat: int = 1, jobs: int | None = None
) -> FixtureRuns:
    """Load every batch and run the fixtures named (all when none are), ``repeat`` times each."""
    with tempfile.TemporaryDirectory(prefix="site-builder-") as scratch:
        fixtures = frozenset(ids) or None
        job = Job(
            project=project, scratch=Path(scratch), run=True, fixtures=fixtures, flawed=True, repeat=repeat
        )
        batches = _load(project, job, jobs)
    summaries = batches.summaries.values()
    chosen = _chosen(ids, {fid: where for part in summaries for fid, where in part.refs.fixtures})
    outcomes: dict[str, Outcome] = {}
    for part in summaries:
        outcomes |= part.outcomes or {}
    outcomes = {fid: outcomes[fid] for fid in chosen}
    claims = tuple(claim for part in summaries for claim in part.refs.claims)
    problems = [*project.problems, *batches.problems, *outcome_problems(project, chosen, outcomes, claims)]
    if not project.articles.is_dir():
        problems.append(missing_articles(project.settings))
    return FixtureRuns(chosen, outcomes, claims, tuple(sorted(problems, key=Problem.sort_key)))


def _chosen(ids: Sequence[str], known: dict[str, CallSite]) -> dict[str, CallSite]:
    """The fixtures asked for (every one of the site when none are), by id; an id the site
    does not have is a usage error."""
    unknown = [fid for fid in ids if fid not in known]
    if unknown:
        raise UsageError("\n".join(f"unknown fixture id {fid}{_known(fid, known)}" for fid in unknown))
    return {fid: known[fid] for fid in (ids or known)}


def outcome_problems(
    project: Project, fixtures: dict[str, CallSite], outcomes: dict[str, Outcome], claims: Sequence[Claim]
) -> list[Problem]:
    """Failed fixtures, and ``verified_output`` blocks their fixture contradicts."""
    return [
        *fixture_problems(project.root, fixtures, outcomes),
        *drift_problems(project.root, claims, outcomes),
    ]


def run_some(project: Project, batch: Path, ids: Collection[str]) -> dict[str, Outcome]:
    """Run the fixtures ``ids`` of the batch module ``batch`` in one worker."""
    with tempfile.TemporaryDirectory(prefix="site-builder-") as scratch:
        job = Job(project=project, scratch=Path(scratch), run=True, fixtures=frozenset(ids))
        batches = load_batches(job, {batch: batch.stem}, None, 1).whole()
    return {k: v for part in batches.summaries.values() for k, v in (part.outcomes or {}).items()}


def _known(fid: str, known: Collection[str]) -> str:
    """The id closest to an unknown one, or (when none is close) every id the site has."""
    return did_you_mean(fid, known, CLOSE_IDS) or f"; the site has: {', '.join(known) or 'none'}"


def _load(project: Project, job: Job, jobs: int | None) -> Batches:
    if not project.articles.is_dir():
        return Batches({}, [])
    return load_batches(job, {path: path.stem for path in batch_paths(project.articles)}, None, jobs).whole()
