"""The benchmark's corpus at a small size, for the tests of the build cache (tests/pipeline):
written once per module, and built once per module (:class:`FirstBuild`)."""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import io
import os
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from site_builder import cli
from site_builder.pipeline.cache.store import CACHE_DIR
from site_builder.pipeline.staging.written import Stat, stats

BENCH = Path(__file__).parents[2] / "bench" / "corpus.py"
N = 51
"""Revisions: 17 batches, two search-index shards, one revision more than the feed's 50 entries."""


@functools.cache
def corpus() -> ModuleType:
    """bench/corpus.py, imported once (its dataclasses need it in ``sys.modules``)."""
    spec = importlib.util.spec_from_file_location("bench_corpus", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_corpus"] = module
    spec.loader.exec_module(module)
    return module


def write_corpus(root: Path) -> Path:
    """The corpus of N revisions, written into ``root`` (made here)."""
    root.mkdir()
    corpus().write_site_builder(root, N)
    return root


def copied(pristine: Path, tmp_path: Path) -> Path:
    """A copy of the site at ``pristine`` for one test to change."""
    root = tmp_path / "site"
    shutil.copytree(pristine, root)
    return root


@dataclass(frozen=True)
class FirstBuild:
    """The corpus as its first build left it, built once for a module: ``kept`` holds that
    build's site, and each test gets a copy of it at ``at``, where the build ran.

    The copy is what a first build leaves, as far as the next build can tell: the cache knows
    the folder it was built in, so every copy stands there (in place of the last test's); the
    output and the cache are hard links to the kept files, with the inodes, sizes and times the
    build's records list; the inputs, which tests edit, are copied. A test that writes into a
    linked file in place would change the kept site: its end checks that the kept files are
    as they were (``files``)."""

    kept: Path
    at: Path
    files: dict[str, Stat]

    def copy(self) -> Path:
        if self.at.exists():
            shutil.rmtree(self.at)
        self.at.mkdir()
        for entry in self.kept.iterdir():
            if entry.name in ("build", CACHE_DIR):
                shutil.copytree(entry, self.at / entry.name, copy_function=os.link)
            elif entry.is_dir():
                shutil.copytree(entry, self.at / entry.name)
            else:
                shutil.copy2(entry, self.at / entry.name)
        return self.at

    def changed_in_place(self) -> list[str]:
        """The kept files a test changed in place (none, or the copies are not first builds)."""
        now = stats(self.kept)
        return sorted(
            name for name in self.files.keys() | now.keys() if now.get(name) != self.files.get(name)
        )


def first_build(pristine: Path, folder: Path) -> FirstBuild:
    """Build a copy of ``pristine`` in ``folder``, and keep it there for the tests' copies."""
    at = folder / "site"
    shutil.copytree(pristine, at)
    with contextlib.redirect_stderr(io.StringIO()) as err:
        code = cli.main(["build", "--root", str(at)])
    assert code == 0, err.getvalue()
    kept = at.rename(folder / "kept")
    return FirstBuild(kept=kept, at=at, files=stats(kept))
