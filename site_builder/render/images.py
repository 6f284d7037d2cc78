"""Width and height on every ``<img>`` a page shows, from the image files themselves.

``contentHtml`` keeps the contract's ``figure`` markup exactly (``<img src alt
loading>``): importers read it as it is. Only the site's own pages carry the sizes, so
that the browser keeps room for each image before it loads.
"""

from __future__ import annotations

import re
from pathlib import Path

from site_builder.model.images import Measured, image_path, image_size, img_tags

_SIZE_ATTRIBUTE = re.compile(r"\s(?:width|height)\s*=", re.IGNORECASE)
_QUOTED = re.compile(r"\"[^\"]*\"|'[^']*'")


def measure(assets: Path, cover: str | None, content_html: str) -> Measured:
    """The sizes of the cover and of every ``<img>`` of ``content_html`` under ``assets``."""
    found: dict[str, tuple[int, int]] = {}
    sources = [cover] if cover else []
    sources += [src for _, src in img_tags(content_html) if src]
    for src in sources:
        path = image_path(src, assets)
        size = image_size(path) if path is not None and src not in found else None
        if isinstance(size, tuple):
            found[src] = size
    return tuple((src, width, height) for src, (width, height) in found.items())


def with_sizes(page_html: str, measured: Measured) -> str:
    """``page_html`` with ``width`` and ``height`` on each ``<img>`` that has neither and whose
    ``src`` was measured."""
    sizes = {src: (width, height) for src, width, height in measured}
    parts: list[str] = []
    done = 0
    for tag, src in img_tags(page_html):
        text = tag.group()
        if src not in sizes or _has_size(text):
            continue
        width, height = sizes[src]
        end = len(text) - (2 if text.endswith("/>") else 1)
        end -= 1 if text[end - 1 : end].isspace() else 0
        size = f' width="{width}" height="{height}"'
        parts += [page_html[done : tag.start()], text[:end], size, text[end:]]
        done = tag.end()
    return "".join(parts) + page_html[done:] if parts else page_html


def _has_size(tag: str) -> bool:
    return _SIZE_ATTRIBUTE.search(_QUOTED.sub('""', tag)) is not None
