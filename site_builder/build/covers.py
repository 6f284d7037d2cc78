"""Step 6, the PNGs social sites show for articles with SVG covers, staged once per cover.

Many articles share a cover, so each distinct SVG is drawn once per build at most, and
not at all when the cache keeps a drawing of the same bytes (with the same fonts and
resvg): a PNG is known by its drawing key, not by its bytes, like the joined files.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from site_builder.build.plan import Plan
from site_builder.build.staging import Stage, write_file
from site_builder.errors import Problem
from site_builder.render.cover_png import draw_png, drawing_key, error_line, font_stamp, png_path, svg_source
from site_builder.render.pages import Item


@dataclass(frozen=True, slots=True)
class Covers:
    """The drawn covers of one build."""

    problems: tuple[Problem, ...] = ()
    """A cover that cannot be drawn, at the SVG's file and line."""
    hashes: dict[str, str] = field(default_factory=dict)
    """Output path → drawing key of every drawn cover of the site."""
    new: dict[str, Path] = field(default_factory=dict)
    """Drawing key → the PNG drawn by this build, in its scratch folder, for the cache to keep."""

    @property
    def remembered(self) -> dict[str, Path | None]:
        """Every drawing key the site uses → the PNG this build drew for it (None: the cache
        or the output already held it)."""
        return {key: self.new.get(key) for key in sorted(set(self.hashes.values()))}


def stage_covers(plan: Plan, items: Sequence[Item], stage: Stage) -> Covers:
    """Draw (or take from the cache) the PNG of every SVG cover of ``items`` into ``stage``."""
    users: dict[str, str] = {}  # output path → the first article that shows it, for problems
    for item in items:
        if (path := png_path(item.cover)) is not None:
            users.setdefault(path, item.slug)
    assets = plan.project.root / plan.project.settings.assets_dir
    fonts = font_stamp() if users else ""
    problems: list[Problem] = []
    hashes: dict[str, str] = {}
    new: dict[str, Path] = {}
    for path, slug in sorted(users.items()):
        source = assets / svg_source(path)
        try:
            svg = source.read_bytes()
        except OSError as exc:
            message = f"the cover cannot be read to draw its PNG for social sites: {exc.strerror}"
            problems.append(_problem(plan, source, slug, message))
            continue
        hashes[path] = key = drawing_key(svg, fonts)
        if stage.has(path, key):
            continue
        kept = plan.reuse.cover(key) if plan.reuse is not None else None
        if kept is None:
            try:
                kept = draw_png(svg)
            except ValueError as exc:
                message = f"the cover cannot be drawn as a PNG for social sites: {exc}"
                problems.append(_problem(plan, source, slug, message))
                continue
            if plan.reuse is not None:
                new[key] = plan.reuse.keep_cover(key, kept)
        write_file(stage.folder, path, kept)
    return Covers(tuple(problems), hashes, new)


def _problem(plan: Plan, source: Path, slug: str, message: str) -> Problem:
    """A problem of the cover's own file, at the line resvg names."""
    where = source.relative_to(plan.project.root).as_posix()
    return Problem(path=where, line=error_line(message), subject=slug, rule="cover-png", message=message)
