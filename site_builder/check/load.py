"""Import every article batch, surviving the ones that do not import.

A batch that fails (syntax error, exception, missing import, no ``revisions``,
a wrong type) becomes one problem at its file and line; the other batches are
still loaded, so their problems are reported in the same run.
"""

from __future__ import annotations

import importlib.util
import linecache
import os
import re
import sys
import traceback
from collections.abc import Callable, Iterable
from pathlib import Path
from types import ModuleType
from typing import Literal

from site_builder.authoring.model import Block, Fixture, Revision
from site_builder.check.import_errors import import_message
from site_builder.errors import Problem, a_kind
from site_builder.model.batches import MODULE_PREFIX, Batch
from site_builder.settings.project import Settings

_REVISIONS_LINE = re.compile(r"^revisions\s*(:[^=]*)?=")


def missing_articles(settings: Settings) -> Problem:
    """The problem of a site whose articles folder is not there."""
    message = f"articles folder {settings.articles_dir!r} does not exist"
    return Problem(path="pyproject.toml", line=1, subject="settings", rule="articles-dir", message=message)


def batch_paths(folder: Path) -> list[Path]:
    """The batch modules of an articles folder, in site order (names sorted, then made paths:
    at 3,333 batches, half the time of sorting paths a glob made)."""
    names = sorted(name for name in os.listdir(folder) if name.endswith(".py") and not name.startswith("_"))
    return [folder / name for name in names]


def load_batch(path: Path, root: Path) -> tuple[Batch | None, Problem | None]:
    """Import one batch module: its revisions and fixtures, or the problem that stopped it."""
    name = path.stem
    relative = path.relative_to(root).as_posix()

    def problem(line: int, rule: str, message: str) -> Problem:
        return Problem(path=relative, line=line, subject=f"batch {name}", rule=rule, message=message)

    imported = _imported(path, name, problem)
    if isinstance(imported, Problem):
        return None, imported
    module, imports, helpers = imported
    listed = _revisions_of(module, path, problem)
    if isinstance(listed, Problem):
        return None, listed
    good, found = listed
    fixtures = sorted(
        (v for v in vars(module).values() if isinstance(v, Fixture) and v.module == module.__name__),
        key=lambda fx: fx.site.line,
    )
    fixtures += helper_fixtures(good, path.parent)
    return Batch(
        name=name,
        path=path.resolve(),
        revisions=good,
        fixtures=tuple(fixtures),
        imports=imports,
        helpers=helpers,
    ), found


_Say = Callable[[int, str, str], Problem]
"""A problem of the batch being loaded, from its line, rule and message."""


def _imported(
    path: Path, name: str, problem: _Say
) -> tuple[ModuleType, tuple[str, ...], tuple[str, ...]] | Problem:
    """The batch module imported, the other batches and the helper modules it imported, or
    what stopped it."""
    not_utf8 = _non_utf8(path)
    if not_utf8:
        return problem(not_utf8[0], "import", f"cannot import: the file is not valid UTF-8 ({not_utf8[1]})")
    try:
        return _import(path, MODULE_PREFIX + name)
    except SyntaxError as exc:
        return problem(exc.lineno or 1, "import", f"cannot import: {_syntax_message(exc)}")
    except (Exception, SystemExit) as exc:  # noqa: BLE001 - an author's module may raise anything
        line = _line_in(exc, path)
        return problem(line, "import", f"cannot import: {import_message(exc)}")


def _revisions_of(
    module: ModuleType, path: Path, problem: _Say
) -> tuple[tuple[Revision, ...], Problem | None] | Problem:
    """The module's ``revisions`` that are revisions, and the problem of the items that are
    not (the good ones are still checked); or why it has no list of them."""
    revisions = getattr(module, "revisions", None)
    line = _revisions_line(path)
    if revisions is None:
        return problem(1, "batch-revisions", "defines no module-level list 'revisions'")
    if not isinstance(revisions, list | tuple):
        kind = type(revisions).__name__
        return problem(line, "batch-revisions", f"'revisions' must be a list, not {kind}")
    good = tuple(item for item in revisions if isinstance(item, Revision))
    wrong = [(n, a_kind(item)) for n, item in enumerate(revisions, 1) if not isinstance(item, Revision)]
    if not wrong:
        return good, None
    message = "; ".join(f"revisions item {n} is {kind}, not a revision(...)" for n, kind in wrong)
    return good, problem(line, "batch-revisions", message)


def helper_fixtures(revisions: Iterable[Revision], folder: Path) -> list[Fixture]:
    """The fixtures the verified outputs of ``revisions`` show that a helper module of the
    articles ``folder`` defines at module level (``@fixture`` in ``_shared.py``, id
    ``_shared:name``): each batch that shows one runs it as its own, so several batches can
    share a fixture and each is still judged, cached and rebuilt on its own."""
    found: dict[int, Fixture] = {}
    for rev in revisions:
        for block in rev.body:
            if isinstance(block, Block) and block.verified is not None:
                fx = block.verified.fixture
                if id(fx) not in found and _in_helper(fx, folder):
                    found[id(fx)] = fx
    return list(found.values())


def _in_helper(fx: Fixture, folder: Path) -> bool:
    """Whether ``fx`` is a module-level name of a module under ``folder`` that is not a batch."""
    module = sys.modules.get(fx.module)
    file = getattr(module, "__file__", None)
    if module is None or not isinstance(file, str) or getattr(module, fx.name, None) is not fx:
        return False
    return _kind(Path(file), folder.resolve()) == "helper"


def forget(batch: Batch) -> None:
    """Drop a loaded batch's module from ``sys.modules``, and its source lines from
    ``linecache`` (read to place a fixture's ``def``): a worker that imports thousands
    of batches would otherwise keep every one of them, and their revisions, alive."""
    sys.modules.pop(MODULE_PREFIX + batch.name, None)
    for name in (*batch.imports, *batch.helpers):  # imported afresh by the next batch: never stale
        sys.modules.pop(name, None)
    linecache.cache.pop(str(batch.path), None)


def _import(path: Path, module_name: str) -> tuple[ModuleType, tuple[str, ...], tuple[str, ...]]:
    """The module, the other batches of its folder it imported, and the helper modules of
    the folder it loaded."""
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path.name}")
    module = importlib.util.module_from_spec(spec)
    # Registered so dataclasses and pickling inside the batch work; replaced on reload.
    sys.modules[module_name] = module
    # A batch may import the helper modules beside it (``from _shared import x``: a name
    # starting with "_" is never a batch). Appended, so a batch named like a standard
    # module never shadows it; every file of the folder is part of each batch's cache key.
    folder = str(path.parent)
    before = set(sys.modules)
    sys.path.append(folder)
    # The articles folder is the author's: no __pycache__ is written into it, whatever the
    # environment says (a command that "writes nothing" writes nothing), and an edit made
    # within the second of the last import is never answered by its stale bytecode.
    writes = sys.dont_write_bytecode
    sys.dont_write_bytecode = True
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(module_name, None)
        batches, helpers = _of_folder(sys.modules.keys() - before, path.parent)
        for name in (*batches, *helpers):  # a failed import leaves nothing of the folder behind
            sys.modules.pop(name, None)
        raise
    finally:
        sys.path.remove(folder)
        sys.dont_write_bytecode = writes
    return module, *_of_folder(sys.modules.keys() - before - {module_name}, path.parent)


def _of_folder(names: Iterable[str], folder: Path) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The batches of the articles ``folder`` among the modules ``names``, and its helper
    modules among them (``_x.py`` beside the batches, or a module in a folder below), each
    sorted."""
    folder = folder.resolve()
    found: dict[str, list[str]] = {"batch": [], "helper": []}
    for name in names:
        file = getattr(sys.modules.get(name), "__file__", None)
        if isinstance(file, str) and (kind := _kind(Path(file), folder)) is not None:
            found[kind].append(name)
    return tuple(sorted(found["batch"])), tuple(sorted(found["helper"]))


def _kind(file: Path, folder: Path) -> Literal["batch", "helper"] | None:
    """What the module ``file`` is to the articles ``folder`` (resolved): one of its batches,
    one of its helper modules, or neither (it lies outside)."""
    where = file.resolve()
    if not where.is_relative_to(folder):
        return None
    return "batch" if where.parent == folder and not where.name.startswith("_") else "helper"


def _syntax_message(exc: SyntaxError) -> str:
    if isinstance(exc.__cause__, UnicodeDecodeError) or "decode" in str(exc.msg):
        return f"the file is not valid UTF-8 ({exc.msg})"
    return f"SyntaxError: {exc.msg}"


def _line_in(exc: BaseException, path: Path) -> int:
    """The last line of ``path`` on the traceback: where the import failed."""
    target = str(path)
    lines = [f.lineno for f in traceback.extract_tb(exc.__traceback__) if f.filename == target]
    return lines[-1] if lines and lines[-1] is not None else 1


def _non_utf8(path: Path) -> tuple[int, str] | None:
    """The first line that is not UTF-8, and where (Python lets some through, in comments)."""
    for number, raw in enumerate(path.read_bytes().splitlines(), 1):
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            return number, f"byte 0x{raw[exc.start]:02x} at column {exc.start + 1}"
    return None


def _revisions_line(path: Path) -> int:
    with path.open(encoding="utf-8", errors="replace") as handle:
        for number, text in enumerate(handle, 1):
            if _REVISIONS_LINE.match(text):
                return number
    return 1
