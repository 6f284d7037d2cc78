"""pytest plugin: a site's revisions and fixtures as test items.

Installed with the package (entry point ``pytest11``). In a site, every batch
module under the articles folder becomes a collector whose items are the
batch's revisions (named by slug: ``pytest -k my-slug``) and fixtures (named
by id); the first batch also holds the ``settings`` item and, when the site has
a ``templates/`` folder, the ``templates`` item. A failing item shows the same
``PATH:LINE: SUBJECT: message`` lines as the command line. Outside a site the
plugin collects nothing.

A fixture's item checks the fixture; a revision's item checks the revision and
each output it prints against its fixture's real output, so ``-k my-slug``
checks every verified output of that article, and a drifted one fails the article
that prints it, not the fixture (and not the other articles the fixture backs).

The site is loaded the way ``validate`` loads it, reading the batches the site's cache holds
as they are now and loading the others, each in a worker process
(:func:`site_builder.pipeline.site_check.check_site`), so a batch that ends its process
at import, or never finishes importing, is a failing item, not the end (or the hang) of
the test run; fixtures run in a worker that imports their batch anew, each once per
session, whichever item asks first.
"""

from __future__ import annotations

import contextlib
import functools
import sys
import tempfile
import warnings
from collections.abc import Collection, Iterable, Iterator, Mapping
from pathlib import Path

import pytest

from site_builder.authoring.model import CallSite
from site_builder.check.claims import Claim, drift_problems, fixture_problems
from site_builder.check.fixture_runs import Outcome
from site_builder.errors import Problem, SiteBuilderError, errors_in
from site_builder.model.batches import relative_to_root
from site_builder.model.schedule import Schedule
from site_builder.pipeline.cache.reuse import Cache
from site_builder.pipeline.site_check import Judged, check_site
from site_builder.pipeline.site_lock import SiteLock
from site_builder.pipeline.verify import run_some
from site_builder.pipeline.worker.batch import BatchSummary
from site_builder.settings.project import Project, find_root, load_settings

_CHECKED = pytest.StashKey[dict[Path, Judged]]()
_RAN = pytest.StashKey[dict[tuple[Path, str], Outcome]]()


class SiteWarning(UserWarning):
    """A likely mistake validation found (a warning-level problem): shown, never a failure."""


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


def _checked(config: pytest.Config, root: Path) -> Judged:
    """Load and validate a site once per session, whichever batch asks first; the batches
    the site's cache holds as they are now are read from it, as ``validate`` reads them:
    under the site's lock, as ``validate`` does, so a build writing the cache meanwhile is
    waited for (and said to be, once, on stderr)."""
    judged = config.stash.setdefault(_CHECKED, {})
    if root not in judged:
        with (
            tempfile.TemporaryDirectory(prefix="site-builder-") as scratch,
            SiteLock.take(root, say=functools.partial(_say, config)),
        ):
            # Judged as the default build publishes it: a link to a draft is a failing item.
            project, schedule = Project.read(root), Schedule.now()
            reuse = Cache.of(project.root, project.output())
            judged[root] = check_site(
                project, run=False, scratch=Path(scratch), schedule=schedule, reuse=reuse, templates=True
            )
    return judged[root]


def _say(config: pytest.Config, message: str) -> None:
    """Print ``message`` on stderr now, past pytest's capture of the collection's output; in
    a worker of pytest-xdist, nothing: the workers of one run collect together and so take
    turns, and each would say it waits for "another site-builder command", its sibling."""
    if hasattr(config, "workerinput"):
        return
    capture = config.pluginmanager.getplugin("capturemanager")
    with capture.global_and_fixture_disabled() if capture is not None else contextlib.nullcontext():
        print(f"site-builder: {message}", file=sys.stderr, flush=True)


class BatchFile(pytest.File):
    """One batch module: its load problems, revisions and fixtures."""

    def collect(self) -> Iterator[pytest.Item]:
        judged = _checked(self.config, find_root(self.path.parent))
        batch = next((part for part in judged.summaries if part.name == self.path.stem), None)
        yield from self._batch_item(judged, loaded=batch is not None)
        if self._holds_the_site_items():
            yield from self._site_items(judged)
        if batch is not None:
            yield from self._revision_items(judged, batch)
            yield from self._fixture_items(judged, batch)

    def _batch_item(self, judged: Judged, *, loaded: bool) -> Iterator[pytest.Item]:
        """The batch's own item, when it did not load or has problems of its own."""
        relative = relative_to_root(judged.project.root, self.path)
        own = [p for p in judged.problems if p.path == relative and p.subject.startswith("batch ")]
        if not loaded or own:
            yield ProblemsItem.from_parent(self, name=f"batch {self.path.stem}", problems=own)

    def _holds_the_site_items(self) -> bool:
        """Whether this is the first batch by name: the one that holds the site's own items."""
        batches = (path.stem for path in self.path.parent.glob("*.py") if not path.name.startswith("_"))
        return self.path.stem == min(batches)

    def _site_items(self, judged: Judged) -> Iterator[pytest.Item]:
        """The settings' item, and the templates' when the site has its own."""
        yield ProblemsItem.from_parent(self, name="settings", problems=_about(judged, "settings"))
        if (judged.project.root / "templates").is_dir():  # the site's own templates, judged as text
            yield ProblemsItem.from_parent(self, name="templates", problems=_about(judged, "template"))

    def _revision_items(self, judged: Judged, batch: BatchSummary) -> Iterator[pytest.Item]:
        for slug, where in batch.refs.slugs:
            yield RevisionItem.from_parent(
                self,
                name=slug or "revision",
                problems=_about(judged, slug or "revision"),
                line=where.line,
                judged=judged,
                claims=[claim for claim in batch.refs.claims if claim.slug == slug],
            )

    def _fixture_items(self, judged: Judged, batch: BatchSummary) -> Iterator[pytest.Item]:
        for fid, where in batch.refs.fixtures:
            yield FixtureItem.from_parent(
                self,
                name=fid,
                judged=judged,
                where=where,
                line=where.line,
                problems=_about(judged, f"fixture {fid}"),
            )


def _about(judged: Judged, subject: str) -> list[Problem]:
    """The problems validation found about ``subject`` (``settings``, a slug, ``fixture ID``)."""
    return [p for p in judged.problems if p.subject == subject]


class ProblemsItem(pytest.Item):
    """Passes when validation found nothing for its subject."""

    def __init__(self, *, problems: list[Problem], line: int = 1, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.problems, self.line = problems, line

    def runtest(self) -> None:
        warn(self.path, self.problems)
        if errors := errors_in(self.problems):
            raise SiteProblemsError(errors)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: object = None) -> str:
        if isinstance(excinfo.value, SiteProblemsError | SiteWarning):  # a warning: with -W error
            return str(excinfo.value)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, self.line - 1, self.name


class RevisionItem(ProblemsItem):
    """Checks one revision: its validation problems, then each output it prints against
    what its fixture returns (a fixture that fails fails the article that shows it too)."""

    def __init__(self, *, judged: Judged, claims: list[Claim], **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.judged, self.claims = judged, claims

    def runtest(self) -> None:
        super().runtest()
        shown = {claim.fixture for claim in self.claims}
        outcomes = fixture_outcomes(self.config, self.judged, self.path, shown)
        defined = {fid: where for part in self.judged.summaries for fid, where in part.refs.fixtures}
        root = self.judged.project.root
        failed = fixture_problems(
            root, {fid: defined[fid] for fid in sorted(shown & outcomes.keys())}, outcomes
        )
        if problems := [*failed, *drift_problems(root, self.claims, outcomes)]:
            raise SiteProblemsError(problems)


class FixtureItem(ProblemsItem):
    """Runs one fixture in a worker and checks that it passes; the outputs that print it
    are their revisions' items' to check."""

    def __init__(self, *, judged: Judged, where: CallSite, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.judged, self.where = judged, where

    def runtest(self) -> None:
        super().runtest()  # a wrongly defined fixture is one of its problems
        outcomes = fixture_outcomes(self.config, self.judged, self.path, {self.name})
        if problems := fixture_problems(self.judged.project.root, {self.name: self.where}, outcomes):
            raise SiteProblemsError(problems)


def fixture_outcomes(
    config: pytest.Config, judged: Judged, batch: Path, ids: Collection[str]
) -> dict[str, Outcome]:
    """The outcomes of the fixtures ``ids``, each run once per session in a worker that imports
    the batch that defines it (``batch`` itself when it does). An id no batch defines has none."""
    ran = config.stash.setdefault(_RAN, {})
    root = judged.project.root
    owners = _owners(judged, batch.stem)
    for name, some in sorted(_by_owner([fid for fid in ids if (root, fid) not in ran], owners).items()):
        outcomes = run_some(judged.project, batch.with_stem(name), some)
        ran |= {(root, fid): outcome for fid, outcome in outcomes.items()}
    return {fid: ran[root, fid] for fid in ids if (root, fid) in ran}


def _owners(judged: Judged, first: str) -> dict[str, str]:
    """The batch that runs each fixture id: the batch ``first`` for those it defines, else
    the first batch that defines it."""
    owners: dict[str, str] = {}
    for part in judged.summaries:
        for fid, _ in part.refs.fixtures:
            if part.name == first or fid not in owners:
                owners[fid] = part.name
    return owners


def _by_owner(ids: Iterable[str], owners: Mapping[str, str]) -> dict[str, set[str]]:
    """The ids that a batch defines, grouped by the batch that runs them."""
    grouped: dict[str, set[str]] = {}
    for fid in ids:
        if fid in owners:
            grouped.setdefault(owners[fid], set()).add(fid)
    return grouped


def warn(batch: Path, problems: list[Problem]) -> None:
    """Each warning-level problem (of an item of ``batch``) as a :class:`SiteWarning` at the
    author's file and line: pytest lists it in its warnings summary."""
    for problem in problems:
        if problem.severity == "warning":
            message = SiteWarning(f"{problem.subject}: {problem.message}")
            path = find_root(batch.parent) / problem.path
            warnings.warn_explicit(message, SiteWarning, str(path), problem.line)
