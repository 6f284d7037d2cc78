"""Categories written two ways: an error when both spellings name one page (``Backend`` and
``backend``), a warning when they are merely close (``Postgres`` and ``Postgre``).

A warning is printed everywhere a problem is (text, ``--format json``, ``--format github``,
``build``, the pytest plugin) but fails nothing: ``validate`` and ``build`` exit 0 and the
site is written. Each is reported at the line where the doubtful spelling is written.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.sites import HEADER, SETTINGS, MakeSite, RunCli

SOURCES = (
    '    sources=[Source(title="A", url="https://a.example/", note="a"),\n'
    '             Source(title="B", url="https://b.example/", note="b")],\n'
)


def revision_text(slug: str, categories: str) -> str:
    return (
        f'revision(\n    slug="{slug}", title="T", excerpt="E.", published="2024-01-02",\n'
        f"    categories={categories},\n"
        '    body=[paragraph("Enough words to pass the tiny limit of this test site.")],\n' + SOURCES + ")"
    )


def batch(*revisions: tuple[str, str]) -> str:
    parts = [f"r{n} = {revision_text(slug, cats)}\n" for n, (slug, cats) in enumerate(revisions)]
    names = ", ".join(f"r{n}" for n in range(len(revisions)))
    return HEADER + "\n" + "\n".join(parts) + f"\nrevisions = [{names}]\n"


def line_of(text: str, needle: str) -> int:
    (line,) = [n for n, x in enumerate(text.splitlines(), 1) if needle in x]
    return line


FIRST = batch(
    ("postgres-one", '["Postgres", "Python 2", "IPv4"]'),
    ("postgres-two", '["Postgres", "Backend", "MySQL"]'),
)
SECOND = batch(
    ("typo-and-case", '[\n        "Postgre",\n        "backend",\n    ]'),
    ("versions", '["Python 3", "IPv6", "MSSQL"]'),
)
WARNING_ONLY = batch(("typo-only", '[\n        "Postgre",\n        "Python 3",\n    ]'))
POSTGRE = line_of(SECOND, '"Postgre"')
BACKEND_LINES = (line_of(SECOND, '"backend"'), line_of(FIRST, '"Backend"'))
POSTGRES_LINE = line_of(FIRST, '"Postgres", "Python')
SAME_PAGE = (
    f"articles/b_second.py:{BACKEND_LINES[0]}: typo-and-case: category 'backend' and 'Backend' "
    f"(articles/a_first.py:{BACKEND_LINES[1]}) name one page; did you mean 'Backend'?"
)
NEAR = (
    f"category 'Postgre' looks like 'Postgres' (articles/a_first.py:{POSTGRES_LINE}) "
    "but makes a page of its own; did you mean 'Postgres'?"
)


@pytest.fixture
def mixed_site(make_site: MakeSite) -> Path:
    return make_site({"articles/a_first.py": FIRST, "articles/b_second.py": SECOND})


@pytest.fixture
def warning_site(make_site: MakeSite) -> Path:
    return make_site({"articles/a_first.py": FIRST, "articles/b_second.py": WARNING_ONLY})


def test_one_page_two_spellings_is_an_error_a_close_spelling_a_warning(
    mixed_site: Path, run_cli: RunCli
) -> None:
    result = run_cli(["validate", "--root", str(mixed_site)])
    assert result.code == 1
    assert result.err.splitlines() == [
        f"articles/b_second.py:{POSTGRE}: typo-and-case: warning: {NEAR}",
        SAME_PAGE,
        "1 problem and 1 warning found",
    ]
    # Digits apart (Python 2/3, IPv4/IPv6) and MySQL/MSSQL (below the cutoff) are different categories.


def test_a_warning_fails_nothing_and_is_printed_as_a_warning(warning_site: Path, run_cli: RunCli) -> None:
    line = line_of(WARNING_ONLY, '"Postgre"')
    text = f"articles/b_second.py:{line}: typo-only: warning: {NEAR}"
    result = run_cli(["validate", "--root", str(warning_site)])
    assert result.code == 0
    assert result.err.splitlines() == [text, "1 warning found", "ok: 3 revisions valid, 0 fixtures passed"]

    as_json = run_cli(["validate", "--root", str(warning_site), "--format", "json"])
    assert as_json.code == 0
    assert json.loads(as_json.out) == [
        {
            "path": "articles/b_second.py",
            "line": line,
            "slug": "typo-only",
            "rule": "category-spelling",
            "message": NEAR,
            "severity": "warning",
        }
    ]
    assert list(json.loads(as_json.out)[0]) == ["path", "line", "slug", "rule", "message", "severity"]

    github = run_cli(["validate", "--root", str(warning_site), "--format", "github"])
    assert github.code == 0
    message = NEAR.replace("%", "%25")
    assert github.out == (
        f"::warning file=articles/b_second.py,line={line},title=category-spelling::typo-only: {message}\n"
    )


def test_build_with_a_warning_writes_the_site_and_says_the_warning_every_time(
    warning_site: Path, run_cli: RunCli
) -> None:
    line = line_of(WARNING_ONLY, '"Postgre"')
    text = f"articles/b_second.py:{line}: typo-only: warning: {NEAR}"
    first = run_cli(["build", "--root", str(warning_site)])
    assert first.code == 0, first.err
    assert first.err.splitlines()[:2] == [text, "1 warning found"]
    assert first.err.splitlines()[2].startswith("built 3 revisions")
    assert (warning_site / "build" / "categories" / "postgre" / "index.html").is_file()
    again = run_cli(["build", "--root", str(warning_site)])  # nothing changed: the warning stays
    assert again.code == 0
    assert again.err.splitlines()[:2] == [text, "1 warning found"]
    assert again.err.splitlines()[2].startswith("nothing changed since the last build")


def test_revisions_prints_the_warning_on_stderr_and_the_json_on_stdout(
    warning_site: Path, run_cli: RunCli
) -> None:
    result = run_cli(["revisions", "--root", str(warning_site)])
    assert result.code == 0
    assert [r["slug"] for r in json.loads(result.out)] == ["postgres-one", "postgres-two", "typo-only"]
    assert "warning: category 'Postgre'" in result.err


def test_the_spelling_used_most_is_the_right_one(make_site: MakeSite, run_cli: RunCli) -> None:
    """``Postgre`` comes first in site order, but ``Postgres`` is used twice: ``Postgre`` is doubted."""
    first = batch(("typo-first", '[\n        "Postgre",\n    ]'))
    root = make_site({"articles/a_first.py": first, "articles/b_second.py": FIRST})
    result = run_cli(["validate", "--root", str(root), "--format", "json"])
    (problem,) = json.loads(result.out)
    assert (problem["path"], problem["line"], problem["slug"]) == (
        "articles/a_first.py",
        line_of(first, '"Postgre"'),
        "typo-first",
    )
    assert problem["message"].startswith("category 'Postgre' looks like 'Postgres' (articles/b_second.py:")


def test_a_category_from_a_variable_is_reported_at_the_categories_line(
    make_site: MakeSite, run_cli: RunCli
) -> None:
    text = batch(("from-a-variable", "CATEGORIES")).replace("\nr0 = ", '\nCATEGORIES = ["postgres"]\nr0 = ')
    root = make_site({"articles/a_first.py": FIRST, "articles/b_second.py": text})
    result = run_cli(["validate", "--root", str(root), "--format", "json"])
    (problem,) = json.loads(result.out)
    assert (problem["line"], problem["rule"]) == (
        line_of(text, "categories=CATEGORIES"),
        "category-same-page",
    )


def test_each_revision_of_a_list_is_reported_at_its_own_string(make_site: MakeSite, run_cli: RunCli) -> None:
    """Two revisions written inside one list, the second spelling in each: each at its own line."""
    one, two = (
        revision_text("list-one", '["postgre"]'),
        revision_text("list-two", '[\n        "Postgre",\n    ]'),
    )
    text = HEADER + f"\nrevisions = [\n{one},\n{two},\n]\n"
    root = make_site({"articles/a_first.py": FIRST, "articles/b_second.py": text})
    result = run_cli(["validate", "--root", str(root), "--format", "json"])
    found = [(p["slug"], p["line"], p["rule"]) for p in json.loads(result.out)]
    assert found == [
        ("list-one", line_of(text, '["postgre"]'), "category-spelling"),
        ("list-two", line_of(text, '"Postgre",'), "category-spelling"),
    ]


def run_plugin(pytester: pytest.Pytester, second: str) -> pytest.RunResult:
    """pytest on a site of FIRST and ``second``, in a process of its own."""
    pytester.makefile(".toml", pyproject=SETTINGS)
    articles = pytester.mkdir("articles")
    (articles / "a_first.py").write_text(FIRST, "utf-8")
    (articles / "b_second.py").write_text(second, "utf-8")
    return pytester.runpytest_subprocess("-p", "no:cacheprovider")


def test_the_pytest_plugin_shows_a_warning_and_passes(pytester: pytest.Pytester) -> None:
    result = run_plugin(pytester, WARNING_ONLY)
    result.assert_outcomes(passed=4, warnings=1)
    line = line_of(WARNING_ONLY, '"Postgre"')
    result.stdout.fnmatch_lines([f"*articles/b_second.py:{line}: SiteWarning: typo-only: {NEAR}"])


def test_the_pytest_plugin_fails_on_a_same_page_spelling(pytester: pytest.Pytester) -> None:
    result = run_plugin(pytester, SECOND)
    result.assert_outcomes(passed=4, failed=1, warnings=1)
    result.stdout.fnmatch_lines([SAME_PAGE])
