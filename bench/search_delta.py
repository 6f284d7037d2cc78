"""Issue 34's search index after an edit: does a reader get what one fresh index gives?

A probe of the mechanism, not of speed. It writes a small site of synthetic pages (a fixed
vocabulary, and on each page a word of its own), then edits it: pages whose indexed text
changes, pages changed only outside the indexed body, pages removed, pages added. The same
edited pages are then searched in several ways, each bundle made by Pagefind as the build runs it
(``start_pagefind``):

- ``fresh``: one bundle of every page, what a clean build of a small site publishes;
- ``delta``: the bundle of the pages before the edit (the base) and a second bundle of the
  changed and added pages only (the delta), merged in the browser (``mergeIndex``); the
  base's copies of the changed and removed pages are hidden by a module standing in for
  ``pagefind.js`` (it re-exports Pagefind's own and drops, from each search's results, the ids
  on a list written into it, and a second result with an id already seen: a page changed only
  outside its indexed body has the same fragment in both bundles);
- ``shards``: the pages split between two bundles, merged, as the build splits a site of more
  than ``BATCHES_PER_SHARD`` batches today;
- ``warm``: one bundle from a Pagefind service kept running (``pagefind --service``, driven
  here over its protocol): fed the pages before the edit in path order and written, then given
  each changed and added page again (a page under a URL it has replaces the old one) and an
  empty page for each removed one, and written again. Its bytes are also compared with a new
  service's bundle of the edited pages in path order, with and without the added pages;
- ``delta, strict`` and ``shards, strict``: the same bundles as ``delta`` and ``shards``, searched
  through ``strict``, a module that answers a merged search as one index would (:func:`views`).

In Chromium (Debian's, through Playwright), each query (every vocabulary word and every
page's own word; pairs of words) is searched through Pagefind's JS API (the set of result URLs)
and, for a few, through its search box (the "N results" message). Prints how many queries find
another set of pages than ``fresh``, with examples; exits 1 when any does.

    python bench/search_delta.py [--pages 60] [--seed 34]

With ``--real SITE`` the pages are a built site's (its indexed pages, split between two bundles),
searched by the words of their own text, against one bundle: today's merging, ``strict``, the
build's module comparing stems (``stems``), and each bundle also holding a hidden page of every
word.

With ``--kept SITE N [N ...]`` it times the ``warm`` index at scale instead: a service fed
the first N article pages of a built site (e.g. the benchmark corpus's), written, then given
three of them again (a word added) and written, three times.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import functools
import gzip
import http.server
import json
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from html import escape
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
VOCABULARY = [
    *("alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"),
    *("kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango"),
    *("uniform", "victor", "whiskey", "xray", "yankee", "zulu", "amber", "basalt", "cedar", "dune"),
    *("ember", "fjord", "granite", "harbor", "iris", "jade", "kelp", "lagoon", "marble", "nectar"),
]
HIDING = """\
import * as core from "../pagefind/pagefind.js";
export { options, init, mergeIndex, filters, preload, destroy, createInstance }
  from "../pagefind/pagefind.js";
const hidden = new Set(HIDDEN);
function keep(found) {
  if (!found) return found;
  const seen = new Set();
  const results = found.results.filter((r) => !hidden.has(r.id) && !seen.has(r.id) && seen.add(r.id));
  return { ...found, results };
}
export async function search(term, options) { return keep(await core.search(term, options)); }
export async function debouncedSearch(term, options, wait) {
  return keep(await core.debouncedSearch(term, options, wait));
}
"""
SPELLED_MATCH = r"""async function match(one, keyword, wanted) {
  const results = await inBundle(one, keyword);
  if (!results.length) return "";
  const data = await results[0].data();
  const marked = [...data.excerpt.matchAll(/<mark>(.*?)<\/mark>/g)].map((m) => plain(m[1]));
  const shorter = marked.filter((word) => word && word.length < keyword.length && keyword.startsWith(word));
  if (!marked.length || shorter.length < marked.length) return "ext";
  return "fb:" + shorter.sort((a, b) => b.length - a.length)[0];
}

"""
"""``strict``'s first way to tell how a bundle matches a keyword, by the words its first result's
excerpt marks as the page spells them: a marked word that is a shorter beginning of the keyword is
taken for Pagefind's fallback, any other for a word beginning with the keyword. It fails on real
text, where Pagefind matches stems (``attributes`` marks ``attribute``)."""


def views(pagefind_js: str) -> dict[str, dict[str, str]]:
    """The modules a search box may load instead of ``pagefind.js``, by view, each as its files:
    ``view`` (HIDING); ``stems``, the build's own module over several bundles
    (``site_builder.search.merged``, with the ids in HIDDEN dropped from every search in a bundle,
    and a result seen twice dropped); ``strict``, the same module telling how a bundle matches a
    keyword by the words as pages spell them (``SPELLED_MATCH``)."""
    from site_builder.search.heads import CORE
    from site_builder.search.merged import MODULE, merged_files

    files = merged_files(pagefind_js, "/")
    hiding = (
        files[MODULE]
        .replace(
            'import * as core from "./pagefind-core.js";',
            'import * as core from "./pagefind-core.js";\nconst hidden = new Set(HIDDEN);',
        )
        .replace(
            "return (await core.search(term, { ...options, filters })).results;",
            "return (await core.search(term, { ...options, filters }))"
            ".results.filter((r) => !hidden.has(r.id));",
        )
    )
    spelled = re.sub(r"async function match\(.*?\n}\n\n", lambda _: SPELLED_MATCH, hiding, flags=re.S)
    assert hiding != files[MODULE] and spelled != hiding, "the build's module changed: update views()"
    core = {"pagefind-core.js": files[CORE]}
    return {
        "view": {"pagefind.js": HIDING},
        "stems": {"pagefind.js": hiding, **core},
        "strict": {"pagefind.js": spelled, **core},
    }


API_SEARCH = """async ([module, merged, term]) => {
  const pagefind = await import(module);
  if (!window.searchReady) {
    window.searchReady = true;
    await pagefind.options({});
    if (merged) await pagefind.mergeIndex(merged);
  }
  const found = await pagefind.search(term);
  const urls = [];
  for (const result of found.results) urls.push((await result.data()).url);
  return urls;
}"""
UI_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>search</title>
<link rel="stylesheet"
  href="/pagefind/pagefind-ui.css"><script src="/pagefind/pagefind-ui.js"></script></head>
<body><div id="search"></div><script>
new PagefindUI({element: "#search", bundlePath: "BUNDLE", showSubResults: false, mergeIndex: MERGE});
</script></body></html>"""


def token(number: int) -> str:
    """A word found on page ``number`` alone, of letters only (Pagefind splits a word at a digit)."""
    letters = ""
    while True:
        number, rest = divmod(number, 26)
        letters = chr(ord("a") + rest) + letters
        if number == 0:
            return "zq" + letters


def page(number: int, words: list[str], outside: str = "") -> str:
    """One page: its indexed body (``data-pagefind-body``) and a line outside it."""
    return (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Page {number}</title></head>'
        f"<body><nav>{outside or 'home'}</nav><main data-pagefind-body><h1>Page {number}</h1>"
        f"<p>{' '.join(words)} {token(number)}</p></main></body></html>"
    )


def write(site: Path, pages: dict[int, str]) -> None:
    for number, html in pages.items():
        path = site / f"p{number}" / "index.html"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(html, "utf-8")


def index(site: Path, numbers: list[int], out: Path, run: Path) -> None:
    """Pagefind over ``numbers``' pages, the way the build runs it (``start_pagefind``)."""
    from site_builder.search.pagefind import start_pagefind

    process = start_pagefind(site, [f"p{n}/index.html" for n in sorted(numbers)], run, out, "en")
    _, err = process.communicate()
    if process.returncode:
        raise SystemExit(err)


def fragment_ids(bundle: Path) -> dict[str, str]:
    """URL → the id a search result carries (its fragment's file name, without the suffix)."""
    found = {}
    for path in sorted((bundle / "fragment").iterdir()):
        data = gzip.decompress(path.read_bytes())
        found[json.loads(data[data.index(b"{") :])["url"]] = path.name.removesuffix(".pf_fragment")
    return found


class Service:
    """``pagefind --service`` driven directly over its protocol (base64 JSON, each message
    ended by a comma), one request answered before the next is sent: an index kept in memory,
    to which a page added again under its URL replaces the one it had."""

    def __init__(self, language: str = "en") -> None:
        from site_builder.search.pagefind import _executable

        self._process = subprocess.Popen(
            [_executable(), "--service"], stdin=subprocess.PIPE, stdout=subprocess.PIPE
        )
        self._number = 0
        self._pending = b""
        self.ask({"type": "NewIndex", "config": {"force_language": language}})

    def ask(self, payload: dict[str, object]) -> dict[str, object]:
        assert self._process.stdin is not None and self._process.stdout is not None
        self._number += 1
        message = json.dumps({"message_id": self._number, "payload": payload}).encode()
        self._process.stdin.write(base64.b64encode(message) + b",")
        self._process.stdin.flush()
        while True:
            while b"," not in self._pending:
                self._pending += self._process.stdout.read1(1 << 20)
            answer, self._pending = self._pending.split(b",", 1)
            decoded = json.loads(base64.b64decode(answer))
            if decoded.get("message_id") == self._number:
                if decoded["payload"]["type"] == "Error":
                    raise SystemExit(f"pagefind --service: {decoded['payload']}")
                return dict(decoded["payload"])

    def add_page(self, path: str, html: str) -> None:
        """Index ``html`` as the page at ``path`` (replacing the one indexed there, if any)."""
        self.ask({"type": "AddFile", "index_id": 0, "file_path": path, "url": None, "file_contents": html})

    def add(self, pages: dict[int, str]) -> None:
        for number in sorted(pages, key=lambda n: f"p{n}/index.html"):
            self.add_page(f"p{number}/index.html", pages[number])

    def write(self, out: Path) -> None:
        self.ask({"type": "WriteFiles", "index_id": 0, "output_path": str(out)})

    def close(self) -> None:
        assert self._process.stdin is not None
        self._process.stdin.close()
        self._process.wait()


EMPTY = '<!doctype html><html lang="en"><body></body></html>'
"""What a removed page is replaced with in a kept index (Pagefind's service cannot remove one):
with no ``data-pagefind-body`` while the other pages have one, Pagefind leaves it out."""


def differing_files(one: Path, other: Path) -> int:
    def files(folder: Path) -> dict[str, bytes]:
        return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()}

    mine, theirs = files(one), files(other)
    return sum(mine.get(name) != theirs.get(name) for name in mine.keys() | theirs.keys())


def kept_index(work: Path, before: dict[int, str], after: dict[int, str]) -> Path:
    """``warm``: one Pagefind service fed the pages before the edit, written; then given each
    changed or added page, and EMPTY for each removed one, and written again. Prints how its
    bundle compares, byte for byte, with a new service's over the edited pages in path order,
    and with only the edits and removals (no page added)."""
    changed = {n: html for n, html in after.items() if before.get(n) != html}
    removed = {n: EMPTY for n in before if n not in after}
    for name, edit in (
        ("edits and removals", {**{n: h for n, h in changed.items() if n in before}, **removed}),
        ("every change", {**changed, **removed}),
    ):
        kept = Service()
        kept.add(before)
        kept.write(work / f"kept-{len(edit)}-before")
        started = time.monotonic()
        kept.add(edit)
        kept.write(work / f"kept-{len(edit)}")
        took = time.monotonic() - started
        kept.close()
        final = {n: h for n, h in before.items() if n not in removed} | edit
        final = {n: h for n, h in final.items() if h != EMPTY}
        anew = Service()
        anew.add(final)
        anew.write(work / f"anew-{len(edit)}")
        anew.close()
        print(
            f"warm, {name} ({len(edit)} pages given again, {took:.2f} s to take them and write): "
            f"{differing_files(work / f'kept-{len(edit)}', work / f'anew-{len(edit)}')} files differ from "
            "a new index of the same pages in path order"
        )
    warm = work / "warm"
    write(warm, after)
    shutil.copytree(work / f"kept-{len(changed) + len(removed)}", warm / "pagefind")
    _view(warm, [], merged=False)
    return warm


def sites(
    work: Path, count: int, seed: int
) -> tuple[dict[str, tuple[Path, str]], dict[str, list[str]], set[str]]:
    """Three searches over the same edited pages: a base + delta (``delta``), the pages split
    between two bundles as the build's shards split a large site (``shards``), and one fresh
    bundle (``fresh``); and the queries, by kind."""
    rng = random.Random(seed)
    before = {n: page(n, rng.sample(VOCABULARY, 8)) for n in range(1, count + 1)}
    edited_text = rng.sample(range(1, count + 1), 5)
    edited_outside = rng.sample([n for n in before if n not in edited_text], 2)
    removed = rng.sample([n for n in before if n not in edited_text + edited_outside], 3)
    added = list(range(count + 1, count + 5))
    after = {n: html for n, html in before.items() if n not in removed}
    after |= {n: page(n, rng.sample(VOCABULARY, 8)) for n in edited_text + added}
    after |= {n: before[n].replace("<nav>home</nav>", "<nav>updated</nav>") for n in edited_outside}

    delta = work / "delta"
    write(delta, before)
    index(delta, list(before), delta / "pagefind", work / "run-base")
    base = fragment_ids(delta / "pagefind")
    for n in removed:
        shutil.rmtree(delta / f"p{n}")
    changed = edited_text + edited_outside + added
    write(delta, {n: after[n] for n in changed})
    index(delta, changed, delta / "pagefind-more", work / "run-delta")
    hidden = {base[f"/p{n}/"] for n in edited_text + edited_outside + removed}
    _view(delta, sorted(hidden - set(fragment_ids(delta / "pagefind-more").values())))

    shards = work / "shards"
    write(shards, after)
    numbers = sorted(after)
    index(shards, numbers[: len(numbers) // 2], shards / "pagefind", work / "run-shard-0")
    index(shards, numbers[len(numbers) // 2 :], shards / "pagefind-more", work / "run-shard-1")
    _view(shards, [])

    fresh = work / "fresh"
    write(fresh, after)
    index(fresh, numbers, fresh / "pagefind", work / "run-fresh")
    _view(fresh, [], merged=False)

    tokens = [token(n) for n in sorted(set(before) | set(after))]
    pairs = [f"{rng.choice(VOCABULARY)} {t}" for t in tokens] + [
        " ".join(rng.sample(VOCABULARY, 2)) for _ in tokens
    ]
    print(
        f"{count} pages; edited {len(edited_text)} (indexed text), {len(edited_outside)} (outside it), "
        f"removed {len(removed)}, added {len(added)}; the delta holds {len(changed)} pages, "
        f"{len(hidden)} of the base's ids are hidden"
    )
    warm = kept_index(work, before, after)
    setups = {
        "fresh": (fresh, "view"),
        "delta": (delta, "view"),
        "shards": (shards, "view"),
        "warm": (warm, "view"),
        "delta, strict": (delta, "strict"),
        "shards, strict": (shards, "strict"),
        "delta, strict by stems": (delta, "stems"),
        "shards, strict by stems": (shards, "stems"),
    }
    gone = {f"/p{n}/" for n in removed}
    return setups, {"one word": VOCABULARY + tokens, "two words": pairs}, gone


def real_sites(
    work: Path, built: Path, seed: int
) -> tuple[dict[str, tuple[Path, str]], dict[str, list[str]]]:
    """``--real``: the indexed pages of a built site, as one fresh bundle and split in two
    shards (alternate pages, in path order); the queries, words of the pages' own text as they
    spell them (Pagefind stems them): whole, cut short, lengthened, and in pairs."""
    from bs4 import BeautifulSoup

    entry = json.loads((built / "pagefind" / "pagefind-entry.json").read_text("utf-8"))
    language = sorted(entry["languages"])[0]
    pages = sorted(
        p.relative_to(built).as_posix()
        for p in built.rglob("*.html")
        if "data-pagefind-body" in p.read_text("utf-8") and p.relative_to(built).parts[0] != "pagefind"
    )

    def indexed_text(name: str) -> str:
        """The text of a page's indexed body, less what Pagefind leaves out."""
        soup = BeautifulSoup((built / name).read_text("utf-8"), "html.parser")
        body = soup.select_one("[data-pagefind-body]")
        for left_out in body.select("[data-pagefind-ignore], script, style") if body else []:
            left_out.decompose()
        return body.get_text(" ") if body else ""

    words = {w.lower() for name in pages for w in re.findall(r"[^\W\d_]{3,}", indexed_text(name))}
    from site_builder.search.pagefind import start_pagefind

    def bundle(folder: Path, chosen: list[str], out: str) -> None:
        process = start_pagefind(folder, chosen, work / f"run-{folder.name}-{out}", folder / out, language)
        _, err = process.communicate()
        if process.returncode:
            raise SystemExit(err)

    setups: dict[str, tuple[Path, str]] = {}
    for name in ("fresh", "shards"):
        folder = work / name
        for page_name in pages:
            (folder / page_name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(built / page_name, folder / page_name)
        (folder / "p2").mkdir(exist_ok=True)
        (folder / "p2" / "index.html").write_text("<!doctype html><title>start</title>", "utf-8")
    bundle(work / "fresh", pages, "pagefind")
    _view(work / "fresh", [], merged=False)
    bundle(work / "shards", pages[::2], "pagefind")
    bundle(work / "shards", pages[1::2], "pagefind-more")
    _view(work / "shards", [])
    # Each shard also indexes one page holding the text of every page (hidden from results):
    # every bundle then knows every word, and no bundle falls back to a shorter word that one
    # index would not fall back to.
    shutil.copytree(work / "shards", work / "words", ignore=shutil.ignore_patterns("pagefind*", "search-*"))
    texts = [indexed_text(name) for name in pages]
    every_word = escape(" ".join(dict.fromkeys(" ".join(texts).split())))  # each once
    (work / "words" / "words").mkdir()
    (work / "words" / "words" / "index.html").write_text(
        f'<!doctype html><html lang="{language}"><body><main data-pagefind-body><p>{every_word}</p>'
        "</main></body></html>",
        "utf-8",
    )
    bundle(work / "words", [*pages[::2], "words/index.html"], "pagefind")
    bundle(work / "words", [*pages[1::2], "words/index.html"], "pagefind-more")
    hidden = [fragment_ids(work / "words" / out)["/words/"] for out in ("pagefind", "pagefind-more")]
    _view(work / "words", hidden)
    setups = {"fresh": (work / "fresh", "view"), "shards": (work / "shards", "view")}
    setups["shards, strict"] = (work / "shards", "strict")
    setups["shards, every word in each"] = (work / "words", "view")
    setups["shards, strict by stems"] = (work / "shards", "stems")
    rng = random.Random(seed)
    chosen = rng.sample(sorted(words), min(120, len(words)))
    queries = {
        "one word as spelled": chosen,
        "one word cut short": [w[: max(3, len(w) * 2 // 3)] for w in chosen[:60]],
        "one word lengthened": [w + rng.choice(["s", "ing", "ов", "ами", "x"]) for w in chosen[60:]],
        "two words": [f"{a} {b}" for a, b in zip(chosen[::2], chosen[1::2], strict=False)]
        + [f"{a[: max(3, len(a) - 2)]} {b}" for a, b in zip(chosen[1::2], chosen[::2], strict=False)],
    }
    halves = f"{len(pages[::2])} and {len(pages[1::2])}"
    print(f"{len(pages)} pages of {built} ({language}), {len(words)} words; shards of {halves}")
    return setups, queries


def _view(site: Path, hidden: list[str], *, merged: bool = True) -> None:
    """Each module of :func:`views` (hiding ``hidden``) and its page with the search box."""
    merge = '[{bundlePath: "/pagefind-more/"}]' if merged else "[]"
    for name, files in views((site / "pagefind" / "pagefind.js").read_text("utf-8")).items():
        (site / f"pagefind-{name}").mkdir()
        for file, text in files.items():
            if file == "pagefind.js":
                text = text.replace("HIDDEN", json.dumps(hidden))
            (site / f"pagefind-{name}" / file).write_text(text, "utf-8")
        page = UI_PAGE.replace("BUNDLE", f"/pagefind-{name}/").replace("MERGE", merge)
        (site / f"search-{name}.html").write_text(page, "utf-8")


@contextmanager
def served(folder: Path) -> Iterator[str]:
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

        def handle(self) -> None:
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # a tab closed early
                super().handle()

    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Quiet, directory=str(folder))
    )
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()


def ui_message(browser: Any, origin: str, term: str, view: str = "view") -> str:
    """What the search box says ("7 results for alpha") once it has searched ``term``."""
    tab = browser.new_page()
    try:
        tab.goto(f"{origin}/search-{view}.html")
        tab.fill(".pagefind-ui__search-input", term)
        tab.wait_for_function(
            "t => { const m = document.querySelector('.pagefind-ui__message')?.textContent || '';"
            " return m.includes(t) && !m.startsWith('Searching'); }",
            arg=term,
        )
        return str(tab.inner_text(".pagefind-ui__message"))
    finally:
        tab.close()


def kept_at_scale(site: Path, count: int) -> None:
    """The ``warm`` index over ``count`` pages of a built site: what one edit costs it."""
    paths = sorted(site.glob("articles/*/index.html"))[:count]
    pages = [(p.relative_to(site).as_posix(), p.read_text("utf-8")) for p in paths]
    language = re.search(r'<html lang="([a-z]+)', pages[0][1])
    service = Service(language.group(1) if language else "en")
    work = Path(tempfile.mkdtemp(prefix="search-kept-"))
    try:
        started = time.monotonic()
        for path, html in pages:
            service.add_page(path, html)
        fed = time.monotonic() - started
        started = time.monotonic()
        service.write(work / "first")
        first = time.monotonic() - started
        edits = []
        for round_ in range(3):
            started = time.monotonic()
            for path, html in pages[round_ * 7 : round_ * 7 + 3]:
                service.add_page(path, html.replace("<p>", "<p>правка edit ", 1))
            service.write(work / f"edit-{round_}")
            edits.append(time.monotonic() - started)
        print(
            f"{len(pages)} pages: fed in {fed:.2f} s, first written in {first:.2f} s; three pages given "
            f"again and written: {', '.join(f'{t:.2f}' for t in edits)} s"
        )
    finally:
        service.close()
        shutil.rmtree(work, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=60)
    parser.add_argument("--seed", type=int, default=34)
    parser.add_argument("--kept", nargs="+", metavar=("SITE", "N"), help="time the warm index at scale")
    parser.add_argument("--real", type=Path, metavar="SITE", help="a built site's pages, sharded, instead")
    args = parser.parse_args()
    if args.kept:
        for count in args.kept[1:]:
            kept_at_scale(Path(args.kept[0]), int(count))
        return 0
    from playwright.sync_api import sync_playwright

    work = Path(tempfile.mkdtemp(prefix="search-delta-"))
    try:
        if args.real:
            setups, queries = real_sites(work, args.real, args.seed)
            gone: set[str] = set()
        else:
            setups, queries, gone = sites(work, args.pages, args.seed)
        every = [q for kind in queries.values() for q in kind]
        found: dict[str, dict[str, list[str]]] = {}
        messages: dict[str, list[str]] = {}
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            for name, (folder, view) in setups.items():
                with served(folder) as origin:
                    tab = browser.new_page()
                    tab.goto(f"{origin}/p2/")
                    merged = "/pagefind-more/" if (folder / "pagefind-more").is_dir() else None
                    found[name] = {
                        q: tab.evaluate(API_SEARCH, [f"/pagefind-{view}/pagefind.js", merged, q])
                        for q in every
                    }
                    tab.close()
                    messages[name] = [ui_message(browser, origin, q, view) for q in every[:: len(every) // 6]]
            browser.close()
        differs = False
        for name in [name for name in setups if name != "fresh"]:
            for kind, asked in queries.items():
                other = [q for q in asked if sorted(found[name][q]) != sorted(found["fresh"][q])]
                order = sum(found[name][q] != found["fresh"][q] for q in asked if q not in other)
                for q in other[:2]:
                    print(f"  {q!r}: {sorted(found[name][q])} against {sorted(found['fresh'][q])}")
                print(
                    f"{name}, {kind}: {len(other)} of {len(asked)} queries find another set than one fresh "
                    f"bundle, {order} the same set in another order; e.g. {other[:2]}"
                )
                differs |= bool(other)
            removed = sum(bool(gone & set(urls)) for urls in found[name].values())
            print(f"{name}: {removed} of {len(every)} queries find a removed page")
            differs |= bool(removed)
            ui = sum(a != b for a, b in zip(messages[name], messages["fresh"], strict=True))
            print(
                f"{name}, the search box's message: {ui} of {len(messages[name])} unlike one fresh bundle's"
            )
            if ui:
                print(f"  e.g. {messages[name]} against {messages['fresh']}")
        return 1 if differs else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    sys.exit(main())
