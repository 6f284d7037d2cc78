"""The built ``tests/sites/valid_site`` compared file by file with its committed golden copy.

Regenerate with ``pytest tests/test_build_golden.py --update-golden`` and read the diff
before committing it: the golden copy is the reviewed picture of a whole built site
(STYLE.md "Tests"). Pagefind's index is binary and versioned by Pagefind, so only its
entry points are checked here.
"""

from __future__ import annotations

import difflib
import shutil
from pathlib import Path

from conftest import SITES, RunCli

GOLDEN = Path(__file__).parent / "golden" / "valid_site"
SKIPPED = "pagefind/"
OURS = "pagefind/site-search.js"  # the script that merges the index shards is ours to review


def site_files(folder: Path) -> dict[str, bytes]:
    """Every file below ``folder`` except the search index, by forward-slash path."""
    found = {p.relative_to(folder).as_posix(): p for p in folder.rglob("*") if p.is_file()}
    return {
        rel: found[rel].read_bytes() for rel in sorted(found) if not rel.startswith(SKIPPED) or rel == OURS
    }


def write_golden(files: dict[str, bytes]) -> None:
    if GOLDEN.exists():
        shutil.rmtree(GOLDEN)
    for rel, data in files.items():
        (GOLDEN / rel).parent.mkdir(parents=True, exist_ok=True)
        (GOLDEN / rel).write_bytes(data)


def file_diff(rel: str, expected: bytes, got: bytes) -> str:
    lines = difflib.unified_diff(
        expected.decode("utf-8", "replace").splitlines(keepends=True),
        got.decode("utf-8", "replace").splitlines(keepends=True),
        fromfile=f"golden/{rel}",
        tofile=f"build/{rel}",
    )
    return "".join(lines) or f"{rel}: bytes differ (same text after decoding)\n"


def differences(golden: dict[str, bytes], built: dict[str, bytes]) -> str:
    """A readable report of everything that differs; empty when the trees match."""
    report = [f"missing from the build: {rel}\n" for rel in sorted(golden.keys() - built.keys())]
    report += [f"not in the golden copy: {rel}\n" for rel in sorted(built.keys() - golden.keys())]
    report += [
        file_diff(rel, golden[rel], built[rel])
        for rel in sorted(golden.keys() & built.keys())
        if golden[rel] != built[rel]
    ]
    return "".join(report)


def test_valid_site_matches_golden_copy(tmp_path: Path, run_cli: RunCli, update_golden: bool) -> None:
    root = tmp_path / "valid_site"
    shutil.copytree(SITES / "valid_site", root)

    result = run_cli(["build", "--root", str(root)])

    assert result.code == 0, result.err
    out = root / "build"
    for entry in ("pagefind/pagefind-ui.js", "pagefind/pagefind.js"):
        assert (out / entry).is_file(), entry
    built = site_files(out)
    if update_golden:
        write_golden(built)
    report = differences(site_files(GOLDEN), built)
    assert not report, (
        "the build differs from tests/golden/valid_site "
        "(if the change is intended, rerun with --update-golden and review the diff):\n" + report
    )
