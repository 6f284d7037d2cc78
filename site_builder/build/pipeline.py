"""The one orchestrator: load, validate, run fixtures, render, check, write.

``validate`` and ``revisions`` are the first steps without writing anything;
``build`` goes on to render, check the result and swap it in whole.

Every batch is summarized once (:mod:`site_builder.summary`), in a worker, and
the summary is kept in the cache under a hash of everything it depends on; the
next run uses it instead of importing the batch again. The site-wide steps
(unique slugs, link targets, lists, feeds, the link check) are redone from the
summaries every time. A build whose inputs all hash as the last one's did, over
an output nobody touched, does nothing.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from site_builder.build import staging as output
from site_builder.build.store import Cache, content_hash
from site_builder.errors import Problem, SiteBuilderError, UsageError
from site_builder.check.fixture_runs import Outcome, run_fixtures
from site_builder.build.inputs import Inputs, hash_inputs, keep_stamps, known_stamps, last_written, record_name, up_to_date
from site_builder.check.load import Site, load_site
from site_builder.authoring.model import Fixture
from site_builder.build.workers import Job, Loaded, Workers
from site_builder.search.indexing import UI_FILES, Indexing, finish_index, kept
from site_builder.settings import Settings, load_settings
from site_builder.check.linkcheck import Links, check_scanned, link_context, links_after, to_check
from site_builder.render.site_files import render_rest, site_items, write_joined
from site_builder.build.batch import Scans, Summary, write_file
from site_builder.check.rules import site_problems
from site_builder.check.claims import drift_problems, same_every_time


@dataclass(frozen=True, slots=True)
class Checked:
    """A site after validation and, when asked for, its fixture runs."""

    root: Path
    settings: Settings
    summaries: tuple[Summary, ...]
    """Every batch that loaded, in site order."""
    problems: tuple[Problem, ...]
    """Every problem found, sorted by file and line."""
    outcomes: dict[str, Outcome]
    """Fixture outcomes by id (empty when fixtures were not run)."""
    keys: frozenset[str] = frozenset()
    """The cache keys of the site's batches."""
    common: str = ""
    """The hash of what every batch depends on (templates, settings, the package)."""

    @property
    def revisions(self) -> int:
        """How many revisions the site has."""
        return sum(len(part.items) for part in self.summaries)


@dataclass(frozen=True, slots=True)
class Verified:
    """Fixtures run by ``verify``: the loaded site, its problems and the outcomes."""

    site: Site
    problems: tuple[Problem, ...]
    outcomes: dict[str, Outcome]


def default_jobs() -> int:
    """One worker per core."""
    return os.cpu_count() or 1


def runnable(site: Site) -> dict[str, Fixture]:
    """Fixtures worth running: a wrongly defined one is already a problem."""
    return {fid: fx for fid, fx in site.fixtures().items() if not fx.flaws}


def check_site(
    root: Path,
    *,
    run: bool,
    jobs: int | None = None,
    cache: bool = True,
    staging: Path | None = None,
    reusable: Callable[[Summary], bool] | None = None,
    keep: bool = False,
    spool: Path,
    inputs: Inputs | None = None,
    group: Callable[[str], int] | None = None,
    arrived: Callable[[str, dict[str, str]], None] | None = None,
) -> Checked:
    """Steps 1-3: load every batch (or take its summary from the cache), validate
    everything, run every fixture; with ``staging``, render article pages into it.
    Only with ``keep`` (a build) are new summaries written to the cache; ``inputs`` are
    the batches' keys when the caller has hashed them already. Batches are handed to the
    workers ordered by ``group`` (of a batch name; site order within one), and ``arrived``
    hears of every batch's staged pages as soon as it has a summary."""
    root = root.resolve()
    settings, problems = load_settings(root)
    folder = root / settings.articles_dir
    if not folder.is_dir():
        return Checked(root, settings, (), tuple(sorted(load_site(root).problems, key=Problem.sort_key)), {})
    store = Cache.of(root) if cache else None
    inputs = inputs or hash_inputs(root, settings, root / settings.output_dir, known_stamps(store))
    common, keys = inputs.common, inputs.keys
    paths = list(keys)
    grouped = sorted(paths, key=lambda path: group(path.stem)) if group is not None else list(paths)
    found: dict[Path, Summary] = {}
    job = Job(root, settings, run, staging, store if keep else None, spool)

    def done(_path: Path, result: Loaded) -> None:
        if arrived is not None and result.summary is not None:
            arrived(result.summary.name, result.summary.pages or {})

    with Workers(job, min(jobs or default_jobs(), max(1, len(paths)))) as workers:
        kept = store.keys("batches") if store is not None else set()
        loading = [path for path in grouped if keys[path] not in kept]
        for path in loading:  # what must be loaded first: the workers start on it at once
            workers.submit(path, keys[path])
        if group is not None:  # the groups of those first: they may be complete the soonest
            first = {group(path.stem) for path in loading}
            grouped.sort(key=lambda path: group(path.stem) not in first)
        for path in grouped:
            if keys[path] not in kept or store is None:
                continue
            entry = _cached(store.get_summary(keys[path]), run=run, render=staging is not None)
            if entry is not None and (reusable is None or reusable(entry)):
                found[path] = entry
                done(path, Loaded(entry, None))
            else:
                workers.submit(path, keys[path])
            workers.ready(done)
        loaded = workers.results(done)
    summaries: list[Summary] = []
    for path in paths:  # site order, whichever worker finished first
        if path in found:
            summaries.append(found[path])
            continue
        result = loaded[path]
        problems += [result.problem] if result.problem is not None else []
        summaries += [result.summary] if result.summary is not None else []
    problems += [p for part in summaries for p in part.problems]
    problems += site_problems(root, settings, [part.refs for part in summaries])
    outcomes: dict[str, Outcome] = {}
    if run:
        for part in summaries:
            outcomes |= part.outcomes or {}
        claims = [claim for part in summaries for claim in part.refs.claims]
        problems += drift_problems(root, claims, outcomes)
    unique = sorted(dict.fromkeys(problems), key=Problem.sort_key)  # a template error, once
    return Checked(
        root, settings, tuple(summaries), tuple(unique), outcomes, frozenset(keys.values()), common
    )


def _cached(entry: object, *, run: bool, render: bool) -> Summary | None:
    """A cache entry that has what this run needs (fixture outcomes, rendered pages)."""
    if not isinstance(entry, Summary):
        return None
    if (run and entry.outcomes is None) or (render and entry.pages is None):
        return None
    return entry


def verify_fixtures(root: Path, ids: Sequence[str], *, jobs: int | None = None, repeat: int = 1) -> Verified:
    """Load the site and run the fixtures named (all when none are), ``repeat`` times each."""
    from site_builder.check.claims import outcome_problems

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
    return Verified(site, tuple(sorted(problems, key=Problem.sort_key)), outcomes)


@dataclass(frozen=True, slots=True)
class Built:
    """The result of ``build``: problems (nothing written) or what was written."""

    problems: tuple[Problem, ...]
    """Every problem of every step; when not empty, the output was left untouched."""
    revisions: int
    """Revisions of the site."""
    pages: int
    """HTML pages written."""
    files: int
    """Files written in all."""
    unchanged: bool = False
    """Nothing had changed since the last build: nothing was written."""


Report = Callable[[str], None]


def print_nothing(_step: str) -> None:
    """The default progress report: silence."""


def build(
    root: Path,
    *,
    out: Path | None = None,
    jobs: int | None = None,
    report: Report = print_nothing,
    cache: bool = True,
    inputs: Inputs | None = None,
) -> Built:
    """Load, validate, run fixtures, render, check the result, then swap it in whole."""
    root = root.resolve()
    settings, settings_problems = load_settings(root)
    target = (out or root / settings.output_dir).resolve()
    _refuse_unsafe_target(root, target)
    try:
        output.recover(target)  # what a killed build left, before anything else
    except OSError as exc:
        raise SiteBuilderError(
            f"cannot clean up what an interrupted build left beside {target}: {exc}"
        ) from exc
    store = Cache.of(root) if cache else None
    inputs = inputs or hash_inputs(root, settings, target, known_stamps(store))  # or the caller did
    if store is not None and not settings_problems and (done := up_to_date(store, target, inputs.key)):
        return Built((), done.revisions, done.pages, len(done.files), unchanged=True)
    last = last_written(store, target)
    spare = _spare(store, target)
    held = store.get("outputs", record_name(target) + ".spare") if store is not None else None
    try:
        stage = output.Stage.open(target, spare, last, held if isinstance(held, output.Written) else None)
    except OSError as exc:
        raise SiteBuilderError(f"cannot write the site beside {target}: {exc}") from exc
    staging = stage.folder
    spool = _spool(store)
    try:
        return _build_into(root, settings, stage, store, inputs, jobs, report, spool)
    except OSError as exc:
        output.recover(target)  # a failure between the two renames: the old site goes back
        raise SiteBuilderError(
            f"cannot write the site to {target}: {exc}; the previous site is untouched"
        ) from exc
    finally:
        output.discard(staging)
        shutil.rmtree(spool, ignore_errors=True)
        if store is not None:
            with contextlib.suppress(OSError):
                store.folder.rmdir()  # only when the build left nothing in it


def _build_into(
    root: Path,
    settings: Settings,
    stage: output.Stage,
    store: Cache | None,
    inputs: Inputs,
    jobs: int | None,
    report: Report,
    spool: Path,
) -> Built:
    report("loading, validating and running fixtures")
    staging, target, last = stage.folder, stage.target, stage.live

    def reusable(summary: Summary) -> bool:  # its pages are in staging or the live site, unchanged
        return all(stage.has(p, sha) for p, sha in (summary.pages or {}).items())

    def live(key: str) -> tuple[Path, tuple[str, ...]] | None:  # a shard the live site holds untouched
        for folder, (known, names) in (last.bundles if last is not None else {}).items():
            if known == key and last is not None and last.untouched(target, folder, names):
                return target / folder, names
        return None

    # 5. The search index, shard by shard as the batches' pages are staged, while the rest goes on.
    names = [path.stem for path in inputs.keys]
    indexing = Indexing.open(staging, names, settings.language, store, live, jobs or default_jobs())
    # One thread joins revisions.json and the feed (the kernel copies, the interpreter is
    # free) while this one goes on; leaving the block waits for it, whatever happened.
    copier = ThreadPoolExecutor(max_workers=1, thread_name_prefix="site-builder-join")
    try:
        checked = check_site(
            root,
            run=True,
            jobs=jobs,
            cache=store is not None,
            staging=staging,
            reusable=reusable,
            keep=True,
            spool=spool,
            inputs=inputs,
            group=indexing.shard_number,
            arrived=indexing.arrived,
        )
        if checked.problems:
            return Built(checked.problems, checked.revisions, 0, 0)
        report("rendering")
        items = site_items(checked.summaries)
        files, scans, problems = render_rest(root, settings, checked.summaries, store, checked.common)  # 4.
        if problems:
            return Built(tuple(problems), checked.revisions, 0, 0)
        hashes = {p: sha for part in checked.summaries for p, sha in (part.pages or {}).items()}
        scanned = Scans(checked.summaries, scans)  # read from the batches' files as needed
        for path, data in sorted(files.items()):
            hashes[path] = content_hash(data)
            if not stage.has(path, hashes[path]):
                write_file(staging, path, data)
        joined, steps = write_joined(settings, checked.summaries, items, stage)  # revisions.json, feed
        hashes |= joined
        copying = [copier.submit(step) for step in steps]
        assets = output.copy_assets(root / settings.assets_dir, staging)
        stage.prune(set(hashes) | assets, but="pagefind")  # what the spare held of an older site
        report("indexing for search, checking links")
        staged = set(hashes) | assets
        indexing.everything({p: sha for p, sha in hashes.items() if p.endswith(".html")})
        checked_pages = {path: hashes[path] for path in scanned}
        context = link_context(checked.common, staged | UI_FILES, target.name)
        last_links = _links(store, target, last)
        only = to_check(last_links, context, checked_pages)  # 6. checks: what may have changed
        problems = check_scanned(scanned, staged | UI_FILES, target.name, only)
        indexed, bundles = finish_index(indexing)
        problems += indexed
        for done in copying:
            done.result()  # an OSError of the copy is the build's
    finally:
        copier.shutdown(wait=True, cancel_futures=True)
        indexing.stop()
    if problems:
        return Built(tuple(sorted(problems, key=Problem.sort_key)), checked.revisions, 0, 0)
    report("writing")
    published = {f"{folder}/{name}" for folder, (_, names) in bundles.items() for name in names}
    stage.prune(staged | published | UI_FILES, within="pagefind")  # the rest is pruned already
    pages = sum(p.endswith(".html") for p in hashes)
    listed = output.stats(staging)
    spare = _spare(store, target)
    kept_old = output.swap(staging, target, spare)  # 7. replace the old site whole
    if store is not None:
        if kept_old and last is not None:  # the spare is the site that was live until now
            store.put("outputs", record_name(target) + ".spare", last)
        else:
            store.drop("outputs", record_name(target) + ".spare")
        store.put(
            "outputs",
            record_name(target),
            output.Written(inputs.key, listed, hashes, checked.revisions, pages, bundles),
        )
        links = links_after(last_links, only, scanned, staged | UI_FILES, checked_pages, inputs.key, context)
        store.put("outputs", record_name(target) + ".links", links)
        store.keep_only("search", kept(indexing))
        # One spare site per cache: serve's temporary outputs must not pile up old sites.
        store.keep_only("spare", {record_name(target)} if kept_old else set())
        store.keep_only("batches", set(checked.keys))
        keep_stamps(store, inputs)
    return Built((), checked.revisions, pages, len(listed))


def _spare(store: Cache | None, target: Path) -> Path | None:
    """Where the cache keeps the site before the live one in ``target`` (see :func:`output.swap`)."""
    return store.folder / "spare" / record_name(target) if store is not None else None


def _links(store: Cache | None, target: Path, live: output.Written | None) -> Links | None:
    """What the check of the live site knew, when the cache holds it for that very site."""
    if store is None or live is None:
        return None
    found = store.get("outputs", record_name(target) + ".links")
    return found if isinstance(found, Links) and found.site == live.site else None


def _spool(store: Cache | None) -> Path:
    """A folder for the batches' long texts: in the cache (which keeps them), or temporary."""
    if store is None:
        return Path(tempfile.mkdtemp(prefix="site-builder-"))
    folder = store.folder / f".spool-{os.getpid()}"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _refuse_unsafe_target(root: Path, target: Path) -> None:
    if target == root or root.is_relative_to(target):
        raise UsageError(f"the output folder {target} would replace the site itself; choose another --out")
