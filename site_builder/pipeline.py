"""The one orchestrator: load, validate, run fixtures, judge them.

``validate`` is this path without writing anything; ``build`` (a later step)
adds rendering and writing after the same steps.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from . import output
from .errors import Problem, UsageError
from .feeds import atom_feed, robots, sitemap
from .fixtures import Outcome, run_fixtures
from .highlight import highlight_css
from .loader import Site, load_site
from .model import Block, Fixture
from .render import environment, items_from, render_pages
from .revisions_json import dumps, revisions_data
from .sitecheck import check_pages
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


def runnable(site: Site) -> dict[str, Fixture]:
    """Fixtures worth running: a wrongly defined one is already a problem."""
    return {fid: fx for fid, fx in site.fixtures().items() if not fx.flaws}


def check_site(root: Path, *, run: bool, jobs: int | None = None, site: Site | None = None) -> Checked:
    """Steps 1-3: load every batch (unless given), validate everything, run every fixture."""
    site = site or load_site(root)  # 1. load
    problems = validate(site)  # 2. validate
    outcomes: dict[str, Outcome] = {}
    if run:  # 3. fixtures
        outcomes = run_fixtures(
            runnable(site), timeout=site.settings.fixture_timeout, jobs=jobs or default_jobs()
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
    report("loading and validating")
    checked = check_site(root, run=False)  # 1-2. load, validate
    target = (out or root / checked.site.settings.output_dir).resolve()
    _refuse_unsafe_target(root, target)
    output.recover(target)  # a kill between renames
    report("running fixtures")
    checked = check_site(root, run=True, jobs=jobs, site=checked.site)  # 3. fixtures
    if checked.problems:
        return Built(checked, checked.problems, 0, 0)
    report("rendering")
    files = render_site(checked.site)  # 4. render in memory
    staging = output.stage(target, files, assets=root / checked.site.settings.assets_dir)
    try:
        report("indexing for search")
        search_problems = index_search(staging, checked.site.settings.language)  # 5. search index
        report("checking links")
        problems = search_problems or check_pages(  # 6. check the result
            {p: t.decode("utf-8") for p, t in files.items() if p.endswith(".html")},
            output.listing(staging),
            target.name,
        )
    except BaseException:
        output.discard(staging)
        raise
    if problems:
        output.discard(staging)
        return Built(checked, tuple(sorted(problems, key=Problem.sort_key)), 0, 0)
    report("writing")
    output.swap(staging, target)  # 7. replace the old site whole
    pages = sum(p.endswith(".html") for p in files)
    return Built(checked, (), pages, len(output.listing(target)))


def _refuse_unsafe_target(root: Path, target: Path) -> None:
    if target == root or root.is_relative_to(target):
        raise UsageError(f"the output folder {target} would replace the site itself; choose another --out")


def render_site(site: Site) -> dict[str, bytes]:
    """Every generated file of the site by output path (assets are copied apart)."""
    data = revisions_data(site)
    verified = [
        sum(isinstance(b, Block) and b.verified is not None for b in rev.body) for _, rev in site.revisions()
    ]
    items = items_from(data, verified)
    settings = site.settings
    texts = render_pages(environment(site.root), settings, items)
    texts |= {
        "feed.xml": atom_feed(settings, items),
        "sitemap.xml": sitemap(settings, items),
        "robots.txt": robots(settings),
        "revisions.json": dumps(data, 2),
        "theme/style.css": _theme_css(),
    }
    return {path: text.encode("utf-8") for path, text in texts.items()}


def _theme_css() -> str:
    from importlib import resources

    base = resources.files(__package__).joinpath("theme/style.css").read_text("utf-8")
    return base + "\n/* Syntax highlighting (Pygments) */\n" + highlight_css()


def index_search(staging: Path, language: str) -> list[Problem]:
    """Build the Pagefind index into ``staging/pagefind``; one index for every language."""
    # One forced language so a search box on any page finds ru, ko and en text alike.
    command = [
        sys.executable,
        "-m",
        "pagefind",
        "--site",
        str(staging),
        "--force-language",
        language,
        "--quiet",
    ]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        detail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
        return [
            Problem(
                path="pyproject.toml",
                line=1,
                subject="search",
                rule="search-index",
                message=f"pagefind failed with exit code {done.returncode}: {detail[0]}",
            )
        ]
    return []
