"""Every generated file of the site, rendered in memory (assets are copied apart).

A template error (in a site's own ``templates/`` override, say) becomes a
problem at the template's file and line, not a traceback.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import jinja2

from .errors import Problem
from .feeds import atom_feed, robots, sitemap
from .highlight import highlight_css
from .loader import Batch, Site, relative_to_root
from .model import Block
from .render import environment, items_from, render_articles, render_lists
from .revisions_json import dumps, revision_dict
from .settings import Settings


@dataclass(frozen=True, slots=True)
class Prepared:
    """One batch as the site needs it: revisions as JSON objects and their pages."""

    data: tuple[dict[str, object], ...]
    """The batch's ``revisions`` JSON objects, in list order."""
    verified: tuple[int, ...]
    """How many ``verified_output`` blocks each revision has."""
    pages: dict[str, str]
    """Article pages by output path."""
    problems: tuple[Problem, ...]
    """A template error met while rendering them."""


def prepare_batch(root: Path, settings: Settings, batch: Batch) -> Prepared:
    """Render one batch's revisions: done where the batch was loaded, in parallel."""
    data = tuple(revision_dict(rev, batch.name, settings) for rev in batch.revisions)
    verified = tuple(
        sum(isinstance(b, Block) and b.verified is not None for b in rev.body) for rev in batch.revisions
    )
    try:
        pages = render_articles(environment(root), settings, items_from(data, verified))
    except jinja2.TemplateError as exc:
        return Prepared(data, verified, {}, (_template_problem(root, exc),))
    return Prepared(data, verified, pages, ())


def render_site(
    site: Site, prepared: Sequence[Prepared] | None = None
) -> tuple[dict[str, bytes], list[Problem]]:
    """Output path → bytes for pages, feeds, ``revisions.json`` and the theme."""
    if prepared is None:
        prepared = [prepare_batch(site.root, site.settings, batch) for batch in site.batches]
    problems = [problem for part in prepared for problem in part.problems]
    if problems:
        return {}, problems[:1]
    data = [d for part in prepared for d in part.data]
    items = items_from(data, [n for part in prepared for n in part.verified])
    settings = site.settings
    try:
        texts = render_lists(environment(site.root), settings, items)
    except jinja2.TemplateError as exc:
        return {}, [_template_problem(site.root, exc)]
    for part in prepared:
        texts |= part.pages
    texts |= {
        "feed.xml": atom_feed(settings, items),
        "sitemap.xml": sitemap(settings, items),
        "robots.txt": robots(settings),
        "revisions.json": dumps(data, 2),
        "theme/style.css": theme_css(),
        "theme/favicon.svg": _theme_file("favicon.svg"),
    }
    return {path: text.encode("utf-8") for path, text in sorted(texts.items())}, []


def theme_css() -> str:
    """The package stylesheet followed by the highlighting colours."""
    return _theme_file("style.css") + "\n/* Syntax highlighting (Pygments) */\n" + highlight_css()


def _theme_file(name: str) -> str:
    return resources.files(__package__).joinpath("theme", name).read_text("utf-8")


def _template_problem(root: Path, exc: jinja2.TemplateError) -> Problem:
    frame = _template_frame(exc)
    name = getattr(exc, "filename", None) or (frame[0] if frame else "templates")
    line = getattr(exc, "lineno", None) or (frame[1] if frame else 1)
    return Problem(
        path=relative_to_root(root, name),
        line=line,
        subject="template",
        rule="template",
        message=f"{type(exc).__name__}: {exc.message or exc}",
    )


def _template_frame(exc: BaseException) -> tuple[str, int] | None:
    """Jinja compiles templates under their own file names: the innermost such frame."""
    tb, found = exc.__traceback__, None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename.endswith(".html"):
            found = (tb.tb_frame.f_code.co_filename, tb.tb_lineno)
        tb = tb.tb_next
    return found
