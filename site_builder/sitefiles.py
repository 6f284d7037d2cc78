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
from .feeds import robots, sitemap, write_atom_feed
from .highlight import highlight_css
from .render import Item, environment, items_from, render_lists
from .settings import Settings
from .sitecheck import Scan, scan_page
from .summary import Summary, write_revisions
from .template_errors import template_problem


def site_items(summaries: Sequence[Summary]) -> list[Item]:
    """Every revision as the lists, the feed and the sitemap show it, in site order."""
    return items_from(
        [d for part in summaries for d in part.listed], [n for part in summaries for n in part.verified]
    )


def render_rest(
    root: Path, settings: Settings, items: Sequence[Item], cache: Cache | None, common: str
) -> tuple[dict[str, bytes], dict[str, Scan], list[Problem]]:
    """Output path → bytes of every file that is not an article page, an asset or one of the
    :func:`write_joined` files, and the scans of its HTML pages; ``common`` is the hash of
    all the pages' other inputs."""
    # The list pages show no article text: most edits leave them as they were.
    digest = hashlib.sha256(common.encode())
    for item in items:
        digest.update(repr(dataclasses.replace(item, content_html="")).encode())
    key = digest.hexdigest()
    kept = cache.get("lists", key) if cache is not None else None
    if isinstance(kept, tuple) and len(kept) == 2:
        files, scans = dict(kept[0]), dict(kept[1])
    else:
        try:
            texts = render_lists(environment(root), settings, items)
        except jinja2.TemplateError as exc:
            return {}, {}, [template_problem(root, exc)]
        files = {path: text.encode("utf-8") for path, text in texts.items()}
        scans = {path: scan_page(text) for path, text in texts.items()}
        if cache is not None:
            cache.put("lists", key, (files, scans))
            cache.keep_only("lists", {key})
    texts = {
        "sitemap.xml": sitemap(settings, items),
        "robots.txt": robots(settings),
        "theme/style.css": theme_css(),
        "theme/favicon.svg": _theme_file("favicon.svg"),
    }
    return files | {path: text.encode("utf-8") for path, text in texts.items()}, scans, []


def write_joined(
    settings: Settings, summaries: Sequence[Summary], items: Sequence[Item], staging: Path
) -> dict[str, str]:
    """Write ``revisions.json`` and the feed, joined from each batch's texts, straight into
    ``staging``; their content hashes by output path."""
    where = [(part.texts, n) for part in summaries for n in range(len(part.listed))]
    with _Hashed(staging / "revisions.json") as out:
        write_revisions(summaries, out.write)
    with _Hashed(staging / "feed.xml") as feed:
        write_atom_feed(settings, items, lambda n: where[n][0].entry(where[n][1]), feed.write)
    return {"revisions.json": out.sha, "feed.xml": feed.sha}


class _Hashed:
    """A new file (never one shared with the live site) that hashes what is written to it."""

    def __init__(self, path: Path) -> None:
        path.unlink(missing_ok=True)
        self._file = open(path, "wb")  # noqa: SIM115 - closed in __exit__
        self._digest = hashlib.sha256()
        self.sha = ""

    def __enter__(self) -> _Hashed:
        return self

    def __exit__(self, *_exc: object) -> None:
        self._file.close()
        self.sha = self._digest.hexdigest()

    def write(self, data: bytes) -> None:
        self._digest.update(data)
        self._file.write(data)


def theme_css() -> str:
    """The package stylesheet followed by the highlighting colours."""
    return _theme_file("style.css") + "\n/* Syntax highlighting (Pygments) */\n" + highlight_css()


def _theme_file(name: str) -> str:
    return resources.files(__package__).joinpath("theme", name).read_text("utf-8")
