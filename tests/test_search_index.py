"""The search indexer reads the staged site in place: Pagefind is told which pages form a
shard by a glob, so a page's path must reach it as a literal path whatever it holds."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from site_builder.search import Indexing, finish_index

PAGE = """<!doctype html><html lang="en"><head><title>{title}</title></head>
<body><main data-pagefind-body><h1>{title}</h1><p>{word} is here.</p></main></body></html>
"""

ODD = "odd{b},c*[x]?/index.html"
"""A folder name made of the characters a glob reads as syntax (Pagefind reads a backslash
in a path as a Windows separator: our slugs never hold one)."""


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
    indexing = Indexing.open(staging, [], "en", None, lambda _key: None, jobs=1)

    indexing.everything({path: "sha-" + path for path in chosen})
    problems, bundles = finish_index(indexing)

    assert problems == []
    assert list(bundles) == ["pagefind"]
    expected = {"/" + path.removesuffix("index.html") for path in chosen}
    assert indexed_urls(staging / "pagefind") == expected
