"""What only the whole-site tests need: whether this run rewrites the golden copy, and the
docs built once for the whole run."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.support.docs_build import DocsBuild, shared_docs_build


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    """True when the run was asked to regenerate the golden copies (``--update-golden``)."""
    return bool(request.config.getoption("--update-golden"))


@pytest.fixture(scope="session")
def docs_build(tmp_path_factory: pytest.TempPathFactory) -> DocsBuild:
    """The docs built from scratch, as ``site-builder build --root docs`` writes them into
    ``docs/build``, and what that build ran: once for the whole run, whichever of pytest-xdist's
    workers asks first (:func:`~tests.support.docs_build.shared_docs_build`)."""
    return shared_docs_build(run_folder(tmp_path_factory))


def run_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The temporary folder of this whole run: every pytest-xdist worker's has it as parent."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
