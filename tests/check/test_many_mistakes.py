"""One site full of different author mistakes: every one is reported, none hides another.

``tests/sites/many_mistakes/`` has settings mistakes, seven batches (two that do not
import and one without ``revisions``) and fixtures that fail in every way the contract
names. The whole list of problems is pinned, each with its file and line.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.sites import HEADER, SITES, MakeSite, RunCli

SCHEMES = "use https:, http:, mailto:, /path or #fragment"
NOT_FOUND = "is neither a file under assets/ nor a page of the site"
MUST_RETURN = 'a fixture must return {"checks": {name: True, …}}'

EXPECTED = [
    # settings
    "pyproject.toml:1: settings: missing required key 'title'",
    "pyproject.toml:2: settings: base_url must be an absolute http(s) URL, not 'example.org'",
    "pyproject.toml:3: settings: language 'english' is not a language tag like 'en' or 'ru'",
    "pyproject.toml:4: settings: description must be str, not int",
    "pyproject.toml:7: settings: unknown key 'min_source'; did you mean 'min_sources'?",
    # revision fields: each at the line of the field itself (a missing one: at `revision(`)
    "articles/a_meta.py:10: Retry_Without_Effects: slug 'Retry_Without_Effects' must be 3 to 120 "
    "characters of a-z, 0-9 and '-'",
    "articles/a_meta.py:19: no-excerpt: missing required field 'excerpt'",
    "articles/a_meta.py:33: typo-field: unknown field 'publishd'; did you mean 'published'?",
    "articles/a_meta.py:41: wrong-types: reading_minutes must be a whole number of at least 1, not 0",
    "articles/a_meta.py:39: wrong-types: title must be a str, not int",
    "articles/a_meta.py:46: no-category: at least one category is required",
    "articles/a_meta.py:56: bad-date-and-lang: category 2 is empty",
    "articles/a_meta.py:59: bad-date-and-lang: lang 'english' is not a language tag like 'en' or 'ru'",
    "articles/a_meta.py:58: bad-date-and-lang: published '2024-02-30' is not an ISO date like 2020-06-18",
    "articles/a_meta.py:67: shared-slug: categories must be a list, not str",
    "articles/a_meta.py:66: shared-slug: title must not be empty",
    "articles/b_body.py:13: shared-slug: slug 'shared-slug' is already used at articles/a_meta.py:65; "
    "a later revision of that article gives revised= (its date) and changes= (what changed and why)",
    # body
    "articles/b_body.py:27: short-body: body is 5 characters; at least 20 are required",
    "articles/b_body.py:36: long-body: body is 389 characters; at most 300 are allowed",
    f"articles/b_body.py:44: helper-mistakes: '/images/cover.svg' {NOT_FOUND}",
    "articles/b_body.py:46: helper-mistakes: body item 7 is plain text; wrap it in paragraph() or markdown()",
    "articles/b_body.py:48: helper-mistakes: figure(): alt text is required and must not be empty",
    "articles/b_body.py:49: helper-mistakes: figure(): a caption is required and must not be empty",
    f"articles/b_body.py:50: helper-mistakes: '/assets/figures/circle.svg' {NOT_FOUND}",
    "articles/b_body.py:51: helper-mistakes: data_table(): row 2 has 1 cell; the header has 2",
    "articles/b_body.py:52: helper-mistakes: paragraph(): the text must be a str or Markup, not int",
    "articles/b_body.py:54: helper-mistakes: code_block(): language 'c plus plus' "
    "is not a name like 'python'",
    "articles/b_body.py:55: helper-mistakes: unordered_list(): a list needs at least one item",
    "articles/b_body.py:65: body-not-a-list: body must be a list, not Block",
    # sources and URLs
    "articles/c_sources.py:7: source-mistakes: source 3 needs a non-empty note",
    "articles/c_sources.py:8: source-mistakes: source 4 repeats the URL 'https://a.example/'",
    "articles/c_sources.py:9: source-mistakes: URL scheme 'ftp:' is not allowed in "
    f"'ftp://files.example/spec.txt'; {SCHEMES}",
    "articles/c_sources.py:20: one-source: cites 1 source; at least 2 are required",
    "articles/c_sources.py:37: url-mistakes: URL scheme 'vbscript:' is not allowed in "
    f"'vbscript:msgbox(1)'; {SCHEMES}",
    "articles/c_sources.py:38: url-mistakes: URL scheme 'javascript:' is not allowed in "
    f"'javascript:alert(1)'; {SCHEMES}",
    "articles/c_sources.py:39: url-mistakes: protocol-relative URL '//evil.example/page' is not allowed; "
    "write https://",
    # a link inside a helper call over several lines: at the line of the string that holds it
    "articles/c_sources.py:41: url-mistakes: relative URL 'notes.html' is not allowed; "
    "start it with '/' from the site root",
    f"articles/c_sources.py:42: url-mistakes: '/articles/no-such-post/' {NOT_FOUND}",
    # batches that do not load, without hiding the others
    "articles/d_broken.py:17: batch d_broken: cannot import: NameError: name 'paragrap' is not defined; "
    "did you mean 'paragraph'?",
    "articles/f_syntax.py:12: batch f_syntax: cannot import: SyntaxError: invalid syntax. "
    "Perhaps you forgot a comma?",
    "articles/g_no_list.py:1: batch g_no_list: defines no module-level list 'revisions'",
    # fixtures
    "articles/e_fixtures.py:12: fixture e_fixtures:false_check: checks failed: onlyOneEffect = false "
    "(each check must be true)",
    f'articles/e_fixtures.py:17: fixture e_fixtures:no_checks: returned no "checks": {MUST_RETURN}',
    'articles/e_fixtures.py:22: fixture e_fixtures:empty_checks: "checks" is empty; '
    "name at least one check that must be True",
    "articles/e_fixtures.py:27: fixture e_fixtures:truthy_check: checks failed: retried = 1 "
    "(each check must be true)",
    "articles/e_fixtures.py:36: fixture e_fixtures:raises: raised ZeroDivisionError: division by zero "
    "at articles/e_fixtures.py:37 in raises, articles/e_fixtures.py:32 in _divide",
    "articles/e_fixtures.py:42: fixture e_fixtures:not_json: returned a value that is not JSON: "
    "Object of type set is not JSON serializable",
    "articles/e_fixtures.py:47: fixture e_fixtures:not_a_dict: returned list, not a dict",
    "articles/e_fixtures.py:52: fixture e_fixtures:hangs: did not finish within 2 s "
    "at articles/e_fixtures.py:53 in hangs",  # where it was when its time was up
    "articles/e_fixtures.py:75: fixture-claims: verified_output of e_fixtures:drifted does not match "
    "what it returns: $.effects: the article prints 1, the fixture returns 2",
    "articles/e_fixtures.py:76: fixture-claims: verified_output(): the first argument must be "
    "a @fixture function, not function",
]


def problem_lines(err: str) -> list[str]:
    """The problem lines of a validate run, without the closing count."""
    lines = err.splitlines()
    assert lines[-1] == f"{len(lines) - 1} problems found"
    return lines[:-1]


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """A copy of the site, so that nothing a run leaves behind lands in the repository."""
    copy = tmp_path / "many_mistakes"
    shutil.copytree(SITES / "many_mistakes", copy)
    return copy


def test_the_site_has_at_least_thirty_different_mistakes() -> None:
    assert len(EXPECTED) == len(set(EXPECTED)) >= 30
    files = {line.split(":", 1)[0] for line in EXPECTED}
    assert len({f for f in files if f.startswith("articles/")}) >= 4


def test_every_mistake_is_reported_once(site: Path, run_cli: RunCli) -> None:
    result = run_cli(["validate", "--root", str(site)])

    assert sorted(problem_lines(result.err)) == sorted(EXPECTED)
    assert result.code == 1
    assert result.out == ""
    assert "Traceback" not in result.err


def test_problems_come_in_file_and_line_order(site: Path, run_cli: RunCli) -> None:
    lines = problem_lines(run_cli(["validate", "--root", str(site)]).err)

    located = [(path, int(line)) for path, line, _ in (text.split(":", 2) for text in lines)]
    assert located == sorted(located)


def test_a_real_process_reports_the_same(site: Path, tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "site_builder", "validate", "--root", str(site)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=tmp_path,
        timeout=60,
        check=False,
    )

    assert sorted(problem_lines(done.stderr)) == sorted(EXPECTED)
    assert done.returncode == 1
    assert done.stdout == ""
    assert "Traceback" not in done.stderr


def test_a_wrong_revisions_item_does_not_hide_the_other_revisions(
    make_site: MakeSite, run_cli: RunCli
) -> None:
    root = make_site(
        {
            "articles/mixed.py": HEADER
            + """
A = Source(title="A", url="https://a.example/", note="a")
B = Source(title="B", url="https://b.example/", note="b")

revisions = [
    revision(
        slug="Bad Slug",
        title="Bad slug",
        categories=["Notes"],
        excerpt="A slug with a space.",
        published="2024-01-02",
        body=[paragraph("Enough words to pass the tiny limit of this site.")],
        sources=[A, B],
    ),
    "not a revision",
]
"""
        }
    )

    result = run_cli(["validate", "--root", str(root)])

    assert result.code == 1
    assert sorted(problem_lines_any(result.err)) == [
        "articles/mixed.py:10: Bad Slug: slug 'Bad Slug' must be 3 to 120 characters of a-z, 0-9 and '-'",
        "articles/mixed.py:8: batch mixed: revisions item 2 is a str, not a revision(...)",
    ]


def problem_lines_any(err: str) -> list[str]:
    """Problem lines whatever the count: drops the closing summary line."""
    return [line for line in err.splitlines() if not line.endswith(("problem found", "problems found"))]
