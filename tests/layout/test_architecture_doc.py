"""docs/architecture.md names every module of the package with its one-line job, and names no
module the package does not have: a module added, moved or removed without a word there
fails here."""

from __future__ import annotations

import re
from pathlib import Path

import site_builder

PACKAGE = Path(site_builder.__file__).parent
DOC = PACKAGE.parent / "docs" / "architecture.md"


def listed() -> list[str]:
    """The module paths the "Modules" section gives a job: ``path.py``: job."""
    text = DOC.read_text("utf-8")
    section = text.split("\n## Modules\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"`([a-z_/]+\.py)`: \S", section)


def test_every_module_of_the_package_has_its_line_in_the_architecture_doc() -> None:
    modules = {p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*.py")}
    named = listed()
    assert sorted(modules - set(named)) == [], "modules with no line in docs/architecture.md"
    assert sorted(set(named) - modules) == [], "lines of docs/architecture.md for modules that are gone"
    assert len(named) == len(set(named)), "a module listed twice"
