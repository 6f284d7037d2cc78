"""What a build tells the command running it as it goes, and what it asks: one object,
:class:`Events`, instead of a callback per thing.

``build`` (the CLI) listens to the steps for its progress line; ``serve`` also shows the
changed pages as soon as they are checked, then asks whether a newer edit waits, so that a
build whose search index no one will see is given up.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from site_builder.pipeline.staging.preview import Show
from site_builder.search.indexing import never


def _nothing(_step: str) -> None:
    """No progress line."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Events:
    """The listener of one build (every field has a silent default)."""

    step: Callable[[str], None] = _nothing
    """Told the name of each step as it starts (``loading, validating and running fixtures``,
    ``rendering``, ``indexing for search, checking links``, ``writing``)."""
    changed: Show | None = None
    """Told the files a build changed once its pages are checked, before its search index is
    done (``serve`` shows them at once); None: nothing is shown early."""
    newer: Callable[[], bool] = never
    """Asked, once the changed files are shown, whether a newer edit waits: then the search
    index is not finished and the build ends without writing."""


SILENT = Events()
"""A build nobody listens to."""
