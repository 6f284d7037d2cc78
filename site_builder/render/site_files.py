"""The generated files of the site besides article pages, rendered in memory.

Article pages are rendered by the workers, batch by batch (see
:mod:`site_builder.summary`); what is left needs every batch: the index and
category pages, the feed, the sitemap, ``revisions.json``, and the theme.
A template error (in a site's own ``templates/`` override, say) becomes a
problem at the template's file and line, not a traceback.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Sequence
from importlib import resources
from pathlib import Path

import jinja2

from site_builder.build.batch import Summary, Texts, write_revisions
from site_builder.build.staging import Stage
from site_builder.build.store import Cache
from site_builder.check.linkcheck import Scan, scan_page
from site_builder.errors import Problem
from site_builder.render.feeds import feed_head, feed_order, robots, sitemap, write_atom_feed
from site_builder.render.highlight import highlight_css
from site_builder.render.pages import Item, environment, render_lists
from site_builder.render.template_errors import template_problem
from site_builder.settings import Settings


def site_items(summaries: Sequence[Summary]) -> list[Item]:
    """Every revision as the lists, the feed and the sitemap show it, in site order."""
    return [item for part in summaries for item in part.items]


def render_rest(
    root: Path, settings: Settings, summaries: Sequence[Summary], cache: Cache | None, common: str
) -> tuple[dict[str, bytes], dict[str, Scan], list[Problem]]:
    """Output path → bytes of every file that is not an article page, an asset or one of the
    :func:`write_joined` files, and the scans of its HTML pages; ``common`` is the hash of
    all the pages' other inputs."""
    # The list pages and the sitemap show no article text: most edits leave them as they were.
    digest = hashlib.sha256(common.encode())
    for part in summaries:
        digest.update(part.list_key.encode())
    key = digest.hexdigest()
    kept = cache.get("lists", key) if cache is not None else None
    if isinstance(kept, tuple) and len(kept) == 2:
        files, scans = dict(kept[0]), dict(kept[1])
    else:
        items = site_items(summaries)
        try:
            texts = render_lists(environment(root), settings, items)
        except jinja2.TemplateError as exc:
            return {}, {}, [template_problem(root, exc)]
        files = {path: text.encode("utf-8") for path, text in texts.items()}
        scans = {path: scan_page(text) for path, text in texts.items()}
        files["sitemap.xml"] = sitemap(settings, items).encode("utf-8")
        if cache is not None:
            cache.put("lists", key, (files, scans))
            cache.keep_only("lists", {key})
    texts = {
        "robots.txt": robots(settings),
        "theme/style.css": theme_css(),
        "theme/favicon.svg": _theme_file("favicon.svg"),
    }
    return files | {path: text.encode("utf-8") for path, text in texts.items()}, scans, []


def write_joined(
    settings: Settings, summaries: Sequence[Summary], items: Sequence[Item], stage: Stage
) -> tuple[dict[str, str], list[Callable[[], None]]]:
    """What ``revisions.json`` and the feed, joined from each batch's texts, are known by
    (by output path), and the steps that write those the staging folder lacks.

    Each is known by a hash of its parts' hashes rather than of its bytes: the bytes
    (hundreds of megabytes on a large site) are copied from the batches' files by the
    kernel, never read here, and not copied at all when the staging folder or the live
    site already holds them. The steps may run in another thread (the kernel copies
    without holding the interpreter) while the build goes on.
    """
    steps: list[Callable[[], None]] = []
    digest = hashlib.sha256(b"revisions.json")
    for part in summaries:
        digest.update(part.texts.digests[0].encode())
    known = {"revisions.json": digest.hexdigest()}
    if not stage.has("revisions.json", known["revisions.json"]):

        def revisions() -> None:
            with _Joined(stage.folder / "revisions.json") as out:
                write_revisions(summaries, out.write, out.copy)

        steps.append(revisions)
    where = [(part.texts, n) for part in summaries for n in range(len(part.items))]
    digest = hashlib.sha256(b"feed.xml\0" + feed_head(settings, items))
    for n in feed_order(items):
        texts, number = where[n]
        digest.update(texts.digests[number + 1].encode())
    known["feed.xml"] = digest.hexdigest()
    if not stage.has("feed.xml", known["feed.xml"]):

        def feed() -> None:
            with _Joined(stage.folder / "feed.xml") as out:

                def entry(n: int) -> None:
                    texts, number = where[n]
                    out.copy(texts, sum(texts.sizes[: number + 1]), texts.sizes[number + 1])

                write_atom_feed(settings, items, entry, out.write)

        steps.append(feed)
    return known, steps


class _Joined:
    """A new file (never one shared with the live site) made of small writes and of
    ranges of the batches' texts files, copied by the kernel."""

    OPEN_FILES = 64

    def __init__(self, path: Path) -> None:
        path.unlink(missing_ok=True)
        self._fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        self._sources: dict[Path, int] = {}

    def __enter__(self) -> _Joined:
        return self

    def __exit__(self, *_exc: object) -> None:
        for fd in self._sources.values():
            os.close(fd)
        os.close(self._fd)

    def write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(self._fd, view) :]

    def copy(self, texts: Texts, offset: int, size: int) -> None:
        source = self._sources.pop(texts.path, None)  # re-inserted: the most recent last
        if source is None:
            if len(self._sources) >= self.OPEN_FILES:
                os.close(self._sources.pop(next(iter(self._sources))))
            source = os.open(texts.path, os.O_RDONLY)
        self._sources[texts.path] = source
        while size > 0:
            try:
                done = os.copy_file_range(source, self._fd, size, offset)
            except OSError:  # not between these file systems: through memory
                done = os.write(self._fd, os.pread(source, min(size, 1 << 20), offset))
            if done <= 0:
                raise OSError(f"{texts.path} is shorter than its record")
            offset, size = offset + done, size - done


def theme_css() -> str:
    """The package stylesheet followed by the highlighting colours."""
    return _theme_file("style.css") + "\n/* Syntax highlighting (Pygments) */\n" + highlight_css()


def _theme_file(name: str) -> str:
    return resources.files("site_builder").joinpath("theme", name).read_text("utf-8")
