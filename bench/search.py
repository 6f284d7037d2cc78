"""Time a reader's first search on our site and on Hugo + Pagefind, in the same Chromium.

``python bench/search.py [--ours DIR] [--peer DIR] [--queries a,b] [--repeat 5] [--json FILE]``

With ``--peer-ours NAME`` the peer is another build of site_builder (e.g. the same site with an
earlier search script), searched from its home page as ours is.

Both sites are served by the same local server (``ThreadingHTTPServer`` on 127.0.0.1, HTTP/1.1),
which logs each request's path, status, start and body bytes sent. ``ours``: ``site-builder
build``'s output, whose home page ``/`` has Pagefind UI over every bundle (``/pagefind/`` and the
merged ``/pagefind/shard-NN/``, ``site-search.js``). ``hugo+pagefind``: Hugo's output after
``pagefind --site public`` with defaults; Hugo's templates have no search, so the server answers
``/__bench_search__.html`` from memory with the page Pagefind's docs give (``pagefind-ui.css``,
``pagefind-ui.js``, ``new PagefindUI({element: "#search"})``).

Each search is a fresh browser context (empty cache): the page until its load event, then
``page.fill`` puts the query in the search input (focus and one ``input`` event: the last key).
The time is taken in the page, from that ``input`` event until a MutationObserver sees the results
(``.pagefind-ui__result`` elements, each with its link, and the count message); it includes
Pagefind UI's 300 ms debounce on both. Requests: those under ``/pagefind/`` that reached the server
after the load event, once nothing is in flight or new for 0.5 s, with the body bytes sent. The
sites take turns (first one alternating) after a warm-up search each. Needs Playwright.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import statistics
import sys
import threading
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, BinaryIO

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import machine

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"]
ARGS += ["--disable-sync", "--no-first-run", "--disable-quic"]
PEER_PAGE = "/__bench_search__.html"
PEER_HTML = b"""<!doctype html><html lang="ru"><meta charset="utf-8"><title>Search</title>
<link href="/pagefind/pagefind-ui.css" rel="stylesheet"><script src="/pagefind/pagefind-ui.js"></script>
<div id="search"></div>
<script>window.addEventListener("DOMContentLoaded", () => { new PagefindUI({element: "#search"}); });</script>
"""
Run = dict[str, Any]
"""One search: its site, query, seconds (``None``: failed), results, requests and bytes."""
INPUT = "#search .pagefind-ui__search-input"
WATCH = """() => {
  const box = document.querySelector("#search"), state = window.__bench = {typed: null, shown: null};
  box.querySelector(".pagefind-ui__search-input").addEventListener("input", () => {
    state.typed = performance.now(); }, true);
  new MutationObserver(() => {
    const results = [...box.querySelectorAll(".pagefind-ui__result")];
    const message = (box.querySelector(".pagefind-ui__message") || {}).textContent || "";
    if (state.typed !== null && state.shown === null && results.length && /\\d/.test(message)
        && results.every(r => r.querySelector("a.pagefind-ui__result-link")))
      Object.assign(state, {shown: performance.now(), results: results.length, message: message.trim()});
  }).observe(box, {childList: true, subtree: true, characterData: true, attributes: true});
}"""


@dataclass
class Hit:
    """One request as the server saw it; ``seconds`` is ``None`` while it is in flight."""

    path: str
    started: float
    status: int = 0
    bytes: int = 0
    seconds: float | None = None


class Handler(SimpleHTTPRequestHandler):
    """Serves a site's folder (and its ``pages`` from memory), appending each request to its log."""

    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # else each keep-alive answer waits ~40 ms for a delayed ACK

    def __init__(self, *args: Any, site: Site, **kwargs: Any) -> None:
        self.site, self.hit = site, Hit("", 0.0)
        super().__init__(*args, **kwargs)

    def do_GET(self) -> None:
        self.hit = Hit(self.path.split("?", 1)[0], time.perf_counter())
        self.site.log.append(self.hit)
        time.sleep(self.site.delay)
        try:
            super().do_GET()
        finally:
            self.hit.seconds = time.perf_counter() - self.hit.started

    def send_head(self) -> Any:
        if (page := self.site.pages.get(self.hit.path)) is None:
            return super().send_head()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(page)))
        self.end_headers()
        return io.BytesIO(page)

    def send_response(self, code: int, message: str | None = None) -> None:
        self.hit.status = code
        super().send_response(code, message)

    def copyfile(self, source: BinaryIO, outputfile: BinaryIO) -> None:  # type: ignore[override]
        while chunk := source.read(1 << 16):
            outputfile.write(chunk)
            self.hit.bytes += len(chunk)

    def log_message(self, format: str, *args: Any) -> None:
        pass


class QuietServer(ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a context closed mid-response: its connection reset


class Site:
    """One site's server, in a thread, and its request log."""

    def __init__(self, name: str, root: Path, page: str, pages: dict[str, bytes], delay: float) -> None:
        self.name, self.root, self.pages, self.delay = name, root, pages, delay
        self.log: list[Hit] = []
        handler = partial(Handler, site=self, directory=str(root))
        self.server = QuietServer(("127.0.0.1", 0), handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}{page}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def settle(self, quiet: float = 0.5, limit: float = 10.0) -> None:
        """Until nothing is in flight and no request has come for ``quiet`` seconds."""
        deadline, count, since = time.monotonic() + limit, -1, time.monotonic()
        while time.monotonic() < deadline:
            busy = any(hit.seconds is None for hit in self.log)
            if len(self.log) != count or busy:
                count, since = len(self.log), time.monotonic()
            elif time.monotonic() - since >= quiet:
                return
            time.sleep(0.05)


def kind(path: str) -> str:
    """What a Pagefind request fetched: ``pf_index``, ``pf_meta``, ``wasm``, ``pagefind.js``…"""
    name = path.rsplit("/", 1)[-1]
    if name.startswith("wasm."):
        return "wasm"
    return name if name.endswith((".js", ".json")) else name.rsplit(".")[-1]


def search_once(browser: Any, site: Site, query: str, timeout: float) -> Run:
    """One search in a fresh context: seconds (``None``: failed), results, requests, bytes."""
    from playwright.sync_api import Error

    context = browser.new_context()
    run: Run = {"site": site.name, "query": query, "seconds": None}
    loaded = seen = float("inf")
    try:
        page = context.new_page()
        page.goto(site.url, wait_until="load", timeout=timeout * 1000)
        loaded = time.perf_counter()
        page.evaluate(WATCH)
        page.fill(INPUT, query, timeout=timeout * 1000)
        page.wait_for_function("() => window.__bench.shown !== null", timeout=timeout * 1000)
        seen = time.perf_counter()
        state = page.evaluate("() => window.__bench")
        run |= {"seconds": round((state["shown"] - state["typed"]) / 1000, 4)}
        run |= {"results_shown": state["results"], "message": state["message"]}
        total = re.search(r"\d[\d\s]*", state["message"])  # "1\xa0000 результатов по запросу: …"
        run["results_total"] = int(re.sub(r"\D", "", total.group())) if total else None
    except Error as error:
        print(f"  ! {site.name} {query!r}: {str(error).splitlines()[0]}", file=sys.stderr)
        seen = time.perf_counter()
    site.settle()
    context.close()
    hits = [h for h in site.log if h.started > loaded and h.path.startswith("/pagefind/")]
    before = [h for h in hits if h.started < seen]
    run |= {"requests": len(hits), "bytes": sum(h.bytes for h in hits)}
    run |= {"requests_by_results": len(before), "bytes_by_results": sum(h.bytes for h in before)}
    run["not_200"] = sum(h.status != 200 for h in hits)
    run["bundles"] = len({re.sub(r"^(/pagefind/(shard-\d+/)?).*", r"\1", h.path) for h in hits})
    run["kinds"] = dict(Counter(kind(h.path) for h in hits))
    run["hits"] = [asdict(h) | {"started": round(h.started - loaded, 4)} for h in hits]
    site.log.clear()
    return run


def measure(sites: Sequence[Site], queries: Sequence[str], repeat: int, timeout: float) -> list[Run]:
    """A warm-up search per site, then ``repeat`` rounds of every query on every site."""
    from playwright.sync_api import sync_playwright

    runs: list[Run] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            for site in sites:
                search_once(browser, site, queries[0], timeout)
            for number in range(1, repeat + 1):
                for query in queries:
                    for site in sites if number % 2 else list(reversed(sites)):
                        run = search_once(browser, site, query, timeout) | {"run": number}
                        runs.append(run)
                        said = ", ".join(f"{k} {run.get(k)}" for k in ("seconds", "requests", "bytes"))
                        print(f"  {site.name} {query!r} #{number}: {said}", file=sys.stderr)
        finally:
            browser.close()
    return runs


# --- Reporting ----------------------------------------------------------------------------------


def summarize(runs: Sequence[Run]) -> dict[str, Any]:
    """Medians over the runs that showed results (``None`` if none did) and the failures."""
    good = [r for r in runs if r["seconds"] is not None]
    summary: dict[str, Any] = {"runs": len(runs), "failed": len(runs) - len(good)}
    for key in ("seconds", "requests", "bytes", "requests_by_results"):
        summary[f"median_{key}"] = statistics.median(r[key] for r in good) if good else None
    return summary


def cell(median: float | None, runs: Sequence[float | None], form: str, unit: float = 1) -> str:
    """``median (run, run, …)``, each ÷ ``unit`` in ``form``, ``—`` for ``None``."""
    text = ["—" if value is None else form.format(value / unit) for value in (median, *runs)]
    return f"{text[0]} ({', '.join(text[1:])})"


def ratio(ours: float | None, peer: float | None) -> str:
    return f"{ours / peer:.2f}" if ours is not None and peer else "—"


def tables(runs: Sequence[Run], names: Sequence[str], queries: Sequence[str]) -> tuple[str, dict[str, Any]]:
    """The Markdown tables (and notes on what the first query fetched) and the summaries."""
    lines = [
        "| site | query | results shown (total) | requests after load, median (runs) | KB, median (runs) "
        "| time to results s, median (runs) | failed |",
        "|---|---|---:|---|---|---|---:|",
    ]
    notes: list[str] = []
    summaries: dict[str, dict[str, Any]] = {}
    for name in names:
        for query in [*queries, "all"]:
            mine = [r for r in runs if r["site"] == name and query in (r["query"], "all")]
            summary = summaries[f"{name} {query}"] = summarize(mine)
            good = [r for r in mine if r["seconds"] is not None]
            if query == "all":
                continue
            shown = ", ".join(sorted({f"{r['results_shown']} ({r['results_total']})" for r in good}))
            cells = [shown or "—", cell(summary["median_requests"], [r["requests"] for r in mine], "{:.0f}")]
            cells += [cell(summary["median_bytes"], [r["bytes"] for r in mine], "{:.0f}", 1024)]
            cells += [cell(summary["median_seconds"], [r["seconds"] for r in mine], "{:.3f}")]
            lines.append(f"| {name} | {query} | {' | '.join(cells)} | {summary['failed']} |")
            if good and query == queries[0]:
                run, kinds = good[0], ", ".join(f"{n} {k}" for k, n in sorted(good[0]["kinds"].items()))
                notes.append(
                    f"* {name} {query!r} run {run['run']}: {run['requests']} requests to {run['bundles']} "
                    f"bundle(s), {run['requests_by_results']} begun before the results showed, "
                    f"{run['not_200']} not 200: {kinds}"
                )
    lines += ["", f"| {names[0]} ÷ {names[1]} (medians) | requests | bytes | time |", "|---|---:|---:|---:|"]
    for query in [*queries, "all"]:
        ours, peer = summaries[f"{names[0]} {query}"], summaries[f"{names[1]} {query}"]
        cells = [ratio(ours[key], peer[key]) for key in ("median_requests", "median_bytes", "median_seconds")]
        lines.append(f"| {'all queries' if query == 'all' else query} | {' | '.join(cells)} |")
    return "\n".join([*lines, "", *notes]), summaries


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    corpus = Path("/work/bench-scratch/corpus-1000")
    parser.add_argument("--ours", type=Path, default=corpus / "site_builder/build", help="our built site")
    parser.add_argument("--peer", type=Path, default=corpus / "hugo/public", help="Hugo's, with pagefind/")
    parser.add_argument("--queries", default="кворум,snapshot,idempotency_key", help="comma-separated")
    parser.add_argument("--repeat", type=int, default=5, help="searches per site and query (default 5)")
    parser.add_argument("--timeout", type=float, default=30, help="seconds for one search (default 30)")
    parser.add_argument("--delay", type=float, default=0.0, help="seconds the server waits per request")
    parser.add_argument("--json", type=Path, help="also write every run as JSON")
    parser.add_argument(
        "--peer-ours",
        metavar="NAME",
        help="the peer is another site_builder build, searched from its home page like ours, named NAME",
    )
    args = parser.parse_args(argv)
    args.queries = [query for query in args.queries.split(",") if query]
    if not args.queries or args.repeat < 1:
        parser.error("--queries must name a query and --repeat be positive")
    needed = [args.ours / "index.html", args.ours / "pagefind/site-search.js", args.peer / "pagefind"]
    needed += [args.peer / "index.html"] if args.peer_ours else []
    for path in needed:
        if not path.exists():
            parser.error(f"{path} does not exist: build the sites first (bench/run.py)")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    sites = [
        Site("ours", args.ours, "/", {}, args.delay),
        Site(args.peer_ours, args.peer, "/", {}, args.delay)
        if args.peer_ours
        else Site("hugo+pagefind", args.peer, PEER_PAGE, {PEER_PAGE: PEER_HTML}, args.delay),
    ]
    runs = measure(sites, args.queries, args.repeat, args.timeout)
    for site in sites:
        site.server.shutdown()
        site.server.server_close()
    text, summaries = tables(runs, [site.name for site in sites], args.queries)
    entries = {site.name: site.root / "pagefind/pagefind-entry.json" for site in sites}
    versions = {name: json.loads(entry.read_text())["version"] for name, entry in entries.items()}
    report = {"machine": machine(), "pagefind": versions, "repeat": args.repeat, "queries": args.queries}
    report |= {"delay_s": args.delay, "sites": {site.name: str(site.root) for site in sites}}
    report |= {"summaries": summaries, "runs": runs}
    delay = f", server delay {args.delay * 1000:.0f} ms per request" if args.delay else ""
    print(f"\nFirst search, fresh context, {args.repeat} runs per site and query{delay}, ", end="")
    print(f"{report['machine']['date']}, {os.cpu_count()} CPUs, Pagefind {versions}\n\n{text}")
    if args.json:
        args.json.write_text(json.dumps(report, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return 1 if any(run["seconds"] is None for run in runs) else 0


if __name__ == "__main__":
    raise SystemExit(main())
