"""The search box's script, and the module merging several bundles (``search/merged.py``): what
they name, below which path, and a ``pagefind.js`` the module's copy cannot work with."""

from __future__ import annotations

import pytest

from site_builder.search.merged import CORE, MODULE, UnmergeableError, merged_files, merging_script
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
