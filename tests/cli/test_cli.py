"""The ``site-builder`` command, called in-process as ``cli.main([...])``.

Exit 0 all is well, 1 the site has problems, 2 the command line is wrong; machine
output on stdout, messages on stderr (DESIGN.md "Commands", STYLE.md "CLI").
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.sites import HEADER, MakeSite, RunCli

SOURCES = """\
    sources=[Source(title="A", url="https://a.example/", note="a"),
             Source(title="B", url="https://b.example/", note="b")],
"""

ALPHA = (
    HEADER
    + """

@fixture
def effects():
    return {"effects": 1, "checks": {"onlyOneEffect": True}}


zeta = revision(
    slug="zeta-first-in-list", title="Зета", categories=["Заметки"], excerpt="Первая в списке.",
    published="2024-01-02", lang="ru",
    body=[paragraph("Метод `POST` сам по себе не становится идемпотентным."),
          verified_output(effects, expected={"effects": 1})],
"""
    + SOURCES
    + """)

beta = revision(
    slug="beta-second-in-list", title="Beta", categories=["Notes"], excerpt="Second in the list.",
    published="2024-01-03",
    body=[paragraph("Enough words to pass the tiny limit of this test site.")],
"""
    + SOURCES
    + """)

revisions = [zeta, beta]
"""
)

BETA = (
    HEADER
    + """
revisions = [revision(
    slug="aaa-in-second-batch", title="Aaa", categories=["Notes"], excerpt="In the second batch.",
    published="2024-01-04",
    body=[paragraph("Enough words to pass the tiny limit of this test site.")],
"""
    + SOURCES
    + """)]
"""
)

SITE_ORDER = ["zeta-first-in-list", "beta-second-in-list", "aaa-in-second-batch"]

BAD = (
    HEADER
    + """
revisions = [revision(
    slug="Bad Slug", title="Bad", categories=["Notes"], excerpt="Broken.",
    published="2024-13-45",
    body=[paragraph("Enough words to pass the tiny limit of this test site.")],
    sources=[Source(title="A", url="javascript:alert(1)", note="a")],
)]
"""
)

FAILING_FIXTURE = (
    HEADER
    + """

@fixture
def failing():
    return {"checks": {"sameEffect": False}}


revisions = []
"""
)


def line_of(text: str, needle: str) -> int:
    found = [n for n, line in enumerate(text.splitlines(), 1) if line.lstrip().startswith(needle)]
    assert len(found) == 1, (needle, found)
    return found[0]


@pytest.fixture
def good_site(make_site: MakeSite) -> Path:
    # beta.py is written first: site order is by module name, not by creation.
    return make_site({"articles/beta.py": BETA, "articles/alpha.py": ALPHA})


@pytest.fixture
def bad_site(make_site: MakeSite) -> Path:
    return make_site({"articles/bad.py": BAD, "articles/lab.py": FAILING_FIXTURE})


# --- validate ---------------------------------------------------------------------------------------


def test_validate_ok_exits_0_and_prints_nothing_on_stdout(good_site: Path, run_cli: RunCli) -> None:
    result = run_cli(["validate", "--root", str(good_site)])
    assert result.code == 0, result.err
    assert result.out == ""
    assert "ok" in result.err


def test_validate_finds_the_site_from_the_current_folder(
    good_site: Path, run_cli: RunCli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(good_site / "articles")
    result = run_cli(["validate"])
    assert result.code == 0, result.err


def test_validate_problems_exit_1_with_every_line_on_stderr(bad_site: Path, run_cli: RunCli) -> None:
    result = run_cli(["validate", "--root", str(bad_site)])
    assert result.code == 1
    assert result.out == ""
    lines = [x for x in result.err.splitlines() if re.match(r"^[^:\s]+:\d+: ", x)]
    slug_line = line_of(BAD, 'slug="Bad Slug"')
    bad = [x for x in lines if x.startswith("articles/bad.py:")]
    # Slug, date, scheme and the number of sources: all reported in one run, each at its field.
    assert len(bad) >= 4, result.err
    assert f"articles/bad.py:{slug_line}: Bad Slug: slug 'Bad Slug' must be 3 to 120 characters" in result.err
    sources_line = line_of(BAD, "sources=[Source(")
    assert f"articles/bad.py:{sources_line}: Bad Slug: cites 1 source; at least 2 are required" in result.err
    fixture_line = line_of(FAILING_FIXTURE, "def failing")
    assert any(x.startswith(f"articles/lab.py:{fixture_line}: fixture lab:failing: ") for x in lines)
    assert "Traceback" not in result.err


def test_validate_format_json(bad_site: Path, run_cli: RunCli) -> None:
    result = run_cli(["validate", "--root", str(bad_site), "--format", "json"])
    assert result.code == 1
    problems = json.loads(result.out)
    assert isinstance(problems, list)
    assert len(problems) >= 5
    for problem in problems:
        assert list(problem) == ["path", "line", "slug", "rule", "message", "severity"]
        assert problem["severity"] == "error"
        assert isinstance(problem["path"], str)
        assert isinstance(problem["line"], int)
        assert isinstance(problem["rule"], str)
        assert problem["rule"]
        assert problem["message"]
    # The message as a second, independent run prints it for people: PATH:LINE: SUBJECT: MESSAGE.
    fixture_line = line_of(FAILING_FIXTURE, "def failing")
    prefix = f"articles/lab.py:{fixture_line}: fixture lab:failing: "
    text = run_cli(["validate", "--root", str(bad_site)])
    (message,) = [x.removeprefix(prefix) for x in text.err.splitlines() if x.startswith(prefix)]
    assert "sameEffect = false" in message
    fixture = [p for p in problems if p["path"] == "articles/lab.py"]
    assert fixture == [
        {
            "path": "articles/lab.py",
            "line": fixture_line,
            "slug": "fixture lab:failing",
            "rule": "fixture",
            "message": message,
            "severity": "error",
        }
    ]
    assert {p["slug"] for p in problems if p["path"] == "articles/bad.py"} == {"Bad Slug"}


def test_validate_format_json_on_a_good_site_is_an_empty_list(good_site: Path, run_cli: RunCli) -> None:
    result = run_cli(["validate", "--root", str(good_site), "--format", "json"])
    assert result.code == 0
    assert json.loads(result.out) == []


ANNOTATION = re.compile(r"^::error file=(?P<file>[^,:]+),line=(?P<line>\d+)(,[^:]*)?::(?P<message>.+)$")


def test_validate_format_github(bad_site: Path, run_cli: RunCli) -> None:
    result = run_cli(["validate", "--root", str(bad_site), "--format", "github"])
    assert result.code == 1
    lines = result.out.splitlines()
    assert len(lines) >= 5
    found = [ANNOTATION.match(x) for x in lines]
    assert all(found), lines
    fixture = [m for m in found if m and m["file"] == "articles/lab.py"]
    assert len(fixture) == 1
    assert int(fixture[0]["line"]) == line_of(FAILING_FIXTURE, "def failing")
    assert "sameEffect" in fixture[0]["message"]
    assert {m["file"] for m in found if m} == {"articles/bad.py", "articles/lab.py"}


def test_validate_format_github_on_a_good_site_prints_nothing(good_site: Path, run_cli: RunCli) -> None:
    result = run_cli(["validate", "--root", str(good_site), "--format", "github"])
    assert (result.code, result.out) == (0, "")


def test_validate_unknown_format_is_a_usage_error(good_site: Path, run_cli: RunCli) -> None:
    result = run_cli(["validate", "--root", str(good_site), "--format", "xml"])
    assert result.code == 2
    assert result.out == ""
    assert "xml" in result.err


# --- verify -----------------------------------------------------------------------------------------


def test_verify_json_shape(good_site: Path, run_cli: RunCli) -> None:
    result = run_cli(["verify", "--root", str(good_site)])
    assert result.code == 0, result.err
    (item,) = json.loads(result.out)
    assert set(item) >= {"id", "path", "line", "status", "duration", "output", "error", "verifiedOutputs"}
    assert item["id"] == "alpha:effects"
    assert item["path"] == "articles/alpha.py"
    assert item["line"] == line_of(ALPHA, "def effects")
    assert item["status"] == "passed"
    assert isinstance(item["duration"], int | float)
    assert 0 <= item["duration"] < 5
    assert item["output"] == {"effects": 1, "checks": {"onlyOneEffect": True}}
    assert item["error"] is None
    (claim,) = item["verifiedOutputs"]
    assert claim["slug"] == "zeta-first-in-list"
    assert claim["path"] == "articles/alpha.py"
    assert claim["line"] == line_of(ALPHA, "verified_output(")


def test_verify_failed_fixture_shape(make_site: MakeSite, run_cli: RunCli) -> None:
    root = make_site({"articles/lab.py": FAILING_FIXTURE})
    result = run_cli(["verify", "--root", str(root)])
    assert result.code == 1
    (item,) = json.loads(result.out)
    assert (item["id"], item["status"]) == ("lab:failing", "failed")
    assert "sameEffect" in item["error"]
    assert item["output"] == {"checks": {"sameEffect": False}}
    assert f"articles/lab.py:{line_of(FAILING_FIXTURE, 'def failing')}: fixture lab:failing: " in result.err


def test_verify_unknown_id_is_a_usage_error(good_site: Path, run_cli: RunCli) -> None:
    result = run_cli(["verify", "--root", str(good_site), "alpha:nope"])
    assert result.code == 2
    assert result.out == ""
    assert "alpha:nope" in result.err


# --- revisions --------------------------------------------------------------------------------------


def test_revisions_prints_a_json_array_in_site_order(good_site: Path, run_cli: RunCli) -> None:
    result = run_cli(["revisions", "--root", str(good_site)])
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert [r["slug"] for r in data] == SITE_ORDER
    assert [r["batch"] for r in data] == ["alpha", "alpha", "beta"]
    assert result.out.endswith("\n")


def test_revisions_slug_filter_is_repeatable(good_site: Path, run_cli: RunCli) -> None:
    result = run_cli(
        [
            "revisions",
            "--root",
            str(good_site),
            "--slug",
            "aaa-in-second-batch",
            "--slug",
            "zeta-first-in-list",
        ]
    )
    assert result.code == 0, result.err
    assert [r["slug"] for r in json.loads(result.out)] == ["zeta-first-in-list", "aaa-in-second-batch"]

    one = run_cli(["revisions", "--root", str(good_site), "--slug", "beta-second-in-list"])
    assert [r["slug"] for r in json.loads(one.out)] == ["beta-second-in-list"]


def test_revisions_unknown_slug_is_a_usage_error(good_site: Path, run_cli: RunCli) -> None:
    result = run_cli(["revisions", "--root", str(good_site), "--slug", "no-such-slug"])
    assert (result.code, result.out) == (2, "")
    assert result.err == "site-builder: no revision with slug no-such-slug\n"


def test_revisions_indent_0_is_one_line(good_site: Path, run_cli: RunCli) -> None:
    compact = run_cli(["revisions", "--root", str(good_site), "--indent", "0"])
    pretty = run_cli(["revisions", "--root", str(good_site)])
    assert compact.code == pretty.code == 0
    assert compact.out.count("\n") == 1
    assert compact.out.endswith("]\n")
    assert pretty.out.count("\n") > 10
    assert json.loads(compact.out) == json.loads(pretty.out)


def test_revisions_indent_4(good_site: Path, run_cli: RunCli) -> None:
    result = run_cli(["revisions", "--root", str(good_site), "--indent", "4"])
    assert result.code == 0
    assert result.out.startswith('[\n    {\n        "slug": ')


def test_revisions_on_an_invalid_site_prints_only_problems(bad_site: Path, run_cli: RunCli) -> None:
    result = run_cli(["revisions", "--root", str(bad_site)])
    assert result.code == 1
    assert result.out == ""
    assert "articles/bad.py:" in result.err
    # Fixtures are not run by `revisions`: the failing one is not reported.
    assert "lab:failing" not in result.err


def test_revisions_does_not_run_fixtures(make_site: MakeSite, run_cli: RunCli, tmp_path: Path) -> None:
    marker = tmp_path / "fixture-ran"
    text = BETA + (
        f"\n\n@fixture\ndef writes():\n    open({str(marker)!r}, 'w').close()\n"
        '    return {"checks": {"ok": False}}\n'
    )
    root = make_site({"articles/beta.py": text})
    result = run_cli(["revisions", "--root", str(root)])
    assert result.code == 0, result.err
    assert [r["slug"] for r in json.loads(result.out)] == ["aaa-in-second-batch"]
    assert not marker.exists()


def test_revisions_negative_indent_is_a_usage_error(good_site: Path, run_cli: RunCli) -> None:
    result = run_cli(["revisions", "--root", str(good_site), "--indent", "-1"])
    assert (result.code, result.out) == (2, "")


# --- usage errors -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["publish"],
        ["validate", "--bogus"],
        ["revisions", "--indent", "two"],
        ["verify", "--format", "json"],
        [],
    ],
    ids=["unknown-command", "unknown-option", "bad-int", "option-of-another-command", "no-command"],
)
def test_usage_errors_exit_2(good_site: Path, run_cli: RunCli, argv: list[str]) -> None:
    result = run_cli([*argv, "--root", str(good_site)] if argv else [])
    assert result.code == 2
    assert result.out == ""
    assert result.err.strip()


# Every mistake of the command line itself exits 2 with one message naming it, and writes nothing.
# Placeholders: SITE is the good site, EMPTY a folder without pyproject.toml, OTHER a folder whose
# pyproject.toml has no [tool.site_builder], HYPHEN one whose has [tool.site-builder] (the command's
# name) instead, FILE a file, ARTICLES the site's articles folder.
USAGE_ERRORS = [
    ("revisions-unknown-slug", ["revisions", "--slug", "beta-second-in-lis"],
     "no revision with slug beta-second-in-lis; did you mean 'beta-second-in-list'?"),
    ("revisions-two-unknown-slugs", ["revisions", "--slug", "nope", "--slug", "zeta-first-in-lst"],
     "no revision with slug nope\nsite-builder: no revision with slug zeta-first-in-lst; "
     "did you mean 'zeta-first-in-list'?"),
    ("revisions-negative-indent", ["revisions", "--indent", "-1"], "--indent must be 0 or more"),
    ("verify-unknown-id", ["verify", "alpha:efects"],
     "unknown fixture id alpha:efects; did you mean 'alpha:effects'?"),
    ("verify-far-id", ["verify", "alpha:nope"], "unknown fixture id alpha:nope; the site has: alpha:effects"),
    ("root-without-pyproject", ["validate", "--root", "EMPTY"],
     "--root EMPTY: no pyproject.toml with [tool.site_builder] in this folder"),
    ("root-with-another-pyproject", ["build", "--root", "OTHER"],
     "--root OTHER: no pyproject.toml with [tool.site_builder] in this folder"),
    ("root-with-the-command-s-name-as-table", ["build", "--root", "HYPHEN"],
     "--root HYPHEN: no pyproject.toml with [tool.site_builder] in this folder; "
     "it has [tool.site-builder]: did you mean [tool.site_builder]?"),
    ("serve-root-without-pyproject", ["serve", "--root", "EMPTY"],
     "--root EMPTY: no pyproject.toml with [tool.site_builder] in this folder"),
    ("root-is-a-file", ["revisions", "--root", "FILE"], "--root FILE: not a folder"),
    ("out-is-the-site", ["build", "--out", "SITE"],
     "the output folder SITE would replace the site itself; choose another --out"),
    ("out-is-a-file", ["build", "--out", "FILE"], "the output folder FILE is a file; choose another --out"),
    ("out-is-the-articles", ["build", "--out", "ARTICLES"],
     "the output folder ARTICLES overlaps the site's articles/ folder; choose another --out"),
    ("out-inside-the-assets", ["build", "--out", "SITE/assets/site"],
     "the output folder SITE/assets/site overlaps the site's assets/ folder; choose another --out"),
    ("new-bad-slug", ["new", "Bad Slug"], "slug 'Bad Slug' must be 3 to 120 characters of a-z, 0-9 and '-'"),
    ("serve-port-out-of-range", ["serve", "--port", "65536"],
     "usage: …\nsite-builder serve: error: argument --port: must be 0 to 65535"),
    ("build-jobs-0", ["build", "--jobs", "0"],
     "usage: …\nsite-builder build: error: argument --jobs: must be 1 or more"),
    ("command-mistyped", ["bulid"],
     "usage: …\nsite-builder: error: unknown command 'bulid'; did you mean 'build'?"),
    ("command-unknown", ["publish"],
     "usage: …\nsite-builder: error: unknown command 'publish' "
     "(commands: validate, verify, build, serve, revisions, check-sources, init, new)"),
    ("option-mistyped", ["build", "--drafs"],
     "usage: …\nsite-builder build: error: unrecognized option '--drafs'; did you mean '--drafts'?"),
    ("option-with-its-value-mistyped", ["build", "--jbos=2"],
     "usage: …\nsite-builder build: error: unrecognized option '--jbos'; did you mean '--jobs'?"),
    ("option-of-the-command-line-mistyped", ["revisions", "--no-wiat"],
     "usage: …\nsite-builder revisions: error: unrecognized option '--no-wiat'; did you mean '--no-wait'?"),
    ("option-unknown", ["validate", "--bogus"],
     "usage: …\nsite-builder validate: error: unrecognized option '--bogus'"),
    ("argument-unexpected", ["build", "extra"],
     "usage: …\nsite-builder build: error: unrecognized arguments: extra"),
]  # fmt: skip


@pytest.mark.parametrize(("argv", "message"), [c[1:] for c in USAGE_ERRORS], ids=[c[0] for c in USAGE_ERRORS])
def test_every_usage_error_exits_2_with_its_message(
    good_site: Path, run_cli: RunCli, tmp_path: Path, argv: list[str], message: str
) -> None:
    (tmp_path / "empty").mkdir()
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "pyproject.toml").write_text('[project]\nname = "x"\n', "utf-8")
    (tmp_path / "hyphen").mkdir()
    (tmp_path / "hyphen" / "pyproject.toml").write_text('[tool.site-builder]\ntitle = "x"\n', "utf-8")
    (tmp_path / "a-file").write_text("", "utf-8")
    places = {
        "SITE": str(good_site),
        "EMPTY": str(tmp_path / "empty"),
        "OTHER": str(tmp_path / "other"),
        "HYPHEN": str(tmp_path / "hyphen"),
        "FILE": str(tmp_path / "a-file"),
        "ARTICLES": str(good_site / "articles"),
    }

    def placed(text: str) -> str:
        for name, path in places.items():
            text = text.replace(name, path)
        return text

    argv = [placed(arg) for arg in argv]
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    result = run_cli(argv if "--root" in argv else [*argv, "--root", str(good_site)])
    assert (result.code, result.out) == (2, "")
    expected = placed(message)
    if expected.startswith("usage: …\n"):  # argparse's: its usage (wrapped to the terminal), then the error
        prog = expected.splitlines()[-1].split(": error: ")[0]  # the command's parser, or the top level's
        assert result.err.startswith(f"usage: {prog} ")
        assert result.err.splitlines()[-1] == expected.splitlines()[-1]
    else:
        assert result.err == f"site-builder: {expected}\n"
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before  # nothing written


def test_no_site_found_is_a_usage_error(
    tmp_path: Path, run_cli: RunCli, monkeypatch: pytest.MonkeyPatch
) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    monkeypatch.chdir(empty)
    result = run_cli(["validate"])
    assert result.out == ""
    assert "pyproject.toml" in result.err
    assert "Traceback" not in result.err
    assert result.code == 2


def test_a_table_named_like_the_command_is_named_in_the_error_from_a_folder_below(
    tmp_path: Path, run_cli: RunCli, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "x"\n\n[tool.site-builder]\ntitle = "x"\n', "utf-8"
    )
    (tmp_path / "articles").mkdir()
    monkeypatch.chdir(tmp_path / "articles")
    result = run_cli(["build"])
    assert (result.code, result.out) == (2, "")
    assert result.err == (
        f"site-builder: no pyproject.toml with [tool.site_builder] in {tmp_path / 'articles'} or above; "
        f"{tmp_path / 'pyproject.toml'} has [tool.site-builder]: did you mean [tool.site_builder]?\n"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["articles", "pyproject.toml"]


@pytest.mark.parametrize("kind", ["file", "missing"])
def test_root_that_is_not_a_folder_is_a_usage_error(
    good_site: Path, run_cli: RunCli, tmp_path: Path, kind: str
) -> None:
    root = good_site / "pyproject.toml" if kind == "file" else tmp_path / "missing"
    result = run_cli(["revisions", "--root", str(root)])
    assert result.code == 2
    assert result.out == ""
    assert str(root) in result.err


# --- the real process ---------------------------------------------------------------------------------


def python_m(root: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "site_builder", "revisions", "--root", str(root), *args],
        capture_output=True,
        timeout=60,
        check=False,
        env=env,
    )


def test_python_m_prints_the_same_bytes_as_cli_main(good_site: Path, run_cli: RunCli) -> None:
    in_process = run_cli(["revisions", "--root", str(good_site)])
    done = python_m(good_site)
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout == in_process.out.encode("utf-8")
    text = done.stdout.decode("utf-8")
    assert "Метод" in text
    assert "Проверяемые источники" in text
    assert "\\u04" not in text


def test_output_is_utf8_whatever_the_locale(good_site: Path) -> None:
    env = {**os.environ, "PYTHONIOENCODING": "ascii", "LC_ALL": "C", "PYTHONUTF8": "0"}
    ascii_run = python_m(good_site, env=env)
    default_run = python_m(good_site)
    assert ascii_run.returncode == 0, ascii_run.stderr.decode()
    assert ascii_run.stdout == default_run.stdout
    assert "Зета".encode() in ascii_run.stdout
