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

    from .authoring import fixture, revision
    from .helpers import (
        code_block,
        data_table,
        figure,
        heading,
        markdown,
        ordered_list,
        paragraph,
        unordered_list,
        verified_output,
    )
    from .model import Source

__version__ = "0.1.0"

_HOMES = {
    "Markup": "markupsafe",
    "Source": ".model",
    "code_block": ".helpers",
    "data_table": ".helpers",
    "figure": ".helpers",
    "fixture": ".authoring",
    "heading": ".helpers",
    "markdown": ".helpers",
    "ordered_list": ".helpers",
    "paragraph": ".helpers",
    "revision": ".authoring",
    "unordered_list": ".helpers",
    "verified_output": ".helpers",
}

__all__ = [
    "Markup",
    "Source",
    "code_block",
    "data_table",
    "figure",
    "fixture",
    "heading",
    "markdown",
    "ordered_list",
    "paragraph",
    "revision",
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
