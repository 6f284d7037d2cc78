"""Documentation: the validation rules that look beyond one revision — categories across the
site, batch modules, names typed wrong, settings, a site's own templates, links to left-out
revisions, fixtures.

Each fixture makes one small site with planted mistakes, runs ``validate`` (or ``build``) on
it, and returns the problem lines grouped by rule name, as ``validation_rules`` does.
"""

import time

from _checking import broken_site, pytest_in, validate_both
from _tool import SETTINGS, article, run, session, site

from site_builder import (
    Source,
    code_block,
    fixture,
    heading,
    paragraph,
    revision,
    transcript,
    unordered_list,
    verified_output,
)

SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>\n'

# --- the broken sites, as their authors wrote them -------------------------------------------


def _categorised(slug: str, categories: str) -> str:
    """A batch of one valid revision whose ``categories=`` line is ``categories``."""
    return article(slug, slug.title()).replace('categories=["Demo"]', f"categories={categories}")


SPELLINGS = {
    "articles/a_first.py": _categorised("first", '["Postgres", "Back end"]'),
    "articles/b_second.py": _categorised("second", '["Postgres"]'),
    "articles/c_third.py": _categorised("third", '["Postgre", "back-end"]'),
}
"""Three batches; the third writes one category close to another, and one as another with a hyphen."""

SPELT_CLOSE = (
    "category 'Postgre' looks like 'Postgres' (articles/a_first.py:7) but makes a page of its own; "
    "did you mean 'Postgres'?"
)
"""The message of the warning about SPELLINGS (it is printed in every format and by every command)."""
SPELT_SAME = (
    "category 'back-end' and 'Back end' (articles/a_first.py:7) name one page; did you mean 'Back end'?"
)
"""The message of the error about SPELLINGS."""

OWN_404 = """\
{% extends "base.html" %}
{% block main %}
<h1 class="page-title">Nothing lives here</h1>
<p>Try <a href="/archive/">the archive</a> or <a href="{{ url('/categories/') }}">the categories</a>.</p>
<img src="/assets/lost.svg">
<p><a href="https://status.example/" target="_blank">Is the site down?</a></p>
{% endblock %}
"""
"""``templates/404.html``: a link to no page, an image without alt text, a new tab without rel."""

COMMENTS = '  <p><a href="{{ url(item.url) }}#comments">Comments</a></p>\n'
"""A line added to a copy of the package's ``_card.html``: a link made from an expression."""

BATCHES = {
    "articles/a_fine.py": article("still-checked").replace('"2026-12-01"', '"2026-13-01"'),
    "articles/b_syntax.py": """\
from site_builder import paragraph, revision

revisions = [
    revision(
        slug="unclosed",
        body=[paragraph("An unclosed call."],
    )
]
""",
    "articles/c_raises.py": """\
from site_builder import revision

WORDS = {"retry": "Retry"}
TITLE = WORDS["retries"]

revisions = []
""",
    "articles/e_no_list.py": """\
from site_builder import revision

articles = []
""",
    "articles/f_not_list.py": """\
from site_builder import revision

revisions = revision
""",
    "articles/g_wrong_item.py": """\
from site_builder import revision

revisions = ["a-slug"]
""",
}

MISSPELT = {
    "articles/a_helper.py": """\
from site_builder import Source, paragraph, revision

revisions = [
    revision(
        slug="helper", title="Helper", categories=["Notes"], excerpt="A misspelt helper.",
        published="2026-12-01",
        body=[paragrpah("Long enough for this small site.")],
        sources=[Source(title="CommonMark", url="https://spec.commonmark.org/0.31.2/", note="the syntax")],
    ),
]
""",
    "articles/b_import.py": """\
from site_builder import Source, paragraph, revision

revisions = [
    revision(
        slug="not-imported", title="Not imported", categories=["Notes"], excerpt="Not imported.",
        published="2026-12-01",
        body=[heading("Setup"), paragraph("Long enough for this small site.")],
        sources=[Source(title="CommonMark", url="https://spec.commonmark.org/0.31.2/", note="the syntax")],
    ),
]
""",
    "articles/c_keyword.py": """\
from site_builder import Source, code_block, paragraph, revision

revisions = [
    revision(
        slug="keyword", title="Keyword", categories=["Notes"], excerpt="A misspelt keyword.",
        published="2026-12-01",
        body=[paragraph("Long enough for this small site."), code_block("print(1)", lang="python")],
        sources=[Source(title="CommonMark", url="https://spec.commonmark.org/0.31.2/", note="the syntax")],
    ),
]
""",
    "articles/d_from.py": """\
from site_builder import Source, paragrpah, revision

revisions = []
""",
}
"""Four batches, each stopped at import by a name typed wrong."""

MISSPELT_SETTINGS = """\
[tool.site_builder]
title = "Demo"
base_url = "https://demo.example/"
min_body_chars = 20
min_sources = 1
fixture_timout = 5

[[tool.site_builder.nav]]
sectoin = "Start here"
pages = [["helper", "A helper"]]
"""

NAMED = """\
from site_builder import Source, fixture, paragraph, revision, verified_output


@fixture
def lost_response() -> dict:
    return {"calls": 1, "checks": {"once": True}}


revisions = [
    revision(
        slug="retry-without-second-effect", title="Retry", categories=["Notes"],
        excerpt="One effect.", published="2026-12-01",
        body=[
            paragraph("Long enough for this small site."),
            verified_output(lost_response, expected={"calls": 1}),
        ],
        sources=[Source(title="CommonMark", url="https://spec.commonmark.org/0.31.2/", note="the syntax")],
    ),
]
"""
"""``articles/retry.py``: a valid site whose fixture id and slug the command lines below mistype."""

WRONG_DATE = "articles/a_fine.py:9: still-checked: published '2026-13-01' is not an ISO date like 2020-06-18"
"""What ``validate`` says of ``a_fine.py``, the batch of BATCHES that imports."""

WAITS = """\
import time

while True:  # waits for something that never comes
    time.sleep(1)
"""
"""A batch whose import never finishes."""

LATIN1 = """\
from site_builder import revision

revisions = []

# Written by Jörg
"""
"""``articles/d_latin1.py``: saved as Latin-1, not UTF-8."""

BROKEN_SETTINGS = """\
[tool.site_builder]
base_url = "demo.example"
language = "english"
description = 5
min_source = 1
min_body_chars = 500
max_body_chars = 100
fixture_timeout = 0
output_dir = "../public"

[[tool.site_builder.nav]]
section = "Start"
pages = [["no-such-page", "Start here"]]
"""

NOT_TOML = """\
[tool.site_builder]
title = "Demo"
base_url = "https://demo.example/"
min_body_chars = 20
min_body_chars = 30
"""

FIXTURES = """\
from site_builder import Source, fixture, paragraph, revision, verified_output

SPEC = Source(title="CommonMark", url="https://spec.commonmark.org/0.31.2/", note="the syntax")


@fixture
def retries() -> dict:
    sent = 2
    return {"sent": sent, "checks": {"sentOnce": sent == 1}}


@fixture
def effects() -> dict:
    return {"effects": 1, "checks": {"counted": True}}


@fixture
def sized(size: int) -> dict:
    return {"checks": {"small": size < 10}}


def plain() -> dict:
    return {"checks": {"ok": True}}


revisions = [
    revision(
        slug="fixture-mistakes", title="Fixtures", categories=["Notes"], excerpt="Unbacked output.",
        published="2026-12-01", sources=[SPEC],
        body=[
            paragraph("Long enough for this small site."),
            verified_output(effects, expected={"effects": 2}),
            verified_output(plain, expected={"ok": True}),
        ],
    ),
]
"""

LEFT_OUT = """\
from site_builder import Source, paragraph, revision

SPEC = Source(title="CommonMark", url="https://spec.commonmark.org/0.31.2/", note="the syntax")
TEXT = [paragraph("Long enough for this small site.")]

revisions = [
    revision(
        slug="teaser", title="Teaser", categories=["Notes"], excerpt="Links to what comes.",
        published="2026-12-01", sources=[SPEC],
        body=[paragraph("Soon: [a draft](/articles/half-written/) and [a gift](/articles/gift/#sources)."),
              paragraph("And [what this page will say of it](/articles/teaser/diff/2/).")],
    ),
    revision(
        slug="half-written", title="Draft", categories=["Notes"], excerpt="Not ready.",
        published="2026-11-20", draft=True, body=TEXT, sources=[SPEC],
    ),
    revision(
        slug="gift", title="Gift", categories=["Notes"], excerpt="Not yet.",
        published="2026-12-24", body=TEXT, sources=[SPEC],
    ),
]
"""
"""A published revision linking to a draft and to a scheduled revision; the nav lists the latter."""

LEFT_OUT_LATER = """\
from site_builder import paragraph, revision

from post import SPEC

revisions = [
    revision(
        slug="teaser", title="Teaser", categories=["Notes"], excerpt="Links to what came.",
        published="2026-12-01", revised="2026-12-24", changes="The gift is out.", sources=[SPEC],
        body=[paragraph("The gift is out now, and this says so.")],
    ),
]
"""
"""The teaser's next revision, scheduled: until its day its diff page is not built."""

LEFT_OUT_NAV = """\

[[tool.site_builder.nav]]
section = "Start here"
pages = [["teaser", "Teaser"], ["gift", "The gift"]]
"""


# --- fixtures ----------------------------------------------------------------------------------


@fixture
def spellings() -> dict:
    """SPELLINGS in the three formats; then with 'back-end' written 'Back end': validate, build, pytest."""
    import re

    root = site(SPELLINGS)
    text, as_json = session(root, ["validate"]), run(root, "validate", "--format", "json")
    github = session(root, ["validate", "--format", "github"])
    fixed = site(SPELLINGS | {"articles/c_third.py": _categorised("third", '["Postgre", "Back end"]')})
    warned_only = session(fixed, ["validate"], ["build"])
    tested = pytest_in(fixed, "-q")
    warned = [
        line.strip().replace(str(fixed), "SITE")
        for line in tested.stdout.splitlines()
        if "SiteWarning" in line
    ]
    return {
        "text": text.lines,
        "json": {"exit": as_json.code, "stdout": as_json.json()},
        "github": github.lines,
        "onlyTheWarning": warned_only.lines,
        "pytest": {
            "exit": tested.code,
            "warning": warned,
            "summary": re.sub(r" in [\d.]+s", "", tested.stdout.splitlines()[-1]),
        },
        "checks": {
            "errorFails": text.codes == github.codes == [1] and as_json.code == 1,
            "warningAlonePasses": warned_only.codes == [0, 0] and tested.code == 0,
            "siteBuilt": (fixed / "build" / "categories" / "postgre" / "index.html").exists(),
        },
    }


@fixture
def own_templates() -> dict:
    """A site's own 404.html (checked before build), and a _card.html whose fault only the build sees."""
    from importlib import resources

    literal = site({"articles/post.py": article(), "templates/404.html": OWN_404, "assets/lost.svg": SVG})
    found = validate_both(literal)
    card = resources.files("site_builder").joinpath("templates/_card.html").read_text("utf-8")
    excerpt = '  <p class="excerpt">'
    rendered = site(
        {"articles/post.py": article(), "templates/_card.html": card.replace(excerpt, COMMENTS + excerpt)}
    )
    ran = session(rendered, ["validate"], ["build"])
    line = card.splitlines().index(excerpt + "{{ item.excerpt }}</p>") + 1
    return {
        "literal": {"exit": found.code, "problems": found.by_rule, "summary": found.summary},
        "rendered": ran.lines,
        "checks": found.checks(3)
        | {
            "renderedPassesValidate": ran.codes[:1] == [0],
            "buildFails": ran.codes[1:] == [1],
            "atTheAddedLine": any(text.startswith(f"templates/_card.html:{line}: ") for text in ran.lines),
            "nothingInTheOutputFolder": not any(text.startswith("build/") for text in ran.lines),
        },
    }


@fixture
def batches() -> dict:
    """Modules that do not import, or do not hold a list of revisions; the others still checked."""
    root = site(BATCHES)
    (root / "articles" / "d_latin1.py").write_bytes(LATIN1.encode("latin-1"))
    found = validate_both(root)
    checks = found.checks(7)
    checks["otherBatchStillChecked"] = any(line.startswith("articles/a_fine.py:") for line in found.lines)
    checks["noTraceback"] = not any("Traceback" in line for line in found.lines)
    return {"exit": found.code, "problems": found.by_rule, "summary": found.summary, "checks": checks}


@fixture
def waits() -> dict:
    """A batch whose import never finishes, beside one with a wrong date, and a 1 s import_timeout."""
    files = {"articles/a_fine.py": BATCHES["articles/a_fine.py"], "articles/b_waits.py": WAITS}
    root = site(files, SETTINGS + "import_timeout = 1\n")
    started = time.monotonic()
    found = validate_both(root)
    took = time.monotonic() - started
    checks = found.checks(2)
    checks["otherBatchStillChecked"] = any(line.startswith("articles/a_fine.py:") for line in found.lines)
    checks["eachRunWithinTheTimeoutAndFiveSeconds"] = took < 2 * (1 + 5)
    return {"exit": found.code, "problems": found.by_rule, "summary": found.summary, "checks": checks}


@fixture
def misspelt() -> dict:
    """Names typed wrong in batches and in the settings; then a fixture id and a slug on the command line."""
    report = broken_site(MISSPELT, planted=6, settings=MISSPELT_SETTINGS)
    report["checks"]["everyOneSuggests"] = all(
        "did you mean" in line or "import it:" in line
        for lines in report["problems"].values()
        for line in lines
    )
    root = site({"articles/retry.py": NAMED})
    typed = session(
        root,
        ["verify", "retry:lost_respons"],
        ["verify", "retry:jitter"],
        ["revisions", "--slug", "retry-without-second-efect"],
    )
    report["commandLines"] = typed.lines
    report["checks"]["usageErrors"] = typed.codes == [2, 2, 2]
    return report


@fixture
def settings() -> dict:
    """``[tool.site_builder]`` with a mistake on almost every line."""
    return broken_site({"articles/README.md": "No batches here yet.\n"}, planted=9, settings=BROKEN_SETTINGS)


@fixture
def settings_file() -> dict:
    """A ``pyproject.toml`` that is not TOML, and a site without its articles folder."""
    return broken_site({}, planted=2, settings=NOT_TOML)


@fixture
def left_out() -> dict:
    """Links and a nav entry to revisions a build leaves out; then the same site with both flags."""
    files = {"articles/post.py": LEFT_OUT, "articles/post_later.py": LEFT_OUT_LATER}
    report = broken_site(files, planted=4, settings=SETTINGS + LEFT_OUT_NAV)
    previewed = session(site(files, SETTINGS + LEFT_OUT_NAV), ["validate", "--drafts", "--future"])
    report["withDraftsAndFuture"] = previewed.lines
    report["checks"]["flagsMakeItValid"] = previewed.codes == [0]
    return report


@fixture
def fixtures() -> dict:
    """A failing check, a fixture with an argument, a drifted output, a block backed by no fixture."""
    return broken_site({"articles/post.py": FIXTURES}, planted=4)


# --- the page ----------------------------------------------------------------------------------

page = revision(
    slug="site-wide-rules",
    title="Site-wide rules",
    categories=["Reference"],
    excerpt="The rules that look beyond one revision: categories across the site, modules, names "
    "typed wrong, settings, templates, links to left-out revisions and fixtures.",
    published="2026-12-01",
    body=[
        paragraph(
            "[Validation rules](/articles/validation-rules/) judges each revision on its own: its "
            "fields, its body, its sources and links. The rules on this page look further — at "
            "the categories of every revision together, at the modules that hold the revisions, "
            "at every name you type, at the settings, at the site's own templates, at what a "
            "build leaves out, and at the fixtures. `site-builder validate` checks them in the "
            "same run, and prints their problems in the same form, `PATH:LINE: SUBJECT: message`."
        ),
        paragraph(
            "Each section shows a small site with its mistakes, as its author wrote it, then what "
            "`validate` really prints for it, grouped under the name of the rule that `--format "
            "json` gives each problem. The sites use these settings unless a section shows "
            "others:"
        ),
        code_block(SETTINGS, language="toml"),
        # --- categories
        heading("Categories written two ways"),
        paragraph(
            "Each category gets a page, and its address is made from its name with the case, "
            "spaces and punctuation folded: `Back end`, `back-end` and `BACK END` would all be "
            "`/categories/back-end/`. Two spellings of one page cannot both be shown, and no "
            "author means them, so that is an error. Two names that are merely close — "
            "`Postgres` and `Postgre` — make two pages; that is nearly always a typo, but not "
            "always (`React` and `Preact`, `Caching` and `Catching` are as close and are two "
            "real subjects), so it is a *warning*: printed wherever problems are printed, "
            "failing nothing, and yours to fix or keep. In this site `a_first.py` and "
            '`b_second.py` write `categories=["Postgres", "Back end"]` and '
            '`["Postgres"]`, and `c_third.py` writes this on its line 7:'
        ),
        code_block('        categories=["Postgre", "back-end"],', language="python"),
        transcript(
            spellings,
            """
            $ site-builder validate
            articles/c_third.py:7: third: warning: category 'Postgre' looks like 'Postgres' (articles/a_first.py:7) but makes a page of its own; did you mean 'Postgres'?
            articles/c_third.py:7: third: category 'back-end' and 'Back end' (articles/a_first.py:7) name one page; did you mean 'Back end'?
            1 problem and 1 warning found
            """,  # noqa: E501
            key="text",
        ),
        unordered_list(
            [
                "**`category-same-page`** (an error) — a category differs from one already used only "
                "in case, spaces or punctuation. Write it the way the rest of the site does.",
                "**`category-spelling`** (a warning) — a category is close to one already used "
                "and makes a page of its own. Close means a similarity above 0.82 by Python's "
                "`difflib`, ignoring case: `Pyhton` and `Python` are close, `MySQL` and `MSSQL` or "
                "`AI` and `API` are not. "
                "Names that differ only in their digits are never doubted: `Python 2` and "
                "`Python 3`, `IPv4` and `IPv6`, `CSS` and `CSS3`.",
                "Which spelling is right is the one more revisions use (on a tie, the one written "
                "first, in site order). Every use of the other is reported, at the line where "
                "that string is written inside `categories=[...]`, and the message names where "
                "the right one is first written.",
            ]
        ),
        paragraph(
            "A warning looks like an error with `warning:` before its message, and the count "
            "line names both. The other formats say which is which: `--format json` gives "
            'every problem a `severity` key, `"error"` or `"warning"`:'
        ),
        verified_output(
            spellings,
            expected={
                "json": {
                    "exit": 1,
                    "stdout": [
                        {
                            "path": "articles/c_third.py",
                            "line": 7,
                            "slug": "third",
                            "rule": "category-spelling",
                            "message": SPELT_CLOSE,
                            "severity": "warning",
                        },
                        {
                            "path": "articles/c_third.py",
                            "line": 7,
                            "slug": "third",
                            "rule": "category-same-page",
                            "message": SPELT_SAME,
                            "severity": "error",
                        },
                    ],
                },
            },
        ),
        paragraph(
            "With `--format github`, a warning is a `::warning` annotation, which GitHub shows in "
            "yellow and which does not fail the step:"
        ),
        transcript(
            spellings,
            """
            $ site-builder validate --format github
            ::warning file=articles/c_third.py,line=7,title=category-spelling::third: category 'Postgre' looks like 'Postgres' (articles/a_first.py:7) but makes a page of its own; did you mean 'Postgres'?
            ::error file=articles/c_third.py,line=7,title=category-same-page::third: category 'back-end' and 'Back end' (articles/a_first.py:7) name one page; did you mean 'Back end'?
            """,  # noqa: E501
            key="github",
        ),
        paragraph(
            "The exit code of 1 above is the error's. With `back-end` written `Back end`, only the "
            "warning is left: `validate` prints it and its `ok:` line and exits with 0, and `build` "
            "prints it and builds the site (with a page for `Postgre`):"
        ),
        transcript(
            spellings,
            """
            $ site-builder validate
            articles/c_third.py:7: third: warning: category 'Postgre' looks like 'Postgres' (articles/a_first.py:7) but makes a page of its own; did you mean 'Postgres'?
            1 warning found
            ok: 3 revisions valid, 0 fixtures passed
            $ site-builder build
            articles/c_third.py:7: third: warning: category 'Postgre' looks like 'Postgres' (articles/a_first.py:7) but makes a page of its own; did you mean 'Postgres'?
            1 warning found
            built 3 revisions, 9 pages in … s
            """,  # noqa: E501
            key="onlyTheWarning",
        ),
        paragraph(
            "The pytest plugin passes too, listing it in pytest's warnings summary as a "
            "`SiteWarning` (the path of the temporary site shown as `SITE`):"
        ),
        verified_output(
            spellings,
            expected={
                "pytest": {
                    "exit": 0,
                    "warning": ["SITE/articles/c_third.py:7: SiteWarning: third: " + SPELT_CLOSE],
                    "summary": "4 passed, 1 warning",
                },
            },
        ),
        paragraph(
            "`revisions` prints warnings on stderr too, and `serve` in the terminal after each "
            "build. A project that wants warnings to fail its tests can tell pytest so: "
            "`-W error::site_builder.pytest_plugin.SiteWarning` on the command line, or the "
            "same filter in pytest's `filterwarnings` setting."
        ),
        # --- batches
        heading("Modules that do not load"),
        paragraph(
            "Every `.py` file of the articles folder whose name does not start with `_` is a "
            "batch (a file named `_something.py` is a helper module the batches may import). "
            "A batch that fails to import is one problem, with its file and the line where "
            "the import failed; it never hides the problems of the other batches. Here a "
            "site has six broken modules and one that imports but has a wrong date:"
        ),
        code_block(BATCHES["articles/b_syntax.py"], language="python"),
        code_block(BATCHES["articles/c_raises.py"], language="python"),
        paragraph(
            "`d_latin1.py` holds the text below saved in Latin-1, so the `ö` of line 5 is "
            "the byte `0xf6`, which is not UTF-8. `e_no_list.py` names its list `articles`, "
            "`f_not_list.py` binds `revisions` to the function `revision`, and "
            "`g_wrong_item.py` puts a string in the list."
        ),
        code_block(LATIN1, language="python"),
        verified_output(
            batches,
            expected={
                "exit": 1,
                "problems": {
                    "published": [WRONG_DATE],
                    "import": [
                        "articles/b_syntax.py:6: batch b_syntax: cannot import: SyntaxError: closing "
                        "parenthesis ']' does not match opening parenthesis '('",
                        "articles/c_raises.py:4: batch c_raises: cannot import: KeyError: 'retries'",
                        "articles/d_latin1.py:5: batch d_latin1: cannot import: the file is not valid "
                        "UTF-8 (byte 0xf6 at column 15)",
                    ],
                    "batch-revisions": [
                        "articles/e_no_list.py:1: batch e_no_list: defines no module-level list 'revisions'",
                        "articles/f_not_list.py:3: batch f_not_list: 'revisions' must be a list, "
                        "not function",
                        "articles/g_wrong_item.py:3: batch g_wrong_item: revisions item 1 is a str, "
                        "not a revision(...)",
                    ],
                },
                "summary": "7 problems found",
            },
        ),
        unordered_list(
            [
                "**`import`** — a syntax error (at its line, in Python's words), an exception "
                "raised while the module runs (at the last line of the module on the way, with "
                "the exception's type and message, never a traceback), or bytes that are not "
                "UTF-8 (at the first such line, with the byte and its column; Python itself "
                "would let some through inside comments); at line 1, an import that ends its "
                "process (`os._exit`, a crash) or never finishes (below).",
                "**`batch-revisions`** — the module has no module-level `revisions`, it is not "
                "a list (or tuple), or an item of it is not a `revision(...)`; the problem is at "
                "the `revisions =` line (line 1 when there is none). The good items of a list "
                "with a wrong one are still checked.",
            ]
        ),
        paragraph(
            "A batch whose import never finishes — a loop at module level, a read that waits "
            "for ever — cannot stop a command either. Each batch is imported in a worker "
            "process, and a worker still importing it after `import_timeout` seconds (a "
            "setting, 60 by default; see [Settings](/articles/settings/)) is killed: the batch "
            "is one `import` problem at line 1 of its file, and the other batches are loaded "
            "and reported as ever. `validate`, `build`, `revisions`, `verify`, each build of "
            "`serve` and the pytest plugin all stop such an import. Here `b_waits.py` is the "
            "module below, `a_fine.py` the one with a wrong date from above, and the site sets "
            "`import_timeout = 1`:"
        ),
        code_block(WAITS, language="python"),
        verified_output(
            waits,
            expected={
                "exit": 1,
                "problems": {
                    "published": [WRONG_DATE],
                    "import": ["articles/b_waits.py:1: batch b_waits: importing it did not finish in 1 s"],
                },
                "summary": "2 problems found",
            },
        ),
        # --- did you mean
        heading("Names typed wrong: did you mean"),
        paragraph(
            "Whatever name you type — a revision field, a helper, a helper's keyword, a setting, a "
            "label, a fixture id, a slug — a misspelling that is close to a name the tool knows gets that "
            "name back, at the end of the message: `; did you mean 'NAME'?`. There is never more "
            "than one suggestion, and a name like nothing known gets none (close means a "
            "`difflib` similarity of at least 0.6 to one of the tool's own words). A misspelt helper "
            "stops its module at import, so it is an `import` problem at the line that failed; "
            "the module's other revisions are checked once it imports. A misspelt keyword of a "
            "helper does not stop it: it is a problem at the helper's call, reported with the "
            "module's others. These four batches and these settings each have one name wrong:"
        ),
        code_block(MISSPELT["articles/a_helper.py"], language="python"),
        paragraph(
            "`b_import.py` uses `heading(...)` without importing it, `c_keyword.py` calls "
            '`code_block("print(1)", lang="python")`, and `d_from.py` imports `paragrpah`:'
        ),
        code_block(MISSPELT_SETTINGS, language="toml"),
        verified_output(
            misspelt,
            expected={
                "exit": 1,
                "problems": {
                    "import": [
                        "articles/a_helper.py:7: batch a_helper: cannot import: NameError: name "
                        "'paragrpah' is not defined; did you mean 'paragraph'?",
                        "articles/b_import.py:7: batch b_import: cannot import: NameError: name "
                        "'heading' is not defined; import it: from site_builder import heading",
                        "articles/d_from.py:1: batch d_from: cannot import: ImportError: cannot import "
                        "name 'paragrpah' from 'site_builder'; did you mean 'paragraph'?",
                    ],
                    "helper-arguments": [
                        "articles/c_keyword.py:7: keyword: code_block(): unknown keyword 'lang'; "
                        "did you mean 'language'?"
                    ],
                    "settings-unknown": [
                        "pyproject.toml:6: settings: unknown key 'fixture_timout'; did you mean "
                        "'fixture_timeout'?"
                    ],
                    "settings-nav": [
                        "pyproject.toml:9: settings: unknown key 'sectoin' in [[tool.site_builder.nav]]; "
                        "did you mean 'section'?"
                    ],
                },
                "summary": "6 problems found",
            },
        ),
        unordered_list(
            [
                "A misspelt name is matched against what the failing line could see — the "
                "module's own names, Python's builtins (`lenn` → `len`) — and the public names of "
                "`site_builder`. A public name the module forgot to import is not a typo: the "
                "message says how to import it.",
                "**`helper-arguments`** — a call a helper does not take: a keyword it does not "
                "have (here `code_block(`; when nothing is close, the message lists the keywords "
                "the helper takes), an argument missing, one too many, or one given twice. The "
                "helper adds nothing to the page and the problem is at the line of its call. A "
                "wrong keyword of `revision(...)` is an `unknown-field` problem, and one of "
                "`Source(...)` a `source-field` problem (see [Validation "
                "rules](/articles/validation-rules/)). A function of your own called wrongly "
                "still stops the import, as any exception does.",
                "**`settings-nav`** — a key of a `[[tool.site_builder.nav]]` table other than "
                "`section` and `pages`, at its own line; a table that lacks one of them is "
                "reported at its header.",
                "A misspelt label in a `[tool.site_builder.labels.LANG]` table is a "
                "`settings-labels` problem at its line, with the closest label "
                "([Languages](/articles/languages/#mistakes-in-a-labels-table)).",
            ]
        ),
        paragraph(
            "Fixture ids given to `verify` and slugs given to `revisions --slug` are names the site "
            "made up, and sites use many alike (`first-post`, `third-post`), so only a much closer "
            "match (0.8) is suggested; `verify` lists the ids the site has when none is close. A name "
            "that does not exist is a mistake of the command line: exit code 2, nothing on stdout. "
            "For a site whose `articles/retry.py` defines the fixture `lost_response` and the "
            "revision `retry-without-second-effect`:"
        ),
        transcript(
            misspelt,
            """
            $ site-builder verify retry:lost_respons
            site-builder: unknown fixture id retry:lost_respons; did you mean 'retry:lost_response'?
            $ site-builder verify retry:jitter
            site-builder: unknown fixture id retry:jitter; the site has: retry:lost_response
            $ site-builder revisions --slug retry-without-second-efect
            site-builder: no revision with slug retry-without-second-efect; did you mean 'retry-without-second-effect'?
            """,  # noqa: E501
            key="commandLines",
        ),
        # --- settings
        heading("Settings"),
        paragraph(
            "The settings in `[tool.site_builder]` of `pyproject.toml` are checked like the "
            "articles: an unknown key, a wrong type, a missing required key or a bad value is "
            "a problem at its line, with the subject `settings`. A wrong value falls back to "
            "its default so that the articles are still checked in the same run. This site "
            "has an articles folder with no batch in it yet:"
        ),
        code_block(BROKEN_SETTINGS, language="toml"),
        verified_output(
            settings,
            expected={
                "exit": 1,
                "problems": {
                    "settings-required": ["pyproject.toml:1: settings: missing required key 'title'"],
                    "settings-value": [
                        "pyproject.toml:2: settings: base_url must be an absolute http(s) URL, not "
                        "'demo.example'",
                        "pyproject.toml:3: settings: language 'english' is not a language tag like "
                        "'en' or 'ru'",
                        "pyproject.toml:6: settings: min_body_chars is greater than max_body_chars",
                        "pyproject.toml:8: settings: fixture_timeout must be more than 0 seconds, not 0",
                        "pyproject.toml:9: settings: output_dir must be a folder inside the site root, "
                        "not '../public'",
                    ],
                    "settings-type": ["pyproject.toml:4: settings: description must be str, not int"],
                    "settings-unknown": [
                        "pyproject.toml:5: settings: unknown key 'min_source'; did you mean 'min_sources'?"
                    ],
                    "nav": [
                        "pyproject.toml:13: settings: nav lists 'no-such-page', which is not the slug "
                        "of an article"
                    ],
                },
                "summary": "9 problems found",
            },
        ),
        unordered_list(
            [
                "**`settings-required`** — `title` or `base_url` is missing; reported at the "
                "`[tool.site_builder]` line.",
                "**`settings-unknown`** — a key the tool does not know, often a typo; the "
                "message names the closest key there is (`min_source` → `min_sources`).",
                "**`settings-type`** — a value of the wrong TOML type: a number where text is "
                "expected, text where a number is.",
                "**`settings-value`** — a value of the right type that cannot work: a "
                "`base_url` that is not an absolute `http(s)` URL, a `language` that is not a "
                "tag, a negative limit, a `fixture_timeout` or `import_timeout` of 0 or less, "
                "an `*_dir` outside "
                "the site root, a character XML forbids, a `sources_heading` whose labels are not "
                "all non-empty text, a `repo_url` that is not an absolute `http(s)` URL (or has a "
                "query or a fragment), a `source_uri` that is not a relative path, "
                "and `min_body_chars` greater than "
                "`max_body_chars` (reported at the `min_body_chars` line).",
                "**`nav`** — an entry of `[[tool.site_builder.nav]]` (the reading order of the "
                "sidebar) names no article, or names one twice.",
            ]
        ),
        paragraph(
            "Two more problems concern the site as a whole. A `pyproject.toml` that is not "
            "valid TOML is one problem at the line the TOML parser names; every setting then "
            "takes its default. And a site needs its articles folder:"
        ),
        code_block(NOT_TOML, language="toml"),
        verified_output(
            settings_file,
            expected={
                "exit": 1,
                "problems": {
                    "articles-dir": ["pyproject.toml:1: settings: articles folder 'articles' does not exist"],
                    "settings-file": [
                        "pyproject.toml:5: settings: pyproject.toml is not valid TOML: Cannot "
                        "overwrite a value (at line 5, column 20)"
                    ],
                },
                "summary": "2 problems found",
            },
        ),
        # --- templates
        heading("Templates a site writes"),
        paragraph(
            "A site may replace any of the package's templates with its own, in `templates/` (see "
            "[Templates and theming](/articles/templates-and-theming/)). What such a template "
            "writes is held to the rules of every page — links that resolve, alt text on images, "
            '`rel="noopener noreferrer"` on a link that opens a new tab — and its problems '
            "name the template's file and line, with the subject `template`; never a file of the "
            "output folder. What the template writes *literally* is judged before build, by "
            "`validate`, the pytest plugin (a `templates` item) and `build`. A URL written "
            "`{{ url('/path/') }}` counts as literal. This `templates/404.html` has three faults:"
        ),
        code_block(OWN_404, language="html"),
        verified_output(
            own_templates,
            expected={
                "literal": {
                    "exit": 1,
                    "problems": {
                        "page-link": [
                            "templates/404.html:4: template: '/archive/' points to no file of the site"
                        ],
                        "page-img-alt": [
                            "templates/404.html:5: template: <img src='/assets/lost.svg'> has no alt text"
                        ],
                        "page-rel": [
                            "templates/404.html:6: template: link to 'https://status.example/' opens a "
                            'new tab without rel="noopener noreferrer"'
                        ],
                    },
                    "summary": "3 problems found",
                },
            },
        ),
        unordered_list(
            [
                "**`page-link`** — a link or `src` that names no page or file of the site (on a site "
                "whose `base_url` has a path, also a root-relative link not written through "
                "`url(...)`, which would be dead once deployed).",
                "**`page-img-alt`** — an `<img>` without alt text.",
                '**`page-rel`** — a link with `target="_blank"` but without `rel="noopener noreferrer"`.',
                "**`template`** — the template cannot be rendered at all (a Jinja error, such as a "
                "variable no page is given), at the line Jinja names.",
            ]
        ),
        paragraph(
            "What a template makes from an expression — `{{ url(item.url) }}#comments`, an `alt` "
            "that renders empty — is only known once pages are rendered, so `validate` passes it "
            "and `build` finds it, on the rendered pages, and reports it at the line of the tag "
            "that wrote it (or line 1 of the page's template when no tag can be told), once however "
            "many pages show it, naming the page when the fault is about another page. Here a copy "
            "of the package's `_card.html` — one article in a list — gets a line above the "
            "excerpt's, to link each card to the article's comments, which the article page does "
            "not have:"
        ),
        code_block(COMMENTS, language="html"),
        transcript(
            own_templates,
            """
            $ site-builder validate
            ok: 1 revision valid, 0 fixtures passed
            $ site-builder build
            templates/_card.html:9: template: '/articles/demo/#comments': no element with id 'comments' on articles/demo/index.html
            1 problem found
            nothing was written; the previous site is untouched
            """,  # noqa: E501
            key="rendered",
        ),
        paragraph(
            "Line 9 is the line the added link takes in the copy. The fix is either side: drop "
            "the link, or give the article page the id — a `templates/article.html` of the site's "
            'own that writes `<section id="comments">` literally makes `#comments` an id of every '
            "article page, for the cards and for the articles' own links alike. A fault in one "
            "of the package's templates would be a bug of site_builder, and is named "
            "`site_builder/templates/NAME.html:LINE`."
        ),
        # --- left out
        heading("Links to drafts and scheduled revisions"),
        paragraph(
            "A build leaves out drafts and revisions dated after the build's date (see [Writing an "
            "article](/articles/writing-articles/)). A revision it publishes that links to one of "
            "them would send readers to a page that does not exist, so that link is a problem, at "
            "the line of the helper call that holds it (or of `revision(` for a `cover`), naming "
            "the revision and the flag that would include it. The ordered navigation may not list "
            "such a revision either. `validate`, the pytest plugin and `build` all report it. In this "
            "site, `articles/post.py` holds a published revision, a draft and a scheduled one; "
            "`articles/post_later.py` holds the teaser's next revision, scheduled too, so its diff "
            "page (`/articles/teaser/diff/2/`, like every page of an article's history) is not "
            "built before that day; and the navigation in `pyproject.toml` lists `teaser` and `gift`:"
        ),
        code_block(LEFT_OUT, language="python"),
        code_block(LEFT_OUT_LATER, language="python"),
        code_block(SETTINGS + LEFT_OUT_NAV, language="toml"),
        verified_output(
            left_out,
            expected={
                "exit": 1,
                "problems": {
                    "left-out": [
                        "articles/post.py:10: teaser: '/articles/gift/#sources' links to 'gift', which this "
                        "build leaves out (scheduled for 2026-12-24); --future includes it",
                        "articles/post.py:10: teaser: '/articles/half-written/' links to "
                        "'half-written', which this build leaves out (a draft); --drafts includes it",
                        "articles/post.py:11: teaser: '/articles/teaser/diff/2/' links to the page of a "
                        "revision of 'teaser' (scheduled for 2026-12-24), which this build leaves out; "
                        "--future includes it",
                    ],
                    "nav": [
                        "pyproject.toml:9: settings: nav lists 'gift', which this build leaves out "
                        "(scheduled for 2026-12-24); --future includes it",
                    ],
                },
                "summary": "4 problems found",
            },
        ),
        unordered_list(
            [
                "**`left-out`** — a published revision links to a draft or a scheduled revision (or "
                "to the page of a category that lists only such revisions, or to a revision or diff "
                "page of an article whose revision it shows is left out). Remove the link until "
                "the target is published — the text you wrote is never changed silently — or "
                "preview with the flag the message names. A link *from* a revision that is itself "
                "left out is not judged this way; its target must still exist, like any link's.",
                "**`nav`** — the navigation lists a revision the build leaves out; add the entry "
                "on the day the revision is published.",
            ]
        ),
        paragraph(
            "The flags change what the site publishes, so they change this judgement: "
            "`site-builder validate --drafts --future` checks the preview that `build --drafts "
            "--future` writes, and there both links are fine:"
        ),
        transcript(
            left_out,
            """
            $ site-builder validate --drafts --future
            ok: 4 revisions valid, 0 fixtures passed
            """,
            key="withDraftsAndFuture",
        ),
        # --- fixtures
        heading("Fixtures and verified outputs"),
        paragraph(
            "`validate` also runs every fixture, each in a worker process with the site's "
            "`fixture_timeout`, and compares every `verified_output` with what its fixture "
            "really returned. A fixture's problem has the subject `fixture MODULE:FUNCTION` "
            "and the line of its `def`; a `verified_output` whose fixture returns something "
            "else is a problem of the revision, at the `verified_output(` line. "
            "[Fixtures and verified output](/articles/fixtures/) explains what a fixture "
            "may do and every way it can fail (an exception, a timeout, a value that is "
            "not JSON, a write outside its temporary folder, …); "
            "here are the four rules in one module:"
        ),
        code_block(FIXTURES, language="python"),
        verified_output(
            fixtures,
            expected={
                "exit": 1,
                "problems": {
                    "fixture": [
                        "articles/post.py:7: fixture post:retries: checks failed: sentOnce = false "
                        "(each check must be true)"
                    ],
                    "fixture-definition": [
                        "articles/post.py:18: fixture post:sized: a fixture takes no arguments; "
                        "this one needs size"
                    ],
                    "verified-drift": [
                        "articles/post.py:32: fixture-mistakes: verified_output of post:effects does "
                        "not match what it returns: $.effects: the article prints 2, the fixture returns 1"
                    ],
                    "verified-fixture": [
                        "articles/post.py:33: fixture-mistakes: verified_output(): the first argument "
                        "must be a @fixture function, not function"
                    ],
                },
                "summary": "4 problems found",
            },
        ),
        unordered_list(
            [
                "**`fixture`** — the fixture failed: here a check is `false`; the message names "
                "every failing check. Fix the code, or the claim the check makes.",
                "**`fixture-definition`** — `@fixture` decorates something that is not a "
                "function, or a function that needs arguments; a fixture is called with none.",
                "**`verified-drift`** — the fixture passed, but what the article prints is not "
                "contained in what it returned. The message gives the JSON path of each "
                "difference. Update the expected value to what the code returns now (run "
                "`site-builder verify MODULE:FUNCTION` to see it).",
                "**`verified-fixture`** — the first argument of `verified_output` is not a "
                "`@fixture` (here the decorator is missing), or the fixture it names is not "
                "defined at module level of a batch.",
            ]
        ),
        heading("After the last problem"),
        paragraph(
            "Fix the lines from the top and run `site-builder validate` again: when nothing "
            "is left it prints `ok:` with the number of revisions and fixtures checked, and "
            "exits with 0. `site-builder build` runs the same checks first, so a site that "
            "validates builds — save for what only a rendered page can show, which comes from "
            "a template of the site's own (a link it makes from an expression, above)."
        ),
    ],
    sources=[
        Source(
            title="Python documentation: difflib — SequenceMatcher.ratio",
            url="https://docs.python.org/3/library/difflib.html#difflib.SequenceMatcher.ratio",
            note="the similarity of two names behind every suggestion and every close category",
        ),
        Source(
            title="pytest: How to capture warnings",
            url="https://docs.pytest.org/en/stable/how-to/capture-warnings.html",
            note="the warnings summary, -W and filterwarnings, which turn a warning into a failure",
        ),
        Source(
            title="Workflow commands for GitHub Actions",
            url="https://docs.github.com/en/actions/using-workflows/workflow-commands-for-github-actions",
            note="the ::warning and ::error annotations",
        ),
    ],
)

revisions = [page]
