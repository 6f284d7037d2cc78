"""How Pagefind is best fed one search shard: its CLI over the pages on disk (the site's
folder itself, or a tree of links to the pages made in path order, as the build does), its
service driven directly (each page's HTML in path order), or its Python API
(``pagefind.index``, the service the ``pagefind`` package runs) given each page's HTML, or
given the text the build already knows as a custom record.

Run with the project's Python (the ``pagefind`` package site_builder depends on) on a
built site, e.g. the benchmark corpus's output::

    python bench/pagefind_feed.py --site /work/bench-scratch/corpus-10000/site_builder/build --pages 300

Each mode runs once per ``--repeat`` round, the modes taking turns; the table shows the
median wall time, the CPU time of the Pagefind processes (user + system, from the
kernel's accounting of this script's waited-for children) and that of this script's
own process while it fed them (the API's client side). The pages are the first
``--pages`` article pages in path order, read into memory before any clock starts;
for custom records their text is taken from the page's ``data-pagefind-body``
element (also before the clock starts: a build would have it already).
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path

LANGUAGE = "ru"  # the corpus's language, which site_builder forces for the whole index


VOID = frozenset({"area", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"})


class _BodyText(HTMLParser):
    """The text inside the element marked ``data-pagefind-body``, and the page's title."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.depth = 0
        self.parts: list[str] = []
        self.title: list[str] = []
        self.in_title = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.depth:
            self.depth += tag not in VOID
        elif any(name == "data-pagefind-body" for name, _ in attrs):
            self.depth = 1
        self.in_title = tag == "title"

    def handle_endtag(self, tag: str) -> None:
        if self.depth and tag not in VOID:
            self.depth -= 1
        self.in_title = False

    def handle_data(self, data: str) -> None:
        if self.depth:
            self.parts.append(data)
        elif self.in_title:
            self.title.append(data)


def _pages(site: Path, count: int) -> list[tuple[str, str]]:
    """(path relative to ``site``, HTML) of the first ``count`` article pages."""
    paths = sorted(site.glob("articles/*/index.html"))[:count]
    if len(paths) < count:
        raise SystemExit(f"{site}: {len(paths)} article pages, fewer than --pages {count}")
    return [(path.relative_to(site).as_posix(), path.read_text("utf-8")) for path in paths]


def _url(relative: str) -> str:
    return "/" + relative.removesuffix("index.html")


def run_cli(site: Path, pages: list[tuple[str, str]], out: Path) -> None:
    """What site_builder did until 2026-12-05: the binary over the site's own folder, told the
    pages by a glob in its settings file (pages numbered in the order the file system lists them)."""
    from site_builder.search.pagefind import _executable

    work = out.parent / "cli-run"
    work.mkdir()
    glob = "{" + ",".join(path for path, _ in pages) + "}"
    settings = {"site": str(site), "output_path": str(out), "glob": glob, "force_language": LANGUAGE}
    (work / "pagefind.json").write_text(json.dumps(settings), "utf-8")
    subprocess.run([_executable(), "--quiet"], cwd=work, check=True, stdout=subprocess.DEVNULL)


def run_tree(site: Path, pages: list[tuple[str, str]], out: Path) -> None:
    """What site_builder does now: the binary over a tree of hard links to the pages, made
    afresh in path order (``start_pagefind``), so the file system's order of the site is not
    the index's."""
    from site_builder.search.pagefind import start_pagefind

    process = start_pagefind(site, [path for path, _ in pages], out.parent / "tree-run", out, LANGUAGE)
    _, err = process.communicate()
    if process.returncode:
        raise SystemExit(err)


def run_service(pages: list[tuple[str, str]], out: Path) -> None:
    """``pagefind --service`` driven directly: NewIndex, one AddFile per page in path order and
    GetFiles, over its protocol (base64 JSON, each message ended by a comma); a thread writes
    while this one reads, and the bundle it answers with is written here."""
    from site_builder.search.pagefind import _executable

    process = subprocess.Popen([_executable(), "--service"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert process.stdin is not None and process.stdout is not None
    last = len(pages) + 1
    messages = [{"type": "NewIndex", "config": {"force_language": LANGUAGE}}]
    messages += [
        {"type": "AddFile", "index_id": 0, "file_path": p, "url": _url(p), "file_contents": h}
        for p, h in pages
    ]
    messages.append({"type": "GetFiles", "index_id": 0})

    def write() -> None:
        for number, payload in enumerate(messages):
            data = json.dumps({"message_id": number, "payload": payload}).encode()
            process.stdin.write(base64.b64encode(data) + b",")  # type: ignore[union-attr]
        process.stdin.flush()  # type: ignore[union-attr]

    writer = threading.Thread(target=write)
    writer.start()
    pending, files = bytearray(), None
    while files is None and (chunk := process.stdout.read1(1 << 20)):
        pending += chunk
        *answers, rest = bytes(pending).split(b",")
        pending = bytearray(rest)
        for answer in answers:
            message = json.loads(base64.b64decode(answer))
            if message["payload"]["type"] == "Error":
                raise SystemExit(message["payload"]["message"])
            if message["message_id"] == last:
                files = message["payload"]["files"]
    writer.join()
    process.stdin.close()  # the service exits at the end of its input
    process.wait()
    for file in files or []:
        (out / file["path"]).parent.mkdir(parents=True, exist_ok=True)
        (out / file["path"]).write_bytes(base64.b64decode(file["content"]))


def run_api(pages: list[tuple[str, str]], out: Path, records: list[tuple[str, str, str]] | None) -> None:
    """The Python API: every page sent at once (``asyncio.gather``), then the files written."""
    from pagefind.index import IndexConfig, PagefindIndex

    async def index() -> None:
        # Leaving the context writes the bundle, once, to the configured folder.
        async with PagefindIndex(IndexConfig(force_language=LANGUAGE, output_path=str(out))) as pagefind:
            if records is None:
                sent = [pagefind.add_html_file(content=html, url=_url(path)) for path, html in pages]
            else:
                sent = [
                    pagefind.add_custom_record(
                        url=url, content=text, language=LANGUAGE, meta={"title": title}
                    )
                    for url, title, text in records
                ]
            await asyncio.gather(*sent)

    asyncio.run(index())


def _records(pages: list[tuple[str, str]]) -> list[tuple[str, str, str]]:
    found = []
    for path, html in pages:
        parser = _BodyText()
        parser.feed(html)
        found.append((_url(path), "".join(parser.title).strip(), " ".join("".join(parser.parts).split())))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, required=True, help="a built site_builder site")
    parser.add_argument("--pages", type=int, default=300, help="article pages in the shard")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--modes", default="cli,cli-tree,service,api-html,api-records")
    args = parser.parse_args()
    pages = _pages(args.site.resolve(), args.pages)
    records = _records(pages)
    modes: dict[str, Callable[[Path], None]] = {
        "cli": lambda out: run_cli(args.site.resolve(), pages, out),
        "cli-tree": lambda out: run_tree(args.site.resolve(), pages, out),
        "service": lambda out: run_service(pages, out),
        "api-html": lambda out: run_api(pages, out, None),
        "api-records": lambda out: run_api(pages, out, records),
    }
    chosen = args.modes.split(",")
    walls: dict[str, list[float]] = {mode: [] for mode in chosen}
    cpus: dict[str, list[float]] = {mode: [] for mode in chosen}
    own: dict[str, list[float]] = {mode: [] for mode in chosen}
    for _ in range(args.repeat):
        for mode in chosen:  # taking turns: a slow spell of the machine falls on every mode
            scratch = Path(tempfile.mkdtemp(prefix="pagefind-feed-"))
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start, mine = time.perf_counter(), time.process_time()
            modes[mode](scratch / "bundle")
            walls[mode].append(time.perf_counter() - start)
            own[mode].append(time.process_time() - mine)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpus[mode].append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
            written = sum(1 for p in (scratch / "bundle").rglob("*") if p.is_file())
            print(
                f"{mode}: {walls[mode][-1]:.2f} s wall, {cpus[mode][-1]:.2f} s CPU, {written} files",
                file=sys.stderr,
            )
            shutil.rmtree(scratch)
    print(f"{args.pages} pages, {args.repeat} rounds\n")
    print("| feed | median wall s | runs s | median Pagefind CPU s | median CPU s of this process |")
    print("|---|---:|---|---:|---:|")
    for mode in chosen:
        runs = ", ".join(f"{w:.2f}" for w in walls[mode])
        cpu, mine = statistics.median(cpus[mode]), statistics.median(own[mode])
        print(f"| {mode} | {statistics.median(walls[mode]):.2f} | {runs} | {cpu:.2f} | {mine:.2f} |")


if __name__ == "__main__":
    main()
