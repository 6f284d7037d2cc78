"""Every function of the package stays at cyclomatic complexity 10 or less by radon's measure,
which counts each ``and``/``or`` and each comprehension's ``if`` as a branch. ruff's C901 (mccabe)
counts neither, so a function can pass it while holding far more paths than 10."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from radon.complexity import cc_visit
from radon.visitors import Class, Function

import site_builder

PACKAGE = Path(site_builder.__file__).parent
LIMIT = 10


def functions(blocks: list[Function | Class]) -> Iterator[Function]:
    """Every function in ``blocks``: methods of classes (inner classes too) and the functions
    defined inside functions, which radon measures apart and lists only under their parent."""
    for block in blocks:
        if isinstance(block, Class):
            yield from functions([*block.methods, *block.inner_classes])
        else:
            yield block
            yield from functions(block.closures)


def over_limit(source: str) -> list[tuple[int, str, int]]:
    """(line, name, complexity) of each function in ``source`` above the limit."""
    # cc_visit lists a class's methods beside the class as well: walk from the classes and the
    # plain functions only, so each method is judged once.
    blocks = [b for b in cc_visit(source) if isinstance(b, Class) or not b.is_method]
    return sorted(
        (f.lineno, f.fullname if f.is_method else f.name, f.complexity)
        for f in functions(blocks)
        if f.complexity > LIMIT
    )


def test_every_function_of_the_package_is_at_most_complexity_10() -> None:
    offenders = [
        f"{path.relative_to(PACKAGE.parent)}:{line} {name} {complexity}"
        for path in sorted(PACKAGE.rglob("*.py"))
        for line, name, complexity in over_limit(path.read_text("utf-8"))
    ]
    assert offenders == [], "above complexity 10 (radon cc):\n" + "\n".join(offenders)


SOURCE = """
class Outer:
    class Inner:
        def method(self, a, b, c, d, e, f):
            def closure(items):
                return [i for i in items if i and a or b and c or a if d and e or f and i]
            return a and b or c and d or e and f or a and b or c and d or e
"""


def test_the_measure_counts_boolean_operators_and_comprehension_conditions() -> None:
    """Neither function holds an ``if`` or ``for`` statement, so mccabe scores them 2 and 1;
    radon counts 10 boolean operators in the method, and in the closure a comprehension
    with two conditions holding 7 operators between them."""
    assert over_limit(SOURCE) == [(4, "Inner.method", 11), (5, "closure", 11)]


def test_a_function_at_the_limit_passes() -> None:
    source = "def f(a, b, c):\n    return a and b or c and a or b and c or a and b or c and a\n"
    assert over_limit(source) == []
    assert cc_visit(source)[0].complexity == LIMIT
