"""Steps 1-5 of every command: the site loaded and judged, nothing written.

``validate`` and ``revisions`` stop here (:func:`check_site`); ``build`` goes on from
the same :class:`Judged` site (:mod:`site_builder.pipeline.steps`).
"""

from __future__ import annotations

import functools
import hashlib
from collections import Counter
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from pathlib import Path

from site_builder.check.batch_rules import Refs
from site_builder.check.claims import drift_problems
from site_builder.check.fixture_runs import Outcome
from site_builder.check.left_out import left_out_problems
from site_builder.check.load import missing_articles
from site_builder.check.site_rules import site_problems
from site_builder.errors import Problem
from site_builder.model.batches import fixture_batch
from site_builder.model.schedule import Omitted, Schedule, Timing, including
from site_builder.pipeline.cache.inputs import Inputs, hash_inputs
from site_builder.pipeline.cache.reuse import Cache
from site_builder.pipeline.loading import Batches, load_batches
from site_builder.pipeline.worker.batch import BatchSummary
from site_builder.pipeline.worker.workers import Job
from site_builder.render.pages import template_syntax_problems
from site_builder.settings.project import Project


@dataclass(frozen=True, slots=True)
class RuleFindings:
    """The findings of the rules that need every batch (the site's rules and its links to
    what the schedule leaves out), as the cache keeps them: an edit that leaves every
    batch's :class:`~site_builder.check.batch_rules.Refs` as they were (a sentence changed within
    a line) finds them again without running those rules (0.23 s of CPU at 10,000 articles, 0.06 s
    with them kept)."""

    key: str
    """:func:`rules_key` of the site they were found in."""
    problems: tuple[Problem, ...]
    read: tuple[tuple[str, str], ...] = ()
    """Each file the findings name (root-relative) and the hash of its bytes then: a finding
    reads the lines it shows from the files it names (a category's line, the first use of the
    spelling meant), so it holds only while those files are as they were."""

    def holds(self, root: Path, key: str) -> bool:
        """Whether these findings are the ones the site with ``key`` at ``root`` has."""
        return self.key == key and self.read == named_files(root, self.problems)


@dataclass(frozen=True, slots=True)
class RulesMemo:
    """Where a build finds the site-wide rules' findings of an earlier one."""

    basis: str
    """What the rules read besides the batches' refs: the settings, templates and code
    (:attr:`Inputs.common`) and the assets' names, sizes and times (:attr:`Inputs.assets`)."""
    kept: Callable[[str], RuleFindings | None]
    """The findings kept under a key, or None."""

    @classmethod
    def of(cls, inputs: Inputs, reuse: Cache | None) -> RulesMemo | None:
        """The memo of a build of ``inputs`` with the cache ``reuse`` (None: no cache)."""
        if reuse is None:
            return None
        return cls(
            f"{inputs.common}\0{inputs.assets}", functools.partial(reuse.kept, "rules", of=RuleFindings)
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class Judged:
    """A site after steps 1-5: every batch and every problem."""

    project: Project
    batches: dict[str, BatchSummary]
    """Every batch that loaded by its key, in site order."""
    problems: tuple[Problem, ...]
    """Every problem found, sorted by file and line."""
    run: bool
    """Whether the fixtures were run."""
    schedule: Schedule | None = None
    """What the site publishes; None: every revision (``verify``, ``new``)."""
    rules: RuleFindings | None = None
    """Under a :class:`RulesMemo`: the site-wide rules' findings, kept or found anew (for the cache)."""

    @property
    def summaries(self) -> tuple[BatchSummary, ...]:
        """Every batch that loaded, in site order."""
        return tuple(self.batches.values())

    @property
    def outcomes(self) -> dict[str, Outcome]:
        """Fixture outcomes by id (empty when fixtures were not run); read from every batch's
        body, which a build does not need."""
        if not self.run:
            return {}
        return {fid: outcome for part in self.summaries for fid, outcome in (part.outcomes or {}).items()}

    @property
    def revisions(self) -> int:
        """How many revisions the site publishes."""
        return sum(len(part.items) for part in self.summaries)

    @property
    def validated(self) -> int:
        """How many revisions were judged: those left out too."""
        return sum(len(part.timings) for part in self.summaries)

    def timings(self) -> list[Timing]:
        """Every revision's timing, in site order."""
        return [timing for part in self.summaries for timing in part.timings]

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
            for (slug, _), timing in zip(part.refs.slugs, part.timings, strict=True)
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
    scratch: Path,
    schedule: Schedule | None,
    reuse: Cache | None = None,
    jobs: int | None = None,
    templates: bool = False,
) -> Judged:
    """Steps 1-5, writing nothing (the batches' texts go to ``scratch``); fixtures only with ``run``;
    what ``schedule`` publishes described (every revision without one); with ``templates``, the
    site's own templates compiled too, as a build would (``validate``)."""
    if not project.articles.is_dir():
        problems = (*project.problems, missing_articles(project.settings))
        sorted_problems = tuple(sorted(problems, key=Problem.sort_key))
        return Judged(project=project, batches={}, problems=sorted_problems, run=run, schedule=schedule)
    inputs = hash_inputs(project, project.output(), reuse.stamps() if reuse is not None else None)
    job = Job(project=project, scratch=scratch, run=run, schedule=schedule, common=inputs.common)
    batches = load_batches(job, inputs.keys, reuse, jobs).whole()  # read once ``scratch`` is gone
    compiled = template_syntax_problems(project.root) if templates else ()
    return judge(project, batches, run, schedule, also=compiled)


def judge(
    project: Project,
    batches: Batches,
    run: bool,
    schedule: Schedule | None,
    memo: RulesMemo | None = None,
    also: Sequence[Problem] = (),
) -> Judged:
    """Step 5 over the loaded batches: the settings' problems and ``also`` (found beside the
    batches), the batches' own, then the site's rules (links to what ``schedule`` leaves out
    among them; kept under ``memo`` when it has them), then
    every claim printed by another batch's fixture against that fixture's outcome (a batch judged
    those of its own fixtures itself). Only a batch's small fields are read, but for the rules
    when their findings are not kept: a rebuild after one batch's edit reads no other batch's body."""
    summaries = tuple(batches.summaries.values())
    problems = [
        *project.problems,
        *also,
        *batches.problems,
        *(p for part in summaries for p in part.problems),
    ]
    found, rules = _site_findings(project, summaries, schedule, memo)
    problems += found
    if run:
        problems += _borrowed_drift(project.root, summaries)
    unique = sorted(dict.fromkeys(problems), key=Problem.sort_key)  # a template error, once
    return Judged(
        project=project,
        batches=batches.summaries,
        problems=tuple(unique),
        run=run,
        schedule=schedule,
        rules=rules,
    )


def _site_findings(
    project: Project, summaries: Sequence[BatchSummary], schedule: Schedule | None, memo: RulesMemo | None
) -> tuple[tuple[Problem, ...], RuleFindings | None]:
    """The findings of the rules that need every batch: kept under ``memo`` when they still
    hold, or found anew; and, under a memo, them as the cache keeps them."""
    key = rules_key(memo.basis, schedule, summaries) if memo is not None else ""
    kept = memo.kept(key) if memo is not None else None
    if kept is not None and kept.holds(project.root, key):
        return kept.problems, kept
    found = tuple(_site_rules(project, [part.refs for part in summaries], schedule))
    return found, RuleFindings(key, found, named_files(project.root, found)) if memo is not None else None


def _borrowed_drift(root: Path, summaries: Sequence[BatchSummary]) -> list[Problem]:
    """The verified outputs printed by another batch's fixture that its outcome contradicts:
    the bodies of the batches that print them and of those whose fixtures they name are read."""
    claims = [
        claim
        for part in summaries
        if part.borrows
        for claim in part.refs.claims
        if claim.fixture not in dict(part.refs.fixtures)
    ]
    by_name = {part.name: part for part in summaries}
    named = {fixture_batch(claim.fixture) for claim in claims}
    outcomes: dict[str, Outcome] = {}
    for name in sorted(named & by_name.keys()):
        outcomes |= by_name[name].outcomes or {}
    return list(drift_problems(root, claims, outcomes))


def rules_key(basis: str, schedule: Schedule | None, summaries: Sequence[BatchSummary]) -> str:
    """What the site-wide rules' findings depend on: ``basis`` (:attr:`RulesMemo.basis`), the
    schedule, every batch's refs in site order, and the body hashes of the articles with more
    than one revision (which the history rules compare)."""
    digest = hashlib.sha256(f"{basis}\0{schedule!r}\0".encode())
    for part in summaries:
        digest.update(f"{part.name}\0{part.refs_key}\0".encode())
    bodies = [body for part in summaries for body in part.bodies]
    revised = {slug for slug, count in Counter(slug for slug, _ in bodies).items() if count > 1}
    for slug, body in bodies:
        if slug in revised:
            digest.update(f"{slug}\0{body}\0".encode())
    return digest.hexdigest()


def _site_rules(project: Project, refs: list[Refs], schedule: Schedule | None) -> list[Problem]:
    found = site_problems(project.root, project.settings, refs)
    if schedule is not None:
        found += left_out_problems(project.root, project.settings, refs, schedule)
    return found


def named_files(root: Path, found: Sequence[Problem]) -> tuple[tuple[str, str], ...]:
    """Each file ``found`` is at or quotes a line of (:attr:`Problem.quotes`), with the hash of
    its bytes ("" for a file that cannot be read)."""
    names = sorted({p.path for p in found} | {name for p in found for name in p.quotes})
    return tuple((name, _file_hash(root / name)) for name in names)


def _file_hash(path: Path) -> str:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return ""
