"""The search indexer reads the staged site in place: Pagefind is told which pages form a
shard by a glob, so a page's path must reach it as a literal path whatever it holds."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from site_builder.build.staging import link
from site_builder.search.indexing import Index, Indexing

PAGE = """<!doctype html><html lang="en"><head><title>{title}</title></head>
<body><main data-pagefind-body><h1>{title}</h1><p>{word} is here.</p></main></body></html>
"""

ODD = "odd{b},c*[x]?/index.html"
"""A folder name made of the characters a glob reads as syntax (Pagefind reads a backslash
in a path as a Windows separator: our slugs never hold one)."""


def open_indexing(staging: Path, names: list[str], jobs: int) -> Indexing:
    """An index of the staged site with nothing kept from earlier builds."""
    indexing = Indexing(staging, None, staging.parent / "scratch", "en", lambda _key: None, jobs)
    indexing.start(names)
    return indexing


def finished(indexing: Indexing, staging: Path) -> Index:
    """Finish the index and publish its bundles into the staging folder, as a build does."""
    index = indexing.finish()
    for path, source in index.files.items():
        link(source, staging / path)
    return index


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


def test_a_shard_starts_when_the_last_of_its_batches_arrives_and_only_then(tmp_path: Path) -> None:
    staging = tmp_path / "staging"
    names = [f"batch_{n:05d}" for n in range(25)]  # three shards of about ten batches
    pages = {}
    for name in names:
        path = f"articles/{name.replace('_', '-')}/index.html"
        (staging / path).parent.mkdir(parents=True)
        (staging / path).write_text(PAGE.format(title=name, word="zyx" + name[-5:]), "utf-8")
        pages[name] = {path: "sha-" + name}
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
    assert list(index.bundles) == ["pagefind", "pagefind/shard-01", "pagefind/shard-02"]
    for number, folder in enumerate(index.bundles):  # published in shard order, whatever finished first
        urls = {"/" + path.removesuffix("index.html") for name in by_shard[number] for path in pages[name]}
        assert indexed_urls(staging / folder) == urls
