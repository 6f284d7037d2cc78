"""The build cache: a rebuild gives the bytes a clean build gives, and touches only what changed.

The site is the benchmark's corpus at a small size (90 revisions in 30 batches,
two search-index shards), so the cache, the shards and the list pages are all
exercised the way a large site uses them.
"""

from __future__ import annotations

import functools
import importlib.util
import os
import pickle
import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest
from conftest import RunCli

from site_builder.build.store import CACHE_DIR
from site_builder.search.shards import shard_count

BENCH = Path(__file__).parent.parent / "bench" / "corpus.py"
N = 90


@functools.cache
def corpus() -> ModuleType:
    """bench/corpus.py, imported once (its dataclasses need it in ``sys.modules``)."""
    spec = importlib.util.spec_from_file_location("bench_corpus", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_corpus"] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("corpus") / "site"
    root.mkdir()
    corpus().write_site_builder(root, N)
    return root


@pytest.fixture
def site(pristine: Path, tmp_path: Path) -> Path:
    root = tmp_path / "site"
    shutil.copytree(pristine, root)
    return root


def tree(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def stamps(folder: Path) -> dict[str, tuple[int, int]]:
    """(mtime, inode) of every file: a rewrite with the same bytes still shows here."""
    found = {}
    for p in folder.rglob("*"):
        if p.is_file():
            st = p.stat()
            found[p.relative_to(folder).as_posix()] = (st.st_mtime_ns, st.st_ino)
    return found


def clean_build(root: Path, run_cli: RunCli, tmp_path: Path) -> dict[str, bytes]:
    """What a build of the same input gives with no cache at all."""
    out = tmp_path / "clean"
    result = run_cli(["build", "--root", str(root), "--out", str(out), "--no-cache"])
    assert result.code == 0, result.err
    return tree(out)


def built(root: Path, run_cli: RunCli) -> str:
    result = run_cli(["build", "--root", str(root)])
    assert result.code == 0, result.err
    return result.err


def first_paragraph(root: Path, batch: str, words: str) -> None:
    path = root / "articles" / f"{batch}.py"
    text = path.read_text("utf-8")
    assert "paragraph(" in text
    path.write_text(text.replace("paragraph(", f"paragraph({words!r} + ", 1), "utf-8")


def test_the_corpus_spans_several_search_shards() -> None:
    assert shard_count(N // 3) >= 2


def test_a_rebuild_after_one_edit_equals_a_clean_build_and_rewrites_only_that_batch(
    site: Path, run_cli: RunCli, tmp_path: Path
) -> None:
    built(site, run_cli)
    before = stamps(site / "build")
    first_paragraph(site, "batch_00004", "Одно новое предложение. ")

    built(site, run_cli)

    assert tree(site / "build") == clean_build(site, run_cli, tmp_path)
    after = stamps(site / "build")
    edited = corpus().batches(N)
    slugs = {a.slug for number, articles in edited if number == 4 for a in articles}
    assert len(slugs) == 3
    for slug in sorted(slugs):  # the edited batch's pages were written again
        page = f"articles/{slug}/index.html"
        assert after[page] != before[page], page
    untouched = [
        p for p in after if p.startswith("articles/") and p.endswith(".html") and p.split("/")[1] not in slugs
    ]
    assert len(untouched) == N - 3
    assert all(after[p] == before[p] for p in untouched), "an unchanged page was written again"
    assert after["theme/style.css"] == before["theme/style.css"]


def test_a_build_with_nothing_changed_writes_nothing(site: Path, run_cli: RunCli) -> None:
    built(site, run_cli)
    before = stamps(site / "build")

    message = built(site, run_cli)

    assert message.startswith("nothing changed since the last build: 90 revisions"), message
    assert stamps(site / "build") == before


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(
            lambda root: (
                (root / "templates").mkdir()
                or (root / "templates/404.html").write_text(
                    '{% extends "base.html" %}{% block main %}<h1>Gone</h1>{% endblock %}', "utf-8"
                )
            ),
            id="a site template",
        ),
        pytest.param(
            lambda root: (root / "pyproject.toml").write_text(
                (root / "pyproject.toml").read_text("utf-8").replace('title = "', 'title = "New: ', 1),
                "utf-8",
            ),
            id="the site title",
        ),
        pytest.param(
            lambda root: (root / "articles/_shared.py").write_text("VALUE = 1\n", "utf-8"),
            id="a module beside the batches",
        ),
        pytest.param(lambda root: (root / "assets/extra.txt").write_text("more", "utf-8"), id="a new asset"),
        pytest.param(lambda root: (root / "articles/batch_00007.py").unlink(), id="a batch removed"),
        pytest.param(lambda root: shutil.rmtree(root / CACHE_DIR), id="the cache deleted"),
        pytest.param(
            lambda root: [
                p.write_bytes(b"not a pickle") for p in (root / CACHE_DIR).rglob("*") if p.is_file()
            ],
            id="a damaged cache",
        ),
        pytest.param(
            lambda root: (root / "build/index.html").write_text("edited by hand", "utf-8"),
            id="the output edited by hand",
        ),
        pytest.param(lambda root: (root / "build/sitemap.xml").unlink(), id="an output file deleted"),
    ],
)
def test_whatever_changed_the_next_build_equals_a_clean_build(
    change: Callable[[Path], object], site: Path, run_cli: RunCli, tmp_path: Path
) -> None:
    built(site, run_cli)
    change(site)

    message = built(site, run_cli)

    assert message.startswith("built "), message
    assert tree(site / "build") == clean_build(site, run_cli, tmp_path)


def test_a_template_change_reaches_every_page(site: Path, run_cli: RunCli) -> None:
    built(site, run_cli)
    (site / "templates").mkdir()
    base = (Path(__file__).parent.parent / "site_builder/templates/base.html").read_text("utf-8")
    (site / "templates/base.html").write_text(base.replace("<body>", '<body class="marked">'), "utf-8")

    built(site, run_cli)

    pages = [p for p in (site / "build").rglob("*.html") if "pagefind" not in p.parts]
    assert len(pages) > N
    assert all('<body class="marked">' in p.read_text("utf-8") for p in pages)


def test_no_cache_neither_reads_nor_writes_the_cache(site: Path, run_cli: RunCli) -> None:
    result = run_cli(["build", "--root", str(site), "--no-cache"])
    assert result.code == 0, result.err
    assert not (site / CACHE_DIR).exists()
    built(site, run_cli)
    (site / CACHE_DIR / "batches").chmod(0o000)  # unreadable: --no-cache must not even look
    try:
        result = run_cli(["build", "--root", str(site), "--no-cache"])
    finally:
        (site / CACHE_DIR / "batches").chmod(0o755)
    assert result.code == 0, result.err
    assert result.err.startswith("built "), result.err


def test_validate_and_revisions_read_the_cache_but_never_write_it(site: Path, run_cli: RunCli) -> None:
    assert run_cli(["validate", "--root", str(site)]).code == 0
    assert not (site / CACHE_DIR).exists()
    cold = run_cli(["revisions", "--root", str(site)])
    assert cold.code == 0 and not (site / CACHE_DIR).exists()
    built(site, run_cli)
    entries = sorted(p.name for p in (site / CACHE_DIR / "batches").iterdir())

    warm = run_cli(["revisions", "--root", str(site)])
    one = run_cli(["revisions", "--root", str(site), "--indent", "0", "--slug", cold_slug(cold.out)])

    assert warm.out == cold.out
    assert one.code == 0 and one.out.count('"slug"') == 1
    assert run_cli(["validate", "--root", str(site)]).code == 0
    assert sorted(p.name for p in (site / CACHE_DIR / "batches").iterdir()) == entries


def cold_slug(revisions_json: str) -> str:
    import json

    return str(json.loads(revisions_json)[5]["slug"])


def test_a_failing_batch_is_never_kept(site: Path, run_cli: RunCli) -> None:
    built(site, run_cli)
    kept = set((site / CACHE_DIR / "batches").iterdir())
    path = site / "articles/batch_00002.py"
    path.write_text(
        path.read_text("utf-8").replace('"checks": {', '"checks": {"broken": False, ', 1), "utf-8"
    )

    result = run_cli(["build", "--root", str(site)])

    assert result.code == 1
    assert "fixture" in result.err
    new = set((site / CACHE_DIR / "batches").iterdir()) - kept
    assert new == set(), sorted(p.name for p in new)


def test_a_cached_summary_holds_no_page_bytes(site: Path, run_cli: RunCli) -> None:
    built(site, run_cli)
    entries = [p for p in (site / CACHE_DIR / "batches").iterdir() if "." not in p.name]
    assert len(entries) == N // 3
    summary = pickle.loads(entries[0].read_bytes())
    assert summary.texts.path.name == f"{entries[0].name}.text"  # long texts live beside it
    assert summary.pages is not None and len(summary.pages) == 3  # the batch's three articles
    assert all(len(sha) == 64 for sha in summary.pages.values())


def test_a_search_file_edited_in_place_in_the_output_is_never_published_again(
    site: Path, run_cli: RunCli, tmp_path: Path
) -> None:
    """The cache's bundle is the same file (a hard link): its hashes catch the edit."""
    built(site, run_cli)
    shard = next((site / "build/pagefind").glob("shard-*/pagefind-entry.json"))
    with open(shard, "r+b") as file:  # in place: the same inode
        file.write(b"{ damaged")
    first_paragraph(site, "batch_00004", "Правка. ")

    built(site, run_cli)

    assert tree(site / "build") == clean_build(site, run_cli, tmp_path)


def test_rebuild_after_rebuild_each_equals_a_clean_build(site: Path, run_cli: RunCli, tmp_path: Path) -> None:
    """From the third build on, the site before last is brought up to date in place of a
    fresh folder: what it held of an older site must never survive."""
    steps: list[Callable[[Path], object]] = [
        lambda root: None,
        lambda root: first_paragraph(root, "batch_00004", "Раз. "),
        lambda root: first_paragraph(root, "batch_00011", "Два. "),
        lambda root: (root / "articles/batch_00007.py").unlink(),  # its pages must go
        lambda root: (root / "assets/extra.txt").write_text("more", "utf-8"),
        lambda root: (root / "assets/extra.txt").unlink(),
        lambda root: first_paragraph(root, "batch_00004", "Три. "),
    ]
    for number, step in enumerate(steps):
        step(site)
        message = built(site, run_cli)
        assert message.startswith("built "), (number, message)
        assert tree(site / "build") == clean_build(site, run_cli, tmp_path / str(number)), number
    assert (site / CACHE_DIR / "spare").is_dir()
    assert not any(p.name.startswith(".build") for p in site.iterdir())


def _slug(number: int) -> str:
    return next(a.slug for n, articles in corpus().batches(N) if n == number for a in articles)


def test_a_link_into_a_page_is_checked_again_when_only_that_page_changed(site: Path, run_cli: RunCli) -> None:
    """The check looks again at changed pages and at the pages linking into them with a
    #fragment; an unchanged page whose target lost its id must still fail the build."""
    target = _slug(1)
    heading_text = "Якорь для ссылки"
    first_paragraph(site, "batch_00001", "")
    path = site / "articles/batch_00001.py"
    path.write_text(
        path.read_text("utf-8").replace("paragraph('' + ", f"heading({heading_text!r}), paragraph(", 1),
        "utf-8",
    )
    built(site, run_cli)
    page = (site / "build/articles" / target / "index.html").read_text("utf-8")
    anchor = page.split(f">{heading_text}</h2>")[0].rsplit('id="', 1)[1].split('"')[0]
    first_paragraph(site, "batch_00002", f"См. [раздел](/articles/{target}/#{anchor}). ")
    built(site, run_cli)  # the link resolves

    path.write_text(path.read_text("utf-8").replace(heading_text, "Другой заголовок", 1), "utf-8")
    result = run_cli(["build", "--root", str(site)])

    assert result.code == 1, result.err
    assert "no element with id" in result.err
    assert f"build/articles/{_slug(2)}/index.html" in result.err  # the page that links: unchanged


def test_the_link_check_looks_again_only_at_what_may_have_changed() -> None:
    from site_builder.build.link_memory import link_context, links_after, to_check
    from site_builder.check.linkcheck import scan_page

    pages = {
        "a/index.html": '<a href="/b/#x">b</a> <a href="/c/">c</a>',
        "b/index.html": '<h2 id="x">x</h2>',
        "c/index.html": '<a href="#top">top</a><p id="top"></p>',
    }
    files = set(pages)
    scanned = {path: scan_page(text) for path, text in pages.items()}
    hashes = {path: str(len(text)) for path, text in pages.items()}
    context = link_context("package", files, "build")
    first = links_after(None, None, scanned, files, hashes, "site-1", context)
    assert first.fragments == {"b/index.html": frozenset({"a/index.html"})}  # "#top" stays on its page

    assert to_check(first, context, hashes) == set()
    assert to_check(first, context, hashes | {"b/index.html": "changed"}) == {"b/index.html", "a/index.html"}
    assert to_check(first, context, hashes | {"a/index.html": "changed"}) == {"a/index.html"}
    assert to_check(first, link_context("package", files | {"d.txt"}, "build"), hashes) is None
    assert to_check(first, link_context("other package", files, "build"), hashes) is None
    assert to_check(None, context, hashes) is None

    scanned["a/index.html"] = scan_page('<a href="/c/">c</a>')  # a no longer links into b
    second = links_after(first, {"a/index.html"}, scanned, files, hashes, "site-2", context)
    assert second.fragments == {}


def test_joined_files_are_the_same_where_the_kernel_cannot_copy(
    site: Path, run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """revisions.json and the feed are copied from the batches' files by copy_file_range;
    where that fails (another file system, an old kernel) they go through memory instead."""
    expected = clean_build(site, run_cli, tmp_path / "kernel")
    calls = []

    def unsupported(*args: object, **kwargs: object) -> int:
        calls.append(args)
        raise OSError(18, "Invalid cross-device link")

    monkeypatch.setattr(os, "copy_file_range", unsupported)
    assert clean_build(site, run_cli, tmp_path / "memory") == expected
    assert len(calls) == N // 3 + 50  # every batch's fragment and each of the feed's 50 entries
