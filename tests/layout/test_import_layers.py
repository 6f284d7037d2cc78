"""Every module of the package is placed in the import contract: a module or folder added to a
layered folder (the package's top level, or a folder with a contract of its own) and named in
no layer of ``pyproject.toml`` fails here, rather than escaping import-linter (which checks only
the layers it is given). And no module imports, however indirectly, a module that imports it:
deferred (in-function) and type-only imports count, as they tie the modules just the same."""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

import grimp
import pytest

import site_builder

PACKAGE = Path(site_builder.__file__).parent
PYPROJECT = PACKAGE.parent / "pyproject.toml"
TOP_LEVEL_LIMIT = 5
"""Modules beside the folders at the package's top level, ``__init__`` and ``__main__`` included."""


def layer_contracts() -> dict[str, set[str]]:
    """Each layered folder (as a dotted name) → the names its layers hold."""
    contracts = tomllib.loads(PYPROJECT.read_text("utf-8"))["tool"]["importlinter"]["contracts"]
    return {
        container: {name.strip() for layer in c["layers"] for name in re.split(r"[|:]", layer)}
        for c in contracts
        if c["type"] == "layers"
        for container in c["containers"]
    }


def children(folder: Path) -> set[str]:
    """The modules and folders directly in a package folder."""
    modules = {p.stem for p in folder.glob("*.py") if p.stem != "__init__"}
    folders = {p.name for p in folder.iterdir() if (p / "__init__.py").is_file()}
    return modules | folders


LAYERED = sorted(layer_contracts())


@pytest.mark.parametrize("container", LAYERED)
def test_every_module_and_folder_of_a_layered_folder_is_in_a_layer(container: str) -> None:
    folder = PACKAGE.parent.joinpath(*container.split("."))
    named = layer_contracts()[container]
    assert sorted(children(folder) - named) == []
    assert sorted(named - children(folder)) == [], "a layer names what the package does not have"


def test_the_larger_folders_have_layers_of_their_own() -> None:
    """A folder of more than eight modules orders them in a contract of its own: one layer per
    folder says nothing of the modules inside it."""
    large = sorted(
        ".".join(folder.relative_to(PACKAGE.parent).parts)
        for folder in [PACKAGE, *PACKAGE.rglob("*")]
        if (folder / "__init__.py").is_file() and len(children(folder)) > 8
    )
    assert [name for name in large if name not in LAYERED] == []


def cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """The groups of modules that import each other, however indirectly (Tarjan's strongly
    connected components, iteratively: the package is deeper than no recursion limit)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []
    for start in sorted(graph.modules):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.find_modules_directly_imported_by(start))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        while work:
            module, targets = work[-1]
            target = next(targets, None)
            if target is not None:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    work.append((target, iter(sorted(graph.find_modules_directly_imported_by(target)))))
                elif target in stack:
                    low[module] = min(low[module], index[target])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[module])
            if low[module] == index[module]:
                group = stack[stack.index(module) :]
                del stack[stack.index(module) :]
                if len(group) > 1:
                    found.append(sorted(group))
    return found


def test_no_module_imports_one_that_imports_it() -> None:
    graph = grimp.build_graph("site_builder", cache_dir=None)
    assert cycles(graph) == []


def test_the_circle_check_finds_a_circle_made_of_deferred_and_type_only_imports(tmp_path: Path) -> None:
    """The check above can fail: a circle closed only by an in-function import and one under
    ``TYPE_CHECKING`` is found."""
    package = tmp_path / "circled"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("def f():\n    from circled import b\n")
    (package / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from circled import c\n"
    )
    (package / "c.py").write_text("import circled.a\n")
    sys.path.insert(0, str(tmp_path))
    try:
        graph = grimp.build_graph("circled", cache_dir=None)
    finally:
        sys.path.remove(str(tmp_path))
    assert cycles(graph) == [["circled.a", "circled.b", "circled.c"]]


def test_the_top_level_holds_a_handful_of_modules() -> None:
    modules = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(modules) <= TOP_LEVEL_LIMIT, modules


def test_no_folder_of_the_package_is_named_like_an_output_folder() -> None:
    """Tools and people read these names as generated output (setuptools' ``build/``, this
    tool's own ``build/``), and skip or ignore them."""
    outputs = {"build", "dist", "public", "site", "out", "output"}
    assert sorted(p.name for p in PACKAGE.rglob("*") if p.is_dir() and p.name in outputs) == []
