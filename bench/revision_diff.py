"""Time ``diff_revisions`` on this repository's articles and on shapes that stress it.

Each article's ``contentHtml`` (from ``site-builder revisions``) is diffed against a copy with
about a quarter of its blocks edited word by word, some dropped and some added (a fixed seed);
then against another article; then the stress shapes: one 15,000-character paragraph, 100 short
paragraphs all rewritten, a 500-line program with 60 lines changed. Best of ``--repeat`` runs.

    python bench/revision_diff.py [--repeat 20]
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import re
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from site_builder.render.diff import RevisionDiff, diff_revisions
from site_builder.render.markup_tree import parse_fragment

ROOT = Path(__file__).resolve().parent.parent


def articles() -> dict[str, str]:
    out = subprocess.run(
        [sys.executable, "-m", "site_builder", "revisions", "--root", str(ROOT)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return {r["slug"]: r["contentHtml"] for r in json.loads(out)}


def edited(html: str, rng: random.Random) -> str:
    blocks = []
    for block in (node.html for node in parse_fragment(html) if node.name):
        roll = rng.random()
        if roll < 0.05:
            continue
        if roll < 0.10:
            blocks.append("<p>A paragraph the new revision adds.</p>")
        if roll < 0.35:
            parts = re.split(r"(<[^>]*>)", block)
            parts[::2] = [
                " ".join(w if rng.random() > 0.08 else "edited" for w in p.split(" ")) for p in parts[::2]
            ]
            block = "".join(parts)
        blocks.append(block)
    return "\n".join(blocks)


def edit(word: str, rng: random.Random) -> str:
    return "edited" if rng.random() < 0.08 else word


def best(repeat: int, run: Callable[[], RevisionDiff]) -> tuple[float, RevisionDiff]:
    times, result = [], run()
    for _ in range(repeat):
        start = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - start)
    return min(times) * 1000, result


def stress(rng: random.Random) -> dict[str, tuple[str, str]]:
    vocab = ["the", "a", "key", "retry", "request", "response", "server", "client", "record", "lost"]

    def prose(n: int) -> str:
        return " ".join(rng.choice(vocab) for _ in range(n))

    words = prose(2200).split()
    changed = list(words)
    for i in rng.sample(range(len(changed)), 200):
        changed[i] = "changed"
    lines = [f"    x{i} = f(a, b) + {rng.randint(0, 9)}" for i in range(500)]
    lines_changed = [line.replace("a, b", "b, a") if i % 8 == 0 else line for i, line in enumerate(lines)]
    return {
        "one 15k-char paragraph, 200 words changed": (
            f"<p>{' '.join(words)}</p>",
            f"<p>{' '.join(changed)}</p>",
        ),
        "100 paragraphs, all rewritten": (
            "\n".join(f"<p>{prose(20)}</p>" for _ in range(100)),
            "\n".join(f"<p>{prose(20)}</p>" for _ in range(100)),
        ),
        "500-line program, 63 lines changed": (
            "<pre><code>" + "\n".join(lines) + "</code></pre>",
            "<pre><code>" + "\n".join(lines_changed) + "</code></pre>",
        ),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    repeat = parser.parse_args().repeat
    rng = random.Random(16)
    html = articles()
    cases = {
        f"{slug} ({len(text):,} chars), edited": (text, edited(text, rng)) for slug, text in html.items()
    }
    cases |= {f"{a} vs {b}": (html[a], html[b]) for a, b in itertools.pairwise(html)}
    cases |= stress(rng)
    print("| case | best ms | words +/- | blocks |\n|---|---:|---:|---:|")
    for name, (old, new) in cases.items():
        ms, diff = best(repeat, lambda old=old, new=new: diff_revisions(old, new))
        print(f"| {name} | {ms:.1f} | +{diff.words_added} -{diff.words_removed} | {diff.blocks_changed} |")


if __name__ == "__main__":
    main()
