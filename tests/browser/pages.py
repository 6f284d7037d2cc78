"""What the browser tests share: Debian's Chromium launched through Playwright, a built site
served on 127.0.0.1, and a page under watch, whose every console error, failed request and
request to another host is recorded. The fixtures that hand these out are in ``conftest.py``."""

from __future__ import annotations

import contextlib
import functools
import http.server
import os
import threading
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Page,
    Request,
    Response,
    sync_playwright,
)

CHROMIUM = Path("/usr/bin/chromium")
CHART_TEXTS_JS = """() => [...document.querySelectorAll("figure.chart")].map(figure => {
    const under = e => {  // the colour a chart is drawn over: the first box behind it that has one
        for (; e; e = e.parentElement) {
            const colour = getComputedStyle(e).backgroundColor;
            if (colour !== "rgba(0, 0, 0, 0)" && colour !== "transparent") return colour;
        }
        return "rgb(255, 255, 255)";
    };
    const svg = figure.querySelector(".chart-drawing svg");
    if (!svg) return {caption: figure.textContent, width: 0, own: null, texts: []};
    const background = under(svg.parentElement);
    return {
        caption: figure.querySelector("figcaption").textContent,
        width: svg.getBoundingClientRect().width,
        own: getComputedStyle(svg.firstElementChild).fill,
        texts: [...svg.querySelectorAll("text")].map(t => ({
            text: t.textContent, fill: getComputedStyle(t).fill, background})),
    };
})"""
"""Each chart of the page: its caption, the drawing's width, the fill of the drawing's own
background, and each of its labels with its colour and the page's behind it."""
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    # Nothing leaves the machine: every name but the test server's address fails to resolve.
    # (Blocking here, not by routing each request through Playwright, costs the tests
    # nothing per request: a route is a round trip through the driver for every file.)
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
]
DESKTOP = {"width": 1280, "height": 800}
TIMEOUT_MS = 10_000
MISSING_PATH = "/articles/no-such-article/"


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Static files, quietly; a missing path gets the site's own 404.html, as a host serves it."""

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def handle(self) -> None:
        # A browser that closes the connection before reading the answer (a page left, a test
        # over) is no error of the site's: without this, the server's thread prints a traceback
        # into a passing run.
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            super().handle()

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        page = Path(self.directory) / "404.html"
        if code != 404 or not page.is_file():
            super().send_error(code, message, explain)
            return
        body = page.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)


@dataclass(frozen=True)
class Site:
    """The built site on disk, its server's address and its pages by type."""

    root: Path
    base: str
    pages: dict[str, list[str]]
    all_categories: list[str]

    def url(self, path: str) -> str:
        return self.base + urllib.parse.quote(path)


def debian_chromium() -> Path:
    """Debian's Chromium: missing fails the run on CI and skips it, visibly, elsewhere."""
    if not CHROMIUM.exists():
        reason = f"{CHROMIUM} is missing: install Debian's `chromium` package to run the browser tests"
        if os.environ.get("CI") == "true":
            pytest.fail(reason, pytrace=False)
        pytest.skip(reason)
    return CHROMIUM


@contextmanager
def serving(folder: Path, handler_class: type[SiteHandler] = SiteHandler) -> Iterator[str]:
    """Serve ``folder`` on a free port of 127.0.0.1; yields the base URL."""
    handler = functools.partial(handler_class, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, name="browser-test-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@contextmanager
def launched(chromium: Path) -> Iterator[Browser]:
    """Debian's Chromium driven by Playwright, closed afterwards."""
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(chromium), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@dataclass
class Watch:
    """Everything that went wrong while a page was open: console errors, failed requests."""

    base: str
    expected_404: set[str] = field(default_factory=set)
    problems: list[str] = field(default_factory=list)

    def on_console(self, msg: ConsoleMessage) -> None:
        if msg.type != "error":
            return
        where = msg.location.get("url", "")
        if where in self.expected_404 and msg.text.startswith("Failed to load resource"):
            return
        self.problems.append(f"console error at {where or '?'}: {msg.text}")

    def on_page_error(self, error: Exception) -> None:
        self.problems.append(f"uncaught exception: {error}")

    def on_request_failed(self, request: Request) -> None:
        if request.failure == "net::ERR_ABORTED" and self.served(request.url):
            return  # cut short by the next navigation (a late favicon, say), not missing
        self.problems.append(f"request failed: {request.method} {request.url} ({request.failure})")

    def served(self, url: str) -> bool:
        """Whether the site's server answers ``url`` with 200 when asked directly."""
        if not url.startswith(self.base + "/"):
            return False
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                return bool(response.status == 200)
        except OSError:
            return False

    def on_response(self, response: Response) -> None:
        if response.status >= 400 and response.url not in self.expected_404:
            self.problems.append(f"HTTP {response.status} for {response.url}")

    def on_request(self, request: Request) -> None:
        url = request.url
        local = url.startswith(self.base + "/") or url == self.base
        if not local and urllib.parse.urlsplit(url).scheme in ("http", "https", "ws", "wss"):
            self.problems.append(f"request to another host (blocked): {url}")


def watch_page(context: BrowserContext, site: Site) -> tuple[Page, Watch]:
    """A new page in ``context`` whose every console error and failed request is recorded."""
    watch = Watch(site.base)
    page = context.new_page()
    page.on("request", watch.on_request)
    page.on("console", watch.on_console)
    page.on("pageerror", watch.on_page_error)
    page.on("requestfailed", watch.on_request_failed)
    page.on("response", watch.on_response)
    return page, watch


@contextmanager
def watched_page(browser: Browser, site: Site, **context_args: Any) -> Iterator[tuple[Page, Watch]]:
    """A fresh context and page whose every console error and failed request is recorded."""
    context = browser.new_context(**context_args)
    context.set_default_timeout(TIMEOUT_MS)
    try:
        yield watch_page(context, site)
    finally:
        context.close()


def visit(page: Page, watch: Watch, site: Site, path: str) -> None:
    """Open a page of the site and let it settle: lazy images loaded, no request in flight."""
    start_visit(page, watch, site, path)
    settle(page)


def start_visit(page: Page, watch: Watch, site: Site, path: str) -> None:
    """Navigate to a page of the site and check its status, without waiting for it to load: a
    page of :func:`visit_all` loads while the others are asked for."""
    url = site.url(path)
    expected = 404 if path == MISSING_PATH else 200
    if expected == 404:
        watch.expected_404.add(url)
    response = page.goto(url, wait_until="commit")
    assert response is not None, f"no response for {url}"
    assert response.status == expected, f"{url}: HTTP {response.status}, expected {expected}"


def settle(page: Page) -> None:
    """Wait until the page has loaded, with its lazy images too."""
    page.wait_for_load_state("load")
    # Lazy images load only near the viewport: bring every one in, then wait for them all.
    page.evaluate(
        """async () => {
            for (const img of document.images) { img.loading = "eager"; }
            await Promise.all([...document.images].map(img => img.decode().catch(() => null)));
        }"""
    )


def visit_all(
    context: BrowserContext,
    site: Site,
    paths: list[str],
    check: Callable[[Page, str], list[str]],
    tabs: int = 6,
) -> list[str]:
    """Visit each of ``paths`` in ``tabs`` watched tabs at once, each settled and then idle (no
    request for half a second), and ``check`` it; what ``check`` and each watch found, by path.

    Each page waits for the network to be idle, so a late request that fails is seen: the tabs
    overlap those waits instead of taking them one after the other."""
    opened = [watch_page(context, site) for _ in range(min(tabs, len(paths)))]
    failures: list[str] = []
    try:
        for start in range(0, len(paths), len(opened)):
            batch = list(zip(opened, paths[start : start + len(opened)], strict=False))
            for (page, watch), path in batch:
                start_visit(page, watch, site, path)
            for (page, watch), path in batch:
                settle(page)
                page.wait_for_load_state("networkidle")
                failures += [f"{path}: {line}" for line in [*check(page, path), *watch.problems]]
                watch.problems.clear()
    finally:
        for page, _ in opened:
            page.close()
    return failures
