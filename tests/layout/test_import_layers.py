"""Every module of the package is placed in the import contract: a module or folder added at
the package's top level and named in no layer of ``pyproject.toml`` fails here, rather than
escaping import-linter (which checks only the layers it is given)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import site_builder

PACKAGE = Path(site_builder.__file__).parent
PYPROJECT = PACKAGE.parent / "pyproject.toml"
TOP_LEVEL_LIMIT = 5
"""Modules beside the folders at the package's top level, ``__init__`` and ``__main__`` included."""


def layered() -> set[str]:
    contracts = tomllib.loads(PYPROJECT.read_text("utf-8"))["tool"]["importlinter"]["contracts"]
    layers = next(c for c in contracts if c["type"] == "layers" and c["containers"] == ["site_builder"])
    return {name.strip() for layer in layers["layers"] for name in re.split(r"[|:]", layer)}


def top_level() -> set[str]:
    modules = {p.stem for p in PACKAGE.glob("*.py") if p.stem != "__init__"}
    folders = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()}
    return modules | folders


def test_every_top_level_module_and_folder_is_in_a_layer() -> None:
    assert sorted(top_level() - layered()) == []
    assert sorted(layered() - top_level()) == [], "a layer names what the package does not have"


def test_the_top_level_holds_a_handful_of_modules() -> None:
    modules = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(modules) <= TOP_LEVEL_LIMIT, modules


def test_no_folder_of_the_package_is_named_like_an_output_folder() -> None:
    """Tools and people read these names as generated output (setuptools' ``build/``, this
    tool's own ``build/``), and skip or ignore them."""
    outputs = {"build", "dist", "public", "site", "out", "output"}
    assert sorted(p.name for p in PACKAGE.rglob("*") if p.is_dir() and p.name in outputs) == []
