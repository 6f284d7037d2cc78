"""Valid sites under ``tests/sites/valid_*`` pass validation with no problem at all."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.support.sites import SITES, RunCli


def test_valid_basic_validates(tmp_path: Path, run_cli: RunCli) -> None:
    site = tmp_path / "valid_basic"
    shutil.copytree(SITES / "valid_basic", site)

    result = run_cli(["validate", "--root", str(site)])

    assert (result.code, result.out) == (0, "")
    assert result.err.splitlines() == ["ok: 2 revisions valid, 1 fixture passed"]
    assert not (site / "build").exists()
