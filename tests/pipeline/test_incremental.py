"""The build cache: a rebuild gives the bytes a clean build gives, and touches only what changed.

The site is the benchmark's corpus at a small size (51 revisions in 17 batches: two
search-index shards, and one revision more than the feed's 50 entries), so the cache, the
shards and the list pages are all exercised the way a large site uses them; every test
builds it several times, so each revision more costs the module seconds. A test that starts
from a built site takes a copy of one first build (``built_site``, tests/support/corpus.py).
"""

from __future__ import annotations

import dataclasses
import os
import pickle
import shutil
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

import pytest

from site_builder.pipeline.built import Built
from site_builder.pipeline.cache.store import CACHE_DIR, CacheFolder
from site_builder.pipeline.plan import plan_build
from site_builder.pipeline.staging.written import Written
from site_builder.pipeline.steps import build
from site_builder.search.shards import shard_count
from site_builder.settings.project import Project, Settings
from tests.support import drafts_site
from tests.support.corpus import CleanBuild, N, copied, corpus, uncached_build
from tests.support.drafts_site import BUILD_DATE, DRAFT, DUE, LATER, PUBLISHED, epoch
from tests.support.sites import MakeSite, RunCli, searchable, tree


@pytest.fixture
def site(pristine: Path, tmp_path: Path) -> Path:
    """A copy of the corpus, never built."""
    return copied(pristine, tmp_path)


def stamps(folder: Path) -> dict[str, tuple[int, int]]:
    """(mtime, inode) of every file: a rewrite with the same bytes still shows here."""
    found = {}
    for p in folder.rglob("*"):
        if p.is_file():
            st = p.stat()
            found[p.relative_to(folder).as_posix()] = (st.st_mtime_ns, st.st_ino)
    return found


def built(root: Path, run_cli: RunCli) -> str:
    result = run_cli(["build", "--root", str(root)])
    assert result.code == 0, result.err
    return result.err


def first_paragraph(root: Path, batch: str, words: str) -> None:
    path = root / "articles" / f"{batch}.py"
    text = path.read_text("utf-8")
    assert "paragraph(" in text
    path.write_text(text.replace("paragraph(", f"paragraph({words!r} + ", 1), "utf-8")


def test_the_corpus_spans_several_search_shards_and_outgrows_the_feed() -> None:
    assert shard_count(N // 3) >= 2
    assert Settings().feed_limit < N


def test_a_rebuild_after_one_edit_equals_a_clean_build_and_rewrites_only_that_batch(
    built_site: Path, run_cli: RunCli, tmp_path: Path, clean_build: CleanBuild
) -> None:
    site = built_site
    before = stamps(site / "build")
    first_paragraph(site, "batch_00004", "Одно новое предложение. ")

    built(site, run_cli)

    assert searchable(tree(site / "build")) == clean_build(site, run_cli, tmp_path)
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


def test_a_build_with_nothing_changed_writes_nothing(built_site: Path, run_cli: RunCli) -> None:
    site = built_site
    before = stamps(site / "build")

    message = built(site, run_cli)

    assert message.startswith(f"nothing changed since the last build: {N} revisions"), message
    assert stamps(site / "build") == before


@pytest.mark.parametrize(
    ("change", "in_place"),
    [
        pytest.param(
            lambda root: (
                (root / "templates").mkdir()
                or (root / "templates/404.html").write_text(
                    '{% extends "base.html" %}{% block main %}<h1>Gone</h1>{% endblock %}', "utf-8"
                )
            ),
            False,
            id="a site template",
        ),
        pytest.param(
            lambda root: (root / "pyproject.toml").write_text(
                (root / "pyproject.toml").read_text("utf-8").replace('title = "', 'title = "New: ', 1),
                "utf-8",
            ),
            False,
            id="the site title",
        ),
        pytest.param(
            lambda root: (root / "articles/_shared.py").write_text("VALUE = 1\n", "utf-8"),
            False,
            id="a module beside the batches",
        ),
        pytest.param(
            lambda root: (root / "assets/extra.txt").write_text("more", "utf-8"), False, id="a new asset"
        ),
        pytest.param(lambda root: (root / "articles/batch_00007.py").unlink(), False, id="a batch removed"),
        pytest.param(lambda root: shutil.rmtree(root / CACHE_DIR), False, id="the cache deleted"),
        pytest.param(
            lambda root: [
                p.write_bytes(b"not a pickle") for p in (root / CACHE_DIR).rglob("*") if p.is_file()
            ],
            True,
            id="a damaged cache",
        ),
        pytest.param(
            lambda root: (root / "build/index.html").write_text("edited by hand", "utf-8"),
            True,
            id="the output edited by hand",
        ),
        pytest.param(lambda root: (root / "build/sitemap.xml").unlink(), False, id="an output file deleted"),
    ],
)
def test_whatever_changed_the_next_build_equals_a_clean_build(
    change: Callable[[Path], object],
    in_place: bool,
    request: pytest.FixtureRequest,
    run_cli: RunCli,
    tmp_path: Path,
    clean_build: CleanBuild,
) -> None:
    """A change written in place into the output or the cache is made to a site built by the
    test itself: the copies of the first build share those files (:class:`FirstBuild`)."""
    if in_place:
        site = request.getfixturevalue("site")
        built(site, run_cli)
    else:
        site = request.getfixturevalue("built_site")
    change(site)

    message = built(site, run_cli)

    assert message.startswith("built "), message
    assert searchable(tree(site / "build")) == clean_build(site, run_cli, tmp_path)


def test_a_template_change_reaches_every_page(built_site: Path, run_cli: RunCli) -> None:
    site = built_site
    (site / "templates").mkdir()
    base = (Path(__file__).parents[2] / "site_builder/templates/base.html").read_text("utf-8")
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


def test_a_failing_batch_is_never_kept(built_site: Path, run_cli: RunCli) -> None:
    site = built_site
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


def test_a_cached_summary_holds_no_page_bytes(built_site: Path, run_cli: RunCli) -> None:
    site = built_site
    entries = [p for p in (site / CACHE_DIR / "batches").iterdir() if "." not in p.name]
    assert len(entries) == N // 3
    summary = pickle.loads(entries[0].read_bytes())
    assert summary.texts.path.name == f"{entries[0].name}.text"  # long texts live beside it
    assert summary.pages is not None and len(summary.pages) == 3  # the batch's three articles
    assert all(len(sha) == 64 for sha in summary.pages.values())


def test_a_search_file_edited_in_place_in_the_output_is_never_published_again(
    site: Path, run_cli: RunCli, tmp_path: Path, clean_build: CleanBuild
) -> None:
    """The cache's bundle is the same file (a hard link): its hashes catch the edit."""
    built(site, run_cli)
    entry = site / "build/pagefind/pagefind-entry.json"  # of the shards joined into one bundle
    with open(entry, "r+b") as file:  # in place: the same inode
        file.write(b"{ damaged")
    first_paragraph(site, "batch_00004", "Правка. ")

    built(site, run_cli)

    assert searchable(tree(site / "build")) == clean_build(site, run_cli, tmp_path)


def test_rebuild_after_rebuild_each_equals_a_clean_build(
    site: Path, run_cli: RunCli, tmp_path: Path, clean_build: CleanBuild
) -> None:
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
        assert searchable(tree(site / "build")) == clean_build(site, run_cli, tmp_path / str(number)), number
    assert (site / CACHE_DIR / "spare").is_dir()
    assert not any(p.name.startswith(".build") for p in site.iterdir())


def test_a_failed_build_puts_the_spare_back_and_the_next_build_trusts_none_of_what_it_changed(
    built_site: Path, run_cli: RunCli, tmp_path: Path, clean_build: CleanBuild
) -> None:
    """A build that fails after bringing the spare partly up to date renames it back (deleting
    a large site took seconds): the files it wrote or linked there are not the spare's record's."""
    site = built_site
    first_paragraph(site, "batch_00004", "Раз. ")
    built(site, run_cli)  # now the cache keeps a spare
    spare = next((site / CACHE_DIR / "spare").iterdir())
    first_paragraph(site, "batch_00004", "Два. ")
    first_paragraph(site, "batch_00011", "Два. ")
    path = site / "articles/batch_00002.py"
    good = path.read_text("utf-8")
    path.write_text(good.replace('"checks": {', '"checks": {"broken": False, ', 1), "utf-8")

    failed = run_cli(["build", "--root", str(site)])

    assert failed.code == 1, failed.err
    assert spare.is_dir(), "the failed build deleted the spare"
    assert not any(p.name.startswith(".build") for p in site.iterdir())
    path.write_text(good, "utf-8")
    built(site, run_cli)
    assert searchable(tree(site / "build")) == clean_build(site, run_cli, tmp_path)


def _serve_builds(site: Path) -> Callable[[], Built]:
    """Builds of ``site`` into serve's folder as ``serve`` runs them: one cache kept in memory."""
    store = CacheFolder.in_memory(site)
    out = site / CACHE_DIR / "serve" / "site"
    return lambda: build(plan_build(Project.read(site), out, store=store))


def test_serve_takes_its_spare_at_its_word_for_one_build_and_not_after_a_failed_one(
    built_site: Path,
    run_cli: RunCli,
    tmp_path: Path,
    clean_build: CleanBuild,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Only serve's builds write serve's folder and its spare, so a rebuild takes the spare's
    record as true without a ``stat`` of each kept page; a serve started anew (it has no word of
    its own to go by) looks at every one. A build that fails puts the spare back with what it
    wrote there: the next build looks again, and does not publish the failed build's page where
    the record has another."""
    site = built_site
    looked: list[str] = []
    lists = Written.lists
    monkeypatch.setattr(
        Written, "lists", lambda self, path, relative: looked.append(relative) or lists(self, path, relative)
    )

    def pages_looked_at(rebuild: Callable[[], Built]) -> int:
        looked.clear()
        assert not rebuild().problems
        return sum(name.startswith("articles/") and name.endswith("/index.html") for name in looked)

    rebuild = _serve_builds(site)
    rebuild()  # serve's first build: a new folder
    first_paragraph(site, "batch_00011", "Раз. ")
    rebuild()  # now the site of the first is the spare
    first_paragraph(site, "batch_00004", "Раз. ")
    vouched = pages_looked_at(rebuild)
    first_paragraph(site, "batch_00004", "Два. ")
    rebuild = _serve_builds(site)  # serve stopped and started again
    restarted = pages_looked_at(rebuild)
    one_batch = 3  # pages: the corpus has N revisions in 17 batches
    assert vouched <= one_batch and restarted >= N - one_batch, (vouched, restarted)

    edited, linking = site / "articles/batch_00011.py", site / "articles/batch_00002.py"
    as_kept, good = edited.read_text("utf-8"), linking.read_text("utf-8")
    first_paragraph(site, "batch_00011", "Три. ")
    first_paragraph(site, "batch_00002", "[Нет](/articles/no-such-article/). ")
    assert rebuild().problems  # the site's judgement fails once the batches' pages are in the spare
    edited.write_text(as_kept, "utf-8")  # what the spare's record lists, not what it now holds
    linking.write_text(good, "utf-8")
    first_paragraph(site, "batch_00007", "Раз. ")  # else the live site is the one to build
    assert not rebuild().problems
    assert searchable(tree(site / CACHE_DIR / "serve" / "site")) == clean_build(site, run_cli, tmp_path)


def _slug(number: int) -> str:
    return next(a.slug for n, articles in corpus().batches(N) if n == number for a in articles)


def test_a_link_into_a_page_is_checked_again_when_only_that_page_changed(
    site: Path, run_cli: RunCli, tmp_path: Path
) -> None:
    """Batch B links to a heading of article A; A's heading is renamed in an edit. B is
    unchanged (its summary comes from the cache), yet the rebuild reports B's link at the
    line B wrote it, exactly as a clean build and ``validate`` do."""
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
    clean = run_cli(["build", "--root", str(site), "--out", str(tmp_path / "clean"), "--no-cache"])
    checked = run_cli(["validate", "--root", str(site)])

    linking = (site / "articles/batch_00002.py").read_text("utf-8").splitlines()
    line = next(n for n, text in enumerate(linking, 1) if "См. [раздел]" in text)
    url = f"/articles/{target}/#{quote(anchor)}"  # as the Markdown renderer writes the link
    expected = [
        f"articles/batch_00002.py:{line}: {_slug(2)}: "
        f"{url!r}: no element with id {anchor!r} on /articles/{target}/",
        "1 problem found",
    ]
    assert result.code == clean.code == checked.code == 1, result.err
    assert result.err.splitlines()[:2] == clean.err.splitlines()[:2] == expected
    assert checked.err.splitlines() == expected


def test_the_link_check_looks_again_only_at_what_may_have_changed() -> None:
    from site_builder.model.page_scan import scan_page
    from site_builder.pipeline.cache.link_memory import link_context, links_after, to_check

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
    expected = uncached_build(site, run_cli, tmp_path / "kernel")
    calls = []

    def unsupported(*args: object, **kwargs: object) -> int:
        calls.append(args)
        raise OSError(18, "Invalid cross-device link")

    monkeypatch.setattr(os, "copy_file_range", unsupported)
    assert uncached_build(site, run_cli, tmp_path / "memory") == expected
    assert len(calls) == N // 3 + 50  # every batch's fragment and each of the feed's 50 entries


def _edited_and_built(
    site: Path, batch: str, words: str, run_cli: RunCli, monkeypatch: pytest.MonkeyPatch
) -> list[str]:
    """Edit ``batch``, build: the source file of each ``copy_file_range`` into revisions.json."""
    first_paragraph(site, batch, words)
    sources: list[str] = []
    real = os.copy_file_range

    def recorded(source: int, target: int, count: int, *args: int) -> int:
        if os.readlink(f"/proc/self/fd/{target}").endswith("/revisions.json"):
            sources.append(os.readlink(f"/proc/self/fd/{source}"))
        return real(source, target, count, *args)

    monkeypatch.setattr(os, "copy_file_range", recorded)
    built(site, run_cli)
    monkeypatch.undo()
    return sources


def test_revisions_json_is_copied_from_the_live_site_in_ranges_unless_it_was_edited(
    site: Path, run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clean_build: CleanBuild
) -> None:
    """An edit of one batch takes the runs of batches before and after it from the live
    revisions.json (one range each), and the edited batch's part from its texts; a live file
    that is not the one the last build wrote, or a layout of another shape, is never used:
    every part comes from the texts."""
    live = str((site / "build" / "revisions.json").resolve())
    built(site, run_cli)
    sources = _edited_and_built(site, "batch_00004", "Одно новое предложение. ", run_cli, monkeypatch)
    assert searchable(tree(site / "build")) == clean_build(site, run_cli, tmp_path / "first")
    assert sources.count(live) == 2 and len(sources) == 3, sources

    text = (site / "build" / "revisions.json").read_bytes()
    with open(site / "build" / "revisions.json", "r+b") as file:  # in place: same size, same inode
        file.write(text.replace("Одно".encode(), "Ондо".encode()))
    sources = _edited_and_built(site, "batch_00005", "Ещё одно предложение. ", run_cli, monkeypatch)
    assert live not in sources and len(sources) == N // 3
    assert searchable(tree(site / "build")) == clean_build(site, run_cli, tmp_path / "second")

    (layout,) = (site / CACHE_DIR / "joined").iterdir()
    layout.write_bytes(pickle.dumps((("a", "b", "c"),)))
    sources = _edited_and_built(site, "batch_00006", "И ещё одно. ", run_cli, monkeypatch)
    assert live not in sources and len(sources) == N // 3
    assert searchable(tree(site / "build")) == clean_build(site, run_cli, tmp_path / "third")


def _def_line(root: Path, batch: str) -> int:
    lines = (root / "articles" / f"{batch}.py").read_text("utf-8").splitlines()
    return lines.index("def checksum() -> dict:") + 1


def test_the_marks_follow_repo_url_and_the_line_of_the_fixture_s_def(
    built_site: Path, run_cli: RunCli, tmp_path: Path, clean_build: CleanBuild
) -> None:
    """A verified output's mark links to its fixture's ``def`` line when the site sets
    ``repo_url``: the setting and the line are inputs of the page."""
    site = built_site
    page = site / "build/articles" / _slug(4) / "index.html"
    settings = site / "pyproject.toml"
    assert '<a href="#fixture-checksum">' in page.read_text("utf-8")

    settings.write_text(settings.read_text("utf-8") + 'repo_url = "https://github.com/me/site"\n', "utf-8")
    built(site, run_cli)
    line = _def_line(site, "batch_00004")
    assert f'href="https://github.com/me/site/blob/main/articles/batch_00004.py#L{line}"' in page.read_text(
        "utf-8"
    )
    assert searchable(tree(site / "build")) == clean_build(site, run_cli, tmp_path / "repo_url")

    batch = site / "articles/batch_00004.py"
    batch.write_text(
        batch.read_text("utf-8").replace("@fixture\n", "# two lines\n# down\n@fixture\n"), "utf-8"
    )
    built(site, run_cli)
    assert _def_line(site, "batch_00004") == line + 2
    text = page.read_text("utf-8")
    assert f"batch_00004.py#L{line + 2}" in text and f"batch_00004.py#L{line}" not in text
    assert searchable(tree(site / "build")) == clean_build(site, run_cli, tmp_path / "moved")

    settings.write_text(settings.read_text("utf-8").replace("github.com/me", "github.com/you"), "utf-8")
    built(site, run_cli)
    assert (
        f'href="https://github.com/you/site/blob/main/articles/batch_00004.py#L{line + 2}"'
        in page.read_text("utf-8")
    )
    assert searchable(tree(site / "build")) == clean_build(site, run_cli, tmp_path / "another")


# --- the build's date and --drafts / --future: inputs like any other ------------------------------


@pytest.fixture
def scheduled(make_site: MakeSite, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A site with a published revision, a draft (beside it, in one batch) and one scheduled for DUE."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch(BUILD_DATE))
    return make_site(drafts_site.FILES)


def built_with(root: Path, run_cli: RunCli, *flags: str) -> str:
    result = run_cli(["build", "--root", str(root), *flags])
    assert result.code == 0, result.err
    return result.err


def clean_with(root: Path, run_cli: RunCli, out: Path, *flags: str) -> dict[str, bytes]:
    """What a build of the same input, on the same date, with the same flags gives with no cache
    (its search index as what a reader finds)."""
    result = run_cli(["build", "--root", str(root), "--out", str(out), "--no-cache", *flags])
    assert result.code == 0, result.err
    return searchable(tree(out))


@pytest.mark.parametrize(
    "flags", [[], ["--future"], ["--drafts", "--future"]], ids=["default", "future", "both"]
)
def test_the_date_reaching_a_scheduled_revision_gives_what_a_clean_build_gives(
    scheduled: Path, run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, flags: list[str]
) -> None:
    built_with(scheduled, run_cli, *flags)
    before = stamps(scheduled / "build")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch(DUE))

    message = built_with(scheduled, run_cli, *flags)

    assert message.startswith("built "), message
    assert f"due {DUE}" not in message
    assert searchable(tree(scheduled / "build")) == clean_with(scheduled, run_cli, tmp_path / "clean", *flags)
    assert (scheduled / f"build/articles/{LATER}/index.html").is_file()
    page = f"articles/{PUBLISHED}/index.html"  # its batch shows the same on either date: kept
    assert stamps(scheduled / "build")[page] == before[page]


def test_a_date_short_of_the_next_scheduled_revision_changes_nothing(
    scheduled: Path, run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    built_with(scheduled, run_cli)
    before = stamps(scheduled / "build")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch(DUE, -1))

    message = built_with(scheduled, run_cli)

    assert message.startswith("nothing changed since the last build: 1 revision, 5 pages in "), message
    assert message.endswith(
        f"left out 1 draft and 1 scheduled revision (due {DUE}); --drafts / --future include them\n"
    )
    assert stamps(scheduled / "build") == before
    assert searchable(tree(scheduled / "build")) == clean_with(scheduled, run_cli, tmp_path / "clean")


def test_a_date_before_a_published_revision_leaves_it_out_as_a_clean_build_does(
    scheduled: Path, run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    built_with(scheduled, run_cli)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch("2020-06-17"))

    message = built_with(scheduled, run_cli)

    assert message.endswith(
        "left out 1 draft and 2 scheduled revisions (the next is due 2020-06-18);"
        " --drafts / --future include them\n"
    )
    assert searchable(tree(scheduled / "build")) == clean_with(scheduled, run_cli, tmp_path / "clean")
    assert not (scheduled / "build/articles").exists()


def test_a_draft_made_public_gives_what_a_clean_build_gives(
    scheduled: Path, run_cli: RunCli, tmp_path: Path
) -> None:
    built_with(scheduled, run_cli)
    path = scheduled / "articles/main.py"
    path.write_text(path.read_text("utf-8").replace("draft=True", "draft=False"), "utf-8")

    message = built_with(scheduled, run_cli)

    assert message.endswith(f"left out 1 scheduled revision (due {DUE}); --future includes it\n")
    assert searchable(tree(scheduled / "build")) == clean_with(scheduled, run_cli, tmp_path / "clean")
    assert 'class="status' not in (scheduled / f"build/articles/{DRAFT}/index.html").read_text("utf-8")


def test_the_flags_on_and_off_each_give_what_a_clean_build_gives(
    scheduled: Path, run_cli: RunCli, tmp_path: Path
) -> None:
    for number, flags in enumerate([[], ["--drafts"], ["--drafts", "--future"], ["--future"], [], []]):
        message = built_with(scheduled, run_cli, *flags)
        expected = "nothing changed since the last build:" if number == 5 else "built "
        assert message.startswith(expected), (flags, message)
        assert searchable(tree(scheduled / "build")) == clean_with(
            scheduled, run_cli, tmp_path / str(number), *flags
        ), flags


def test_a_later_build_date_alone_rebuilds_nothing(
    site: Path, run_cli: RunCli, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No revision of the corpus is scheduled: a build on the next day (or next year) has nothing to do."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch("2025-01-01"))  # after the corpus' last date
    built(site, run_cli)
    before = stamps(site / "build")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch("2026-01-01"))

    message = built(site, run_cli)

    assert message.startswith(f"nothing changed since the last build: {N} revisions"), message
    assert stamps(site / "build") == before


def test_a_site_publishing_nothing_yet_is_dated_anew_each_day(
    make_site: MakeSite, run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With no article to date them, the feed and the sitemap carry the build's date."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch(BUILD_DATE))
    only_draft = drafts_site.MAIN.replace("revisions = [published, draft]", "revisions = [draft]")
    root = make_site({"articles/main.py": only_draft})
    built_with(root, run_cli)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch(BUILD_DATE, 86400))

    message = built_with(root, run_cli)

    assert message.startswith("built 0 revisions"), message
    assert "<updated>2024-01-02T00:00:00Z</updated>" in (root / "build/feed.xml").read_text("utf-8")
    assert searchable(tree(root / "build")) == clean_with(root, run_cli, tmp_path / "clean")


def _records(root: Path) -> dict[str, object]:
    """The cache's records of what each output folder (and its spare) holds, by file name."""
    return {p.name: pickle.loads(p.read_bytes()) for p in (root / CACHE_DIR / "outputs").iterdir()}


def test_a_page_missing_from_the_spare_and_from_its_record_is_written_again(
    built_site: Path, run_cli: RunCli, tmp_path: Path, clean_build: CleanBuild
) -> None:
    """A record that names a page's hash but not its file (what a build that lost the page
    once would leave) must never vouch for the page's absence: a missing file is never one a
    record lists, and the next build writes the page again."""
    site = built_site
    first_paragraph(site, "batch_00004", "Раз. ")
    built(site, run_cli)  # now the cache keeps a spare, the site before the live one
    page = f"articles/{_slug(11)}/index.html"
    (name, held), *_ = ((n, r) for n, r in _records(site).items() if n.endswith(".spare"))
    assert page in held.hashes and page in held.files  # type: ignore[attr-defined]
    del held.files[page]  # type: ignore[attr-defined]
    (site / CACHE_DIR / "outputs" / name).write_bytes(pickle.dumps(held))
    spare = next((site / CACHE_DIR / "spare").iterdir())
    (spare / page).unlink()
    first_paragraph(site, "batch_00004", "Два. ")

    built(site, run_cli)

    assert (site / "build" / page).is_file(), "the page the spare had lost is not published"
    assert searchable(tree(site / "build")) == clean_build(site, run_cli, tmp_path)


def test_a_build_that_did_not_stage_a_page_fails_and_leaves_the_site_as_it_was(
    built_site: Path, run_cli: RunCli, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The last look before the swap: a page the build has a hash for but did not write (a
    bug of ours) ends the build with an error, and the live site stays as it was."""
    from site_builder.pipeline.staging import folder as staging

    site = built_site
    before = tree(site / "build")
    first_paragraph(site, "batch_00004", "Раз. ")
    monkeypatch.setattr(staging.Stage, "has", lambda self, relative, sha: True)  # vouches, links nothing

    result = run_cli(["build", "--root", str(site)])

    assert result.code == 1
    assert "internal error: the build did not write " in result.err, result.err
    assert "Traceback" not in result.err
    assert tree(site / "build") == before


def test_a_file_put_into_the_spare_after_its_record_was_made_is_not_published(
    built_site: Path, run_cli: RunCli, tmp_path: Path, clean_build: CleanBuild
) -> None:
    """The prune trusts the record only for a folder whose time says nothing was added since:
    a stray file (what an interrupted build or a person may leave) is found and removed."""
    site = built_site
    first_paragraph(site, "batch_00004", "Раз. ")
    built(site, run_cli)  # the cache keeps a spare now
    spare = next((site / CACHE_DIR / "spare").iterdir())
    folder = spare / "articles" / _slug(11)
    (folder / "stray.html").write_text("<p>not ours</p>", encoding="utf-8")
    (spare / "articles" / "stray-folder").mkdir()
    (spare / "articles" / "stray-folder" / "index.html").write_text("<p>nor this</p>", encoding="utf-8")
    first_paragraph(site, "batch_00004", "Два. ")

    built(site, run_cli)

    assert not (site / "build" / "articles" / _slug(11) / "stray.html").exists()
    assert not (site / "build" / "articles" / "stray-folder").exists()
    assert searchable(tree(site / "build")) == clean_build(site, run_cli, tmp_path)


def test_the_prune_reads_only_the_folders_changed_since_the_record(
    built_site: Path, run_cli: RunCli, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a spare and its record, a one-batch rebuild reads the folders it wrote into (and
    those above them), not the hundreds it left alone."""
    from site_builder.pipeline.staging import folder as staging

    site = built_site
    first_paragraph(site, "batch_00004", "Раз. ")
    built(site, run_cli)
    first_paragraph(site, "batch_00004", "Два. ")
    folders = sum(1 for p in (site / "build").rglob("*") if p.is_dir())
    read: list[str] = []
    pruning: list[bool] = []
    real_scandir, real_prune = os.scandir, staging.Stage.prune

    def counted(path: str) -> object:
        if pruning:
            read.append(str(path))
        return real_scandir(path)

    def prune(self: staging.Stage, *args: object, **kwargs: object) -> None:
        pruning.append(True)
        try:
            real_prune(self, *args, **kwargs)  # type: ignore[arg-type]
        finally:
            pruning.clear()

    monkeypatch.setattr(os, "scandir", counted)
    monkeypatch.setattr(staging.Stage, "prune", prune)

    built(site, run_cli)

    assert folders > N
    assert 0 < len(read) < folders / 3, (len(read), folders, read[:10])
    assert any(_slug(4) in path for path in read)  # a folder the edit wrote into is read


class _Pickled:
    """Pickles a dataclass object as another version would have: its class, with ``state``
    (the values of its fields, in order) as that version's fields gave it."""

    def __init__(self, value: object, state: list[object]) -> None:
        self.value = value
        self.state = state

    def __reduce__(self) -> tuple[object, ...]:
        return (object.__new__, (type(self.value),), self.state)


def _values(value: object, *, but: str = "") -> list[object]:
    """The values of the fields of a dataclass object, in order, without the field ``but``."""
    return [getattr(value, f.name) for f in dataclasses.fields(value) if f.name != but]  # type: ignore[arg-type]


def test_a_record_an_older_version_wrote_is_a_miss_not_a_crash(
    site: Path, run_cli: RunCli, tmp_path: Path, clean_build: CleanBuild
) -> None:
    """Records pickled before a field was added (here the folders' times) are read as no
    record at all: the build after an upgrade works, and gives what a clean build gives."""
    built(site, run_cli)
    first_paragraph(site, "batch_00004", "Раз. ")
    built(site, run_cli)
    outputs = site / CACHE_DIR / "outputs"
    for name, record in _records(site).items():
        if hasattr(record, "folders"):
            older = _Pickled(record, _values(record, but="folders"))  # the version before `folders`
            (outputs / name).write_bytes(pickle.dumps(older))
    first_paragraph(site, "batch_00004", "Два. ")

    built(site, run_cli)

    assert searchable(tree(site / "build")) == clean_build(site, run_cli, tmp_path)


def test_a_folder_s_entries_come_from_its_record_only_while_its_time_is_the_same(tmp_path: Path) -> None:
    """The rule the prune stands on: an unchanged folder's record is its listing; one with
    an entry added, or one holding anything but files and folders, is read again."""
    from site_builder.pipeline.staging.written import Written, listing

    out = tmp_path / "out"
    (out / "a" / "b").mkdir(parents=True)
    (out / "a" / "page.html").write_text("x", encoding="utf-8")
    (out / "c").mkdir()
    (out / "c" / "link").symlink_to(out / "a" / "page.html")
    files, folders = listing(out)
    contents = Written(
        site="site", files=files, hashes={}, revisions=0, pages=0, bundles={}, folders=folders
    ).contents()

    root = contents.entries(str(out), "")
    assert root is not None and root[0] == [] and sorted(root[1]) == ["a", "c"]
    assert contents.entries(str(out / "a"), "a/") == (["page.html"], ["b"])
    assert contents.entries(str(out / "c"), "c/") is None  # a symbolic link in it: always read
    (out / "a" / "new.html").write_text("y", encoding="utf-8")
    assert contents.entries(str(out / "a"), "a/") is None
    assert contents.entries(str(out / "a" / "b"), "a/b/") == ([], [])


def test_a_listing_takes_an_unchanged_folder_from_its_record_and_reads_a_changed_one(tmp_path: Path) -> None:
    """The new site's record, made by ``listing`` with the spare's record at hand: a folder
    whose time is the recorded one is taken from the record, stats included; one with a file
    replaced or added is read again, and the result is the folder as it is."""
    from site_builder.pipeline.staging.written import Written, listing

    out = tmp_path / "out"
    for folder in ("kept", "replaced", "grown"):
        (out / folder).mkdir(parents=True)
        (out / folder / "page.html").write_text(folder, encoding="utf-8")
    files, folders = listing(out)
    contents = Written(
        site="site", files=files, hashes={}, revisions=0, pages=0, bundles={}, folders=folders
    ).contents()
    (out / "replaced" / "page.html").unlink()  # as a build writes: never in place
    (out / "replaced" / "page.html").write_text("another", encoding="utf-8")
    (out / "grown" / "new.html").write_text("new", encoding="utf-8")

    assert listing(out, known=contents) == listing(out)
    contents.stats["kept/page.html"] = (0, 0, 0)  # what only the record says
    assert listing(out, known=contents)[0]["kept/page.html"] == (0, 0, 0)
    assert listing(out, known=contents)[0]["grown/page.html"] == listing(out)[0]["grown/page.html"]


def test_a_bundle_file_replaced_in_the_spare_is_linked_from_the_live_site_again(
    built_site: Path, run_cli: RunCli, tmp_path: Path, clean_build: CleanBuild
) -> None:
    """Publishing skips the ``stat`` of a base bundle's file that the records say the spare
    and the live site share, but only in a folder of the spare whose time says nothing was
    replaced there since: a file replaced in the spare is linked from the live site again."""
    site = built_site
    first_paragraph(site, "batch_00004", "Раз. ")
    built(site, run_cli)  # the cache keeps a spare now
    spare = next((site / CACHE_DIR / "spare").iterdir())
    fragment = next(p for p in sorted((spare / "pagefind" / "fragment").iterdir()))
    live = site / "build" / fragment.relative_to(spare)
    assert os.path.samefile(fragment, live), "the spare and the live site do not share the base bundle"
    fragment.unlink()
    fragment.write_bytes(b"not Pagefind's")
    first_paragraph(site, "batch_00004", "Два. ")

    built(site, run_cli)

    assert (site / "build" / fragment.relative_to(spare)).read_bytes() != b"not Pagefind's"
    assert searchable(tree(site / "build")) == clean_build(site, run_cli, tmp_path)


@pytest.mark.parametrize("change", [-1, 1], ids=["a-field-fewer", "a-field-more"])
@pytest.mark.parametrize("where", ["file", "index"])
def test_a_summary_of_another_shape_is_a_miss_the_batch_is_loaded_again(
    site: Path, run_cli: RunCli, tmp_path: Path, change: int, where: str, clean_build: CleanBuild
) -> None:
    """A kept summary whose state does not have one value per field of today's BatchSummary is
    never half read: in its batch's own file (the site index gone), the batch is imported
    again; in the site index, the build reads the batches' own files instead. Either way the
    build gives what a clean one gives, and keeps a whole index again."""
    from site_builder.pipeline.cache.store import CacheFolder
    from site_builder.pipeline.worker.site_index import KEY, KIND, read_index

    built(site, run_cli)
    batches = site / CACHE_DIR / "batches"
    index = site / CACHE_DIR / KIND / KEY
    entries = sorted(p for p in batches.iterdir() if "." not in p.name)
    # Not the batch edited below, whose kept summary the rebuild drops, whichever its key.
    reshaped = [entry for entry in entries if pickle.loads(entry.read_bytes()).name != "batch_00004"][:5]
    token, held = pickle.loads(index.read_bytes())  # the base: no change made since
    assert {entry.name for entry in reshaped} <= held.keys()
    for entry in reshaped:
        summary = pickle.loads(entry.read_bytes())
        values = _values(summary)
        state = values[:change] if change < 0 else [*values, None]  # a field fewer, or one more
        if where == "file":
            entry.write_bytes(pickle.dumps(_Pickled(summary, state)))
        else:
            held[entry.name] = _Pickled(held[entry.name], state)
    if where == "file":
        index.unlink()
        with pytest.raises(ValueError, match="zip"):
            pickle.loads(reshaped[0].read_bytes())
    else:
        index.write_bytes(pickle.dumps((token, held)))
        with pytest.raises(ValueError, match="zip"):
            pickle.loads(index.read_bytes())
    first_paragraph(site, "batch_00004", "Раз. ")

    built(site, run_cli)

    assert searchable(tree(site / "build")) == clean_build(site, run_cli, tmp_path)
    for entry in reshaped:  # imported again and kept anew, whole
        summary = pickle.loads(entry.read_bytes())
        assert all(hasattr(summary, f.name) for f in dataclasses.fields(summary))
    again = read_index(CacheFolder.of(site)).summaries
    assert {entry.name for entry in reshaped} <= again.keys()


def _objects(value: object) -> list[object]:
    """Every dataclass instance inside ``value`` (through tuples, lists and dicts)."""
    found: list[object] = []
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        found.append(value)
        for field in dataclasses.fields(value):
            found += _objects(getattr(value, field.name))
    elif isinstance(value, (tuple, list, frozenset, set)):
        for item in value:
            found += _objects(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            found += _objects(key) + _objects(item)
    return found


def test_a_kept_summary_comes_back_equal_in_every_object_it_holds(built_site: Path, run_cli: RunCli) -> None:
    """Every object of every kept summary and of its body (kept in its texts file), pickled and
    read back (``pickled.quick_state``)."""
    from site_builder.pipeline.cache.reuse import Cache
    from site_builder.pipeline.worker.site_index import kept_summary

    site = built_site
    reuse = Cache.of(site, site / "build")
    keys = [p.name for p in (site / CACHE_DIR / "batches").iterdir() if "." not in p.name]
    assert keys
    kinds: set[str] = set()
    for key in keys:
        summary = kept_summary(reuse, key)
        assert summary is not None
        for value in (summary, summary.body()):
            again = pickle.loads(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
            assert again == value
            for old, new in zip(_objects(value), _objects(again), strict=True):
                assert type(new) is type(old)
                assert all(getattr(new, f.name) == getattr(old, f.name) for f in dataclasses.fields(old))
                kinds.add(type(old).__name__)
    wanted = {
        "BatchSummary",
        "Body",
        "Refs",
        "Item",
        "CategoryLink",
        "Proof",
        "Step",
        "Claim",
        "Outcome",
        "Texts",
    }
    assert wanted <= kinds


def _count_mkdir(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every folder ``os.mkdir`` makes from now on (until ``monkeypatch.undo``)."""
    made: list[str] = []
    real_mkdir = os.mkdir

    def counted(path: str | os.PathLike[str], *args: object, **kwargs: object) -> None:
        made.append(os.fspath(path))
        real_mkdir(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "mkdir", counted)
    return made


def _article_folders(made: list[str]) -> list[str]:
    """The folders of article pages among ``made``, but for those of the tree of links that the
    indexer of a changed shard reads (made afresh by design: search/pagefind.py)."""
    indexer = f".run{os.sep}site{os.sep}"
    return [path for path in made if f"{os.sep}articles{os.sep}" in path and indexer not in path]


def test_a_build_given_up_for_a_newer_edit_leaves_its_folders_to_the_next_build(
    built_site: Path,
    run_cli: RunCli,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    clean_build: CleanBuild,
) -> None:
    """``serve`` gives a rebuild up once its pages are shown when a newer edit comes. The first
    rebuild after a site was built into an empty folder has no spare to bring up to date: its
    staging folder, every folder of the site made anew, must become the spare, or each rebuild
    given up in a row makes them all again (seconds at 10,000 articles)."""
    from site_builder.pipeline.cache.reuse import Cache
    from site_builder.pipeline.events import Events
    from site_builder.pipeline.plan import plan_build
    from site_builder.pipeline.steps import build
    from site_builder.settings.project import Project

    site = built_site  # into an empty folder: no site before it, so no spare
    reuse = Cache.of(site, (site / "build").resolve())
    assert not reuse.spare().exists()
    first_paragraph(site, "batch_00004", "Раз. ")
    shown = []
    given_up = build(plan_build(Project.read(site)), events=Events(changed=shown.append, newer=lambda: True))
    assert given_up.superseded and shown
    assert reuse.spare().is_dir() and reuse.spare_record() is not None

    made = _count_mkdir(monkeypatch)
    first_paragraph(site, "batch_00004", "Два. ")
    built(site, run_cli)

    articles = _article_folders(made)
    assert len(articles) < 5, articles  # the spare's folders were there: made again, N or more
    assert searchable(tree(site / "build")) == clean_build(site, run_cli, tmp_path)


def test_building_another_folder_keeps_this_folders_spare_and_only_one_other(
    site: Path, run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clean_build: CleanBuild
) -> None:
    """A writer runs ``serve`` (its own folder in the cache) and ``build`` by turns: each keeps
    the other's spare site, so neither's next rebuild makes every folder again. A third folder
    built pushes out the spare of the one built longest ago: spares never pile up."""
    from site_builder.pipeline.cache.reuse import Cache

    def build_into(out: Path) -> None:
        result = run_cli(["build", "--root", str(site), "--out", str(out)])
        assert result.code == 0, result.err

    first, second, third = (tmp_path / name for name in ("first", "second", "third"))
    spares = {out: Cache.of(site, out.resolve()).spare() for out in (first, second, third)}
    for out in (first, second):
        build_into(out)
        first_paragraph(site, "batch_00002", f"{out.name}. ")
        build_into(out)  # the site before the live one becomes its spare
        assert spares[out].is_dir()
    assert spares[first].is_dir()  # building the second folder kept it

    made = _count_mkdir(monkeypatch)
    first_paragraph(site, "batch_00004", "Снова. ")
    build_into(first)
    monkeypatch.undo()
    articles = _article_folders(made)
    assert len(articles) < 5, articles  # from its spare: without it, N or more made again
    assert searchable(tree(first)) == clean_build(site, run_cli, tmp_path)

    build_into(third)
    first_paragraph(site, "batch_00002", "Третий. ")
    build_into(third)
    assert spares[third].is_dir() and spares[first].is_dir()  # the one other built last
    assert not spares[second].exists()
