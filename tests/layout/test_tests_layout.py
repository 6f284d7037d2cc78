"""The tests' own layout: one folder per role of the package, plus the folders of what meets
across roles; the shared helpers in one place, defined once.

Every folder of tests is a package, so two test modules may share a name and a test imports
another's helpers by its full name (``tests.serve.test_serve``), never by a path put on
``sys.path`` by whichever module pytest happened to collect first."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import site_builder

TESTS = Path(__file__).resolve().parents[1]
PACKAGE = Path(site_builder.__file__).parent
ACROSS_ROLES = {
    "browser": "the built sites in a real Chromium",
    "whole_site": "whole sites, where features meet",
    "layout": "the project's own layout",
    "support": "the helpers every folder shares",
    "articles": "the code of this repository's own articles",
}
"""Folders of tests named after no role of the package, and what each holds."""
DATA = {"sites", "golden", "__pycache__"}
"""Folders of sites and outputs that tests read, not tests."""


def folders() -> set[str]:
    return {p.name for p in TESTS.iterdir() if p.is_dir() and p.name not in DATA | {".hypothesis"}}


def roles() -> set[str]:
    return {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()} | {"pytest_plugin"}


def test_no_test_module_lies_at_the_top_of_tests() -> None:
    assert sorted(p.name for p in TESTS.glob("*.py")) == ["__init__.py", "conftest.py"]


def test_each_folder_is_a_role_of_the_package_or_meets_across_roles() -> None:
    assert sorted(folders() - roles() - set(ACROSS_ROLES)) == []


def test_each_folder_of_tests_is_a_package() -> None:
    """``tests/articles`` is the exception: its modules import each other by their bare names."""
    bare = sorted(name for name in folders() - {"articles"} if not (TESTS / name / "__init__.py").is_file())
    assert bare == []


BROWSER = re.compile(r"^(pytestmark = .*|@)pytest\.mark\.browser\b", re.MULTILINE)


def test_browser_tests_live_in_the_browser_folder() -> None:
    elsewhere = sorted(
        p.relative_to(TESTS).as_posix()
        for p in TESTS.rglob("test_*.py")
        if p.parent.name != "browser" and DATA.isdisjoint(p.relative_to(TESTS).parts)
        if BROWSER.search(p.read_text("utf-8"))
    )
    assert elsewhere == []


def bodies(path: Path) -> dict[str, str]:
    """The functions ``path`` defines at its top level, each by its arguments and its body
    (its docstring left out), to its ``path:name``."""
    found = {}
    for node in ast.parse(path.read_text("utf-8")).body:
        if isinstance(node, ast.FunctionDef):
            body = node.body[1:] if ast.get_docstring(node) is not None else node.body
            same = ast.dump(node.args) + "".join(map(ast.dump, body))
            found[same] = f"{path.relative_to(TESTS).as_posix()}:{node.name}"
    return found


def test_no_test_module_defines_a_shared_helper_again() -> None:
    """A helper of ``tests/support`` (or of the browser tests' ``pages``) written out again in a
    test module is a copy that drifts: ``tree(folder)`` once had six."""
    shared: dict[str, str] = {}
    for path in [*(TESTS / "support").glob("*.py"), TESTS / "browser" / "pages.py"]:
        shared |= bodies(path)
    modules = [p for p in TESTS.rglob("test_*.py") if DATA.isdisjoint(p.relative_to(TESTS).parts)]
    copies = {same: name for p in modules for same, name in bodies(p).items()}
    assert sorted(f"{name} is {shared[same]}" for same, name in copies.items() if same in shared) == []


def test_each_module_given_whole_to_one_worker_exists_and_has_module_scoped_work() -> None:
    """:data:`tests.support.scheduling.TOGETHER` names modules that exist, each with a fixture
    of module scope (the work it would otherwise do once in each worker), and the unit a
    test of another module is handed out in is that test alone."""
    from tests.support.scheduling import TOGETHER, scope

    for module in TOGETHER:
        path = TESTS.parent / module
        assert path.is_file(), module
        assert module_scoped_work(path), (
            f"{module}: no module-scoped fixture, of its own or used from its conftest.py"
        )
        assert scope(f"{module}::test_x[a]") == module
    assert scope("tests/cli/test_cli.py::test_x") == "tests/cli/test_cli.py::test_x"


def module_scoped_work(path: Path) -> bool:
    """Whether the test module at ``path`` defines a module-scoped fixture, or takes one its
    folder's ``conftest.py`` defines as an argument of a test or fixture."""
    tree = ast.parse(path.read_text("utf-8"))
    if module_scoped_fixtures(tree):
        return True
    conftest = path.parent / "conftest.py"
    if not conftest.is_file():
        return False
    taken = {
        arg.arg for node in ast.walk(tree) if isinstance(node, ast.FunctionDef) for arg in node.args.args
    }
    return bool(module_scoped_fixtures(ast.parse(conftest.read_text("utf-8"))) & taken)


def module_scoped_fixtures(tree: ast.Module) -> set[str]:
    """The functions of ``tree`` decorated with ``@pytest.fixture(scope="module", ...)``."""
    return {
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef)
        for decorator in node.decorator_list
        if isinstance(decorator, ast.Call)
        and any(
            k.arg == "scope" and isinstance(k.value, ast.Constant) and k.value.value == "module"
            for k in decorator.keywords
        )
    }
