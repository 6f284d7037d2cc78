"""Tiny sites written on the fly, built in-process, and read back: the helpers every folder of
the tests shares (the fixtures that hand them out are in ``tests/conftest.py``)."""

from __future__ import annotations

import contextlib
import gzip
import io
import json
import re
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from site_builder import cli

REPOSITORY = Path(__file__).resolve().parents[2]
"""The root of this repository: its own site, ``docs/``, ``bench/`` and the package."""
SITES = REPOSITORY / "tests" / "sites"

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


def write_site(root: Path, files: dict[str, str], settings: str = SETTINGS) -> Path:
    """The ``make_site`` fixture's body, for module-scoped fixtures: the site written into ``root``."""
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
    use the ``run_cli`` fixture); what it prints is shown only when it fails. Returns the output
    folder."""
    messages = io.StringIO()
    with contextlib.redirect_stderr(messages):
        code = cli.main(["build", "--root", str(root), *args])
    assert code == 0, messages.getvalue()
    return Path(args[args.index("--out") + 1]) if "--out" in args else root / "build"


def tree(folder: Path) -> dict[str, bytes]:
    """Every file below ``folder`` with its bytes, by forward-slash path."""
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


_BUNDLES = re.compile(rb"var bundles = (\[.*?\]);")
_HIDDEN = re.compile(rb"const HIDDEN = (\[.*?\])\.map")


def searchable(files: dict[str, bytes]) -> dict[str, bytes]:
    """``files`` (a site as :func:`tree` reads it) with its search index as what a reader can
    find: the fragment of every page found, by id (decompressed), hidden ones left out; the
    files the search box loads that do not depend on the pages; nothing of how the index is cut.

    A rebuild adds a delta bundle to the bundles of the last fold (``search/delta.py``), a clean
    build indexes its shards afresh: the same pages are found, from other files. That the same
    queries find them is for Chromium to show (``tests/browser/test_browser_search_delta.py``)."""
    script = files.get("pagefind/site-search.js")
    if script is None or (listed := _BUNDLES.search(script)) is None:
        return files
    folders = [url[url.index("/pagefind/") + 1 :].rstrip("/") for url in json.loads(listed.group(1))]
    module = _HIDDEN.search(files.get("pagefind/merged/pagefind.js", b""))
    hidden = [set(ids) for ids in json.loads(module.group(1))] if module else [set() for _ in folders]
    kept = {path: data for path, data in files.items() if not path.startswith("pagefind/")}
    for path, data in files.items():
        name = path.removeprefix("pagefind/")
        if path.startswith("pagefind/") and "/" not in name and not _INDEX_FILE.search(name):
            kept[path] = data
    for folder, gone in zip(folders, hidden, strict=True):
        for path, data in files.items():
            ident = path.removeprefix(f"{folder}/fragment/").removesuffix(".pf_fragment")
            if path.startswith(f"{folder}/fragment/") and "/" not in ident and ident not in gone:
                kept[f"pagefind/found/{ident}"] = gzip.decompress(data)
    return kept


_INDEX_FILE = re.compile(r"^pagefind-entry\.json$|\.pf_meta$|^site-search\.js$")
"""Files of the first bundle's folder that depend on how the index is cut."""
