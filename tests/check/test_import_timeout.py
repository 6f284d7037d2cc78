"""A batch whose import does not finish is a problem at its file, in every command that
imports batches: reported within ``import_timeout`` + 5 s, its worker killed, nothing left
running, and the other batches' problems reported as well."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from tests.serve.test_serve import OTHER_BATCH, SERVING, get, replace_file, serving, state_when, wait_for
from tests.support.sites import HEADER, SETTINGS, MakeSite, RunCli

TIMEOUT = 2
BOUND = TIMEOUT + 5
"""Seconds a command may take in all (the issue's acceptance: within import_timeout + 5 s)."""

SETTINGS_2S = SETTINGS + f"import_timeout = {TIMEOUT}\n"

GOOD = (
    HEADER
    + """
@fixture
def counts() -> dict:
    return {"effects": 2, "checks": {"oneEffect": False}}

post = revision(
    slug="one-source", title="One source", categories=["Notes"], excerpt="Fine.", published="2024-01-02",
    body=[paragraph("Enough words to pass the tiny limit of this site."),
          verified_output(counts, expected={"effects": 2})],
    sources=[Source(title="A", url="https://a.example/", note="a")],
)
revisions = [post]
"""
)
"""A batch that imports, with problems of its own: one source too few, and a fixture that fails."""

LOOPS = """\
import os
import time
from pathlib import Path

Path(__file__).parent.parent.joinpath("loop.pid").write_text(str(os.getpid()))
while True:
    time.sleep(1)
"""
"""A batch whose import never ends; it leaves the id of the process importing it beside the site."""

LOOP_PROBLEM = f"articles/zz.py:1: batch zz: importing it did not finish in {TIMEOUT} s"
ONE_SOURCE = "articles/a_good.py:13: one-source: cites 1 source; at least 2 are required"
FIXTURE = (
    "articles/a_good.py:6: fixture a_good:counts: checks failed: oneEffect = false (each check must be true)"
)

MARK = "SITE_BUILDER_TEST_RUN"
"""An environment variable each run sets to its own value: every process it starts inherits
it, so one still running after the command has exited is found by it (``/proc/PID/environ``)."""


@pytest.fixture
def site(make_site: MakeSite) -> Path:
    return make_site({"articles/a_good.py": GOOD, "articles/zz.py": LOOPS}, SETTINGS_2S)


def left_running(mark: str) -> list[int]:
    """The processes (but this one) whose environment holds ``MARK=mark``."""
    needle = f"{MARK}={mark}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if needle in (entry / "environ").read_bytes().split(b"\0") and not _zombie(entry):
                found.append(int(entry.name))
        except OSError:  # ended meanwhile, or not ours to read
            continue
    return found


def _zombie(entry: Path) -> bool:
    """Whether the process of ``/proc/PID`` has ended and waits for its parent to notice."""
    return "\nState:\tZ" in (entry / "status").read_text()


def gone(pid: int) -> bool:
    """Whether process ``pid`` has ended (a zombie counts as ended)."""
    try:
        return _zombie(Path(f"/proc/{pid}"))
    except FileNotFoundError:
        return True


def settle(mark: str) -> list[int]:
    """The marked processes still running a moment after the command ended (a worker the
    kernel is ending with its parent may take a few milliseconds)."""
    deadline = time.monotonic() + 1
    while (found := left_running(mark)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return found


def run_command(root: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], float, list[int]]:
    """``site-builder ARGS --root ROOT`` in a process of its own: what it printed, the seconds
    it took, and the processes it left running. A run past the bound fails the test."""
    mark = uuid.uuid4().hex
    command, *rest = args
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "site_builder", command, "--root", str(root), *rest],
        env={**os.environ, MARK: mark},
        capture_output=True,
        text=True,
        timeout=BOUND,
        check=False,
    )
    return done, time.monotonic() - started, settle(mark)


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("validate",), [FIXTURE, ONE_SOURCE, LOOP_PROBLEM, "3 problems found"]),
        (("build", "--jobs", "1"), [FIXTURE, ONE_SOURCE, LOOP_PROBLEM, "3 problems found"]),
        (("build",), [FIXTURE, ONE_SOURCE, LOOP_PROBLEM, "3 problems found"]),
        (("revisions",), [ONE_SOURCE, LOOP_PROBLEM, "2 problems found"]),
        (("verify",), [FIXTURE, LOOP_PROBLEM, "2 problems found"]),
    ],
    ids=["validate", "build-one-job", "build", "revisions", "verify"],
)
def test_a_batch_that_never_finishes_importing_is_a_problem_at_its_file(
    site: Path, args: tuple[str, ...], expected: list[str]
) -> None:
    done, took, stray = run_command(site, *args)

    assert done.returncode == 1, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert lines[: len(expected)] == expected
    assert took < BOUND
    assert gone(int((site / "loop.pid").read_text()))
    assert stray == []
    assert not (site / "build").exists()


def test_the_batches_a_late_import_took_down_are_still_loaded(make_site: MakeSite) -> None:
    """One worker, the looping batch first: the five others wait behind it, so killing its
    worker fails their tasks too; they are loaded again, and each reported."""
    files = {"articles/a_loops.py": LOOPS}
    files |= {f"articles/b{n}.py": GOOD.replace("one-source", f"source-{n}") for n in range(5)}
    root = make_site(files, SETTINGS_2S)

    done, took, stray = run_command(root, "build", "--jobs", "1")

    lines = done.stderr.splitlines()
    assert lines[0] == f"articles/a_loops.py:1: batch a_loops: importing it did not finish in {TIMEOUT} s"
    assert [line.split(":")[0] for line in lines[1:11]] == [
        f"articles/b{n}.py" for n in range(5) for _ in "12"
    ]
    assert lines[11:] == ["11 problems found", "nothing was written; the previous site is untouched"]
    assert took < BOUND
    assert stray == []


def test_a_batch_that_ends_its_worker_beside_one_that_never_finishes(make_site: MakeSite) -> None:
    """The batch that exits breaks the pool before the looping one is late: each is tried
    again alone, and alone too the looping one is stopped at its deadline."""
    exits = "import os\n\nos._exit(3)\n"
    root = make_site(
        {"articles/a_good.py": GOOD, "articles/b_exits.py": exits, "articles/zz.py": LOOPS}, SETTINGS_2S
    )

    done, took, stray = run_command(root, "build", "--jobs", "3")

    assert done.stderr.splitlines() == [
        FIXTURE,
        ONE_SOURCE,
        "articles/b_exits.py:1: batch b_exits: cannot import: importing it ended the process "
        "(os._exit, a signal or a crash)",
        LOOP_PROBLEM,
        "4 problems found",
        "nothing was written; the previous site is untouched",
    ]
    assert took < BOUND
    assert stray == []


def test_the_plugin_fails_the_batch_that_never_finishes_importing(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    mark = uuid.uuid4().hex
    monkeypatch.setenv(MARK, mark)
    pytester.makefile(".toml", pyproject=SETTINGS_2S)
    articles = pytester.mkdir("articles")
    (articles / "a_good.py").write_text(GOOD, "utf-8")
    (articles / "zz.py").write_text(LOOPS, "utf-8")

    # The bound is on the session the child reports (collection, the plugin's imports, the
    # items): a child Python importing pytest and its plugins on a loaded machine once took
    # longer than the bound before its session began. The hard limit only keeps a hang out.
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-v", timeout=BOUND * 4)
    took = session_seconds(result.outlines)

    result.assert_outcomes(passed=1, failed=3)  # settings; one-source, a_good:counts, batch zz
    result.stdout.fnmatch_lines(
        [
            "*a_good.py::one-source FAILED*",
            "*a_good.py::a_good:counts FAILED*",
            "*zz.py::batch zz FAILED*",
            f"*{ONE_SOURCE}*",
            f"*{FIXTURE}*",
            f"*{LOOP_PROBLEM}*",
        ]
    )
    assert took < BOUND
    assert gone(int((pytester.path / "loop.pid").read_text()))
    assert settle(mark) == []


def session_seconds(lines: list[str]) -> float:
    """The seconds pytest's last summary line says its session took (``... in 2.53s``)."""
    found = [float(match.group(1)) for line in lines if (match := re.search(r" in (\d+\.\d+)s\b", line))]
    assert found, "\n".join(lines[-5:])
    return found[-1]


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ('"10"', "import_timeout must be int or float, not str"),
        ("true", "import_timeout must be int or float, not bool"),
        ("0", "import_timeout must be more than 0 seconds, not 0"),
        ("-1.5", "import_timeout must be more than 0 seconds, not -1.5"),
    ],
    ids=["str", "bool", "zero", "negative"],
)
def test_a_wrong_import_timeout_is_a_settings_problem_at_its_line(
    make_site: MakeSite, run_cli: RunCli, value: str, problem: str
) -> None:
    root = make_site({"articles/a_good.py": GOOD}, SETTINGS + f"import_timeout = {value}\n")

    result = run_cli(["revisions", "--root", str(root)])

    assert result.code == 1
    assert f"pyproject.toml:7: settings: {problem}" in result.err.splitlines()
    assert ONE_SOURCE in result.err.splitlines()  # the default stands in: the batches are still checked


def test_an_import_timeout_with_a_fraction_is_valid(make_site: MakeSite, run_cli: RunCli) -> None:
    root = make_site({"articles/a_good.py": GOOD}, SETTINGS + "import_timeout = 90.5\n")

    result = run_cli(["revisions", "--root", str(root)])

    assert result.err.splitlines() == [ONE_SOURCE, "1 problem found"]


def test_serve_reports_a_batch_that_never_finishes_importing_and_goes_on(make_site: MakeSite) -> None:
    """A looping batch saved while ``serve`` runs: its rebuild reports it (the forkserver's
    worker killed), the site stays served, and removing the batch builds again."""
    root = make_site({"articles/other.py": OTHER_BATCH}, SETTINGS_2S)
    mark = uuid.uuid4().hex
    with serving(root, "--port", "0", env={**os.environ, MARK: mark}) as server:
        base = wait_for("serving", lambda: (m := SERVING.search(server.output())) and m.group(1), server)
        replace_file(root, "articles/zz.py", LOOPS)
        saved = time.monotonic()
        failed = wait_for("the problem", lambda: state_when(base, lambda s: bool(s["problems"])), server)
        took = time.monotonic() - saved

        assert failed["problems"] == [LOOP_PROBLEM]
        assert took < BOUND
        assert gone(int((root / "loop.pid").read_text()))
        assert get(base + "articles/other-article/")[0] == 200

        (root / "articles/zz.py").unlink()
        wait_for("the next build", lambda: state_when(base, lambda s: s["version"] == 2), server)
        server.process.send_signal(signal.SIGINT)
        assert server.process.wait(timeout=10) == 0, server.rest(time.monotonic() + 5)
    assert settle(mark) == []
