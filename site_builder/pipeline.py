"""The one orchestrator: load, validate, run fixtures, render, check, write.

``validate`` and ``revisions`` are the first steps without writing anything;
``build`` goes on to render, check the result and swap it in whole.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from . import output
from .errors import Problem, SiteBuilderError, UsageError
from .fixtures import Outcome, run_fixtures
from .loader import Site, load_site
from .model import Fixture
from .parallel import load_in_workers
from .search import UI_FILES, finish_index, start_index
from .settings import load_settings
from .sitecheck import check_pages
from .sitefiles import Prepared, render_site
from .validate import validate
from .verification import outcome_problems, same_every_time


@dataclass(frozen=True, slots=True)
class Checked:
    """A site after validation and, when asked for, its fixture runs."""

    site: Site
    """What was loaded."""
    problems: tuple[Problem, ...]
    """Every problem found, sorted by file and line."""
    outcomes: dict[str, Outcome]
    """Fixture outcomes by id (empty when fixtures were not run)."""
    prepared: list[Prepared] | None = None
    """Each batch rendered where it was loaded (a build), in site order."""


def default_jobs() -> int:
    """One worker per core."""
    return os.cpu_count() or 1


def runnable(site: Site) -> dict[str, Fixture]:
    """Fixtures worth running: a wrongly defined one is already a problem."""
    return {fid: fx for fid, fx in site.fixtures().items() if not fx.flaws}


def check_site(root: Path, *, run: bool, jobs: int | None = None, render: bool = False) -> Checked:
    """Steps 1-3: load every batch, validate everything, run every fixture (and, for a
    build, render each batch where it was loaded)."""
    # 1 and 3: batches are imported, and their fixtures run, in worker processes,
    # so a batch that ends its process at import is reported like any other mistake.
    site, outcomes, prepared = load_in_workers(root, jobs=jobs or default_jobs(), run=run, render=render)
    problems = validate(site)  # 2. validate
    if run:
        problems += outcome_problems(site, outcomes)
    return Checked(site, tuple(sorted(problems, key=Problem.sort_key)), outcomes, prepared)


def verify_fixtures(root: Path, ids: Sequence[str], *, jobs: int | None = None, repeat: int = 1) -> Checked:
    """Load the site and run the fixtures named (all when none are), ``repeat`` times each."""
    site = load_site(root)
    known = site.fixtures()
    unknown = [fid for fid in ids if fid not in known]
    if unknown:
        listed = ", ".join(known) or "none"
        raise UsageError(f"unknown fixture id {', '.join(unknown)}; the site has: {listed}")
    chosen = {fid: known[fid] for fid in (ids or known)}
    runs = [
        run_fixtures(chosen, timeout=site.settings.fixture_timeout, jobs=jobs or default_jobs())
        for _ in range(max(1, repeat))
    ]
    outcomes = {fid: same_every_time([run[fid] for run in runs]) for fid in chosen}
    problems = [*site.problems, *outcome_problems(site, outcomes)]
    return Checked(site, tuple(sorted(problems, key=Problem.sort_key)), outcomes)


@dataclass(frozen=True, slots=True)
class Built:
    """The result of ``build``: problems (nothing written) or what was written."""

    checked: Checked
    """Load, validation and fixture results."""
    problems: tuple[Problem, ...]
    """Every problem of every step; when not empty, the output was left untouched."""
    pages: int
    """HTML pages written."""
    files: int
    """Files written in all."""


Report = Callable[[str], None]


def print_nothing(_step: str) -> None:
    """The default progress report: silence."""


def build(
    root: Path, *, out: Path | None = None, jobs: int | None = None, report: Report = print_nothing
) -> Built:
    """Load, validate, run fixtures, render, check the result, then swap it in whole."""
    root = root.resolve()
    settings, _ = load_settings(root)
    target = (out or root / settings.output_dir).resolve()
    _refuse_unsafe_target(root, target)
    try:
        output.recover(target)  # what a killed build left, before anything else
    except OSError as exc:
        raise SiteBuilderError(
            f"cannot clean up what an interrupted build left beside {target}: {exc}"
        ) from exc
    report("loading, validating and running fixtures")
    checked = check_site(root, run=True, jobs=jobs, render=True)  # 1-3. load, validate, fixtures
    site = checked.site
    if checked.problems:
        return Built(checked, checked.problems, 0, 0)
    report("rendering")
    files, problems = render_site(site, checked.prepared)  # 4. render in memory
    if problems:
        return Built(checked, tuple(problems), 0, 0)
    try:
        problems = _stage_and_check(site, files, target, report)  # 5-6. search index, checks
    except OSError as exc:
        output.recover(target)
        raise SiteBuilderError(
            f"cannot write the site to {target}: {exc}; the previous site is untouched"
        ) from exc
    if problems:
        return Built(checked, tuple(sorted(problems, key=Problem.sort_key)), 0, 0)
    pages = sum(p.endswith(".html") for p in files)
    return Built(checked, (), pages, len(output.listing(target)))


def _stage_and_check(site: Site, files: dict[str, bytes], target: Path, report: Report) -> list[Problem]:
    """Write into the staging folder, index and check it, then swap it in (7) or drop it."""
    staging = output.stage(target, files, assets=site.root / site.settings.assets_dir)
    indexer = None
    try:
        report("indexing for search, checking links")
        staged = output.listing(staging)  # before the indexer starts writing beside it
        indexer = start_index(staging, site.settings.language)  # 5. search index, in the background
        html = {path: data.decode("utf-8") for path, data in files.items() if path.endswith(".html")}
        problems = check_pages(html, staged | UI_FILES, target.name)  # 6. checks
        problems += finish_index(indexer, staging)
        if not problems:
            report("writing")
            output.swap(staging, target)  # 7. replace the old site whole
    finally:
        if indexer is not None and indexer.poll() is None:
            indexer.kill()
            indexer.communicate()
        output.discard(staging)
    return problems


def _refuse_unsafe_target(root: Path, target: Path) -> None:
    if target == root or root.is_relative_to(target):
        raise UsageError(f"the output folder {target} would replace the site itself; choose another --out")
