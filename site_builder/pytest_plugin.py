"""pytest plugin: a site's revisions and fixtures as test items.

Installed with the package (entry point ``pytest11``). In a site, every batch
module under the articles folder becomes a collector whose items are the
batch's revisions (named by slug: ``pytest -k my-slug``) and fixtures (named
by id). A failing item shows the same ``PATH:LINE: SUBJECT: message`` lines
as the command line. Outside a site the plugin collects nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from site_builder.build.pipeline import runnable
from site_builder.check.claims import outcome_problems
from site_builder.check.fixture_runs import run_fixtures
from site_builder.check.load import Batch, Site, fixture_id, load_site
from site_builder.check.rules import validate
from site_builder.errors import Problem, SiteBuilderError
from site_builder.settings import find_root, load_settings

_CHECKED = pytest.StashKey[dict[Path, tuple[Site, tuple[Problem, ...]]]]()


class SiteProblemsError(Exception):
    """The problems an item found; shown as the CLI shows them."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("\n".join(map(str, problems)))
        self.problems = problems


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """Claim ``ARTICLES/*.py`` of a site; leave every other file alone."""
    if file_path.suffix != ".py" or file_path.name.startswith("_"):
        return None
    try:
        root = find_root(file_path.parent)
    except SiteBuilderError:
        return None
    settings, _ = load_settings(root)
    if file_path.parent.resolve() != (root / settings.articles_dir).resolve():
        return None
    return BatchFile.from_parent(parent, path=file_path)


def _checked(config: pytest.Config, root: Path) -> tuple[Site, tuple[Problem, ...]]:
    """Load and validate a site once per session, whichever batch asks first."""
    cache = config.stash.setdefault(_CHECKED, {})
    if root not in cache:
        site = load_site(root)
        cache[root] = (site, tuple(validate(site)))
    return cache[root]


class BatchFile(pytest.File):
    """One batch module: its load problems, revisions and fixtures."""

    def collect(self) -> Iterator[pytest.Item]:
        root = find_root(self.path.parent)
        site, problems = _checked(self.config, root)
        relative = site.relative(self.path)
        batch = next((b for b in site.batches if b.path == self.path.resolve()), None)
        own = [p for p in problems if p.path == relative and p.subject.startswith("batch ")]
        if batch is None or own:
            yield ProblemsItem.from_parent(self, name=f"batch {self.path.stem}", problems=own)
        if self.path.stem == min(p.stem for p in self.path.parent.glob("*.py") if not p.name.startswith("_")):
            settings = [p for p in problems if p.subject == "settings"]
            yield ProblemsItem.from_parent(self, name="settings", problems=settings)
        if batch is not None:
            yield from self._items(site, batch, problems)

    def _items(self, site: Site, batch: Batch, problems: tuple[Problem, ...]) -> Iterator[pytest.Item]:
        for rev in batch.revisions:
            mine = [p for p in problems if p.subject == (rev.slug or "revision")]
            yield ProblemsItem.from_parent(
                self, name=rev.slug or "revision", problems=mine, line=rev.site.line
            )
        for fx in batch.fixtures:
            yield FixtureItem.from_parent(
                self,
                name=fixture_id(fx),
                site=site,
                line=fx.site.line,
                problems=[p for p in problems if p.subject == f"fixture {fixture_id(fx)}"],
            )


class ProblemsItem(pytest.Item):
    """Passes when validation found nothing for its subject."""

    def __init__(self, *, problems: list[Problem], line: int = 1, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.problems, self.line = problems, line

    def runtest(self) -> None:
        if self.problems:
            raise SiteProblemsError(self.problems)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: object = None) -> str:
        if isinstance(excinfo.value, SiteProblemsError):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, self.line - 1, self.name


class FixtureItem(ProblemsItem):
    """Runs one fixture in a worker and checks the outputs that print it."""

    def __init__(self, *, site: Site, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.site = site

    def runtest(self) -> None:
        fixture = runnable(self.site).get(self.name)
        if fixture is None or self.problems:
            raise SiteProblemsError(self.problems)
        outcomes = run_fixtures({self.name: fixture}, timeout=self.site.settings.fixture_timeout, jobs=1)
        problems = outcome_problems(self.site, outcomes)
        if problems:
            raise SiteProblemsError(problems)
