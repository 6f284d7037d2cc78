"""``serve``'s rebuilds, made from what the process keeps in memory, give the very bytes a
clean ``build --no-cache`` of the same input gives: after an edit, an added batch, a deleted
batch and a changed template, one after the other under one running ``serve``."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

import site_builder
from tests.serve.test_serve import (
    ARTICLE,
    DEADLINE,
    OTHER,
    OTHER_BATCH,
    Server,
    live_batch,
    replace_file,
    serving,
)
from tests.support.sites import HEADER, MakeSite, searchable, tree

pytestmark = pytest.mark.slow

EPOCH = "1767225600"  # 2026-01-01: both builds publish under one date
BUILT = re.compile(r"^built \d+ pages?")
ADDED = "articles/added_2024_03.py"
ADDED_BATCH = (
    HEADER
    + """
SRC = [Source(title="One", url="https://example.org/one", note="the first"),
       Source(title="Two", url="https://example.org/two", note="the second")]

revisions = [revision(slug="added-article", title="Added", categories=["Misc", "New"],
                      excerpt="Added.", published="2024-03-01",
                      body=[paragraph("A batch added while serve runs, linking [home](/).")],
                      sources=SRC)]
"""
)


def edit(root: Path) -> None:
    replace_file(root, ARTICLE, live_batch("Edited while serving: the words of a second version."))


def add_batch(root: Path) -> None:
    replace_file(root, ADDED, ADDED_BATCH)


def delete_batch(root: Path) -> None:
    (root / OTHER).unlink()


def change_template(root: Path) -> None:
    card = (Path(site_builder.__file__).parent / "templates" / "_card.html").read_text("utf-8")
    changed = card.replace('<li class="card"', '<li data-changed="yes" class="card"', 1)
    assert changed != card, 'the card template no longer starts with its <li class="card">'
    (root / "templates").mkdir(exist_ok=True)
    replace_file(root, "templates/_card.html", changed)


CHANGES: list[tuple[str, Callable[[Path], None]]] = [
    ("an edit", edit),
    ("an added batch", add_batch),
    ("a deleted batch", delete_batch),
    ("a changed template", change_template),
]


def clean_build(root: Path, out: Path, env: dict[str, str]) -> dict[str, bytes]:
    command = [sys.executable, "-m", "site_builder", "build", "--root", str(root), "--out", str(out)]
    done = subprocess.run([*command, "--no-cache"], env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return tree(out)


def next_build(server: Server, what: str) -> None:
    """Wait for serve to say it built, then for it to go quiet (an editor's save may be seen
    as two changes: the second rebuild must be over before the folder is read)."""
    deadline = time.monotonic() + DEADLINE
    while not BUILT.match(line := server.next_line(deadline) or ""):
        assert line, f"serve did not rebuild after {what}:\n{server.output()}"
    while (line := server.next_line(time.monotonic() + 1.5)) is not None:
        assert not line.startswith(("articles/", "templates/")), server.output()


def test_serve_rebuilds_equal_a_clean_build_byte_for_byte(make_site: MakeSite, tmp_path: Path) -> None:
    root = make_site({ARTICLE: live_batch("The words first served."), OTHER: OTHER_BATCH})
    temp = tmp_path / "serve-tmp"
    temp.mkdir()
    env = {**os.environ, "TMPDIR": str(temp), "SOURCE_DATE_EPOCH": EPOCH}
    with serving(root, "--port", "0", env=env) as server:
        next_build(server, "starting")
        served = root / ".site-builder-cache" / "serve" / "site"
        steps = [("the first build", None), *CHANGES]
        for number, (what, change) in enumerate(steps):
            if change is not None:
                change(root)
                next_build(server, what)
            clean = clean_build(root, tmp_path / f"clean-{number}", env)
            assert searchable(tree(served)) == searchable(clean), (
                f"serve's site after {what} is not the clean build's"
            )
        assert "data-changed" in clean["index.html"].decode(), "the template change did not reach the page"
        assert "articles/other-article/index.html" not in clean
        assert "articles/added-article/index.html" in clean
