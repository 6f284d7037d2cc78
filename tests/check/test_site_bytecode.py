"""Importing the site's articles writes no bytecode into the author's folder, whatever the
environment says.

Python writes ``__pycache__/`` beside every module it imports, unless
``PYTHONDONTWRITEBYTECODE`` is set (as it is on many CI machines, which hid this): then
``validate`` — which writes nothing — left ``articles/__pycache__/`` behind, every command
added compiled files to the author's tree, and an edit made within the second of the last
import, of the same size, could be answered by the stale bytecode of the text before it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from site_builder.check.load import forget, load_batch
from tests.support.sites import SITES

HELPER = 'WORD = "harbour"\n'


def site_with_a_helper(tmp_path: Path) -> Path:
    """The valid site, one batch of it importing a helper module beside it."""
    root = tmp_path / "site"
    shutil.copytree(SITES / "valid_site", root)
    (root / "articles" / "_words.py").write_text(HELPER, "utf-8")
    batch = root / "articles" / "retry_en.py"
    batch.write_text(f"import _words  # noqa: F401\n{batch.read_text('utf-8')}", "utf-8")
    return root


def inputs(root: Path) -> dict[str, bytes]:
    """Every file of the site outside its output and its cache."""
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.relative_to(root).parts[0] not in ("build", ".site-builder-cache")
    }


@pytest.mark.parametrize("command", [["validate"], ["build"], ["revisions"]])
def test_a_command_writes_no_bytecode_where_python_would(tmp_path: Path, command: list[str]) -> None:
    root = site_with_a_helper(tmp_path)
    before = inputs(root)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    done = subprocess.run(
        [sys.executable, "-m", "site_builder", *command, "--root", str(root)],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert sorted(root.rglob("__pycache__")) == []
    assert inputs(root) == before


def test_an_edit_in_the_same_second_and_of_the_same_size_is_read_afresh(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Python checks a module's bytecode against its source's size and whole-second time:
    had the first import written it, the second would be given the old text."""
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    root = site_with_a_helper(tmp_path)
    batch = root / "articles" / "retry_en.py"
    first, problem = load_batch(batch, root)
    assert first is not None and problem is None
    assert sys.dont_write_bytecode is False  # the process's own setting, as it was
    forget(first)
    stat = batch.stat()
    text = batch.read_text("utf-8")
    assert "Cap retries" in text
    batch.write_text(text.replace("Cap retries", "Cut retries"), "utf-8")
    os.utime(batch, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert batch.stat().st_size == stat.st_size
    second, _ = load_batch(batch, root)
    assert second is not None
    assert [r.excerpt[:11] for r in second.revisions] == ["Cut retries"]
