"""Fixtures: run in workers, judged by their checks, reported at their ``def`` line.

The contract (DESIGN.md, "Fixtures"): a fixture passes when it returns, within its
timeout, a JSON-serialisable dict whose ``"checks"`` is a non-empty dict of
name -> ``True``; anything else is a problem ``PATH:LINE: fixture MODULE:FUNCTION:
message`` with LINE the line of its ``def``.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from site_builder.check.claims import differences, fixture_failure
from site_builder.check.fixture_runs import Outcome, run_fixtures
from tests.support.reference import load_site
from tests.support.sites import HEADER, SETTINGS, MakeSite, RunCli

SOURCES = """\
    sources=[Source(title="A", url="https://a.example/", note="a"),
             Source(title="B", url="https://b.example/", note="b")],
"""


def line_of(text: str, needle: str) -> int:
    """The 1-based line of the only line of ``text`` that starts with ``needle``."""
    found = [n for n, line in enumerate(text.splitlines(), 1) if line.lstrip().startswith(needle)]
    assert len(found) == 1, (needle, found)
    return found[0]


def lab(body: str) -> str:
    """A batch ``lab`` with one fixture ``probe`` whose body is ``body`` (4-space indented)."""
    return HEADER + "import os, sys, time\n\n\n@fixture\ndef probe():\n" + body + "\n\nrevisions = []\n"


def run_one(make_site: MakeSite, body: str, settings: str = SETTINGS) -> Outcome:
    """Run ``lab:probe`` through the runner the commands use."""
    root = make_site({"articles/lab.py": lab(body)}, settings=settings)
    site = load_site(root)
    assert site.problems == ()
    fixtures = site.fixtures()
    assert list(fixtures) == ["lab:probe"]
    outcomes = run_fixtures(fixtures, timeout=site.settings.fixture_timeout, jobs=1)
    assert list(outcomes) == ["lab:probe"]
    return outcomes["lab:probe"]


def test_a_passing_fixture_returns_its_output(make_site: MakeSite) -> None:
    body = '    time.sleep(0.2)\n    return {"effects": 1, "checks": {"onlyOneEffect": True}}'
    outcome = run_one(make_site, body)
    assert outcome.error is None
    assert outcome.output == {"effects": 1, "checks": {"onlyOneEffect": True}}
    assert fixture_failure(outcome) is None
    # The duration is the fixture's own run time: at least its 0.2 s sleep, and far
    # from the 2 s timeout (SETTINGS) that a run cut short would report.
    assert 0.2 <= outcome.duration < 1.0, outcome.duration


def test_a_false_check_fails_and_is_named(make_site: MakeSite) -> None:
    outcome = run_one(make_site, '    return {"checks": {"retryReplayed": True, "onlyOneEffect": False}}')
    failure = fixture_failure(outcome)
    assert failure is not None
    assert "onlyOneEffect" in failure
    assert "retryReplayed" not in failure


def test_a_fixture_without_checks_fails(make_site: MakeSite) -> None:
    failure = fixture_failure(run_one(make_site, '    return {"effects": 1}'))
    assert failure is not None
    assert "checks" in failure


def test_empty_checks_fail(make_site: MakeSite) -> None:
    failure = fixture_failure(run_one(make_site, '    return {"effects": 1, "checks": {}}'))
    assert failure is not None
    assert "checks" in failure


@pytest.mark.parametrize(
    "value",
    ["1", '"yes"', "None", '"true"', "[True]"],
    ids=["one", "yes-string", "none", "true-string", "list-of-true"],
)
def test_a_non_bool_check_fails(make_site: MakeSite, value: str) -> None:
    body = f'    return {{"checks": {{"fine": True, "truthy": {value}}}}}'
    failure = fixture_failure(run_one(make_site, body))
    assert failure is not None
    assert "truthy" in failure
    assert "fine" not in failure


def test_checks_that_are_not_a_dict_fail(make_site: MakeSite) -> None:
    failure = fixture_failure(run_one(make_site, '    return {"checks": [True]}'))
    assert failure is not None


def test_an_exception_names_the_error_and_the_fixtures_own_frames(
    make_site: MakeSite, run_cli: RunCli
) -> None:
    text = HEADER + (
        "\n\ndef helper(value):\n"
        "    raise ValueError(f'broken invariant {value}')\n"
        "\n\n@fixture\n"
        "def boom():\n"
        "    return helper(42)\n"
        "\n\nrevisions = []\n"
    )
    root = make_site({"articles/lab.py": text})
    def_line = line_of(text, "def boom")
    call_line = line_of(text, "return helper(42)")
    raise_line = line_of(text, "raise ValueError")

    outcome = run_fixtures(load_site(root).fixtures(), timeout=2, jobs=1)["lab:boom"]
    assert outcome.error is not None
    assert "ValueError" in outcome.error
    assert "broken invariant 42" in outcome.error
    assert [(Path(f.path).name, f.line) for f in outcome.frames] == [
        ("lab.py", call_line),
        ("lab.py", raise_line),
    ]

    result = run_cli(["validate", "--root", str(root)])
    assert result.code == 1
    (line,) = [x for x in result.err.splitlines() if "fixture lab:boom" in x]
    assert line.startswith(f"articles/lab.py:{def_line}: fixture lab:boom: ")
    assert "ValueError" in line
    assert "broken invariant 42" in line
    assert f"articles/lab.py:{call_line}" in line
    assert f"articles/lab.py:{raise_line}" in line
    # The runner's own frames are not the author's business.
    assert "site_builder" not in line
    assert "Traceback" not in result.err


def test_os_exit_is_a_failure_not_a_crash(make_site: MakeSite) -> None:
    outcome = run_one(make_site, '    os._exit(3)\n    return {"checks": {"ok": True}}')
    failure = fixture_failure(outcome)
    assert failure is not None
    assert outcome.output is None
    assert "3" in failure


FORK_A_SLEEPER = "    child = os.fork()\n    if child == 0:\n        time.sleep(30)\n        os._exit(0)\n"
"""A fixture body's start: a process of its own that holds the result pipe for 30 s."""


def _gone(pid: int) -> bool:
    """Whether ``pid`` has ended within 2 s: no such process, or a zombie (Linux) that only
    waits for whoever inherited it to reap it."""
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
        except (FileNotFoundError, ProcessLookupError):
            return True
        if state == "Z":
            return True
        time.sleep(0.02)
    return False


def test_a_fixture_that_returns_while_what_it_forked_holds_the_pipe_is_done_at_once(
    make_site: MakeSite,
) -> None:
    started = time.monotonic()
    outcome = run_one(make_site, FORK_A_SLEEPER + '    return {"child": child, "checks": {"ok": True}}')
    elapsed = time.monotonic() - started

    assert fixture_failure(outcome) is None, outcome
    assert elapsed < 1.5  # not the 2 s timeout, nor the 30 s the sleeper holds the pipe
    assert isinstance(outcome.output, dict)
    assert _gone(outcome.output["child"]), "what the fixture started outlived it"


def test_a_worker_that_exits_while_what_it_forked_holds_the_pipe_is_done_at_once(
    make_site: MakeSite,
) -> None:
    started = time.monotonic()
    outcome = run_one(make_site, FORK_A_SLEEPER + '    os._exit(3)\n    return {"checks": {"ok": True}}')
    elapsed = time.monotonic() - started

    assert outcome.error == "the worker exited with code 3 without returning (os._exit or a crash)"
    assert elapsed < 1.5


def test_sys_exit_is_a_failure_and_the_command_survives(make_site: MakeSite, run_cli: RunCli) -> None:
    text = HEADER + (
        "import sys\n\n\n@fixture\ndef quitter():\n    sys.exit()\n\n\n"
        '@fixture\ndef fine():\n    return {"checks": {"ok": True}}\n\n\nrevisions = []\n'
    )
    root = make_site({"articles/lab.py": text})
    result = run_cli(["verify", "--root", str(root)])
    assert result.code == 1
    report = {item["id"]: item for item in json.loads(result.out)}
    assert report["lab:quitter"]["status"] == "failed"
    assert "SystemExit" in report["lab:quitter"]["error"]
    assert report["lab:fine"]["status"] == "passed"
    assert f"articles/lab.py:{line_of(text, 'def quitter')}: fixture lab:quitter: " in result.err


def test_a_hanging_fixture_times_out_and_the_run_ends(make_site: MakeSite, run_cli: RunCli) -> None:
    settings = SETTINGS.replace("fixture_timeout = 2", "fixture_timeout = 1")
    assert "fixture_timeout = 1\n" in settings
    text = lab('    time.sleep(60)\n    return {"checks": {"ok": True}}')
    root = make_site({"articles/lab.py": text}, settings=settings)
    started = time.monotonic()
    result = run_cli(["verify", "--root", str(root)])
    elapsed = time.monotonic() - started
    assert elapsed < 1 + 5
    assert result.code == 1
    (item,) = json.loads(result.out)
    assert item["status"] == "failed"
    assert re.search(r"time|did not finish within 1\b", item["error"]), item["error"]
    assert f"articles/lab.py:{line_of(text, 'def probe')}: fixture lab:probe: " in result.err


def test_a_hanging_fixture_kills_what_it_started(make_site: MakeSite, tmp_path: Path) -> None:
    marker = tmp_path / "child-still-running"
    child = f"import pathlib, time; time.sleep(2); pathlib.Path({str(marker)!r}).write_text('x')"
    body = (
        f"    import subprocess\n    subprocess.Popen([sys.executable, '-c', {child!r}])\n"
        "    time.sleep(60)\n"
    )
    settings = SETTINGS.replace("fixture_timeout = 2", "fixture_timeout = 1")
    outcome = run_one(make_site, body, settings=settings)
    assert fixture_failure(outcome) is not None
    time.sleep(2.5)
    assert not marker.exists()


def test_a_value_that_is_not_json_fails(make_site: MakeSite) -> None:
    outcome = run_one(make_site, '    return {"checks": {"ok": True}, "seen": {1, 2}}')
    failure = fixture_failure(outcome)
    assert failure is not None
    assert "JSON" in failure


def test_nan_is_not_json(make_site: MakeSite) -> None:
    outcome = run_one(make_site, '    return {"checks": {"ok": True}, "ratio": float("nan")}')
    assert fixture_failure(outcome) is not None


@pytest.mark.parametrize(
    ("value", "kind"),
    [("[1, 2]", "list"), ("None", "None"), ('"done"', "str"), ("True", "bool")],
    ids=["list", "none", "str", "bool"],
)
def test_a_value_that_is_not_a_dict_fails(make_site: MakeSite, value: str, kind: str) -> None:
    failure = fixture_failure(run_one(make_site, f"    return {value}"))
    assert failure is not None
    assert kind in failure


def test_prints_do_not_reach_verify_stdout(make_site: MakeSite, run_cli: RunCli) -> None:
    body = '    print("chatter from a fixture")\n    return {"checks": {"ok": True}}'
    root = make_site({"articles/lab.py": lab(body)})
    result = run_cli(["verify", "--root", str(root)])
    assert result.code == 0
    (item,) = json.loads(result.out)
    assert item["status"] == "passed"
    assert "chatter" not in result.out


def test_prints_at_the_file_descriptor_do_not_reach_verify_stdout(make_site: MakeSite) -> None:
    body = (
        '    print("chatter from print")\n'
        '    sys.stdout.write("chatter from write\\n")\n'
        '    os.write(1, b"chatter from fd 1\\n")\n'
        '    return {"checks": {"ok": True}}'
    )
    root = make_site({"articles/lab.py": lab(body)})
    done = subprocess.run(
        [sys.executable, "-m", "site_builder", "verify", "--root", str(root)],
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode()
    (item,) = json.loads(done.stdout.decode("utf-8"))
    assert item["id"] == "lab:probe"
    assert item["status"] == "passed"
    assert b"chatter" not in done.stdout


def test_several_fixtures_with_two_jobs_are_reported_in_the_given_order(
    make_site: MakeSite, run_cli: RunCli
) -> None:
    delays = {"slow": 0.6, "instant": 0.0, "medium": 0.3, "failing": 0.1, "quick": 0.05}
    parts = []
    for name, delay in delays.items():
        ok = "False" if name == "failing" else "True"
        parts.append(
            f"@fixture\ndef {name}():\n    time.sleep({delay})\n"
            f'    return {{"name": "{name}", "checks": {{"ok": {ok}}}}}\n'
        )
    text = HEADER + "import time\n\n\n" + "\n\n".join(parts) + "\n\nrevisions = []\n"
    root = make_site({"articles/lab.py": text})
    fixtures = load_site(root).fixtures()
    ids = [f"lab:{name}" for name in delays]
    assert list(fixtures) == ids

    given = {fid: fixtures[fid] for fid in reversed(ids)}
    outcomes = run_fixtures(given, timeout=2, jobs=2)
    assert list(outcomes) == list(reversed(ids))
    assert [o.output["name"] for o in outcomes.values()] == list(reversed(delays))

    result = run_cli(["verify", "--root", str(root)])
    assert result.code == 1
    report = json.loads(result.out)
    assert [item["id"] for item in report] == ids
    assert [item["status"] for item in report] == ["passed", "passed", "passed", "failed", "passed"]


def test_verify_runs_only_the_ids_given_in_that_order(make_site: MakeSite, run_cli: RunCli) -> None:
    text = HEADER + "".join(
        f'\n\n@fixture\ndef {name}():\n    return {{"checks": {{"{name}": True}}}}\n'
        for name in ("first", "second", "third")
    )
    root = make_site({"articles/lab.py": text + "\n\nrevisions = []\n"})
    result = run_cli(["verify", "--root", str(root), "lab:third", "lab:first"])
    assert result.code == 0
    assert [item["id"] for item in json.loads(result.out)] == ["lab:third", "lab:first"]


# --- verified_output drift ----------------------------------------------------------------------


DRIFT = [
    # (what the fixture returns besides checks, what the article prints, the $.path named)
    ('{"effects": 2}', '{"effects": 1}', "$.effects"),
    ('{"effects": 1}', '{"effects": 1, "retries": 0}', "$.retries"),
    ('{"items": [1, 2, 3]}', '{"items": [1, 2]}', "$.items"),
    ('{"n": 1.0}', '{"n": 1}', "$.n"),
    ('{"n": True}', '{"n": 1}', "$.n"),
    ('{"n": 1}', '{"n": True}', "$.n"),
    (
        '{"deep": {"rows": [{"id": 1, "state": "done"}]}}',
        '{"deep": {"rows": [{"state": "sent"}]}}',
        "$.deep.rows[0].state",
    ),
    ('{"label": "Готово"}', '{"label": "Отправлено"}', "$.label"),
]


def drift_site(make_site: MakeSite, returned: str, printed: str) -> tuple[Path, str]:
    value = returned[:-1] + ', "checks": {"ok": True}}'
    text = HEADER + (
        f"\n\n@fixture\ndef result():\n    return {value}\n\n\n"
        "practice = revision(\n"
        '    slug="drift-check", title="Drift", categories=["Notes"], excerpt="Drift.",\n'
        '    published="2024-01-02",\n'
        '    body=[paragraph("Enough words to pass the tiny limit of this test site."),\n'
        f"          verified_output(result, expected={printed})],\n" + SOURCES + ")\n"
        "revisions = [practice]\n"
    )
    return make_site({"articles/lab.py": text}), text


@pytest.mark.parametrize(
    ("returned", "printed", "where"),
    DRIFT,
    ids=[
        "scalar",
        "missing-key",
        "list-length",
        "int-vs-float",
        "int-vs-true",
        "true-vs-int",
        "nested",
        "cyrillic",
    ],
)
def test_verified_output_drift_names_the_path(
    make_site: MakeSite, run_cli: RunCli, returned: str, printed: str, where: str
) -> None:
    root, text = drift_site(make_site, returned, printed)
    result = run_cli(["validate", "--root", str(root)])
    assert result.code == 1, result.err
    line = line_of(text, "verified_output(")
    (problem,) = [x for x in result.err.splitlines() if x.startswith("articles/lab.py:")]
    assert problem.startswith(f"articles/lab.py:{line}: drift-check: ")
    assert "lab:result" in problem
    assert re.search(re.escape(where) + r"(?![\w.\[])", problem), problem
    assert "Traceback" not in result.err


def test_verified_output_subset_passes(make_site: MakeSite, run_cli: RunCli) -> None:
    root, _ = drift_site(
        make_site,
        '{"effects": 1, "extra": [1, 2], "nested": {"a": 1.5, "b": "x", "ok": True}}',
        '{"effects": 1, "nested": {"a": 1.5, "ok": True}}',
    )
    result = run_cli(["validate", "--root", str(root)])
    assert result.code == 0, result.err
    assert "1 fixture passed" in result.err


def test_verify_reports_drift_in_verified_outputs(make_site: MakeSite, run_cli: RunCli) -> None:
    root, text = drift_site(make_site, '{"effects": 2}', '{"effects": 1}')
    result = run_cli(["verify", "--root", str(root)])
    assert result.code == 1
    (item,) = json.loads(result.out)
    assert item["status"] == "passed"
    (claim,) = item["verifiedOutputs"]
    assert claim["slug"] == "drift-check"
    assert claim["line"] == line_of(text, "verified_output(")
    assert claim["status"] != "matches"
    assert any("$.effects" in d for d in claim["differences"])


# --- the problem line ------------------------------------------------------------------------------

PROBLEM_LINE = re.compile(r"^(?P<path>[^:]+):(?P<line>\d+): fixture (?P<id>\w+:\w+): (?P<message>.+)$")


@pytest.mark.parametrize(
    "decorators",
    [
        "@fixture\n",
        "@fixture\n# a comment between decorator and def\n",
        "@fixture\n@keep\n",
        "@keep\n@fixture\n",
    ],
    ids=["plain", "comment", "stacked-inner", "stacked-outer"],
)
def test_problem_line_format_points_at_the_def(make_site: MakeSite, run_cli: RunCli, decorators: str) -> None:
    text = HEADER + (
        "\n\ndef keep(function):\n    return function\n\n\n"
        + decorators
        + 'def failing():\n    return {"checks": {"sameEffect": False}}\n\n\nrevisions = []\n'
    )
    root = make_site({"articles/lab.py": text})
    result = run_cli(["validate", "--root", str(root)])
    assert result.code == 1
    lines = [x for x in result.err.splitlines() if PROBLEM_LINE.match(x)]
    assert len(lines) == 1, result.err
    found = PROBLEM_LINE.match(lines[0])
    assert found is not None
    assert found["path"] == "articles/lab.py"
    assert int(found["line"]) == line_of(text, "def failing")
    assert found["id"] == "lab:failing"
    assert "sameEffect" in found["message"]


def test_problem_lines_of_two_batches_use_their_module_names(make_site: MakeSite, run_cli: RunCli) -> None:
    failing = '\n\n@fixture\ndef bad():\n    return {"checks": {"x": False}}\n\n\nrevisions = []\n'
    root = make_site(
        {"articles/alpha_2020.py": HEADER + failing, "articles/beta.py": HEADER + "\n" + failing}
    )
    result = run_cli(["validate", "--root", str(root)])
    assert result.code == 1
    alpha_line = line_of(HEADER + failing, "def bad")
    assert f"articles/alpha_2020.py:{alpha_line}: fixture alpha_2020:bad: " in result.err
    assert f"articles/beta.py:{alpha_line + 1}: fixture beta:bad: " in result.err


def test_fixtures_do_not_leak_state_into_each_other(make_site: MakeSite) -> None:
    text = HEADER + (
        "\n\nSEEN = []\n\n\n"
        "@fixture\ndef first():\n    SEEN.append(1)\n"
        '    return {"seen": len(SEEN), "checks": {"ok": True}}\n\n\n'
        "@fixture\ndef second():\n    SEEN.append(2)\n"
        '    return {"seen": len(SEEN), "checks": {"ok": True}}\n\n\n'
        "revisions = []\n"
    )
    root = make_site({"articles/lab.py": text})
    outcomes = run_fixtures(load_site(root).fixtures(), timeout=2, jobs=1)
    assert [o.output for o in outcomes.values()] == [
        {"seen": 1, "checks": {"ok": True}},
        {"seen": 1, "checks": {"ok": True}},
    ]


# --- differences: recursive subset ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("expected", "actual"),
    [
        ({}, {"a": 1}),
        ({"a": 1}, {"a": 1, "b": 2}),
        ({"a": {"b": [1, {"c": "x"}]}}, {"a": {"b": [1, {"c": "x", "d": 0}], "e": None}, "f": 1}),
        ([{"a": 1}], [{"a": 1, "b": 2}]),
        ([], []),
        (None, None),
        ("текст", "текст"),
        (1.5, 1.5),
        (False, False),
    ],
    ids=["empty", "extra-key", "nested", "list-of-dicts", "empty-list", "null", "string", "float", "false"],
)
def test_differences_none_for_a_recursive_subset(expected: object, actual: object) -> None:
    assert list(differences(expected, actual)) == []


@pytest.mark.parametrize(
    ("expected", "actual", "paths"),
    [
        ({"a": 1}, {"a": 2}, ["$.a"]),
        ({"a": 1}, {}, ["$.a"]),
        ({"a": 1, "b": 2}, {"c": 3}, ["$.a", "$.b"]),
        ({"a": [1, 2]}, {"a": [1, 2, 3]}, ["$.a"]),
        ({"a": [1, 2, 3]}, {"a": [1, 2]}, ["$.a"]),
        ({"a": [1, 2]}, {"a": [1, 3]}, ["$.a[1]"]),
        ({"a": 1}, {"a": 1.0}, ["$.a"]),
        ({"a": 1.0}, {"a": 1}, ["$.a"]),
        ({"a": 1}, {"a": True}, ["$.a"]),
        ({"a": True}, {"a": 1}, ["$.a"]),
        ({"a": 0}, {"a": False}, ["$.a"]),
        ({"a": None}, {}, ["$.a"]),
        ({"a": None}, {"a": 0}, ["$.a"]),
        ({"a": "1"}, {"a": 1}, ["$.a"]),
        ({"a": {"b": 1}}, {"a": [1]}, ["$.a"]),
        ({"a": [1]}, {"a": {"0": 1}}, ["$.a"]),
        ({"rows": [{"id": 1, "s": "x"}]}, {"rows": [{"id": 1, "s": "y"}]}, ["$.rows[0].s"]),
        ({"a": 1}, [1], ["$"]),
        (1, 2, ["$"]),
    ],
    ids=[
        "scalar",
        "missing-key",
        "two-missing",
        "list-shorter",
        "list-longer",
        "list-item",
        "int-vs-float",
        "float-vs-int",
        "int-vs-true",
        "true-vs-int",
        "zero-vs-false",
        "null-vs-missing",
        "null-vs-zero",
        "string-vs-int",
        "object-vs-list",
        "list-vs-object",
        "nested-list-of-dicts",
        "root-type",
        "root-scalar",
    ],
)
def test_differences_name_each_path(expected: object, actual: object, paths: list[str]) -> None:
    found = list(differences(expected, actual))
    assert [d.split(":", 1)[0] for d in found] == paths
    assert all(len(d.split(":", 1)[1].strip()) > 0 for d in found)


def test_differences_message_shows_both_values() -> None:
    (message,) = differences({"effects": 1}, {"effects": 2})
    assert "1" in message.split(":", 1)[1]
    assert "2" in message.split(":", 1)[1]
    (message,) = differences({"flag": 1}, {"flag": True})
    assert "true" in message


def test_differences_missing_key_says_so() -> None:
    (message,) = differences({"retries": 0}, {"effects": 1})
    assert message.startswith("$.retries")
    assert "0" in message


def test_a_long_text_that_differs_near_its_end_is_shown_where_it_differs() -> None:
    # Cut at the same 77 characters, both sides of a late difference would read the same.
    said = "site-builder: error: invalid choice: 'publish' (choose from 'validate', 'verify', 'build')"
    (message,) = differences({"says": said}, {"says": said[:-1] + ", 'init')"})
    printed, returned = message.split("the article prints ", 1)[1].split(", the fixture returns ")
    assert printed != returned
    assert printed.startswith("…") and printed.endswith("'build')\"")
    assert returned.endswith("'build', 'init')\"")
