"""Running the Pagefind binary over some pages of the staging folder."""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
from collections.abc import Iterable
from pathlib import Path

from site_builder.runtime.processes import bound_to_parent

BUNDLE = "pagefind"
"""The folder of the site that holds the search index."""
UI_FILES = frozenset({"pagefind/pagefind-ui.js", "pagefind/pagefind-ui.css", "pagefind/site-search.js"})
"""What the pages link to from the index: checked links may count on them."""
SCRIPT = "pagefind/site-search.js"
"""The script that starts the search box over every bundle."""


def start_pagefind(
    site: Path, pages: Iterable[str], run: Path, out: Path, language: str, *, background: bool = False
) -> subprocess.Popen[str]:
    """Index ``pages`` (paths relative to ``site``) into ``out``, from ``run``, the working
    folder (its settings file, and a tree of the pages alone); ``background``: at a lower CPU
    priority.

    Pagefind finds the pages itself, in the order the file system lists each folder, and
    numbers them in that order: the staging folder's order depends on how it was filled (a
    rebuild stages unchanged pages before changed ones; tmpfs lists in the order entries were
    made). So it reads a tree of hard links made afresh in path order: on a file system that
    lists by order of making (tmpfs, Btrfs) the order is the paths', and on one that lists by
    a hash of the names (ext4) it is that hash's, the same for the same pages."""
    shutil.rmtree(run, ignore_errors=True)
    tree = run / "site"
    for page in sorted(pages):
        _link(site / page, tree / page)
    settings = {
        "site": str(tree),
        "output_path": str(out),
        # One forced language, so the search box on any page finds ru, ko and en text alike;
        # Pagefind would otherwise keep an index per language and search only the page's own.
        "force_language": language,
    }
    tree.mkdir(parents=True, exist_ok=True)
    (run / "pagefind.json").write_text(json.dumps(settings, ensure_ascii=False), "utf-8")
    # A killed build must not leave an indexer running.
    command, before_exec = bound_to_parent([_executable(), "--quiet"], background=background)
    return subprocess.Popen(
        command,
        cwd=run,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=before_exec,
    )


def _link(source: Path, target: Path) -> None:
    """``target`` the same file as ``source`` (a copy where a hard link cannot be made); a page
    not staged is left out, as a glob naming it would find nothing: the build's check names it."""
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.link(source, target)
    except FileNotFoundError:
        return
    except OSError:
        shutil.copyfile(source, target)


def _executable() -> str:
    """The Pagefind binary the ``pagefind[bin]`` wheel ships: run directly, not through Python."""
    try:
        import pagefind_bin  # type: ignore[import-untyped]

        return str(pagefind_bin.get_executable())
    except (ImportError, FileNotFoundError):
        return shutil.which("pagefind") or "pagefind"


@functools.cache
def pagefind_version() -> str:
    """The version of the Pagefind binary that runs, as it says it (``pagefind 1.5.2``): part of
    every shard's key. Not the ``pagefind`` package's: the binary is ``pagefind-bin``, which may
    be upgraded alone, and bundles made by another binary must not be reused beside its own."""
    try:
        done = subprocess.run([_executable(), "--version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return "unknown"  # the build then fails when it starts Pagefind, and says so
    return done.stdout.strip() or "unknown"
