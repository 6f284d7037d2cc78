"""Pairs of `site-builder build` started together on fresh copies of one site: how many
commands failed, said "internal error" or printed a traceback, how many pairs left a
`build/` other than a clean build's, and how many times one build waited for the other.

    python bench/concurrent_builds.py [--site tests/sites/all_features] [--pairs 50]

Run it with the project's Python, where `site-builder` is on PATH. Every build publishes
under one SOURCE_DATE_EPOCH, so every output can be compared byte for byte.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ENV = {**os.environ, "SOURCE_DATE_EPOCH": "1767225600"}  # 2026-01-01


def tree(folder: Path) -> dict[str, bytes]:
    files = sorted(path for path in folder.rglob("*") if path.is_file())
    return {path.relative_to(folder).as_posix(): path.read_bytes() for path in files}


def build(root: Path, *flags: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "site_builder", "build", "--root", str(root), *flags],
        env=ENV,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, default=Path("tests/sites/all_features"))
    parser.add_argument("--pairs", type=int, default=50)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="concurrent-builds-"))
    try:
        clean = work / "clean"
        shutil.copytree(args.site, clean)
        first = build(clean, "--no-cache")
        _, err = first.communicate()
        if first.returncode != 0:
            print(err, file=sys.stderr)
            return 1
        expected = tree(clean / "build")
        failed = internal = mismatched = waited = 0
        for pair in range(args.pairs):
            root = work / f"pair-{pair}"
            shutil.copytree(args.site, root)
            both = [build(root), build(root)]
            said = [process.communicate() for process in both]
            text = "".join(out + err for out, err in said)
            failed += sum(process.returncode != 0 for process in both)
            internal += text.count("internal error") + text.count("Traceback")
            waited += text.count("waiting for another site-builder command")
            differs = not (root / "build").is_dir() or tree(root / "build") != expected
            mismatched += differs
            if differs or any(process.returncode for process in both):
                print(f"pair {pair}: exits {[p.returncode for p in both]}, output differs: {differs}")
            shutil.rmtree(root)
        print(
            f"{args.pairs} pairs of {args.site}: {failed} failed commands, {internal} internal errors or "
            f"tracebacks, {mismatched} outputs unlike a clean build, {waited} builds waited"
        )
        return 0 if failed == internal == mismatched == 0 else 1
    finally:
        shutil.rmtree(work)


if __name__ == "__main__":
    sys.exit(main())
