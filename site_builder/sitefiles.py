"""The generated files of the site besides article pages, rendered in memory.

Article pages are rendered by the workers, batch by batch (see
:mod:`site_builder.summary`); what is left needs every batch: the index and
category pages, the feed, the sitemap, ``revisions.json``, and the theme.
A template error (in a site's own ``templates/`` override, say) becomes a
problem at the template's file and line, not a traceback.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Sequence
from importlib import resources
from pathlib import Path

import jinja2

from .cache import Cache
from .errors import Problem
from .feeds import atom_feed, robots, sitemap
from .highlight import highlight_css
from .render import environment, items_from, render_lists
from .settings import Settings
from .sitecheck import Scan, scan_page
from .summary import Summary, joined
from .template_errors import template_problem


def render_rest(
    root: Path, settings: Settings, summaries: Sequence[Summary], cache: Cache | None, common: str
) -> tuple[dict[str, str], dict[str, Scan], list[Problem]]:
    """Output path → text of every file that is not an article page or an asset, and the
    scans of its HTML pages; ``common`` is the hash of all the pages' other inputs."""
    items = items_from(
        [d for part in summaries for d in part.listed], [n for part in summaries for n in part.verified]
    )
    # The list pages show no article text: most edits leave them as they were.
    digest = hashlib.sha256(common.encode())
    for item in items:
        digest.update(repr(dataclasses.replace(item, content_html="")).encode())
    key = digest.hexdigest()
    kept = cache.get("lists", key) if cache is not None else None
    if isinstance(kept, tuple) and len(kept) == 2:
        texts, scans = dict(kept[0]), dict(kept[1])
    else:
        try:
            texts = render_lists(environment(root), settings, items)
        except jinja2.TemplateError as exc:
            return {}, {}, [template_problem(root, exc)]
        scans = {path: scan_page(text) for path, text in texts.items()}
        if cache is not None:
            cache.put("lists", key, (texts, scans))
            cache.keep_only("lists", {key})
    entries = [entry for part in summaries for entry in part.entries]
    texts |= {
        "feed.xml": atom_feed(settings, items, entries if len(entries) == len(items) else None),
        "sitemap.xml": sitemap(settings, items),
        "robots.txt": robots(settings),
        "revisions.json": joined([part.fragment for part in summaries]),
        "theme/style.css": theme_css(),
        "theme/favicon.svg": _theme_file("favicon.svg"),
    }
    return texts, scans, []


def theme_css() -> str:
    """The package stylesheet followed by the highlighting colours."""
    return _theme_file("style.css") + "\n/* Syntax highlighting (Pygments) */\n" + highlight_css()


def _theme_file(name: str) -> str:
    return resources.files(__package__).joinpath("theme", name).read_text("utf-8")
