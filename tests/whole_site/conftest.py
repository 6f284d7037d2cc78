"""What only the whole-site tests need: whether this run rewrites the golden copy, and the
docs built once for the whole run."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.docs_build import DocsBuild, docs_build_once


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    """True when the run was asked to regenerate the golden copies (``--update-golden``)."""
    return bool(request.config.getoption("--update-golden"))


@pytest.fixture(scope="session")
def docs_build(run_folder: Path) -> DocsBuild:
    """The docs built from scratch, as ``site-builder build --root docs`` writes them into
    ``docs/build``, and what that build ran: once for the whole run, whichever of pytest-xdist's
    workers asks first (:func:`~tests.support.docs_build.docs_build_once`)."""
    return docs_build_once(run_folder)
