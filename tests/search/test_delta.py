"""A rebuild indexes the pages it changed into a delta over the last fold's bundles, hides the
base's copies of them, and folds once the delta would pass its size; a base made by another
Pagefind or for another language is never added to."""

from __future__ import annotations

import contextlib
import gzip
import io
import json
import re
from pathlib import Path

import pytest

from site_builder import cli
from site_builder.search import indexing, shards
from site_builder.search.delta import DELTA, BaseBundle, delta_of, page_ids, read_base, write_ids
from tests.pipeline.test_incremental import corpus, first_paragraph
from tests.support.sites import searchable, tree

N = 36  # twelve batches: two shards


def build(root: Path, *args: str) -> None:
    with contextlib.redirect_stderr(io.StringIO()) as said:
        code = cli.main(["build", "--root", str(root), *args])
    assert code == 0, said.getvalue()


def clean(root: Path, tmp_path: Path) -> dict[str, bytes]:
    build(root, "--no-cache", "--out", str(tmp_path / "clean"))
    return tree(tmp_path / "clean")


def delta_urls(out: Path) -> list[str]:
    """The URLs of the pages the delta bundle holds."""
    urls = []
    for fragment in sorted((out / DELTA / "fragment").glob("*.pf_fragment")):
        data = gzip.decompress(fragment.read_bytes())
        urls.append(json.loads(data[data.index(b"{") :])["url"])
    return sorted(urls)


@pytest.fixture
def site(tmp_path: Path) -> Path:
    root = tmp_path / "site"
    root.mkdir()
    corpus().write_site_builder(root, N)
    build(root)
    return root


def test_a_delta_past_its_size_is_folded_into_what_a_clean_build_makes(
    site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(indexing, "FOLD_PAGES", 2)
    out = site / "build"
    first_paragraph(site, "batch_00004", "Раз. ")
    build(site)
    assert delta_urls(out) == holding(out, "Раз.")
    assert searchable(tree(out)) == searchable(clean(site, tmp_path / "1"))

    first_paragraph(site, "batch_00001", "Два. ")  # with the first edit, two pages: still a delta
    build(site)
    assert len(delta_urls(out)) == 2

    first_paragraph(site, "batch_00007", "Три. ")  # three: folded
    build(site)
    assert not (out / DELTA).exists()
    assert tree(out) == clean(site, tmp_path / "3"), "a fold is not a clean build's index, byte for byte"

    first_paragraph(site, "batch_00007", "Четыре. ")  # a delta over the new base
    build(site)
    assert delta_urls(out) == holding(out, "Четыре.")
    assert searchable(tree(out)) == searchable(clean(site, tmp_path / "4"))


def later_revision(site: Path, batch: str, words: str) -> Path:
    """A batch of its own holding a later revision of the first article of ``batch``, its first
    paragraph opening with ``words``: that article's page now shows its history, which only the
    main process renders, once every batch has arrived."""
    text = (site / "articles" / f"{batch}.py").read_text("utf-8")
    start = text.index("    revision(\n", text.index("revisions = ["))
    end = text.index("\n    ),\n", start) + len("\n    )")
    first = text[start:end]
    published = re.search(r"published='([^']*)',", first)
    assert published is not None, first
    later = first.replace(
        published.group(0),
        f"{published.group(0)} revised='2026-01-05', changes='Новое начало первого абзаца.',",
        1,
    ).replace("paragraph('", f"paragraph({words!r} '", 1)
    path = site / "articles" / "zz_later.py"
    path.write_text(f"{text[: text.index('revisions = [')]}revisions = [\n{later},\n]\n", "utf-8")
    return path


def test_a_page_rewritten_after_the_delta_was_decided_is_indexed_as_rewritten(
    site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The delta is decided, and its indexer started, once every batch has arrived (while the
    site-wide pages are rendered); a page the main process renders again after that (an article
    given a later revision in another batch) decides it again, its indexer stopped."""
    undone: list[bool] = []
    unsettle = indexing.Indexing._unsettle

    def spied(self: indexing.Indexing) -> None:
        undone.append(self.delta is not None)
        unsettle(self)

    monkeypatch.setattr(indexing.Indexing, "_unsettle", spied)
    out = site / "build"
    first_paragraph(site, "batch_00007", "Пять. ")
    later_revision(site, "batch_00004", "Шесть.")
    build(site)
    assert undone == [True], "the delta decided with the edited batch alone was not undone"
    assert delta_urls(out) == sorted([*holding(out, "Пять."), *holding(out, "Шесть.")])
    assert len(delta_urls(out)) == 2
    assert searchable(tree(out)) == searchable(clean(site, tmp_path))


def holding(out: Path, words: str) -> list[str]:
    """The URLs of the article pages (not their revisions) whose text holds ``words``."""
    pages = sorted((out / "articles").glob("*/index.html"))
    return [f"/articles/{page.parent.name}/" for page in pages if words in page.read_text("utf-8")]


def test_a_base_another_pagefind_or_language_made_is_not_added_to(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pages = {"a/index.html": "1" * 64, "b/index.html": "2" * 64}
    key = shards.make_shard(0, pages, "en").key
    write_ids(tmp_path / f"{key}.pages", {path: (sha, f"en_{path[0]}") for path, sha in pages.items()})
    (base,) = read_base(tmp_path, {"pagefind": key}, "en") or ()
    assert base == BaseBundle(
        "pagefind", key, {"a/index.html": ("1" * 64, "en_a"), "b/index.html": ("2" * 64, "en_b")}
    )
    assert read_base(tmp_path, {"pagefind": key}, "ru") is None
    monkeypatch.setattr(shards, "pagefind_version", lambda: "pagefind 9.9.9")
    assert read_base(tmp_path, {"pagefind": key}, "en") is None
    assert read_base(tmp_path, {"pagefind": "0" * 64}, "en") is None  # not kept


def test_a_delta_holds_what_changed_or_came_and_hides_what_changed_or_went() -> None:
    base = (
        BaseBundle("pagefind", "k0", {"a.html": ("1", "id_a"), "b.html": ("2", "id_b")}),
        BaseBundle("pagefind/shard-01", "k1", {"c.html": ("3", "id_c"), "d.html": ("4", "")}),
    )
    delta = delta_of(base, {"a.html": "1", "b.html": "2*", "d.html": "4*", "e.html": "5"})
    assert delta.pages == {"b.html": "2*", "d.html": "4*", "e.html": "5"}
    # c went, b changed; d changed too, but Pagefind had left it out: nothing of it to hide.
    assert delta.hidden == {"pagefind": frozenset({"id_b"}), "pagefind/shard-01": frozenset({"id_c"})}


def test_each_page_has_the_fragment_id_its_result_has(site: Path) -> None:
    out = site / "build"
    pages = {
        p.relative_to(out).as_posix(): "sha"
        for p in (out / "articles").glob("*/index.html")
        if "data-pagefind-body" in p.read_text("utf-8")
    }
    holders: dict[str, list[str]] = {path: [] for path in pages}
    for bundle in (out / "pagefind", out / "pagefind/shard-01"):
        ids = page_ids(bundle, pages)  # every page of the site asked of each bundle
        assert ids is not None and set(ids) == set(pages)
        for path, (_, ident) in ids.items():
            if not ident:
                continue  # not in this bundle
            holders[path].append(bundle.name)
            data = gzip.decompress((bundle / "fragment" / f"{ident}.pf_fragment").read_bytes())
            assert json.loads(data[data.index(b"{") :])["url"] == "/" + path.removesuffix("index.html")
    assert all(len(found) == 1 for found in holders.values()), holders


def test_bundles_kept_without_their_pages_ids_become_a_base_at_the_next_build(site: Path) -> None:
    """A cache an earlier version filled holds bundles but not which fragment is which page: the
    next build cannot add to them (it indexes its shards, reusing them) and keeps their ids."""
    out = site / "build"
    kept = site / ".site-builder-cache" / "search"
    for ids in kept.glob("*.pages"):
        ids.unlink()
    first_paragraph(site, "batch_00004", "Раз. ")
    build(site)
    assert not (out / DELTA).exists()
    assert sorted(path.name.split(".")[0] for path in kept.glob("*.pages")) == sorted(
        path.name for path in kept.iterdir() if path.is_dir()
    )
    first_paragraph(site, "batch_00004", "Два. ")
    build(site)
    assert delta_urls(out) == holding(out, "Два.")


def test_two_output_folders_built_by_turns_each_keep_their_base(
    site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A writer runs ``serve`` and ``build`` by turns, each into its own folder: a build that
    folds must not drop the bundles the other folder's site is made of, or that folder's next
    rebuild has no base to add a delta to and indexes its shards again."""
    monkeypatch.setattr(indexing, "FOLD_PAGES", 1)
    other = tmp_path / "other"
    build(site, "--out", str(other))  # the same shards as the first build's: taken from the cache
    first_paragraph(site, "batch_00004", "Раз. ")
    first_paragraph(site, "batch_00007", "Два. ")
    build(site)  # two pages: folded, a new base for build/
    assert not (site / "build" / DELTA).exists()
    batch = site / "articles/batch_00007.py"
    batch.write_text(batch.read_text("utf-8").replace("'Два. ' + ", ""), "utf-8")

    build(site, "--out", str(other))  # one page from its base (batch_00004's): a delta
    assert delta_urls(other) == holding(other, "Раз.")
    build(site)  # and one from build/'s (batch_00007's, back as it was)
    assert len(delta_urls(site / "build")) == 1


def test_a_fold_indexes_again_only_the_shards_that_changed_since_the_base(
    site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The base is the shards' join; the cache keeps the shards themselves through the builds
    that add a delta to it, so that a fold indexes only those whose pages changed."""
    monkeypatch.setattr(indexing, "FOLD_PAGES", 1)
    batches = sorted(path.stem for path in (site / "articles").glob("batch_*.py"))
    count = shards.shard_count(len(batches))
    first, second = [name for name in batches if shards.shard_of(name, count) == 0][:2]
    runs: list[list[str]] = []
    start = indexing.start_pagefind

    def counted(site: Path, pages: list[str], *args: object, **options: object) -> object:
        runs.append(sorted(pages))
        return start(site, pages, *args, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(indexing, "start_pagefind", counted)
    build(site, "--no-cache", "--out", str(tmp_path / "clean"))
    assert count == len(runs) == 2
    cold, runs[:] = list(runs), []
    first_paragraph(site, first, "Раз. ")
    build(site)  # one page: a delta over the join
    assert len(runs) == 1 and len(runs[0]) == 1 and (site / "build" / DELTA).is_dir()
    (edited,) = runs[0]
    first_paragraph(site, second, "Два. ")
    build(site)  # two pages: folded
    assert not (site / "build" / DELTA).exists()
    changed = next(pages for pages in cold if edited in pages)
    assert runs[1:] == [changed], "the fold indexed another shard too"


def test_shards_joined_into_several_bundles_take_a_delta_and_fold_as_a_clean_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A larger site's shards are joined into several bundles (runs of neighbouring shards): a
    delta is added over all of them, and a fold makes what a clean build makes, byte for byte."""
    monkeypatch.setattr(shards, "BATCHES_PER_SHARD", 3)  # the twelve batches: four shards
    monkeypatch.setattr(shards, "JOINED_PAGES", 18)  # 36 pages: two bundles of two shards each
    monkeypatch.setattr(indexing, "FOLD_PAGES", 1)
    root = tmp_path / "site"
    root.mkdir()
    corpus().write_site_builder(root, N)
    build(root)
    out = root / "build"
    assert searchable_bundles(out) == ["/pagefind/", "/pagefind/shard-01/"]
    counts = [
        len(list((out / folder / "fragment").iterdir())) for folder in ("pagefind", "pagefind/shard-01")
    ]
    assert sum(counts) == N and min(counts) > N // 4, counts  # each of two shards' pages

    first_paragraph(root, "batch_00004", "Раз. ")
    build(root)
    assert searchable_bundles(out) == ["/pagefind/", "/pagefind/shard-01/", f"/{DELTA}/"]
    assert delta_urls(out) == holding(out, "Раз.")
    assert searchable(tree(out)) == searchable(clean(root, tmp_path / "1"))

    first_paragraph(root, "batch_00009", "Два. ")  # two pages: folded
    build(root)
    assert not (out / DELTA).exists()
    assert tree(out) == clean(root, tmp_path / "2"), "a fold is not a clean build's index, byte for byte"


def searchable_bundles(out: Path) -> list[str]:
    script = (out / "pagefind" / "site-search.js").read_text("utf-8")
    listed = re.search(r"var bundles = (\[.*?\]);", script)
    assert listed, script
    return list(json.loads(listed.group(1)))
