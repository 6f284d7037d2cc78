"""Every generated file of the site, rendered in memory (assets are copied apart).

A template error (in a site's own ``templates/`` override, say) becomes a
problem at the template's file and line, not a traceback.
"""

from __future__ import annotations

from importlib import resources

import jinja2

from .errors import Problem
from .feeds import atom_feed, robots, sitemap
from .highlight import highlight_css
from .loader import Site
from .model import Block
from .render import environment, items_from, render_pages
from .revisions_json import dumps, revisions_data


def render_site(site: Site) -> tuple[dict[str, bytes], list[Problem]]:
    """Output path → bytes for pages, feeds, ``revisions.json`` and the theme."""
    data = revisions_data(site)
    verified = [
        sum(isinstance(b, Block) and b.verified is not None for b in rev.body) for _, rev in site.revisions()
    ]
    items = items_from(data, verified)
    settings = site.settings
    try:
        texts = render_pages(environment(site.root), settings, items)
    except jinja2.TemplateError as exc:
        return {}, [_template_problem(site, exc)]
    texts |= {
        "feed.xml": atom_feed(settings, items),
        "sitemap.xml": sitemap(settings, items),
        "robots.txt": robots(settings),
        "revisions.json": dumps(data, 2),
        "theme/style.css": theme_css(),
        "theme/favicon.svg": _theme_file("favicon.svg"),
    }
    return {path: text.encode("utf-8") for path, text in texts.items()}, []


def theme_css() -> str:
    """The package stylesheet followed by the highlighting colours."""
    return _theme_file("style.css") + "\n/* Syntax highlighting (Pygments) */\n" + highlight_css()


def _theme_file(name: str) -> str:
    return resources.files(__package__).joinpath("theme", name).read_text("utf-8")


def _template_problem(site: Site, exc: jinja2.TemplateError) -> Problem:
    frame = _template_frame(exc)
    name = getattr(exc, "filename", None) or (frame[0] if frame else "templates")
    line = getattr(exc, "lineno", None) or (frame[1] if frame else 1)
    return Problem(
        path=site.relative(name),
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
