"""The generated files of the site besides article pages, rendered in memory.

Article pages are rendered batch by batch (see :mod:`site_builder.pipeline.worker.batch`);
what is left needs every batch: the index and category pages, the sitemap, and
the fixed files (``robots.txt``, the theme). A template error (in a site's own
``templates/`` override, say) becomes a problem at the template's file and line,
not a traceback.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import jinja2

from site_builder.errors import Problem
from site_builder.model.page_scan import Scan, scan_page
from site_builder.render.feeds import robots, sitemap
from site_builder.render.highlight import highlight_css
from site_builder.render.items import Item
from site_builder.render.pages import environment, render_lists
from site_builder.render.template_errors import template_problem
from site_builder.settings.project import Settings


@dataclass(frozen=True, slots=True)
class Lists:
    """The pages that list articles and the sitemap: they show no article text, so most
    edits leave them as they were."""

    files: dict[str, bytes]
    """Output path → bytes."""
    scans: dict[str, Scan]
    """The link-check scans of its HTML pages."""


def render_list_files(
    root: Path, settings: Settings, items: Sequence[Item], *, today: str = ""
) -> Lists | Problem:
    """The index, category and 404 pages and the sitemap (``today``: the build's date); or the
    template's problem."""
    try:
        texts = render_lists(environment(root), settings, items)
    except jinja2.TemplateError as exc:
        return template_problem(root, exc)
    files = {path: text.encode("utf-8") for path, text in texts.items()}
    scans = {path: scan_page(text) for path, text in texts.items()}
    files["sitemap.xml"] = sitemap(settings, items, today=today).encode("utf-8")
    return Lists(files, scans)


def fixed_files(settings: Settings) -> dict[str, bytes]:
    """``robots.txt`` and the theme: output path → bytes."""
    texts = {
        "robots.txt": robots(settings),
        "theme/style.css": theme_css(),
        "theme/favicon.svg": _theme_file("favicon.svg"),
    }
    return {path: text.encode("utf-8") for path, text in texts.items()}


def theme_css() -> str:
    """The package stylesheet followed by the highlighting colours."""
    return _theme_file("style.css") + "\n/* Syntax highlighting (Pygments) */\n" + highlight_css()


def _theme_file(name: str) -> str:
    return resources.files("site_builder").joinpath("theme", name).read_text("utf-8")
