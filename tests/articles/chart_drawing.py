"""What the tests of the articles' charts share: the drawing as the build makes it, made in a
process of its own, and the contrast of a chart's colours with the theme's backgrounds."""

from __future__ import annotations

import multiprocessing
import re
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor

from article_batch import ROOT

from site_builder.render.charts import drawing


def renderer() -> ProcessPoolExecutor:
    """A process that draws: once vl-convert has drawn in a process, a process forked from it
    hangs in vl-convert, and the tests that build a site in the test process fork workers."""
    return ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))


def drawn(pool: ProcessPoolExecutor, spec: Mapping[str, object], rows: Sequence[Mapping[str, object]]) -> str:
    """The chart's HTML as the build draws it from ``rows``."""
    return pool.submit(drawing, spec, rows, "alt", "caption").result(60)


def layer(html: str, panel: str, number: int) -> str:
    """The marks of layer ``number`` (the spec's order) of the drawing's ``panel`` (``concat_0_``
    for a concatenation's first, ``""`` for a chart of one panel)."""
    group = re.search(rf'class="[^"]*{panel}layer_{number}_marks"(.*?)</g>', html, re.S)
    assert group, f"no layer {number} in {panel or 'the chart'}"
    return group.group(1)


def theme_backgrounds() -> list[str]:
    """The theme's page background, light then dark."""
    css = (ROOT / "site_builder/theme/style.css").read_text("utf-8")
    backgrounds = re.findall(r"--bg: (#[0-9a-f]{6})", css)
    assert len(backgrounds) == 2, backgrounds
    return backgrounds


def contrast(a: str, b: str) -> float:
    """WCAG's contrast ratio of two ``#rrggbb`` colours."""
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def _luminance(colour: str) -> float:
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
