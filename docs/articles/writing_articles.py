"""Documentation: a batch module, revision() and its fields, Source, and every helper's markup."""

import datetime
import json
import re
import struct
import zlib

from _html_probe import attrs_of, tags_of, text_of
from _pages_kit import page, without_seconds
from _tool import BUILD_DATE, SOURCE_DATE_EPOCH, run, site

from site_builder import (
    Markup,
    Source,
    code_block,
    data_table,
    figure,
    fixture,
    heading,
    markdown,
    ordered_list,
    paragraph,
    revision,
    unordered_list,
    verified_output,
)

# --- A batch with two revisions: one with the required fields only, one with every field.

FIELDS_BATCH = """\
from site_builder import Source, paragraph, revision

COMMONMARK = Source(
    title="CommonMark Spec",
    url="https://spec.commonmark.org/0.31.2/",
    note='what "inline Markdown" means here',
)

short = revision(
    slug="short-note",
    title="A short note",
    categories=["Notes"],
    excerpt="Only the required fields.",
    published="2026-12-01",
    body=[paragraph("Every field this revision leaves out takes its default.")],
    sources=[COMMONMARK],
)

full = revision(
    slug="full-note",
    title="A note with every field",
    categories=["Notes", "Examples"],
    excerpt="The optional fields too.",
    published="2026-11-30",
    cover="/assets/cover.svg",
    lang="ru",
    reading_minutes=7,
    body=[paragraph("Короткий абзац, время чтения которого автор указал сам.")],
    sources=[COMMONMARK],
)

revisions = [short, full]
"""

COVER_SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="9"/>\n'


@fixture
def two_revisions() -> dict:
    """Print the revisions of the two-revision batch: the defaults and the given values."""
    root = site({"articles/notes.py": FIELDS_BATCH, "assets/cover.svg": COVER_SVG})
    ran = run(root, "revisions")
    items = ran.json() if ran.code == 0 else []
    keys = ("slug", "cover", "lang", "readingMinutes", "batch", "published")
    shown = [{key: item[key] for key in keys} for item in items]
    by_slug = {item["slug"]: item for item in items}
    return {
        "exit": ran.code,
        "revisions": shown,
        "shortNoteContentHtml": by_slug.get("short-note", {}).get("contentHtml"),
        "checks": {
            "exitsWithZero": ran.code == 0,
            "twoRevisionsInListOrder": [i["slug"] for i in shown] == ["short-note", "full-note"],
            "langDefaultsToTheSite": by_slug["short-note"]["lang"] == "en",
            "givenMinutesKept": by_slug["full-note"]["readingMinutes"] == 7,
            "noteQuotesEscaped": "&quot;inline Markdown&quot;" in by_slug["short-note"]["contentHtml"],
        },
    }


# --- The same kind of batch with a mistake in nearly every field.

MISTAKES_BATCH = """\
from site_builder import Source, paragraph, revision

revisions = [
    revision(
        slug="Field-Mistakes",
        title="Field mistakes",
        categories=[],
        published="2026-11-30",
        lang="english",
        reading_minute=3,
        body=[
            paragraph("A paragraph long enough for the demonstration site."),
            "A plain string is not a block.",
        ],
        sources=[
            Source(title="CommonMark Spec", url="https://spec.commonmark.org/0.31.2/"),
        ],
    )
]
"""


@fixture
def field_mistakes() -> dict:
    """Validate the batch full of mistakes: every problem, each at its line."""
    ran = run(site({"articles/mistakes.py": MISTAKES_BATCH}), "validate")
    problems = ran.lines[:-1]
    return {
        "exit": ran.code,
        "stderr": ran.lines,
        "checks": {
            "exitsWithOne": ran.code == 1,
            "everyLineNamesTheFile": all(line.startswith("articles/mistakes.py:") for line in problems),
            "countMatches": ran.lines[-1] == f"{len(problems)} problems found",
            "suggestsTheField": any("did you mean 'reading_minutes'" in line for line in problems),
        },
    }


# --- Drafts and scheduled revisions: what a build leaves out, and what includes it.

SCHEDULE_BATCH = """\
from site_builder import Source, paragraph, revision

SPEC = Source(title="CommonMark Spec", url="https://spec.commonmark.org/0.31.2/", note="syntax")
TEXT = [paragraph("A paragraph long enough for this small site.")]

revisions = [
    revision(
        slug="out-today", title="Out today", categories=["Notes"], excerpt="Published.",
        published="2026-12-01", body=TEXT, sources=[SPEC],
    ),
    revision(
        slug="half-written", title="Half written", categories=["Notes"], excerpt="Not ready.",
        published="2026-11-20", draft=True, body=TEXT, sources=[SPEC],
    ),
    revision(
        slug="for-christmas", title="For Christmas", categories=["Notes"], excerpt="Not yet.",
        published="2026-12-24", body=TEXT, sources=[SPEC],
    ),
]
"""
CHRISTMAS_EPOCH = "1798070400"
"""2026-12-24 00:00 UTC, in seconds since 1970-01-01 00:00 UTC."""

DRAFT_MISTAKES = """\
from site_builder import Source, paragraph, revision

revisions = [
    revision(
        slug="not-sure",
        title="Not sure",
        categories=["Notes"],
        excerpt="A draft flag that is not a bool, and a misspelt one.",
        published="2026-12-01",
        draft="yes",
        drafts=True,
        body=[paragraph("A paragraph long enough for this small site.")],
        sources=[Source(title="CommonMark Spec", url="https://spec.commonmark.org/0.31.2/", note="syntax")],
    )
]
"""


def _day(epoch: str) -> str:
    """The UTC date of a ``SOURCE_DATE_EPOCH`` value."""
    return datetime.datetime.fromtimestamp(int(epoch), datetime.UTC).date().isoformat()


def _published(root, out: str = "build") -> dict:
    """What one build of the schedule site published: article pages, feed, sitemap, search, JSON."""
    folder = root / out
    search = json.loads(page(root, "pagefind/pagefind-entry.json", out))
    return {
        "articlePages": sorted(p.name for p in (folder / "articles").iterdir()),
        "feedEntries": re.findall(r"<entry[^>]*>\s*<title>([^<]*)</title>", page(root, "feed.xml", out)),
        "sitemapArticles": re.findall(r"<loc>[^<]*/articles/([^/<]*)/</loc>", page(root, "sitemap.xml", out)),
        "pagesInTheSearchIndex": sum(lang["page_count"] for lang in search["languages"].values()),
        "revisionsJson": [r["slug"] for r in json.loads(page(root, "revisions.json", out))],
    }


@fixture
def drafts_and_schedule() -> dict:
    """The schedule site built on 2026-12-01, with --drafts --future, and on 2026-12-24."""
    root = site({"articles/notes.py": SCHEDULE_BATCH})
    built = run(root, "build")
    default = _published(root)
    checked = run(root, "validate")
    preview = run(root, "build", "--drafts", "--future", "--out", str(root / "preview"))
    included = _published(root, "preview")
    marks = {
        slug: re.findall(r'<p class="status".*</p>', page(root, f"articles/{slug}/index.html", "preview"))
        for slug in included["articlePages"]
    }
    later = run(root, "build", env={"SOURCE_DATE_EPOCH": CHRISTMAS_EPOCH})
    return {
        "build": {"stderr": [without_seconds(line) for line in built.lines]} | default,
        "validate": checked.lines,
        "withDraftsAndFuture": {
            "stderr": [without_seconds(line) for line in preview.lines],
            "articlePages": included["articlePages"],
            "marks": marks,
        },
        "builtOn2026-12-24": {
            "stderr": [without_seconds(line) for line in later.lines],
            "articlePages": _published(root)["articlePages"],
        },
        "checks": {
            "allExitZero": built.code == checked.code == preview.code == later.code == 0,
            "epochsAreThoseDays": [_day(SOURCE_DATE_EPOCH), _day(CHRISTMAS_EPOCH)]
            == [BUILD_DATE, "2026-12-24"],
            "flagsPutAllThreeEverywhere": len(included["feedEntries"])
            == len(included["sitemapArticles"])
            == included["pagesInTheSearchIndex"]
            == len(included["revisionsJson"])
            == 3,
            "cardsMarkedToo": page(root, "index.html", "preview").count('class="status-mark"') == 2,
        },
    }


MARKED_BATCH = """\
from site_builder import Source, paragraph, revision

SPEC = Source(title="CommonMark Spec", url="https://spec.commonmark.org/0.31.2/", note="syntax")

revisions = [
    revision(
        slug=f"later-{lang}", title=f"Later ({lang})", categories=["Notes"], excerpt="A draft, for later.",
        published="2027-01-15", draft=True, lang=lang, sources=[SPEC],
        body=[paragraph("A paragraph long enough for this small site.")],
    )
    for lang in ("en", "ru", "ko")
]
"""


@fixture
def marks_by_language() -> dict:
    """Drafts dated later in three languages, built with --drafts --future: each page's marks."""
    root = site({"articles/later.py": MARKED_BATCH})
    ran = run(root, "build", "--drafts", "--future")
    shown = {}
    for lang in ("en", "ru", "ko"):
        status = re.search(r'<p class="status".*?</p>', page(root, f"articles/later-{lang}/index.html"))
        shown[lang] = (
            re.findall(r'<strong class="status-mark">(.*?)</strong>', status.group(0)) if status else []
        )
    left_out = run(root, "build", "--future", "--out", str(root / "future-only"))
    return {
        "marks": shown,
        "withFutureOnly": [without_seconds(line) for line in left_out.lines],
        "checks": {
            "built": ran.code == 0 and left_out.code == 0,
            "twoMarksEach": all(len(marks) == 2 for marks in shown.values()),
        },
    }


@fixture
def draft_mistakes() -> dict:
    """A draft flag that is not a bool, and a misspelt one."""
    ran = run(site({"articles/drafts.py": DRAFT_MISTAKES}), "validate")
    return {
        "exit": ran.code,
        "stderr": ran.lines,
        "checks": {"exitsWithOne": ran.code == 1, "twoProblems": ran.lines[-1] == "2 problems found"},
    }


# --- What the five special characters become, and what a typed entity stays.

SPECIAL = ["&", "<", ">", '"', "'"]
TYPED_ENTITY = "Typing &amp; gives five characters."


@fixture
def escaping() -> dict:
    """Each special character through paragraph(), and an entity the author typed."""
    spelled = {char: str(paragraph(char)).removeprefix("<p>").removesuffix("</p>") for char in SPECIAL}
    typed = str(paragraph(TYPED_ENTITY))
    return {
        "entities": spelled,
        "typedEntity": typed,
        "checks": {
            "eachDecodesBack": all(text_of(html) == char for char, html in spelled.items()),
            "eachIsAnEntity": all(html[0] == "&" and html[-1] == ";" for html in spelled.values()),
            "typedTextShownAsTyped": text_of(typed) == TYPED_ENTITY,
        },
    }


# --- paragraph()

PARAGRAPH_TEXT = (
    "Use `retry()` with **care**, *not* haste; see [RFC 9110](https://www.rfc-editor.org/rfc/rfc9110.html)."
)
HOSTILE = "a & b <script>alert('x')</script>"


@fixture
def paragraph_markup() -> dict:
    """paragraph() on inline Markdown, and on text that looks like HTML."""
    html = str(paragraph(PARAGRAPH_TEXT))
    hostile = str(paragraph(HOSTILE))
    return {
        "markdown": html,
        "hostile": hostile,
        "checks": {
            "inlineElements": tags_of(html) == ["p", "code", "strong", "em", "a"],
            "linkKept": attrs_of(html, "a").get("href") == "https://www.rfc-editor.org/rfc/rfc9110.html",
            "hostileTextShownAsTyped": text_of(hostile) == HOSTILE,
            "noScriptElement": tags_of(hostile) == ["p"],
        },
    }


# --- heading()

HEADING_TEXT = "Step 2: *then* retry & <wait>"


@fixture
def heading_markup() -> dict:
    """heading() is an h2 whose text is inline Markdown."""
    html = str(heading(HEADING_TEXT))
    return {
        "html": html,
        "checks": {
            "isH2WithEmphasis": tags_of(html) == ["h2", "em"],
            "textShownAsTyped": text_of(html) == "Step 2: then retry & <wait>",
        },
    }


# --- markdown()

MARKDOWN_TEXT = "First *paragraph*.\n\n- one\n- two <b>bold?</b>\n\n```python\nif a < b:\n    pass\n```"


@fixture
def markdown_markup() -> dict:
    """markdown() on paragraphs, a list and a fence; raw HTML stays text."""
    html = str(markdown(MARKDOWN_TEXT))
    return {
        "html": html,
        "checks": {
            "blockElements": tags_of(html) == ["p", "em", "ul", "li", "li", "pre", "code"],
            "rawHtmlIsText": "<b>bold?</b>" in text_of(html),
            "fenceKeptExactly": "if a < b:\n    pass\n" in text_of(html),
        },
    }


# --- code_block()

CODE = "if a < b and c > \"d\":\n    print('&')"
INDENTED = "\n    def area(r):\n        return 3.14 * r * r\n"


@fixture
def code_block_markup() -> dict:
    """code_block() with and without a language; only the ends of the text are stripped."""
    with_language = str(code_block(CODE, language="python"))
    plain = str(code_block(INDENTED))
    return {
        "python": with_language,
        "indented": plain,
        "checks": {
            "codeShownAsTyped": text_of(with_language) == CODE,
            "languageClass": attrs_of(with_language, "code").get("class") == "language-python",
            "firstLineLostItsIndent": text_of(plain).startswith("def area"),
            "laterLinesKeepTheirs": text_of(plain).splitlines()[1].startswith(" " * 8),
        },
    }


# --- figure()

FIGURE_ARGS = ("/assets/flow.svg", 'The client sends "POST" & waits <30 s', "The *request* path")


@fixture
def figure_markup() -> dict:
    """figure(): alt text is plain text, the caption inline Markdown."""
    html = str(figure(*FIGURE_ARGS))
    img = attrs_of(html, "img")
    return {
        "html": html,
        "checks": {
            "altShownAsTyped": img.get("alt") == FIGURE_ARGS[1],
            "srcKept": img.get("src") == FIGURE_ARGS[0],
            "lazy": img.get("loading") == "lazy",
            "captionEmphasis": tags_of(html) == ["figure", "img", "figcaption", "em"],
        },
    }


# --- Mistakes in helper calls, each reported at the helper's line.

HELPER_MISTAKES_BATCH = """\
from site_builder import Source, code_block, data_table, figure, paragraph, revision, unordered_list

revisions = [
    revision(
        slug="helper-mistakes",
        title="Helper mistakes",
        categories=["Demo"],
        excerpt="Each helper call below has one mistake, but the first.",
        published="2026-12-01",
        body=[
            figure("/assets/flow.svg", "A request and its response", "Present and described"),
            figure("/assets/missing.svg", "A diagram", "No such file"),
            figure("/assets/flow.svg", "", "No alt text"),
            figure("flow.svg", "A diagram", "A relative path"),
            data_table("Retries", ["Method", "Retries"], [["POST", 0], ["PUT", 3, "extra"]]),
            unordered_list([]),
            code_block("x = 1", language="c plus plus"),
            paragraph(42),
        ],
        sources=[Source(title="CommonMark Spec", url="https://spec.commonmark.org/0.31.2/", note="syntax")],
    )
]
"""
FLOW_SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"/>\n'


@fixture
def helper_mistakes() -> dict:
    """Validate the batch of faulty helper calls; each problem keyed by the helper at its line."""
    ran = run(site({"articles/helpers.py": HELPER_MISTAKES_BATCH, "assets/flow.svg": FLOW_SVG}), "validate")
    source = HELPER_MISTAKES_BATCH.splitlines()
    by_helper: dict[str, list[str]] = {}
    for line in ran.lines[:-1]:
        number = int(line.split(":")[1])
        helper = source[number - 1].strip().split("(")[0]
        by_helper.setdefault(helper, []).append(line)
    return {
        "exit": ran.code,
        "problems": by_helper,
        "checks": {
            "exitsWithOne": ran.code == 1,
            "sevenProblems": ran.lines[-1] == "7 problems found",
            "firstFigureIsFine": not any(":11:" in line for line in ran.lines),
            "eachAtItsHelper": set(by_helper)
            == {"figure", "data_table", "unordered_list", "code_block", "paragraph"},
        },
    }


# --- The width and height of every image on the page.

SIZED_BATCH = """\
from site_builder import Markup, Source, figure, paragraph, revision

revisions = [
    revision(
        slug="sized",
        title="Sized",
        categories=["Demo"],
        excerpt="Images of every kind the site measures.",
        published="2026-12-01",
        cover="/assets/cover.svg",
        body=[
            figure("/assets/flow.svg", "Width and height", "An SVG with both"),
            figure("/assets/wide.svg", "A viewBox only", "An SVG with a viewBox"),
            figure("/assets/half.svg", "A width and a viewBox", "An SVG with one of them and a viewBox"),
            figure("/assets/print.svg", "Inches", "An SVG measured in inches"),
            figure("/assets/photo.png", "A photo", "A PNG"),
            paragraph("In a sentence: ![a flow](/assets/flow.svg)."),
            paragraph(Markup('<img src="/assets/photo.png" alt="Shown smaller" width="32">')),
        ],
        sources=[Source(title="CommonMark Spec", url="https://spec.commonmark.org/0.31.2/", note="syntax")],
    )
]
"""
SVG = '<svg xmlns="http://www.w3.org/2000/svg" {}/>\n'
SIZED_ASSETS = {
    "assets/cover.svg": SVG.format('width="160" height="90"'),
    "assets/flow.svg": SVG.format('width="40" height="20"'),
    "assets/wide.svg": SVG.format('viewBox="0 0 300 100"'),
    "assets/half.svg": SVG.format('width="150" viewBox="0 0 300 100"'),
    "assets/print.svg": SVG.format('width="1in" height="0.5in"'),
}
"""The SVG files of ``articles/sized.py``; ``assets/photo.png`` is a PNG of 64 × 48 pixels."""

UNSIZED_BATCH = """\
from site_builder import Source, figure, revision

revisions = [
    revision(
        slug="unsized",
        title="Unsized",
        categories=["Demo"],
        excerpt="Two images whose size cannot be read.",
        published="2026-12-01",
        body=[
            figure("/assets/blank.svg", "A drawing", "An SVG without a size"),
            figure("/assets/photo.png", "A photo", "Text under an image's name"),
        ],
        sources=[Source(title="CommonMark Spec", url="https://spec.commonmark.org/0.31.2/", note="syntax")],
    )
]
"""


def _png(width: int, height: int) -> bytes:
    """A black PNG image of ``width`` × ``height`` pixels."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    rows = b"".join(b"\x00" + b"\x00\x00\x00" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


@fixture
def image_sizes() -> dict:
    """SIZED_BATCH built: its images on the page and in contentHtml; then UNSIZED_BATCH validated."""
    root = site({"articles/sized.py": SIZED_BATCH} | SIZED_ASSETS)
    (root / "assets" / "photo.png").write_bytes(_png(64, 48))
    built = run(root, "build")
    shown = page(root, "articles/sized/index.html") if built.code == 0 else ""
    stored = run(root, "revisions").json()[0]["contentHtml"] if built.code == 0 else ""
    broken = site({"articles/unsized.py": UNSIZED_BATCH, "assets/blank.svg": SVG.format("")})
    (broken / "assets" / "photo.png").write_text("Not a picture at all.", "utf-8")
    checked = run(broken, "validate")
    return {
        "page": re.findall(r"<img [^>]*>", shown),
        "contentHtml": re.findall(r"<img [^>]*>", stored),
        "unsized": {"exit": checked.code, "stderr": checked.lines},
        "checks": {
            "built": built.code == 0,
            "everyImageOnThePageSized": all(
                attrs_of(tag, "img").get("width") for tag in re.findall(r"<img [^>]*>", shown)
            ),
            "noneInContentHtml": "width=" not in stored.replace('width="32"', ""),
        },
    }


# --- ordered_list() and unordered_list()

ITEMS = ["Send `POST`", "**Retry** once", "Check that a < b"]


@fixture
def list_markup() -> dict:
    """ordered_list() and unordered_list(): each item is inline Markdown."""
    ordered = str(ordered_list(ITEMS))
    unordered = str(unordered_list(("one", "two")))
    return {
        "ordered": ordered,
        "unordered": unordered,
        "checks": {
            "threeItems": tags_of(ordered).count("li") == 3,
            "itemsShownAsTyped": text_of(ordered) == "Send POSTRetry onceCheck that a < b",
            "tupleAccepted": tags_of(unordered) == ["ul", "li", "li"],
        },
    }


# --- data_table()

TABLE_ARGS = ("Retries & *effects*", ["Method", "Retries", "Effects"], [["`POST`", 0, 2], ["PUT", 3, 1.5]])


@fixture
def table_markup() -> dict:
    """data_table(): caption, header cells with a scope, numbers as text."""
    html = str(data_table(*TABLE_ARGS))
    tags = tags_of(html)
    return {
        "html": html,
        "checks": {
            "wrappedForScrolling": attrs_of(html, "div").get("class") == "table-scroll",
            "threeHeaders": tags.count("th") == 3 and attrs_of(html, "th").get("scope") == "col",
            "sixCells": tags.count("td") == 6,
            "numbersPrinted": "1.5" in text_of(html),
        },
    }


# --- verified_output()

SHOWN = {"attempts": 3, "condition": "a < b"}


@fixture
def verified_output_markup() -> dict:
    """verified_output() prints its expected value exactly as a JSON code_block would."""
    html = str(verified_output(verified_output_markup, expected=SHOWN))
    same = str(code_block(json.dumps(SHOWN, ensure_ascii=False, indent=2), language="json"))
    return {
        "html": html,
        "checks": {
            "sameAsJsonCodeBlock": html == same,
            "readsBackAsTheValue": json.loads(text_of(html)) == SHOWN,
        },
    }


# --- transcript()

TRANSCRIPT_BATCH = """\
import shlex
import subprocess
import sys

from site_builder import Source, fixture, paragraph, revision, transcript


@fixture
def multiplied() -> dict:
    shown = ["python3", "-c", "print(6 * 7)"]
    done = subprocess.run([sys.executable, *shown[1:]], capture_output=True, text=True, check=False)
    return {
        "transcript": ["$ " + shlex.join(shown), *done.stdout.splitlines()],
        "checks": {"exitedZero": done.returncode == 0},
    }


revisions = [
    revision(
        slug="demo",
        title="Demo",
        categories=["Demo"],
        excerpt="A short demonstration article.",
        published="2026-12-01",
        body=[
            paragraph("Python multiplies two numbers, run as a reader would type it:"),
            transcript(multiplied, \"""
                $ python3 -c 'print(6 * 7)'
                42
            \"""),
        ],
        sources=[
            Source(title="Python command line", url="https://docs.python.org/3/using/cmdline.html", note="-c")
        ],
    )
]
"""


@fixture
def transcript_in_a_site() -> dict:
    """A site whose article shows a transcript its fixture ran: built, the block on the page;
    then the article edited to show 41, and without the command's line, and what validate says."""
    root = site({"articles/demo.py": TRANSCRIPT_BATCH})
    built = run(root, "build")
    html = page(root, "articles/demo/index.html") if built.code == 0 else ""
    block = re.search(r'<pre class="transcript">.*?</pre>', html, re.DOTALL)
    (root / "articles/demo.py").write_text(
        TRANSCRIPT_BATCH.replace("                42\n", "                41\n"), "utf-8"
    )
    drifted = run(root, "validate")
    (root / "articles/demo.py").write_text(
        TRANSCRIPT_BATCH.replace("                $ python3 -c 'print(6 * 7)'\n", ""), "utf-8"
    )
    no_command = run(root, "validate")
    return {
        "transcript": block.group(0) if block else None,
        "validateAfterTheEdit": drifted.lines,
        "validateWithoutTheCommand": no_command.lines,
        "checks": {
            "built": built.code == 0,
            "markAfterIt": bool(block) and html[block.end() :].lstrip().startswith('<p class="proof"'),
            "readerSeesTheSession": bool(block)
            and text_of(block.group(0)) == "$ python3 -c 'print(6 * 7)'\n42",
            "driftFails": drifted.code == 1,
            "noCommandFails": no_command.code == 1,
        },
    }


# --- Markup: trusted HTML

TRUSTED = '<abbr title="HyperText Markup Language">HTML</abbr> is written by hand here.'


@fixture
def markup_markup() -> dict:
    """Markup passes through a helper verbatim; the same text as a str is escaped."""
    trusted = str(paragraph(Markup(TRUSTED)))
    as_text = str(paragraph(TRUSTED))
    return {
        "trusted": trusted,
        "sameTextAsStr": as_text,
        "checks": {
            "verbatim": trusted == f"<p>{TRUSTED}</p>",
            "abbrElement": tags_of(trusted) == ["p", "abbr"],
            "strHasNoElement": tags_of(as_text) == ["p"],
        },
    }


# --- URLs

LINKS_BATCH = """\
from site_builder import Markup, Source, heading, paragraph, revision

revisions = [
    revision(
        slug="links",
        title="Links",
        categories=["Demo"],
        excerpt="Links that validation refuses, and two it accepts.",
        published="2026-12-01",
        body=[
            heading("Links"),
            paragraph("A [script link](javascript:alert(1)) is refused."),
            paragraph("So is [a protocol-relative one](//evil.example/page)."),
            paragraph("And [a relative one](notes.html)."),
            paragraph(Markup('<a href="data:text/html,hi">Trusted HTML is checked too</a>')),
            paragraph("[This page](/articles/links/) and [a fragment](#links) are fine."),
        ],
        sources=[Source(title="An old mirror", url="ftp://ftp.example/spec.txt", note="not https")],
    )
]
"""
SCRIPT_LINK = "A [script link](javascript:alert(1)) is refused."


@fixture
def url_rules() -> dict:
    """Validate the links batch; and the markup keeps a refused link as written."""
    ran = run(site({"articles/links.py": LINKS_BATCH}), "validate")
    html = str(paragraph(SCRIPT_LINK))
    return {
        "exit": ran.code,
        "stderr": ran.lines,
        "markup": html,
        "checks": {
            "exitsWithOne": ran.code == 1,
            "fiveProblems": ran.lines[-1] == "5 problems found",
            "acceptedLinesSilent": not any(":16:" in line for line in ran.lines),
            "notRewritten": attrs_of(html, "a").get("href") == "javascript:alert(1)",
        },
    }


# --- Helper modules beside the batches

SHARED_MODULE = """\
from site_builder import Source, paragraph

COMMONMARK = Source(title="CommonMark Spec", url="https://spec.commonmark.org/0.31.2/", note="syntax")


def intro(topic):
    return paragraph(f"{topic}: this paragraph comes from a helper module.")
"""
GUIDE_BATCH = """\
from _shared import COMMONMARK, intro
from site_builder import revision

revisions = [
    revision(
        slug="guide",
        title="Guide",
        categories=["Demo"],
        excerpt="A batch that imports a helper module.",
        published="2026-12-01",
        body=[intro("Shared text")],
        sources=[COMMONMARK],
    )
]
"""


@fixture
def helper_module() -> dict:
    """A batch importing _shared.py: one batch, one revision, the helper's paragraph in it."""
    root = site({"articles/guide.py": GUIDE_BATCH, "articles/_shared.py": SHARED_MODULE})
    articles = root / "articles"
    before = sorted(p.relative_to(articles).as_posix() for p in articles.rglob("*"))
    # Python writes bytecode beside what it imports unless PYTHONDONTWRITEBYTECODE is set
    # (empty counts as unset): allowed here, as on most machines.
    checked = run(root, "validate", env={"PYTHONDONTWRITEBYTECODE": ""})
    listed = run(root, "revisions", env={"PYTHONDONTWRITEBYTECODE": ""})
    items = listed.json() if listed.code == 0 else []
    after = sorted(p.relative_to(articles).as_posix() for p in articles.rglob("*"))
    return {
        "validate": checked.lines,
        "batches": [item["batch"] for item in items],
        "articlesFolder": after,
        "checks": {
            "articlesFolderAsItWas": after == before,
            "exitsWithZero": checked.code == 0 and listed.code == 0,
            "oneRevision": len(items) == 1,
            "helperParagraphInside": "comes from a helper module"
            in (items[0]["contentHtml"] if items else ""),
        },
    }


# --- A source's quote

QUOTED_BATCH = """\
from site_builder import Source, paragraph, revision

RFC9110 = Source(
    title="RFC 9110: HTTP Semantics",
    url="https://www.rfc-editor.org/rfc/rfc9110.html",
    note="which methods are idempotent",
    quote="PUT, DELETE, and safe request methods are idempotent.",
)

revisions = [
    revision(
        slug="quoted",
        title="Quoted",
        categories=["Demo"],
        excerpt="A source with a quote.",
        published="2026-12-01",
        body=[paragraph("A retried PUT changes nothing more than the first one did.")],
        sources=[RFC9110],
    )
]
"""


@fixture
def quoted_source() -> dict:
    """A source with a quote: its JSON, its markup; then the same quote made only of spaces."""
    root = site({"articles/quoted.py": QUOTED_BATCH})
    listed = run(root, "revisions")
    (item,) = listed.json() if listed.code == 0 else [{}]
    html = item.get("contentHtml", "")
    blank = site(
        {
            "articles/quoted.py": QUOTED_BATCH.replace(
                'quote="PUT, DELETE, and safe request methods are idempotent."', 'quote="   "'
            )
        }
    )
    checked = run(blank, "validate")
    return {
        "source": item.get("sources", [None])[0],
        "sourcesSection": html[html.find("<ul>") :],
        "blankQuote": checked.lines,
        "checks": {
            "listed": listed.code == 0,
            "blockquoteUnderTheLink": "</a> — which methods are idempotent<blockquote" in html,
            "blankIsAProblem": checked.code == 1,
        },
    }


def _call(name: str, *args: object, **kwargs: object) -> str:
    """The call an author writes, spelled from the very values the fixture passes."""
    shown = [repr(a) for a in args] + [f"{k}={v!r}" for k, v in kwargs.items()]
    return f"{name}({', '.join(shown)})"


writing = revision(
    slug="writing-articles",
    title="Writing an article",
    categories=["Reference"],
    excerpt="A batch module, revision() and every field, Source, and each helper with the exact markup it "
    "produces and what it escapes.",
    published="2026-12-01",
    body=[
        paragraph(
            "An article is Python data. You do not write HTML files or Markdown files with front "
            "matter: you write a Python module that calls `revision(...)` with the article's fields "
            "and a body made of *helper* calls — `paragraph`, `heading`, `code_block` and the rest. "
            "Each helper returns a small piece of HTML that is safe by construction, and validation "
            "then checks the whole revision against the site. This page describes all of it: the "
            "module, every field, sources, and each helper with the exact markup it produces."
        ),
        heading("A batch module"),
        paragraph(
            "A *batch* is one Python module in the site's `articles/` folder (the `articles_dir` "
            "setting). Its file name without `.py` is the batch name: it appears as `batch` in the "
            "`revisions` JSON and as the first half of the id of each fixture it defines "
            "(`retries:delays` for a fixture `delays` in `articles/retries.py`). "
            "The module must define a module-level list named `revisions`; the site lists batches in "
            "the order of their file names, and the revisions of one batch in list order."
        ),
        paragraph(
            "Here is a complete batch, `articles/notes.py`, with two revisions: the first gives only "
            "the required fields, the second gives every field there is."
        ),
        code_block(FIELDS_BATCH, language="python"),
        paragraph(
            "`site-builder revisions` prints what the tool made of it. A few keys of each revision "
            "show the defaults at work — no `cover` is `null`, no `lang` is the site's language "
            "(`en` in this demonstration site), no `reading_minutes` is computed from the body:"
        ),
        verified_output(
            two_revisions,
            expected={
                "exit": 0,
                "revisions": [
                    {
                        "slug": "short-note",
                        "cover": None,
                        "lang": "en",
                        "readingMinutes": 1,
                        "batch": "notes",
                        "published": "2026-12-01",
                    },
                    {
                        "slug": "full-note",
                        "cover": "/assets/cover.svg",
                        "lang": "ru",
                        "readingMinutes": 7,
                        "batch": "notes",
                        "published": "2026-11-30",
                    },
                ],
            },
        ),
        paragraph(
            "Nothing else in the module is special. It may define constants, functions and "
            "fixtures, and import anything a normal module imports — but it runs every time the "
            "site is checked, so it must not call the network or write files."
        ),
        heading("The fields of revision()"),
        paragraph(
            "`revision` takes keyword arguments only. Seven fields are required and six are optional; "
            "the last two of them are for correcting an article that is already published:"
        ),
        data_table(
            "The fields of revision()",
            ["Field", "Required", "Type", "Rule, or the default when left out"],
            [
                [
                    "`slug`",
                    "yes",
                    "`str`",
                    "3 to 120 characters of `a-z`, `0-9` and `-`; unique in the site, but for the later "
                    "revisions of the same article. The article's page is `/articles/SLUG/`.",
                ],
                ["`title`", "yes", "`str`", "Plain text (not Markdown), not empty."],
                [
                    "`categories`",
                    "yes",
                    "list of `str`",
                    "At least one, none empty. Each category gets a page under `/categories/`.",
                ],
                ["`excerpt`", "yes", "`str`", "Plain-text summary for lists and the feed, not empty."],
                [
                    "`published`",
                    "yes",
                    "`str`",
                    "An ISO date `YYYY-MM-DD` that exists on the calendar. A date after the build's date "
                    "makes the revision *scheduled* (see below).",
                ],
                [
                    "`body`",
                    "yes",
                    "list of blocks",
                    "What the helpers return, or `Markup`. A plain `str` is a problem.",
                ],
                [
                    "`sources`",
                    "yes",
                    "list of `Source`",
                    "At least `min_sources` of them (a setting; 2 by default).",
                ],
                [
                    "`cover`",
                    "no",
                    "`str`",
                    "No cover (`null` in the JSON). The URL of an image, usually a path under "
                    "`/assets/`, checked like any link; shown on the article page and its card, and "
                    "the picture of a shared link (an SVG drawn as a PNG; see [Templates and "
                    "theming](/articles/templates-and-theming/#the-cover-social-sites-see)).",
                ],
                [
                    "`lang`",
                    "no",
                    "`str`",
                    "The site's `language` setting. A language tag such as `en`, `ru` or `ko-KR`, "
                    "of a language the site has words for: `en`, `ru` and `ko`, or one a `labels` "
                    "table adds (see [Languages](/articles/languages/)).",
                ],
                [
                    "`reading_minutes`",
                    "no",
                    "`int`",
                    "Computed from the body text. A whole number of at least 1 replaces it.",
                ],
                [
                    "`draft`",
                    "no",
                    "`bool`",
                    "`False`. `True` makes the revision a draft: checked, but left out of the site "
                    "(see below).",
                ],
                [
                    "`revised`",
                    "no",
                    "`str`",
                    "None: the revision is the article's first. An ISO date makes it a later revision of "
                    "the published article with the same `slug` and `published`, dated that day "
                    "([Correcting an article](/articles/revisions-over-time/)); a correction made the "
                    "day of the revision before it adds its time, `2026-12-04T16:20Z`.",
                ],
                [
                    "`changes`",
                    "no",
                    "`str`",
                    "None. Inline Markdown: what a later revision changed and why, shown to readers in "
                    "the article's history. Required with `revised`.",
                ],
            ],
        ),
        paragraph(
            "The computed reading time counts the words of the body text at 200 a minute, and "
            "Hangul and CJK characters at 500 a minute, rounds up, and is never less than one "
            "minute. [Languages](/articles/languages/) shows it for English and Korean text."
        ),
        heading("When a field is wrong"),
        paragraph(
            "`revision` never raises for a mistake. A missing field, an unknown field or a wrong "
            "type is recorded where you wrote it, and `site-builder validate` reports every "
            "problem of the site in one run, each as `PATH:LINE: SLUG: message`. This batch, "
            "`articles/mistakes.py`, gets nearly every field wrong:"
        ),
        code_block(MISTAKES_BATCH, language="python"),
        verified_output(
            field_mistakes,
            expected={
                "exit": 1,
                "stderr": [
                    "articles/mistakes.py:4: Field-Mistakes: missing required field 'excerpt'",
                    (
                        "articles/mistakes.py:5: Field-Mistakes: slug 'Field-Mistakes' must be 3 "
                        "to 120 characters of a-z, 0-9 and '-'"
                    ),
                    "articles/mistakes.py:7: Field-Mistakes: at least one category is required",
                    (
                        "articles/mistakes.py:9: Field-Mistakes: lang 'english' is not a "
                        "language tag like 'en' or 'ru'"
                    ),
                    (
                        "articles/mistakes.py:10: Field-Mistakes: unknown field 'reading_minute'; "
                        "did you mean 'reading_minutes'?"
                    ),
                    (
                        "articles/mistakes.py:11: Field-Mistakes: body item 2 is plain text; "
                        "wrap it in paragraph() or markdown()"
                    ),
                    "articles/mistakes.py:16: Field-Mistakes: source 1 needs a non-empty note",
                    "7 problems found",
                ],
            },
        ),
        paragraph(
            "A problem about one of the revision's fields points at the line where that field is "
            "written — `slug=` on line 5, `categories=` on 7, the misspelt `reading_minute=` on 10, "
            "`body=` on 11 — and a missing field, which has no line, at the line of `revision(`. A "
            "problem with a source points at the line of its `Source(`, and a problem inside a "
            "helper at the line of that helper call. An unknown keyword comes with the closest field "
            "name."
        ),
        heading("Drafts and scheduled revisions"),
        paragraph(
            "Two things keep a revision that is valid off the site: `draft=True`, and a `published` "
            "date after the build's date — a *scheduled* revision. Either way the revision is checked "
            "like any other: its fields, its links and its `verified_output` blocks, and its fixtures "
            "run, so a draft cannot hide a broken fixture. Only publishing depends on it. A build "
            "leaves the revision out of everything it writes: it gets no page and no card on the home "
            "page or its categories' pages, no entry in the feed, the sitemap or the search index, and "
            "no object in `revisions.json` or in what `site-builder revisions` prints. A category "
            "whose every revision is left out gets no page either. A later revision of a published "
            "article is scheduled by its `revised` date, without its time if it gives one: until "
            "that day the site shows the revision before it ([Correcting an "
            "article](/articles/revisions-over-time/))."
        ),
        paragraph(
            "**The build's date** is today's date in UTC — or, when the environment variable "
            "`SOURCE_DATE_EPOCH` is set, the UTC date of that moment (a number of seconds since "
            "1970-01-01 00:00 UTC, the convention of reproducible builds). A revision dated the "
            "build's date itself is published. UTC rather than the computer's own time zone, because "
            "the same input must give the same site everywhere: for nine hours of every day a laptop "
            "in Seoul is a day ahead of a CI runner in UTC, and one of them would publish a revision "
            "that the other leaves out. The same `SOURCE_DATE_EPOCH` gives the same bytes, every file."
        ),
        paragraph(
            "This batch, `articles/notes.py`, holds one revision of each kind. Every demonstration on "
            f"these pages runs with `SOURCE_DATE_EPOCH={SOURCE_DATE_EPOCH}`, which is {BUILD_DATE} "
            "00:00 UTC, so the build's date below is that day, whatever day you read this. `build` "
            "says what it left out and why, on the line after its summary; `validate` judges all three "
            "revisions (its `ok:` line counts them) and says what a build would leave out. Then the "
            "build's article pages, the titles in the feed, the articles in the sitemap, the pages in "
            "the search index and the slugs of `revisions.json` (the summary's time left out):"
        ),
        code_block(SCHEDULE_BATCH, language="python"),
        verified_output(
            drafts_and_schedule,
            expected={
                "build": {
                    "stderr": [
                        "built 1 revision, 5 pages",
                        "left out 1 draft and 1 scheduled revision (due 2026-12-24); "
                        "--drafts / --future include them",
                    ],
                    "articlePages": ["out-today"],
                    "feedEntries": ["Out today"],
                    "sitemapArticles": ["out-today"],
                    "pagesInTheSearchIndex": 1,
                    "revisionsJson": ["out-today"],
                },
                "validate": [
                    "ok: 3 revisions valid, 0 fixtures passed",
                    "a build leaves out 1 draft and 1 scheduled revision (due 2026-12-24); "
                    "--drafts / --future include them",
                ],
            },
        ),
        paragraph(
            "To see them before they are published, add `--drafts` (drafts), `--future` (scheduled "
            "revisions) or both, to `build`, `serve`, `validate` or `revisions` "
            "([Commands](/articles/commands/) has the details). A revision they include is marked "
            "under its date line, on its page and on its card in the lists, so a preview is never "
            "mistaken for the site. The fixture built this preview into another folder with "
            "`--drafts --future --out …`; the marks of each page:"
        ),
        verified_output(
            drafts_and_schedule,
            expected={
                "withDraftsAndFuture": {
                    "stderr": ["built 3 revisions, 7 pages"],
                    "articlePages": ["for-christmas", "half-written", "out-today"],
                    "marks": {
                        "for-christmas": [
                            '<p class="status" data-pagefind-ignore><strong class="status-mark">'
                            "Scheduled for 2026-12-24</strong></p>"
                        ],
                        "half-written": [
                            '<p class="status" data-pagefind-ignore><strong class="status-mark">'
                            "Draft</strong></p>"
                        ],
                        "out-today": [],
                    },
                },
            },
        ),
        paragraph(
            "The marks are the site's own words, in the page's language, and like the rest of the "
            "page's chrome they are left out of search excerpts (`data-pagefind-ignore`). A draft "
            "dated later carries both marks, and counts as a draft: it needs `--drafts` whatever its "
            "date. Drafts dated 2027-01-15 in English, Russian and Korean, built with both flags, and "
            "the same site built with `--future` alone:"
        ),
        verified_output(
            marks_by_language,
            expected={
                "marks": {
                    "en": ["Draft", "Scheduled for 2027-01-15"],
                    "ru": ["Черновик", "Запланировано на 2027-01-15"],
                    "ko": ["초안", "2027-01-15 게시 예정"],
                },
                "withFutureOnly": ["built 0 revisions, 3 pages", "left out 3 drafts; --drafts includes them"],
            },
        ),
        paragraph(
            "A scheduled revision needs no change to appear: the first build on or after its date "
            "publishes it. The same site built with `SOURCE_DATE_EPOCH=1798070400` (2026-12-24 "
            "00:00 UTC):"
        ),
        verified_output(
            drafts_and_schedule,
            expected={
                "builtOn2026-12-24": {
                    "stderr": ["built 2 revisions, 6 pages", "left out 1 draft; --drafts includes it"],
                    "articlePages": ["for-christmas", "out-today"],
                },
            },
        ),
        paragraph(
            "But a built site is a folder of files: nothing changes in it until the next build. A "
            "revision scheduled for the 24th is on the site on the 24th only if a build runs that day — "
            "[Deploying](/articles/deploying/) shows a workflow that builds every day. To publish a "
            "draft, remove `draft=True` (or write `draft=False`)."
        ),
        paragraph(
            "`draft` must be `True` or `False` — a string is a problem, not read as true — and a "
            "misspelt keyword gets the usual suggestion:"
        ),
        code_block(DRAFT_MISTAKES, language="python"),
        verified_output(
            draft_mistakes,
            expected={
                "exit": 1,
                "stderr": [
                    "articles/drafts.py:10: not-sure: draft must be True or False, not 'yes'",
                    "articles/drafts.py:11: not-sure: unknown field 'drafts'; did you mean 'draft'?",
                    "2 problems found",
                ],
            },
        ),
        paragraph(
            "One more rule comes with drafts: a revision the build publishes may not link to one it "
            "leaves out, since that link would lead nowhere on the site. "
            "[Site-wide rules](/articles/site-wide-rules/#links-to-drafts-and-scheduled-revisions) "
            "shows the problem and the ways out."
        ),
        heading("Citing sources"),
        paragraph(
            "`Source(title=..., url=..., note=...)` is what a revision cites. All three are keyword "
            "arguments and all three are required and must not be empty (a fourth, `quote`, is "
            "optional: below); a forgotten one is a "
            "problem at the `Source(` line, not an exception. The `url` follows the same rules as "
            "any link (below), and one revision may not cite the same URL twice. The number of "
            "sources each revision needs is the `min_sources` setting."
        ),
        paragraph(
            "The sources are not part of the body: they follow it as a section of their own, with a "
            "heading in the revision's language. This is the `contentHtml` of `short-note` above — "
            "the body, a newline, then the sources heading and the list, each link opening in a new "
            "tab, the title and note escaped:"
        ),
        verified_output(
            two_revisions,
            expected={
                "shortNoteContentHtml": (
                    "<p>Every field this revision leaves out takes its default.</p>\n"
                    '<h2>Sources</h2>\n<ul><li><a href="https://spec.commonmark.org/0.31.2/" '
                    'target="_blank" rel="noopener noreferrer">CommonMark Spec</a> '
                    "— what &quot;inline Markdown&quot; means here</li></ul>"
                ),
            },
        ),
        paragraph(
            "A source may also carry a `quote`: the passage of the cited page your claim rests on, "
            "copied as the page says it. Readers see it under the source as a quotation (a "
            "`<blockquote>` whose `cite` is the source's address, its text escaped like every "
            "other); importers get it as the source's `quote` key, which is absent when nothing is "
            "quoted. Leave `quote` out rather than giving an empty one: a quote of only spaces, or "
            "one that is not a string, is a problem at the `Source(` line."
        ),
        verified_output(
            quoted_source,
            expected={
                "source": {
                    "title": "RFC 9110: HTTP Semantics",
                    "url": "https://www.rfc-editor.org/rfc/rfc9110.html",
                    "note": "which methods are idempotent",
                    "quote": "PUT, DELETE, and safe request methods are idempotent.",
                },
                "sourcesSection": (
                    '<ul><li><a href="https://www.rfc-editor.org/rfc/rfc9110.html" target="_blank" '
                    'rel="noopener noreferrer">RFC 9110: HTTP Semantics</a> — which methods are '
                    'idempotent<blockquote cite="https://www.rfc-editor.org/rfc/rfc9110.html">PUT, '
                    "DELETE, and safe request methods are idempotent.</blockquote></li></ul>"
                ),
                "blankQuote": [
                    "articles/quoted.py:3: quoted: source 1 quote is only spaces; leave quote out to "
                    "quote nothing",
                    "1 problem found",
                ],
            },
        ),
        heading("Text is inline Markdown"),
        paragraph(
            "Every plain `str` you give a helper is *inline Markdown*: `` `code` ``, `*emphasis*`, "
            "`**strong**` and `[text](url)` work as in CommonMark, rendered by markdown-it-py with "
            "raw HTML turned off. Whatever you type, `<`, `>`, `&`, `\"` and `'` reach the page as "
            "text, never as markup. The five characters are spelled as these entities:"
        ),
        verified_output(
            escaping,
            expected={
                "entities": {
                    "&": "&amp;",
                    "<": "&lt;",
                    ">": "&gt;",
                    '"': "&quot;",
                    "'": "&#039;",
                },
            },
        ),
        paragraph(
            "Entities you type are not read as entities either: `&amp;` in your text is shown as "
            "those five characters, not as `&`."
        ),
        verified_output(
            escaping,
            expected={
                "typedEntity": "<p>Typing &amp;amp; gives five characters.</p>",
            },
        ),
        heading("The helpers"),
        paragraph(
            "Each helper below is imported from `site_builder` and returns a `Block`: a `Markup` "
            "string of HTML that also remembers the line you called it from, the URLs inside it "
            "and any mistake in its arguments. The markup is a fixed format — systems that import "
            "the `revisions` JSON read it — and each output below is the helper's real return "
            "value for the call shown above it."
        ),
        heading("paragraph"),
        code_block("paragraph(text: str | Markup) -> Block", language="python"),
        paragraph(
            "A paragraph of inline Markdown, wrapped in `<p>`. Inline Markdown and a text that "
            "looks like a script, each through `paragraph`:"
        ),
        code_block(
            f"paragraph({PARAGRAPH_TEXT!r})\nparagraph({HOSTILE!r})",
            language="python",
        ),
        verified_output(
            paragraph_markup,
            expected={
                "markdown": (
                    "<p>Use <code>retry()</code> with <strong>care</strong>, <em>not</em> haste; "
                    'see <a href="https://www.rfc-editor.org/rfc/rfc9110.html">RFC 9110</a>.</p>'
                ),
                "hostile": "<p>a &amp; b &lt;script&gt;alert(&#039;x&#039;)&lt;/script&gt;</p>",
            },
        ),
        paragraph(
            "A line break inside the string is a soft line break, as in Markdown: it stays a "
            "newline in the HTML and the browser shows a space. For separate paragraphs call "
            "`paragraph` twice, or use `markdown`."
        ),
        heading("heading"),
        code_block("heading(text: str | Markup) -> Block", language="python"),
        paragraph(
            "A section heading, always `<h2>`; on the page it gets an `id` and an entry in the "
            "article's table of contents (the `contentHtml` importers read keeps the plain `<h2>`)."
        ),
        code_block(_call("heading", HEADING_TEXT), language="python"),
        verified_output(
            heading_markup,
            expected={
                "html": "<h2>Step 2: <em>then</em> retry &amp; &lt;wait&gt;</h2>",
            },
        ),
        heading("markdown"),
        code_block("markdown(text: str | Markup) -> Block", language="python"),
        paragraph(
            "A piece of CommonMark with block structure: paragraphs separated by blank lines, "
            "lists, fenced code, block quotes, `###` sub-headings. Raw HTML is off here too, so an "
            "HTML tag in the text is shown as text. Block elements are separated by newlines; the "
            "last newline is dropped."
        ),
        code_block(_call("markdown", MARKDOWN_TEXT), language="python"),
        verified_output(
            markdown_markup,
            expected={
                "html": (
                    "<p>First <em>paragraph</em>.</p>\n<ul>\n<li>one</li>\n"
                    "<li>two &lt;b&gt;bold?&lt;/b&gt;</li>\n</ul>\n"
                    '<pre><code class="language-python">if a &lt; b:\n    pass\n</code></pre>'
                ),
            },
        ),
        heading("code_block"),
        code_block("code_block(code: str, language: str | None = None) -> Block", language="python"),
        paragraph(
            "Code is plain text, escaped completely — Markdown inside it means nothing. "
            "`language` is a name such as `python`, `sql` or `sh` (up to 40 letters, digits and "
            "`_+#.-`); it "
            "becomes the class `language-NAME`, and on the page a known name is highlighted with "
            "Pygments. The text is stripped of blank space at both ends, and nothing else:"
        ),
        code_block(
            f"{_call('code_block', CODE, language='python')}\n{_call('code_block', INDENTED)}",
            language="python",
        ),
        verified_output(
            code_block_markup,
            expected={
                "python": (
                    '<pre><code class="language-python">if a &lt; b and c &gt; &quot;d&quot;:\n'
                    "    print(&#039;&amp;&#039;)</code></pre>"
                ),
                "indented": "<pre><code>def area(r):\n        return 3.14 * r * r</code></pre>",
            },
        ),
        paragraph(
            "Note the second block: stripping took the first line's indentation and left the "
            "others'. Pass code through `textwrap.dedent` first when you write it indented in a "
            "triple-quoted string."
        ),
        heading("figure"),
        code_block("figure(src: str, alt: str, caption: str | Markup) -> Block", language="python"),
        paragraph(
            "An image with its alternative text and a caption; all three are required. `alt` is "
            "plain text, escaped completely, since it lives in an attribute; the caption is inline "
            "Markdown. The image is loaded lazily."
        ),
        code_block(_call("figure", *FIGURE_ARGS), language="python"),
        verified_output(
            figure_markup,
            expected={
                "html": (
                    '<figure><img src="/assets/flow.svg" alt="The client sends &quot;POST&quot; '
                    '&amp; waits &lt;30 s" loading="lazy" /><figcaption>The <em>request</em> '
                    "path</figcaption></figure>"
                ),
            },
        ),
        paragraph(
            "`src` is a URL like any other (see below): usually a site-relative path such as "
            "`/assets/flow.svg`, which must name a file that exists under the site's `assets/` "
            "folder (files there are served under `/assets/`), or a page of the site. The batch "
            "below, `articles/helpers.py`, makes one mistake per helper call after the first (the "
            "site has `assets/flow.svg`):"
        ),
        code_block(HELPER_MISTAKES_BATCH, language="python"),
        paragraph("Its problems with `figure`:"),
        verified_output(
            helper_mistakes,
            expected={
                "problems": {
                    "figure": [
                        (
                            "articles/helpers.py:12: helper-mistakes: '/assets/missing.svg' is "
                            "neither a file under assets/ nor a page of the site"
                        ),
                        (
                            "articles/helpers.py:13: helper-mistakes: figure(): alt text is "
                            "required and must not be empty"
                        ),
                        (
                            "articles/helpers.py:14: helper-mistakes: relative URL 'flow.svg' is "
                            "not allowed; start it with '/' from the site root"
                        ),
                    ],
                },
            },
        ),
        heading("Image sizes"),
        paragraph(
            "A browser that knows an image's size before the image arrives keeps room for it, so "
            "the text does not jump as images load. So every image a page shows — each `figure`, "
            "an image in inline Markdown (`![alt](/assets/x.svg)`), an `<img>` in trusted `Markup`, "
            "the cover on the article page and on its cards — gets `width` and `height` attributes, "
            "read from the file under `assets/` when the site is checked:"
        ),
        unordered_list(
            [
                "**SVG**: the `width` and `height` of its `<svg>` element, in pixels or without a "
                "unit; `in`, `cm`, `mm`, `Q`, `pt` and `pc` are converted at 96 pixels to the inch, "
                "as CSS does. When one of them is missing or relative (`%`, `em`), it follows from "
                "the shape of the `viewBox`; with neither, the `viewBox`'s own size is used. Rounded "
                "to whole pixels.",
                "**PNG, JPEG, GIF, WebP** and any other format Pillow reads: the size in the file's "
                "header. A JPEG that its EXIF orientation turns on its side is measured as browsers "
                "show it, width and height swapped.",
                "An `<img>` of your own that already has a `width` or a `height` is left as you "
                "wrote it; an image on another site is not measured (nothing is fetched).",
            ]
        ),
        paragraph(
            "The sizes are the page's only: `contentHtml` in the `revisions` JSON keeps the helpers' "
            "markup exactly, as it keeps links unrewritten. Each `figure` or Markdown image still "
            "comes out of its helper as shown above; the theme scales a large image down to the "
            "column, keeping its shape. This batch, `articles/sized.py`, shows a cover and one image "
            "of each kind (`assets/photo.png` is a PNG of 64 × 48 pixels):"
        ),
        code_block(SIZED_BATCH, language="python"),
        code_block(
            "\n".join(f"{name}: {text.strip()}" for name, text in SIZED_ASSETS.items()), language="text"
        ),
        paragraph("Built, the `<img>` tags of its page — the cover first — and of its `contentHtml`:"),
        verified_output(
            image_sizes,
            expected={
                "page": [
                    '<img class="cover" src="/assets/cover.svg" alt="Sized" width="160" height="90">',
                    '<img src="/assets/flow.svg" alt="Width and height" loading="lazy" width="40" '
                    'height="20" />',
                    '<img src="/assets/wide.svg" alt="A viewBox only" loading="lazy" width="300" '
                    'height="100" />',
                    '<img src="/assets/half.svg" alt="A width and a viewBox" loading="lazy" '
                    'width="150" height="50" />',
                    '<img src="/assets/print.svg" alt="Inches" loading="lazy" width="96" height="48" />',
                    '<img src="/assets/photo.png" alt="A photo" loading="lazy" width="64" height="48" />',
                    '<img src="/assets/flow.svg" alt="a flow" width="40" height="20" />',
                    '<img src="/assets/photo.png" alt="Shown smaller" width="32">',
                ],
                "contentHtml": [
                    '<img src="/assets/flow.svg" alt="Width and height" loading="lazy" />',
                    '<img src="/assets/wide.svg" alt="A viewBox only" loading="lazy" />',
                    '<img src="/assets/half.svg" alt="A width and a viewBox" loading="lazy" />',
                    '<img src="/assets/print.svg" alt="Inches" loading="lazy" />',
                    '<img src="/assets/photo.png" alt="A photo" loading="lazy" />',
                    '<img src="/assets/flow.svg" alt="a flow" />',
                    '<img src="/assets/photo.png" alt="Shown smaller" width="32">',
                ],
            },
        ),
        paragraph(
            "An image whose size cannot be read is a problem, in `validate`, in the pytest plugin "
            "and in `build`, at the line that shows it: the helper call, the `cover=` line for a "
            "cover, the `body=` line for an `<img>` in `Markup` placed directly in the body. Its "
            "rule is `image-size`. Here `assets/blank.svg` is an `<svg>` with neither a size nor a "
            "`viewBox`, and `assets/photo.png` holds a line of text:"
        ),
        code_block(UNSIZED_BATCH, language="python"),
        verified_output(
            image_sizes,
            expected={
                "unsized": {
                    "exit": 1,
                    "stderr": [
                        "articles/unsized.py:11: unsized: image '/assets/blank.svg' has no size: give "
                        "its <svg> width and height, or a viewBox; pages give every image its width and "
                        "height",
                        "articles/unsized.py:12: unsized: image '/assets/photo.png' is not an image that "
                        "can be measured (SVG, PNG, JPEG, GIF, WebP…); pages give every image its width "
                        "and height",
                        "2 problems found",
                    ],
                }
            },
        ),
        paragraph(
            "Give the SVG a `width` and a `height` or a `viewBox` — a drawing program's export "
            "usually has both — and put a real image where one is named. An SVG file that is not "
            "well-formed XML or whose first element is not `<svg>` is reported the same way, with "
            "what is wrong; only its `<svg>` element is read for the size. A rebuild renders a page "
            "again, with the cards that list it, when an image it shows changes size."
        ),
        heading("ordered_list and unordered_list"),
        code_block(
            "ordered_list(items: list[str | Markup]) -> Block\n"
            "unordered_list(items: list[str | Markup]) -> Block",
            language="python",
        ),
        paragraph(
            "A numbered or a bulleted list; each item is inline Markdown. A tuple works as well as "
            "a list, and an empty list is a problem."
        ),
        code_block(f"{_call('ordered_list', ITEMS)}\nunordered_list(('one', 'two'))", language="python"),
        verified_output(
            list_markup,
            expected={
                "ordered": (
                    "<ol><li>Send <code>POST</code></li><li><strong>Retry</strong> "
                    "once</li><li>Check that a &lt; b</li></ol>"
                ),
                "unordered": "<ul><li>one</li><li>two</li></ul>",
            },
        ),
        verified_output(
            helper_mistakes,
            expected={
                "problems": {
                    "unordered_list": [
                        (
                            "articles/helpers.py:16: helper-mistakes: unordered_list(): a list "
                            "needs at least one item"
                        ),
                    ],
                },
            },
        ),
        heading("data_table"),
        code_block(
            "data_table(caption: str, headers: list[str], rows: list[list[str | int | float]]) -> Block",
            language="python",
        ),
        paragraph(
            "A table with a caption, a header row and body rows, inside a `div` that scrolls "
            "sideways on a narrow screen. Captions, headers and cells are inline Markdown; a cell "
            "may also be a number, printed as Python prints it. Every row must be as wide as the "
            "header."
        ),
        code_block(_call("data_table", *TABLE_ARGS), language="python"),
        verified_output(
            table_markup,
            expected={
                "html": (
                    '<div class="table-scroll"><table><caption>Retries &amp; '
                    '<em>effects</em></caption><thead><tr><th scope="col">Method</th><th '
                    'scope="col">Retries</th><th scope="col">Effects</th></tr></thead><tbody><tr>'
                    "<td><code>POST</code></td><td>0</td><td>2</td></tr><tr><td>PUT</td><td>"
                    "3</td><td>1.5</td></tr></tbody></table></div>"
                ),
            },
        ),
        verified_output(
            helper_mistakes,
            expected={
                "problems": {
                    "data_table": [
                        (
                            "articles/helpers.py:15: helper-mistakes: data_table(): row 2 has 3 "
                            "cells; the header has 2"
                        ),
                    ],
                },
            },
        ),
        heading("verified_output"),
        code_block("verified_output(fixture: Fixture, expected: object) -> Block", language="python"),
        paragraph(
            "Prints `expected` as indented JSON — exactly the block "
            '`code_block(json.dumps(expected, ensure_ascii=False, indent=2), language="json")` '
            "would make — and records a claim: validation runs `fixture` and fails unless what it "
            "returns contains `expected`. Every output block on this page is one. "
            "[Fixtures and verified output](/articles/fixtures/) explains the checking."
        ),
        code_block(f"verified_output(verified_output_markup, expected={SHOWN!r})", language="python"),
        verified_output(
            verified_output_markup,
            expected={
                "html": (
                    '<pre><code class="language-json">{\n  &quot;attempts&quot;: 3,\n'
                    "  &quot;condition&quot;: &quot;a &lt; b&quot;\n}</code></pre>"
                ),
            },
        ),
        heading("transcript"),
        code_block(
            'transcript(fixture: Fixture, session: str, key: str = "transcript") -> Block', language="python"
        ),
        paragraph(
            "Shows a terminal session: each line that starts with `$ ` is a command, the lines after "
            "it are what the command printed. The session is written as the reader should see it "
            "(its common indentation and its blank first and last lines are dropped), and it is a "
            "claim like a `verified_output`'s: the fixture must return its lines, one string per line "
            "with the `$ ` of each command, under `key`. A fixture that runs the commands and returns "
            "what they printed keeps the session true; where a line varies from run to run (a "
            "temporary path, the seconds a build took), the fixture replaces that part and the "
            "session shows the replacement, so the reader sees what was left out."
        ),
        paragraph(
            'On the page, each command follows a prompt (`<span class="prompt">$ </span>`) in a '
            "`<kbd>` element, and the output lines are plain text; the theme leaves the prompt out "
            "when the reader copies a command. A session that does not start with a command is a "
            "`transcript-session` problem at the call's line. This batch's fixture runs Python and "
            "returns what it printed:"
        ),
        code_block(TRANSCRIPT_BATCH, language="python"),
        paragraph(
            "The build shows the session with its mark; edited to show `41`, the article no longer "
            "matches what the fixture ran, and `validate` says where; without its command line, "
            "the session is a mistake of its own:"
        ),
        verified_output(
            transcript_in_a_site,
            expected={
                "transcript": (
                    '<pre class="transcript"><samp><span class="prompt">$ </span>'
                    "<kbd>python3 -c &#039;print(6 * 7)&#039;</kbd>\n42</samp></pre>"
                ),
                "validateAfterTheEdit": [
                    "articles/demo.py:27: demo: transcript of demo:multiplied does not match what it "
                    'returns: $.transcript[1]: the article prints "41", the fixture returns "42"',
                    "1 problem found",
                ],
                "validateWithoutTheCommand": [
                    "articles/demo.py:27: demo: transcript(): a session starts with a command: a line "
                    "beginning with '$ '",
                    "1 problem found",
                ],
            },
        ),
        heading("chart"),
        code_block(
            'chart(fixture: Fixture, spec: dict, alt: str, caption: str, data: str = "chart") -> Block',
            language="python",
        ),
        paragraph(
            "A figure the build draws from the rows a fixture returns, as a Vega-Lite specification "
            "says, with the rows as a table under it and the mark after it; alt text and a caption "
            "are required. [Charts](/articles/charts/) shows a batch built and every mistake."
        ),
        heading("Markup: trusted HTML"),
        paragraph(
            "`Markup` (from markupsafe, also importable from `site_builder`) marks a string as "
            "trusted HTML. Wherever a helper takes inline Markdown — `paragraph`, `heading`, "
            "`markdown`, list items, table captions, headers and cells, a figure's caption — it "
            "inserts a `Markup` value verbatim, and a `Markup` value may also stand alone in "
            "`body`. Code and alt text stay plain text even as `Markup`. It is the only way to "
            "put hand-written HTML into a page — so keep it for "
            "what the helpers cannot express, and never build it from text you did not write."
        ),
        code_block(
            f"paragraph(Markup({TRUSTED!r}))\nparagraph({TRUSTED!r})",
            language="python",
        ),
        verified_output(
            markup_markup,
            expected={
                "trusted": (
                    '<p><abbr title="HyperText Markup Language">HTML</abbr> is written by hand here.</p>'
                ),
                "sameTextAsStr": (
                    "<p>&lt;abbr title=&quot;HyperText Markup "
                    "Language&quot;&gt;HTML&lt;/abbr&gt; is written by hand here.</p>"
                ),
            },
        ),
        paragraph(
            "Trusted does not mean unchecked: the `href`, `src` and other URL attributes inside a "
            "`Markup` value are validated like every other link."
        ),
        heading("Mistakes in helper calls"),
        paragraph(
            "A helper never raises for a wrong argument either. It records the problem at its own "
            "line, and validation reports it with the others. The remaining problems of "
            "`articles/helpers.py`:"
        ),
        verified_output(
            helper_mistakes,
            expected={
                "problems": {
                    "code_block": [
                        (
                            "articles/helpers.py:17: helper-mistakes: code_block(): language 'c "
                            "plus plus' is not a name like 'python'"
                        ),
                    ],
                    "paragraph": [
                        (
                            "articles/helpers.py:18: helper-mistakes: paragraph(): the text must "
                            "be a str or Markup, not int"
                        ),
                    ],
                },
            },
        ),
        heading("URLs"),
        paragraph(
            "Links in inline Markdown, `figure` sources, URL attributes in `Markup`, `cover` and "
            "`Source.url` all obey one rule. A URL must be one of:"
        ),
        unordered_list(
            [
                "`https:` or `http:` with a host,",
                "`mailto:`,",
                "a site-relative path starting with `/` — which must name a page of the site or a "
                "file under `assets/`,",
                "a fragment, `#name`, alone or after a page's path (`/articles/SLUG/#name`) — the "
                "page must have an element with that id, a heading's for instance: "
                "[Validation rules](/articles/validation-rules/#links-to-a-fragment) lists the ids "
                "a page has.",
            ]
        ),
        paragraph(
            "Anything else — `javascript:`, `data:`, `vbscript:`, `ftp:`, a protocol-relative "
            "`//host/path`, a relative `notes.html` — is a validation problem at the line that "
            "holds it. The tool never rewrites or silently drops a link: you see the problem and "
            "fix the text. Blank space and control characters are cleaned the way a browser "
            "cleans them before the scheme is read, so `java\\tscript:` does not slip through."
        ),
        code_block(LINKS_BATCH, language="python"),
        verified_output(
            url_rules,
            expected={
                "exit": 1,
                "stderr": [
                    (
                        "articles/links.py:12: links: URL scheme 'javascript:' is not allowed in "
                        "'javascript:alert(1)'; use https:, http:, mailto:, /path or #fragment"
                    ),
                    (
                        "articles/links.py:13: links: protocol-relative URL "
                        "'//evil.example/page' is not allowed; write https://"
                    ),
                    (
                        "articles/links.py:14: links: relative URL 'notes.html' is not allowed; "
                        "start it with '/' from the site root"
                    ),
                    (
                        "articles/links.py:15: links: URL scheme 'data:' is not allowed in "
                        "'data:text/html,hi'; use https:, http:, mailto:, /path or #fragment"
                    ),
                    (
                        "articles/links.py:18: links: URL scheme 'ftp:' is not allowed in "
                        "'ftp://ftp.example/spec.txt'; use https:, http:, mailto:, "
                        "/path or #fragment"
                    ),
                    "5 problems found",
                ],
            },
        ),
        paragraph(
            "Until it is fixed, the link stays in the markup exactly as written — the problem "
            "report, not a rewrite, is what keeps it off the site:"
        ),
        code_block(f"paragraph({SCRIPT_LINK!r})", language="python"),
        verified_output(
            url_rules,
            expected={
                "markup": '<p>A <a href="javascript:alert(1)">script link</a> is refused.</p>',
            },
        ),
        heading("Helper modules"),
        paragraph(
            "Several batches often share sources, fixtures' helpers or a recurring paragraph. Put "
            "them in a module of the articles folder whose name starts with `_` — `_shared.py` — "
            "and import it from a batch as `from _shared import ...`. A file whose name starts with "
            "`_` is never loaded as a batch, so it needs no `revisions`. Every file of the folder is "
            "part of each batch's cache key, so changing a helper module rechecks the batches. The "
            "tool imports batches and helpers without writing Python's bytecode beside them: no "
            "`__pycache__` folder appears among your articles, whatever `PYTHONDONTWRITEBYTECODE` "
            "says (below, `validate` and `revisions` run with bytecode allowed, and the folder "
            "holds the two files it held before)."
        ),
        code_block(f"# articles/_shared.py\n{SHARED_MODULE}", language="python"),
        code_block(f"# articles/guide.py\n{GUIDE_BATCH}", language="python"),
        verified_output(
            helper_module,
            expected={
                "validate": [
                    "ok: 1 revision valid, 0 fixtures passed",
                ],
                "batches": [
                    "guide",
                ],
                "articlesFolder": [
                    "_shared.py",
                    "guide.py",
                ],
            },
        ),
        paragraph(
            "A helper module may hold a `@fixture` too, for several articles to show: its id is "
            "`_shared:NAME`, and each batch that shows it runs it as its own ([Fixtures and "
            "verified output](/articles/fixtures/#where-fixtures-live))."
        ),
    ],
    sources=[
        Source(
            title="CommonMark Spec, version 0.31.2",
            url="https://spec.commonmark.org/0.31.2/",
            note="the inline and block syntax a plain string is read with",
        ),
        Source(
            title="markdown-it-py",
            url="https://markdown-it-py.readthedocs.io/en/latest/",
            note="the CommonMark parser the helpers use, with its html option off",
        ),
        Source(
            title="Pygments: available lexers",
            url="https://pygments.org/docs/lexers/",
            note="the language names a code block can be highlighted as",
        ),
    ],
)

revisions = [writing]
