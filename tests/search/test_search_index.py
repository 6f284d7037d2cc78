"""The search indexer reads the staged site in place: Pagefind is told which pages form a
shard by a glob, so a page's path must reach it as a literal path whatever it holds. A built
site's index, in two shards, leads the search box to its pages at the root and below a path."""

from __future__ import annotations

import gzip
import importlib.metadata
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import cbor2
import pytest

from site_builder.pipeline.staging.folder import link
from site_builder.search import indexing as indexing_module
from site_builder.search import pagefind, shards
from site_builder.search.indexing import Index, Indexing
from site_builder.search.shards import shard_count
from tests.support.site_urls import dead_urls, search_urls
from tests.support.sites import HEADER, base_url_at, build_quietly, settings_at, write_site

PAGE = """<!doctype html><html lang="en"><head><title>{title}</title></head>
<body><main data-pagefind-body><h1>{title}</h1><p>{word} is here.</p></main></body></html>
"""

ODD = "odd{b},c*[x]?/index.html"
"""A folder name made of the characters a glob reads as syntax (Pagefind reads a backslash
in a path as a Windows separator: our slugs never hold one); it reaches the index as it is."""


def open_indexing(staging: Path, names: list[str], jobs: int) -> Indexing:
    """An index of the staged site with nothing kept from earlier builds."""
    indexing = Indexing(
        staging=staging,
        kept=None,
        scratch=staging.parent / "scratch",
        language="en",
        live_bundle=lambda _key: None,
        jobs=jobs,
    )
    indexing.start(names)
    return indexing


def finished(indexing: Indexing, staging: Path) -> Index:
    """Finish the index and publish its bundles into the staging folder, as a build does."""
    index = indexing.finish()
    for path, source in index.files.items():
        link(source, staging / path)
    return index


def page_urls(bundle: Path) -> list[str]:
    """The page URLs of a Pagefind bundle, in the order of its metadata (its page numbers)."""
    entry = json.loads((bundle / "pagefind-entry.json").read_text("utf-8"))
    (head,) = entry["languages"].values()
    meta = gzip.decompress((bundle / f"pagefind.{head['hash']}.pf_meta").read_bytes())
    urls = []
    for fragment, _ in cbor2.loads(meta.removeprefix(b"pagefind_dcd"))[1]:
        data = gzip.decompress((bundle / "fragment" / f"{fragment}.pf_fragment").read_bytes())
        urls.append(json.loads(data[data.index(b"{") :])["url"])
    return urls


def indexed_urls(bundle: Path) -> set[str]:
    """The page URLs of every fragment of a Pagefind bundle."""
    urls = set()
    for fragment in (bundle / "fragment").iterdir():
        data = gzip.decompress(fragment.read_bytes())
        urls.add(json.loads(data[data.index(b"{") :])["url"])
    return urls


@pytest.mark.parametrize("chosen", [[ODD], ["plain/index.html", ODD], ["plain/index.html"]])
def test_a_shard_indexes_its_pages_and_nothing_else_of_the_staged_site(
    tmp_path: Path, chosen: list[str]
) -> None:
    staging = tmp_path / "staging"
    pages = {ODD: "zyxodd", "plain/index.html": "zyx", "stray/index.html": "zyxstray", "oddb/index.html": "x"}
    for path, word in pages.items():
        (staging / path).parent.mkdir(parents=True, exist_ok=True)
        (staging / path).write_text(PAGE.format(title=word, word=word), "utf-8")
    indexing = open_indexing(staging, [], jobs=1)

    indexing.everything({path: "sha-" + path for path in chosen})
    index = finished(indexing, staging)

    assert index.problems == ()
    assert list(index.bundles) == ["pagefind"]
    expected = {"/" + path.removesuffix("index.html") for path in chosen}
    assert indexed_urls(staging / "pagefind") == expected


@pytest.fixture
def tmpfs() -> Iterator[Path]:
    """A folder on tmpfs, which lists a folder's entries in the order they were made (ext4 lists
    them by a hash of their names, seeded per file system)."""
    if not Path("/dev/shm").is_dir():
        pytest.skip("no /dev/shm: no tmpfs to make folders on")
    folder = Path(tempfile.mkdtemp(dir="/dev/shm"))
    yield folder
    shutil.rmtree(folder)


def test_a_bundle_s_bytes_do_not_depend_on_the_order_the_file_system_lists_its_pages(tmpfs: Path) -> None:
    """The same pages staged in opposite orders: each index is the same bytes. Pagefind numbers
    the pages in the order it finds them, and it read the staging folder: a rebuild, which stages
    unchanged pages before changed ones, gave another index than a clean build of the same site."""
    paths = [f"articles/page-{n:02d}/index.html" for n in range(12)]
    bundles = []
    for name, order in (("forward", paths), ("backward", paths[::-1])):
        staging = tmpfs / name / "staging"
        for path in order:
            (staging / path).parent.mkdir(parents=True)
            (staging / path).write_text(PAGE.format(title=path, word=f"zyx{path[14:16]}"), "utf-8")
        bundles.append(staging / "pagefind")
        indexing = open_indexing(staging, [], jobs=1)
        indexing.everything({path: "sha-" + path for path in paths})
        assert finished(indexing, staging).problems == ()
    forward, backward = (os.listdir(bundle.parent / "articles") for bundle in bundles)
    assert forward != backward and sorted(forward) == sorted(backward)  # listed in two orders

    first, second = (
        {p.relative_to(b).as_posix(): p.read_bytes() for p in b.rglob("*") if p.is_file()} for b in bundles
    )
    assert len(first) > 10 and indexed_urls(bundles[0]) == {"/" + p.removesuffix("index.html") for p in paths}
    assert first == second


def test_an_indexer_that_fails_is_a_problem_with_what_it_said(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    staging = tmp_path / "staging"
    (staging / "plain").mkdir(parents=True)
    (staging / "plain/index.html").write_text(PAGE.format(title="t", word="zyx"), "utf-8")
    fake = tmp_path / "pagefind"
    fake.write_text("#!/bin/sh\necho 'cannot start' >&2\nexit 3\n", "utf-8")
    fake.chmod(0o755)
    monkeypatch.setattr(pagefind, "_executable", lambda: str(fake))
    indexing = open_indexing(staging, [], jobs=1)

    indexing.everything({"plain/index.html": "sha"})
    index = indexing.finish()

    assert [problem.message for problem in index.problems] == [
        "pagefind failed with exit code 3: cannot start"
    ]
    assert index.files == {} and not (indexing.scratch / indexing.shards[0].key).exists()


def staged_batches(staging: Path, count: int) -> dict[str, dict[str, str]]:
    """``count`` batches of one staged page each: batch name → its page (path → hash)."""
    pages = {}
    for name in (f"batch_{n:05d}" for n in range(count)):
        path = f"articles/{name.replace('_', '-')}/index.html"
        (staging / path).parent.mkdir(parents=True)
        (staging / path).write_text(PAGE.format(title=name, word="zyx" + name[-5:]), "utf-8")
        pages[name] = {path: "sha-" + name}
    return pages


def test_a_shard_starts_when_the_last_of_its_batches_arrives_and_only_then(tmp_path: Path) -> None:
    staging = tmp_path / "staging"
    pages = staged_batches(staging, 25)  # three shards of about ten batches
    names = list(pages)
    indexing = open_indexing(staging, names, jobs=2)
    by_shard: dict[int, list[str]] = {}
    for name in names:
        by_shard.setdefault(indexing.shard_number(name), []).append(name)
    assert sorted(by_shard) == [0, 1, 2]

    first, *rest = by_shard[1]
    for name in rest:
        indexing.arrived(name, pages[name])
        indexing.arrived(name, pages[name])  # told twice: counted once
    assert indexing.shards == []
    indexing.arrived(first, pages[first])
    assert [shard.number for shard in indexing.shards] == [1]
    assert set(indexing.shards[0].pages) == {path for name in by_shard[1] for path in pages[name]}

    for name in by_shard[0] + by_shard[2]:
        indexing.arrived(name, pages[name])
    index = finished(indexing, staging)

    assert index.problems == ()
    assert list(index.bundles) == ["pagefind"]  # the three shards joined into one bundle
    shard_of_url = {
        "/" + path.removesuffix("index.html"): number
        for number, batches in by_shard.items()
        for name in batches
        for path in pages[name]
    }
    order = [shard_of_url[url] for url in page_urls(staging / "pagefind")]
    assert order == sorted(order) and len(order) == len(names)  # in shard order, whatever finished first
    assert {shard.key for shard in indexing.shards} < index.used  # the cache keeps them for the next fold


def test_the_shards_are_joined_once_indexed_before_the_build_waits_for_its_index(tmp_path: Path) -> None:
    """Once every batch has arrived, a run's join starts as soon as its shards are indexed: while
    the rest of the site is rendered, not once the build waits for its index."""
    staging = tmp_path / "staging"
    pages = staged_batches(staging, 25)
    indexing = open_indexing(staging, list(pages), jobs=2)
    for name, page in pages.items():
        indexing.arrived(name, page)
    indexing.all_arrived()
    assert len(indexing.joins) == 1 and not indexing.made
    (whole, run), *_ = indexing.joins.values()
    assert [shard.number for shard in run] == [0, 1, 2]
    while indexing.running or indexing.queued:
        indexing.launch(wait=True, timeout=5)
    assert whole.key in indexing.made  # joined, and finish() not called yet
    index = finished(indexing, staging)
    assert index.problems == () and index.bundles == {"pagefind": (whole.key, index.bundles["pagefind"][1])}
    assert len(page_urls(staging / "pagefind")) == 25


def test_a_join_that_fails_is_a_problem_with_what_it_said(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def failing(bundles: list[Path], out: Path, *, background: bool = False) -> subprocess.Popen[str]:
        program = "import sys; print('Traceback ...', file=sys.stderr); sys.exit('ValueError: no chunk')"
        return subprocess.Popen(
            [sys.executable, "-c", program], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )

    monkeypatch.setattr(indexing_module, "start_join", failing)
    staging = tmp_path / "staging"
    pages = staged_batches(staging, 25)
    indexing = open_indexing(staging, list(pages), jobs=2)
    for name, page in pages.items():
        indexing.arrived(name, page)
    index = indexing.finish()

    assert [problem.message for problem in index.problems] == [
        "joining the search index's shards failed with exit code 1: ValueError: no chunk"
    ]
    assert index.files == {}


PAGES_BATCH = (
    HEADER
    + """
revisions = [revision(
    slug="page-{n:02d}", title="Page {n}", categories=["Pages"], excerpt="A page.",
    published="2020-01-{day:02d}", body=[paragraph("The words of page {n}.")],
    sources=[Source(title="A", url="https://a.example/", note="a"),
             Source(title="B", url="https://b.example/", note="b")])]
"""
)
BATCHES = 12


@pytest.fixture(scope="module")
def sharded(base_path: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A site of :data:`BATCHES` one-page batches (two shards), built once at each base path."""
    assert shard_count(BATCHES) == 2
    files = {f"articles/page_{n:02d}.py": PAGES_BATCH.format(n=n, day=n + 1) for n in range(BATCHES)}
    return build_quietly(write_site(tmp_path_factory.mktemp("sharded"), files, settings_at(base_path)))


def test_every_bundle_and_result_of_a_built_index_leads_to_a_page_below_the_base_path(
    sharded: Path, base_path: str
) -> None:
    base_url = base_url_at(base_path)
    found = search_urls(sharded, base_url)

    bundles = [f.url for f in found if f.where.endswith("bundle")]
    assert bundles == [f"{base_path}pagefind/"]  # the two shards, joined
    # Results are site-relative in the index; the search box resolves them below the base path.
    results = sorted(f.resolved for f in found if f.where.endswith(" url"))
    assert results == [f"{base_url}articles/page-{n:02d}/" for n in range(BATCHES)]
    assert dead_urls(sharded, base_url, found) == []
    script = (sharded / "pagefind/site-search.js").read_text("utf-8")
    assert script.count(f'baseUrl: "{base_path}"') == (0 if base_path == "/" else 2)


def test_a_shard_s_key_names_the_pagefind_binary_that_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """The binary is the ``pagefind-bin`` package, which may be upgraded without ``pagefind``: a
    bundle the older binary made must not be reused under the newer one's key."""
    running = pagefind.pagefind_version()
    assert running == f"pagefind {importlib.metadata.version('pagefind-bin')}", running
    pages = {"articles/a/index.html": "0" * 64}
    key = shards.make_shard(0, pages, "en").key
    monkeypatch.setattr(shards, "pagefind_version", lambda: "pagefind 9.9.9")
    assert shards.make_shard(0, pages, "en").key != key


def test_shards_are_joined_into_runs_of_neighbours_of_about_the_pages_a_bundle_holds() -> None:
    def made(count: int, pages: int) -> list[shards.Shard]:
        return [
            shards.make_shard(n, {f"p{n}-{i}": "0" * 64 for i in range(pages)}, "en") for n in range(count)
        ]

    def sizes(count: int, pages: int) -> list[list[int]]:
        return [[shard.number for shard in run] for run in shards.joined(made(count, pages))]

    assert shards.JOINED_PAGES == 2_500 and shards.MAX_SHARDS == 4
    assert sizes(4, 250) == [[0, 1, 2, 3]]  # 1,000 pages: one bundle
    assert sizes(17, 590) == [[0, 1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]]  # 10,030
    assert sizes(6, 900) == [[0, 1, 2], [3, 4, 5]]  # 5,400 pages: two
    assert sizes(40, 2_000) == [list(range(n, n + 10)) for n in range(0, 40, 10)]  # never past four
    assert sizes(1, 9_000) == [[0]]
