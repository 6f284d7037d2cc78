"""``site-builder serve``: build, serve on 127.0.0.1 (or ``--host``), rebuild and reload on change.

The site is built into a temporary folder (the real output is left alone, as
``mkdocs serve`` does) with the same atomic pipeline as ``build``. Served HTML
gets a small script that asks ``__site_builder__/state`` once a second: a new
version reloads the page; a failed rebuild shows its problems over the last
good page, which keeps being served. A site whose ``base_url`` has a path is
served below that path, as it will be deployed (the state too); ``/`` redirects
there. A path the site does not have is answered, as a host answers it, with the
site's own ``404.html`` and status 404 (never a folder listing).
"""

from __future__ import annotations

import json
import os
import tempfile
import threading
from collections.abc import Callable
from functools import partial
from http.server import SimpleHTTPRequestHandler
from pathlib import Path
from urllib.parse import urlsplit

import watchfiles

from site_builder.addresses import LOCAL_HOST, bound_server, listening
from site_builder.build.pipeline import build
from site_builder.build.plan import plan_build
from site_builder.check.schedule import Schedule
from site_builder.check.site_layout import under
from site_builder.errors import SiteBuilderError
from site_builder.language.english import count
from site_builder.settings import Project
from site_builder.settings_file import PYPROJECT

STATE_PATH = "/__site_builder__/state"
"""Where open pages ask for the state, below the site's base path like the site itself."""
_RELOAD_SCRIPT = """<script>
(function () {
  var seen = null, box = null;
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
  function poll() {
    fetch("STATE_PATH", {cache: "no-store"}).then(function (r) { return r.json(); }).then(function (s) {
      if (seen !== null && s.version !== seen) { location.reload(); return; }
      seen = s.version; show(s.problems);
    }).catch(function () {}).finally(function () { setTimeout(poll, 1000); });
  }
  poll();
})();
</script>"""


class State:
    """What the server tells open pages: the build version and the last problems."""

    def __init__(self, base_path: str) -> None:
        self._lock = threading.Lock()
        self.version = 0
        self.problems: list[str] = []
        self.base_path = base_path
        """The URL path the served site lies below: that of its last good build."""

    def update(self, problems: list[str], base_path: str) -> None:
        """Record a rebuild: a good one bumps the version (and may move the site to another
        base path), a bad one records only the problems."""
        with self._lock:
            if not problems:
                self.version += 1
                self.base_path = base_path
            self.problems = problems

    def as_json(self) -> bytes:
        """The state as pages read it."""
        with self._lock:
            return json.dumps({"version": self.version, "problems": self.problems}).encode()


class _Handler(SimpleHTTPRequestHandler):
    state: State

    def __init__(self, *args: object, state: State, directory: str) -> None:
        self.state = state
        super().__init__(*args, directory=directory)  # type: ignore[arg-type]

    def do_GET(self) -> None:
        if self._outside_the_site():
            return
        if self.path.split("?")[0] == under(self.state.base_path, STATE_PATH):
            self._send(200, "application/json", self.state.as_json())
            return
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        if path.suffix == ".html" and path.is_file():
            self._send_page(200, path)
            return
        super().do_GET()

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
        script = _RELOAD_SCRIPT.replace("STATE_PATH", under(self.state.base_path, STATE_PATH))
        html = page.read_text("utf-8").replace("</body>", script + "\n</body>", 1)
        self._send(status, "text/html; charset=utf-8", html.encode("utf-8"))

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


def serve(
    project: Project,
    port: int,
    say: Callable[[str], None],
    stop: threading.Event | None = None,
    host: str = LOCAL_HOST,
    *,
    include: Schedule | None = None,
) -> None:
    """Build, serve on ``host``:``port`` and rebuild on change until ``stop`` is set (or
    KeyboardInterrupt, which leaves here once the server and the temporary site are gone);
    ``include``: its flags (``--drafts``, ``--future``) are kept, its date is taken again at
    each rebuild."""
    root = project.root
    with tempfile.TemporaryDirectory(prefix="site-builder-serve-") as folder:
        out = Path(folder) / "site"
        state = State(project.settings.base_path)
        handler = partial(_Handler, state=state, directory=str(out))
        # Bound before the first build: a wrong host or a port in use is said at once.
        with bound_server(host, port, handler) as server:
            _rebuild(project, out, state, say, include)
            if stop is not None and stop.is_set():
                return
            if not out.is_dir():
                raise SiteBuilderError("the site does not build; fix the problems above and run serve again")
            threading.Thread(target=server.serve_forever, daemon=True).start()
            try:
                say(listening(host, server.server_address[1], state.base_path))
                watched = partial(_watched, root, _sources(project))
                for _changes in watchfiles.watch(root, watch_filter=watched, stop_event=stop):
                    if stop is not None and stop.is_set():
                        break
                    _rebuild(Project.read(root), out, state, say, include)  # the settings may have changed
            finally:
                server.shutdown()


def _rebuild(
    project: Project, out: Path, state: State, say: Callable[[str], None], include: Schedule | None
) -> None:
    flags = include or Schedule("")
    schedule = Schedule.now(drafts=flags.drafts, future=flags.future)
    built = build(plan_build(project, out, schedule=schedule))
    problems = [str(p) for p in built.problems]
    state.update(problems, project.settings.base_path)
    left_out = built.omitted.message()
    done = f"built {count(built.pages, 'page')}" + (f"; {left_out}" if left_out else "")
    say("\n".join(problems) if problems else "".join(f"{w}\n" for w in built.warnings) + done)


def _sources(project: Project) -> tuple[Path, ...]:
    """What a change to triggers a rebuild: articles, assets, templates, settings."""
    settings = project.settings
    names = (settings.articles_dir, settings.assets_dir, "templates", PYPROJECT)
    return tuple(project.root / name for name in names)


def _watched(root: Path, sources: tuple[Path, ...], _change: watchfiles.Change, path: str) -> bool:
    changed = Path(path)
    if "__pycache__" in changed.parts:
        return False
    return any(changed == source or changed.is_relative_to(source) for source in sources)
