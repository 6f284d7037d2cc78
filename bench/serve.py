"""Time a writer's save-to-screen under a running ``site-builder serve``.

``python bench/serve.py --n 1000 [--edits 10] [--series http,browser] [--json FILE]``

Starts ``site-builder serve`` on the site_builder corpus (``--site DIR``, or N revisions written
by corpus.py), waits until it answers, then edits ``articles/batch_00001.py`` as run.py does (a
new sentence first in the first paragraph) ``--edits`` times per series and times, from the
moment the write has returned to the moment the first article's page shows that sentence:

* ``http``: the page fetched every ``--poll`` seconds (10 ms) over HTTP;
* ``browser``: the page open in Chromium (Playwright, ``/usr/bin/chromium``), waiting for
  ``document.body.textContent`` to hold the sentence, however the page learns of it.

Last, one edit from a quiet serve is timed twice: until the page shows it (HTTP), and until
serve's state says the search index is the new one too (serve shows an edit's pages before its
search index is made). Otherwise it watches only the page, never serve's own reload
machinery. It also records the peak RSS of serve's process tree (during the start and during
the edits) and, at the end, how long serve takes to exit after SIGTERM and whether any
process it started outlives it. The HTTP part is
standard library; the browser part needs Playwright.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus
from run import TreePoller, children_map, edit_batch, edit_sentence, machine, version

CHROMIUM = "/usr/bin/chromium"
EXIT_LIMIT = 2.0
"""Seconds serve may take to end after SIGTERM (issue 17)."""
Wait = Callable[[str], float]
"""Waits until the watched page shows a sentence; the seconds it waited."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def fetch(url: str, timeout: float = 5.0) -> tuple[str, str]:
    """The page's text and its final URL (after redirects); ``("", "")`` while nothing answers."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.read().decode("utf-8", "replace"), response.geturl()
    except (OSError, urllib.error.URLError):
        return "", ""


def first_slug(batch: Path) -> str:
    """The slug of the batch's first revision: the one whose first paragraph the edit changes."""
    found = re.search(r"slug='([^']+)'", batch.read_text(encoding="utf-8"))
    if not found:
        raise SystemExit(f"{batch}: no slug='...'")
    return found.group(1)


def wait_until_up(process: subprocess.Popen[bytes], port: int, timeout: float) -> str:
    """The site's root URL (serve redirects ``/`` below the base path) once serve answers.
    Serve listens before its first build and answers once it is done, so each request waits
    long: one given up on would only be answered later into a closed socket."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"serve ended with exit {process.returncode} before it answered")
        _, final = fetch(
            f"http://127.0.0.1:{port}/", timeout=max(1.0, min(30.0, deadline - time.monotonic()))
        )
        if final:
            return final
        time.sleep(0.1)
    raise SystemExit(f"serve did not answer within {timeout:.0f} s")


def descendants(root: int) -> list[int]:
    """Every process below ``root`` now: its build workers, fixtures, Pagefind."""
    tree, stack, found = children_map(), [root], []
    while stack:
        for child in tree.get(stack.pop(), ()):
            found.append(child)
            stack.append(child)
    return found


def alive(pid: int) -> bool:
    """Whether ``pid`` still runs (a zombie waiting to be reaped does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_bytes()
    except OSError:
        return False
    return stat[stat.rindex(b")") + 2 :].split()[0] != b"Z"


def terminate(process: subprocess.Popen[bytes]) -> dict[str, object]:
    """SIGTERM, then the seconds until serve has exited (SIGKILL after 30 s) and which of the
    processes it had started are still running."""
    children = descendants(process.pid)
    started = time.perf_counter()
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    seconds = time.perf_counter() - started
    time.sleep(0.2)
    left = [pid for pid in children if alive(pid)]
    return {
        "seconds": round(seconds, 3),
        "returncode": process.returncode,
        "within_limit": seconds <= EXIT_LIMIT,
        "children_before": len(children),
        "left_running": left,
    }


# --- The two ways of watching the page -----------------------------------------------------------


def http_waiter(url: str, poll: float, timeout: float) -> Wait:
    """Fetch ``url`` every ``poll`` seconds until its HTML holds the sentence (NaN: never)."""

    def wait(sentence: str) -> float:
        started = time.perf_counter()
        while time.perf_counter() - started < timeout:
            text, _ = fetch(url)
            if sentence in text:
                return time.perf_counter() - started
            time.sleep(poll)
        return float("nan")

    return wait


def series(
    batch: Path, original: str, numbers: Sequence[int], wait: Wait, pause: float, name: str
) -> list[float]:
    """One timed edit per number: the clock starts once the write has returned. The rest after
    each is ``pause`` plus a random (seeded) part of a second, so that the edits do not all fall
    at one phase of a page that polls once a second."""
    seconds: list[float] = []
    jitter = random.Random(f"serve-{name}")
    for number in numbers:
        edit_batch(batch, original, number)
        seconds.append(wait(edit_sentence(number)))
        print(f"  {name} edit {number}: {seconds[-1]:.3f} s", file=sys.stderr)
        time.sleep(pause + jitter.random())
    return seconds


def browser_series(
    url: str, batch: Path, original: str, numbers: Sequence[int], pause: float, poll: float, timeout: float
) -> list[float]:
    """The series with the page open in Chromium: the wait follows the page across the reloads
    its script makes, until the body's text holds the sentence."""
    from playwright.sync_api import Error, sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM)
        try:
            page = browser.new_page()
            page.goto(url)

            def wait(sentence: str) -> float:
                started = time.perf_counter()
                try:
                    page.wait_for_function(
                        "text => document.body !== null && document.body.textContent.includes(text)",
                        arg=sentence,
                        polling=round(poll * 1000),
                        timeout=timeout * 1000,
                    )
                except Error as error:
                    print(f"  ! {error}", file=sys.stderr)
                    return float("nan")
                return time.perf_counter() - started

            return series(batch, original, numbers, wait, pause, "browser")
        finally:
            browser.close()


# --- The benchmark -------------------------------------------------------------------------------


def summary(seconds: list[float]) -> dict[str, object]:
    """Median of the edits that showed, every run (``None``: never showed) and the failures."""
    good = [s for s in seconds if s == s]
    return {
        "median_s": round(statistics.median(good), 3) if good else None,
        "runs_s": [round(s, 3) if s == s else None for s in seconds],
        "failed": len(seconds) - len(good),
    }


def wait_gone(url: str, sentence: str, poll: float, timeout: float) -> None:
    """Until the page no longer shows ``sentence`` (the batch has been put back and rebuilt)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and sentence in fetch(url)[0]:
        time.sleep(poll)


def search_current(url: str, poll: float, timeout: float) -> float:
    """Seconds until serve's state says the search index is that of the pages served (NaN:
    not within ``timeout``). serve shows an edit's pages before its search index is done."""
    state = url[: url.index("/articles/") + 1] + "__site_builder__/state"
    started = time.perf_counter()
    while time.perf_counter() - started < timeout:
        text, _ = fetch(state)
        if text and json.loads(text).get("search_pending") is False:
            return time.perf_counter() - started
        time.sleep(poll)
    return float("nan")


def settled_edit(
    args: argparse.Namespace, url: str, batch: Path, original: str, number: int
) -> dict[str, object]:
    """One edit from a quiet serve, timed twice: until the page shows it, and until the search
    index is the new one too (the index is made after the page is shown)."""
    search_current(url, args.poll, args.edit_timeout)
    edit_batch(batch, original, number)
    page = http_waiter(url, args.poll, args.edit_timeout)(edit_sentence(number))
    search = page + search_current(url, args.poll, args.edit_timeout)
    print(f"  settled edit {number}: page {page:.3f} s, search index {search:.3f} s", file=sys.stderr)
    return {"page_s": round(page, 3), "search_s": round(search, 3)}


def edits(args: argparse.Namespace, url: str, batch: Path, original: str) -> dict[str, object]:
    """The two series, each with its own edit numbers (so each sentence is new to the page),
    then one settled edit."""
    report: dict[str, object] = {}
    numbers = iter(range(1, 2 * args.edits + 2))
    chosen: list[int] = []
    if "http" in args.series:
        chosen = [next(numbers) for _ in range(args.edits)]
        wait = http_waiter(url, args.poll, args.edit_timeout)
        report["http"] = summary(series(batch, original, chosen, wait, args.pause, "http"))
    if "browser" in args.series:
        chosen = [next(numbers) for _ in range(args.edits)]
        seconds = browser_series(url, batch, original, chosen, args.pause, args.poll, args.edit_timeout)
        report["browser"] = summary(seconds)
    chosen = [next(numbers)]
    report["settled"] = settled_edit(args, url, batch, original, chosen[0])
    batch.write_text(original, encoding="utf-8")
    if chosen:
        wait_gone(url, edit_sentence(chosen[-1]), args.poll, args.edit_timeout)
    time.sleep(args.pause)  # SIGTERM finds serve at rest, not mid-rebuild
    return report


def measure_serve(args: argparse.Namespace, site: Path) -> dict[str, object]:
    """Start serve, time the edits, stop it; the batch file is put back whatever happens."""
    batch = site / "articles" / f"{corpus.batch_name(1)}.py"
    original = batch.read_text(encoding="utf-8")
    slug = first_slug(batch)
    port = free_port()
    command = [args.site_builder, "serve", "--root", str(site), "--port", str(port)]
    report: dict[str, object] = {"command": command, "page": f"articles/{slug}/"}
    with (args.scratch / f"serve-{args.n}.log").open("wb") as log:
        started = time.perf_counter()
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        poller = TreePoller(process.pid)
        try:
            root = wait_until_up(process, port, args.start_timeout)
            report["start_s"] = round(time.perf_counter() - started, 2)
            report["start_tree_rss_mb"] = round(poller.stop() / 2**20, 1)
            poller = TreePoller(process.pid)
            url = root + f"articles/{slug}/"
            print(f"serve answered after {report['start_s']} s; watching {url}", file=sys.stderr)
            time.sleep(args.pause)  # serve starts watching the files just after it answers
            report |= edits(args, url, batch, original)
        finally:
            batch.write_text(original, encoding="utf-8")
            report["edits_tree_rss_mb"] = round(poller.stop() / 2**20, 1)
            report["sigterm"] = terminate(process)
    return report


# --- Reporting ----------------------------------------------------------------------------------

SERIES = {
    "http": "HTTP: page fetched every {poll} ms",
    "browser": "Chromium (Playwright): page open, body text checked every {poll} ms",
}


def table(report: dict[str, object], peer_cold: float | None) -> str:
    """The series as a Markdown table; with ``peer_cold`` (Hugo + Pagefind's cold build, what a
    Hugo user with search reruns after an edit), each median ÷ it."""
    lines = [
        "| save → page shows the edit | median s | runs s | failed | ours / (Hugo + Pagefind) cold |",
        "|---|---:|---|---:|---:|",
    ]
    for name, label in SERIES.items():
        result = report.get(name)
        if not isinstance(result, dict):
            continue
        median = result["median_s"]
        runs = ", ".join("—" if s is None else f"{s:.3f}" for s in result["runs_s"])
        shown = "—" if median is None else f"{median:.3f}"
        ratio = f"{median / peer_cold:.3f}" if peer_cold and median is not None else "—"
        label = label.format(poll=report["poll_ms"])
        lines.append(f"| {label} | {shown} | {runs} | {result['failed']} | {ratio} |")
    stop = report["sigterm"]
    assert isinstance(stop, dict)
    settled = report.get("settled")
    if isinstance(settled, dict):
        lines += [
            "",
            f"one edit from a quiet serve: page shows it after {settled['page_s']:.3f} s, "
            f"the search index is the new one after {settled['search_s']:.3f} s",
        ]
    lines += [
        "",
        f"serve start (first build until the page answers): {report['start_s']} s; peak RSS of serve's "
        f"process tree: {report['start_tree_rss_mb']:.0f} MB while starting, "
        f"{report['edits_tree_rss_mb']:.0f} MB during the edits",
        f"SIGTERM at rest: exited in {stop['seconds']:.2f} s (exit {stop['returncode']}; "
        f"{'within' if stop['within_limit'] else 'over'} {EXIT_LIMIT:.0f} s), "
        f"{len(stop['left_running'])} of its {stop['children_before']} child processes left running",
    ]
    if peer_cold:
        lines.append(f"Hugo + Pagefind cold build (from --compare): {peer_cold:.2f} s")
    return "\n".join(lines)


def peer_cold(path: Path | None, n: int) -> float | None:
    """Hugo + Pagefind's median cold build from a run.py ``--json`` report of the same N."""
    if path is None:
        return None
    report = json.loads(path.read_text(encoding="utf-8"))
    if report.get("n") != n:
        raise SystemExit(f"{path} is for N = {report.get('n')}, not {n}")
    found = [row for row in report["cold"] if row["tool"] == "hugo+pagefind" and row["ok"]]
    return float(found[0]["median_s"]) if found else None


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1000, help="revisions in the corpus (default 1000)")
    parser.add_argument("--site", type=Path, help="existing corpus (default: write one; say its --n)")
    parser.add_argument("--edits", type=int, default=10, help="timed edits per series (default 10)")
    parser.add_argument("--series", default="http,browser", help="comma-separated: http, browser")
    parser.add_argument("--scratch", type=Path, default=Path("/work/bench-scratch"), help="outside the repo")
    parser.add_argument("--site-builder", default=shutil.which("site-builder") or "site-builder")
    parser.add_argument("--poll", type=float, default=0.01, help="seconds between HTTP fetches")
    parser.add_argument(
        "--pause",
        type=float,
        default=1.0,
        help="rest after an edit is seen, plus 0-1 s at random",
    )
    parser.add_argument("--start-timeout", type=float, default=900, help="seconds for serve to answer")
    parser.add_argument("--edit-timeout", type=float, default=60, help="seconds for one edit to show")
    parser.add_argument("--compare", type=Path, help="run.py --json report of the same N (Hugo + Pagefind)")
    parser.add_argument("--json", type=Path, help="also write the results as JSON")
    args = parser.parse_args(argv)
    args.series = [name for name in args.series.split(",") if name]
    if not args.series or set(args.series) - set(SERIES):
        parser.error(f"--series: a comma-separated subset of {', '.join(SERIES)}")
    if args.n < 1 or args.edits < 1:
        parser.error("--n and --edits must be positive")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    args.scratch.mkdir(parents=True, exist_ok=True)
    site = args.site
    if site is None:
        print(f"generating N={args.n} into {args.scratch / f'serve-{args.n}'}", file=sys.stderr)
        corpus.generate(args.n, args.scratch / f"serve-{args.n}", ["site_builder"])
        site = args.scratch / f"serve-{args.n}" / "site_builder"
    report = {
        "n": args.n,
        "edits": args.edits,
        "poll_ms": round(args.poll * 1000),
        "machine": machine(),
        "versions": {"site_builder": version([args.site_builder, "--version"])},
        **measure_serve(args, site),
    }
    report["ratio_peer"] = peer_cold(args.compare, args.n)
    date = report["machine"]["date"]
    print(f"\nN={args.n}, serve, {args.edits} edits per series, {date}, {os.cpu_count()} CPUs\n")
    print(table(report, report["ratio_peer"]))
    if args.json:
        args.json.write_text(json.dumps(report, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    failed = sum(int(r["failed"]) for r in (report.get(name) for name in SERIES) if isinstance(r, dict))
    sigterm = report["sigterm"]
    return 1 if failed or not sigterm["within_limit"] or sigterm["left_running"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
