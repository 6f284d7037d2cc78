"""What the article tests of this folder share as fixtures: the process that draws charts."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor

import pytest
from chart_drawing import renderer


@pytest.fixture(scope="session")
def pool() -> Iterator[ProcessPoolExecutor]:
    """One drawing process for the session's chart tests (see ``chart_drawing.renderer``)."""
    with renderer() as drawing_process:
        yield drawing_process
