"""Results of more than four fields are built by keyword (issue 33): every dataclass the package
defines with more than four fields has only keyword-only fields, so no call site can pass them
by position and a field added or moved never shifts the others; and no NamedTuple of the
package has more than four fields (it is a tuple: built and unpacked by position)."""

from __future__ import annotations

import ast
import dataclasses
import importlib
import pkgutil
import re
from pathlib import Path
from types import ModuleType
from typing import NamedTuple

import site_builder

FIELD_LIMIT = 4
"""More fields than this are named at every construction."""


def package_modules() -> list[ModuleType]:
    """Every module of the package, imported (``__main__`` apart: importing it runs the CLI)."""
    found = pkgutil.walk_packages(site_builder.__path__, "site_builder.")
    names = [info.name for info in found if not info.name.endswith(".__main__")]
    return [site_builder, *(importlib.import_module(name) for name in names)]


def is_named_tuple(value: object) -> bool:
    return isinstance(value, type) and issubclass(value, tuple) and hasattr(value, "_fields")


def positional_results(modules: list[ModuleType]) -> list[str]:
    """``module.Class (n fields)`` for each class defined in ``modules`` that has more than
    :data:`FIELD_LIMIT` fields and lets one of them be passed by position."""
    found: list[str] = []
    for module in modules:
        for value in vars(module).values():
            if not isinstance(value, type) or value.__module__ != module.__name__:
                continue  # imported from elsewhere: judged where it is defined
            if dataclasses.is_dataclass(value):
                fields = [f for f in dataclasses.fields(value) if f.init]
                positional = any(not f.kw_only for f in fields)
            elif is_named_tuple(value):
                fields = list(value._fields)  # type: ignore[attr-defined]
                positional = True
            else:
                continue
            if len(fields) > FIELD_LIMIT and positional:
                found.append(f"{module.__name__}.{value.__qualname__} ({len(fields)} fields)")
    return sorted(found)


def test_the_package_builds_results_of_more_than_four_fields_by_keyword() -> None:
    assert positional_results(package_modules()) == []


def test_a_result_of_five_positional_fields_is_reported() -> None:
    """The check can fail: a dataclass and a NamedTuple of five positional fields are named,
    one of five keyword-only fields and one of four positional fields are not."""
    module = ModuleType("shape_probe")

    @dataclasses.dataclass(frozen=True, slots=True)
    class Positional:
        a: int
        b: int
        c: int
        d: int
        e: int = 0

    @dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
    class Named:
        a: int
        b: int
        c: int
        d: int
        e: int

    @dataclasses.dataclass(frozen=True, slots=True)
    class Small:
        a: int
        b: int
        c: int
        d: int

    class Row(NamedTuple):
        a: int
        b: int
        c: int
        d: int
        e: int

    for cls in (Positional, Named, Small, Row):
        cls.__module__ = module.__name__
        setattr(module, cls.__name__, cls)

    found = positional_results([module])

    prefix = "shape_probe.test_a_result_of_five_positional_fields_is_reported.<locals>"
    assert found == [f"{prefix}.Positional (5 fields)", f"{prefix}.Row (5 fields)"]


def private_returns(source: str) -> list[str]:
    """The public functions and public classes' public methods of a module whose return
    annotation names a private class (``_Name``): a caller holds a value it cannot name."""
    found = []
    tree = ast.parse(source)
    public = [tree, *(n for n in tree.body if isinstance(n, ast.ClassDef) and not n.name.startswith("_"))]
    for scope in public:
        for node in scope.body:
            if not isinstance(node, ast.FunctionDef) or node.name.startswith("_") or node.returns is None:
                continue
            if re.search(r"(^|[^\w.])_[A-Z]\w*", ast.unparse(node.returns)):
                found.append(f"{node.lineno} {node.name}")
    return found


def test_no_public_function_returns_a_private_type() -> None:
    package = Path(site_builder.__file__).parent
    found = {
        p.relative_to(package).as_posix(): names
        for p in sorted(package.rglob("*.py"))
        if (names := private_returns(p.read_text("utf-8")))
    }
    assert found == {}


def test_a_public_function_returning_a_private_type_is_found() -> None:
    source = "class _Hidden: ...\ndef shown() -> _Hidden | None: ...\ndef _fine() -> _Hidden: ...\n"
    assert private_returns(source) == ["2 shown"]
