"""Step 6 of a build: the files that need every batch, rendered and staged.

The list pages and the sitemap (kept by the cache under a hash of every batch's
list entries: most edits leave them as they were), ``robots.txt`` and the theme,
``revisions.json`` and the feed (joined by the kernel from the batches' texts, in
another thread), the PNGs drawn from SVG covers (once per cover, kept by the cache),
and the assets. Each file is written only when the staging
folder or the live site does not already hold its bytes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path

import jinja2

from site_builder.errors import Problem
from site_builder.model.page_scan import Scan, scan_page
from site_builder.pipeline.cache.inputs import content_hash
from site_builder.pipeline.plan import Plan
from site_builder.pipeline.sitewide.covers import stage_covers
from site_builder.pipeline.sitewide.histories import Histories
from site_builder.pipeline.sitewide.joined import Layout, write_joined
from site_builder.pipeline.staging.folder import Stage, copy_assets, write_file
from site_builder.pipeline.worker.batch import BatchSummary
from site_builder.pipeline.worker.texts import Scans
from site_builder.render.feeds import site_date
from site_builder.render.history_pages import render_history
from site_builder.render.items import Item
from site_builder.render.pages import environment, render_articles
from site_builder.render.site_files import Lists, fixed_files, render_list_files
from site_builder.render.template_errors import template_problem
from site_builder.settings.project import Settings

Submit = Callable[[Callable[[], None]], "Future[None]"]
"""Run a step in another thread."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Staged:
    """Every generated file of the site, staged (or its problem)."""

    problems: tuple[Problem, ...] = ()
    """Why nothing was staged: a template's problem or a cover that cannot be drawn."""
    hashes: dict[str, str] = field(default_factory=dict)
    """Output path → content hash of every generated page and file."""
    files: frozenset[str] = frozenset()
    """Every file staged: generated ones and assets (the search index apart). The staging
    folder may still hold others, left by the older site it was: the build prunes them once
    its changed pages are shown."""
    scanned: Scans | None = None
    """The link-check scans of every page."""
    copying: tuple[Future[None], ...] = ()
    """The joined files still being copied."""
    lists: tuple[str, Lists] | None = None
    """The list pages by their key, when rendered anew (for the cache to keep)."""
    covers: dict[str, Path | None] = field(default_factory=dict)
    """The cover drawings the site uses, for the cache (:attr:`Covers.remembered`)."""
    rewritten_pages: dict[str, dict[str, str]] = field(default_factory=dict)
    """Batch name → pages of its search shard rewritten here (an article's latest revision,
    which its batch had rendered alone): the shard is indexed again with them."""
    deferred_pages: dict[str, dict[str, str]] = field(default_factory=dict)
    """Batch name → all its pages, for a batch that left some to the main process: its search shard
    hears of it only now."""
    superseded: frozenset[str] = frozenset()
    """The slugs of the articles with a later revision (for the next build's workers)."""
    joined: frozenset[str] = frozenset()
    """The files joined from the batches' texts (``revisions.json``, the feed): copied in
    another thread while the build goes on (``copying``)."""
    layout: tuple[str, Layout] | None = None
    """``revisions.json``'s hash and parts, for the next build to copy from (the cache keeps it)."""

    @property
    def pages(self) -> dict[str, str]:
        """Every page the link check looks at → its content hash."""
        return {path: self.hashes[path] for path in self.scanned or ()}


def stage_rest(plan: Plan, histories: Histories, stage: Stage, submit: Submit, jobs: int = 1) -> Staged:
    """Render and stage what is not an article page of a batch's own (covers drawn in up to
    ``jobs`` processes); ``histories``: every batch, in site order, and its articles' histories."""
    project = plan.project
    summaries = histories.summaries
    listed = histories.listed()
    items = [item for _, item in listed]
    date = site_date(items, plan.schedule.today)  # the build's date when no article gives one
    lists, fresh = _list_files(plan, summaries, items, date)
    if isinstance(lists, Problem):
        return Staged(problems=(lists,))
    history = _history_files(project.root, project.settings, histories, items)
    if isinstance(history, Problem):
        return Staged(problems=(history,))
    hashes = {p: sha for part in summaries for p, sha in (part.pages or {}).items()}
    hashes |= _write_new(stage, lists.files | history.files | fixed_files(project.settings))
    covers = stage_covers(plan, items, stage, jobs)
    if covers.problems:
        return Staged(problems=covers.problems)
    hashes |= covers.hashes
    reuse = plan.reuse
    layouts = (lambda sha: reuse.kept("joined", sha, tuple)) if reuse is not None else None
    joined = write_joined(project.settings, histories, listed, stage, date, layouts)
    hashes |= joined.hashes
    copying = tuple(submit(step) for step in joined.steps)
    assets = copy_assets(project.root / project.settings.assets_dir, stage.folder)
    deferred_pages, rewritten_pages = _shard_pages(summaries, histories, hashes)
    return Staged(
        hashes=hashes,
        files=frozenset(hashes.keys() | assets),
        scanned=_scans(summaries, lists.scans | history.scans),
        copying=copying,
        lists=fresh,
        covers=covers.remembered,
        rewritten_pages=rewritten_pages,
        deferred_pages=deferred_pages,
        superseded=frozenset(histories.articles),
        joined=frozenset(joined.hashes),
        layout=joined.layout,
    )


def _list_files(
    plan: Plan, summaries: Sequence[BatchSummary], items: list[Item], date: str
) -> tuple[Lists | Problem, tuple[str, Lists] | None]:
    """The list pages and the sitemap, kept by the cache or rendered (or the template's
    problem); and, when rendered anew for a build that keeps them, them by their key."""
    project = plan.project
    key = _lists_key(plan.inputs.common, summaries, date)
    kept = plan.reuse.kept("lists", key, Lists) if plan.reuse is not None else None
    lists = kept or render_list_files(project.root, project.settings, items, today=date)
    fresh = (key, lists) if kept is None and plan.reuse is not None and isinstance(lists, Lists) else None
    return lists, fresh


def _write_new(stage: Stage, files: dict[str, bytes]) -> dict[str, str]:
    """Write each of ``files`` the staging folder or the live site does not hold already:
    every path → its content hash, in path order."""
    hashes: dict[str, str] = {}
    for path, data in sorted(files.items()):
        hashes[path] = content_hash(data)
        if not stage.has(path, hashes[path]):
            write_file(stage.folder, path, data)
    return hashes


def _shard_pages(
    summaries: Sequence[BatchSummary], histories: Histories, hashes: dict[str, str]
) -> tuple[dict[str, dict[str, str]], dict[str, dict[str, str]]]:
    """The pages rendered here, by the batch whose search shard holds them: whole for a batch
    that left them to the kernel (it has not been heard of yet), else what they replaced."""
    deferred = {part.name: part for part in summaries if part.deferred}
    late = {name: dict(part.pages or {}) for name, part in deferred.items()}
    amended: dict[str, dict[str, str]] = {}
    for path, owner in histories.owners():
        (late[owner] if owner in late else amended.setdefault(owner, {}))[path] = hashes[path]
    return late, amended


def _scans(summaries: Sequence[BatchSummary], own: dict[str, Scan]) -> Scans:
    """The link-check scans of every page: those rendered here (``own``), and each batch's,
    read from its texts file as needed."""
    return Scans({path: part.texts for part in summaries for path in part.pages or {}}, own)


def _history_files(
    root: Path, settings: Settings, histories: Histories, items: list[Item]
) -> Lists | Problem:
    """The pages of the articles with a history (:mod:`.histories`), or the template's problem
    (``items``: what the lists show, whose categories are the category pages the site has)."""
    categories = {link.url for item in items for link in item.categories}
    env = environment(root)
    texts: dict[str, str] = {}
    try:
        for slug in histories.articles:
            texts |= render_history(env, settings, histories.whole(slug), categories)
        texts |= render_articles(env, settings, [histories.whole_at(place) for place in histories.unrendered])
    except jinja2.TemplateError as exc:
        return template_problem(root, exc)
    files = {path: text.encode("utf-8") for path, text in texts.items()}
    return Lists(files, {path: scan_page(text) for path, text in texts.items()})


def _lists_key(common: str, summaries: Sequence[BatchSummary], date: str) -> str:
    """What the list pages and the sitemap depend on: every batch's list entries (the
    revisions it publishes, marked), and the site's date."""
    digest = hashlib.sha256(f"{common}\0{date}".encode())
    for part in summaries:
        digest.update(part.list_key.encode())
    return digest.hexdigest()
