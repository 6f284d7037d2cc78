"""Documentation: every validation rule, with the exact line the tool prints for it.

Each fixture makes one small site with several planted mistakes, runs ``validate``
on it in text and in JSON, and returns the problem lines grouped by rule name.
"""

from _checking import validate_both
from _tool import SETTINGS, article, run, site

from site_builder import (
    Source,
    code_block,
    fixture,
    heading,
    paragraph,
    revision,
    unordered_list,
    verified_output,
)

SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>\n'

# --- the broken sites, as their authors wrote them -------------------------------------------

FIELDS = """\
from site_builder import Source, paragraph, revision

SPEC = Source(title="CommonMark", url="https://spec.commonmark.org/0.31.2/", note="the syntax")
TEXT = [paragraph("Long enough for this small site.")]

revisions = [
    revision(
        slug="no-excerpt", title="No excerpt", categories=["Notes"],
        published="2026-12-01", body=TEXT, sources=[SPEC],
    ),
    revision(
        slug="empty-title", title="", categories=["Notes"], excerpt="An empty title.",
        published="2026-12-01", body=TEXT, sources=[SPEC],
    ),
    revision(
        slug="unknown-fields", title="Unknown", categories=["Notes"], excerpt="Two unknown fields.",
        published="2026-12-01", body=TEXT, sources=[SPEC], reading_minute=4, author="Ann",
    ),
    revision(
        slug="wrong-types", title=42, categories=["Notes", 3], excerpt="Values of the wrong type.",
        published="2026-12-01", body=TEXT, sources=[SPEC], reading_minutes=0,
    ),
    revision(
        slug="categories-str", title="One string", categories="Notes", excerpt="Not a list.",
        published="2026-12-01", body=TEXT, sources=[SPEC],
    ),
]
"""

NAMES = """\
from site_builder import Source, paragraph, revision

SPEC = Source(title="CommonMark", url="https://spec.commonmark.org/0.31.2/", note="the syntax")
TEXT = [paragraph("Long enough for this small site.")]

revisions = [
    revision(
        slug="Retry_Effects", title="Slug", categories=["Notes"], excerpt="A slug with capitals.",
        published="2026-12-01", body=TEXT, sources=[SPEC],
    ),
    revision(
        slug="retry", title="First", categories=["Notes"], excerpt="The first of two.",
        published="2026-12-01", body=TEXT, sources=[SPEC],
    ),
    revision(
        slug="retry", title="Second", categories=["Notes"], excerpt="The same slug again.",
        published="2026-11-30", body=TEXT, sources=[SPEC],
    ),
    revision(
        slug="no-category", title="None", categories=[], excerpt="No category at all.",
        published="2026-12-01", body=TEXT, sources=[SPEC],
    ),
    revision(
        slug="odd-categories", title="Odd", categories=["Notes", " ", "word " * 50],
        excerpt="A blank category and a very long one.",
        published="2026-12-01", body=TEXT, sources=[SPEC],
    ),
    revision(
        slug="date-and-lang", title="Date", categories=["Notes"], excerpt="Not ISO, not a tag.",
        published="2026-12-1", lang="english", body=TEXT, sources=[SPEC],
    ),
    revision(
        slug="form-feed", title="Control", categories=["Notes"], excerpt="Page one\\x0cpage two",
        published="2026-12-01", body=TEXT, sources=[SPEC],
    ),
]
"""

MEASURED = """\
from site_builder import Source, code_block, heading, paragraph, revision

SPEC = Source(title="CommonMark", url="https://spec.commonmark.org/0.31.2/", note="the syntax")

revisions = [
    revision(
        slug="measured", title="Measured", categories=["Notes"], excerpt="How long is it?",
        published="2026-12-01", sources=[SPEC],
        body=[
            heading("Tea & cake"),
            paragraph("Two   spaces, *emphasis* and `a < b`."),
            code_block("x = a < b", language="python"),
        ],
    ),
]
"""

LIMITS_SETTINGS = """\
[tool.site_builder]
title = "Demo"
base_url = "https://demo.example/"
min_body_chars = 20
max_body_chars = 60
min_sources = 1
"""

LIMITS = """\
from site_builder import Source, paragraph, revision

SPEC = Source(title="CommonMark", url="https://spec.commonmark.org/0.31.2/", note="the syntax")

revisions = [
    revision(
        slug="too-short", title="Short", categories=["Notes"], excerpt="Too short.",
        published="2026-12-01", sources=[SPEC], body=[paragraph("Too short.")],
    ),
    revision(
        slug="too-long", title="Long", categories=["Notes"], excerpt="Too long.",
        published="2026-12-01", sources=[SPEC], body=[paragraph("Ten words " * 10)],
    ),
]
"""

BLOCKS = """\
from site_builder import Source, code_block, data_table, figure, paragraph, revision, unordered_list

SPEC = Source(title="CommonMark", url="https://spec.commonmark.org/0.31.2/", note="the syntax")
TEXT = paragraph("Long enough for this small site.")

revisions = [
    revision(
        slug="not-blocks", title="Not blocks", categories=["Notes"], excerpt="Plain values.",
        published="2026-12-01", sources=[SPEC],
        body=[TEXT, "A plain string.", SPEC, paragraph(42)],
    ),
    revision(
        slug="one-block", title="One block", categories=["Notes"], excerpt="Not a list.",
        published="2026-12-01", sources=[SPEC],
        body=TEXT,
    ),
    revision(
        slug="helper-mistakes", title="Helpers", categories=["Notes"], excerpt="Helpers misused.",
        published="2026-12-01", sources=[SPEC],
        body=[
            TEXT,
            code_block("print(1)", language="c plus plus"),
            unordered_list([]),
            data_table("Sizes", [], []),
            data_table("Sizes", ["Name", "Size"], [["a", 1], ["b"]]),
            figure("/assets/plot.svg", "", "A plot."),
            figure("/assets/plot.svg", "A rising line.", " "),
            figure("", "A rising line.", "A plot."),
        ],
    ),
]
"""

SOURCES_SETTINGS = """\
[tool.site_builder]
title = "Demo"
base_url = "https://demo.example/"
min_body_chars = 20
min_sources = 2
"""

SOURCES = """\
from site_builder import Source, paragraph, revision

SPEC = Source(title="CommonMark", url="https://spec.commonmark.org/0.31.2/", note="the syntax")
RFC = Source(title="RFC 3986", url="https://www.rfc-editor.org/rfc/rfc3986", note="URI syntax")
TEXT = [paragraph("Long enough for this small site.")]

revisions = [
    revision(
        slug="one-source", title="One", categories=["Notes"], excerpt="Too few sources.",
        published="2026-12-01", body=TEXT, sources=[SPEC],
    ),
    revision(
        slug="source-mistakes", title="Mistakes", categories=["Notes"], excerpt="Wrong sources.",
        published="2026-12-01", body=TEXT,
        sources=[
            SPEC,
            RFC,
            Source(title="RFC 3986 again", url="https://www.rfc-editor.org/rfc/rfc3986", note="again"),
            Source(title="A mirror", url="ftp://ftp.example/rfc3986.txt", note="over FTP"),
            Source(title="No note", url="https://example.org/"),
            "https://example.com/",
        ],
    ),
]
"""

LINKS = """\
from site_builder import Markup, Source, figure, markdown, paragraph, revision

SPEC = Source(title="CommonMark", url="https://spec.commonmark.org/0.31.2/", note="the syntax")

revisions = [
    revision(
        slug="good-links", title="Good", categories=["Notes"], excerpt="Links that resolve.",
        published="2026-12-01", sources=[SPEC], cover="/assets/plot.svg",
        body=[
            paragraph("See [the other page](/articles/bad-links/) and [mail](mailto:a@b.example)."),
            paragraph("[All notes](/categories/notes/), [the feed](/feed.xml)."),
            figure("/assets/plot.svg", "A rising line.", "A plot."),
        ],
    ),
    revision(
        slug="bad-links", title="Bad", categories=["Notes"], excerpt="Links that do not.",
        published="2026-12-01", sources=[SPEC], cover="/images/cover.png",
        body=[
            paragraph("Do not [click](javascript:alert(1)) or [open](data:text/html,hi)."),
            paragraph("Not [protocol-relative](//cdn.example/x.js) nor [relative](notes.html)."),
            markdown("No [host](https://) and [no page](/articles/missing/)."),
            figure("/assets/missing.svg", "A missing file.", "Nothing there."),
            Markup('<a href="vbscript:msgbox(1)">trusted, yet checked</a>'),
        ],
    ),
]
"""

FRAGMENTS = """\
from site_builder import Source, heading, paragraph, revision

SPEC = Source(title="CommonMark", url="https://spec.commonmark.org/0.31.2/", note="the syntax")

revisions = [
    revision(
        slug="fragments", title="Fragments", categories=["Notes"], excerpt="Links into a page.",
        published="2026-12-01", sources=[SPEC],
        body=[
            heading("Setup"),
            paragraph("Back to [the setup](#setup), on to [the end](#the-end)."),
        ],
    ),
]
"""

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
        body=[paragraph("Soon: [a draft](/articles/half-written/) and [a gift](/articles/gift/#top).")],
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

LEFT_OUT_NAV = """\

[[tool.site_builder.nav]]
section = "Start here"
pages = [["teaser", "Teaser"], ["gift", "The gift"]]
"""


# --- fixtures ----------------------------------------------------------------------------------


def _report(files: dict[str, str], planted: int, settings: str = SETTINGS) -> dict:
    """Validate a broken site; its problem lines by rule, and the checks every such site has."""
    found = validate_both(site(files, settings))
    checks = found.checks(planted)
    checks["everyLineNamesAFile"] = all(
        line.startswith(("articles/", "pyproject.toml:")) for line in found.lines
    )
    return {"exit": found.code, "problems": found.by_rule, "summary": found.summary, "checks": checks}


@fixture
def fields() -> dict:
    """Required fields, unknown fields and wrong types."""
    return _report({"articles/post.py": FIELDS}, planted=8)


@fixture
def names() -> dict:
    """Slugs, categories, dates, languages and characters XML cannot carry."""
    return _report({"articles/post.py": NAMES}, planted=8)


@fixture
def measuring() -> dict:
    """How the body text is measured: ``bodyChars`` of ``revisions`` against the rule done by hand."""
    import html
    import re

    ran = run(site({"articles/post.py": MEASURED}), "revisions")
    (measured,) = ran.json()
    content = measured["contentHtml"]
    body = content[: content.rindex("\n<h2>")]  # without the sources section
    text = " ".join(html.unescape(re.sub(r"<[^>]*>", " ", body)).split())
    return {
        "contentHtml": content,
        "bodyChars": measured["bodyChars"],
        "text": text,
        "checks": {
            "exitsWithZero": ran.code == 0,
            "sourcesAreNotCounted": "CommonMark" not in text,
            "countIsTheRule": measured["bodyChars"] == len(text),
        },
    }


@fixture
def limits() -> dict:
    """A body under ``min_body_chars`` and one over ``max_body_chars``."""
    return _report({"articles/post.py": LIMITS}, planted=2, settings=LIMITS_SETTINGS)


@fixture
def blocks() -> dict:
    """What ``body`` may hold, and each helper given something it cannot render."""
    return _report({"articles/post.py": BLOCKS, "assets/plot.svg": SVG}, planted=11)


@fixture
def sources() -> dict:
    """Too few sources, a source without a field, a URL twice, a scheme, a non-Source."""
    return _report({"articles/post.py": SOURCES}, planted=5, settings=SOURCES_SETTINGS)


@fixture
def links() -> dict:
    """URL schemes, and site-relative URLs that must name a page or a file under assets/."""
    report = _report({"articles/post.py": LINKS, "assets/plot.svg": SVG}, planted=9)
    flat = [line for lines in report["problems"].values() for line in lines]
    report["checks"]["goodLinksPass"] = not any("good-links" in line for line in flat)
    return report


@fixture
def fragments() -> dict:
    """A link to a missing ``#fragment``: validate passes it, build finds it on the rendered page."""
    root = site({"articles/post.py": FRAGMENTS})
    checked, built = run(root, "validate"), run(root, "build")
    return {
        "validate": {"exit": checked.code, "stderr": checked.lines},
        "build": {"exit": built.code, "stderr": built.lines},
        "checks": {
            "validatePasses": checked.code == 0,
            "buildFails": built.code == 1,
            "onlyTheMissingId": len(built.lines) == 3 and "the-end" in built.lines[0],
            "nothingWritten": not (root / "build").exists(),
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
def settings() -> dict:
    """``[tool.site_builder]`` with a mistake on almost every line."""
    return _report({"articles/README.md": "No batches here yet.\n"}, planted=9, settings=BROKEN_SETTINGS)


@fixture
def settings_file() -> dict:
    """A ``pyproject.toml`` that is not TOML, and a site without its articles folder."""
    return _report({}, planted=2, settings=NOT_TOML)


@fixture
def left_out() -> dict:
    """Links and a nav entry to revisions a build leaves out; then the same site with both flags."""
    report = _report({"articles/post.py": LEFT_OUT}, planted=3, settings=SETTINGS + LEFT_OUT_NAV)
    previewed = run(
        site({"articles/post.py": LEFT_OUT}, SETTINGS + LEFT_OUT_NAV), "validate", "--drafts", "--future"
    )
    report["withDraftsAndFuture"] = {"exit": previewed.code, "stderr": previewed.lines}
    report["checks"]["flagsMakeItValid"] = previewed.code == 0
    return report


@fixture
def fixtures() -> dict:
    """A failing check, a fixture with an argument, a drifted output, a block backed by no fixture."""
    return _report({"articles/post.py": FIXTURES}, planted=4)


# --- the page ----------------------------------------------------------------------------------

rules = revision(
    slug="validation-rules",
    title="Validation rules",
    categories=["Reference"],
    excerpt="Every rule site-builder validate checks, with the exact line it prints and how to fix it.",
    published="2026-12-01",
    body=[
        paragraph(
            "`site-builder validate` reads every batch module of a site, checks every revision "
            "against the rules on this page, runs every fixture, and prints **all** the "
            "problems it found in one run, so that one mistake never hides another. Each "
            "problem is one line on stderr:"
        ),
        code_block("PATH:LINE: SUBJECT: message", language="text"),
        unordered_list(
            [
                "**PATH** is relative to the site root, with forward slashes: "
                "`articles/post.py` or `pyproject.toml`.",
                "**LINE** is where you wrote the thing at fault: the `revision(` call for a "
                "field, the helper call (`paragraph(`, `figure(`, …) for a block, the "
                "`Source(` call for a source, the `def` of a fixture, the key of a setting.",
                "**SUBJECT** is the revision's slug, `batch MODULE` for a module that cannot be "
                "loaded, `fixture MODULE:FUNCTION` for a fixture, or `settings` (and `page` for "
                "what `build` finds on a rendered page).",
                "**message** names the rule, the value you gave and the limit it broke.",
            ]
        ),
        paragraph(
            "The lines come sorted by file and line, and a last line counts them. The command "
            "then exits with 1 (0 when there is nothing to report). The same problems come "
            "out of `build`, which writes nothing while any is left, and of the pytest plugin; "
            "`validate --format json` prints each as an object whose `rule` field names the "
            "rule — see [Checking in CI](/articles/continuous-integration/)."
        ),
        heading("How to read this page"),
        paragraph(
            "Each section shows a small site with several mistakes planted in it, as its "
            "author wrote it, then what `validate` really prints for it, grouped under the "
            "name of the rule that `--format json` gives each problem. Line numbers count "
            "from the first line of the module shown. The sites use these settings unless a "
            "section shows others, so that a one-sentence article is long enough:"
        ),
        code_block(SETTINGS, language="toml"),
        # --- fields
        heading("Required fields and their types"),
        paragraph(
            "`revision(...)` takes keyword arguments only. `slug`, `title`, `categories`, "
            "`excerpt`, `published`, `body` and `sources` are required; `cover`, `lang`, "
            "`reading_minutes` and `draft` are optional. None of these mistakes stops the module from "
            "importing: `revision` records each one at the line of its call and validation "
            "reports them with everything else."
        ),
        code_block(FIELDS, language="python"),
        verified_output(
            fields,
            expected={
                "exit": 1,
                "problems": {
                    "required": [
                        "articles/post.py:7: no-excerpt: missing required field 'excerpt'",
                        "articles/post.py:11: empty-title: title must not be empty",
                    ],
                    "unknown-field": [
                        "articles/post.py:15: unknown-fields: unknown field 'author'",
                        "articles/post.py:15: unknown-fields: unknown field 'reading_minute'; "
                        "did you mean 'reading_minutes'?",
                    ],
                    "field-type": [
                        "articles/post.py:19: wrong-types: category 2 must be a str, not int",
                        "articles/post.py:19: wrong-types: reading_minutes must be a whole number "
                        "of at least 1, not 0",
                        "articles/post.py:19: wrong-types: title must be a str, not int",
                        "articles/post.py:23: categories-str: categories must be a list, not str",
                    ],
                },
                "summary": "8 problems found",
            },
        ),
        unordered_list(
            [
                "**`required`** — a required field is missing, or `title` or `excerpt` is "
                "empty or only spaces. Give the field a value.",
                "**`unknown-field`** — `revision` has no such field. When the name is close "
                "to a real one (a typo), the message suggests it: `reading_minute` → "
                "`reading_minutes`. A name like nothing it knows gets no suggestion.",
                "**`field-type`** — a text field must be a `str`; `categories`, `body` and "
                "`sources` must be lists (a tuple also works); every category a `str`; "
                "`reading_minutes` a whole number of at least 1 (leave it out and the tool "
                "computes it); `draft` exactly `True` or `False`. A lone string is not a list: "
                '`categories="Notes"` is reported, not read as one category.',
            ]
        ),
        # --- names
        heading("Slugs, categories, dates, languages and characters"),
        code_block(NAMES, language="python"),
        verified_output(
            names,
            expected={
                "exit": 1,
                "problems": {
                    "slug": [
                        "articles/post.py:7: Retry_Effects: slug 'Retry_Effects' must be 3 to 120 "
                        "characters of a-z, 0-9 and '-'"
                    ],
                    "slug-unique": [
                        "articles/post.py:15: retry: slug 'retry' is already used at articles/post.py:11"
                    ],
                    "categories": [
                        "articles/post.py:19: no-category: at least one category is required",
                        "articles/post.py:23: odd-categories: category 2 is empty",
                        "articles/post.py:23: odd-categories: category 3 makes a URL name of 249 "
                        "bytes; at most 200 fit a file name",
                    ],
                    "lang": [
                        "articles/post.py:28: date-and-lang: lang 'english' is not a language tag "
                        "like 'en' or 'ru'"
                    ],
                    "published": [
                        "articles/post.py:28: date-and-lang: published '2026-12-1' is not an ISO "
                        "date like 2020-06-18"
                    ],
                    "xml-character": [
                        "articles/post.py:32: form-feed: excerpt contains U+000C at character 9, "
                        "which XML 1.0 forbids"
                    ],
                },
                "summary": "8 problems found",
            },
        ),
        unordered_list(
            [
                "**`slug`** — the slug becomes the page's address (`/articles/SLUG/`), so it "
                "is 3 to 120 characters of lower-case ASCII letters, digits and hyphens.",
                "**`slug-unique`** — two revisions with the same slug would write the same "
                "page. The problem is reported at the later one and names where the slug was "
                "first used, in the same module or another one (modules are read in file-name "
                "order). Rename one of them.",
                "**`categories`** — every revision needs at least one category, and no "
                "category may be blank. Each category gets a page whose folder name is made "
                "from it, and a file name has room for about 255 bytes, so a category whose "
                "URL name would be longer than 200 bytes is refused.",
                "**`published`** — exactly `YYYY-MM-DD`, and a day that exists: `2026-12-1` "
                "lacks a zero, `2026-02-30` is no date.",
                "**`lang`** — an optional language tag such as `en`, `ru` or `pt-BR` (two or "
                "three letters, then `-` parts); without it a revision has the site's "
                "`language`.",
                "**`xml-character`** — the feed and the sitemap are XML, and XML 1.0 cannot "
                "carry most control characters (U+0000 to U+001F except tab, line feed and "
                "carriage return), lone surrogates, U+FFFE or U+FFFF, not even escaped. The "
                "message names the field and the position of the first such character; in the "
                "body it is reported at the helper call that holds it. Delete the character.",
            ]
        ),
        # --- body length
        heading("How the body is measured"),
        paragraph(
            "The length limits apply to the body's *visible text*, measured the same way "
            "for every revision: take the revision's `contentHtml` without the sources "
            "section, replace every tag by a space, decode entities (`&amp;` becomes `&`), "
            "collapse every run of whitespace to one space, trim, and count Unicode code "
            "points. Here is one revision, the `contentHtml` and `bodyChars` that "
            "`site-builder revisions` prints for it, and the text the fixture gets by doing "
            "those steps by hand — its length is `bodyChars`:"
        ),
        code_block(MEASURED, language="python"),
        verified_output(
            measuring,
            expected={
                "contentHtml": (
                    "<h2>Tea &amp; cake</h2>\n<p>Two   spaces, <em>emphasis</em> and "
                    "<code>a &lt; b</code>.</p>\n"
                    '<pre><code class="language-python">x = a &lt; b</code></pre>\n'
                    "<h2>Sources</h2>\n"
                    '<ul><li><a href="https://spec.commonmark.org/0.31.2/" target="_blank" '
                    'rel="noopener noreferrer">CommonMark</a> — the syntax</li></ul>'
                ),
                "bodyChars": 53,
                "text": "Tea & cake Two spaces, emphasis and a < b . x = a < b",
            },
        ),
        paragraph(
            "Two consequences are worth knowing. Markup costs nothing, and neither do the "
            "sources: only what a reader sees counts. And because a tag becomes a space, the "
            "end of inline code or emphasis right before a full stop adds one character "
            "(`a < b .` above). Code blocks count like any other text."
        ),
        paragraph(
            "**`body-length`** — the body is shorter than `min_body_chars` or longer than "
            "`max_body_chars` of the settings (5,000 and 15,000 unless the site says "
            "otherwise). The message gives the measured length; the problem is at the "
            "`revision(` line. This site allows 20 to 60:"
        ),
        code_block(LIMITS_SETTINGS, language="toml"),
        code_block(LIMITS, language="python"),
        verified_output(
            limits,
            expected={
                "exit": 1,
                "problems": {
                    "body-length": [
                        "articles/post.py:6: too-short: body is 10 characters; at least 20 are required",
                        "articles/post.py:10: too-long: body is 99 characters; at most 60 are allowed",
                    ]
                },
                "summary": "2 problems found",
            },
        ),
        # --- blocks
        heading("What the body holds"),
        paragraph(
            "`body` is a list of blocks made by the helpers (`paragraph`, `heading`, "
            "`markdown`, `code_block`, `figure`, `ordered_list`, `unordered_list`, "
            "`data_table`, `verified_output`) or of trusted `Markup`. A helper never raises "
            "for a wrong argument: it records the mistake at the line of its call, so the "
            "problem points at the block, not at the revision."
        ),
        code_block(BLOCKS, language="python"),
        verified_output(
            blocks,
            expected={
                "exit": 1,
                "problems": {
                    "body-type": [
                        "articles/post.py:7: not-blocks: body item 2 is plain text; wrap it in "
                        "paragraph() or markdown()",
                        "articles/post.py:7: not-blocks: body item 3 is a Source, not a helper block",
                    ],
                    "helper-type": [
                        "articles/post.py:10: not-blocks: paragraph(): the text must be a str or "
                        "Markup, not int"
                    ],
                    "field-type": ["articles/post.py:12: one-block: body must be a list, not Block"],
                    "code-language": [
                        "articles/post.py:22: helper-mistakes: code_block(): language 'c plus plus' "
                        "is not a name like 'python'"
                    ],
                    "list-empty": [
                        "articles/post.py:23: helper-mistakes: unordered_list(): a list needs at "
                        "least one item"
                    ],
                    "table-headers": [
                        "articles/post.py:24: helper-mistakes: data_table(): a table needs at least "
                        "one header"
                    ],
                    "table-row-width": [
                        "articles/post.py:25: helper-mistakes: data_table(): row 2 has 1 cell; "
                        "the header has 2"
                    ],
                    "figure-alt": [
                        "articles/post.py:26: helper-mistakes: figure(): alt text is required and "
                        "must not be empty"
                    ],
                    "figure-caption": [
                        "articles/post.py:27: helper-mistakes: figure(): a caption is required and "
                        "must not be empty"
                    ],
                    "figure-src": [
                        "articles/post.py:28: helper-mistakes: figure(): src must be a non-empty path, not ''"
                    ],
                },
                "summary": "11 problems found",
            },
        ),
        unordered_list(
            [
                "**`body-type`** — an item of `body` is not a block. A plain string is "
                "refused rather than guessed at: wrap it in `paragraph()` (one paragraph of "
                "inline Markdown) or `markdown()` (several paragraphs, lists, fences).",
                "**`helper-type`** — a helper got a value it cannot render: text must be a "
                "`str` (or `Markup`); table cells may also be numbers.",
                "**`field-type`** — `body` itself must be a list, even for one block.",
                "**`code-language`** — the language of `code_block` becomes a CSS class "
                "(`language-python`), so it is a name of letters, digits and `_ + # . -`, "
                "1 to 40 characters.",
                "**`list-empty`**, **`table-headers`** — a list needs an item and a table a header.",
                "**`table-row-width`** — every row of `data_table` has as many cells as the "
                "header has columns; the message gives the row number, counted from 1.",
                "**`figure-alt`**, **`figure-caption`**, **`figure-src`** — a figure needs "
                "non-empty alt text for readers who cannot see it, a caption, and a `src`. The "
                "`src` must also resolve, like any link (next sections).",
            ]
        ),
        # --- sources
        heading("Sources"),
        paragraph(
            "Each `Source(title=..., url=..., note=...)` is listed after the body. This site "
            "asks for at least two per revision:"
        ),
        code_block(SOURCES_SETTINGS, language="toml"),
        code_block(SOURCES, language="python"),
        verified_output(
            sources,
            expected={
                "exit": 1,
                "problems": {
                    "sources-count": [
                        "articles/post.py:8: one-source: cites 1 source; at least 2 are required"
                    ],
                    "field-type": [
                        "articles/post.py:12: source-mistakes: source 6 must be a Source(...), not str"
                    ],
                    "source-duplicate": [
                        "articles/post.py:18: source-mistakes: source 3 repeats the URL "
                        "'https://www.rfc-editor.org/rfc/rfc3986'"
                    ],
                    "url": [
                        "articles/post.py:19: source-mistakes: URL scheme 'ftp:' is not allowed in "
                        "'ftp://ftp.example/rfc3986.txt'; use https:, http:, mailto:, /path or #fragment"
                    ],
                    "source-field": ["articles/post.py:20: source-mistakes: source 5 needs a non-empty note"],
                },
                "summary": "5 problems found",
            },
        ),
        unordered_list(
            [
                "**`sources-count`** — fewer sources than `min_sources` (2 by default; a site "
                "may set 0, as this documentation does).",
                "**`source-field`** — a source without a title, a URL or a note; the note "
                "says what the source supports.",
                "**`source-duplicate`** — the same URL twice in one revision.",
                "**`field-type`** — an item of `sources` that is not a `Source(...)`.",
                "A source's URL follows the same scheme rules as every link (`url`).",
            ]
        ),
        paragraph(
            "A problem of one source is reported at the line of its `Source(` call — a "
            "source defined once at the top of a module and cited by many revisions points "
            "at that line, under each revision's slug."
        ),
        # --- links
        heading("Links, figures and covers"),
        paragraph(
            "Every URL an article uses — Markdown links in any helper, a figure's `src`, a "
            "`cover`, a source's URL, and the `href`, `src` (and other URL attributes) of "
            "trusted `Markup` — must be "
            "`https:`, `http:`, `mailto:`, a site-relative path starting with `/`, or a "
            "`#fragment`. Nothing is rewritten: `javascript:`, `data:`, `vbscript:`, "
            "protocol-relative `//host/…` and relative `notes.html` are problems. A "
            "site-relative path must then name a page of the site (`/`, `/articles/SLUG/`, "
            "`/categories/…/`, `/feed.xml`, `/sitemap.xml`, …) or a file under the assets "
            "folder, served as `/assets/…`."
        ),
        code_block(LINKS, language="python"),
        verified_output(
            links,
            expected={
                "exit": 1,
                "problems": {
                    "url-target": [
                        "articles/post.py:15: bad-links: '/images/cover.png' is neither a file under "
                        "assets/ nor a page of the site",
                        "articles/post.py:21: bad-links: '/articles/missing/' is neither a file under "
                        "assets/ nor a page of the site",
                        "articles/post.py:22: bad-links: '/assets/missing.svg' is neither a file under "
                        "assets/ nor a page of the site",
                    ],
                    "url": [
                        "articles/post.py:15: bad-links: URL scheme 'vbscript:' is not allowed in "
                        "'vbscript:msgbox(1)'; use https:, http:, mailto:, /path or #fragment",
                        "articles/post.py:19: bad-links: URL scheme 'data:' is not allowed in "
                        "'data:text/html,hi'; use https:, http:, mailto:, /path or #fragment",
                        "articles/post.py:19: bad-links: URL scheme 'javascript:' is not allowed in "
                        "'javascript:alert(1)'; use https:, http:, mailto:, /path or #fragment",
                        "articles/post.py:20: bad-links: protocol-relative URL '//cdn.example/x.js' "
                        "is not allowed; write https://",
                        "articles/post.py:20: bad-links: relative URL 'notes.html' is not allowed; "
                        "start it with '/' from the site root",
                        "articles/post.py:21: bad-links: URL 'https://' has no host",
                    ],
                },
                "summary": "9 problems found",
            },
        ),
        unordered_list(
            [
                "**`url`** — a scheme other than `https:`, `http:` or `mailto:`; a URL "
                "starting with `//`; a relative path (start it with `/` from the site root); "
                "an `http(s)` URL without a host. Before the scheme is read, the URL is cleaned "
                "as a browser would (leading spaces and control characters dropped, tabs and "
                "newlines removed), so `java\\tscript:` is caught too.",
                "**`url-target`** — a site-relative URL that is neither a page nor a file "
                "under `assets/`. For a figure, move the file into `assets/`; for a page, check "
                "the slug.",
                "The cover and the URLs of `Markup` are reported at the `revision(` line "
                "(line 15 above), since no helper call holds them; everything else at its "
                "helper call.",
            ]
        ),
        paragraph(
            "Every link of the first revision passes: the other article's page, a category "
            "page, the feed, a `mailto:` address and a file that exists under `assets/`."
        ),
        paragraph(
            "**`#fragment` links** are not checked by `validate`. `build` checks them once "
            "the pages exist, together with every other link, `src` and `alt` of the "
            "rendered site, and reports a broken one at the line of the page it would have "
            "written:"
        ),
        code_block(FRAGMENTS, language="python"),
        verified_output(
            fragments,
            expected={
                "validate": {"exit": 0, "stderr": ["ok: 1 revisions valid, 0 fixtures passed"]},
                "build": {
                    "exit": 1,
                    "stderr": [
                        "build/articles/fragments/index.html:51: page: '#the-end': no element with "
                        "id 'the-end' on articles/fragments/index.html",
                        "1 problem found",
                        "nothing was written; the previous site is untouched",
                    ],
                },
            },
        ),
        paragraph(
            "A heading gets an id made from its text (`Setup` → `#setup`), so `#setup` "
            "resolves and `#the-end` does not."
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
                    "published": [
                        "articles/a_fine.py:4: still-checked: published '2026-13-01' is not an ISO "
                        "date like 2020-06-18"
                    ],
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
                "would let some through inside comments).",
                "**`batch-revisions`** — the module has no module-level `revisions`, it is not "
                "a list (or tuple), or an item of it is not a `revision(...)`; the problem is at "
                "the `revisions =` line (line 1 when there is none). The good items of a list "
                "with a wrong one are still checked.",
            ]
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
                    "settings-unknown": ["pyproject.toml:5: settings: unknown key 'min_source'"],
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
                "**`settings-unknown`** — a key the tool does not know, often a typo "
                "(`min_source` for `min_sources`).",
                "**`settings-type`** — a value of the wrong TOML type: a number where text is "
                "expected, text where a number is.",
                "**`settings-value`** — a value of the right type that cannot work: a "
                "`base_url` that is not an absolute `http(s)` URL, a `language` that is not a "
                "tag, a negative limit, a `fixture_timeout` of 0 or less, an `*_dir` outside "
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
        # --- left out
        heading("Links to drafts and scheduled revisions"),
        paragraph(
            "A build leaves out drafts and revisions dated after the build's date (see [Writing an "
            "article](/articles/writing-articles/)). A revision it publishes that links to one of "
            "them would send readers to a page that does not exist, so that link is a problem, at "
            "the line of the helper call that holds it (or of `revision(` for a `cover`), naming "
            "the revision and the flag that would include it. The ordered navigation may not list "
            "such a revision either. `validate`, the pytest plugin and `build` all report it. In this "
            "site, `articles/post.py` holds a published revision, a draft and a scheduled one, and "
            "the navigation in `pyproject.toml` lists `teaser` and `gift`:"
        ),
        code_block(LEFT_OUT, language="python"),
        code_block(SETTINGS + LEFT_OUT_NAV, language="toml"),
        verified_output(
            left_out,
            expected={
                "exit": 1,
                "problems": {
                    "left-out": [
                        "articles/post.py:10: teaser: '/articles/gift/#top' links to 'gift', which this "
                        "build leaves out (scheduled for 2026-12-24); --future includes it",
                        "articles/post.py:10: teaser: '/articles/half-written/' links to "
                        "'half-written', which this build leaves out (a draft); --drafts includes it",
                    ],
                    "nav": [
                        "pyproject.toml:9: settings: nav lists 'gift', which this build leaves out "
                        "(scheduled for 2026-12-24); --future includes it",
                    ],
                },
                "summary": "3 problems found",
            },
        ),
        unordered_list(
            [
                "**`left-out`** — a published revision links to a draft or a scheduled revision (or "
                "to the page of a category that lists only such revisions). Remove the link until "
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
        verified_output(
            left_out,
            expected={
                "withDraftsAndFuture": {"exit": 0, "stderr": ["ok: 3 revisions valid, 0 fixtures passed"]},
            },
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
            "validates builds — save for what only the rendered pages can show, such as the "
            "`#fragment` links above."
        ),
    ],
    sources=[
        Source(
            title="Extensible Markup Language (XML) 1.0, section 2.2: Characters",
            url="https://www.w3.org/TR/xml/#charsets",
            note="the characters an XML document may contain, which the feed and sitemap must respect",
        ),
        Source(
            title="RFC 5646: Tags for Identifying Languages",
            url="https://www.rfc-editor.org/rfc/rfc5646",
            note="the form of language tags such as en, ru and pt-BR",
        ),
    ],
)

revisions = [rules]
