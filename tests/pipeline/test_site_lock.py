"""One command at a time per site (DESIGN, "the next round"): commands that use the site's
cache or staging folders hold an OS file lock on it; a second one waits and says so once, or
with ``--no-wait`` exits 2 at once; a killed holder leaves no lock behind.

Where a test needs the lock held, a helper process takes it through
:class:`~site_builder.pipeline.site_lock.SiteLock` and holds it until told to let go, so no test
depends on two commands happening to overlap, except the first, which is the bug report itself.
"""

from __future__ import annotations

import contextlib
import os
import select
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from site_builder import cli
from tests.serve.test_serve import SERVING, replace_file, serving, serving_address
from tests.serve.test_serve_equivalence import clean_build, next_build
from tests.support.sites import SITES, searchable, tree

VALID = SITES / "valid_site"
ALL_FEATURES = SITES / "all_features"
EPOCH = "1767225600"  # 2026-01-01: every build of a test publishes under one date
ENV = {**os.environ, "SOURCE_DATE_EPOCH": EPOCH}
DEADLINE = 30.0  # seconds any one expected line or exit may take
PAIRS = 8

HOLD = """\
import sys
from pathlib import Path

from site_builder.pipeline.site_lock import SiteLock

root = Path(sys.argv[1])
with SiteLock.take(root, say=print) as first:
    print("held", flush=True)
    handing_over = sys.stdin.readline() == "hand over\\n"
    if handing_over:  # a new lock file in the place of the held one, which is let go after
        first.path.unlink()
        second = SiteLock.take(root, say=print)
if handing_over:
    with second:
        print("held again", flush=True)
        sys.stdin.readline()
"""
"""Hold the site's lock until a line comes on stdin (or it closes). Given ``hand over``, take
the lock of a new file first and hold that until the next line."""


def waiting(pid: int) -> str:
    return f"waiting for another site-builder command on this site (pid {pid})\n"


def refused(pid: int) -> str:
    return (
        f"site-builder: another site-builder command is running on this site (pid {pid}); "
        "without --no-wait this one would wait for it\n"
    )


@pytest.fixture
def site(tmp_path: Path) -> Path:
    root = tmp_path / "site"
    shutil.copytree(VALID, root)
    return root


def run(root: Path, command: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``site-builder COMMAND --root ROOT ARGS``, to its end."""
    return subprocess.run(
        [sys.executable, "-m", "site_builder", command, "--root", str(root), *args],
        env=ENV,
        capture_output=True,
        text=True,
        timeout=DEADLINE * 2,
        check=False,
    )


@contextmanager
def started(root: Path, command: str, *args: str) -> Iterator[subprocess.Popen[str]]:
    """``site-builder COMMAND --root ROOT ARGS`` in the background; killed if still running."""
    argv = [sys.executable, "-m", "site_builder", command, "--root", str(root), *args]
    with background(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE) as process:
        yield process


@contextmanager
def background(
    argv: list[str], *, stdout: int, stderr: int, cwd: Path | None = None
) -> Iterator[subprocess.Popen[str]]:
    """``argv`` started in ``cwd``; killed if still running at the end of the block."""
    with subprocess.Popen(argv, cwd=cwd, env=ENV, stdout=stdout, stderr=stderr, text=True) as process:
        try:
            yield process
        finally:
            if process.poll() is None:
                process.kill()


def next_line(process: subprocess.Popen[str]) -> str:
    """The next line ``process`` prints on stderr (one printed alone: nothing is read ahead)."""
    assert process.stderr is not None
    ready, _, _ = select.select([process.stderr], [], [], DEADLINE)
    assert ready, f"no line on stderr within {DEADLINE} s"
    return process.stderr.readline()


def ended(process: subprocess.Popen[str]) -> tuple[int, str]:
    """The exit code of ``process``, and the rest of what it printed on stderr."""
    assert process.stderr is not None
    code = process.wait(timeout=DEADLINE * 2)
    return code, process.stderr.read()


@contextmanager
def holding(root: Path) -> Iterator[subprocess.Popen[str]]:
    """A process holding the site's lock (:data:`HOLD`); it lets go when its stdin closes."""
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(root)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert holder.stdin is not None and holder.stdout is not None
    try:
        assert holder.stdout.readline() == "held\n"
        yield holder
    finally:
        if holder.poll() is None:
            holder.kill()
        holder.wait(timeout=10)
        holder.stdin.close()
        holder.stdout.close()


def let_go(holder: subprocess.Popen[str]) -> None:
    assert holder.stdin is not None
    holder.stdin.close()
    assert holder.wait(timeout=DEADLINE) == 0


def waits_on(pid: int, path: Path) -> bool:
    """Whether process ``pid`` has the file now at ``path`` open (a waiter keeps the lock file
    it tries open, and opens the new one when the old is removed)."""
    inode = os.stat(path).st_ino
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        with contextlib.suppress(OSError):
            if os.stat(fd).st_ino == inode:
                return True
    return False


@pytest.mark.slow
def test_two_builds_started_together_both_succeed_and_equal_a_clean_build(tmp_path: Path) -> None:
    """On the site with every feature (bench/concurrent_builds.py runs more pairs)."""
    clean = tmp_path / "clean"
    shutil.copytree(ALL_FEATURES, clean)
    assert run(clean, "build", "--no-cache").returncode == 0
    expected = tree(clean / "build")
    for pair in range(PAIRS):
        root = tmp_path / f"pair-{pair}"
        shutil.copytree(ALL_FEATURES, root)
        both = [
            subprocess.Popen(
                [sys.executable, "-m", "site_builder", "build", "--root", str(root)],
                env=ENV,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for _ in range(2)
        ]
        said = [process.communicate(timeout=DEADLINE * 2) for process in both]
        shown = f"pair {pair}: {said}"
        assert [process.returncode for process in both] == [0, 0], shown
        assert not any("internal error" in out + err or "Traceback" in err for out, err in said), shown
        waited = [n for n, (_, err) in enumerate(said) if "waiting for" in err]
        assert len(waited) <= 1, shown
        for n in waited:  # it names the other build, once, before its summary
            assert said[n][1].startswith(waiting(both[1 - n].pid)), shown
            assert said[n][1].count("waiting for") == 1, shown
        assert tree(root / "build") == expected, f"pair {pair}: build/ is not the clean build's"
        assert not (root / ".site-builder-cache" / "lock").exists(), "the lock file outlived the commands"


@pytest.mark.parametrize(
    "command",
    [["build"], ["validate"], ["revisions"], ["new", "a-new-article"], ["serve", "--port", "0"]],
    ids=lambda command: command[0],
)
def test_no_wait_fails_at_once_naming_the_holder(site: Path, command: list[str]) -> None:
    with holding(site) as holder:
        done = run(site, *command, "--no-wait")
    assert (done.returncode, done.stdout, done.stderr) == (2, "", refused(holder.pid))
    assert not (site / "build").exists()
    assert not (site / "articles" / "a_new_article.py").exists()


def test_commands_that_use_neither_cache_nor_staging_do_not_wait(site: Path) -> None:
    with holding(site):
        # verify takes no --no-wait: were it to wait, it would never end while the lock is held
        for command in (
            ["validate", "--no-cache", "--no-wait"],
            ["revisions", "--no-cache", "--no-wait"],
            ["verify"],
        ):
            done = run(site, *command)
            assert done.returncode == 0, (command, done.stderr)
            assert "waiting for" not in done.stderr


def pytest_in(
    root: Path, *args: str, stderr: int
) -> contextlib.AbstractContextManager[subprocess.Popen[str]]:
    """``python -m pytest -q ARGS articles`` in the site at ``root``, in the background (stdout piped)."""
    argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args, "articles"]
    return background(argv, stdout=subprocess.PIPE, stderr=stderr, cwd=root)


def test_the_pytest_plugin_reads_the_cache_under_the_lock_and_says_it_waits(site: Path) -> None:
    """The plugin reads the cache as ``validate`` does (a built site's batches come from it),
    so it waits, as validate does, for a command that may be writing it; then leaves no lock."""
    with holding(site) as holder, pytest_in(site, "--collect-only", stderr=subprocess.PIPE) as collecting:
        assert next_line(collecting) == f"site-builder: {waiting(holder.pid)}"
        assert collecting.poll() is None, "the collection ended while the lock was held"
        let_go(holder)
        code, rest = ended(collecting)
        assert collecting.stdout is not None
        collected = collecting.stdout.read()
    assert code == 0, rest + collected
    assert "tests collected" in collected, collected
    assert not (site / ".site-builder-cache").exists(), "the plugin left the lock (or its folder) behind"


def children(pid: int) -> list[int]:
    return [int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def test_the_workers_of_one_parallel_pytest_run_wait_for_the_lock_without_a_word(site: Path) -> None:
    """pytest-xdist's workers each collect the site, so they take turns at the lock: "waiting
    for another site-builder command" would name a sibling worker, and is not said."""
    lock = site / ".site-builder-cache" / "lock"
    with holding(site) as holder, pytest_in(site, "-n", "2", stderr=subprocess.STDOUT) as tests:
        deadline = time.monotonic() + DEADLINE
        while not (
            (workers := children(tests.pid)) and len(workers) == 2 and all(waits_on(w, lock) for w in workers)
        ):
            assert tests.poll() is None and time.monotonic() < deadline, (
                "the workers never waited for the lock"
            )
            time.sleep(0.05)
        let_go(holder)
        said, _ = tests.communicate(timeout=DEADLINE * 2)
    assert tests.returncode == 0, said
    assert "waiting for" not in said, said
    assert " passed" in said, said


def test_a_killed_holder_leaves_no_lock_behind(site: Path) -> None:
    with holding(site) as holder:
        holder.kill()
        holder.wait(timeout=DEADLINE)
        assert (site / ".site-builder-cache" / "lock").read_text() == f"{holder.pid}\n"  # left, unlocked
        done = run(site, "build", "--no-wait")
    assert done.returncode == 0, done.stderr
    assert done.stderr.startswith("built "), done.stderr
    assert not (site / ".site-builder-cache" / "lock").exists()


def test_a_command_that_waits_says_so_once_then_runs(site: Path) -> None:
    lock = site / ".site-builder-cache" / "lock"
    with holding(site) as holder, started(site, "build") as build:
        assert next_line(build) == waiting(holder.pid)
        # The holder puts a new lock file in place and holds it before letting go of the first:
        # the build, woken on a removed file, finds the lock taken again and waits once more.
        assert holder.stdin is not None and holder.stdout is not None
        holder.stdin.write("hand over\n")
        holder.stdin.flush()
        assert holder.stdout.readline() == "held again\n"
        deadline = time.monotonic() + DEADLINE
        while not waits_on(build.pid, lock):
            assert time.monotonic() < deadline, "the build did not wait for the new lock file"
            time.sleep(0.05)
        let_go(holder)
        code, rest = ended(build)
    assert code == 0, rest
    assert rest.startswith("built ") and "waiting" not in rest, rest
    assert (site / "build" / "index.html").is_file()


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_stop_while_waiting_ends_the_command_quietly(site: Path, signum: int) -> None:
    with holding(site) as holder, started(site, "build") as build:
        assert next_line(build) == waiting(holder.pid)
        build.send_signal(signum)
        code, rest = ended(build)
    assert (code, rest) == (130, "")  # no traceback, nothing else said
    assert not (site / "build").exists()


STOPPED_IN_ANOTHER_THREAD = """\
import signal, sys, threading, time
from pathlib import Path

from site_builder.pipeline.site_lock import SiteLock
from site_builder.runtime.interrupts import interruptible


def poke():
    time.sleep(0.5)
    signal.pthread_kill(threading.get_ident(), signal.SIGTERM)  # this thread, not the main one


threading.Thread(target=poke, daemon=True).start()
with interruptible():
    try:
        SiteLock.take(Path(sys.argv[1]), say=lambda line: print(line, flush=True))
    except KeyboardInterrupt:
        sys.exit(130)
"""


def test_a_stop_the_kernel_hands_to_another_thread_still_ends_the_wait(site: Path) -> None:
    """A process-wide signal goes to any thread that does not block it; ``serve`` has a
    watcher thread. Python runs the handler in the main thread only: one blocked in ``flock``
    would never run it. Here the signal is sent to the other thread itself."""
    with holding(site) as holder:
        waiter = subprocess.run(
            [sys.executable, "-c", STOPPED_IN_ANOTHER_THREAD, str(site)],
            capture_output=True,
            text=True,
            timeout=DEADLINE,
            check=False,
        )
    assert (waiter.returncode, waiter.stdout) == (130, waiting(holder.pid)), waiter.stderr


@pytest.mark.slow
def test_serve_holds_the_lock_only_while_it_builds(site: Path, tmp_path: Path) -> None:
    """serve waits for the lock to build; between its builds other commands run at once, and
    what they write to the cache leaves serve's next rebuild the clean build's bytes."""
    with holding(site) as holder, serving(site, "--port", "0", env=ENV) as server:
        assert server.next_line(time.monotonic() + DEADLINE) == waiting(holder.pid)
        let_go(holder)
        serving_address(server, SERVING)
        for out in ([], ["--out", str(tmp_path / "elsewhere")]):  # a third folder: spares are dropped
            done = run(site, "build", "--no-wait", *out)
            assert done.returncode == 0, done.stderr
        article = (site / "articles" / "retry_en.py").read_text("utf-8")
        replace_file(site, "articles/retry_en.py", article.replace("multiply load", "multiply the load"))
        next_build(server, "an edit")
        served = tree(site / ".site-builder-cache" / "serve" / "site")
    clean = clean_build(site, tmp_path / "clean", ENV)
    assert searchable(served) == searchable(clean), (
        "serve's rebuild after other builds is not the clean build's"
    )
    assert "multiply the load" in clean["articles/retry-budget/index.html"].decode()


def test_serve_stopped_while_it_waits_ends_cleanly(site: Path) -> None:
    with holding(site) as holder, serving(site, "--port", "0", env=ENV) as server:
        assert server.next_line(time.monotonic() + DEADLINE) == waiting(holder.pid)
        server.process.send_signal(signal.SIGTERM)
        code = server.process.wait(timeout=DEADLINE)
        rest = server.rest(time.monotonic() + DEADLINE)
    assert (code, rest) == (0, waiting(holder.pid))  # as a stop at any other moment: exit 0, no traceback


def test_a_command_run_outside_the_main_thread_still_locks_and_runs(site: Path) -> None:
    """``cli.main`` called from another thread (a program embedding the tool), where no signal
    handler can be installed: the command takes the lock and runs all the same."""
    codes: list[int] = []
    thread = threading.Thread(target=lambda: codes.append(cli.main(["build", "--root", str(site)])))
    thread.start()
    thread.join(DEADLINE * 2)
    assert codes == [0]
    assert (site / "build" / "index.html").is_file()
    assert not (site / ".site-builder-cache" / "lock").exists()
