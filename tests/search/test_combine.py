"""Pagefind bundles joined into one hold what one Pagefind run over all their pages holds: every
word (and its spellings with diacritics) on the same pages at the same places, every filter
value on the same pages; bundles that cannot be joined exactly are refused."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import cbor2
import pytest

from site_builder.search.combine import SIGNATURE, UncombinableError, combine
from site_builder.search.joining import REFUSED, start_join
from site_builder.search.pagefind import start_pagefind
from site_builder.search.store import bundle_files

WORDS = ("счётчик", "кворум", "quorum", "retry", "café", "log", "журнал", "ёлка")


def page(n: int, *, sort: bool = False) -> str:
    """A page of words, some on every page, some on a few; a filter; with ``sort``, a sort key."""
    words = " ".join(WORDS[i % len(WORDS)] for i in range(n % 5, n % 5 + 3 + n % 4))
    key = f'<span data-pagefind-sort="weight">{n}</span>' if sort else ""
    return (
        f"<html><head><title>P{n}</title></head><body><main data-pagefind-body><h1>Page {n}</h1>"
        f'<p data-pagefind-filter="colour">c{n % 3}</p><h2 id="part">Part</h2><p>{words} word{n} {key}</p>'
        "</main></body></html>"
    )


def index(site: Path, pages: list[str], out: Path) -> Path:
    """A Pagefind run over ``pages`` of ``site`` into ``out``."""
    process = start_pagefind(site, pages, out.with_name(out.name + ".run"), out, "ru")
    _, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    return out


def site_of(root: Path, count: int, *, sort: bool = False) -> list[str]:
    paths = []
    for n in range(count):
        path = f"p{n:02d}/index.html"
        (root / path).parent.mkdir(parents=True)
        (root / path).write_text(page(n, sort=sort), "utf-8")
        paths.append(path)
    return paths


def load(file: Path) -> Any:
    data = gzip.decompress(file.read_bytes())
    assert data.startswith(SIGNATURE)
    return cbor2.loads(data[len(SIGNATURE) :])


def contents(bundle: Path) -> dict[str, Any]:
    """What a bundle says, by URL rather than by page number: each word's pages (URL, and its
    places) and spellings, each filter value's URLs, each URL's word count."""
    entry = json.loads((bundle / "pagefind-entry.json").read_text("utf-8"))
    (language,) = entry["languages"]
    meta = load(bundle / f"pagefind.{entry['languages'][language]['hash']}.pf_meta")
    urls = []
    for fragment, _ in meta[1]:
        data = gzip.decompress((bundle / "fragment" / f"{fragment}.pf_fragment").read_bytes())
        urls.append(json.loads(data[len(SIGNATURE) :])["url"])
    differences = meta[0].startswith("1.5.")

    def pages(found: list[list[Any]]) -> list[tuple[Any, ...]]:
        number, named = 0, []
        for entry in found:
            number = number + entry[0] if differences else entry[0]
            named.append((urls[number], json.dumps(entry[1:])))
        return sorted(named)

    words = {}
    for _, _, chunk in meta[2]:
        for word in load(bundle / "index" / f"{chunk}.pf_index")[0]:
            assert word[0] not in words, f"{word[0]} twice"
            spellings = sorted(
                (spelling, pages(found)) for spelling, found in (word[2] if len(word) > 2 else [])
            )
            words[word[0]] = (pages(word[1]), spellings)
    filters = {}
    for name, file in meta[3]:
        for value, found in load(bundle / "filter" / f"{file}.pf_filter")[1]:
            filters[(name, value)] = sorted(urls[n] for n in found)
    counts = sorted((urls[n], count) for n, (_, count) in enumerate(meta[1]))
    entry["languages"][language].pop("hash")  # the metadata's name: a hash of it
    return {"words": words, "filters": filters, "counts": counts, "fields": meta[5:], "entry": entry}


@pytest.fixture(scope="module")
def bundles(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[Path], Path]:
    """Three bundles of 7, 9 and 8 pages, and one bundle of all 24."""
    root = tmp_path_factory.mktemp("combine")
    paths = site_of(root / "site", 24)
    parts = [paths[:7], paths[7:16], paths[16:]]
    made = [index(root / "site", part, root / f"part{n}") for n, part in enumerate(parts)]
    return made, index(root / "site", paths, root / "whole")


def test_joined_bundles_hold_what_one_run_over_their_pages_holds(
    bundles: tuple[list[Path], Path], tmp_path: Path
) -> None:
    parts, whole = bundles
    combine(parts, tmp_path / "joined")
    joined, expected = contents(tmp_path / "joined"), contents(whole)
    assert joined["words"] == expected["words"]
    assert (
        any(spellings for _, spellings in expected["words"].values()) or expected["entry"]["version"] < "1.5"
    )
    assert joined["filters"] == expected["filters"] and len(expected["filters"]) == 3
    assert joined["counts"] == expected["counts"] and len(joined["counts"]) == 24
    assert joined["fields"] == expected["fields"]
    assert joined["entry"] == expected["entry"] and joined["entry"]["languages"]["ru"]["page_count"] == 24
    assert own_files(tmp_path / "joined") == own_files(whole)  # the fragments, the scripts, the WebAssembly


def own_files(bundle: Path) -> set[str]:
    """A bundle's files but its index, filters and metadata, which are named by their contents."""
    return {
        name
        for name in bundle_files(bundle)
        if not name.startswith(("index/", "filter/")) and "pf_meta" not in name
    }


def test_joining_gives_the_same_bytes_twice(bundles: tuple[list[Path], Path], tmp_path: Path) -> None:
    parts, _ = bundles
    combine(parts, tmp_path / "a")
    combine(parts, tmp_path / "b")
    names = bundle_files(tmp_path / "a")
    assert names == bundle_files(tmp_path / "b")
    assert all((tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes() for name in names)


def test_a_join_in_a_process_of_its_own_writes_what_combine_writes(
    bundles: tuple[list[Path], Path], tmp_path: Path
) -> None:
    parts, _ = bundles
    combine(parts, tmp_path / "here")
    process = start_join(parts, tmp_path / "there")
    out, err = process.communicate(timeout=120)
    assert (process.returncode, out, err) == (0, "", "")
    names = bundle_files(tmp_path / "here")
    assert names == bundle_files(tmp_path / "there") and len(names) > 24
    assert all((tmp_path / "here" / n).read_bytes() == (tmp_path / "there" / n).read_bytes() for n in names)


def test_a_join_refused_in_its_own_process_exits_saying_why(tmp_path: Path) -> None:
    paths = site_of(tmp_path / "site", 4, sort=True)
    parts = [
        index(tmp_path / "site", paths[:2], tmp_path / "a"),
        index(tmp_path / "site", paths[2:], tmp_path / "b"),
    ]
    process = start_join(parts, tmp_path / "joined")
    _, err = process.communicate(timeout=120)
    assert process.returncode == REFUSED and "sort" in err


def test_one_bundle_joined_is_itself(bundles: tuple[list[Path], Path], tmp_path: Path) -> None:
    _, whole = bundles
    combine([whole], tmp_path / "one")
    assert contents(tmp_path / "one") == contents(whole)


def test_bundles_with_sort_orders_are_refused(tmp_path: Path) -> None:
    paths = site_of(tmp_path / "site", 4, sort=True)
    parts = [
        index(tmp_path / "site", paths[:2], tmp_path / "a"),
        index(tmp_path / "site", paths[2:], tmp_path / "b"),
    ]
    with pytest.raises(UncombinableError, match="sort"):
        combine(parts, tmp_path / "joined")


def test_a_pagefind_version_it_does_not_read_is_refused(
    bundles: tuple[list[Path], Path], tmp_path: Path
) -> None:
    parts, _ = bundles
    entry = tmp_path / "part" / "pagefind-entry.json"
    entry.parent.mkdir()
    for name in bundle_files(parts[0]):
        (tmp_path / "part" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "part" / name).write_bytes((parts[0] / name).read_bytes())
    entry.write_text(json.dumps({**json.loads(entry.read_text("utf-8")), "version": "2.0.0"}), "utf-8")
    with pytest.raises(UncombinableError, match=r"2\.0\.0"):
        combine([tmp_path / "part", parts[1]], tmp_path / "joined")


def test_a_file_not_as_pagefind_writes_it_is_refused(
    bundles: tuple[list[Path], Path], tmp_path: Path
) -> None:
    """A word index of another shape (a later Pagefind's, or a damaged one) is refused, not a crash."""
    parts, _ = bundles
    part = tmp_path / "part"
    for name in bundle_files(parts[0]):
        (part / name).parent.mkdir(parents=True, exist_ok=True)
        (part / name).write_bytes((parts[0] / name).read_bytes())
    chunk = next((part / "index").iterdir())
    chunk.write_bytes(gzip.compress(SIGNATURE + cbor2.dumps({"words": "not a list"})))
    with pytest.raises(UncombinableError, match="not as Pagefind writes it"):
        combine([part, parts[1]], tmp_path / "joined")
