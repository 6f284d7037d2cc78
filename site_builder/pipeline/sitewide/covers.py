"""Step 6, the PNGs social sites show for articles with SVG covers, staged once per cover.

Many articles share a cover, so each distinct SVG is drawn once per build at most, and
not at all when the output or the cache holds a drawing of the same bytes (with the same
fonts and resvg): a PNG is known by its drawing key, not by its bytes, like the joined
files. The covers still to draw (every one, in a site's first build) are drawn in worker
processes when there are many, a few tens of milliseconds each.
"""

from __future__ import annotations

import functools
import multiprocessing
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from site_builder.errors import Problem
from site_builder.pipeline.plan import Plan
from site_builder.pipeline.staging.folder import Stage, write_file
from site_builder.render.cover_png import draw_png, drawing_key, error_line, font_stamp, png_path, svg_source
from site_builder.render.items import Item
from site_builder.runtime.processes import die_with_parent

POOL_FROM = 8
"""Fewer covers to draw than this are drawn in the build's own process (a pool costs more)."""


@dataclass(frozen=True, slots=True)
class Covers:
    """The drawn covers of one build."""

    problems: tuple[Problem, ...] = ()
    """A cover that cannot be read or drawn, at the SVG's file and line."""
    hashes: dict[str, str] = field(default_factory=dict)
    """Output path → drawing key of every drawn cover of the site."""
    new: dict[str, Path] = field(default_factory=dict)
    """Drawing key → the PNG drawn by this build, in its scratch folder, for the cache to keep."""

    @property
    def remembered(self) -> dict[str, Path | None]:
        """Every drawing key the site uses → the PNG this build drew for it (None: the cache
        or the output already held it)."""
        return {key: self.new.get(key) for key in sorted(set(self.hashes.values()))}


@dataclass(frozen=True, slots=True)
class _Cover:
    """One SVG cover the site shows."""

    path: str
    """Output path of its PNG."""
    source: Path
    """The SVG."""
    slug: str
    """The first article that shows it, for problems."""


@dataclass(slots=True)
class _Drawing:
    """One drawing to make, and every output path that shows it."""

    svg: bytes
    covers: list[_Cover]


def stage_covers(plan: Plan, items: Sequence[Item], stage: Stage, jobs: int = 1) -> Covers:
    """Stage the PNG of every SVG cover of ``items``: kept, taken from the cache, or drawn
    (in up to ``jobs`` processes)."""
    problems: list[Problem] = []
    hashes: dict[str, str] = {}
    missing: dict[str, _Drawing] = {}  # by drawing key
    covers = list(_covers(plan, items))
    fonts = font_stamp() if covers else ""
    for cover in covers:
        try:
            svg = cover.source.read_bytes()
        except OSError as exc:
            message = f"the cover cannot be read to draw its PNG for social sites: {exc.strerror}"
            problems.append(_problem(plan, cover, message))
            continue
        hashes[cover.path] = key = drawing_key(svg, fonts)
        if stage.has(cover.path, key):
            continue
        if key not in missing and plan.reuse is not None and (png := plan.reuse.cover(key)) is not None:
            write_file(stage.folder, cover.path, png)
            continue
        missing.setdefault(key, _Drawing(svg, [])).covers.append(cover)
    new = _draw(plan, stage, missing, problems, jobs)
    return Covers(tuple(problems), hashes, new)


def _covers(plan: Plan, items: Sequence[Item]) -> Iterator[_Cover]:
    """Each SVG cover of ``items`` once, by output path."""
    assets = plan.project.root / plan.project.settings.assets_dir
    seen: set[str] = set()
    paths: dict[str | None, str | None] = {}  # by cover: articles share a few (10,000 calls were 30 ms)
    for item in items:
        if item.cover not in paths:
            paths[item.cover] = png_path(item.cover)
        path = paths[item.cover]
        if path is not None and path not in seen:
            seen.add(path)
            yield _Cover(path, assets / svg_source(path), item.slug)


def _draw(
    plan: Plan, stage: Stage, missing: dict[str, _Drawing], problems: list[Problem], jobs: int
) -> dict[str, Path]:
    """Draw ``missing`` into the staging folder (and, for the cache, the scratch folder)."""
    new: dict[str, Path] = {}
    keys = sorted(missing)
    for key, png in zip(keys, _drawn({key: missing[key].svg for key in keys}, jobs), strict=True):
        drawing = missing[key]
        if isinstance(png, str):
            message = f"the cover cannot be drawn as a PNG for social sites: {png}"
            problems.extend(_problem(plan, cover, message) for cover in drawing.covers)
            continue
        for cover in drawing.covers:
            write_file(stage.folder, cover.path, png)
        if plan.reuse is not None:
            new[key] = plan.reuse.keep_cover(key, png)
    return new


def _drawn(svgs: dict[str, bytes], jobs: int) -> list[bytes | str]:
    """Each SVG (by drawing key) drawn, or resvg's message; in worker processes when there are many."""
    if jobs < 2 or len(svgs) < POOL_FROM:
        return [_drawn_here(key, svg) for key, svg in svgs.items()]
    context = multiprocessing.get_context("fork")
    workers = min(jobs, len(svgs))
    with ProcessPoolExecutor(workers, mp_context=context, initializer=die_with_parent) as pool:
        return list(pool.map(_draw_one, svgs.values(), chunksize=max(1, len(svgs) // (workers * 4))))


@functools.lru_cache(maxsize=32)
def _drawn_here(_key: str, svg: bytes) -> bytes | str:
    """``svg`` drawn in this process, once per drawing key (its bytes, the fonts, resvg's
    version): a process that builds again (``serve``, a test run) does not draw it again."""
    return _draw_one(svg)


def _draw_one(svg: bytes) -> bytes | str:
    try:
        return draw_png(svg)
    except ValueError as exc:
        return str(exc)


def _problem(plan: Plan, cover: _Cover, message: str) -> Problem:
    """A problem of the cover's own file, at the line resvg names."""
    where = cover.source.relative_to(plan.project.root).as_posix()
    return Problem(
        path=where, line=error_line(message), subject=cover.slug, rule="cover-png", message=message
    )
