"""One runner against a matrix of shards: a site whose fixtures take their time, built whole
on one runner, then as ``--shard I/N`` jobs run one after another on this machine and a final
``--shards N`` build from their merged cache folders.

Each job starts from a fresh copy of the corpus with no cache and no output, as a CI job
starts from a fresh checkout; the final job from a fresh copy with every shard's cache folder
copied in (times kept, as ``tar`` keeps them). A matrix runs the shards side by side, so its
wall time is the slowest shard's plus the final job's: the speed-up is measured, per job, not
guessed. The final site is compared byte for byte with the one runner's.

    python bench/shards.py --n 10000 --sleep 0.1 --shards 4

Needs ``site-builder`` on ``PATH`` (the project's virtual environment). Prints JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus import write_site_builder

EPOCH = "1796083200"
"""2026-12-01: every job builds for the same day, as a matrix of one workflow run does."""


def timed(argv: list[str]) -> tuple[float, float]:
    """Run a command; its wall time and the CPU time of it and its children, in seconds."""
    before = os.times()
    started = time.perf_counter()
    done = subprocess.run(
        argv, env={**os.environ, "SOURCE_DATE_EPOCH": EPOCH}, capture_output=True, text=True
    )
    wall = time.perf_counter() - started
    after = os.times()
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed:\n{done.stderr[-3000:]}")
    return wall, (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )


def tree(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10000, help="revisions (3 a batch, one fixture a batch)")
    parser.add_argument("--sleep", type=float, default=0.1, help="seconds each fixture sleeps")
    parser.add_argument("--shards", type=int, default=4)
    parser.add_argument(
        "--scratch", type=Path, default=Path("/work/bench-scratch/shards"), help="outside the repo"
    )
    args = parser.parse_args()
    if args.scratch.exists():
        shutil.rmtree(args.scratch)
    corpus = args.scratch / "corpus"
    corpus.mkdir(parents=True)
    write_site_builder(corpus, args.n, args.sleep)
    batches = len(list((corpus / "articles").glob("*.py")))

    def fresh(name: str) -> Path:
        root = args.scratch / name
        shutil.copytree(corpus, root)
        return root

    one = fresh("one")
    result: dict[str, object] = {
        "n": args.n,
        "batches": batches,
        "fixtureSleep": args.sleep,
        "cores": os.cpu_count(),
    }
    result["oneRunner"] = dict(
        zip(("wall", "cpu"), timed(["site-builder", "build", "--root", str(one)]), strict=True)
    )
    shards = []
    for number in range(1, args.shards + 1):
        root = fresh(f"shard{number}")
        wall, cpu = timed(
            ["site-builder", "build", "--root", str(root), "--shard", f"{number}/{args.shards}"]
        )
        shards.append({"shard": f"{number}/{args.shards}", "wall": wall, "cpu": cpu})
    final = fresh("final")
    for number in range(1, args.shards + 1):
        cache = args.scratch / f"shard{number}" / ".site-builder-cache"
        shutil.copytree(cache, final / ".site-builder-cache", dirs_exist_ok=True)
    wall, cpu = timed(["site-builder", "build", "--root", str(final), "--shards", str(args.shards)])
    result["shards"] = shards
    result["final"] = {"wall": wall, "cpu": cpu}
    matrix = max(s["wall"] for s in shards) + wall
    result["matrixWall"] = matrix
    result["speedUp"] = result["oneRunner"]["wall"] / matrix  # type: ignore[index]
    result["sameSite"] = tree(one / "build") == tree(final / "build")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
