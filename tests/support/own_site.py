"""This repository's own site (``articles/``, ``assets/``, the root ``pyproject.toml``) built
from scratch, once for the whole run at each base URL a test asks for (:mod:`tests.support.once`):
some 9 s of CPU each, which three test modules used to spend on the same build at the root."""

from __future__ import annotations

import contextlib
import io
import shutil
from dataclasses import dataclass
from pathlib import Path

from site_builder import cli
from tests.support.once import Made, once_per_run
from tests.support.sites import REPOSITORY, set_base_url

HOST = "https://site-builder.example"
"""The host of the repository's ``base_url``."""


@dataclass(frozen=True)
class OwnSite:
    """The site built at one base URL. Read it; do not change it: other tests read it too."""

    base_url: str
    out: Path
    """The output folder."""
    said: str
    """What the build printed."""


def build_own_site(folder: Path, path: str) -> Made:
    """Build a copy of the repository's site in ``folder``, served from ``HOST + path``,
    without a cache (the repository's own ``build/`` and cache are never touched)."""
    root = folder / "site"
    for name in ("articles", "assets"):
        shutil.copytree(REPOSITORY / name, root / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(REPOSITORY / "pyproject.toml", root / "pyproject.toml")
    set_base_url(root, HOST + path)
    messages = io.StringIO()
    with contextlib.redirect_stderr(messages):
        code = cli.main(["build", "--root", str(root), "--no-cache"])
    assert code == 0, messages.getvalue()
    return {"out": str(root / "build"), "said": messages.getvalue()}


def own_site_once(run: Path, path: str) -> OwnSite:
    """The repository's site served from ``HOST + path``, built once for the run folder ``run``."""
    name = "own-site" + path.replace("/", "-").rstrip("-")
    made = once_per_run(run, name, lambda folder: build_own_site(folder, path))
    return OwnSite(HOST + path, Path(str(made["out"])), str(made["said"]))
