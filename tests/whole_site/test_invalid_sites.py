"""One tiny site per author mistake, each with exactly one problem at an exact file and line.

Every site under ``tests/sites/invalid_<rule>/`` is valid but for the one mistake its name
names, so the test pins the whole problem line: file, line, subject and message. Each site
goes through ``validate`` and through ``build``: both exit 1 with that one line, print no
traceback, and leave a previous ``build/`` exactly as it was (bytes and mtimes), with no
staging folder left beside it and nothing written into the site by its fixtures.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from tests.support.sites import SITES, RunCli, tree

R = "articles/post.py"
"""Every one-batch site keeps its revision at line 8, the extra line at 5 and the extra block at 16.
A problem about one field is at the line of that field (``slug=`` at 9, ``body=`` at 14, ``sources=``
at 18, a field the site adds at 19); a missing field's, at the ``revision(`` line."""
SCHEMES = "use https:, http:, mailto:, /path or #fragment"
ROOT, TMP = "<ROOT>", "<TMP>"
"""Stand-ins for the site copy and the fixture workers' temporary directory in a message."""
FX = f"{R}:8: fixture post:answer"
"""Fixture sites define ``answer`` at line 8."""


def syntax_message(relative: str) -> str:
    """What the running Python says of the syntax error in the ``import_syntax_error`` site's
    batch: the problem line passes Python's words on, and they change between versions
    ("invalid syntax" in 3.11, "expected argument value expression" in 3.13)."""
    path = SITES / "invalid_import_syntax_error" / relative
    try:
        compile(path.read_text("utf-8"), str(path), "exec")
    except SyntaxError as exc:
        return str(exc.msg)
    raise AssertionError(f"{path} compiles")


CASES: list[tuple[str, str]] = [
    # --- revision fields
    ("slug_format", f"{R}:9: Bad Slug: slug 'Bad Slug' must be 3 to 120 characters of a-z, 0-9 and '-'"),
    (
        "slug_duplicate",
        "articles/b_second.py:9: same-post: slug 'same-post' is already used at articles/a_first.py:9; "
        "a later revision of that article gives revised= (its date) and changes= (what changed and why)",
    ),
    ("missing_field", f"{R}:8: sample-post: missing required field 'excerpt'"),
    (
        "unknown_field",
        f"{R}:19: sample-post: unknown field 'reading_minute'; did you mean 'reading_minutes'?",
    ),
    ("field_type", f"{R}:10: sample-post: title must be a str, not int"),
    ("no_category", f"{R}:11: sample-post: at least one category is required"),
    ("slug_empty", f"{R}:9: revision: slug must not be empty"),
    ("published_date", f"{R}:13: sample-post: published '2024-02-30' is not an ISO date like 2020-06-18"),
    ("published_empty", f"{R}:13: sample-post: published must not be empty"),
    ("lang", f"{R}:19: sample-post: lang 'english' is not a language tag like 'en' or 'ru'"),
    ("title_empty", f"{R}:10: sample-post: title must not be empty"),
    ("excerpt_empty", f"{R}:12: sample-post: excerpt must not be empty"),
    ("category_empty", f"{R}:11: sample-post: category 2 is empty"),
    ("category_type", f"{R}:11: sample-post: category 2 must be a str, not int"),
    ("categories_not_list", f"{R}:11: sample-post: categories must be a list, not str"),
    (
        "reading_minutes",
        f"{R}:19: sample-post: reading_minutes must be a whole number of at least 1, not 0",
    ),
    (
        "xml_character",
        f"{R}:12: sample-post: excerpt contains U+000C at character 9, which XML 1.0 forbids",
    ),
    # --- body
    ("body_too_short", f"{R}:14: sample-post: body is 10 characters; at least 20 are required"),
    ("body_too_long", f"{R}:14: sample-post: body is 93 characters; at most 80 are allowed"),
    (
        "body_plain_str",
        f"{R}:14: sample-post: body item 2 is plain text; wrap it in paragraph() or markdown()",
    ),
    ("body_item_type", f"{R}:14: sample-post: body item 2 is a Source, not a helper block"),
    ("body_not_list", f"{R}:14: sample-post: body must be a list, not Block"),
    ("helper_type", f"{R}:16: sample-post: paragraph(): the text must be a str or Markup, not int"),
    ("markdown_type", f"{R}:16: sample-post: markdown(): the text must be a str, not None"),
    (
        "code_block_language",
        f"{R}:16: sample-post: code_block(): language 'c plus plus' is not a name like 'python'",
    ),
    ("list_empty", f"{R}:16: sample-post: unordered_list(): a list needs at least one item"),
    ("table_no_headers", f"{R}:16: sample-post: data_table(): a table needs at least one header"),
    # One mistake, one problem: the empty src must not also be reported as "the URL is empty".
    ("figure_src_empty", f"{R}:16: sample-post: figure(): src must be a non-empty path, not ''"),
    (
        "figure_src_missing",
        f"{R}:16: sample-post: '/assets/missing.svg' is neither a file under assets/ nor a page of the site",
    ),
    ("figure_no_alt", f"{R}:16: sample-post: figure(): alt text is required and must not be empty"),
    ("figure_no_caption", f"{R}:16: sample-post: figure(): a caption is required and must not be empty"),
    ("table_ragged_row", f"{R}:16: sample-post: data_table(): row 2 has 3 cells; the header has 2"),
    (
        "verified_not_fixture",
        f"{R}:16: sample-post: verified_output(): the first argument must be a @fixture function, "
        "not function",
    ),
    # --- sources
    (
        "verified_expected_not_json",
        f"{R}:21: sample-post: verified_output(): expected is not a JSON value: "
        "Object of type set is not JSON serializable",
    ),
    (
        "verified_fixture_not_module_level",
        f"{R}:20: sample-post: verified_output uses post:hidden, which is not a fixture of a batch",
    ),
    ("too_few_sources", f"{R}:18: sample-post: cites 1 source; at least 2 are required"),
    ("source_missing_title", f"{R}:5: sample-post: source 3 needs a non-empty title"),
    ("source_missing_url", f"{R}:5: sample-post: source 3 needs a non-empty url"),
    ("source_missing_note", f"{R}:5: sample-post: source 3 needs a non-empty note"),
    ("source_duplicate_url", f"{R}:5: sample-post: source 3 repeats the URL 'https://a.example/'"),
    ("source_item_type", f"{R}:18: sample-post: source 3 must be a Source(...), not str"),
    (
        "source_url_scheme",
        f"{R}:5: sample-post: URL scheme 'ftp:' is not allowed in 'ftp://c.example/spec.txt'; {SCHEMES}",
    ),
    # --- URLs
    (
        "url_scheme",
        f"{R}:16: sample-post: URL scheme 'javascript:' is not allowed in 'javascript:alert(1)'; {SCHEMES}",
    ),
    (
        "url_protocol_relative",
        f"{R}:16: sample-post: protocol-relative URL '//evil.example/page' is not allowed; write https://",
    ),
    (
        "url_relative",
        f"{R}:16: sample-post: relative URL 'notes.html' is not allowed; "
        "start it with '/' from the site root",
    ),
    ("url_no_host", f"{R}:16: sample-post: URL 'https://' has no host"),
    (
        "cover_not_in_assets",
        f"{R}:19: sample-post: '/images/cover.svg' is neither a file under assets/ nor a page of the site",
    ),
    # --- batches that do not load
    ("import_syntax_error", f"{R}:5: batch post: cannot import: SyntaxError: {syntax_message(R)}"),
    ("import_exception", f"{R}:5: batch post: cannot import: RuntimeError: the batch is broken"),
    (
        "import_missing_module",
        f"{R}:5: batch post: cannot import: ModuleNotFoundError: No module named 'site_builder.extras'",
    ),
    (
        "import_not_utf8",
        f"{R}:5: batch post: cannot import: the file is not valid UTF-8 (byte 0xf6 at column 13)",
    ),
    ("no_revisions", f"{R}:1: batch post: defines no module-level list 'revisions'"),
    ("revisions_type", f"{R}:7: batch post: 'revisions' must be a list, not Revision"),
    (
        "import_not_utf8_comment",
        f"{R}:5: batch post: cannot import: the file is not valid UTF-8 (byte 0xf6 at column 18)",
    ),
    ("import_system_exit", f"{R}:5: batch post: cannot import: SystemExit: this batch is not ready"),
    ("revisions_item_type", f"{R}:7: batch post: revisions item 2 is a str, not a revision(...)"),
    # --- settings
    (
        "settings_unknown_key",
        "pyproject.toml:7: settings: unknown key 'min_source'; did you mean 'min_sources'?",
    ),
    ("settings_wrong_type", "pyproject.toml:7: settings: description must be str, not int"),
    ("settings_missing_key", "pyproject.toml:1: settings: missing required key 'title'"),
    (
        "settings_bad_base_url",
        "pyproject.toml:3: settings: base_url must be an absolute http(s) URL, not 'example.org'",
    ),
    (
        "settings_base_url_query",
        "pyproject.toml:3: settings: base_url must not have a query or a fragment, "
        "not 'https://user.github.io/repo/?lang=en'",
    ),
    (
        "settings_bad_language",
        "pyproject.toml:4: settings: language 'english' is not a language tag like 'en' or 'ru'",
    ),
    ("settings_min_over_max", "pyproject.toml:5: settings: min_body_chars is greater than max_body_chars"),
    (
        "settings_timeout_zero",
        "pyproject.toml:6: settings: fixture_timeout must be more than 0 seconds, not 0",
    ),
    (
        "settings_dir_outside",
        "pyproject.toml:7: settings: output_dir must be a folder inside the site root, not '../public'",
    ),
    ("settings_title_control", "pyproject.toml:2: settings: title contains U+0007, which XML 1.0 forbids"),
    (
        "settings_bad_repo_url",
        "pyproject.toml:5: settings: repo_url must be an absolute http(s) URL, not 'github.com/me/site'",
    ),
    (
        "settings_bad_source_uri",
        "pyproject.toml:6: settings: source_uri must be a path under repo_url like 'blob/main/', "
        "not '../blob/main/'",
    ),
    # --- fixtures (the def is at line 8, the verified_output at line 21)
    (
        "fixture_false_check",
        f"{R}:8: fixture post:answer: checks failed: isSmall = false (each check must be true)",
    ),
    (
        "fixture_no_checks",
        f'{R}:8: fixture post:answer: returned no "checks": a fixture must return '
        '{"checks": {name: True, …}}',
    ),
    (
        "fixture_exception",
        f"{R}:8: fixture post:answer: raised ValueError: no answer today at {R}:9 in answer",
    ),
    ("fixture_non_bool_check", f"{FX}: checks failed: isSmall = 1 (each check must be true)"),
    ("fixture_empty_checks", f'{FX}: "checks" is empty; name at least one check that must be True'),
    (
        "fixture_os_exit",
        f"{FX}: the worker exited with code 3 without returning (os._exit or a crash)",
    ),
    ("fixture_sys_exit", f"{FX}: raised SystemExit: giving up at {R}:9 in answer"),
    ("fixture_hang", f"{FX}: did not finish within 1 s at {R}:10 in answer"),
    (
        "fixture_not_json",
        f"{FX}: returned a value that is not JSON: Object of type set is not JSON serializable",
    ),
    ("fixture_not_dict", f"{FX}: returned list, not a dict"),
    (
        "fixture_recursion",
        f"{FX}: raised RecursionError: maximum recursion depth exceeded "
        f"at {R}:10 in answer, {R}:14 in deeper (×995)",
    ),
    (
        "fixture_huge_output",
        f"{FX}: returned 10,000,036 characters of JSON; at most 10,000,000 are allowed",
    ),
    (
        "fixture_network",
        f"{FX}: tried to open a network connection to '192.0.2.1' port 80 (refused: fixtures run offline)",
    ),
    (
        "fixture_write_outside",
        f"{FX}: tried to write to '{ROOT}/articles/leak.txt', outside its temporary directory "
        f"(tempfile.gettempdir()) at {R}:9 in answer",
    ),
    ("fixture_takes_argument", f"{FX}: a fixture takes no arguments; this one needs size"),
    (
        "fixture_drift",
        f"{R}:21: sample-post: verified_output of post:answer does not match what it returns: "
        "$.answer: the article prints 42, the fixture returns 41",
    ),
    (
        "transcript_drift",
        f"{R}:21: sample-post: transcript of post:answer does not match what it returns: "
        '$.transcript[1]: the article prints "42", the fixture returns "41"',
    ),
]


def problem_lines(err: str) -> list[str]:
    """The problem lines of a validate run, without the closing count."""
    lines = err.splitlines()
    if lines and lines[-1].endswith(("problem found", "problems found")):
        lines = lines[:-1]
    return lines


def stamped(folder: Path) -> dict[str, tuple[bytes | None, int]]:
    """``folder`` and everything below it: bytes (None for a folder) and mtime in nanoseconds."""
    return {
        p.relative_to(folder).as_posix(): (p.read_bytes() if p.is_file() else None, p.stat().st_mtime_ns)
        for p in [folder, *sorted(folder.rglob("*"))]
    }


def authored(site: Path, *, but: str = "build") -> set[str]:
    """The site's own files: not the output (nor ``but``), not Python's bytecode cache."""
    skipped = {"build", but}
    return {
        p.relative_to(site).as_posix()
        for p in site.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.parts[len(site.parts)] not in skipped
    }


@pytest.fixture
def worker_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The fixture workers' temporary directory: beside the site copies, not above them.

    pytest puts the copies under the system temporary directory, where a fixture may write;
    a real site lives elsewhere, so the workers get a temporary directory of their own.
    """
    folder = tmp_path / "worker-tmp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder.resolve()


def copy_with_previous_build(rule: str, tmp_path: Path) -> Path:
    """A copy of the site whose ``build/`` holds a previous site with old mtimes."""
    site = tmp_path / rule
    shutil.copytree(SITES / f"invalid_{rule}", site)
    previous = site / "build"
    (previous / "articles" / "old-post").mkdir(parents=True)
    (previous / "index.html").write_text("<!doctype html><title>previous build</title>\n", "utf-8")
    (previous / "articles" / "old-post" / "index.html").write_bytes(b"<p>old</p>\n\x00\xff")
    for path in [previous, *previous.rglob("*")]:
        os.utime(path, ns=(1_000_000_000_000_000_000, 1_000_000_000_000_000_000))
    return site


def spelled(expected: str, site: Path, worker_tmp: Path) -> str:
    return expected.replace(ROOT, str(site.resolve())).replace(TMP, str(worker_tmp))


IDS = [rule for rule, _ in CASES]


def test_every_invalid_site_is_in_the_table() -> None:
    on_disk = {p.name.removeprefix("invalid_") for p in SITES.glob("invalid_*")}
    assert on_disk == {rule for rule, _ in CASES}
    assert len(IDS) == len(set(IDS))


@pytest.mark.parametrize(("rule", "expected"), CASES, ids=IDS)
def test_invalid_site_reports_its_one_problem(
    rule: str, expected: str, tmp_path: Path, run_cli: RunCli, worker_tmp: Path
) -> None:
    site = copy_with_previous_build(rule, tmp_path)
    before, files = tree(site / "build"), authored(site)

    result = run_cli(["validate", "--root", str(site)])

    assert problem_lines(result.err) == [spelled(expected, site, worker_tmp)]
    assert result.err.splitlines()[-1] == "1 problem found"
    assert result.code == 1
    assert result.out == ""
    assert "Traceback" not in result.err + result.out
    assert tree(site / "build") == before
    assert authored(site) == files


@pytest.mark.parametrize(("rule", "expected"), CASES, ids=IDS)
def test_invalid_site_fails_the_build_and_keeps_the_previous_site(
    rule: str, expected: str, tmp_path: Path, run_cli: RunCli, worker_tmp: Path
) -> None:
    site = copy_with_previous_build(rule, tmp_path)
    # A build keeps what it learned of the batches that were fine in its cache.
    before, files = stamped(site / "build"), authored(site, but=".site-builder-cache")

    result = run_cli(["build", "--root", str(site)])

    assert result.err.splitlines() == [
        spelled(expected, site, worker_tmp),
        "1 problem found",
        "nothing was written; the previous site is untouched",
    ]
    assert result.code == 1
    assert result.out == ""
    assert "Traceback" not in result.err + result.out
    assert stamped(site / "build") == before
    assert sorted(p.name for p in site.iterdir() if p.name.startswith((".build", "build"))) == ["build"]
    assert authored(site, but=".site-builder-cache") == files
    assert not (site / "articles" / "leak.txt").exists()
