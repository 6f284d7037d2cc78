"""Search in a real Chromium finds articles in every shard of the Pagefind index, not only the
first, and finds what one index of all the pages would.

The benchmark corpus at 75 revisions (25 batches) is split into three search shards. In each
shard one article gets a made-up word no other page holds; typing that word into the search box
of the index page must list that article. Then many queries made of the pages' own words (whole,
cut short, lengthened, in pairs) must find the same pages through the site's search as through
one Pagefind bundle of those pages. Both ways the site may publish its shards are built: joined
into one bundle (:mod:`site_builder.search.combine`, the default), and, where they cannot be
joined (a template that gives pages a sort order), three bundles that a module merges in the
browser.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from playwright.sync_api import Browser, Page, Request
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from site_builder import cli
from site_builder.search import indexing
from site_builder.search.heads import CORE, HEADS
from site_builder.search.joining import REFUSED
from site_builder.search.merged import MODULE
from site_builder.search.pagefind import start_pagefind
from site_builder.search.shards import bundle_path, shard_count, shard_of
from tests.browser.pages import DESKTOP, Site, serving, visit, watched_page
from tests.pipeline.test_incremental import corpus

pytestmark = pytest.mark.browser

N = 75  # 25 batches of three: three shards of about ten batches
SHARDS = 3
TOKENS = ("zyxshardzero", "zyxshardone", "zyxshardtwo")
"""The made-up word given to one article of shard 0, 1 and 2."""


@dataclass(frozen=True)
class Marked:
    """An article given a word of its own: its shard, where that shard is published, its batch."""

    shard: int
    bundle: str
    """The shard's folder in the site, with slashes: ``/pagefind/`` or ``/pagefind/shard-NN/``."""
    batch: str
    slug: str
    token: str


@dataclass(frozen=True)
class Built:
    out: Path
    marked: list[Marked]
    joined: bool
    """Whether the shards were joined into one bundle, or published as three."""


def mark_one_batch_per_shard(root: Path) -> list[tuple[int, str, str]]:
    """Put a token at the start of the first paragraph of the first batch of each shard."""
    batches = sorted(p.stem for p in (root / "articles").glob("batch_*.py"))
    count = shard_count(len(batches))
    assert count == SHARDS, f"{len(batches)} batches make {count} shards, not {SHARDS}"
    chosen = []
    for shard, token in enumerate(TOKENS):
        batch = next((b for b in batches if shard_of(b, count) == shard), None)
        assert batch is not None, f"no batch falls in shard {shard}"
        path = root / "articles" / f"{batch}.py"
        text = path.read_text("utf-8")
        assert "paragraph(" in text, path
        path.write_text(text.replace("paragraph(", f"paragraph({token + ' '!r} + ", 1), "utf-8")
        chosen.append((shard, batch, token))
    return chosen


def refuse(bundles: list[Path], out: Path, *, background: bool = False) -> subprocess.Popen[str]:
    """A join that ends as one refused does (a bundle with sort orders, say)."""
    program = [
        sys.executable,
        "-c",
        f"import sys; print('a bundle has sort orders', file=sys.stderr); sys.exit({REFUSED})",
    ]
    return subprocess.Popen(program, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@pytest.fixture(scope="module", params=["joined", "merged"])
def built(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Built:
    """The corpus with one marked article per shard, built once: its shards joined into one
    bundle, or (``merged``) left as three, as when they cannot be joined."""
    joined = request.param == "joined"
    root = tmp_path_factory.mktemp("shards") / "site"
    root.mkdir()
    corpus().write_site_builder(root, N)
    chosen = mark_one_batch_per_shard(root)
    with pytest.MonkeyPatch.context() as patch:
        if not joined:
            patch.setattr(indexing, "start_join", refuse)
        code = cli.main(["build", "--root", str(root)])
    assert code == 0, f"site-builder build --root {root} exited with {code}"
    out = root / "build"

    revisions = json.loads((out / "revisions.json").read_text("utf-8"))
    assert len(revisions) == N
    marked = []
    for shard, batch, token in chosen:
        holders = [r for r in revisions if token in r["contentHtml"]]
        assert len(holders) == 1, f"{token!r} is in {[r['slug'] for r in holders]}, expected one article"
        assert holders[0]["batch"] == batch, f"{token!r} landed in {holders[0]['batch']}, not {batch}"
        # Every shard has a batch, so the n-th shard is the n-th published bundle.
        bundle = "/pagefind/" if joined else f"/{bundle_path(shard)}/"
        marked.append(Marked(shard, bundle, batch, holders[0]["slug"], token))
    return Built(out, marked, joined)


@pytest.fixture(scope="module")
def served(chromium: Path, built: Built) -> Iterator[Site]:
    """The built site on a free port of 127.0.0.1."""
    with serving(built.out) as base:
        yield Site(built.out, base, {}, [])


def bundle_of(path: str) -> str:
    """The bundle folder a Pagefind file of the site belongs to: ``/pagefind/shard-01/`` or ``/pagefind/``."""
    folder = path.split("/")[2]  # "", "pagefind", then "shard-NN" or a file of the first bundle
    return f"/pagefind/{folder}/" if folder.startswith("shard-") else "/pagefind/"


def test_the_shards_are_joined_into_one_bundle_that_the_search_box_reads_alone(built: Built) -> None:
    if not built.joined:
        pytest.skip("the shards are joined by default")
    entry = json.loads((built.out / "pagefind" / "pagefind-entry.json").read_text("utf-8"))
    assert [head["page_count"] for head in entry["languages"].values()] == [len(indexed_pages(built.out))]
    assert not (built.out / "pagefind" / "shard-01").exists()
    script = (built.out / "pagefind" / "site-search.js").read_text("utf-8")
    assert 'var bundles = ["/pagefind/"];' in script and "/pagefind/merged/" not in script, script
    assert not (built.out / MODULE).exists() and not (built.out / HEADS).exists()


def test_the_index_is_published_in_three_shards_and_the_script_merges_them(built: Built) -> None:
    if built.joined:
        pytest.skip("the shards are published as three where they cannot be joined")
    bundles = [f"/{bundle_path(n)}/" for n in range(SHARDS)]
    assert bundles == ["/pagefind/", "/pagefind/shard-01/", "/pagefind/shard-02/"]
    for bundle in bundles:
        folder = built.out / bundle.strip("/")
        assert (folder / "pagefind-entry.json").is_file(), f"{bundle} holds no Pagefind index"
        assert (folder / "pagefind.js").is_file(), f"{bundle} has no pagefind.js"
    assert not (built.out / "pagefind" / "shard-03").exists()
    script = (built.out / "pagefind" / "site-search.js").read_text("utf-8")
    assert f"var bundles = {json.dumps(bundles)};" in script, script
    assert "mergeIndex" in script, script
    assert 'bundlePath: "/pagefind/merged/"' in script, script  # the module standing in for pagefind.js
    assert (built.out / MODULE).is_file() and (built.out / CORE).is_file()
    assert [m.bundle for m in built.marked] == bundles


@pytest.mark.parametrize("shard", range(SHARDS), ids=[f"shard-{n}" for n in range(SHARDS)])
def test_search_finds_the_article_of_each_shard(
    browser: Browser, served: Site, built: Built, shard: int
) -> None:
    marked = built.marked[shard]
    expected = f"/articles/{marked.slug}/"
    with watched_page(browser, served, viewport=DESKTOP) as (page, watch):
        requested: list[str] = []
        page.on("request", lambda request: requested.append(request_path(request)))
        visit(page, watch, served, "/")
        page.locator(".pagefind-ui__search-input").fill(marked.token)
        with contextlib.suppress(PlaywrightTimeoutError):  # reported below with what the search showed
            page.locator(f'.pagefind-ui__result-link[href$="{expected}"]').wait_for(state="visible")
        page.wait_for_load_state("networkidle")
        hrefs = page.locator(".pagefind-ui__result-link").evaluate_all(
            "els => els.map(a => a.getAttribute('href'))"
        )
        message = page.locator(".pagefind-ui__message").all_inner_texts()
        assert hrefs, f"{marked.token!r} (shard {shard}) found nothing: {message}\n" + "\n".join(
            watch.problems
        )
        assert [urllib.parse.urlsplit(h).path for h in hrefs] == [expected], (
            f"{marked.token!r} (batch {marked.batch}, shard {shard}) found {hrefs}, expected only {expected}"
        )
        pagefind = [p for p in requested if p.startswith("/pagefind/")]
        # Every bundle is searched: its index read. Its entry and metadata come from one file.
        indexes = {bundle_of(p) for p in pagefind if "/index/" in p}
        assert indexes == {m.bundle for m in built.marked}, f"indexes read: {sorted(indexes)}"
        heads = [p for p in pagefind if p.endswith(("/pagefind-entry.json", ".pf_meta", "/heads.bin"))]
        if built.joined:  # one bundle, read as Pagefind reads its own
            assert [p.rsplit(".", 1)[-1] for p in heads] == ["json", "pf_meta"], pagefind
        else:
            assert heads == [f"/{HEADS}"], pagefind
        # Other bundles may be read too: how each matches the word is judged by its first result.
        fragments = {bundle_of(p) for p in pagefind if "/fragment/" in p}
        assert marked.bundle in fragments, (
            f"the result of shard {shard} was not read from {marked.bundle}: {sorted(fragments)}"
        )
        assert not watch.problems, "\n".join(watch.problems)


def request_path(request: Request) -> str:
    return urllib.parse.urlsplit(request.url).path


SEARCH = """async ([module, merged, term]) => {
  const pagefind = await import(module);
  if (!window.searchReady) {
    window.searchReady = true;
    await pagefind.options({});
    for (const path of merged) await pagefind.mergeIndex(path);
  }
  const found = await pagefind.search(term);
  window.urlOf ||= new Map();
  const urls = [];
  for (const result of found.results) {
    if (!window.urlOf.has(result.id)) window.urlOf.set(result.id, (await result.data()).url);
    urls.push(window.urlOf.get(result.id));
  }
  return urls.sort();
}"""
"""The URLs of the pages a search finds, through a module as the search box uses it. A result's
``id`` names the fragment its ``data()`` reads, so each id's URL is read once per tab (the
hundred queries of a test found 4,339 results of some 80 pages: reading each took 7 of the
test's 11 s of searching)."""


def indexed_words(out: Path, page: str) -> list[str]:
    """The words of a page's indexed text (what Pagefind is told to leave out, left out)."""
    body = BeautifulSoup((out / page).read_text("utf-8"), "html.parser").select_one("[data-pagefind-body]")
    if body is None:
        return []
    for left_out in body.select("[data-pagefind-ignore], script, style"):
        left_out.decompose()
    return [word.lower() for word in re.findall(r"[^\W\d_]{3,}", body.get_text(" "))]


def queries(out: Path, pages: list[str]) -> list[str]:
    """Words of the pages as they spell them, cut short, lengthened (where one bundle's stem may
    have no extension: Pagefind then falls back to a shorter word), and in pairs; and each
    shard's own word, alone, cut and beside a common one."""
    words = sorted({word for page in pages for word in indexed_words(out, page)})
    rng = random.Random(34)
    chosen = rng.sample(words, 60)
    asked = chosen[:30]
    asked += [word[: max(3, len(word) * 2 // 3)] for word in chosen[30:45]]
    suffixes = ["s", "ing", "ов", "ами", "x"] * 3
    asked += [word + suffix for word, suffix in zip(chosen[45:], suffixes, strict=True)]
    asked += [f"{a} {b}" for a, b in zip(chosen[::2], chosen[1::2], strict=True)]
    asked += [q for token in TOKENS for q in (token, token[:-3], f"{chosen[0]} {token}")]
    return asked


def found(
    browser: Browser, base: str, module: str, merged: list[str], asked: list[str]
) -> dict[str, list[str]]:
    """Each query's URLs, searched in one tab through ``module`` merging ``merged``."""
    page: Page = browser.new_page()
    try:
        page.goto(f"{base}/")
        return {q: page.evaluate(SEARCH, [module, merged, q]) for q in asked}
    finally:
        page.close()


def indexed_pages(out: Path) -> list[str]:
    """The site's pages Pagefind indexes (output paths)."""
    return sorted(
        p.relative_to(out).as_posix()
        for p in out.rglob("*.html")
        if p.relative_to(out).parts[0] != "pagefind" and "data-pagefind-body" in p.read_text("utf-8")
    )


def one_bundle(out: Path, pages: list[str], tmp_path: Path) -> Path:
    """A copy of the site whose search index is one Pagefind bundle of ``pages``, the reference."""
    entry = json.loads((out / "pagefind" / "pagefind-entry.json").read_text("utf-8"))
    (language,) = entry["languages"]
    one = tmp_path / "one"
    shutil.copytree(out, one, copy_function=os.link, ignore=shutil.ignore_patterns("pagefind"))
    process = start_pagefind(out, pages, tmp_path / "run", one / "pagefind", language)
    _, err = process.communicate()
    assert process.returncode == 0, err
    return one


def test_every_query_finds_what_one_bundle_of_the_same_pages_finds(
    browser: Browser, chromium: Path, built: Built, tmp_path: Path
) -> None:
    """Pagefind alone, merging bundles, answered a word one shard lacks with that shard's pages
    of a shorter word; the site's module must answer every query as one index does."""
    out = built.out
    pages = indexed_pages(out)
    one = one_bundle(out, pages, tmp_path)
    asked = queries(out, pages)
    merged = [] if built.joined else [m.bundle for m in built.marked[1:]]
    module = "/pagefind/pagefind.js" if built.joined else "/pagefind/merged/pagefind.js"
    with serving(out) as site, serving(one) as reference:
        ours = found(browser, site, module, merged, asked)
        theirs = found(browser, reference, "/pagefind/pagefind.js", [], asked)
    assert sum(bool(urls) for urls in theirs.values()) > len(asked) // 2, "too few queries find anything"
    differing = {q: (ours[q], theirs[q]) for q in asked if ours[q] != theirs[q]}
    assert differing == {}, f"{len(differing)} of {len(asked)} queries differ from one bundle: " + "; ".join(
        f"{q!r}: {a} against {b}" for q, (a, b) in list(differing.items())[:3]
    )
