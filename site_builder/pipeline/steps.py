"""The build, as numbered steps in execution order.

:func:`~site_builder.pipeline.site_check.check_site` is steps 1-5 without writing
anything (``validate``, ``revisions``); ``build`` goes on to render, stage, check the
links, index, swap the new site in whole and remember what it learned:

1. load each batch in a worker, or take its kept summary (:mod:`.loading`);
2. judge each batch on its own, 3. run its fixtures, 4. render its article pages
   into the staging folder (all in :func:`site_builder.pipeline.worker.batch.summarize`);
5. judge the site as a whole: unique slugs, link targets, claims against outcomes; the
   pages the batches rendered can be shown now (``serve`` does: ``_show_batches``);
6. render the rest (lists, sitemap, feed, ``revisions.json``) and stage it;
7. check the links of every staged page (a fault there is a template's, reported at
   the template's line: :mod:`.staged_links`); every changed file can be shown now
   (``_preview``), then what the staging folder holds of an older site is
   pruned; 8. finish the search index (each shard was
   started as soon as its last batch was staged, while step 1 still ran);
9. swap the staging folder in (:mod:`.publish`); 10. remember, for the next build.

Each step after 5 is a function of its own; ``_finish`` only orders them.
"""

from __future__ import annotations

import contextlib
import shutil
import tempfile
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from site_builder.errors import Problem, SiteBuilderError, errors_in
from site_builder.model.images import Assets
from site_builder.pipeline.built import Built
from site_builder.pipeline.events import SILENT, Events
from site_builder.pipeline.loading import Hooks, default_jobs, load_batches
from site_builder.pipeline.plan import Plan
from site_builder.pipeline.publish import Swapped, go_live, publish
from site_builder.pipeline.remember import Learned, keep_given_up, remember
from site_builder.pipeline.site_check import Judged, RulesMemo, judge
from site_builder.pipeline.sitewide.histories import Histories
from site_builder.pipeline.sitewide.stage import Staged, stage_rest
from site_builder.pipeline.staged_links import LinkCheck, check_links
from site_builder.pipeline.staging import folder as staging
from site_builder.pipeline.staging.preview import changed
from site_builder.pipeline.worker.pool import Pool, StartMethod
from site_builder.pipeline.worker.workers import Job
from site_builder.search.indexing import Index, Indexing, never


@dataclass(frozen=True, slots=True, kw_only=True)
class _Build:
    """One build under way: what every step after planning is handed."""

    plan: Plan
    stage: staging.Stage
    scratch: Path
    """This build's scratch folder: the batches' texts, new search bundles."""
    indexing: Indexing
    events: Events
    jobs: int = 1
    """Worker processes it may use."""
    start: StartMethod | Pool = "fork"
    """How they start, or the pool they are."""


def build(
    plan: Plan,
    *,
    jobs: int | None = None,
    start: StartMethod | Pool = "fork",
    events: Events = SILENT,
) -> Built:
    """Steps 1-10: a new site swapped in whole, or its problems and the old site untouched
    (``start``: how its worker processes start, or a pool that outlives the build; ``events``:
    told of each step, and of the changed files before the search index is done)."""
    target = plan.target
    try:
        staging.recover(target)  # what a killed build left, before anything else
    except OSError as exc:
        message = f"cannot clean up what an interrupted build left beside {target}: {exc}"
        raise SiteBuilderError(message) from exc
    if (done := plan.unchanged) is not None:
        return Built(
            problems=(),
            revisions=done.revisions,
            pages=done.pages,
            files=len(done.files),
            unchanged=True,
            omitted=done.omitted,
            warnings=done.warnings,
        )
    stage = plan.open_stage()
    reuse = plan.reuse
    scratch = reuse.scratch() if reuse is not None else Path(tempfile.mkdtemp(prefix="site-builder-"))
    try:
        return _build_into(plan, stage, scratch, jobs, start, events)
    except OSError as exc:
        staging.recover(target)  # a failure between the two renames: the old site goes back
        message = f"cannot write the site to {target}: {exc}; the previous site is untouched"
        raise SiteBuilderError(message) from exc
    finally:
        staging.discard(stage, reuse.spare() if reuse is not None else None)
        shutil.rmtree(scratch, ignore_errors=True)
        if reuse is not None:
            with contextlib.suppress(OSError):
                reuse.store.folder.rmdir()  # only when the build left nothing in it


def _build_into(
    plan: Plan,
    stage: staging.Stage,
    scratch: Path,
    jobs: int | None,
    start: StartMethod | Pool,
    events: Events,
) -> Built:
    settings = plan.project.settings
    kept = plan.reuse.bundles() if plan.reuse is not None else None
    indexing = Indexing(
        staging=stage.folder,
        kept=kept,
        scratch=scratch / "search",
        language=settings.language,
        live_bundle=stage.live_bundle,
        live={folder: key for folder, (key, _) in (stage.live.bundles if stage.live else {}).items()},
        jobs=jobs or default_jobs(),
        base_path=settings.base_path,
        background=events.changed is not None and stage.live is not None,  # the pages are shown first
    )
    indexing.start([path.stem for path in plan.inputs.keys])
    run = _Build(
        plan=plan,
        stage=stage,
        scratch=scratch,
        indexing=indexing,
        events=events,
        jobs=jobs or default_jobs(),
        start=start,
    )
    # One thread joins revisions.json and the feed (the kernel copies, the interpreter is
    # free) while this one goes on; a failed build waits only for the copy under way.
    copier = ThreadPoolExecutor(max_workers=1, thread_name_prefix="site-builder-join")
    try:
        judged = _load(run, jobs)  # 1-5
        if errors_in(judged.problems):
            return Built.failed(judged.problems, judged.revisions)
        return _finish(run, judged, copier)  # 6-10
    finally:
        copier.shutdown(wait=True, cancel_futures=True)
        indexing.stop()


def _load(run: _Build, jobs: int | None) -> Judged:
    """Steps 1-5: every batch loaded, judged, its fixtures run and its pages staged."""
    run.events.step("loading, validating and running fixtures")
    stage = run.stage
    project = run.plan.project
    assets = Assets(project.root / project.settings.assets_dir)
    hooks = Hooks(
        group=run.indexing.shard_number,
        arrived=run.indexing.arrived,
        at_hand=lambda summary: all(stage.has(p, sha) for p, sha in (summary.pages or {}).items()),
        sized=lambda summary: summary.images_unchanged(assets),
    )
    plan = run.plan
    job = Job(
        project=plan.project,
        scratch=run.scratch,
        run=True,
        staging=stage.folder,
        keep=plan.reuse is not None,
        schedule=plan.schedule,
        superseded=plan.reuse.superseded() if plan.reuse is not None else frozenset(),
        common=plan.inputs.common,
        earlier=_earlier_texts(plan),
    )
    batches = load_batches(job, plan.inputs.keys, plan.reuse, jobs, hooks, run.start)
    memo = RulesMemo.of(plan.inputs, plan.reuse)
    return judge(plan.project, batches, run=True, schedule=plan.schedule, memo=memo)


def _earlier_texts(plan: Plan) -> dict[str, Path]:
    """Batch name → the texts file of its last build's summary, for each batch changed alone."""
    if plan.reuse is None:
        return {}
    return {path.stem: plan.reuse.texts_file(key) for path, key in plan.inputs.earlier.items()}


def _finish(run: _Build, judged: Judged, copier: ThreadPoolExecutor) -> Built:
    """Steps 6-10, and ``serve``'s previews before 6 and between 7 and 8."""
    run.indexing.all_arrived()  # the search delta is indexed while the rest is rendered
    histories = Histories.of(judged.summaries)
    shown = _show_batches(run, histories)
    staged = _render_rest(run, histories, copier)  # 6.
    if staged.problems:
        return Built.failed(staged.problems, judged.revisions)
    links = _check_links(run, staged)  # 7.
    give_up = _preview(run, staged, links, shown)
    # What the spare held of an older site goes only now: neither the link check nor the
    # preview looks at the folder's listing, and at 10,000 articles the walk is 0.08 s of
    # every edit's wait for its page under ``serve``.
    run.stage.prune(set(staged.files), but="pagefind")
    for done in staged.copying:
        done.result()  # an OSError of the copy is the build's
    index = run.indexing.finish(give_up)  # 8.
    if index.given_up:
        keep_given_up(run.plan.reuse, run.stage, staged.hashes)
        return Built(problems=(), revisions=judged.revisions, pages=0, files=0, superseded=True)
    problems = [*links.problems, *index.problems]
    if problems:
        return Built.failed(tuple(sorted(problems, key=Problem.sort_key)), judged.revisions)
    run.events.step("writing")
    publish(run.stage, index, staged.files)
    written = go_live(run.plan, run.stage, judged, staged, index)  # 9.
    _remember(run, judged, staged, links, index, written)  # 10.
    record = written.record
    return Built(
        problems=(),
        revisions=judged.revisions,
        pages=record.pages,
        files=len(record.files),
        omitted=record.omitted,
        warnings=record.warnings,
    )


def _show_batches(run: _Build, histories: Histories) -> bool:
    """``serve``'s first preview, before step 6: the article pages the batches rendered that
    the main process does not render again (those of an article with a history); whether any
    was shown. At 10,000 articles they come 0.13 s before the rest of the site is rendered."""
    if run.events.changed is None:
        return False
    pages = {path: sha for part in histories.summaries for path, sha in (part.pages or {}).items()}
    again = {path for path, _ in histories.owners()}
    news = changed(run.stage, pages, again, whole=False)
    if not news:
        return False
    run.events.changed(news)
    return True


def _render_rest(run: _Build, histories: Histories, copier: ThreadPoolExecutor) -> Staged:
    """Step 6: what needs every batch rendered and staged, the joined files copied in ``copier``."""
    run.events.step("rendering")
    return stage_rest(run.plan, histories, run.stage, copier.submit, run.jobs)


def _check_links(run: _Build, staged: Staged) -> LinkCheck:
    """Step 7, once the search index has heard of the pages step 6 made or replaced."""
    run.events.step("indexing for search, checking links")
    for batch, rewritten in staged.rewritten_pages.items():
        run.indexing.amend(batch, rewritten)
    for batch, everything in staged.deferred_pages.items():
        run.indexing.arrived(batch, everything)
    run.indexing.everything({p: sha for p, sha in staged.hashes.items() if p.endswith(".html")})
    return check_links(run.plan, run.stage, staged, keep=run.plan.reuse is not None)


def _preview(run: _Build, staged: Staged, links: LinkCheck, shown: bool) -> Callable[[], bool]:
    """``serve``'s preview: every changed file shown once the links hold (``shown``: the
    batches' pages were shown before step 6); then whether to give up waiting for the search
    index (a newer edit waits), else never."""
    # The pages, without the joined files: revisions.json alone is 171 MB at 10,000 articles,
    # and a preview that waited for its copy, then read it, came 0.5 s later.
    if run.events.changed is None or links.problems:
        return never
    news = changed(run.stage, staged.hashes, staged.joined)
    if not news:
        return run.events.newer if shown else never
    run.events.changed(news)
    return run.events.newer


def _remember(
    run: _Build, judged: Judged, staged: Staged, links: LinkCheck, index: Index, written: Swapped
) -> None:
    """Step 10: what this build learned kept for the next one, when it has a cache."""
    if run.plan.reuse is None or links.memory is None:
        return
    memory = Learned(
        inputs=run.plan.inputs,
        written=written.record,
        before=run.stage.live,
        spare_kept=written.spare_kept,
        links=links.memory,
        lists=staged.lists,
        summaries=judged.batches,
        index=index,
        covers=staged.covers,
        superseded=staged.superseded,
        rules=judged.rules,
        layout=staged.layout,
    )
    remember(run.plan.reuse, memory)
