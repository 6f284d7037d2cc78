"""The search index: Pagefind, run on the staged site before it is swapped in."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from .errors import Problem
from .lifetime import die_with_parent


def index_search(staging: Path, language: str) -> list[Problem]:
    """Build the Pagefind index into ``staging/pagefind``: one index for every language."""
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
    done = subprocess.run(command, capture_output=True, text=True, check=False, preexec_fn=die_with_parent)
    if done.returncode == 0:
        return []
    detail = ((done.stderr or done.stdout).strip().splitlines() or ["no output"])[-1]
    message = f"pagefind failed with exit code {done.returncode}: {detail}"
    return [Problem(path="pyproject.toml", line=1, subject="search", rule="search-index", message=message)]
