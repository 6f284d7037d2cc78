"""``site-builder serve`` as a user runs it: a real process, real HTTP, real file edits."""

from __future__ import annotations

import contextlib
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
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import pytest

from tests.support.sites import HEADER, SETTINGS, MakeSite

T = TypeVar("T")

STATE = "/__site_builder__/state"
EVENTS = "/__site_builder__/events"
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
def serving(
    root: Path,
    *extra: str,
    env: dict[str, str] | None = None,
    program: Sequence[str] = (sys.executable, "-m", "site_builder"),
    cwd: Path | None = None,
) -> Iterator[Server]:
    """Start ``serve --root ROOT`` (``program``: how the command is called, in ``cwd``);
    always stop it (SIGKILL if still running) and close its pipe."""
    process = subprocess.Popen(
        [*program, "serve", "--root", str(root), *extra],
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
        env=env,
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


@contextmanager
def listening(base: str) -> Iterator[queue.Queue[dict[str, Any]]]:
    """The states ``serve`` pushes over its event stream, as an open page hears them."""
    parts = urllib.parse.urlsplit(base)
    connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=DEADLINE)
    connection.request("GET", EVENTS)
    response = connection.getresponse()
    assert response.status == 200 and response.getheader("Content-Type") == "text/event-stream"
    heard: queue.Queue[dict[str, Any]] = queue.Queue()

    def read() -> None:
        with contextlib.suppress(OSError, ValueError):
            for line in response:
                if line.startswith(b"data: "):
                    heard.put(json.loads(line[len(b"data: ") :]))

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        yield heard
    finally:
        connection.close()


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
            assert EVENTS in html and "<script>" in html, f"no reload script in /{path}"
            assert "var seen = 1," in html, "the page is not told the version it was served at"
            assert html.rstrip().endswith("</html>")
        status, html = get(base + ARTICLE_URL)
        assert "Original words about caching." in html
        assert state(base) == {"version": 1, "problems": [], "search_pending": False}

        # An edit rebuilds: version 2, pushed to a listening page, and the page shows the new text
        # (first from the preview, while the search index is made, unless both came at once).
        with listening(base) as pushed:
            assert pushed.get(timeout=DEADLINE) == {"version": 1, "problems": [], "search_pending": False}
            replace_file(root, ARTICLE, live_batch("Edited words about invalidation, longer now."))
            heard = pushed.get(timeout=DEADLINE)
            if heard == {"version": 2, "problems": [], "search_pending": True}:
                heard = pushed.get(timeout=DEADLINE)
            assert heard == {"version": 2, "problems": [], "search_pending": False}, server.output()
        assert state(base) == {"version": 2, "problems": [], "search_pending": False}
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
        fixed = wait_for("the index", lambda: state_when(base, lambda s: not s["search_pending"]), server)
        assert fixed == {"version": 3, "problems": [], "search_pending": False}
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


def test_an_input_serve_cannot_read_is_shown_as_a_problem_and_serving_goes_on(make_site: MakeSite) -> None:
    """A batch module that became a symbolic link to nothing (its target moved): the rebuild
    names it as the page's problem, the last good site stays served, and the fix rebuilds."""
    root = make_site({ARTICLE: live_batch("Words served before the link broke."), OTHER: OTHER_BATCH})
    with serving(root, "--port", "0") as server:
        base = serving_address(server, SERVING).group(1)
        (root / "articles/moved_2024_03.py").symlink_to(root / "nowhere.py")

        broken = wait_for("a problem", lambda: state_when(base, lambda s: bool(s["problems"])), server)
        assert broken["problems"] == [
            f"articles/moved_2024_03.py: cannot be read (a symbolic link to {root / 'nowhere.py'}): "
            "No such file or directory"
        ]
        status, html = get(base + ARTICLE_URL)
        assert status == 200 and "Words served before the link broke." in html

        (root / "articles/moved_2024_03.py").unlink()
        wait_for("the fix", lambda: state_when(base, lambda s: not s["problems"]), server)
        assert server.process.poll() is None, server.output()
        assert "Traceback" not in server.output()


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
        assert 'href="/sub/theme/style.css"' in html and f"/sub{EVENTS}" in html

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


# --- the site's own 404 page ----------------------------------------------------------------------

RELOAD = re.compile(r"<script>\n\(function \(\) \{\n  var seen = \d+.*?</script>\n", re.S)


def built_404(root: Path, tmp_path: Path) -> str:
    """The site's 404.html as ``build`` writes it."""
    out = tmp_path / "built"
    done = subprocess.run(
        [sys.executable, "-m", "site_builder", "build", "--root", str(root), "--out", str(out), "--no-cache"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return (out / "404.html").read_text("utf-8")


def head_status(port: int, path: str) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        connection.request("HEAD", path)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


@pytest.mark.parametrize("base_path", ["/", "/sub/"], ids=["root", "sub-path"])
def test_serve_answers_a_missing_path_with_the_sites_404_page(
    make_site: MakeSite, tmp_path: Path, base_path: str
) -> None:
    settings = SETTINGS.replace('"https://example.org/"', f'"https://example.org{base_path}"')
    root = make_site({ARTICLE: live_batch("Words of the one article."), OTHER: OTHER_BATCH}, settings)
    expected = built_404(root, tmp_path)
    assert f'href="{base_path}"' in expected  # its links are below the base path, as built
    with serving(root, "--port", "0") as server:
        match = serving_address(server, re.compile(r"serving on (http://127\.0\.0\.1:(\d+)(/\S*)) \(Ctrl-C"))
        base, port = match.group(1), int(match.group(2))
        missing = ["articles/no-such-article/", "no-such-file.css", "theme/", "articles/"]
        outside = ["/no-such-page/", "/articles/live-article/"] if base_path != "/" else []
        for url in [base + path for path in missing] + [f"http://127.0.0.1:{port}{p}" for p in outside]:
            status, body = get(url)
            assert status == 404, url
            assert EVENTS in body, f"{url}: no reload script"  # it reloads once the page exists
            assert RELOAD.sub("", body) == expected, url
        assert head_status(port, f"{base_path}no-such-page/") == (404, b"")
        status, html = get(base + ARTICLE_URL)
        assert status == 200 and "Words of the one article." in html


# --- --host -------------------------------------------------------------------------------------------


def test_serve_host_every_address_says_so_and_answers_locally(make_site: MakeSite) -> None:
    root = make_site({ARTICLE: live_batch("Words for a phone on the same network."), OTHER: OTHER_BATCH})
    with serving(root, "--port", "0", "--host", "0.0.0.0") as server:
        match = serving_address(server, re.compile(r"serving on http://0\.0\.0\.0:(\d+)/ \(Ctrl-C to stop\)"))
        port = match.group(1)
        line = server.next_line(time.monotonic() + DEADLINE)
        assert line is not None
        assert re.fullmatch(
            rf"0\.0\.0\.0 listens on every network address of this machine: open http://127\.0\.0\.1:{port}/ "
            rf"here, or (http://[\d.]+:{port}/|this machine's address, port {port},) from another device "
            r"on the network \(anyone who can reach this machine can see the site\)\n",
            line,
        ), line
        status, html = get(f"http://127.0.0.1:{port}/{ARTICLE_URL}")
        assert status == 200 and "Words for a phone on the same network." in html


def ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as probe:
            probe.bind(("::1", 0))
    except OSError:
        return False
    return True


@pytest.mark.skipif(not ipv6_loopback(), reason="this machine has no IPv6 loopback")
def test_serve_host_ipv6_binds_it_and_prints_its_url(make_site: MakeSite) -> None:
    root = make_site({ARTICLE: live_batch("Words served over the IPv6 loopback."), OTHER: OTHER_BATCH})
    with serving(root, "--port", "0", "--host", "::1") as server:
        match = serving_address(server, re.compile(r"serving on (http://\[::1\]:(\d+)/) \(Ctrl-C to stop\)"))
        status, html = get(match.group(1) + ARTICLE_URL)
        assert status == 200 and "Words served over the IPv6 loopback." in html
        with pytest.raises(OSError):  # this address only
            socket.create_connection(("127.0.0.1", int(match.group(2))), timeout=2).close()


def test_serve_on_a_host_it_cannot_bind_is_a_usage_error_before_any_build(make_site: MakeSite) -> None:
    root = make_site({ARTICLE: live_batch("Some words for a page."), OTHER: OTHER_BATCH})
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "site_builder",
            "serve",
            "--root",
            str(root),
            "--port",
            "0",
            "--host",
            "198.51.100.1",
        ],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert (
        done.stderr == "site-builder: cannot serve on 198.51.100.1 port 0: Cannot assign requested address\n"
    )


# --- stopping at any moment -------------------------------------------------------------------------

SLOW_IMPORT = """\
import time
from pathlib import Path

Path({marker!r}).write_text("importing", "utf-8")
time.sleep(2)
revisions = []
"""


@contextmanager
def serve_process(root: Path, tmp_path: Path) -> Iterator[subprocess.Popen[str]]:
    """``serve`` in a session of its own (a terminal's Ctrl-C reaches its whole group), with a
    temporary folder of its own to find what it leaves behind."""
    temp = tmp_path / "serve-tmp"
    temp.mkdir()
    process = subprocess.Popen(
        [sys.executable, "-m", "site_builder", "serve", "--root", str(root), "--port", "0"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
        env={**os.environ, "TMPDIR": str(temp)},
        start_new_session=True,
    )
    try:
        yield process
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)
        assert process.stderr is not None
        process.stderr.close()


def wait_until(what: str, condition: Callable[[], bool], process: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + DEADLINE
    while not condition():
        assert process.poll() is None, f"serve exited ({process.returncode}) before {what}"
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)


def stopped(process: subprocess.Popen[str], tmp_path: Path) -> tuple[int, str]:
    """The exit code and stderr once ``serve`` stopped; it must stop within 15 s and leave nothing."""
    try:
        _, err = process.communicate(timeout=15)
    except subprocess.TimeoutExpired:
        raise AssertionError("serve did not stop within 15 s of the signal") from None
    assert "Traceback" not in err, err
    assert "KeyboardInterrupt" not in err, err
    assert sorted(p.name for p in (tmp_path / "serve-tmp").iterdir()) == [], "left behind in TMPDIR"
    return process.returncode, err


@pytest.mark.parametrize("delay", [0.0, 0.2, 0.5, 1.0])
def test_sigterm_early_stops_serve_cleanly(make_site: MakeSite, tmp_path: Path, delay: float) -> None:
    """At start-up, reading the site, or in its first build: a clean stop whenever SIGTERM comes
    (exit 0 once serve has started; before, the default action ends Python without a word)."""
    root = make_site(
        {ARTICLE: live_batch("Enough words to pass the tiny limit of this test site."), OTHER: OTHER_BATCH}
    )
    with serve_process(root, tmp_path) as process:
        time.sleep(delay)
        process.send_signal(signal.SIGTERM)
        code, err = stopped(process, tmp_path)
        assert code in (0, -signal.SIGTERM), err


@pytest.mark.parametrize(
    ("how", "group"), [("sigterm", False), ("ctrl-c", True)], ids=["sigterm", "ctrl-c-to-the-group"]
)
def test_a_signal_during_the_first_build_stops_serve_cleanly(
    make_site: MakeSite, tmp_path: Path, how: str, group: bool
) -> None:
    marker = tmp_path / "importing"
    slow = SLOW_IMPORT.format(marker=str(marker))
    root = make_site(
        {
            ARTICLE: live_batch("Enough words to pass the tiny limit of this test site."),
            OTHER: OTHER_BATCH,
            "articles/slow.py": slow,
        }
    )
    with serve_process(root, tmp_path) as process:
        wait_until("the first build to import the slow batch", marker.exists, process)
        if group:  # what a terminal does on Ctrl-C: SIGINT to every process of the foreground group
            os.killpg(process.pid, signal.SIGINT)
        else:
            process.send_signal(signal.SIGTERM)
        code, err = stopped(process, tmp_path)
        assert code == 0, err
        assert "serving on" not in err and "built" not in err, err


def lines_until_serving(process: subprocess.Popen[str]) -> list[str]:
    """What serve printed up to its ``serving on`` line."""
    assert process.stderr is not None
    lines: list[str] = []
    while not any("serving on" in line for line in lines):
        line = process.stderr.readline()
        assert line, f"serve ended before serving: {''.join(lines)}"
        lines.append(line)
    return lines


def test_sigterm_while_serving_stops_serve_cleanly(make_site: MakeSite, tmp_path: Path) -> None:
    root = make_site(
        {ARTICLE: live_batch("Enough words to pass the tiny limit of this test site."), OTHER: OTHER_BATCH}
    )
    with serve_process(root, tmp_path) as process:
        lines = lines_until_serving(process)
        process.send_signal(signal.SIGTERM)
        code, err = stopped(process, tmp_path)
        assert code == 0, "".join(lines) + err
        assert err == ""


SLOW_BATCH = (
    HEADER
    + """
import time

time.sleep(1.0)  # a slow import: the rebuild that re-imports it is under way for a second

SRC = [Source(title="One", url="https://example.org/one", note="the first"),
       Source(title="Two", url="https://example.org/two", note="the second")]

revisions = [revision(slug="slow-article", title="Slow", categories=["Misc"], excerpt="Slow.",
                      published="2024-03-01", body=[paragraph({text!r})], sources=SRC)]
"""
)


def session_processes(session: int) -> list[int]:
    """The processes still alive in ``session`` (serve runs as a session leader: its workers,
    fixture runs and Pagefind are in its session unless one escaped it)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue
        if int(fields[3]) == session and fields[0] != "Z":  # fields: state, ppid, pgrp, session, ...
            found.append(int(entry.name))
    return found


def commands(pids: list[int]) -> list[str]:
    """The command lines of these processes (for a failure message)."""
    found = []
    for pid in pids:
        with contextlib.suppress(OSError):
            found.append(Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode())
    return found


@pytest.mark.slow
@pytest.mark.parametrize("delay", [0.0, 0.05, 0.15, 0.3, 0.5, 0.8, 1.1, 1.4, 1.8])
def test_sigterm_at_any_moment_of_a_rebuild_stops_serve_within_2_s(
    make_site: MakeSite, tmp_path: Path, delay: float
) -> None:
    """An edit, then SIGTERM ``delay`` seconds later: before the change is seen, while the
    edited batch is re-imported, rendered, indexed or swapped in. serve ends within 2 s, with
    exit 0, nothing left in TMPDIR and no process of its session alive."""
    root = make_site(
        {
            ARTICLE: live_batch("Enough words to pass the tiny limit of this test site."),
            "articles/slow_2024_03.py": SLOW_BATCH.format(text="The first words of the slow batch."),
        }
    )
    with serve_process(root, tmp_path) as process:
        lines = lines_until_serving(process)
        replace_file(root, "articles/slow_2024_03.py", SLOW_BATCH.format(text="Edited words, slow again."))
        time.sleep(delay)
        process.send_signal(signal.SIGTERM)
        signalled = time.monotonic()
        try:
            process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            raise AssertionError(
                f"serve did not stop within 2 s of SIGTERM ({delay} s after an edit)"
            ) from None
        code, err = stopped(process, tmp_path)
        assert code == 0, "".join(lines) + err
        # What serve started goes with it: its workers' server sees serve's end and ends too.
        while (left := session_processes(process.pid)) and time.monotonic() < signalled + 2:
            time.sleep(0.02)
        assert left == [], f"processes of serve's session alive 2 s after SIGTERM: {commands(left)}"


def test_serve_keeps_its_site_in_the_cache_and_a_second_serve_builds_elsewhere(
    make_site: MakeSite, tmp_path: Path
) -> None:
    """A stop deletes nothing, and the next serve starts from the kept site, rewriting no page
    that did not change; a serve started while one runs builds into a temporary folder."""
    root = make_site({ARTICLE: live_batch("Words kept between two serve sessions."), OTHER: OTHER_BATCH})
    page = root / ".site-builder-cache" / "serve" / "site" / ARTICLE_URL / "index.html"
    with serve_process(root, tmp_path) as process:
        lines_until_serving(process)
        kept = page.stat()
        process.send_signal(signal.SIGTERM)
        assert stopped(process, tmp_path)[0] == 0
    assert page.stat().st_ino == kept.st_ino, "the stop removed the served site"
    with serving(root, "--port", "0") as first:
        base = serving_address(first, SERVING).group(1)
        assert page.stat().st_ino == kept.st_ino and page.stat().st_mtime_ns == kept.st_mtime_ns
        with serving(root, "--port", "0") as second:
            other = serving_address(second, SERVING).group(1)
            assert other != base
            for url in (base, other):
                status, html = get(url + ARTICLE_URL)
                assert status == 200 and "Words kept between two serve sessions." in html
        assert page.stat().st_ino == kept.st_ino, "the second serve built into the first one's folder"
