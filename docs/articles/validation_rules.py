"""Documentation: every validation rule, with the exact line the tool prints for it.

Each fixture makes one small site with several planted mistakes, runs ``validate``
on it in text and in JSON, and returns the problem lines grouped by rule name.
"""

from _checking import broken_site
from _tool import SETTINGS, run, session, site

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
    revision(
        slug="", title="No slug", categories=["Notes"], excerpt="An empty slug.",
        published="2026-12-01", body=TEXT, sources=[SPEC],
    ),
    revision(
        slug="no-date", title="No date", categories=["Notes"], excerpt="An empty date.",
        published="", body=TEXT, sources=[SPEC],
    ),
]
"""

FIELD_LINES = """\
from site_builder import Source, paragraph, revision

SPEC = Source(title="CommonMark", url="https://spec.commonmark.org/0.31.2/", note="the syntax")

revisions = [
    revision(
        slug="one-field-a-line",
        title="One field a line",
        categories=["Notes"],
        excerpt="Each field on a line of its own.",
        published="2026-12-32",
        body=[paragraph("Long enough for this small site.")],
        sources=[SPEC],
    ),
]
"""
"""One field a line: a day that does not exist, and one source where the site asks for two."""

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
            code_block("print(1)", lang="python"),
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
            Source(titel="RFC 3987", url="https://www.rfc-editor.org/rfc/rfc3987", note="IRIs"),
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
            markdown(
                "No [host](https://), [no page](/articles/missing/), "
                "[nearly](/articles/good-link/)."
            ),
            figure("/assets/missing.svg", "A missing file.", "Nothing there."),
            Markup('<a href="vbscript:msgbox(1)">trusted, yet checked</a>'),
        ],
    ),
]
"""

FRAGMENTS = """\
from site_builder import Markup, Source, heading, paragraph, revision

SPEC = Source(title="CommonMark", url="https://spec.commonmark.org/0.31.2/", note="the syntax")

revisions = [
    revision(
        slug="retries", title="Retries", categories=["Notes"], excerpt="Links into pages.",
        published="2026-12-01", sources=[SPEC],
        body=[
            heading("Retry budget"),
            paragraph("See [the budget](#retry-budget), [the end](#the-end) and [the box](#kept)."),
            Markup('<p id="kept">An id written in trusted HTML.</p>'),
            paragraph("Elsewhere: [its setup](/articles/setup/#install), [the top](/#main)."),
            paragraph("Typos: [the budget](#retry-budgte), [its setup](/articles/setup/#instal)."),
        ],
    ),
    revision(
        slug="setup", title="Setup", categories=["Notes"], excerpt="The other page.",
        published="2026-12-01", sources=[SPEC],
        body=[heading("Install"), paragraph("Back to [the budget](/articles/retries/#retry-budget).")],
    ),
]
"""
"""Links to ids of the same page, of another article and of the home page; three do not resolve."""

# --- fixtures ----------------------------------------------------------------------------------


@fixture
def fields() -> dict:
    """Required fields, unknown fields and wrong types."""
    return broken_site({"articles/post.py": FIELDS}, planted=10)


@fixture
def field_lines() -> dict:
    """FIELD_LINES under SOURCES_SETTINGS: the text and the GitHub lines point at each field."""
    root = site({"articles/post.py": FIELD_LINES}, SOURCES_SETTINGS)
    ran = session(root, ["validate"], ["validate", "--format", "github"])
    text = ran.lines[1 : ran.lines.index("$ site-builder validate --format github")]
    written = FIELD_LINES.splitlines()
    published = next(n for n, line in enumerate(written, 1) if line.strip().startswith("published="))
    sources = next(n for n, line in enumerate(written, 1) if line.strip().startswith("sources="))
    return {
        "transcript": ran.lines,
        "checks": {
            "bothExitOne": ran.codes == [1, 1],
            "atThePublishedLine": text[0].startswith(f"articles/post.py:{published}: "),
            "atTheSourcesLine": text[1].startswith(f"articles/post.py:{sources}: "),
            "notAtTheCall": not any(line.startswith("articles/post.py:6:") for line in text),
        },
    }


@fixture
def names() -> dict:
    """Slugs, categories, dates, languages and characters XML cannot carry."""
    return broken_site({"articles/post.py": NAMES}, planted=8)


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
    return broken_site({"articles/post.py": LIMITS}, planted=2, settings=LIMITS_SETTINGS)


@fixture
def blocks() -> dict:
    """What ``body`` may hold, and each helper given something it cannot render."""
    return broken_site({"articles/post.py": BLOCKS, "assets/plot.svg": SVG}, planted=12)


@fixture
def sources() -> dict:
    """Too few sources, a source without a field, a URL twice, a scheme, a non-Source."""
    return broken_site({"articles/post.py": SOURCES}, planted=6, settings=SOURCES_SETTINGS)


@fixture
def links() -> dict:
    """URL schemes, and site-relative URLs that must name a page or a file under assets/."""
    report = broken_site({"articles/post.py": LINKS, "assets/plot.svg": SVG}, planted=10)
    flat = [line for lines in report["problems"].values() for line in lines]
    report["checks"]["goodLinksPass"] = not any(": good-links: " in line for line in flat)
    return report


@fixture
def fragments() -> dict:
    """Links to missing ``#fragment`` ids: validate reports them at the helper call, and so does build."""
    root = site({"articles/post.py": FRAGMENTS})
    ran = session(root, ["validate"], ["build"])
    built = ran.lines.index("$ site-builder build")
    checked, building = ran.lines[1:built], ran.lines[built + 1 :]
    return {
        "transcript": ran.lines,
        "checks": {
            "bothFail": ran.codes == [1, 1],
            "buildSaysTheSame": building[:-1] == checked,
            "nothingInTheOutputFolder": not any(line.startswith("build/") for line in ran.lines),
            "nothingWritten": not (root / "build").exists(),
        },
    }


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
                "**LINE** is where you wrote the thing at fault: the field's own keyword "
                "(`sources=`, `published=`, …) for a field, the `revision(` call for a field "
                "that is missing, the helper call (`paragraph(`, `figure(`, …) for a block and "
                "for the links in it, the `Source(` call for a source, the `def` of a fixture, "
                "the key of a setting, the line of a template.",
                "**SUBJECT** is the revision's slug, `batch MODULE` for a module that cannot be "
                "loaded, `fixture MODULE:FUNCTION` for a fixture, `settings`, or `template` for "
                "a template of the site's own.",
                "**message** names the rule, the value you gave and the limit it broke.",
            ]
        ),
        paragraph(
            "The lines come sorted by file and line, and a last line counts them. The command "
            "then exits with 1 (0 when there is nothing to report, or only warnings). The same "
            "problems come out of `build`, which writes nothing while an error is left, and of the "
            "pytest plugin; "
            "`validate --format json` prints each as an object whose `rule` field names the "
            "rule — see [Checking in CI](/articles/continuous-integration/). One rule is a "
            "*warning* rather than an error: a category spelt close to another one. A warning "
            "is printed with the errors, with `warning:` before its message, and fails nothing "
            "([Site-wide rules](/articles/site-wide-rules/#categories-written-two-ways))."
        ),
        paragraph(
            "Everything an author writes is judged before anything is rendered, so `validate` "
            "and the pytest plugin catch what `build` would stop on — a link to a missing "
            "`#fragment` too — and no problem ever names a file of the output folder. What only "
            "a rendered page can show comes from a template, and `build` reports it at the "
            "template's line ([Site-wide rules](/articles/site-wide-rules/#templates-a-site-writes)); "
            "the one other thing only `build` finds is an SVG cover it cannot draw as a PNG for "
            "social sites ([Templates and "
            "theming](/articles/templates-and-theming/#the-cover-social-sites-see))."
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
            "`reading_minutes` and `draft` are optional, and `revised` and `changes` are for a later "
            "revision of a published article only. None of these mistakes stops the module from "
            "importing: `revision` records each one at the line where the field is written — "
            "the `revision(` line for a field that is missing — and validation reports them "
            "with everything else."
        ),
        code_block(FIELDS, language="python"),
        verified_output(
            fields,
            expected={
                "exit": 1,
                "problems": {
                    "required": [
                        "articles/post.py:7: no-excerpt: missing required field 'excerpt'",
                        "articles/post.py:12: empty-title: title must not be empty",
                        "articles/post.py:28: revision: slug must not be empty",
                        "articles/post.py:33: no-date: published must not be empty",
                    ],
                    "unknown-field": [
                        "articles/post.py:17: unknown-fields: unknown field 'author'",
                        "articles/post.py:17: unknown-fields: unknown field 'reading_minute'; "
                        "did you mean 'reading_minutes'?",
                    ],
                    "field-type": [
                        "articles/post.py:20: wrong-types: category 2 must be a str, not int",
                        "articles/post.py:20: wrong-types: title must be a str, not int",
                        "articles/post.py:21: wrong-types: reading_minutes must be a whole number "
                        "of at least 1, not 0",
                        "articles/post.py:24: categories-str: categories must be a list, not str",
                    ],
                },
                "summary": "10 problems found",
            },
        ),
        unordered_list(
            [
                "**`required`** — a required field is missing, or `slug`, `title`, `excerpt` or "
                "`published` is empty or only spaces. Give the field a value. A revision without "
                "a slug is named `revision` in its problems.",
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
        heading("The line of a field"),
        paragraph(
            "A problem about one field is reported at the line where that field's keyword is "
            "written, so an editor — or a GitHub annotation — takes you to the value at fault, "
            "not to the start of a long `revision(...)` call. Written one field a line, as most "
            "articles are, each problem has a line of its own, in the text output and in the "
            "annotations of `--format github` alike. This site asks for two sources:"
        ),
        code_block(FIELD_LINES, language="python"),
        transcript(
            field_lines,
            """
            $ site-builder validate
            articles/post.py:11: one-field-a-line: published '2026-12-32' is not an ISO date like 2020-06-18
            articles/post.py:13: one-field-a-line: cites 1 source; at least 2 are required
            2 problems found
            $ site-builder validate --format github
            ::error file=articles/post.py,line=11,title=published::one-field-a-line: published '2026-12-32' is not an ISO date like 2020-06-18
            ::error file=articles/post.py,line=13,title=sources-count::one-field-a-line: cites 1 source; at least 2 are required
            """,  # noqa: E501
        ),
        unordered_list(
            [
                "The slug, title, excerpt, categories, date, language, reading time, cover, "
                "body and sources each point at their own keyword: a body too short at `body=`, "
                "too few sources at `sources=`, a duplicate slug at the second `slug=` (naming "
                "the first one's `slug=` line).",
                "A field that is missing has no line of its own: `missing required field` is at "
                "the `revision(` line. So is a field passed through `**mapping`, and every "
                "field when Python runs with `-X no_debug_ranges`, which drops the column "
                "information the lines are read from.",
                "A problem inside one block — a helper given a wrong value, a bad link in a "
                "`paragraph(...)` — stays at that helper's call, and a problem of one source at "
                "its `Source(` call.",
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
                        "articles/post.py:8: Retry_Effects: slug 'Retry_Effects' must be 3 to 120 "
                        "characters of a-z, 0-9 and '-'"
                    ],
                    "slug-unique": [
                        "articles/post.py:16: retry: slug 'retry' is already used at articles/post.py:12; "
                        "a later revision of that article gives revised= (its date) and changes= (what "
                        "changed and why)"
                    ],
                    "categories": [
                        "articles/post.py:20: no-category: at least one category is required",
                        "articles/post.py:24: odd-categories: category 2 is empty",
                        "articles/post.py:24: odd-categories: category 3 makes a URL name of 249 "
                        "bytes; at most 200 fit a file name",
                    ],
                    "lang": [
                        "articles/post.py:30: date-and-lang: lang 'english' is not a language tag "
                        "like 'en' or 'ru'"
                    ],
                    "published": [
                        "articles/post.py:30: date-and-lang: published '2026-12-1' is not an ISO "
                        "date like 2020-06-18"
                    ],
                    "xml-character": [
                        "articles/post.py:33: form-feed: excerpt contains U+000C at character 9, "
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
                "**`slug-unique`** — a slug used again is either a second article, which needs "
                "a slug of its own, or a later revision of the same article, which says so with "
                "`revised=` and `changes=` ([Correcting an article](/articles/revisions-over-time/)). "
                "A revision that does neither is reported at its `slug=`, naming where the slug was "
                "first used, in the same module or another one (modules are read in file-name "
                "order). Rename it, or make it the article's next revision.",
                "**`categories`** — every revision needs at least one category, and no "
                "category may be blank. Each category gets a page whose folder name is made "
                "from it, and a file name has room for about 255 bytes, so a category whose "
                "URL name would be longer than 200 bytes is refused.",
                "**`published`** — exactly `YYYY-MM-DD`, and a day that exists: `2026-12-1` "
                "lacks a zero, `2026-02-30` is no date.",
                "**`lang`** — an optional language tag such as `en`, `ru` or `ko-KR` (two or "
                "three letters, then `-` parts); without it a revision has the site's "
                "`language`. The language must be one the chrome can be written in — `en`, `ru`, "
                "`ko`, or one the site adds with a labels table; otherwise the problem, at the "
                "`lang=` line, says so and names the table to add "
                "([Languages](/articles/languages/#the-languages-of-the-chrome)).",
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
            "`body=` line. This site allows 20 to 60:"
        ),
        code_block(LIMITS_SETTINGS, language="toml"),
        code_block(LIMITS, language="python"),
        verified_output(
            limits,
            expected={
                "exit": 1,
                "problems": {
                    "body-length": [
                        "articles/post.py:8: too-short: body is 10 characters; at least 20 are required",
                        "articles/post.py:12: too-long: body is 99 characters; at most 60 are allowed",
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
                        "articles/post.py:10: not-blocks: body item 2 is plain text; wrap it in "
                        "paragraph() or markdown()",
                        "articles/post.py:10: not-blocks: body item 3 is a Source, not a helper block",
                    ],
                    "helper-type": [
                        "articles/post.py:10: not-blocks: paragraph(): the text must be a str or "
                        "Markup, not int"
                    ],
                    "field-type": ["articles/post.py:15: one-block: body must be a list, not Block"],
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
                    "helper-arguments": [
                        "articles/post.py:29: helper-mistakes: code_block(): unknown keyword 'lang'; "
                        "did you mean 'language'?"
                    ],
                },
                "summary": "12 problems found",
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
                "**`transcript-session`** — a `transcript`'s session starts with a command, a line "
                "beginning with `$ ` ([Writing an article](/articles/writing-articles/#transcript) "
                "shows the message).",
                "**`helper-arguments`** — a call the helper does not take: a keyword it does "
                "not have (with the one meant, or the list of those it takes), an argument "
                "missing, one too many or one given twice. The block adds nothing to the page; "
                "the batch still imports, so its other problems are reported with it.",
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
                        "articles/post.py:10: one-source: cites 1 source; at least 2 are required"
                    ],
                    "field-type": [
                        "articles/post.py:15: source-mistakes: source 7 must be a Source(...), not str"
                    ],
                    "source-duplicate": [
                        "articles/post.py:18: source-mistakes: source 3 repeats the URL "
                        "'https://www.rfc-editor.org/rfc/rfc3986'"
                    ],
                    "url": [
                        "articles/post.py:19: source-mistakes: URL scheme 'ftp:' is not allowed in "
                        "'ftp://ftp.example/rfc3986.txt'; use https:, http:, mailto:, /path or #fragment"
                    ],
                    "source-field": [
                        "articles/post.py:20: source-mistakes: source 5 needs a non-empty note",
                        "articles/post.py:21: source-mistakes: source 6 has no field 'titel'; did you "
                        "mean 'title'?",
                    ],
                },
                "summary": "6 problems found",
            },
        ),
        unordered_list(
            [
                "**`sources-count`** — fewer sources than `min_sources` (2 by default; a site "
                "may set 0, as this documentation does).",
                "**`source-field`** — a source without a title, a URL or a note (the note "
                "says what the source supports), or with a keyword it does not have: that is "
                "said once, with the field meant, not again as a missing field.",
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
            "folder, served as `/assets/…`. A link's problem is at the line of the string "
            "that holds it, even inside a helper call written over several lines (the "
            "`markdown(` below); in trusted `Markup`, at the `body=` line."
        ),
        code_block(LINKS, language="python"),
        verified_output(
            links,
            expected={
                "exit": 1,
                "problems": {
                    "url-target": [
                        "articles/post.py:17: bad-links: '/images/cover.png' is neither a file under "
                        "assets/ nor a page of the site",
                        "articles/post.py:22: bad-links: '/articles/missing/' is neither a file under "
                        "assets/ nor a page of the site",
                        "articles/post.py:23: bad-links: '/articles/good-link/' is neither a file under "
                        "assets/ nor a page of the site; did you mean '/articles/good-links/'?",
                        "articles/post.py:25: bad-links: '/assets/missing.svg' is neither a file under "
                        "assets/ nor a page of the site",
                    ],
                    "url": [
                        "articles/post.py:18: bad-links: URL scheme 'vbscript:' is not allowed in "
                        "'vbscript:msgbox(1)'; use https:, http:, mailto:, /path or #fragment",
                        "articles/post.py:19: bad-links: URL scheme 'data:' is not allowed in "
                        "'data:text/html,hi'; use https:, http:, mailto:, /path or #fragment",
                        "articles/post.py:19: bad-links: URL scheme 'javascript:' is not allowed in "
                        "'javascript:alert(1)'; use https:, http:, mailto:, /path or #fragment",
                        "articles/post.py:20: bad-links: protocol-relative URL '//cdn.example/x.js' "
                        "is not allowed; write https://",
                        "articles/post.py:20: bad-links: relative URL 'notes.html' is not allowed; "
                        "start it with '/' from the site root",
                        "articles/post.py:22: bad-links: URL 'https://' has no host",
                    ],
                },
                "summary": "10 problems found",
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
                "the slug. When a page or a file under `assets/` is a near copy of the path "
                "written, as a whole and in its last part (`good-link` for `good-links`), the "
                "problem names it.",
                "**`image-size`** — an image under `assets/` whose width and height cannot be "
                "read: an SVG with neither a size nor a `viewBox`, or a file that is not an image. "
                "Pages give every image its size, read from its file ([Writing an "
                "article](/articles/writing-articles/#image-sizes) shows the problem).",
                "The cover is reported at its `cover=` line (17 above) and the URLs of "
                "`Markup` placed directly in the body at the `body=` line (18), since no "
                "helper call holds them; everything else at its helper call.",
            ]
        ),
        paragraph(
            "Every link of the first revision passes: the other article's page, a category "
            "page, the feed, a `mailto:` address and a file that exists under `assets/`."
        ),
        heading("Links to a #fragment"),
        paragraph(
            "A link may end with `#id` to land on one element of a page: `#id` alone for the "
            "article's own page, `/articles/SLUG/#id` for another article, `/#id` or "
            "`/categories/#id` for another page of the site. The id must exist on that page. "
            "`validate`, the pytest plugin and `build` check it before anything is rendered, "
            "and report a missing one at the line of the helper call that holds the link, "
            "suggesting the closest id when one is near. Here the `retries` article links to "
            "ids of its own page, of the `setup` article and of the home page:"
        ),
        code_block(FRAGMENTS, language="python"),
        transcript(
            fragments,
            """
            $ site-builder validate
            articles/post.py:11: retries: '#the-end': no element with id 'the-end' on /articles/retries/
            articles/post.py:14: retries: '#retry-budgte': no element with id 'retry-budgte' on /articles/retries/; did you mean '#retry-budget'?
            articles/post.py:14: retries: '/articles/setup/#instal': no element with id 'instal' on /articles/setup/; did you mean '#install'?
            3 problems found
            $ site-builder build
            articles/post.py:11: retries: '#the-end': no element with id 'the-end' on /articles/retries/
            articles/post.py:14: retries: '#retry-budgte': no element with id 'retry-budgte' on /articles/retries/; did you mean '#retry-budget'?
            articles/post.py:14: retries: '/articles/setup/#instal': no element with id 'instal' on /articles/setup/; did you mean '#install'?
            3 problems found
            nothing was written; the previous site is untouched
            """,  # noqa: E501
        ),
        paragraph(
            "**`fragment`** — the page has no element with that id. The ids an article page has, "
            "and so the links that pass above (`#retry-budget`, `#kept`, `/articles/setup/#install`, "
            "`/#main`):"
        ),
        unordered_list(
            [
                "each heading's, made from its text: lower-cased, in its own script (a Russian "
                'heading keeps its Cyrillic), words joined by `-` — `heading("Retry budget")` is '
                "`#retry-budget`; a heading repeated on the page gets `-2`, `-3`; the sources "
                "section's heading too (`#sources` in English);",
                'the ids written in trusted HTML: `Markup(\'<p id="kept">…</p>\')`, and `<a name="…">`;',
                "the ids the page's template writes: `main`, `search`, `toc-heading`, "
                "`verified-heading` and `fixtures` (and `fixture-NAME` for each fixture in the box "
                "at the top), which no heading takes (a heading *Main* gets `main-2`); `history` "
                "and `history-heading`, the section listing the revisions of an article that has "
                "more than one ([Correcting an article](/articles/revisions-over-time/)), which no "
                "heading takes either — and, on a site with templates of its own, every id they "
                "write literally "
                '(`<section id="comments">`).',
            ]
        ),
        paragraph(
            "Any other page of the site has the ids its templates write (`/#main`, `/#search`). "
            '"Did you mean" names the closest of the target article\'s own ids (headings, ids '
            "in its HTML), never one of the template's. The URL in the message is quoted as it "
            "is in the page: Markdown writes the non-ASCII letters of a link percent-encoded "
            '(`#%D1%8F…`), while the id after "no element with id" is decoded. A link to a '
            "page that does not exist is one `url-target` problem, not a second one for its "
            "fragment; a fragment of a file under `assets/` (`/assets/icons.svg#check`) is not "
            "checked, and an empty `#` is fine."
        ),
        heading("Beyond one revision"),
        paragraph(
            "The rules above judge each revision on its own. [Site-wide rules](/articles/site-wide-rules/) "
            "has the others, in the same form: categories written two ways across the site (and "
            'the one rule that is a warning), batch modules that do not load, "did you mean" for '
            "every name you type, the settings, a site's own templates, links to drafts and "
            "scheduled revisions, and fixtures. The rules that tie an article's revisions together "
            "— `revision-first`, `revised`, `changes`, `published`, `revised-order`, "
            "`revision-body`, and `labels` for the words of the history pages — are shown with "
            "their lines in [Correcting an article](/articles/revisions-over-time/#the-rules). When "
            "`validate` has nothing left to say it prints "
            "`ok:` with the number of revisions and fixtures it checked, and exits with 0."
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
