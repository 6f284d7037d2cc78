"""The one orchestrator: load, validate, run fixtures, judge them.

``validate`` is this path without writing anything; ``build`` (a later step)
adds rendering and writing after the same steps.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .errors import Problem, UsageError
from .fixtures import Outcome, run_fixtures
from .loader import Site, load_site
from .validate import validate
from .verification import outcome_problems


@dataclass(frozen=True, slots=True)
class Checked:
    """A site after validation and, when asked for, its fixture runs."""

    site: Site
    """What was loaded."""
    problems: tuple[Problem, ...]
    """Every problem found, sorted by file and line."""
    outcomes: dict[str, Outcome]
    """Fixture outcomes by id (empty when fixtures were not run)."""


def default_jobs() -> int:
    """One worker per core."""
    return os.cpu_count() or 1


def check_site(root: Path, *, run: bool, jobs: int | None = None) -> Checked:
    """Steps 1-3: load every batch, validate everything, run every fixture."""
    site = load_site(root)  # 1. load
    problems = validate(site)  # 2. validate
    outcomes: dict[str, Outcome] = {}
    if run:  # 3. fixtures
        outcomes = run_fixtures(
            site.fixtures(), timeout=site.settings.fixture_timeout, jobs=jobs or default_jobs()
        )
        problems += outcome_problems(site, outcomes)
    return Checked(site, tuple(sorted(problems, key=Problem.sort_key)), outcomes)


def verify_fixtures(root: Path, ids: Sequence[str], *, jobs: int | None = None) -> Checked:
    """Load the site and run the fixtures named (all when none are)."""
    site = load_site(root)
    known = site.fixtures()
    unknown = [fid for fid in ids if fid not in known]
    if unknown:
        listed = ", ".join(known) or "none"
        raise UsageError(f"unknown fixture id {', '.join(unknown)}; the site has: {listed}")
    chosen = {fid: known[fid] for fid in (ids or known)}
    outcomes = run_fixtures(chosen, timeout=site.settings.fixture_timeout, jobs=jobs or default_jobs())
    problems = [*site.problems, *outcome_problems(site, outcomes)]
    return Checked(site, tuple(sorted(problems, key=Problem.sort_key)), outcomes)
