"""The fixtures every folder of the tests uses: a tiny site written on the fly, the CLI called
in-process, each base path a site is built at; the options and the order of the whole run.

The helpers behind them (settings, the batch header, site writers) are in
``tests/support/sites.py``, which tests import directly."""

from __future__ import annotations

import compileall
import os
import signal
from collections.abc import Sequence
from pathlib import Path

import pytest
from pygments.lexers import get_lexer_by_name

import site_builder
from site_builder import cli
from tests.support.own_site import OwnSite, own_site_once
from tests.support.sites import BASE_PATHS, SETTINGS, MakeSite, Result, RunCli, write_site

pytest_plugins = ["pytester"]


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        help="rewrite tests/golden/ from the current output instead of comparing with it",
    )


def pytest_configure(config: pytest.Config) -> None:
    """Compile the package's bytecode once, before the workers start. The tests start Python
    anew with site_builder hundreds of times (the command as a user runs it, ``serve``, the
    pytest plugin), and where ``PYTHONDONTWRITEBYTECODE`` is set, as on many CI machines,
    Python would compile every module again in each. Only ``__pycache__/`` is written: git
    ignores it, and the build's hash of the package skips it."""
    if not hasattr(config, "workerinput"):
        compileall.compile_dir(Path(site_builder.__file__).parent, quiet=1)
    warm_lexers()
    hear_ctrl_c()


@pytest.hookimpl(optionalhook=True)  # pytest-xdist's hook: unknown when it is not loaded
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``-n auto`` starts one worker more than there are processors. The suite spends a part
    of its time waiting on processes it started (a build it kills on purpose, a timeout it
    lets run out, ``serve`` stopping, a page in Chromium): a spare worker runs tests in those
    waits. On 2 cores, in one tree: 289, 292 and 295 s with 2 workers; 273 s with 3.
    ``PYTEST_XDIST_AUTO_NUM_WORKERS`` still decides when it is set (pytest-xdist reads it)."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    return len(os.sched_getaffinity(0)) + 1


@pytest.hookimpl(optionalhook=True)  # pytest-xdist's hook, as the one above
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object | None:
    """The scheduler of ``-n``: the modules of
    :data:`~tests.support.scheduling.TOGETHER` each to one worker, the other tests one at a
    time (:class:`~tests.support.scheduling.ModulesTogether`); pytest-xdist's own when
    ``--dist`` names another mode than ``load``, its default."""
    if config.getvalue("dist") != "load":
        return None
    from tests.support.scheduling import ModulesTogether  # imports pytest-xdist

    return ModulesTogether(config, log)


LANGUAGES = ("python", "toml", "sql", "sh", "html", "json", "yaml", "xml")
"""The code blocks' languages of the test sites, the docs and this repository's articles."""


def warm_lexers() -> None:
    """Compile the Pygments lexers of :data:`LANGUAGES` in this process. Each build forks its
    workers from the test process, and a lexer compiles its regular expressions in the first
    process that uses it: compiled here, every build's workers inherit them, as ``serve``'s
    kept workers keep theirs, instead of compiling them again in each (a sixth of a worker's
    time on the bench corpus). What a page shows does not depend on where a lexer was compiled."""
    for language in LANGUAGES:
        get_lexer_by_name(language)


def hear_ctrl_c() -> None:
    """Give SIGINT its usual handler back when the run was started ignoring it. A shell without
    job control starts a background job (``pytest &`` in a script) with SIGINT ignored, every
    process it starts inherits that, and the commands under test rightly keep ignoring a signal
    they were started to ignore (as under ``nohup``); the tests that press Ctrl-C would then
    wait for a stop that never comes."""
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests marked ``slow`` run first. pytest-xdist hands out tests in collection order, so a
    long test collected late keeps one worker busy alone at the end of a parallel run. The
    other tests that read the docs' build (``docs_build``, made once for the run by the
    first to ask: a slow one) run last, when it is long over."""
    items.sort(key=order)


def order(item: pytest.Item) -> int:
    """Where ``item`` runs: 0 slow, first; 2 reading the docs' build, last; 1 the rest."""
    if item.get_closest_marker("slow") is not None:
        return 0
    return 2 if "docs_build" in getattr(item, "fixturenames", ()) else 1


@pytest.fixture(scope="session")
def run_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The temporary folder of this whole run: with pytest-xdist, every worker's folder is in
    it (where :mod:`tests.support.once` keeps what one process makes for all)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@pytest.fixture(scope="session")
def own_site_at_root(run_folder: Path) -> OwnSite:
    """This repository's site built from scratch at its own base URL, once for the run."""
    return own_site_once(run_folder, "/")


@pytest.fixture(scope="module", params=BASE_PATHS, ids=["root", "sub-dir"])
def base_path(request: pytest.FixtureRequest) -> str:
    """Each of :data:`~tests.support.sites.BASE_PATHS`; module-scoped, so a module-scoped site
    fixture may take it and every test of the module runs against each site once."""
    return str(request.param)


@pytest.fixture
def make_site(tmp_path: Path) -> MakeSite:
    """Write a site: ``files`` maps paths to text (dedented); returns its root."""

    def make(files: dict[str, str], settings: str = SETTINGS, name: str = "site") -> Path:
        return write_site(tmp_path / name, files, settings)

    return make


@pytest.fixture
def run_cli(capsys: pytest.CaptureFixture[str]) -> RunCli:
    """Call ``cli.main`` the way a user runs ``site-builder``."""

    def run(argv: Sequence[str]) -> Result:
        capsys.readouterr()
        code = cli.main(list(argv))
        captured = capsys.readouterr()
        return Result(code, captured.out, captured.err)

    return run
