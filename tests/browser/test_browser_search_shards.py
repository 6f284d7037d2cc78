"""Search in a real Chromium finds articles in every shard of the Pagefind index, not only the first.

The benchmark corpus at 135 revisions (45 batches) is split into three search shards. In each
shard one article gets a made-up word no other page holds; typing that word into the search box
of the index page must list that article, whose result Pagefind reads from that shard's bundle.
"""

from __future__ import annotations

import contextlib
import json
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Request
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from site_builder import cli
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


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    """The corpus with one marked article per shard, built once."""
    root = tmp_path_factory.mktemp("shards") / "site"
    root.mkdir()
    corpus().write_site_builder(root, N)
    chosen = mark_one_batch_per_shard(root)
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
        marked.append(Marked(shard, f"/{bundle_path(shard)}/", batch, holders[0]["slug"], token))
    return Built(out, marked)


@pytest.fixture(scope="module")
def served(chromium: Path, built: Built) -> Iterator[Site]:
    """The built site on a free port of 127.0.0.1."""
    with serving(built.out) as base:
        yield Site(built.out, base, {}, [])


def bundle_of(path: str) -> str:
    """The bundle folder a Pagefind file of the site belongs to: ``/pagefind/shard-01/`` or ``/pagefind/``."""
    folder = path.split("/")[2]  # "", "pagefind", then "shard-NN" or a file of the first bundle
    return f"/pagefind/{folder}/" if folder.startswith("shard-") else "/pagefind/"


def test_the_index_is_published_in_three_shards_and_the_script_merges_them(built: Built) -> None:
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
        entries = {bundle_of(p) for p in pagefind if p.endswith("/pagefind-entry.json")}
        assert entries == {m.bundle for m in built.marked}, f"index entries loaded: {sorted(entries)}"
        fragments = {bundle_of(p) for p in pagefind if "/fragment/" in p}
        assert fragments == {marked.bundle}, (
            f"the result of shard {shard} was read from {sorted(fragments)}, not {marked.bundle}"
        )
        assert not watch.problems, "\n".join(watch.problems)


def request_path(request: Request) -> str:
    return urllib.parse.urlsplit(request.url).path
