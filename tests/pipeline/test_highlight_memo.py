"""A rebuild takes each code block's highlighted form from the last build of its batch, rather
than highlighting it again: a worker process compiles a lexer's rules at its first block, which
an edit of the prose alone then skips (issue 34). What a page shows is what a clean build shows."""

from __future__ import annotations

import os
from pathlib import Path

import pygments
import pytest

from site_builder.pipeline.worker.texts import Texts, highlighted_in
from site_builder.render import highlight
from tests.support.sites import HEADER, MakeSite, RunCli, searchable, tree

BATCH = (
    HEADER
    + """
PY = "def total(values):\\n    return sum(v * 2 for v in values)  # < & >"
SQL = "SELECT name, count(*) FROM runs WHERE ok = 1 GROUP BY name;"

revisions = [
    revision(
        slug="with-code",
        title="Code",
        published="2026-01-01",
        categories=["Code"],
        excerpt="Blocks of code.",
        body=[
            paragraph("PROSE The first paragraph, long enough for the rules."),
            code_block(PY, language="python"),
            paragraph("Between the blocks."),
            code_block(SQL, language="sql"),
            code_block("plain text, no language"),
        ],
        sources=[
            Source(title="A", url="https://a.example/", note="a"),
            Source(title="B", url="https://b.example/", note="b"),
        ],
    ),
]
"""
)

BLOCKS = 2
"""Code blocks with a language: the ones Pygments highlights."""


@pytest.fixture
def counted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Pygments' ``highlight`` counted, one line per call in this file, by whichever process
    calls it (a build's workers are forks of this process, with the count in place)."""
    log = tmp_path / "highlighted.log"
    real = highlight.highlight

    def counting(code: str, lexer: object, formatter: object) -> str:
        with open(log, "a", encoding="utf-8") as file:
            file.write(f"{os.getpid()}\n")
        return real(code, lexer, formatter)  # type: ignore[arg-type]

    monkeypatch.setattr(highlight, "highlight", counting)
    highlight._highlighted.cache_clear()  # no block known to this process already
    return log


def calls(log: Path) -> int:
    """Blocks highlighted since the last look (the log emptied)."""
    if not log.exists():
        return 0
    count = len(log.read_text("utf-8").splitlines())
    log.unlink()
    return count


def build(run_cli: RunCli, root: Path, *args: str) -> None:
    result = run_cli(["build", "--root", str(root), *args])
    assert result.code == 0, result.err


def edit(root: Path, old: str, new: str) -> None:
    path = root / "articles" / "code.py"
    text = path.read_text("utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), "utf-8")


def built_once(make_site: MakeSite, run_cli: RunCli, counted: Path) -> Path:
    """The site of :data:`BATCH`, built: every block highlighted once."""
    root = make_site({"articles/code.py": BATCH})
    build(run_cli, root)
    assert calls(counted) == BLOCKS
    return root


def same_as_clean(run_cli: RunCli, root: Path, tmp_path: Path, name: str) -> None:
    build(run_cli, root, "--no-cache", "--out", str(tmp_path / name))
    assert searchable(tree(root / "build")) == searchable(tree(tmp_path / name))


def test_a_prose_edit_highlights_no_block_and_a_code_edit_only_that_block(
    make_site: MakeSite, run_cli: RunCli, counted: Path, tmp_path: Path
) -> None:
    root = built_once(make_site, run_cli, counted)
    page = (root / "build/articles/with-code/index.html").read_text("utf-8")
    assert page.count('<pre class="highlight"') == BLOCKS and "&lt; &amp; &gt;" in page

    edit(root, "PROSE", "Edited prose.")  # right after the build: its stamp holds no stat to trust
    build(run_cli, root)
    assert calls(counted) == 0, "a block of the batch was highlighted again after a prose edit"
    same_as_clean(run_cli, root, tmp_path, "clean-1")
    assert calls(counted) == BLOCKS  # the clean build (no cache) highlights them all

    edit(root, "GROUP BY name;", "GROUP BY name ORDER BY name;")
    build(run_cli, root)
    assert calls(counted) == 1, "only the edited block is highlighted"
    same_as_clean(run_cli, root, tmp_path, "clean-2")


def test_blocks_highlighted_by_another_pygments_are_highlighted_again(
    make_site: MakeSite, run_cli: RunCli, counted: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = built_once(make_site, run_cli, counted)
    monkeypatch.setattr(pygments, "__version__", "0.0-another")
    edit(root, "PROSE", "Edited prose.")
    build(run_cli, root)
    assert calls(counted) == BLOCKS


def test_a_damaged_texts_file_is_highlighted_afresh(
    make_site: MakeSite, run_cli: RunCli, counted: Path, tmp_path: Path
) -> None:
    root = built_once(make_site, run_cli, counted)
    (texts,) = (root / ".site-builder-cache" / "batches").glob("*.text")
    texts.write_bytes(texts.read_bytes()[:-3])
    edit(root, "PROSE", "Edited prose.")
    build(run_cli, root)
    assert calls(counted) == BLOCKS
    same_as_clean(run_cli, root, tmp_path, "clean")


def test_a_texts_file_gives_back_the_blocks_written_at_its_end(tmp_path: Path) -> None:
    path = tmp_path / "batch.text"
    blocks = {"k1": '<pre class="highlight">one</pre>', "k2": "<pre>two</pre>"}
    texts = Texts.write(path, b"[]", [b"<entry/>"], {}, {"body": 1}, blocks)
    assert highlighted_in(path) == blocks
    assert texts.fragment() == b"[]" and texts.body() == {"body": 1}  # the texts read as before
    Texts.write(path, b"[]", [], {}, None)
    assert highlighted_in(path) == {}
    assert highlighted_in(tmp_path / "missing.text") == {}
    path.write_bytes(b"no trailer here")
    assert highlighted_in(path) == {}
