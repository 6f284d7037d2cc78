"""The benchmark's corpus at a small size, for the tests of the build cache (tests/pipeline):
written once per module, and built once per module (:class:`FirstBuild`)."""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib.util
import io
import os
import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

from site_builder import cli
from site_builder.pipeline.cache.store import CACHE_DIR
from site_builder.pipeline.staging.written import Stat, stats
from tests.support.sites import RunCli, searchable, tree

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


NOT_INPUT = ("build", CACHE_DIR, "__pycache__")
"""Folders of a site that are no input of its build: the output, the cache, compiled batches."""


def inputs_digest(root: Path) -> str:
    """A digest of every input of the site at ``root`` (each file's path and bytes, the
    folders of :data:`NOT_INPUT` and ``.build.*`` left out) and of ``SOURCE_DATE_EPOCH``."""
    digest = hashlib.sha256(os.environ.get("SOURCE_DATE_EPOCH", "").encode())
    for path in sorted(root.rglob("*")):
        parts = path.relative_to(root).parts
        if any(part in NOT_INPUT for part in parts) or parts[0].startswith(".build") or not path.is_file():
            continue
        digest.update(b"\0".join(("/".join(parts).encode(), path.read_bytes(), b"")))
    return digest.hexdigest()


def uncached_build(root: Path, run_cli: RunCli, out: Path) -> dict[str, bytes]:
    """``build --no-cache`` into ``out``, made whatever was made before (unlike :class:`CleanBuilds`)."""
    result = run_cli(["build", "--root", str(root), "--out", str(out), "--no-cache"])
    assert result.code == 0, result.err
    return tree(out)


CleanBuild = Callable[[Path, RunCli, Path], dict[str, bytes]]


@dataclass
class CleanBuilds:
    """What ``build --no-cache`` gives for each input the tests of a module arrive at, built
    once per distinct input: the tests of the cache make the same edits (one paragraph of
    ``batch_00004``, a damaged cache over unchanged inputs) and compare each rebuild with a
    clean build of the same inputs. A build is a function of its inputs (byte-identical
    output is tested on its own, whatever ``--jobs`` and the clock say), so the clean build
    of equal inputs is the same bytes however often it is made."""

    made: dict[str, dict[str, bytes]] = field(default_factory=dict)

    def __call__(self, root: Path, run_cli: RunCli, folder: Path) -> dict[str, bytes]:
        """The clean build of ``root``'s inputs (made into ``folder / "clean"`` if new), its
        search index as what a reader finds (:func:`~tests.support.sites.searchable`)."""
        key = inputs_digest(root)
        if key not in self.made:
            self.made[key] = searchable(uncached_build(root, run_cli, folder / "clean"))
        return self.made[key]
