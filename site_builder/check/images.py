"""Every image the site shows has a width and height that can be read from its file: an image
whose size cannot be read is a problem at the line that shows it (the sizes themselves:
:mod:`site_builder.model.images`)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from markupsafe import Markup

from site_builder.authoring.model import Block, CallSite, Revision
from site_builder.errors import Problem
from site_builder.model.batches import relative_to_root
from site_builder.model.images import Assets, img_tags
from site_builder.settings.project import Settings


def shown_images(rev: Revision) -> Iterator[tuple[CallSite, str]]:
    """The images a revision's pages show: its cover, then each ``<img>`` of its body, with
    the line that shows it."""
    if rev.cover is not None:
        yield rev.at("cover"), rev.cover
    for block in rev.body:
        where = block.site if isinstance(block, Block) else rev.at("body")
        shown = img_tags(str(block)) if isinstance(block, Markup) else []
        yield from ((where, src) for _, src in shown if src)


def image_problems(
    root: Path, settings: Settings, images: Iterable[tuple[CallSite, str, str]]
) -> list[Problem]:
    """Every image the site shows from its assets (``images``: where, subject, URL) has a
    width and height that can be read."""
    assets = Assets(root / settings.assets_dir)
    problems = []
    for at, subject, url in images:
        path = assets.image(url)
        if path is None:  # not a file of the assets: a problem of its own already
            continue
        if isinstance(reason := assets.size(path), str):
            message = f"image {url!r} {reason}; pages give every image its width and height"
            shown = relative_to_root(root, at.path)
            problems.append(
                Problem(path=shown, line=at.line, subject=subject, rule="image-size", message=message)
            )
    return problems
