"""site_builder: a static site generator for technical writing that must be true.

Article batches import only the names below.
"""

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
