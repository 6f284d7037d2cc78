"""A loaded batch (one module of ``articles/``) and the names its parts go by: a fixture's id
(``MODULE:FUNCTION``), and a file as a problem names it (relative to the site's root)."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path, PurePath

from site_builder.authoring.model import CallSite, Fixture, Revision
from site_builder.errors import Problem

MODULE_PREFIX = "_site_builder_batch_"
"""The prefix of a batch module's name in ``sys.modules``: never a name an article imports."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Batch:
    """One module of ``articles/``: its revisions and fixtures, in written order."""

    name: str
    """The module's file name without ``.py``: the batch name and fixture id prefix."""
    path: Path
    """Absolute path of the module file."""
    revisions: tuple[Revision, ...]
    """The module's ``revisions`` list."""
    fixtures: tuple[Fixture, ...]
    """Every ``@fixture`` defined in the module, by line; then those of helper modules
    (:func:`site_builder.check.load.helper_fixtures`) its verified outputs show, in the order
    they are first shown."""
    imports: tuple[str, ...] = ()
    """The other batches it imported (``from retry_2020_06 import SOURCES``), by name: what it
    says depends on them too, so a kept summary of it holds only while they are unchanged."""
    helpers: tuple[str, ...] = ()
    """The helper modules of the articles folder its import loaded (``from _shared import
    x``), by module name: forgotten with it, so a worker that lives on (``serve``'s) reads a
    helper afresh for the next batch, as it is on disk then, not as it was first imported."""


def relative_to_root(root: Path, path: str | Path) -> str:
    """``path`` relative to ``root``, with forward slashes when inside it; a site module named
    by its path under another root (a kept summary made in another checkout, a shard's
    folder) as the same module of this site; as given otherwise."""
    try:
        return Path(path).resolve().relative_to(root).as_posix()
    except ValueError:
        return _elsewhere(root, PurePath(path)) or Path(path).as_posix()


def _elsewhere(root: Path, path: PurePath) -> str | None:
    """The longest tail of ``path``, a Python module not of site_builder nor of Python's own
    installation, that names a file under ``root``; None when none does."""
    if path.suffix != ".py" or any(path.is_relative_to(p) for p in _NOT_THE_SITES):
        return None
    for start in range(1, len(path.parts)):
        tail = PurePath(*path.parts[start:])
        if (root / tail).is_file():
            return tail.as_posix()
    return None


_NOT_THE_SITES = (PurePath(__file__).parents[1], PurePath(sys.prefix), PurePath(sys.base_prefix))
"""Where Python files that are no site's modules live: site_builder, the environment, Python."""


def fixture_id(fixture: Fixture) -> str:
    """``MODULE:FUNCTION``, where MODULE is the batch's file name."""
    module = fixture.module.removeprefix(MODULE_PREFIX)
    return f"{module}:{fixture.name}"


def fixture_batch(fid: str) -> str:
    """The batch a fixture id (:func:`fixture_id`) names."""
    return fid.partition(":")[0]


PACKAGE_FOLDER = Path(__file__).resolve().parent.parent / "templates"
PACKAGE_SHOWN = "site_builder/templates"


def shown(root: Path, path: str | Path) -> str:
    """How a problem names a template file: ``templates/NAME`` for a site's own,
    ``site_builder/templates/NAME`` for the package's."""
    resolved = Path(path).resolve()
    if resolved.is_relative_to(PACKAGE_FOLDER):
        return f"{PACKAGE_SHOWN}/{resolved.relative_to(PACKAGE_FOLDER).as_posix()}"
    return relative_to_root(root, resolved)


def problem_at(root: Path, where: CallSite, subject: str, rule: str, message: str) -> Problem:
    """A problem at an author's line (``where``), its file named as problems name files."""
    return Problem(
        path=relative_to_root(root, where.path), line=where.line, subject=subject, rule=rule, message=message
    )
