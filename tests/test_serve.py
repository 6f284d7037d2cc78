"""``site-builder serve`` as a user runs it: a real process, real HTTP, real file edits."""

from __future__ import annotations

import http.client
import json
import os
import queue
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from conftest import HEADER, SETTINGS, MakeSite

T = TypeVar("T")

STATE = "/__site_builder__/state"
DEADLINE = 15.0  # seconds any one expected change may take to show
POLL = 0.15
SERVING = re.compile(r"serving on (http://127\.0\.0\.1:(\d+)/) \(Ctrl-C to stop\)")

ARTICLE = "articles/live_2024_01.py"
ARTICLE_URL = "articles/live-article/"
OTHER = "articles/other_2024_02.py"

OTHER_BATCH = (
    HEADER
    + """
SRC = [Source(title="One", url="https://example.org/one", note="the first"),
       Source(title="Two", url="https://example.org/two", note="the second")]

revisions = [revision(slug="other-article", title="Other", categories=["Misc"], excerpt="Other.",
                      published="2024-02-01", body=[paragraph("A second batch that always builds.")],
                      sources=SRC)]
"""
)


def live_batch(text: str) -> str:
    """The article batch whose paragraph the tests rewrite."""
    return (
        HEADER
        + f"""
SRC = [Source(title="One", url="https://example.org/one", note="the first"),
       Source(title="Two", url="https://example.org/two", note="the second")]

revisions = [revision(slug="live-article", title="Live", categories=["Misc"], excerpt="Live.",
                      published="2024-01-01", body=[paragraph({text!r})], sources=SRC)]
"""
    )


@dataclass
class Server:
    """A running ``serve`` process and the stderr lines it printed so far."""

    process: subprocess.Popen[str]
    lines: queue.Queue[str | None]
    seen: list[str] = field(default_factory=list)

    def next_line(self, deadline: float) -> str | None:
        """The next stderr line, or None at end of output or when the deadline passes."""
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return None
        try:
            line = self.lines.get(timeout=remaining)
        except queue.Empty:
            return None
        if line is not None:
            self.seen.append(line)
        return line

    def rest(self, deadline: float) -> str:
        """Everything printed, once the process closed stderr (or the deadline passed)."""
        while self.next_line(deadline) is not None:
            pass
        return "".join(self.seen)

    def output(self) -> str:
        """Everything read from stderr so far (drains what is queued without waiting)."""
        while True:
            try:
                line = self.lines.get_nowait()
            except queue.Empty:
                break
            if line is None:
                break
            self.seen.append(line)
        return "".join(self.seen)


def _pump(stream: Any, lines: queue.Queue[str | None]) -> None:
    for line in iter(stream.readline, ""):
        lines.put(line)
    lines.put(None)


@contextmanager
def serving(root: Path, *extra: str) -> Iterator[Server]:
    """Start ``serve --root ROOT``; always stop it (SIGKILL if still running) and close its pipe."""
    process = subprocess.Popen(
        [sys.executable, "-m", "site_builder", "serve", "--root", str(root), *extra],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
    )
    lines: queue.Queue[str | None] = queue.Queue()
    reader = threading.Thread(target=_pump, args=(process.stderr, lines), daemon=True)
    reader.start()
    try:
        yield Server(process, lines)
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=10)
        reader.join(timeout=10)
        assert process.stderr is not None
        process.stderr.close()


def wait_for(what: str, probe: Callable[[], T | None], server: Server) -> T:
    """Call ``probe`` until it returns a value (not None); fail after DEADLINE seconds."""
    deadline = time.monotonic() + DEADLINE
    last: T | None = None
    while time.monotonic() < deadline:
        assert server.process.poll() is None, f"serve exited early ({server.process.returncode}) " + (
            server.output()
        )
        last = probe()
        if last is not None:
            return last
        time.sleep(POLL)
    raise AssertionError(f"timed out after {DEADLINE} s waiting for {what}; serve said:\n{server.output()}")


def get(url: str) -> tuple[int, str]:
    """GET ``url``: status and body text (an HTTP error status is returned, not raised)."""
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, response.read().decode("utf-8")
    except urllib.error.HTTPError as exc:
        with exc:
            return exc.code, exc.read().decode("utf-8", "replace")


def state(base: str) -> dict[str, Any]:
    status, body = get(base + STATE.lstrip("/"))
    assert status == 200, body
    data = json.loads(body)
    assert isinstance(data, dict)
    return data


def state_when(base: str, condition: Callable[[dict[str, Any]], bool]) -> dict[str, Any] | None:
    """The state if it meets ``condition``, else None (for :func:`wait_for`)."""
    current = state(base)
    return current if condition(current) else None


def replace_file(root: Path, relative: str, text: str) -> None:
    """Write a file in one step, the way editors save: a temp file renamed over it."""
    temp = root / ".editor-save.tmp"  # at the root, outside what serve watches
    temp.write_text(text, "utf-8")
    os.replace(temp, root / relative)


def test_serve_builds_reloads_keeps_last_good_site_and_stops_on_ctrl_c(make_site: MakeSite) -> None:
    root = make_site({ARTICLE: live_batch("Original words about caching."), OTHER: OTHER_BATCH})
    with serving(root, "--port", "0") as server:
        deadline = time.monotonic() + DEADLINE
        base = None
        while base is None:
            line = server.next_line(deadline)
            assert line is not None, f"no 'serving on' line within {DEADLINE} s:\n{server.output()}"
            if match := SERVING.search(line):
                base = match.group(1)
                assert int(match.group(2)) > 0

        # First build: both pages served with the reload script, state version 1, no problems.
        for path in ("", ARTICLE_URL):
            status, html = get(base + path)
            assert status == 200
            assert STATE in html and "<script>" in html, f"no reload script in /{path}"
            assert html.rstrip().endswith("</html>")
        status, html = get(base + ARTICLE_URL)
        assert "Original words about caching." in html
        assert state(base) == {"version": 1, "problems": []}

        # An edit rebuilds: version 2, and the page shows the new text.
        replace_file(root, ARTICLE, live_batch("Edited words about invalidation, longer now."))
        wait_for("version 2", lambda: state_when(base, lambda s: s["version"] == 2), server)
        assert state(base) == {"version": 2, "problems": []}
        status, html = get(base + ARTICLE_URL)
        assert status == 200
        assert "Edited words about invalidation, longer now." in html
        assert "Original words" not in html

        # A syntax error: one problem naming file and line; the last good page is still served.
        broken = live_batch("Edited words about invalidation, longer now.").splitlines()
        bad_line = len(broken) + 1
        broken.append("def broken(:")
        replace_file(root, ARTICLE, "\n".join(broken) + "\n")
        current = wait_for("a problem", lambda: state_when(base, lambda s: bool(s["problems"])), server)
        assert current["version"] == 2, current
        assert len(current["problems"]) == 1, current
        assert current["problems"][0].startswith(f"{ARTICLE}:{bad_line}:"), current
        assert "Traceback" not in current["problems"][0]
        status, html = get(base + ARTICLE_URL)
        assert status == 200
        assert "Edited words about invalidation, longer now." in html
        status, html = get(base + "articles/other-article/")
        assert status == 200 and "A second batch that always builds." in html

        # The fix: problems gone, version bumped, new text served.
        replace_file(root, ARTICLE, live_batch("Fixed words, the third version of the text."))
        fixed = wait_for("the fix", lambda: state_when(base, lambda s: s["version"] == 3), server)
        assert fixed == {"version": 3, "problems": []}
        status, html = get(base + ARTICLE_URL)
        assert status == 200
        assert "Fixed words, the third version of the text." in html
        assert "Edited words" not in html

        # Ctrl-C: a clean exit 0 within a few seconds, no traceback.
        server.process.send_signal(signal.SIGINT)
        try:
            code = server.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"serve did not stop within 10 s of SIGINT:\n{server.output()}") from None
        output = server.rest(time.monotonic() + 5)
        assert code == 0, output
        assert "Traceback" not in output, output
        assert "KeyboardInterrupt" not in output, output


def serving_address(server: Server, pattern: re.Pattern[str]) -> re.Match[str]:
    """The ``serving on`` line's match, once serve printed it."""
    deadline = time.monotonic() + DEADLINE
    while True:
        line = server.next_line(deadline)
        assert line is not None, f"no 'serving on' line within {DEADLINE} s:\n{server.output()}"
        if match := pattern.search(line):
            return match


def answer(port: int, path: str) -> tuple[int, str | None]:
    """The status and ``Location`` of a GET, redirects not followed."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        return response.status, response.getheader("Location")
    finally:
        connection.close()


SUB_ANSWERS = [
    ("root-redirects", "/", 302, "/sub/"),
    ("path-without-slash-redirects", "/sub", 302, "/sub/"),
    ("index", "/sub/", 200, None),
    ("article", f"/sub/{ARTICLE_URL}", 200, None),
    ("theme", "/sub/theme/style.css", 200, None),
    ("article-outside-the-path", f"/{ARTICLE_URL}", 404, None),
    ("theme-outside-the-path", "/theme/style.css", 404, None),
]  # fmt: skip


def test_serve_serves_a_sub_path_site_below_its_path(make_site: MakeSite) -> None:
    settings = SETTINGS.replace('base_url = "https://example.org/"', 'base_url = "https://example.org/sub/"')
    assert settings != SETTINGS
    root = make_site({ARTICLE: live_batch("Words written below a sub-path."), OTHER: OTHER_BATCH}, settings)
    with serving(root, "--port", "0") as server:
        pattern = re.compile(r"serving on (http://127\.0\.0\.1:(\d+)/sub/) \(Ctrl-C to stop\)")
        match = serving_address(server, pattern)
        base, port = match.group(1), int(match.group(2))

        answers = [(path, *answer(port, path)) for _id, path, _status, _location in SUB_ANSWERS]
        expected = [(path, status, location) for _id, path, status, location in SUB_ANSWERS]
        assert answers == expected

        status, html = get(base + ARTICLE_URL)
        assert status == 200 and "Words written below a sub-path." in html
        assert 'href="/sub/theme/style.css"' in html and STATE in html

        # Live reload still works: an edit rebuilds and the page below the path shows it.
        replace_file(root, ARTICLE, live_batch("Edited words written below a sub-path."))
        wait_for("version 2", lambda: state_when(base, lambda s: s["version"] == 2), server)
        status, html = get(base + ARTICLE_URL)
        assert status == 200 and "Edited words written below a sub-path." in html


def test_serve_on_a_port_in_use_is_a_usage_error(make_site: MakeSite) -> None:
    root = make_site({ARTICLE: live_batch("Some words for a page."), OTHER: OTHER_BATCH})
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "site_builder", "serve", "--root", str(root), "--port", str(port)],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            encoding="utf-8",
            timeout=60,
            check=False,
        )
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    assert str(port) in done.stderr, done.stderr
    assert "serving on" not in done.stderr, done.stderr
    assert "site-builder:" in done.stderr, done.stderr
