"""Every name an author types gets one "did you mean" when it is misspelt: setting keys (and
keys of a nav table), helper names that stop a batch's import, helper and source keywords
(problems at their call, beside the batch's others), fixture ids given to ``verify`` and slugs
given to ``revisions --slug``.

Each case pins the whole problem line (or usage message) and its exit code.
"""

from __future__ import annotations

from dataclasses import fields

import pytest

from site_builder.settings.project import Settings
from tests.support.sites import HEADER, SETTINGS, MakeSite, RunCli

SOURCES = (
    '    sources=[Source(title="A", url="https://a.example/", note="a"),\n'
    '             Source(title="B", url="https://b.example/", note="b")],\n'
)
GOOD = (
    HEADER
    + """

@fixture
def lost_response():
    return {"effects": 1, "checks": {"oneEffect": True}}


revisions = [revision(
    slug="retry-without-second-effect", title="Retry", categories=["HTTP"], excerpt="One effect.",
    published="2024-01-02",
    body=[paragraph("Enough words to pass the tiny limit of this test site."),
          verified_output(lost_response, expected={"effects": 1})],
"""
    + SOURCES
    + ")]\n"
)


def problem_lines(err: str) -> list[str]:
    return [line for line in err.splitlines() if not line.endswith(" found") and not line.startswith("ok:")]


# --- settings -----------------------------------------------------------------------------------


def test_a_misspelt_setting_key_names_the_key_meant(make_site: MakeSite, run_cli: RunCli) -> None:
    root = make_site({"articles/retry.py": GOOD}, SETTINGS + "min_source = 1\n")
    result = run_cli(["validate", "--root", str(root)])
    assert result.code == 1
    assert problem_lines(result.err) == [
        "pyproject.toml:7: settings: unknown key 'min_source'; did you mean 'min_sources'?"
    ]


@pytest.mark.parametrize("name", [f.name for f in fields(Settings)])
def test_every_setting_is_suggested_for_its_own_misspelling(
    make_site: MakeSite, run_cli: RunCli, name: str
) -> None:
    """Read from the Settings dataclass: a setting added later is suggested without more code."""
    typo = name[:-1]  # one letter short: "min_source", "titl", "na"
    root = make_site({"articles/retry.py": GOOD}, SETTINGS + f"{typo} = 1\n")
    result = run_cli(["validate", "--root", str(root)])
    assert f"pyproject.toml:7: settings: unknown key {typo!r}; did you mean {name!r}?" in result.err


def test_a_setting_far_from_every_key_gets_no_suggestion(make_site: MakeSite, run_cli: RunCli) -> None:
    root = make_site({"articles/retry.py": GOOD}, SETTINGS + "colour_scheme = 'dark'\n")
    result = run_cli(["validate", "--root", str(root)])
    assert problem_lines(result.err) == ["pyproject.toml:7: settings: unknown key 'colour_scheme'"]


def test_a_misspelt_settings_table_is_reported_at_its_header(make_site: MakeSite, run_cli: RunCli) -> None:
    root = make_site(
        {"articles/retry.py": GOOD}, SETTINGS + "\n[tool.site_builder.sources_headings]\nen = 'x'\n"
    )
    result = run_cli(["validate", "--root", str(root)])
    assert problem_lines(result.err) == [
        "pyproject.toml:8: settings: unknown key 'sources_headings'; did you mean 'sources_heading'?"
    ]


def test_a_misspelt_key_of_a_nav_table_is_reported_at_its_line(make_site: MakeSite, run_cli: RunCli) -> None:
    nav = '\n[[tool.site_builder.nav]]\nsectoin = "Start"\npages = [["retry-without-second-effect", "R"]]\n'
    root = make_site({"articles/retry.py": GOOD}, SETTINGS + nav)
    result = run_cli(["validate", "--root", str(root)])
    assert problem_lines(result.err) == [
        "pyproject.toml:9: settings: unknown key 'sectoin' in [[tool.site_builder.nav]]; "
        "did you mean 'section'?"
    ]


# --- names that stop a batch's import -------------------------------------------------------------

BATCH = "articles/post.py"
IMPORTS = "from site_builder import Source, code_block, paragraph, revision\n"

IMPORT_CASES = [
    pytest.param(
        IMPORTS + "\nx = paragrpah('text')\nrevisions = []\n",
        3,
        "NameError: name 'paragrpah' is not defined; did you mean 'paragraph'?",
        id="misspelt-helper",
    ),
    pytest.param(
        IMPORTS + "\nx = heading('text')\nrevisions = []\n",
        3,
        "NameError: name 'heading' is not defined; import it: from site_builder import heading",
        id="helper-not-imported",
    ),
    pytest.param(
        IMPORTS + "\nx = verified_outptu\nrevisions = []\n",
        3,
        "NameError: name 'verified_outptu' is not defined; did you mean 'verified_output'? "
        "(import it: from site_builder import verified_output)",
        id="misspelt-helper-not-imported",
    ),
    pytest.param(
        IMPORTS + "\n\ndef make_tabel():\n    return 1\n\n\nx = make_table()\nrevisions = []\n",
        8,
        "NameError: name 'make_table' is not defined; did you mean 'make_tabel'?",
        id="misspelt-name-of-the-batch",
    ),
    pytest.param(
        IMPORTS + "\nx = lenn([])\nrevisions = []\n",
        3,
        "NameError: name 'lenn' is not defined; did you mean 'len'?",
        id="misspelt-builtin",
    ),
    pytest.param(
        "from site_builder import paragrpah\nrevisions = []\n",
        1,
        "ImportError: cannot import name 'paragrpah' from 'site_builder'; did you mean 'paragraph'?",
        id="misspelt-import",
    ),
    pytest.param(
        "import site_builder\n\nx = site_builder.paragrpah('text')\nrevisions = []\n",
        3,
        "AttributeError: module 'site_builder' has no attribute 'paragrpah'; did you mean 'paragraph'?",
        id="misspelt-attribute",
    ),
    pytest.param(
        IMPORTS + "\ndef make(**options):\n    return options\n\n\nx = make(1)\nrevisions = []\n",
        7,
        "TypeError: make() takes 0 positional arguments but 1 was given",
        id="the-batch-s-own-function-still-stops-it",
    ),
]


@pytest.mark.parametrize(("text", "line", "message"), IMPORT_CASES)
def test_a_misspelt_name_at_import_names_the_one_meant(
    make_site: MakeSite, run_cli: RunCli, text: str, line: int, message: str
) -> None:
    root = make_site({BATCH: text, "articles/retry.py": GOOD})
    result = run_cli(["validate", "--root", str(root)])
    assert result.code == 1
    assert problem_lines(result.err) == [f"{BATCH}:{line}: batch post: cannot import: {message}"]
    # One suggestion, ours: never Python's own ("Did you mean: ...") beside it.
    assert result.err.count("did you mean") <= 1
    assert "Did you" not in result.err
    assert "Traceback" not in result.err


def test_the_suggestion_reaches_the_pytest_plugin(pytester: pytest.Pytester) -> None:
    pytester.makefile(".toml", pyproject=SETTINGS)
    articles = pytester.mkdir("articles")
    (articles / "post.py").write_text(IMPORTS + "\nx = paragrpah('text')\nrevisions = []\n", "utf-8")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1, passed=1)  # the batch, and the settings
    result.stdout.fnmatch_lines(
        [
            "articles/post.py:3: batch post: cannot import: NameError: name 'paragrpah' is not defined; "
            "did you mean 'paragraph'?"
        ]
    )


# --- ids and slugs on the command line ---------------------------------------------------------------


def test_verify_a_misspelt_fixture_id_is_a_usage_error_naming_the_id(
    make_site: MakeSite, run_cli: RunCli
) -> None:
    root = make_site({"articles/retry.py": GOOD})
    result = run_cli(["verify", "--root", str(root), "retry:lost_respons"])
    assert (result.code, result.out) == (2, "")
    assert result.err == (
        "site-builder: unknown fixture id retry:lost_respons; did you mean 'retry:lost_response'?\n"
    )


def test_verify_an_id_far_from_every_fixture_lists_the_fixtures(make_site: MakeSite, run_cli: RunCli) -> None:
    root = make_site({"articles/retry.py": GOOD})
    result = run_cli(["verify", "--root", str(root), "retry:jitter", "retyr:lost_response"])
    assert (result.code, result.out) == (2, "")
    assert result.err == (
        "site-builder: unknown fixture id retry:jitter; the site has: retry:lost_response\n"
        "site-builder: unknown fixture id retyr:lost_response; did you mean 'retry:lost_response'?\n"
    )


def test_revisions_a_misspelt_slug_is_a_usage_error_naming_the_slug(
    make_site: MakeSite, run_cli: RunCli
) -> None:
    root = make_site({"articles/retry.py": GOOD})
    result = run_cli(["revisions", "--root", str(root), "--slug", "retry-without-second-efect"])
    assert (result.code, result.out) == (2, "")
    assert result.err == (
        "site-builder: no revision with slug retry-without-second-efect; "
        "did you mean 'retry-without-second-effect'?\n"
    )


def test_revisions_a_slug_far_from_every_slug_gets_no_suggestion(
    make_site: MakeSite, run_cli: RunCli
) -> None:
    root = make_site({"articles/retry.py": GOOD})
    result = run_cli(["revisions", "--root", str(root), "--slug", "nope"])
    assert (result.code, result.out, result.err) == (2, "", "site-builder: no revision with slug nope\n")


# A wrong keyword of a helper or a Source: a problem at its call, the batch's others beside it.
HELPER_CASES = [
    pytest.param(
        'code_block("select 1",\n                     lang="sql")',
        "code_block(): unknown keyword 'lang'; did you mean 'language'?",
        id="misspelt-helper-keyword",
    ),
    pytest.param(
        'code_block("select 1", colour="red")',
        "code_block(): unknown keyword 'colour'; it takes code, language",
        id="keyword-far-from-every-parameter",
    ),
    pytest.param('figure("a.svg", "An image")', "figure(): missing 'caption'", id="missing-argument"),
    pytest.param('paragraph("One.", "Two.")', "paragraph(): takes 1 argument, not 2", id="one-too-many"),
    pytest.param(
        'paragraph("One.", text="Two.")',
        "paragraph(): 'text' is given twice, by position and by keyword",
        id="given-twice",
    ),
]


@pytest.mark.parametrize(("call", "message"), HELPER_CASES)
def test_a_helper_call_that_does_not_fit_is_a_problem_at_its_line_beside_the_batch_s_others(
    make_site: MakeSite, run_cli: RunCli, call: str, message: str
) -> None:
    text = GOOD.replace('published="2024-01-02",', 'published="2024-13-02",').replace(
        "body=[", f"body=[{call}, ", 1
    )
    root = make_site({"articles/retry.py": text})
    result = run_cli(["validate", "--root", str(root)])
    assert result.code == 1
    line = text.splitlines().index(next(x for x in text.splitlines() if "body=[" in x)) + 1
    assert problem_lines(result.err) == [
        f"articles/retry.py:{line - 1}: retry-without-second-effect: published '2024-13-02' is not an ISO "
        "date like 2020-06-18",
        f"articles/retry.py:{line}: retry-without-second-effect: {message}",
    ]


@pytest.mark.parametrize(
    ("written", "message"),
    [
        # Not also that the title is empty: one mistake, one line.
        ('Source(titel="B",', "source 2 has no field 'titel'; did you mean 'title'?"),
        (
            'Source(title="B", author="Ann",',
            "source 2 has no field 'author'; a source has title, url, note, quote",
        ),
    ],
    ids=["misspelt", "far-from-every-field"],
)
def test_a_source_keyword_it_does_not_have_is_one_problem_at_the_source(
    make_site: MakeSite, run_cli: RunCli, written: str, message: str
) -> None:
    text = GOOD.replace('Source(title="B",', written)
    root = make_site({"articles/retry.py": text})
    result = run_cli(["validate", "--root", str(root)])
    line = next(n for n, x in enumerate(text.splitlines(), 1) if written in x)
    assert problem_lines(result.err) == [f"articles/retry.py:{line}: retry-without-second-effect: {message}"]


def test_revision_fields_keep_their_suggestion(make_site: MakeSite, run_cli: RunCli) -> None:
    text = GOOD.replace('published="2024-01-02",', 'publishd="2024-01-02",')
    root = make_site({"articles/retry.py": text})
    result = run_cli(["validate", "--root", str(root)])
    assert "unknown field 'publishd'; did you mean 'published'?" in result.err
