"""The per-batch step of every command: one loaded batch judged, described and rendered.

A worker imports a batch, validates what can be judged from the batch alone, runs
its fixtures, and (in a build) renders its article pages straight into the staging
folder and scans them for the link check. What it sends back, a :class:`BatchSummary`,
is the one representation of a loaded batch that every command reads: everything
the site-wide steps need, without the revisions' object graphs or the pages'
bytes, so a rebuild can use a kept one in place of importing the batch.
"""

from __future__ import annotations

import dataclasses
import json
import pickle
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import jinja2

from site_builder.authoring.model import CallSite
from site_builder.check.batch_rules import Refs, batch_problems
from site_builder.check.claims import drift_problems, fixture_problems
from site_builder.check.fixture_runs import Outcome
from site_builder.errors import Problem, SiteBuilderError
from site_builder.model.batches import Batch
from site_builder.model.images import Assets
from site_builder.model.layout import article_file
from site_builder.model.page_scan import Scan, scan_page
from site_builder.model.schedule import Schedule, Timing, View, views
from site_builder.pipeline.cache.inputs import content_hash
from site_builder.pipeline.staging.folder import write_file
from site_builder.pipeline.worker.described import described
from site_builder.pipeline.worker.texts import Texts
from site_builder.render.charts import Drawn
from site_builder.render.feeds import feed_entry
from site_builder.render.highlight import Highlights
from site_builder.render.items import Item
from site_builder.render.pages import environment, render_articles
from site_builder.render.proofs import Proof
from site_builder.render.revisions_json import fragment
from site_builder.render.template_errors import template_problem
from site_builder.runtime.pickled import quick_state
from site_builder.settings.project import Project


@quick_state
@dataclass(frozen=True, slots=True)
class Body:
    """What only a site-wide check reads of a batch: a rebuild after an edit of one batch
    reads none of it for the others (it stays in their texts files) unless something they
    are checked against changed (:mod:`.site_index`)."""

    refs: Refs
    """What the site-wide rules need of it."""
    outcomes: dict[str, Outcome] | None
    """Its fixtures' outcomes; None when they were not run."""
    proofs: tuple[tuple[Proof, ...], ...]
    """The verified outputs of each of its items."""
    charts: tuple[tuple[Drawn, ...], ...] = ()
    """The charts of each of its items, drawn."""


class BodyOnceRead:
    """A summary's :class:`Body` once read (or as its worker made it). Pickled empty: the
    body travels in the texts file, so a summary sent from a worker or kept in the site
    index is a small thing, and only a step that asks reads its body."""

    __slots__ = ("body",)

    def __init__(self, body: Body | None = None) -> None:
        self.body = body

    def __reduce__(self) -> tuple[type[BodyOnceRead], tuple[()]]:
        return BodyOnceRead, ()

    def __eq__(self, other: object) -> bool:  # a cache of the texts file, not part of the value
        return isinstance(other, BodyOnceRead)

    def __hash__(self) -> int:
        return 0


@quick_state
@dataclass(frozen=True, slots=True, kw_only=True)
class BatchSummary:
    """What a build needs of one batch once it has been loaded: small fields every build
    reads, and a :class:`Body` read from its texts file only when asked for."""

    name: str
    """The batch name (module file name without ``.py``)."""
    problems: tuple[Problem, ...]
    """Problems judged from the batch alone, its failed fixtures and the outputs its own
    fixtures contradict."""
    items: tuple[Item, ...]
    """Its revisions as lists, the feed and the sitemap show them (``content_html`` left empty)."""
    list_key: str
    """Hash of those items: the list pages and the sitemap change only when it does."""
    texts: Texts
    """The whole objects as they appear inside ``revisions.json``, the Atom entries, the scans
    and the body."""
    pages: dict[str, str] | None
    """Article pages written to the staging folder: output path → content hash; None when not rendered."""
    timings: tuple[Timing, ...]
    """Every revision's draft flag, date and categories, in list order (``refs.timings``)."""
    bodies: tuple[tuple[str, str], ...]
    """Every revision's slug and the hash of its body, in list order: what the history rules
    compare (:func:`~site_builder.pipeline.site_check.rules_key`)."""
    ran: bool
    """Whether its fixtures were run (``outcomes`` is not None)."""
    borrows: bool
    """Whether one of its verified outputs is printed by another batch's fixture: only those
    are judged against outcomes once every batch is in; the rest were judged with the batch."""
    held: BodyOnceRead = dataclasses.field(default_factory=BodyOnceRead, compare=False, repr=False)
    """Its body, once read."""
    depends: tuple[tuple[str, str], ...] = ()
    """The other batches it imported, each with its cache key then: a kept summary holds only
    while each of them has that key still."""
    deferred: tuple[str, ...] = ()
    """Pages of its revisions left to the kernel (an article the last build found revised):
    its search shard hears of its pages once the kernel has rendered them."""
    views: tuple[View | None, ...] = ()
    """How the schedule it was described under showed each revision (None: left out); a
    kept summary is used again only under a schedule that shows them the same way."""
    refs_key: str = ""
    """Hash of ``refs`` but for the hashes of the revisions' bodies: the site-wide rules'
    findings are kept under those of every batch (:func:`~site_builder.pipeline.site_check.rules_key`,
    which adds the bodies the rules compare)."""

    def body(self) -> Body:
        """Its body: read from its texts file the first time. A file replaced or removed since
        (another build or ``serve`` of the site kept its own) is an error of the command, to be
        run again, never another summary's body."""
        if self.held.body is None:
            try:
                found = self.texts.body()
            except (OSError, EOFError, pickle.UnpicklingError, ValueError) as exc:
                found = exc
            if not isinstance(found, Body):
                raise SiteBuilderError(
                    f"the cache changed while this command read it ({self.texts.path}: {found}); "
                    "another build or serve of this site may be running: run the command again"
                )
            self.held.body = found
        return self.held.body

    @property
    def refs(self) -> Refs:
        """What the site-wide rules need of it."""
        return self.body().refs

    @property
    def outcomes(self) -> dict[str, Outcome] | None:
        """Its fixtures' outcomes; None when they were not run."""
        return self.body().outcomes

    @property
    def charts(self) -> tuple[tuple[Drawn, ...], ...]:
        """The charts of each of ``items``, drawn: what its page shows, if the kernel renders it."""
        return self.body().charts

    @property
    def proofs(self) -> tuple[tuple[Proof, ...], ...]:
        """The verified outputs of each of ``items``: what its page marks, if the kernel renders
        it (a revision of an article with a history, :mod:`.history_pages`)."""
        return self.body().proofs

    def data(self) -> list[dict[str, object]]:
        """Its whole ``revisions`` JSON objects, read back from its texts."""
        loaded: list[dict[str, object]] = json.loads(b"[" + self.texts.fragment() + b"]")
        return loaded

    def images_unchanged(self, assets: Assets) -> bool:
        """Whether every image its pages show still has the size they give it."""
        return all(assets.unchanged(item.images) for item in self.items)

    @property
    def clean(self) -> bool:
        """Worth keeping: no problems (nothing hangs on a timeout or a retry), and every fixture it shows
        from another module is a helper's or an imported batch's, so its ``def`` line is in this key."""
        outside = self.body().refs.borrowed() - {name for name, _ in self.depends} if self.borrows else set()
        return not self.problems and all(name.startswith("_") for name in outside)


def summarize(
    project: Project,
    batch: Batch,
    outcomes: dict[str, Outcome] | None,
    staging: Path | None,
    texts_file: Path,
    schedule: Schedule | None = None,
    superseded: frozenset[str] = frozenset(),
    highlighted: Mapping[str, str] | None = None,
) -> BatchSummary:
    """Judge, describe and (with ``staging``) render one loaded batch; its long texts go
    to the file ``texts_file``. Only the revisions ``schedule`` publishes are described and
    rendered (all of them, unmarked, without one); every one is judged. ``highlighted``: the
    code blocks an earlier build of the batch highlighted (:class:`Highlights`)."""
    problems, refs = batch_problems(project.root, project.settings, batch)
    defined = dict(refs.fixtures)  # its own fixtures and the helper modules' it shows: run here
    problems += _own_fixture_problems(project.root, refs, defined, outcomes)
    seen = views(schedule, refs.timings)
    data, items, chart_problems = described(
        project, batch, seen, outcomes, measure_images=staging is not None
    )
    problems += chart_problems
    listed = tuple(dataclasses.replace(item, content_html="", proofs=(), charts=()) for item in items)
    rendered = _Rendered()
    highlights = Highlights(highlighted or {})
    if staging is not None and not problems:  # a batch with problems fails the build anyway
        rendered = _rendered(project, items, staging, superseded, highlights)
        problems = list(rendered.problems)
    # surrogatepass: a lone surrogate is a problem of the batch already, never published.
    joined_data = ",\n  ".join(fragment(d) for d in data).encode("utf-8", "surrogatepass")
    body = Body(refs, outcomes, tuple(item.proofs for item in items), tuple(item.charts for item in items))
    return BatchSummary(
        name=batch.name,
        problems=tuple(problems),
        items=listed,
        list_key=content_hash(repr(listed).encode("utf-8", "surrogatepass")),
        texts=Texts.write(texts_file, joined_data, rendered.entries, rendered.scans, body, highlights.shown),
        pages=rendered.pages,
        timings=refs.timings,
        bodies=tuple((step.slug, step.body) for step in refs.steps),
        ran=outcomes is not None,
        borrows=bool(refs.borrowed()),
        held=BodyOnceRead(body),
        deferred=rendered.deferred,
        views=seen,
        refs_key=_refs_key(refs),
    )


def _own_fixture_problems(
    root: Path, refs: Refs, defined: dict[str, CallSite], outcomes: dict[str, Outcome] | None
) -> list[Problem]:
    """Step 3's findings when the fixtures ran: the failed ones and the verified outputs that
    fixtures judged here (``defined``) contradict."""
    if outcomes is None:
        return []
    judged_here = [claim for claim in refs.claims if claim.fixture in defined]
    return [*fixture_problems(root, defined, outcomes), *drift_problems(root, judged_here, outcomes)]


@dataclass(frozen=True, slots=True, kw_only=True)
class _Rendered:
    """Step 4's result for one batch: what it staged, or nothing when it renders nothing."""

    pages: dict[str, str] | None = None
    """Its own article pages, as :attr:`BatchSummary.pages`."""
    deferred: tuple[str, ...] = ()
    """Pages left to the kernel, as :attr:`BatchSummary.deferred`."""
    scans: dict[str, Scan] = dataclasses.field(default_factory=dict)
    """Each page's link-check scan."""
    entries: tuple[bytes, ...] = ()
    """Each item's Atom entry."""
    problems: tuple[Problem, ...] = ()
    """The template's problem, if it failed."""


def _rendered(
    project: Project, items: list[Item], staging: Path, superseded: frozenset[str], highlights: Highlights
) -> _Rendered:
    """Step 4: the feed entries of ``items``, and the pages of those the batch renders itself
    written into ``staging`` with their hashes and scans, or the template's problem. A later
    revision's pages show its article's history, which needs every batch; so does the first
    revision's page of an article the last build found revised (a hint)."""
    entries = tuple(feed_entry(project.settings, item).encode("utf-8") for item in items)
    own = [item for item in items if not item.later and item.slug not in superseded]
    deferred = tuple(article_file(i.slug) for i in items if i.slug in superseded and not i.later)
    try:
        texts = render_articles(environment(project.root), project.settings, own, highlights)
    except jinja2.TemplateError as exc:
        return _Rendered(
            pages={}, deferred=deferred, entries=entries, problems=(template_problem(project.root, exc),)
        )
    pages: dict[str, str] = {}
    scans: dict[str, Scan] = {}
    for path, text in texts.items():
        encoded = text.encode("utf-8")
        write_file(staging, path, encoded)
        pages[path] = content_hash(encoded)
        scans[path] = scan_page(text)
    return _Rendered(pages=pages, deferred=deferred, scans=scans, entries=entries)


def _refs_key(refs: Refs) -> str:
    """A hash of ``refs``, each revision's body hash left out: the history rules compare the
    bodies of one article's revisions, and a prose edit of an article with one revision
    changes nothing they find."""
    bodiless = dataclasses.replace(refs, steps=tuple(dataclasses.replace(s, body="") for s in refs.steps))
    return content_hash(repr(bodiless).encode("utf-8", "surrogatepass"))
