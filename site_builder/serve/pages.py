"""What ``serve`` answers over HTTP: the site's files, the state of the last build, and a
stream of server-sent events that tells each open page of a new version the moment it is in.

Served HTML gets a small script: it listens to ``__site_builder__/events``; a new version
reloads the page; a failed rebuild shows its problems over the last good page, which keeps
being served. The page is told the version it was served at, so a rebuild that lands
between its load and its listening still reloads it. A site whose ``base_url`` has a path is
served below that path, as it will be deployed (the state and events too); ``/`` redirects
there. A path the site does not have is answered, as a host answers it, with the site's own
``404.html`` and status 404 (never a folder listing).

A rebuild's changed files are served from memory as soon as its pages are checked
(:meth:`State.preview`), while its search index is still being made: the page shows an edit
without waiting for Pagefind. The edited articles' pages come first, once the site is judged
as a whole; the list pages and the rest once every link is checked (a second version, when
they add to what was shown). The rest of the site, the search included, is the last good
build's until the new one is swapped in; the state says ``"search_pending": true`` meanwhile.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
from collections.abc import Mapping
from http.server import SimpleHTTPRequestHandler
from pathlib import Path
from urllib.parse import urlsplit

from site_builder.model.layout import under

STATE_PATH = "/__site_builder__/state"
"""The state as JSON, below the site's base path like the site itself."""
EVENTS_PATH = "/__site_builder__/events"
"""The stream of states (server-sent events) open pages listen to."""
KEEP_ALIVE = 15.0
"""Seconds between comments on an idle stream: a page that went away is noticed."""
_RELOAD_SCRIPT = """<script>
(function () {
  var seen = VERSION, box = null;
  function show(problems) {
    if (!problems.length) { if (box) { box.remove(); box = null; } return; }
    if (!box) {
      box = document.createElement("pre");
      box.setAttribute("role", "alert");
      box.style.cssText = "position:fixed;inset:auto 0 0 0;max-height:50vh;overflow:auto;margin:0;" +
        "padding:1rem;background:#7a0014;color:#fff;font:13px/1.4 monospace;" +
        "z-index:99999;white-space:pre-wrap";
      document.body.appendChild(box);
    }
    box.textContent = "The last change does not build; showing the last good site.\\n\\n" +
      problems.join("\\n");
  }
  if (!window.EventSource) return;
  var events = new EventSource("EVENTS_PATH");
  events.onmessage = function (message) {
    var state = JSON.parse(message.data);
    if (state.version !== seen) { events.close(); location.reload(); return; }
    show(state.problems);
  };
})();
</script>"""


class State:
    """What the server tells open pages: the build version and the last problems."""

    def __init__(self, base_path: str) -> None:
        self._changed = threading.Condition()
        self._closed = False
        self.version = 0
        self.problems: list[str] = []
        self.base_path = base_path
        """The URL path the served site lies below: that of its last good build."""
        self.shown: Mapping[str, bytes | None] = {}
        """Files of the rebuild under way, served before its search index is done (output path
        → bytes; None: removed). Replaced whole, never changed in place."""
        self._previewed = False
        """The rebuild under way has shown its changed files."""

    def preview(self, files: Mapping[str, bytes | None], base_path: str) -> bool:
        """Serve a rebuild's changed files before it is done, as a new version without problems
        (its pages passed the checks so far); not when the rebuild moves the site to another
        base path (then its pages wait for it). Whether shown. The same files shown again by
        the same rebuild (its second preview found nothing its first had not) are no new
        version: open pages do not reload twice."""
        with self._changed:
            if base_path != self.base_path:
                return False
            if self._previewed and files == self.shown:
                return True
            self.shown = files
            self._previewed = True
            self.version += 1
            self.problems = []  # its pages passed the checks so far; the search index is to come
            self._changed.notify_all()
            return True

    def update(self, problems: list[str], base_path: str, *, superseded: bool = False) -> None:
        """Record a rebuild: a good one bumps the version (and may move the site to another
        base path), a bad one records only the problems. Every listening page is told.

        A good rebuild that showed its files keeps its version (its pages are those shown); a
        bad one that showed them takes them back, as a new version of the live site. One
        ``superseded`` by a newer edit once it showed its files leaves them shown: the next
        rebuild follows at once."""
        with self._changed:
            previewed, self._previewed = self._previewed, False
            if superseded:
                self._changed.notify_all()
                return
            if not problems:
                if not previewed:
                    self.version += 1
                self.base_path = base_path
                self.shown = {}
            elif previewed:
                self.version += 1
                self.shown = {}
            self.problems = problems
            self._changed.notify_all()

    def close(self) -> None:
        """``serve`` is stopping: every stream ends."""
        with self._changed:
            self._closed = True
            self._changed.notify_all()

    def as_json(self) -> bytes:
        """The state as pages read it."""
        with self._changed:
            return self._json()

    def _json(self) -> bytes:
        state = {"version": self.version, "problems": self.problems, "search_pending": bool(self.shown)}
        return json.dumps(state).encode()

    def after(self, shown: bytes | None, timeout: float) -> bytes | None:
        """The state once it is not ``shown`` (at once if it is not), or ``shown`` again after
        ``timeout`` seconds without a change; None once serve is stopping."""
        with self._changed:
            self._changed.wait_for(lambda: self._closed or self._json() != shown, timeout)
            return None if self._closed else self._json()


class Handler(SimpleHTTPRequestHandler):
    """One request to the served site."""

    state: State

    def __init__(self, *args: object, state: State, directory: str) -> None:
        self.state = state
        super().__init__(*args, directory=directory)  # type: ignore[arg-type]

    def handle(self) -> None:
        """A reader gone mid-answer (a reload, a closed tab, a timeout) is no fault of the site."""
        with contextlib.suppress(ConnectionError):
            super().handle()

    def do_GET(self) -> None:
        if self._outside_the_site():
            return
        asked = self.path.split("?")[0]
        if asked == under(self.state.base_path, STATE_PATH):
            self._send(200, "application/json", self.state.as_json())
            return
        if asked == under(self.state.base_path, EVENTS_PATH):
            self._send_events()
            return
        if self._send_shown():
            return
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        if path.suffix == ".html" and path.is_file():
            self._send_page(200, path)
            return
        super().do_GET()

    def _send_shown(self) -> bool:
        """Answer from the rebuild's preview, if it has the file asked for."""
        version = self.state.version  # before the files: a newer preview reloads once more
        shown = self.state.shown
        if not shown:
            return False
        asked = Path(self.translate_path(self.path)).relative_to(Path(str(self.directory)))
        name = asked.as_posix() if asked.parts else ""
        for path in (name, f"{name}/index.html".lstrip("/")):
            if path in shown:
                body = shown[path]
                if body is None:
                    self.send_error(404)
                elif path.endswith(".html"):
                    self._send_html(200, body.decode("utf-8"), version)
                else:
                    self._send(200, self.guess_type(path), body)
                return True
        return False

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """A missing page is answered with the site's own ``404.html`` (links and all below the
        base path, as it was built), with the reload script: it shows the page once it exists."""
        page = Path(str(self.directory)) / "404.html"
        if code == 404 and page.is_file():
            self._send_page(404, page)
        else:
            super().send_error(code, message, explain)

    def list_directory(self, path: str | os.PathLike[str]) -> None:
        """A folder without ``index.html`` is missing, as on a host: never a listing."""
        self.send_error(404)

    def _send_page(self, status: int, page: Path) -> None:
        version = self.state.version  # before the page is read: a newer page reloads once more
        self._send_html(status, page.read_text("utf-8"), version)

    def _send_html(self, status: int, html: str, version: int) -> None:
        """A page with the reload script, which knows the version it was served at."""
        script = _RELOAD_SCRIPT.replace("EVENTS_PATH", under(self.state.base_path, EVENTS_PATH))
        script = script.replace("VERSION", str(version))
        html = html.replace("</body>", script + "\n</body>", 1)
        self._send(status, "text/html; charset=utf-8", html.encode("utf-8"))

    def _send_events(self) -> None:
        """Each new state as one event, until the page goes away or serve stops."""
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.close_connection = True
        shown = None
        try:
            self.wfile.write(b"retry: 500\n\n")  # serve restarted: the page listens again soon
            while (state := self.state.after(shown, KEEP_ALIVE)) is not None:
                self.wfile.write(b": idle\n\n" if state == shown else b"data: " + state + b"\n\n")
                self.wfile.flush()
                shown = state
        except OSError:  # the page was closed or reloaded
            return

    def do_HEAD(self) -> None:
        if not self._outside_the_site():
            super().do_HEAD()

    def translate_path(self, path: str) -> str:
        """The file of a URL below the base path: the site's folder holds what lies below it."""
        return super().translate_path("/" + path.removeprefix(self.state.base_path))

    def _outside_the_site(self) -> bool:
        """Answer a request outside the base path, if it is: the root (or the base path without
        its last ``/``) redirects to the site, anything else is missing."""
        base, path = self.state.base_path, urlsplit(self.path).path
        if path.startswith(base):
            return False
        if path in ("/", base.rstrip("/")):
            self.send_response(302)
            self.send_header("Location", base)
            self.send_header("Content-Length", "0")
            self.end_headers()
        else:
            self.send_error(404)
        return True

    def _send(self, status: int, content_type: str, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: a request log would bury the build messages."""
