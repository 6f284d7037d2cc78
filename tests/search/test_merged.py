"""The search box's script, and the module merging several bundles (``search/merged.py``): what
they name, below which path, and a ``pagefind.js`` the module's copy cannot work with."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from site_builder.search.heads import CORE, HEADS, WORKER, bundle_heads, unpacked
from site_builder.search.merged import MODULE, UnmergeableError, merged_files, merging_script
from site_builder.search.pagefind import start_pagefind

ONE_PAGE = (
    '<!doctype html><html lang="en"><body><main data-pagefind-body><p>placeholder</p></main></body></html>'
)


@pytest.fixture(scope="module")
def pagefind_js(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The ``pagefind.js`` the installed Pagefind writes."""
    folder = tmp_path_factory.mktemp("pagefind")
    (folder / "site" / "a").mkdir(parents=True)
    (folder / "site" / "a" / "index.html").write_text(ONE_PAGE, "utf-8")
    process = start_pagefind(folder / "site", ["a/index.html"], folder / "run", folder / "out", "en")
    _, err = process.communicate()
    assert process.returncode == 0, err
    return (folder / "out" / "pagefind.js").read_text("utf-8")


WORKER_JS = "self.onmessage = () => {};"
"""A worker script: what the copy of it keeps of the original."""


def test_one_bundle_is_searched_by_pagefind_itself() -> None:
    script = merging_script(["/pagefind/"], "/")
    assert "bundlePath: bundles[0]," in script, script
    assert "merged" not in script


@pytest.mark.parametrize("base", ["/", "/sub/"])
def test_several_bundles_are_searched_through_the_module_below_the_path(base: str) -> None:
    script = merging_script(["/pagefind/", "/pagefind/shard-01/"], base)
    assert f'bundlePath: "{base}pagefind/merged/"' in script, script
    assert f'var bundles = ["{base}pagefind/", "{base}pagefind/shard-01/"];' in script, script


@pytest.mark.parametrize("base", ["/", "/sub/dir/"])
def test_the_module_reads_the_first_bundle_below_the_path_through_a_copy_of_its_script(
    pagefind_js: str, base: str
) -> None:
    files = merged_files(pagefind_js, base)
    assert sorted(files) == sorted([MODULE, CORE])
    assert f'basePath: "{base}pagefind/"' in files[MODULE]
    assert 'from "./pagefind-core.js"' in files[MODULE]
    assert "export async function search(" in files[MODULE]
    assert not re.search(r"^\s*//", str(files[MODULE]), re.MULTILINE)  # its comments stay in the source
    assert files[CORE].startswith(pagefind_js)  # Pagefind's own, with one export added
    assert files[CORE][len(pagefind_js) :].count("export const enterPlaygroundMode") == 1


@pytest.mark.parametrize(
    ("missing", "named"),
    [
        ("var pagefind=", "var pagefind"),
        ("var init_pagefind=", "init_pagefind"),
        ("enterPlaygroundMode(", "enterPlay"),
    ],
    ids=["instance", "init", "playground"],
)
def test_a_pagefind_js_without_what_the_copy_calls_is_refused_by_name(
    pagefind_js: str, missing: str, named: str
) -> None:
    assert missing in pagefind_js  # the installed Pagefind has it
    changed = pagefind_js.replace(missing, missing.replace("pagefind", "pf").replace("Playground", "Play"))
    with pytest.raises(UnmergeableError, match=r"pagefind\.js has no") as refused:
        merged_files(changed, "/")
    assert named in str(refused.value)


@pytest.mark.parametrize("base", ["/", "/sub/"])
def test_each_bundle_s_entry_and_metadata_are_one_file_below_the_path(tmp_path: Path, base: str) -> None:
    files = {}
    for path, data in [
        ("pagefind/pagefind-entry.json", b'{"version": "1"}'),
        ("pagefind/pagefind.en_1a.pf_meta", bytes(range(256))),
        ("pagefind/index/en_2b.pf_index", b"index"),
        ("pagefind/shard-01/pagefind-entry.json", b'{"version": "2"}'),
        ("pagefind/shard-01/pagefind.en_3c.pf_meta", b"\x1f\x8b meta"),
        ("pagefind/shard-01/fragment/en_4d.pf_fragment", b"fragment"),
    ]:
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_bytes(data)
        files[path] = tmp_path / path
    heads = bundle_heads(files, ["pagefind", "pagefind/shard-01"], base)
    assert heads == {
        f"{base}pagefind/pagefind-entry.json": b'{"version": "1"}',
        f"{base}pagefind/pagefind.en_1a.pf_meta": bytes(range(256)),
        f"{base}pagefind/shard-01/pagefind-entry.json": b'{"version": "2"}',
        f"{base}pagefind/shard-01/pagefind.en_3c.pf_meta": b"\x1f\x8b meta",
    }
    written = merged_files(PAGEFIND_WITH_WORKER, base, worker_js=WORKER_JS, heads=heads)[HEADS]
    assert isinstance(written, bytes)
    assert unpacked(written) == heads
    where = json.loads(written.partition(b"\n")[0])  # each file's start and length, after the line
    assert sorted(where) == sorted(heads) and sum(length for _, length in where.values()) == sum(
        map(len, heads.values())
    )


PAGEFIND_WITH_WORKER = (
    "var pagefind=1;var init_pagefind=()=>{};pagefind.enterPlaygroundMode();"
    "function initSharedWorker(basePath){const workerUrl=`${basePath}pagefind-worker.js`;}"
)
"""A ``pagefind.js`` that starts its worker as Pagefind 1.5's does."""


def test_the_copies_ask_the_one_file_and_the_copy_of_pagefind_js_starts_the_copy_of_the_worker() -> None:
    files = merged_files(PAGEFIND_WITH_WORKER, "/sub/", worker_js=WORKER_JS, heads={})
    assert sorted(files) == sorted([MODULE, CORE, WORKER, HEADS])
    assert "`${basePath}merged/pagefind-worker.js`" in files[CORE]
    assert "`${basePath}pagefind-worker.js`" not in files[CORE]
    for name, script, original in [
        (CORE, files[CORE], PAGEFIND_WITH_WORKER),
        (WORKER, files[WORKER], WORKER_JS),
    ]:
        kept = original.replace("`${basePath}pagefind-worker.js`", "`${basePath}merged/pagefind-worker.js`")
        added = script[: script.index(kept)]  # the original follows what is added, whole
        assert '"/sub/pagefind/merged/heads.bin"' in added, name
        assert added.startswith("const fetch = " if name == CORE else "self.fetch = "), name


def test_without_a_worker_to_start_no_copy_of_one_is_written() -> None:
    without = PAGEFIND_WITH_WORKER.replace("pagefind-worker.js", "other.js")
    files = merged_files(without, "/", worker_js=WORKER_JS, heads={})
    assert sorted(files) == sorted([MODULE, CORE, HEADS])
    assert files[CORE].endswith(without + files[CORE].partition(without)[2])
