"""A rebuild's search, the last fold's bundles and a delta, finds in Chromium what one index of the
site as it now is finds.

The corpus (three shards, joined into one bundle) is built; then articles are edited, one batch
is added and one removed, and the site is built again: that bundle, the base, stays as the first
build made it, a delta bundle holds the changed and new pages, and the search box hides the
base's copies of them.
Many queries (words of the pages now, words only the old copies or the removed pages held, a
word only a removed copy held whose beginning another page holds) must find the same pages
through the site's search as through one Pagefind bundle of the pages as they now are.
"""

from __future__ import annotations

import json
import random
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from site_builder import cli
from site_builder.search.delta import DELTA
from site_builder.search.shards import shard_count, shard_of
from tests.browser.pages import serving
from tests.browser.test_browser_search_shards import found, indexed_pages, indexed_words, one_bundle
from tests.pipeline.test_incremental import corpus, first_paragraph
from tests.support.sites import searchable, tree

pytestmark = pytest.mark.browser

N = 78  # 26 batches of three; the last one is added by the rebuild
ADDED = "batch_00025"
REMOVED = "batch_00013"
GONE_WORD = "zyxplaceholder"
"""Only on the first page of :data:`GONE_FROM` before the edit: the search must then fall back
to the word :data:`PREFIX`, which another page keeps, as one index of the site does (the base
itself would fall back to nothing: it still holds the hidden word)."""
GONE_FROM = "batch_00004"
PREFIX = "zyxplace"
PREFIX_ON = "batch_00005"
GONE_TOO = "zyxportmanteau"
"""Also on :data:`GONE_FROM` before the edit, with its beginning :data:`PORT` in another shard."""
PORT = "zyxport"
PORT_ON = "batch_00009"
VANISHED = "zyxvanishing"
"""Only on a page of :data:`REMOVED`."""
EDITED = ("batch_00004", "batch_00011", "batch_00020")
NEW_WORDS = ("zyxfreshword", "zyxedited", "zyxeditedtwice")


@dataclass(frozen=True)
class Rebuilt:
    out: Path
    before: dict[str, bytes]
    """The site of the first build."""
    old_pages: dict[str, str]
    """The indexed text of the first build's pages, by output path."""


def build(root: Path) -> None:
    code = cli.main(["build", "--root", str(root)])
    assert code == 0, f"site-builder build --root {root} exited with {code}"


@pytest.fixture(scope="module")
def rebuilt(tmp_path_factory: pytest.TempPathFactory) -> Rebuilt:
    """The corpus built, then edited (three batches), one batch added and one removed, built again."""
    root = tmp_path_factory.mktemp("delta") / "site"
    root.mkdir()
    corpus().write_site_builder(root, N)
    aside = root.parent / f"{ADDED}.py"
    shutil.move(root / "articles" / f"{ADDED}.py", aside)
    first_paragraph(root, GONE_FROM, f"{GONE_WORD} {GONE_TOO} ")
    first_paragraph(root, PREFIX_ON, f"{PREFIX} ")
    first_paragraph(root, PORT_ON, f"{PORT} ")
    first_paragraph(root, REMOVED, f"{VANISHED} ")
    assert shard_count(N // 3 - 1) == shard_count(N // 3) == 3
    assert shard_of(GONE_FROM, 3) == shard_of(PREFIX_ON, 3) != shard_of(PORT_ON, 3)
    build(root)
    out = root / "build"
    before = tree(out)
    old_pages = {page: " ".join(indexed_words(out, page)) for page in indexed_pages(out)}

    gone_from = root / "articles" / f"{GONE_FROM}.py"
    gone_from.write_text(gone_from.read_text("utf-8").replace(f"{GONE_WORD} {GONE_TOO} ", ""), "utf-8")
    for batch, word in zip(EDITED, NEW_WORDS, strict=True):
        first_paragraph(root, batch, f"{word} ")
    (root / "articles" / f"{REMOVED}.py").unlink()
    shutil.move(aside, root / "articles" / f"{ADDED}.py")
    build(root)
    return Rebuilt(out, before, old_pages)


def bundles(out: Path) -> list[str]:
    script = (out / "pagefind" / "site-search.js").read_text("utf-8")
    listed = re.search(r"var bundles = (\[.*?\]);", script)
    assert listed, script
    return list(json.loads(listed.group(1)))


def test_the_rebuild_adds_a_delta_and_leaves_the_base_as_it_was(rebuilt: Rebuilt) -> None:
    """The three shards were joined into one bundle, the base, which the rebuild leaves alone."""
    out = rebuilt.out
    assert bundles(out) == ["/pagefind/", f"/{DELTA}/"]
    now = tree(out)
    base = [path for path in rebuilt.before if path.startswith("pagefind/") and "/merged/" not in path]
    base = [path for path in base if not path.endswith("site-search.js")]
    assert base and all(now.get(path) == rebuilt.before[path] for path in base), "the base was indexed again"
    assert not [path for path in now if path.startswith("pagefind/shard-")]
    delta = {path for path in now if path.startswith(f"{DELTA}/fragment/")}
    # The article each edit changed (the first of its batch) and the added batch's three.
    assert len(delta) == len(EDITED) + 3, sorted(delta)


def test_the_pages_found_are_a_clean_build_s(rebuilt: Rebuilt, tmp_path: Path) -> None:
    """Every page of the site is found once, as it now is: the shards' copies of what changed or
    went are hidden (the fragments a reader can reach, compared with a clean build's)."""
    clean = tmp_path / "clean"
    code = cli.main(["build", "--root", str(rebuilt.out.parent), "--out", str(clean), "--no-cache"])
    assert code == 0
    ours, theirs = searchable(tree(rebuilt.out)), searchable(tree(clean))
    assert {p for p in ours if p.startswith("pagefind/found/")} == {
        p for p in theirs if p.startswith("pagefind/found/")
    }
    assert ours == theirs


def queries(out: Path, pages: list[str], old_pages: dict[str, str]) -> list[str]:
    """Words of the pages now, and of the first build's pages (some on no page now), whole, cut
    short, lengthened and in pairs; and the words the edits put in or took out."""
    now = sorted({word for page in pages for word in indexed_words(out, page)})
    old = sorted({word for text in old_pages.values() for word in text.split()} - set(now))
    rng = random.Random(7)
    chosen = rng.sample(now, 50)
    asked = chosen[:30] + rng.sample(old, min(10, len(old)))
    asked += [word[: max(3, len(word) * 2 // 3)] for word in chosen[30:45]]
    asked += [word + suffix for word, suffix in zip(chosen[45:], ["s", "ов", "x", "ами", "ing"], strict=True)]
    asked += [f"{a} {b}" for a, b in zip(chosen[::2], chosen[1::2], strict=True)]
    special = [
        GONE_WORD,
        GONE_WORD[:-2],
        PREFIX,
        GONE_TOO,
        PORT,
        VANISHED,
        VANISHED[:-3],
        *NEW_WORDS,
        "zyxedit",
    ]
    asked += special + [f"{chosen[0]} {word}" for word in special]
    return asked


def test_every_query_finds_what_one_bundle_of_the_site_finds(
    browser: Browser, chromium: Path, rebuilt: Rebuilt, tmp_path: Path
) -> None:
    out = rebuilt.out
    pages = indexed_pages(out)
    one = one_bundle(out, pages, tmp_path)
    asked = queries(out, pages, rebuilt.old_pages)
    with serving(out) as site, serving(one) as reference:
        ours = found(browser, site, "/pagefind/merged/pagefind.js", bundles(out)[1:], asked)
        theirs = found(browser, reference, "/pagefind/pagefind.js", [], asked)
    assert sum(bool(urls) for urls in theirs.values()) > len(asked) // 2, "too few queries find anything"
    assert theirs[GONE_WORD] == theirs[PREFIX] != [], "the removed word must fall back to its beginning"
    assert theirs[GONE_TOO] == theirs[PORT] != []
    assert theirs[VANISHED] == []
    differing = {q: (ours[q], theirs[q]) for q in asked if ours[q] != theirs[q]}
    assert differing == {}, f"{len(differing)} of {len(asked)} queries differ from one bundle: " + "; ".join(
        f"{q!r}: {a} against {b}" for q, (a, b) in list(differing.items())[:3]
    )
