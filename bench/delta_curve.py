"""The delta curve: what a one-batch edit costs by how many pages the search delta holds.

``python bench/delta_curve.py [--n 1000] [--sizes 1,10,30,100] [--repeat 3] [--site-builder EXE]``

The corpus is built cold (its shards are the base); then, for each size K, every batch file is
put back as generated and the site built (the delta empties: nothing is indexed), K - 1
batches spread over the site are edited (one article page each) and the site built, then one
more batch is edited and the site built again, timed: that build renders one batch and indexes
the K changed pages into the delta. Each size is run ``--repeat`` times, the edits differing
each time. Prints, per K, the median of the timed builds, the delta's pages,
files and bytes, and the ids the search box hides; with ``--keep DIR`` also copies (hard links)
the site after the last build of each size to ``DIR/K`` and the cold build to ``DIR/cold``,
for ``bench/search.py --ours DIR/K --peer DIR/cold --peer-ours cold`` (a reader's first search
with the delta against the same site without one).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus
from run import edit_batch, measure

DELTA = "pagefind/delta"


def build(executable: str, root: Path, timeout: float) -> float:
    run = measure([executable, "build", "--root", str(root)], root, timeout=timeout)
    if run.returncode != 0:
        raise SystemExit(f"{executable} build --root {root} exited with {run.returncode}")
    return run.seconds


def delta_size(out: Path) -> dict[str, int]:
    """The delta bundle's pages, files and bytes, and the ids hidden, of the built site ``out``."""
    folder = out / DELTA
    files = [path for path in folder.rglob("*") if path.is_file()] if folder.is_dir() else []
    module = out / "pagefind/merged/pagefind.js"
    listed = (
        re.search(r"const HIDDEN = (\[.*?\])\.map", module.read_text("utf-8")) if module.is_file() else None
    )
    hidden = sum(len(ids) for ids in json.loads(listed.group(1))) if listed else 0
    return {
        "pages": sum(1 for path in files if path.suffix == ".pf_fragment"),
        "files": len(files),
        "bytes": sum(path.stat().st_size for path in files),
        "hidden": hidden,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1000, help="revisions in the corpus (default 1000)")
    parser.add_argument("--sizes", default="1,10,30,100", help="batches edited per rebuild (comma-separated)")
    parser.add_argument("--repeat", type=int, default=3, help="rebuilds per size (default 3)")
    parser.add_argument("--site-builder", default=shutil.which("site-builder") or "site-builder")
    parser.add_argument("--scratch", type=Path, default=Path("/work/bench-scratch"), help="outside the repo")
    parser.add_argument("--keep", type=Path, help="copy each size's site here, for bench/search.py")
    parser.add_argument("--timeout", type=float, default=600)
    args = parser.parse_args(argv)
    sizes = [int(size) for size in args.sizes.split(",")]
    generated = args.scratch / f"delta-{args.n}"
    corpus.generate(args.n, generated, ["site_builder"])
    root = generated / "site_builder"
    batches = sorted((root / "articles").glob("batch_*.py"))
    originals = {path: path.read_text("utf-8") for path in batches}
    cold = build(args.site_builder, root, args.timeout)
    print(f"cold build: {cold:.2f} s, {len(batches)} batches", file=sys.stderr)
    if args.keep:
        shutil.rmtree(args.keep, ignore_errors=True)
        shutil.copytree(root / "build", args.keep / "cold", copy_function=shutil.copy2)
    rows = []
    for size in sizes:
        chosen = batches[:: max(1, len(batches) // size)][:size]
        seconds, shape = [], {}
        for number in range(1, args.repeat + 1):
            for path, text in originals.items():
                path.write_text(text, "utf-8")
            build(args.site_builder, root, args.timeout)
            for path in chosen[:-1]:
                edit_batch(path, originals[path], number)
            build(args.site_builder, root, args.timeout)
            edit_batch(chosen[-1], originals[chosen[-1]], number)
            seconds.append(build(args.site_builder, root, args.timeout))
            shape = delta_size(root / "build")
            print(f"  K={size} #{number}: {seconds[-1]:.2f} s, {shape}", file=sys.stderr)
        if args.keep:
            shutil.copytree(root / "build", args.keep / str(size), copy_function=shutil.copy2)
        rows.append((size, statistics.median(seconds), seconds, shape))
    print(f"\nN = {args.n}, cold build {cold:.2f} s\n")
    print("| pages in the delta | one-batch edit, median s (runs) | delta files | delta KB | ids hidden |")
    print("|---:|---|---:|---:|---:|")
    for _, median, seconds, shape in rows:
        runs = ", ".join(f"{s:.2f}" for s in seconds)
        print(
            f"| {shape['pages']} | {median:.2f} ({runs}) | {shape['files']} | "
            f"{shape['bytes'] / 1024:.0f} | {shape['hidden']} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
