"""What only the whole-site tests need: whether this run rewrites the golden copy."""

from __future__ import annotations

import pytest


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    """True when the run was asked to regenerate the golden copies (``--update-golden``)."""
    return bool(request.config.getoption("--update-golden"))
