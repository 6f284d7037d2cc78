"""Shared test tools: tiny sites written on the fly, and the CLI called in-process."""

from __future__ import annotations

import contextlib
import io
import re
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from site_builder import cli

pytest_plugins = ["pytester"]

SITES = Path(__file__).parent / "sites"

SETTINGS = """\
[tool.site_builder]
title = "Test site"
base_url = "https://example.org/"
language = "en"
min_body_chars = 20
fixture_timeout = 2
"""

HEADER = """\
from site_builder import (Markup, Source, code_block, data_table, figure, fixture, heading,
                          markdown, ordered_list, paragraph, revision, unordered_list,
                          verified_output)
"""


@dataclass(frozen=True)
class Result:
    """What one CLI run returned and printed."""

    code: int
    out: str
    err: str


BASE_PATHS = ("/", "/sub/dir/")
"""The paths a site that builds is tested at: the domain's root, and below a path two folders deep
(a GitHub Pages project site is one deep). Every feature is tested where it meets a sub-path."""
_BASE_URL = re.compile(r'^base_url = "[^"]*"$', re.MULTILINE)


def base_url_at(base_path: str) -> str:
    """The test sites' base URL for a site served below ``base_path``."""
    return f"https://example.org{base_path}"


def settings_at(base_path: str, settings: str = SETTINGS) -> str:
    """``settings`` (the text of a ``pyproject.toml``) with its ``base_url`` below ``base_path``."""
    moved, count = _BASE_URL.subn(f'base_url = "{base_url_at(base_path)}"', settings)
    assert count == 1, f"no single base_url line in {settings!r}"
    return moved


def set_base_url(root: Path, base_url: str) -> None:
    """Serve the site at ``root`` from ``base_url``: its ``pyproject.toml`` rewritten."""
    path = root / "pyproject.toml"
    moved, count = _BASE_URL.subn(f'base_url = "{base_url}"', path.read_text("utf-8"))
    assert count == 1, f"no single base_url line in {path}"
    path.write_text(moved, "utf-8")


MakeSite = Callable[..., Path]
RunCli = Callable[[Sequence[str]], Result]


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        help="rewrite tests/golden/ from the current output instead of comparing with it",
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests marked ``slow`` run first. pytest-xdist hands out tests in collection order, so a
    long test collected late keeps one worker busy alone at the end of a parallel run."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    """True when the run was asked to regenerate the golden copies."""
    return bool(request.config.getoption("--update-golden"))


@pytest.fixture(scope="module", params=BASE_PATHS, ids=["root", "sub-dir"])
def base_path(request: pytest.FixtureRequest) -> str:
    """Each of :data:`BASE_PATHS`; module-scoped, so a module-scoped site fixture may take it and
    every test of the module runs against each site once."""
    return str(request.param)


@pytest.fixture
def make_site(tmp_path: Path) -> MakeSite:
    """Write a site: ``files`` maps paths to text (dedented); returns its root."""

    def make(files: dict[str, str], settings: str = SETTINGS, name: str = "site") -> Path:
        return write_site(tmp_path / name, files, settings)

    return make


def write_site(root: Path, files: dict[str, str], settings: str = SETTINGS) -> Path:
    """:func:`make_site`'s body, for module-scoped fixtures: the site written into ``root``."""
    (root / "articles").mkdir(parents=True, exist_ok=True)
    (root / "assets").mkdir(exist_ok=True)
    (root / "pyproject.toml").write_text(settings, "utf-8")
    for path, text in files.items():
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(textwrap.dedent(text), "utf-8")
    return root


def build_quietly(root: Path, *args: str) -> Path:
    """``site-builder build --root ROOT ARGS`` in-process, for module-scoped fixtures (which cannot
    use :func:`run_cli`); what it prints is shown only when it fails. Returns the output folder."""
    messages = io.StringIO()
    with contextlib.redirect_stderr(messages):
        code = cli.main(["build", "--root", str(root), *args])
    assert code == 0, messages.getvalue()
    return Path(args[args.index("--out") + 1]) if "--out" in args else root / "build"


@pytest.fixture
def run_cli(capsys: pytest.CaptureFixture[str]) -> RunCli:
    """Call ``cli.main`` the way a user runs ``site-builder``."""

    def run(argv: Sequence[str]) -> Result:
        capsys.readouterr()
        code = cli.main(list(argv))
        captured = capsys.readouterr()
        return Result(code, captured.out, captured.err)

    return run
