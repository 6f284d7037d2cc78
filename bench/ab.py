"""A/B: two site_builder installations on one corpus, their runs interleaved.

``python bench/ab.py --a /venv-old/bin/site-builder --b /venv-new/bin/site-builder --n 1000``

Machine speed here swings by 10-45 % within an hour, so two versions are compared
run by run rather than in two separate benchmarks: each gets its own copy of the same
corpus, and every cold build of A is followed by one of B, every one-batch rebuild of A
by one of B. Prints the medians and B ÷ A for each.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus
from run import Run, edit_batch, measure, reset, snapshot


def cold(executable: str, root: Path, manifest: set[str], timeout: float) -> Run:
    """A build from nothing: outputs and caches removed first."""
    reset(root, manifest)
    return measure([executable, "build", "--root", str(root)], root, timeout=timeout)


def rebuild(executable: str, root: Path, batch: Path, original: str, number: int, timeout: float) -> Run:
    """A build after editing one batch of an already built site."""
    edit_batch(batch, original, number)
    return measure([executable, "build", "--root", str(root)], root, timeout=timeout)


def report(name: str, runs: dict[str, list[Run]]) -> str:
    a, b = (statistics.median(run.seconds for run in runs[side]) for side in "ab")
    shown = {side: ", ".join(f"{run.seconds:.2f}" for run in runs[side]) for side in "ab"}
    return f"| {name} | {a:.2f} ({shown['a']}) | {b:.2f} ({shown['b']}) | {b / a:.3f} |"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", required=True, help="the site-builder executable to compare against")
    parser.add_argument("--b", required=True, help="the site-builder executable under test")
    parser.add_argument("--n", type=int, default=1000, help="revisions in the corpus (default 1000)")
    parser.add_argument("--repeat", type=int, default=5, help="interleaved runs of each kind (default 5)")
    parser.add_argument("--scratch", type=Path, default=Path("/work/bench-scratch"), help="outside the repo")
    parser.add_argument("--timeout", type=float, default=600, help="seconds per command before it is killed")
    args = parser.parse_args(argv)
    roots = {side: args.scratch / f"ab-{args.n}" / side for side in "ab"}
    for side, root in roots.items():
        corpus.generate(args.n, root.parent / f"corpus-{side}", ["site_builder"])
        shutil.rmtree(root, ignore_errors=True)
        (root.parent / f"corpus-{side}" / "site_builder").rename(root)
    executables = {"a": args.a, "b": args.b}
    manifests = {side: snapshot(root) for side, root in roots.items()}
    colds: dict[str, list[Run]] = {"a": [], "b": []}
    edits: dict[str, list[Run]] = {"a": [], "b": []}
    for number in range(1, args.repeat + 1):
        for side in "ab":
            colds[side].append(cold(executables[side], roots[side], manifests[side], args.timeout))
            print(f"  cold {side} #{number}: {colds[side][-1].seconds:.2f} s", file=sys.stderr)
    batches = {side: root / "articles" / f"{corpus.batch_name(1)}.py" for side, root in roots.items()}
    originals = {side: path.read_text(encoding="utf-8") for side, path in batches.items()}
    for number in range(1, args.repeat + 1):
        for side in "ab":
            executable, root = executables[side], roots[side]
            run = rebuild(executable, root, batches[side], originals[side], number, args.timeout)
            edits[side].append(run)
            print(f"  rebuild {side} #{number}: {run.seconds:.2f} s", file=sys.stderr)
    failed = [run for runs in (*colds.values(), *edits.values()) for run in runs if run.returncode]
    print(f"\nN={args.n}, {args.repeat} interleaved runs each\n")
    print("| operation | A median s (runs) | B median s (runs) | B ÷ A |\n|---|---|---|---:|")
    print(report("cold build", colds))
    print(report("rebuild, one batch edited", edits))
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
