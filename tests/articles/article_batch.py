"""What the article tests share: this site's batch module as the site loader imports it,
a fixture's output, and the checks that did not pass."""

from __future__ import annotations

import functools
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from tests.support.reference import Site, load_site

ROOT = Path(__file__).resolve().parents[2]
"""The project's own site."""


@functools.cache
def _own_site() -> Site:
    """The project's site, loaded once per test process: importing its batches runs the
    articles' own simulations (seconds each time), and every test module here asks for it.
    Tests change a batch only through ``monkeypatch``, which puts it back after each test."""
    return load_site(ROOT)


def batch_of(*fixture_ids: str, only: Sequence[str] | None = None) -> ModuleType:
    """The one batch module that defines every fixture of ``fixture_ids``; the site loads
    without a problem (with ``only``: without a problem in those files)."""
    site = _own_site()
    problems = [str(p) for p in site.problems if only is None or p.path in only]
    assert not problems, problems
    fixtures = site.fixtures()
    assert all(fid in fixtures for fid in fixture_ids), sorted(fixtures)
    modules = {fixtures[fid].module for fid in fixture_ids}
    assert len(modules) == 1, modules
    return sys.modules[modules.pop()]


def run(batch: ModuleType, name: str) -> dict[str, Any]:
    """What the fixture ``name`` of ``batch`` returns, called in this process."""
    output = getattr(batch, name).function()
    assert isinstance(output, dict)
    return output


def failing_checks(output: dict[str, Any]) -> set[str]:
    """The names of the checks that are not ``True``."""
    checks = output["checks"]
    assert isinstance(checks, dict) and checks
    return {name for name, value in checks.items() if value is not True}
