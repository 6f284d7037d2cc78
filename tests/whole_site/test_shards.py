"""``--shard I/N`` and ``--shards N`` on the all-features site: three shards run in three
folders (as three CI jobs would), their cache folders merged into a fourth by copying, and the
final build there equals a clean build byte for byte, its messages included, with no batch
imported and no fixture run. A merged cache that is not a whole set of this site's shards is
refused, and the site already built stays as it was."""

from __future__ import annotations

import contextlib
import io
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from site_builder import cli
from site_builder.pipeline.shards import Shard, shard_of
from site_builder.pipeline.worker.workers import Workers
from tests.support.drafts_site import epoch
from tests.support.sites import RunCli, tree
from tests.whole_site.test_all_features import BASES, BUILD_DATE, FLAGS, copy_site

CACHE = ".site-builder-cache"


@pytest.fixture(autouse=True)
def build_date(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch(BUILD_DATE))


@pytest.fixture
def imported(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The batch modules handed to a worker (to import, judge and run the fixtures of), in order."""
    loaded: list[str] = []
    submit = Workers.submit
    monkeypatch.setattr(
        Workers, "submit", lambda self, path, key: (loaded.append(path.name), submit(self, path, key))
    )
    yield loaded


def run(argv: list[str]) -> tuple[int, str]:
    said = io.StringIO()
    with contextlib.redirect_stderr(said):
        code = cli.main(argv)
    return code, said.getvalue()


def shards(tmp_path: Path, base_url: str, count: int, *flags: str, command: str = "build") -> list[Path]:
    """The site run as ``count`` shards, each in a folder of its own: those folders."""
    folders = []
    for number in range(1, count + 1):
        root = copy_site(tmp_path / f"shard{number}", base_url)
        code, said = run([command, "--root", str(root), "--shard", f"{number}/{count}", *flags])
        assert code == 0, said
        folders.append(root)
    return folders


def merged(tmp_path: Path, base_url: str, folders: list[Path]) -> Path:
    """A fresh copy of the site whose cache folder is every shard's, copied in (times kept)."""
    root = copy_site(tmp_path / "final", base_url)
    for folder in folders:
        shutil.copytree(folder / CACHE, root / CACHE, dirs_exist_ok=True)
    return root


def without_times(said: str) -> str:
    return "\n".join(
        line.rsplit(" in ", 1)[0] if line.startswith("built ") else line for line in said.splitlines()
    )


@pytest.mark.parametrize(("base", "flags"), [("root", "published"), ("sub-dir", "drafts-future")])
def test_three_shards_merged_build_the_clean_site_and_the_final_build_runs_no_fixture(
    tmp_path: Path, imported: list[str], base: str, flags: str
) -> None:
    folders = shards(tmp_path, BASES[base], 3, *FLAGS[flags])
    by_shard = sorted(imported)
    assert by_shard == sorted(p.name for p in (folders[0] / "articles").glob("[!_]*.py"))  # each once
    assert {shard_of(name, 3) for name in by_shard} == {1, 3}  # this site's five modules: shard 2 has none
    root = merged(tmp_path, BASES[base], folders)
    imported.clear()

    code, said = run(["build", "--root", str(root), "--shards", "3", *FLAGS[flags]])

    assert code == 0, said
    assert imported == []  # nothing imported again: no fixture ran
    clean = copy_site(tmp_path / "clean", BASES[base])
    clean_code, clean_said = run(["build", "--root", str(clean), "--no-cache", *FLAGS[flags]])
    assert clean_code == 0
    assert without_times(said) == without_times(clean_said)  # the warnings name this site's files
    built, expected = tree(root / "build"), tree(clean / "build")
    assert sorted(built) == sorted(expected)
    assert [path for path in built if built[path] != expected[path]] == []


def test_validate_shards_then_a_final_validate_runs_no_fixture(tmp_path: Path, imported: list[str]) -> None:
    folders = shards(tmp_path, BASES["root"], 2, command="validate")
    root = merged(tmp_path, BASES["root"], folders)
    imported.clear()
    code, said = run(["validate", "--root", str(root), "--shards", "2"])
    assert code == 0, said
    assert imported == []
    assert said.splitlines()[-2] == "ok: 10 revisions valid, 3 fixtures passed"  # kept outcomes


def final_refused(root: Path, *args: str) -> str:
    """The final build's message, once it has refused: the site built before stays whole."""
    (root / "build").mkdir()
    (root / "build" / "index.html").write_text("the site before", "utf-8")
    code, said = run(["build", "--root", str(root), *args])
    assert code == 1, said
    assert (root / "build" / "index.html").read_text("utf-8") == "the site before"
    assert said.count("\n") == 1
    return said.removeprefix("site-builder: ").rstrip("\n")


def test_a_missing_shard_is_refused_naming_it(tmp_path: Path) -> None:
    folders = shards(tmp_path, BASES["root"], 3)
    root = merged(tmp_path, BASES["root"], [folders[0], folders[2]])
    assert final_refused(root, "--shards", "3") == (
        f"--shards 3: shard 2 of 3 is not in {root / CACHE}; merge every shard's cache folder into "
        "this one before the final run (nothing was built)"
    )


def test_shards_of_another_count_are_refused_naming_theirs(tmp_path: Path) -> None:
    root = merged(tmp_path, BASES["root"], shards(tmp_path, BASES["root"], 2))
    assert final_refused(root, "--shards", "3") == (
        f"--shards 3: shards 1, 2 and 3 of 3 are not in {root / CACHE}; the cache holds shards of 2, "
        "not of 3; merge every shard's cache folder into this one before the final run (nothing was built)"
    )


def test_a_shard_of_other_sources_another_version_or_schedule_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = merged(tmp_path, BASES["root"], shards(tmp_path, BASES["root"], 2))
    batch = root / "articles" / "c_2022_ko.py"
    batch.write_text(batch.read_text("utf-8") + "\n# edited after its shard ran\n", "utf-8")
    number = shard_of("c_2022_ko.py", 2)
    assert final_refused(root, "--shards", "2") == (
        f"c_2022_ko.py is shard {number} of 2's and has changed since it was: run that shard again on "
        "these sources, then merge its cache folder"
    )
    shutil.rmtree(root / "build")
    settings = root / "pyproject.toml"
    settings.write_text(settings.read_text("utf-8").replace('title = "', 'title = "Other '), "utf-8")
    assert final_refused(root, "--shards", "2") == (
        "shard 1 of 2 was made from other settings, templates, helper modules or site-builder code "
        "than this site's: run every shard again on the same sources"
    )
    shutil.rmtree(root / "build")
    monkeypatch.setattr("site_builder.pipeline.shards.__version__", "9.9.9")
    assert final_refused(root, "--shards", "2").startswith(
        "shard 1 of 2 was made by site-builder 0.1.0; this is 9.9.9"
    )


def test_a_shard_made_for_another_day_or_by_validate_is_refused(tmp_path: Path) -> None:
    root = merged(tmp_path, BASES["root"], shards(tmp_path, BASES["root"], 2, "--drafts"))
    assert final_refused(root, "--shards", "2") == (
        "shard 1 of 2 was made for 2024-01-01 --drafts, this run is for 2024-01-01: give every shard "
        "the same SOURCE_DATE_EPOCH, --drafts and --future"
    )
    validated = merged(
        tmp_path / "v", BASES["root"], shards(tmp_path / "v", BASES["root"], 2, command="validate")
    )
    assert final_refused(validated, "--shards", "2") == (
        "shard 1 of 2 was made by validate --shard: a build needs build --shard"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--shard", "0/3"],
            "argument --shard: give I/N, a shard I of N with 1 <= I <= N (e.g. 2/4), not '0/3'",
        ),
        (
            ["--shard", "4/3"],
            "argument --shard: give I/N, a shard I of N with 1 <= I <= N (e.g. 2/4), not '4/3'",
        ),
        (["--shards", "0"], "argument --shards: must be 1 or more"),
        (["--shard", "1/2", "--shards", "2"], "argument --shards: not allowed with argument --shard"),
    ],
)
def test_a_shard_given_wrong_is_a_usage_error(
    tmp_path: Path, run_cli: RunCli, args: list[str], message: str
) -> None:
    root = copy_site(tmp_path, BASES["root"])
    result = run_cli(["build", "--root", str(root), *args])
    assert result.code == 2
    assert result.err.splitlines()[-1].endswith(message), result.err


def test_no_cache_goes_with_neither(tmp_path: Path, run_cli: RunCli) -> None:
    root = copy_site(tmp_path, BASES["root"])
    for args in (["--shard", "1/2"], ["--shards", "2"]):
        result = run_cli(["validate", "--root", str(root), "--no-cache", *args])
        assert result.code == 2 and "cannot run with --no-cache" in result.err, result.err


def test_a_batch_added_moves_no_other_and_the_shards_share_the_batches_evenly() -> None:
    names = [f"batch_{n:04}.py" for n in range(2000)]
    before = {name: shard_of(name, 4) for name in names}
    after = {name: shard_of(name, 4) for name in [*names, "a_new_one.py"]}
    assert all(after[name] == before[name] for name in names)
    sizes = [list(before.values()).count(n) for n in (1, 2, 3, 4)]
    assert all(440 <= size <= 560 for size in sizes), sizes  # 500 each, give or take
    assert Shard.parse(" 2/4 ") == Shard(2, 4) and str(Shard(2, 4)) == "2 of 4"
