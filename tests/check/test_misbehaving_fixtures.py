"""Fixtures that misbehave, run through ``site-builder verify``.

A fixture is an author's code run in a worker process: it may hang, exit, raise,
recurse without end, return a huge value, reach for the network, write where it
must not or return something different every time. Each case is one fixture
``lab:probe``; ``verify`` must report it with its id and ``file:line``, in bounded
time, and survive it. Writing inside a temporary directory and talking over an
``AF_UNIX`` socket pair are allowed.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
import textwrap
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support.sites import HEADER, SETTINGS, MakeSite, Result, RunCli

PATH = "articles/lab.py"
FID = "lab:probe"
OFFLINE = "(refused: fixtures run offline)"


def lab(imports: str, body: str, tail: str = "") -> str:
    """A batch ``lab`` with one fixture ``probe`` and no revisions."""
    return (
        HEADER
        + imports
        + "\n\n\n@fixture\ndef probe() -> dict:\n"
        + textwrap.indent(textwrap.dedent(body).strip("\n"), "    ")
        + "\n"
        + tail
        + "\n\nrevisions = []\n"
    )


def line_of(text: str, needle: str) -> int:
    """The 1-based line of the only line of ``text`` containing ``needle``."""
    found = [n for n, line in enumerate(text.splitlines(), 1) if needle in line]
    assert len(found) == 1, (needle, found)
    return found[0]


@dataclass(frozen=True)
class Case:
    """One misbehaving fixture and what ``verify`` must say about it."""

    imports: str
    body: str
    error: str
    """The exact error; ``{line:NEEDLE}`` stands for the line of NEEDLE in the batch, ``{leak}``
    for the forbidden file and ``{tmp}`` for the workers' temporary directory."""
    tail: str = ""
    timeout: int = 2
    regex: bool = False
    """``error`` is a regular expression (after the stand-ins are filled in)."""


LEAK = 'open(os.path.join(os.path.dirname(__file__), "leak.txt"), "w")'

FAILING: dict[str, Case] = {
    "hang": Case(
        "import time",
        """
        while True:
            time.sleep(0.05)
        """,
        "did not finish within 1 s at articles/lab.py:{line:time.sleep(0.05)} in probe",
        timeout=1,
    ),
    "os_exit": Case(
        "import os",
        "os._exit(7)",
        "the worker exited with code 7 without returning (os._exit or a crash)",
    ),
    "sys_exit": Case(
        "import sys",
        'sys.exit("giving up")',
        "raised SystemExit: giving up at articles/lab.py:{line:sys.exit} in probe",
    ),
    "raise": Case(
        "",
        """
        effects = {"first": 1}
        return {"checks": {"ok": effects["second"] == 1}}
        """,
        "raised KeyError: 'second' at articles/lab.py:{line:effects[} in probe",
    ),
    "recursion": Case(
        "",
        "return descend(0)",
        r"raised RecursionError: maximum recursion depth exceeded "
        r"at articles/lab\.py:{line:return descend(0)} in probe, "
        r"articles/lab\.py:{line:return descend(n + 1)} in descend \(×\d+\)",
        tail="\n\ndef descend(n: int) -> dict:\n    return descend(n + 1)\n",
        regex=True,
    ),
    "huge_output": Case(
        "",
        'return {"blob": "x" * 100_000_000, "checks": {"ok": True}}',
        "returned 100,000,036 characters of JSON; at most 10,000,000 are allowed",
        # Building and encoding 100 MB takes ~1 s alone; room for a loaded CI machine.
        timeout=15,
    ),
    "network_caught": Case(
        "import socket",
        """
        try:
            socket.create_connection(("192.0.2.1", 80), timeout=0.5).close()
        except OSError:
            pass
        return {"checks": {"offline": True}}
        """,
        f"tried to open a network connection to '192.0.2.1' port 80 {OFFLINE}",
    ),
    "network_connect": Case(
        "import socket",
        """
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            sock.settimeout(0.5)
            try:
                sock.connect(("192.0.2.1", 80))
            except OSError:
                pass
        return {"checks": {"offline": True}}
        """,
        f"tried to open a network connection to ('192.0.2.1', 80) {OFFLINE}",
    ),
    "host_lookup": Case(
        "import socket",
        """
        try:
            socket.gethostbyname("example.org")
        except OSError:
            pass
        return {"checks": {"offline": True}}
        """,
        f"tried to resolve 'example.org' for a network connection {OFFLINE}",
    ),
    "write_outside_caught": Case(
        "import os",
        f"""
        try:
            with {LEAK} as handle:
                handle.write("cached")
        except OSError:
            pass
        return {{"checks": {{"wrote": True}}}}
        """,
        "tried to write to '{leak}', outside its temporary directory (tempfile.gettempdir())",
    ),
    "write_outside_raised": Case(
        "import os",
        f"""
        with {LEAK} as handle:
            handle.write("cached")
        return {{"checks": {{"wrote": True}}}}
        """,
        "tried to write to '{leak}', outside its temporary directory (tempfile.gettempdir()) "
        "at articles/lab.py:{line:leak.txt} in probe",
    ),
}

PASSING: dict[str, tuple[str, str, dict[str, object]]] = {
    "write_inside_temporary_directory": (
        "import os, tempfile",
        """
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "scratch.txt")
            with open(path, "w", encoding="utf-8") as handle:
                handle.write("scratch")
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
        return {"text": text, "checks": {"readBack": text == "scratch"}}
        """,
        {"text": "scratch", "checks": {"readBack": True}},
    ),
    "af_unix_socketpair": (
        "import socket",
        """
        left, right = socket.socketpair()
        with left, right:
            left.sendall(b"ping")
            got = right.recv(4)
        return {"family": left.family.name, "checks": {"echoed": got == b"ping"}}
        """,
        {"family": "AF_UNIX", "checks": {"echoed": True}},
    ),
}


@pytest.fixture
def worker_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The workers' temporary directory, beside the site rather than above it.

    pytest puts the site under the system temporary directory, where fixtures may write;
    a real site lives elsewhere. ``TMPDIR`` does the same for a subprocess.
    """
    folder = tmp_path / "worker-tmp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder.resolve()


def make_lab(make_site: MakeSite, case: Case) -> tuple[Path, str]:
    text = lab(case.imports, case.body, case.tail)
    settings = SETTINGS.replace("fixture_timeout = 2", f"fixture_timeout = {case.timeout}")
    return make_site({PATH: text}, settings=settings), text


def expected_error(case: Case, text: str, root: Path, worker_tmp: Path) -> str:
    """The error ``verify`` must print, as a regular expression."""
    error = re.sub(r"\{line:(.+?)\}", lambda m: str(line_of(text, m.group(1))), case.error)
    error = error.replace("{leak}", str(root.resolve() / "articles" / "leak.txt"))
    error = error.replace("{tmp}", str(worker_tmp))
    return error if case.regex else re.escape(error)


def assert_reported(result: Result, error: str, def_line: int, *, output: bool = False) -> None:
    """One failed fixture ``lab:probe``: the problem line on stderr, its entry in the JSON on stdout.

    The problem line carries the whole message, with the fixture's own frames for an
    exception; the JSON ``error`` is the same message without those frames (the entry has
    ``path`` and ``line`` fields of its own). ``output``: a run produced a value to show.
    """
    assert result.code == 1, result.err
    assert "Traceback" not in result.err + result.out
    lines = result.err.splitlines()
    assert lines[-1] == "1 problem found"
    [problem] = lines[:-1]
    prefix = f"{PATH}:{def_line}: fixture {FID}: "
    assert problem.startswith(prefix), problem
    message = problem.removeprefix(prefix)
    assert re.fullmatch(error, message), message
    [entry] = json.loads(result.out)
    assert (entry["id"], entry["path"], entry["line"], entry["status"]) == (FID, PATH, def_line, "failed")
    assert entry["error"]
    assert message.startswith(entry["error"])
    assert (entry["output"] is not None) == output


@pytest.mark.parametrize("name", list(FAILING))
def test_misbehaving_fixture_is_reported_by_verify(
    name: str, make_site: MakeSite, run_cli: RunCli, worker_tmp: Path
) -> None:
    case = FAILING[name]
    root, text = make_lab(make_site, case)

    started = time.monotonic()
    result = run_cli(["verify", "--root", str(root)])
    elapsed = time.monotonic() - started

    assert_reported(result, expected_error(case, text, root, worker_tmp), line_of(text, "def probe"))
    assert elapsed < case.timeout + 5
    assert not (root / "articles" / "leak.txt").exists()


def test_recursion_error_is_folded_into_a_short_message(
    make_site: MakeSite, run_cli: RunCli, worker_tmp: Path
) -> None:
    root, text = make_lab(make_site, FAILING["recursion"])

    result = run_cli(["verify", "--root", str(root)])

    [problem] = result.err.splitlines()[:-1]
    assert len(problem) < 400
    assert f"{PATH}:{line_of(text, 'return descend(n + 1)')} in descend (×" in problem
    assert problem.count("descend") == 1


def test_a_fixture_that_catches_the_refusal_still_fails(
    make_site: MakeSite, run_cli: RunCli, worker_tmp: Path
) -> None:
    """The checks pass and no exception escapes, yet the connection attempt is reported."""
    root, _ = make_lab(make_site, FAILING["network_caught"])

    result = run_cli(["verify", "--root", str(root)])

    [entry] = json.loads(result.out)
    assert entry["status"] == "failed"
    assert result.code == 1


@pytest.mark.parametrize("name", list(PASSING))
def test_allowed_local_work_passes(name: str, make_site: MakeSite, run_cli: RunCli, worker_tmp: Path) -> None:
    imports, body, output = PASSING[name]
    root = make_site({PATH: lab(imports, body)})

    result = run_cli(["verify", "--root", str(root)])

    assert result.code == 0, result.err
    assert result.err == ""
    [entry] = json.loads(result.out)
    assert (entry["id"], entry["status"], entry["error"], entry["output"]) == (FID, "passed", None, output)
    assert list(worker_tmp.iterdir()) == []


RANDOM = lab("import random", 'return {"value": random.random(), "checks": {"ok": True}}')
STEADY = lab("", 'return {"value": sum(range(10)), "checks": {"ok": True}}')


def test_repeat_reports_a_nondeterministic_fixture(make_site: MakeSite, run_cli: RunCli) -> None:
    root = make_site({PATH: RANDOM})

    started = time.monotonic()
    result = run_cli(["verify", "--repeat", "2", "--root", str(root)])

    assert time.monotonic() - started < 2 * 2 + 5
    number = r"[0-9.e-]+"
    error = rf"is not deterministic: \$\.value: run 1 returned {number}, run 2 returned {number}"
    assert_reported(result, error, line_of(RANDOM, "def probe"), output=True)


def test_repeat_passes_a_deterministic_fixture(make_site: MakeSite, run_cli: RunCli) -> None:
    root = make_site({PATH: STEADY})

    result = run_cli(["verify", "--repeat", "3", "--root", str(root)])

    assert result.code == 0, result.err
    [entry] = json.loads(result.out)
    assert (entry["id"], entry["status"], entry["output"]) == (
        FID,
        "passed",
        {"value": 45, "checks": {"ok": True}},
    )


def test_a_single_run_cannot_see_nondeterminism(make_site: MakeSite, run_cli: RunCli) -> None:
    root = make_site({PATH: RANDOM})

    assert run_cli(["verify", "--root", str(root)]).code == 0


# --- the same through a real process: the command itself must survive and finish

# The command's own peak is VmHWM of its memory map: ru_maxrss (RUSAGE_SELF) survives
# exec on Linux, so it would report the RSS of the pytest process that forked it.
MEASURE = """\
import json, re, resource, sys
from site_builder import cli
code = cli.main(sys.argv[2:])
sys.stdout.flush()
status = open("/proc/self/status").read()
own_kb = int(re.search(r"VmHWM:\\s+(\\d+) kB", status).group(1))
with open(sys.argv[1], "w") as handle:
    json.dump({"code": code,
               "self_kb": own_kb,
               "children_kb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}, handle)
raise SystemExit(code)
"""


def run_process(
    argv: list[str], tmp_path: Path, worker_tmp: Path, limit: float
) -> tuple[Result, dict[str, int]]:
    """``site-builder ARGV`` in a fresh interpreter, with its peak memory."""
    usage = tmp_path / "usage.json"
    env = {**os.environ, "TMPDIR": str(worker_tmp)}
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", MEASURE, str(usage), *argv],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        timeout=limit + 30,
        check=False,
    )
    assert time.monotonic() - started < limit
    measured = json.loads(usage.read_text("utf-8"))
    assert measured["code"] == done.returncode
    return Result(done.returncode, done.stdout, done.stderr), measured


@pytest.mark.parametrize("name", ["hang", "os_exit", "recursion", "network_caught", "write_outside_caught"])
def test_verify_in_a_real_process(name: str, make_site: MakeSite, tmp_path: Path, worker_tmp: Path) -> None:
    case = FAILING[name]
    root, text = make_lab(make_site, case)

    # A fresh interpreter needs about a second to start before the fixture's own time.
    result, _ = run_process(["verify", "--root", str(root)], tmp_path, worker_tmp, case.timeout + 5 + 1)

    assert_reported(result, expected_error(case, text, root, worker_tmp), line_of(text, "def probe"))
    assert not (root / "articles" / "leak.txt").exists()


def test_a_100_mb_output_is_refused_in_bounded_time_and_memory(
    make_site: MakeSite, tmp_path: Path, worker_tmp: Path
) -> None:
    case = FAILING["huge_output"]
    root, text = make_lab(make_site, case)

    result, measured = run_process(
        ["verify", "--root", str(root)], tmp_path, worker_tmp, case.timeout + 5 + 1
    )

    assert_reported(result, expected_error(case, text, root, worker_tmp), line_of(text, "def probe"))
    # The command never holds the value: only the worker does, and it is thrown away.
    assert measured["self_kb"] < 200 * 1024
    assert measured["children_kb"] < 1024 * 1024


def test_nondeterminism_in_a_real_process(make_site: MakeSite, tmp_path: Path, worker_tmp: Path) -> None:
    root = make_site({PATH: RANDOM})

    result, _ = run_process(
        ["verify", "--repeat", "2", "--root", str(root)], tmp_path, worker_tmp, 2 * 2 + 5 + 1
    )

    number = r"[0-9.e-]+"
    error = rf"is not deterministic: \$\.value: run 1 returned {number}, run 2 returned {number}"
    assert_reported(result, error, line_of(RANDOM, "def probe"), output=True)
