"""site_builder: a static site generator for technical writing that must be true.

Article batches import only the names below. They are loaded on first use, so
the command line starts without the Markdown and template machinery when a
command does not need it (a build with nothing to do).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from markupsafe import Markup

    from site_builder.authoring.declare import fixture, revision
    from site_builder.authoring.helpers import (
        chart,
        code_block,
        data_table,
        figure,
        heading,
        markdown,
        ordered_list,
        paragraph,
        transcript,
        unordered_list,
        verified_output,
    )
    from site_builder.authoring.model import Source

__version__ = "0.1.0"

_HOMES = {
    "Markup": "markupsafe",
    "Source": ".authoring.model",
    "chart": ".authoring.helpers",
    "code_block": ".authoring.helpers",
    "data_table": ".authoring.helpers",
    "figure": ".authoring.helpers",
    "fixture": ".authoring.declare",
    "heading": ".authoring.helpers",
    "markdown": ".authoring.helpers",
    "ordered_list": ".authoring.helpers",
    "paragraph": ".authoring.helpers",
    "revision": ".authoring.declare",
    "transcript": ".authoring.helpers",
    "unordered_list": ".authoring.helpers",
    "verified_output": ".authoring.helpers",
}

__all__ = [
    "Markup",
    "Source",
    "chart",
    "code_block",
    "data_table",
    "figure",
    "fixture",
    "heading",
    "markdown",
    "ordered_list",
    "paragraph",
    "revision",
    "transcript",
    "unordered_list",
    "verified_output",
]


def __getattr__(name: str) -> object:
    """The public names, imported from their modules when first asked for."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(home, __name__), name)
    globals()[name] = value
    return value
