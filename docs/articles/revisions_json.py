"""Documentation: the revisions command, revisions.json, its keys and its JSON Schema."""

import html
import json
import re
from importlib import resources
from pathlib import Path

from _pages_kit import page
from _tool import SETTINGS, article, run, session, site

from site_builder import (
    Source,
    code_block,
    data_table,
    fixture,
    heading,
    paragraph,
    revision,
    transcript,
    verified_output,
)

SAMPLE_SETTINGS = SETTINGS.replace('"https://demo.example/"', '"https://demo.example/blog/"')

FIRST_STEPS = """\
from site_builder import Source, fixture, heading, paragraph, revision, verified_output


@fixture
def answer() -> dict:
    value = 6 * 7
    return {"value": value, "checks": {"isFortyTwo": value == 42}}


revisions = [
    revision(
        slug="first-steps",
        title="Première étape",
        categories=["Guide"],
        excerpt="Where to begin.",
        cover="/assets/cover.svg",
        published="2026-11-30",
        body=[
            paragraph("Read [the second page](/articles/second-page/) next: it's short & «sweet»."),
            heading("The answer"),
            verified_output(answer, expected={"value": 42}),
        ],
        sources=[Source(title="CommonMark", url="https://spec.commonmark.org/0.31.2/", note="the syntax")],
    )
]
"""
"""The sample's first batch, shown to readers as it is."""

SAMPLE = {
    "articles/a_first.py": FIRST_STEPS,
    "articles/b_second.py": article("second-page", "Second page"),
    "assets/cover.svg": '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="9"/>\n',
}

KEYS = [
    ("slug", "string", "The article's slug: its page is `/articles/SLUG/`."),
    ("title", "string", "The title."),
    ("categories", "array of strings", "At least one, in the order written."),
    ("cover", "string or null", "Site-relative path of the cover image, or `null`."),
    ("excerpt", "string", "The short summary shown on cards and in the feed."),
    (
        "readingMinutes",
        "integer",
        "The author's `reading_minutes`, or else computed from the body text: words at 200 a minute, "
        "Hangul and CJK characters at 500, rounded up, at least 1.",
    ),
    (
        "contentHtml",
        "string",
        "The body's HTML as the helpers made it, joined by newlines, then a newline and the sources "
        "section (its heading in the revision's language, then the list).",
    ),
    ("lang", "string", "The revision's language tag, or the site's `language` when it sets none."),
    ("published", "string", "The date, `YYYY-MM-DD`."),
    ("batch", "string", "The batch module's file name without `.py`."),
    (
        "bodyChars",
        "integer",
        "Length of the visible body text, in Unicode code points: `contentHtml` without the sources "
        "section, tags replaced by spaces, entities decoded, runs of whitespace collapsed, trimmed.",
    ),
    (
        "sources",
        "array of objects",
        "Each source as `{title, url, note}`, in the order cited, and `quote` too for a source "
        "that quotes its page (the key is absent otherwise).",
    ),
    (
        "fixtures",
        "array of strings",
        "The ids (`MODULE:FUNCTION`) of the fixtures its `verified_output` blocks use, each once.",
    ),
    (
        "draft",
        "boolean",
        "`true` for a draft (`draft=True`), which appears only with `--drafts`; `false` otherwise.",
    ),
    (
        "revision",
        "integer",
        "Its number among the revisions of its article (the objects with its `slug`), from 1, in site "
        "order. An article never revised has only revision 1.",
    ),
    (
        "revises",
        "integer or null",
        "The number of the revision it corrects (`revision` − 1), or `null` for 1.",
    ),
    (
        "changes",
        "string or null",
        "A later revision's note of what changed and why, as HTML rendered from the author's inline "
        "Markdown (escaped like `contentHtml`); `null` for a first revision.",
    ),
    (
        "revised",
        "string or null",
        "A later revision's own date, `YYYY-MM-DD`; `null` for a first revision, whose date is `published`.",
    ),
    (
        "revisedAt",
        "string or null",
        "A later revision's own date and time, RFC 3339 with seconds (`2026-12-04T16:20:00Z`), when "
        "its author gave a time, as a correction made the day of the revision before it must; "
        "`null` when `revised` is a date alone, and for a first revision.",
    ),
]
HISTORY = ("revision", "revises", "changes", "revised", "revisedAt")
"""The keys that place a revision in its article's history, after every other key."""
"""The table readers see; the fixtures below check it against the real output and the schema."""


def _body_chars(entry: dict) -> int:
    """bodyChars as the table defines it, worked out again from contentHtml."""
    body = entry["contentHtml"].rsplit("\n<h2>", 1)[0]
    return len(" ".join(html.unescape(re.sub(r"<[^>]*>", " ", body)).split()))


@fixture
def sample_json() -> dict:
    """site-builder revisions --indent 2 on the sample site."""
    ran = run(site(SAMPLE, SAMPLE_SETTINGS), "revisions", "--indent", "2")
    data = ran.json()
    return {
        "exit": ran.code,
        "stdout": data,
        "checks": {
            "exitsWithZero": ran.code == 0,
            "printedAsShown": ran.stdout == json.dumps(data, ensure_ascii=False, indent=2) + "\n",
            "keysAsTheTable": all(list(entry) == [key for key, _, _ in KEYS] for entry in data),
            "bodyCharsAsDefined": all(entry["bodyChars"] == _body_chars(entry) for entry in data),
        },
    }


@fixture
def the_schema() -> dict:
    """The JSON Schema in the installed package, and the sample's output against its keys."""
    package = resources.files("site_builder")
    schema_file = package.joinpath("schemas/revisions.schema.json")
    schema = json.loads(schema_file.read_text("utf-8"))
    items = schema["items"]
    data = run(site(SAMPLE, SAMPLE_SETTINGS), "revisions").json()
    patterns = {key: spec["pattern"] for key, spec in items["properties"].items() if "pattern" in spec}
    types = {key: items["properties"][key]["type"] for key in HISTORY}
    source_keys = items["properties"]["sources"]["items"]["required"]
    every_source_key = items["properties"]["sources"]["items"]["properties"]
    return {
        "file": Path(str(schema_file)).relative_to(Path(str(package)).parent).as_posix(),
        "$schema": schema["$schema"],
        "type": schema["type"],
        "required": items["required"],
        "additionalProperties": items["additionalProperties"],
        "sourceKeys": source_keys,
        "optionalSourceKeys": sorted(set(every_source_key) - set(source_keys)),
        "historyKeyTypes": types,
        "checks": {
            "tableHasEveryKey": items["required"] == [key for key, _, _ in KEYS],
            "sampleHasExactlyTheseKeys": all(set(entry) == set(items["required"]) for entry in data),
            "sampleMatchesThePatterns": all(
                entry[key] is None or re.search(pattern, entry[key])
                for entry in data
                for key, pattern in patterns.items()
            ),
            "nullOnlyWhereTheSchemaSaysSo": all(
                entry[key] is not None or "null" in items["properties"][key]["type"]
                for entry in data
                for key in entry
            ),
            "sourcesHaveTheirKeys": all(
                set(s) == set(source_keys) for entry in data for s in entry["sources"]
            ),
        },
    }


ORDER_BATCH = """\
from site_builder import Source, paragraph, revision

def _one(slug, title):
    return revision(
        slug=slug,
        title=title,
        categories=["Demo"],
        excerpt="A short demonstration article.",
        published="2026-12-01",
        body=[paragraph("This article exists so the tool has something to check.")],
        sources=[Source(title="CommonMark", url="https://spec.commonmark.org/0.31.2/", note="the syntax")],
    )

revisions = [_one("zulu", "Zulu"), _one("yankee", "Yankee")]
"""


@fixture
def order_and_bytes() -> dict:
    """Site order, and the same bytes on every run, in the build too, UTF-8 unescaped."""
    root = site(
        {"articles/b_later.py": ORDER_BATCH, "articles/a_sooner.py": article("xray", "Xray, «déjà vu»")}
    )
    first, second = run(root, "revisions"), run(root, "revisions")
    built = run(root, "build")
    written = page(root, "revisions.json")
    return {
        "order": [[entry["batch"], entry["slug"]] for entry in first.json()],
        "title": first.json()[0]["title"],
        "checks": {
            "sameBytesEveryRun": first.stdout == second.stdout,
            "buildWritesTheSame": built.code == 0 and written == first.stdout,
            "noAsciiEscapes": "\\u" not in first.stdout and "«déjà vu»" in first.stdout,
        },
    }


@fixture
def choosing() -> dict:
    """--slug, --indent 0, an unknown slug, a wrong indent, and a site with a problem."""
    root = site(SAMPLE, SAMPLE_SETTINGS)
    one = run(root, "revisions", "--slug", "second-page")
    line = run(root, "revisions", "--indent", "0")
    mistakes = session(root, ["revisions", "--slug", "third-page"], ["revisions", "--indent", "-1"])
    broken = site({"articles/demo.py": article().replace("2026-12-01", "2026-02-30")})
    problem = session(broken, ["revisions"])
    return {
        "slugOnly": [entry["slug"] for entry in one.json()],
        "indentZeroLines": len(line.stdout.splitlines()),
        "mistakes": mistakes.lines,
        "siteWithAProblem": problem.lines,
        "checks": {
            "oneRevision": one.code == 0 and len(one.json()) == 1,
            "oneLineSameData": line.json() == run(root, "revisions").json(),
            "mistakesAreUsageErrors": mistakes.codes == [2, 2],
            "problemIsAnError": problem.codes == [1],
            "noJsonPrinted": not any(text.startswith(("[", "{")) for text in mistakes.lines + problem.lines),
        },
    }


def _dated(slug: str, published: str, draft: bool = False) -> str:
    """A batch of one revision with this date, a draft or not."""
    text = article(slug, slug.title()).replace("2026-12-01", published)
    return text.replace("        body=[", "        draft=True,\n        body=[") if draft else text


@fixture
def drafts_in_json() -> dict:
    """A published revision, a draft and a scheduled one: revisions without and with the flags."""
    root = site(
        {
            "articles/a_out.py": _dated("out-today", "2026-12-01"),
            "articles/b_draft.py": _dated("half-written", "2026-11-20", draft=True),
            "articles/c_gift.py": _dated("gift", "2026-12-24"),
        }
    )
    plain, flagged = run(root, "revisions"), run(root, "revisions", "--drafts", "--future")
    built = run(root, "build")
    keys = ("slug", "published", "draft")
    return {
        "revisions": [{key: entry[key] for key in keys} for entry in plain.json()],
        "revisions --drafts --future": [{key: entry[key] for key in keys} for entry in flagged.json()],
        "checks": {
            "allExitZero": plain.code == flagged.code == built.code == 0,
            "buildWritesWhatItPublishes": page(root, "revisions.json") == plain.stdout,
            "draftBeforeTheHistoryKeys": all(
                list(entry)[-6:] == ["draft", *HISTORY] for entry in flagged.json()
            ),
        },
    }


def _corrected(slug: str) -> str:
    """A later revision of the article ``_dated(slug, "2026-11-02")`` publishes, dated 2026-11-20."""
    return (
        article(slug, slug.title())
        .replace(
            'published="2026-12-01",',
            'published="2026-11-02",\n        revised="2026-11-20",\n'
            '        changes="A *shorter* sentence.",',
        )
        .replace("so the tool has something to check", "for the tool to check")
    )


@fixture
def one_article_corrected() -> dict:
    """An article published by one batch and corrected by a later one, and another article between
    them: ``revisions`` with and without --latest and --slug."""
    root = site(
        {
            "articles/a_first.py": _dated("fixed", "2026-11-02"),
            "articles/b_other.py": _dated("other", "2026-11-10"),
            "articles/c_fix.py": _corrected("fixed"),
        }
    )
    keys = ("batch", "slug", "revision", "revises", "revised")
    runs = {
        "revisions": run(root, "revisions"),
        "revisions --latest": run(root, "revisions", "--latest"),
        "revisions --slug fixed": run(root, "revisions", "--slug", "fixed"),
        "revisions --slug fixed --latest": run(root, "revisions", "--slug", "fixed", "--latest"),
    }
    shown = {name: [[entry[key] for key in keys] for entry in ran.json()] for name, ran in runs.items()}
    corrected = runs["revisions"].json()[-1]
    return shown | {
        "changes": corrected["changes"],
        "checks": {
            "allExitZero": all(ran.code == 0 for ran in runs.values()),
            "sameFirstDate": {e["published"] for e in runs["revisions --slug fixed"].json()}
            == {"2026-11-02"},
            "latestIsTheCorrection": runs["revisions --slug fixed --latest"].json() == [corrected],
        },
    }


@fixture
def site_relative_links() -> dict:
    """A link written as /articles/…/ on a site served under /blog/."""
    root = site(SAMPLE, SAMPLE_SETTINGS)
    entry = run(root, "revisions").json()[0]
    base = re.search(r'base_url = "([^"]*)"', SAMPLE_SETTINGS).group(1)
    hrefs = re.findall(r'href="([^"]*)"', entry["contentHtml"])
    return {
        "base_url": base,
        "hrefsInContentHtml": hrefs,
        "checks": {
            "servedUnderAPath": base.rstrip("/").count("/") > 2,
            "linkKeptAsWritten": "/articles/second-page/" in hrefs,
        },
    }


revisions_page = revision(
    slug="revisions-json",
    title="The revisions JSON",
    categories=["Reference"],
    excerpt="site-builder revisions and build/revisions.json: every key, a sample, the JSON Schema "
    "shipped in the package, the order and the bytes, and the revisions of a corrected article.",
    published="2026-12-01",
    body=[
        paragraph(
            "Besides its pages, a site built by site_builder exists as data: one JSON array holding "
            "every revision it publishes — its metadata, its HTML and its sources. Other systems import "
            "articles "
            "from it: a newsletter, a mirror, a search service, an app. The array is printed by "
            "`site-builder revisions` and written by every build to `build/revisions.json`; both are "
            "the same bytes."
        ),
        paragraph(
            "`revisions` validates the site first — every rule, but without running fixtures — and "
            "prints the JSON on stdout only if there is no problem. Otherwise it prints only the "
            "problems, on stderr, and exits with 1, so an importer never reads data from a site that "
            "does not validate."
        ),
        heading("A sample"),
        paragraph(
            "A small site served under a path, `https://demo.example/blog/`, with two batches. The first, "
            "`articles/a_first.py`, has a cover, a link to the other article, a few characters that need "
            "escaping, and a result backed by a fixture:"
        ),
        code_block(FIRST_STEPS, language="python"),
        paragraph(
            "The second batch, `articles/b_second.py`, holds one plain article with the slug "
            "`second-page`. Here is what `site-builder revisions --indent 2` prints for this site, "
            "parsed and shown again with the same indentation (the fixture checks that the output is "
            "byte for byte this text):"
        ),
        verified_output(
            sample_json,
            expected={
                "exit": 0,
                "stdout": [
                    {
                        "slug": "first-steps",
                        "title": "Première étape",
                        "categories": ["Guide"],
                        "cover": "/assets/cover.svg",
                        "excerpt": "Where to begin.",
                        "readingMinutes": 1,
                        "contentHtml": '<p>Read <a href="/articles/second-page/">the second page</a> next: '
                        "it&#039;s short &amp; «sweet».</p>\n<h2>The answer</h2>\n"
                        '<pre><code class="language-json">{\n  &quot;value&quot;: 42\n}</code></pre>\n'
                        "<h2>Sources</h2>\n"
                        '<ul><li><a href="https://spec.commonmark.org/0.31.2/" target="_blank" '
                        'rel="noopener noreferrer">CommonMark</a> — the syntax</li></ul>',
                        "lang": "en",
                        "published": "2026-11-30",
                        "batch": "a_first",
                        "bodyChars": 75,
                        "sources": [
                            {
                                "title": "CommonMark",
                                "url": "https://spec.commonmark.org/0.31.2/",
                                "note": "the syntax",
                            }
                        ],
                        "fixtures": ["a_first:answer"],
                        "draft": False,
                        "revision": 1,
                        "revises": None,
                        "changes": None,
                        "revised": None,
                    },
                    {
                        "slug": "second-page",
                        "title": "Second page",
                        "categories": ["Demo"],
                        "cover": None,
                        "excerpt": "A short demonstration article.",
                        "readingMinutes": 1,
                        "contentHtml": "<p>This article exists so the tool has something to check.</p>\n"
                        "<h2>Sources</h2>\n"
                        '<ul><li><a href="https://spec.commonmark.org/0.31.2/" target="_blank" '
                        'rel="noopener noreferrer">CommonMark</a> — the syntax</li></ul>',
                        "lang": "en",
                        "published": "2026-12-01",
                        "batch": "b_second",
                        "bodyChars": 55,
                        "sources": [
                            {
                                "title": "CommonMark",
                                "url": "https://spec.commonmark.org/0.31.2/",
                                "note": "the syntax",
                            }
                        ],
                        "fixtures": [],
                        "draft": False,
                        "revision": 1,
                        "revises": None,
                        "changes": None,
                        "revised": None,
                    },
                ],
            },
        ),
        paragraph(
            "`contentHtml` is the markup the helpers produced, exactly: no heading ids, no table of "
            "contents, no syntax highlighting, no `width` and `height` on images ([Writing an "
            "article](/articles/writing-articles/#image-sizes)) — those are added to the page only. "
            "The `verified_output` "
            "is there as the JSON block a reader sees, and its fixture's id is listed under `fixtures`. "
            "The text is escaped as on the page (`&#039;`, `&amp;`); characters outside ASCII (`«`, "
            "`é`, `—`) are written as themselves."
        ),
        heading("Every key"),
        paragraph("Every object has these keys, always all of them, in this order:"),
        data_table(
            "The keys of a revision object",
            ["key", "JSON type", "meaning"],
            [[f"`{key}`", kind, meaning] for key, kind, meaning in KEYS],
        ),
        paragraph(
            "The first seven are what the project's contract calls the established keys, the ones "
            "existing importers rely on; the others add to them, and each key added later comes "
            "after all the ones before it, so an importer that reads keys by name or by position "
            "keeps working. The last four place a revision in its article's history (next "
            "sections); on a site whose articles were never corrected every object is revision 1, "
            "with `null` for the other three, as in the sample. The fixture behind the sample checks "
            "that each object's keys are this table's, in this order, and works `bodyChars` out "
            "again from `contentHtml` by the definition above."
        ),
        heading("The JSON Schema"),
        paragraph(
            "A JSON Schema of the array ships inside the package, so an importer can check what it "
            "reads against the schema of the very version that wrote it. A fixture opens it through "
            "`importlib.resources`, the way any Python program finds a file in an installed package:"
        ),
        code_block(
            """
import json
from importlib import resources

schema = json.loads(
    resources.files("site_builder").joinpath("schemas/revisions.schema.json").read_text("utf-8")
)
""",
            language="python",
        ),
        verified_output(
            the_schema,
            expected={
                "file": "site_builder/schemas/revisions.schema.json",
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "type": "array",
                "required": [
                    "slug",
                    "title",
                    "categories",
                    "cover",
                    "excerpt",
                    "readingMinutes",
                    "contentHtml",
                    "lang",
                    "published",
                    "batch",
                    "bodyChars",
                    "sources",
                    "fixtures",
                    "draft",
                    "revision",
                    "revises",
                    "changes",
                    "revised",
                    "revisedAt",
                ],
                "additionalProperties": False,
                "sourceKeys": ["title", "url", "note"],
                "optionalSourceKeys": ["quote"],
                "historyKeyTypes": {
                    "revision": "integer",
                    "revises": ["integer", "null"],
                    "changes": ["string", "null"],
                    "revised": ["string", "null"],
                    "revisedAt": ["string", "null"],
                },
            },
        ),
        paragraph(
            "The schema is written for JSON Schema draft 2020-12. Every key is required and no other "
            "key is allowed, in revision objects and in source objects alike; a key that may be "
            "`null` says so in its type (`cover`, and three of the four history keys above). It "
            "also gives the patterns of `slug`, `lang`, `published`, `revised` and the fixture ids, "
            "and the minimum of each number. The fixture checks the sample's output against the "
            "required keys, the types that allow `null` and the patterns; the project's test suite "
            "validates the full output with a JSON Schema validator."
        ),
        heading("Order, encoding and the same bytes every time"),
        paragraph(
            "The array is in site order: batch modules sorted by file name, and within a module the "
            "order of its `revisions` list — not by date and not by slug. The output is UTF-8 with no "
            "`\\u` escapes, indented with two spaces by default, and deterministic: the same site gives "
            "the same bytes on every run, and `build` writes the very bytes "
            "`revisions` prints. A fixture checks all of this on a site whose batch `b_later.py` lists "
            "`zulu` before `yankee`, and whose batch `a_sooner.py` holds `xray`:"
        ),
        verified_output(
            order_and_bytes,
            expected={
                "order": [["a_sooner", "xray"], ["b_later", "zulu"], ["b_later", "yankee"]],
                "title": "Xray, «déjà vu»",
            },
        ),
        paragraph(
            "Nothing in it comes from the machine, and from the clock only through the schedule: which "
            "revisions a build publishes depends on the build's date (below), and that date is fixed by "
            "`SOURCE_DATE_EPOCH` when it is set. So the file can be committed, diffed and cached: a "
            "change in `revisions.json` means a change in an article, or a scheduled revision whose "
            "day has come."
        ),
        heading("Choosing revisions: --slug and --indent"),
        paragraph(
            "`--slug S` keeps only the revisions with that slug — every revision of that article — and "
            "can be repeated; the array keeps site order. `--indent N` sets the indentation, and "
            "`--indent 0` prints the whole array on one line, which suits tools that read a line at a "
            "time. On the sample site, the slugs of what the first command prints, and the "
            "number of lines the second prints:"
        ),
        code_block(
            """
site-builder revisions --slug second-page
site-builder revisions --indent 0
""",
            language="sh",
        ),
        verified_output(choosing, expected={"slugOnly": ["second-page"], "indentZeroLines": 1}),
        paragraph(
            "A slug the site does not have and a negative indent are mistakes of the command line "
            "(exit 2), and print no JSON:"
        ),
        transcript(
            choosing,
            """
            $ site-builder revisions --slug third-page
            site-builder: no revision with slug third-page
            $ site-builder revisions --indent -1
            site-builder: --indent must be 0 or more
            """,
            key="mistakes",
        ),
        paragraph(
            "A site with a problem is an error (exit 1), and prints its problems and no JSON. Here "
            "the site's only article is dated `2026-02-30`:"
        ),
        transcript(
            choosing,
            """
            $ site-builder revisions
            articles/demo.py:9: demo: published '2026-02-30' is not an ISO date like 2020-06-18
            1 problem found
            """,
            key="siteWithAProblem",
        ),
        heading("Drafts and scheduled revisions"),
        paragraph(
            "The array holds what the site publishes, no more: drafts and revisions dated after the "
            "build's date (see [Writing an article](/articles/writing-articles/)) are left out of "
            "`revisions` and of the `revisions.json` a build writes, and the command says so on "
            "stderr. `--drafts` and `--future` include them, as they do for `build` — a build with "
            "the flags writes them into its `revisions.json` as well. An importer that reads the "
            "output of `revisions --drafts`, a CMS preview or a translation tool, must still be able "
            "to tell what it may not publish, and that is what the key `draft` is for. A scheduled "
            "revision needs no key of its own: its date already says it — `revised` for a later "
            "revision, `published` otherwise — to be compared with your own clock (or "
            "`SOURCE_DATE_EPOCH`). A site with one revision of each kind, built on 2026-12-01, with "
            "three keys of each object:"
        ),
        verified_output(
            drafts_in_json,
            expected={
                "revisions": [{"slug": "out-today", "published": "2026-12-01", "draft": False}],
                "revisions --drafts --future": [
                    {"slug": "out-today", "published": "2026-12-01", "draft": False},
                    {"slug": "half-written", "published": "2026-11-20", "draft": True},
                    {"slug": "gift", "published": "2026-12-24", "draft": False},
                ],
            },
        ),
        heading("Revisions of one article: --latest"),
        paragraph(
            "A published article is corrected by a later revision in a later batch, with the same "
            "`slug` and `published`, its own date as `revised` and a `changes` note ([Correcting an "
            "article](/articles/revisions-over-time/)). The array holds every revision the site "
            "publishes, the earlier ones too, each a complete object in its batch's place; "
            "`revision` numbers the revisions of one `slug` from 1 in site order, and `revises` "
            "names the one before. `--latest` keeps only the latest revision of each article, in "
            "the place of the article's first revision, so the array has one object per article "
            "in the order the articles first appeared; with `--slug` it applies to the slugs kept. "
            "A site whose `a_first.py` publishes `fixed` on 2026-11-02, `b_other.py` publishes "
            "`other`, and `c_fix.py` corrects `fixed` on 2026-11-20; `batch`, `slug`, `revision`, "
            "`revises` and `revised` of each object, then the correction's `changes`:"
        ),
        code_block(
            """
site-builder revisions
site-builder revisions --latest
site-builder revisions --slug fixed
site-builder revisions --slug fixed --latest
""",
            language="sh",
        ),
        verified_output(
            one_article_corrected,
            expected={
                "revisions": [
                    ["a_first", "fixed", 1, None, None],
                    ["b_other", "other", 1, None, None],
                    ["c_fix", "fixed", 2, 1, "2026-11-20"],
                ],
                "revisions --latest": [
                    ["c_fix", "fixed", 2, 1, "2026-11-20"],
                    ["b_other", "other", 1, None, None],
                ],
                "revisions --slug fixed": [
                    ["a_first", "fixed", 1, None, None],
                    ["c_fix", "fixed", 2, 1, "2026-11-20"],
                ],
                "revisions --slug fixed --latest": [["c_fix", "fixed", 2, 1, "2026-11-20"]],
                "changes": "A <em>shorter</em> sentence.",
            },
        ),
        paragraph(
            "`build/revisions.json` always holds every revision: `--latest` is for the command. An "
            "importer that mirrors the site reads the latest of each article; one that keeps an "
            "archive reads them all and groups them by `slug`, using `revised` (or `published` "
            "when it is `null`) as the date each revision took effect."
        ),
        heading("Links inside contentHtml"),
        paragraph(
            "Links and image sources in `contentHtml` stay exactly as the author wrote them. A link to "
            "another article is written site-relative, `/articles/SLUG/`, and it stays so even when the "
            "site is served under a path: the sample site lives at `https://demo.example/blog/`, and "
            "its first article's link is still `/articles/second-page/`:"
        ),
        verified_output(
            site_relative_links,
            expected={
                "base_url": "https://demo.example/blog/",
                "hrefsInContentHtml": ["/articles/second-page/", "https://spec.commonmark.org/0.31.2/"],
            },
        ),
        paragraph(
            "An importer resolves such links against its own base — the address where it publishes the "
            "articles — rather than against `base_url`. The same holds for `cover` and for images of "
            "`figure`s, which point to `/assets/…`: copy the files of the site's assets folder along with "
            "the JSON, or resolve those paths against the site that serves them."
        ),
    ],
    sources=[
        Source(
            title="JSON Schema: Draft 2020-12",
            url="https://json-schema.org/draft/2020-12",
            note="the dialect of the shipped schema",
        ),
        Source(
            title="Python documentation: importlib.resources",
            url="https://docs.python.org/3/library/importlib.resources.html",
            note="reading a file that ships inside an installed package",
        ),
        Source(
            title="RFC 8259: The JavaScript Object Notation (JSON) Data Interchange Format",
            url="https://www.rfc-editor.org/rfc/rfc8259",
            note="JSON exchanged between systems is UTF-8",
        ),
    ],
)

revisions = [revisions_page]
