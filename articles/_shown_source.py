"""The source of a model's functions and classes, as the articles show it.

``inspect.getsource`` finds a class by parsing its whole module, at every call: these
modules show several classes each and are imported by every build, so the lines where
each class starts are found once per version of a module's text."""

from __future__ import annotations

import ast
import functools
import inspect
import linecache
import textwrap


def source_of(*objects: object, gap: str = "\n\n") -> str:
    """Each object's source as written, dedented, ``gap`` between them."""
    return gap.join(textwrap.dedent(_source(obj)).strip() for obj in objects)


def _source(obj: object) -> str:
    if not inspect.isclass(obj):
        return inspect.getsource(obj)  # a function's first line is in its code: no parse
    file = inspect.getsourcefile(obj)
    assert file is not None, obj
    linecache.checkcache(file)
    module = inspect.getmodule(obj, file)
    lines = linecache.getlines(file, module.__dict__ if module is not None else None)
    start = _class_starts("".join(lines))[obj.__qualname__]
    return "".join(inspect.getblock(lines[start:]))


@functools.lru_cache(maxsize=16)
def _class_starts(text: str) -> dict[str, int]:
    """The line (from 0) where each class of ``text`` starts, its decorators included, by
    qualified name: what ``inspect.findsource`` finds for one class at a time."""
    starts: dict[str, int] = {}

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                name = prefix + child.name
                first = child.decorator_list[0].lineno if child.decorator_list else child.lineno
                starts.setdefault(name, first - 1)
                visit(child, name + ".")
            elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                visit(child, f"{prefix}{child.name}.<locals>.")
            else:
                visit(child, prefix)

    visit(ast.parse(text), "")
    return starts
