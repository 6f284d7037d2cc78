"""The search index: Pagefind, run on the staged site before it is swapped in.

The indexer is a separate binary; it runs while the pipeline checks the
rendered pages, and the pipeline waits for it before swapping the site in.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from .errors import Problem
from .lifetime import die_with_parent

UI_FILES = frozenset({"pagefind/pagefind-ui.js", "pagefind/pagefind-ui.css"})
"""What the pages link to from the index: checked links may count on them."""


def start_index(staging: Path, language: str) -> subprocess.Popen[str]:
    """Start building the Pagefind index into ``staging/pagefind``: one index for every language."""
    # One forced language, so the search box on any page finds ru, ko and en text alike;
    # Pagefind would otherwise keep an index per language and search only the page's own.
    command = [
        sys.executable,
        "-m",
        "pagefind",
        "--site",
        str(staging),
        "--force-language",
        language,
        "--quiet",
    ]
    # die_with_parent: a killed build must not leave the indexer writing into its staging folder.
    return subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=die_with_parent
    )


def finish_index(indexer: subprocess.Popen[str], staging: Path) -> list[Problem]:
    """Wait for the indexer; its failure, or a UI file it did not write, is a problem."""
    out, err = indexer.communicate()
    if indexer.returncode != 0:
        detail = ((err or out).strip().splitlines() or ["no output"])[-1]
        return [_problem(f"pagefind failed with exit code {indexer.returncode}: {detail}")]
    missing = sorted(name for name in UI_FILES if not (staging / name).is_file())
    return [_problem(f"pagefind did not write {', '.join(missing)}")] if missing else []


def _problem(message: str) -> Problem:
    return Problem(path="pyproject.toml", line=1, subject="search", rule="search-index", message=message)
