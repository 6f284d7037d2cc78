"""One tiny site per validation rule, each with exactly one problem at an exact file and line.

Every site under ``tests/sites/invalid_<rule>/`` is valid but for the one mistake its name
names, so the test pins the whole problem line: file, line, subject and message.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import SITES, RunCli

R = "articles/post.py"
"""Every one-batch site keeps its revision at line 8, the extra line at 5 and the extra block at 16."""
SCHEMES = "use https:, http:, mailto:, /path or #fragment"

CASES: list[tuple[str, str]] = [
    # --- revision fields
    ("slug_format", f"{R}:8: Bad Slug: slug 'Bad Slug' must be 3 to 120 characters of a-z, 0-9 and '-'"),
    (
        "slug_duplicate",
        "articles/b_second.py:8: same-post: slug 'same-post' is already used at articles/a_first.py:8",
    ),
    ("missing_field", f"{R}:8: sample-post: missing required field 'excerpt'"),
    ("unknown_field", f"{R}:8: sample-post: unknown field 'reading_minute'; did you mean 'reading_minutes'?"),
    ("field_type", f"{R}:8: sample-post: title must be a str, not int"),
    ("no_category", f"{R}:8: sample-post: at least one category is required"),
    ("published_date", f"{R}:8: sample-post: published '2024-02-30' is not an ISO date like 2020-06-18"),
    ("lang", f"{R}:8: sample-post: lang 'english' is not a language tag like 'en' or 'ru'"),
    # --- body
    ("body_too_short", f"{R}:8: sample-post: body is 10 characters; at least 20 are required"),
    ("body_too_long", f"{R}:8: sample-post: body is 93 characters; at most 80 are allowed"),
    (
        "body_plain_str",
        f"{R}:8: sample-post: body item 2 is plain text; wrap it in paragraph() or markdown()",
    ),
    ("helper_type", f"{R}:16: sample-post: paragraph(): the text must be a str or Markup, not int"),
    ("figure_no_alt", f"{R}:16: sample-post: figure(): alt text is required and must not be empty"),
    ("figure_no_caption", f"{R}:16: sample-post: figure(): a caption is required and must not be empty"),
    ("table_ragged_row", f"{R}:16: sample-post: data_table(): row 2 has 3 cells; the header has 2"),
    (
        "verified_not_fixture",
        f"{R}:16: sample-post: verified_output(): the first argument must be a @fixture function, "
        "not function",
    ),
    # --- sources
    ("too_few_sources", f"{R}:8: sample-post: cites 1 source; at least 2 are required"),
    ("source_missing_note", f"{R}:5: sample-post: source 3 needs a non-empty note"),
    ("source_duplicate_url", f"{R}:5: sample-post: source 3 repeats the URL 'https://a.example/'"),
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
    (
        "cover_not_in_assets",
        f"{R}:8: sample-post: '/images/cover.svg' is neither a file under assets/ nor a page of the site",
    ),
    # --- batches that do not load
    ("import_syntax_error", f"{R}:5: batch post: cannot import: SyntaxError: invalid syntax"),
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
    # --- settings
    ("settings_unknown_key", "pyproject.toml:7: settings: unknown key 'min_source'"),
    ("settings_wrong_type", "pyproject.toml:7: settings: description must be str, not int"),
    ("settings_missing_key", "pyproject.toml:1: settings: missing required key 'title'"),
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
    (
        "fixture_drift",
        f"{R}:21: sample-post: verified_output of post:answer does not match what it returns: "
        "$.answer: the article prints 42, the fixture returns 41",
    ),
]


def problem_lines(err: str) -> list[str]:
    """The problem lines of a validate run, without the closing count."""
    lines = err.splitlines()
    if lines and lines[-1].endswith(("problem found", "problems found")):
        lines = lines[:-1]
    return lines


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file below ``folder`` by relative path, with its bytes."""
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def test_every_invalid_site_is_in_the_table() -> None:
    on_disk = {p.name.removeprefix("invalid_") for p in SITES.glob("invalid_*")}
    assert on_disk == {rule for rule, _ in CASES}


@pytest.mark.parametrize(("rule", "expected"), CASES, ids=[rule for rule, _ in CASES])
def test_invalid_site_reports_its_one_problem(
    rule: str, expected: str, tmp_path: Path, run_cli: RunCli
) -> None:
    site = tmp_path / rule
    shutil.copytree(SITES / f"invalid_{rule}", site)
    previous = site / "build"
    (previous / "articles" / "old-post").mkdir(parents=True)
    (previous / "index.html").write_text("<!doctype html><title>previous build</title>\n", "utf-8")
    (previous / "articles" / "old-post" / "index.html").write_bytes(b"<p>old</p>\n\x00\xff")
    before = snapshot(previous)

    result = run_cli(["validate", "--root", str(site)])

    assert problem_lines(result.err) == [expected]
    assert result.err.splitlines()[-1] == "1 problem found"
    assert result.code == 1
    assert result.out == ""
    assert "Traceback" not in result.err + result.out
    assert snapshot(previous) == before
