"""Documentation: correcting a published article with a later revision — how to write one, what
readers, feeds, search and importers get, every rule with its problem line, and why."""

import json
import re

from _checking import broken_site
from _html_probe import text_of
from _pages_kit import between, indexed_pages, page, without_seconds
from _tool import SETTINGS, run, site

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

# --- One article in three batches: three revisions.

FIRST = """\
from site_builder import Source, fixture, paragraph, revision, verified_output

SOURCES = [
    Source(
        title="RFC 9110, section 15.6.4: 503 Service Unavailable",
        url="https://www.rfc-editor.org/rfc/rfc9110#section-15.6.4",
        note="a server that cannot answer now says so with 503",
    )
]


@fixture
def four_retries() -> dict:
    waits = [2**n for n in range(4)]
    doubles = all(later == 2 * wait for wait, later in zip(waits, waits[1:]))
    return {"waits": waits, "total": sum(waits), "checks": {"eachWaitDoubles": doubles}}


revisions = [
    revision(
        slug="retry-waits",
        title="Waiting between retries",
        categories=["Reliability"],
        excerpt="How long a client waits before it tries again.",
        published="2024-03-04",
        body=[
            paragraph("Double the wait after each failure. Four retries wait, in seconds:"),
            verified_output(four_retries, expected={"waits": [1, 2, 4, 8], "total": 15}),
        ],
        sources=SOURCES,
    )
]
"""
"""``articles/a_2024_03.py``: the article as it was first published."""

SECOND = """\
from site_builder import fixture, paragraph, revision, verified_output

from a_2024_03 import SOURCES


def capped_waits(retries: int, cap: int) -> list[int]:
    return [min(2**n, cap) for n in range(retries)]


@fixture
def four_capped_retries() -> dict:
    waits = capped_waits(4, cap=5)
    return {"waits": waits, "total": sum(waits), "checks": {"noWaitOverTheCap": max(waits) <= 5}}


revisions = [
    revision(
        slug="retry-waits",
        title="Waiting between retries",
        categories=["Reliability"],
        excerpt="How long a client waits before it tries again.",
        published="2024-03-04",
        revised="2025-05-06",
        changes="The waits had no cap; each is now at most **5 s**.",
        body=[
            paragraph("Double the wait after each failure, up to 5 s. Four retries wait, in seconds:"),
            verified_output(four_capped_retries, expected={"waits": [1, 2, 4, 5], "total": 12}),
        ],
        sources=SOURCES,
    )
]
"""
"""``articles/b_2025_05.py``: the first correction."""

THIRD = """\
from site_builder import Source, fixture, paragraph, revision, verified_output

from a_2024_03 import SOURCES
from b_2025_05 import capped_waits

RETRY_AFTER = Source(
    title="RFC 9110, section 10.2.3: Retry-After",
    url="https://www.rfc-editor.org/rfc/rfc9110#section-10.2.3",
    note="how long the server asks the client to wait",
)


@fixture
def six_capped_retries() -> dict:
    waits = capped_waits(6, cap=5)
    return {"waits": waits, "total": sum(waits), "checks": {"noWaitOverTheCap": max(waits) <= 5}}


revisions = [
    revision(
        slug="retry-waits",
        title="Waiting between retries",
        categories=["Reliability"],
        excerpt="How long a client waits before it tries again.",
        published="2024-03-04",
        revised="2026-11-20",
        changes="Six retries instead of four, and a server's `Retry-After` wins over the computed wait.",
        body=[
            paragraph("Double the wait after each failure, up to 5 s. Six retries wait, in seconds:"),
            verified_output(six_capped_retries, expected={"waits": [1, 2, 4, 5, 5, 5], "total": 22}),
            paragraph("When the server answers `503` with a `Retry-After` header, wait as long as it says."),
        ],
        sources=[*SOURCES, RETRY_AFTER],
    )
]
"""
"""``articles/c_2026_11.py``: the second correction, which also adds a paragraph and a source."""

THREE = {"articles/a_2024_03.py": FIRST, "articles/b_2025_05.py": SECOND, "articles/c_2026_11.py": THIRD}
ARTICLE = "articles/retry-waits/"


def _text(html: str) -> str:
    """What a browser displays for ``html``, runs of whitespace (a no-break space too) as one space."""
    return " ".join(text_of(html).split())


def _all(pattern: str, html: str) -> list[str]:
    """The displayed text of each match of ``pattern``'s first group."""
    return [_text(found) for found in re.findall(pattern, html, re.DOTALL)]


def _first(pattern: str, html: str) -> str:
    """The first group of the first match of ``pattern``, as it is written."""
    found = re.search(pattern, html, re.DOTALL)
    return found.group(1) if found else ""


def _meta(html: str) -> str:
    """The byline of an article page, as displayed."""
    return _text(_first(r'<p class="meta" data-pagefind-ignore>(.*?)</p>', html))


def _dates(html: str) -> dict[str, str]:
    """The publication and modification dates a page gives social sites and search engines."""
    tags = dict(re.findall(r'<meta property="article:(\w+_time)" content="([^"]*)">', html))
    data = json.loads(_first(r'<script type="application/ld\+json">(.*?)</script>', html))
    return tags | {"datePublished": data["datePublished"], "dateModified": data["dateModified"]}


def _history(html: str) -> list[str]:
    """The entries of a page's history section, as displayed."""
    return _all(r"<li[^>]*>(.*?)</li>", between(html, '<section class="history"', "</section>"))


def _diff(html: str) -> dict:
    """What a diff page says and marks."""
    body = between(html, '<div class="article-body diff">', "</div>")
    return {
        "title": _text(_first(r"<h1>(.*?)</h1>", html)),
        "compared": _text(_first(r'<p class="meta">(Revision .*?)</p>', html)),
        "changes": _text(_first(r'<p class="changes">(.*?)</p>', html)),
        "summary": _text(_first(r'<p class="diff-summary">(.*?)</p>', html)),
        "removed": _all(r"<del[^>]*>(.*?)</del>", body),
        "added": _all(r"<ins[^>]*>(.*?)</ins>", body),
    }


@fixture
def three_revisions() -> dict:
    """THREE built on 2026-12-01: the article's pages, what each shows, and the site around them."""
    root = site(THREE)
    ran = run(root, "build")
    folder = root / "build"
    latest, first = page(root, f"{ARTICLE}index.html"), page(root, f"{ARTICLE}revisions/1/index.html")
    home, feed, sitemap = page(root, "index.html"), page(root, "feed.xml"), page(root, "sitemap.xml")
    entry = between(feed, "<entry", "</entry>")
    numbers = [int(n) for n in re.findall(r"Revision (\d+)", " ".join(_history(latest)))]
    canonicals = {
        n: _first(r'<link rel="canonical" href="([^"]*)">', page(root, f"{ARTICLE}revisions/{n}/index.html"))
        for n in (1, 2)
    }
    indexed = indexed_pages(folder / "pagefind")
    return {
        "build": [without_seconds(line) for line in ran.lines],
        "articleFiles": sorted(p.relative_to(folder).as_posix() for p in (folder / ARTICLE).rglob("*.html")),
        "latest": {
            "byline": _meta(latest),
            "history": _history(latest),
            "historyLinks": re.findall(
                r'<a (?:class="diff-link" )?href="([^"]*)"',
                between(latest, '<section class="history"', "</section>"),
            ),
        },
        "revision1": {
            "canonical": canonicals[1],
            "notice": _text(_first(r'<p class="revision-notice"[^>]*>(.*?)</p>', first)),
            "noticeLink": _first(r'<p class="revision-notice"[^>]*>.*?<a href="([^"]*)"', first),
            "history": _history(first),
        },
        "diff2": _diff(page(root, f"{ARTICLE}diff/2/index.html")),
        "diff3": _diff(page(root, f"{ARTICLE}diff/3/index.html")),
        "homeCard": _text(_first(r'<li class="card">.*?<p class="meta">(.*?)</p>', home)),
        "feedEntry": {
            "published": _first(r"<published>(.*?)</published>", entry),
            "updated": _first(r"<updated>(.*?)</updated>", entry),
        },
        "sitemap": dict(re.findall(r"<loc>([^<]*)</loc>\s*<lastmod>([^<]*)</lastmod>", sitemap)),
        "searchIndex": sorted(indexed),
        "sharing": {"latest": _dates(latest), "revision 1": _dates(first)},
        "checks": {
            "built": ran.code == 0,
            "historyNewestFirst": numbers == sorted(numbers, reverse=True) == [3, 2, 1],
            "earlierPagesNameTheArticleCanonical": set(canonicals.values())
            == {f"https://demo.example/{ARTICLE}"},
            "oneCard": home.count('<li class="card">') == 1,
            "oneFeedEntry": feed.count("<entry") == 1,
            "noRevisionOrDiffPageInTheSitemap": not re.search(r"/(revisions|diff)/", sitemap),
            "searchHasTheLatestText": "Retry-After" in indexed[f"/{ARTICLE}"]["content"],
        },
    }


@fixture
def moved_category() -> dict:
    """THREE with its third revision in the category Retries instead of Reliability: the category
    pages, the tags of revision 1's page and of the latest; then a link to the old category's page."""
    moved = THIRD.replace('categories=["Reliability"]', 'categories=["Retries"]')
    root = site(THREE | {"articles/c_2026_11.py": moved})
    ran = run(root, "build")
    folder = root / "build" / "categories"
    linking = SECOND.replace(
        "Four retries wait", "[Reliability](/categories/reliability/): four retries wait"
    )
    checked = run(
        site(THREE | {"articles/b_2025_05.py": linking, "articles/c_2026_11.py": moved}), "validate"
    )
    tags = r'<p class="tags"[^>]*>(.*?)</p>'
    return {
        "categoryPages": sorted(p.parent.name for p in folder.glob("*/index.html")),
        "tags": {
            "revision 1": _first(tags, page(root, f"{ARTICLE}revisions/1/index.html")),
            "latest": _first(tags, page(root, f"{ARTICLE}index.html")),
        },
        "linkToTheOldCategory": checked.lines,
        "checks": {"built": ran.code == 0, "linkRefused": checked.code == 1},
    }


HISTORY_KEYS = ("batch", "published", "revision", "revises", "changes", "revised", "revisedAt")


@fixture
def for_importers() -> dict:
    """``revisions``, ``revisions --latest`` and ``revisions --slug`` on THREE, a few keys of each object."""
    root = site(THREE)
    every, latest = run(root, "revisions"), run(root, "revisions", "--latest")
    one = run(root, "revisions", "--slug", "retry-waits", "--latest")
    data = every.json()
    return {
        "revisions": [{key: entry[key] for key in HISTORY_KEYS} for entry in data],
        "revisions --latest": [{key: entry[key] for key in HISTORY_KEYS} for entry in latest.json()],
        "checks": {
            "allExitZero": every.code == latest.code == one.code == 0,
            "newKeysComeLast": all(list(entry)[-5:] == list(HISTORY_KEYS[2:]) for entry in data),
            "latestIsTheLastRevision": latest.json() == data[-1:] == one.json(),
            "buildWritesEveryRevision": run(root, "build").code == 0
            and json.loads(page(root, "revisions.json")) == data,
        },
    }


# --- A correction made the day the article was published.

SAME_DAY = """\
from site_builder import paragraph, revision, verified_output

from a_2024_03 import SOURCES, four_retries

revisions = [
    revision(
        slug="retry-waits",
        title="Waiting between retries",
        categories=["Reliability"],
        excerpt="How long a client waits before it tries again.",
        published="2024-03-04",
        revised="2024-03-04T16:20Z",
        changes="Says how long the first wait is.",
        body=[
            paragraph("Wait 1 s, then double the wait after each failure. Four retries wait, in seconds:"),
            verified_output(four_retries, expected={"waits": [1, 2, 4, 8], "total": 15}),
        ],
        sources=SOURCES,
    )
]
"""
"""``articles/a_2024_03_fix.py``: the first revision corrected that afternoon, 16:20 UTC."""


@fixture
def same_day() -> dict:
    """FIRST and its same-day correction built: the byline, the history, the feed entry and the
    dates in ``revisions``; then the correction without its time, validated."""
    root = site({"articles/a_2024_03.py": FIRST, "articles/a_2024_03_fix.py": SAME_DAY})
    ran, data = run(root, "build"), json.loads(page(root, "revisions.json"))
    latest, feed = page(root, f"{ARTICLE}index.html"), page(root, "feed.xml")
    entry = between(feed, "<entry", "</entry>")
    dated = SAME_DAY.replace('revised="2024-03-04T16:20Z"', 'revised="2024-03-04"')
    undated = run(site({"articles/a_2024_03.py": FIRST, "articles/a_2024_03_fix.py": dated}), "validate")
    seoul = SAME_DAY.replace('revised="2024-03-04T16:20Z"', 'revised="2024-03-05T01:00+09:00"').replace(
        "Four retries", "Up to four retries"
    )
    next_morning = site(
        {
            "articles/a_2024_03.py": FIRST,
            "articles/a_2024_03_fix.py": SAME_DAY,
            "articles/a_2024_03_fix2.py": seoul,
        }
    )
    refused = run(next_morning, "validate")
    return {
        "byline": _meta(latest),
        "history": _history(latest),
        "feedEntry": {
            "published": _first(r"<published>(.*?)</published>", entry),
            "updated": _first(r"<updated>(.*?)</updated>", entry),
        },
        "revisions": [{key: d[key] for key in ("revision", "revised", "revisedAt")} for d in data],
        "withoutTheTime": undated.lines,
        "seoulNextMorning": refused.lines,
        "checks": {
            "built": ran.code == 0,
            "theDayAloneIsRefused": undated.code == 1,
            "anEarlierInstantIsRefused": refused.code == 1,
            "oneFeedEntry": feed.count("<entry") == 1,
        },
    }


# --- Every rule, broken in a later batch.

FIRST_BATCH = """\
from site_builder import Source, paragraph, revision

SPEC = Source(title="CommonMark", url="https://spec.commonmark.org/0.31.2/", note="the syntax")
TEXT = [paragraph("The first words of a small article.")]


def first(slug):
    return revision(
        slug=slug, title=slug, categories=["Notes"], excerpt="Revision 1.",
        published="2026-11-02", body=TEXT, sources=[SPEC],
    )


revisions = [first(slug) for slug in ("no-note", "no-date", "blank-note", "bad-date", "no-fields")]
"""
"""``articles/a_first.py`` of the first broken site: five articles, each revision 1."""

WHAT_IT_SAYS = """\
from site_builder import paragraph, revision

from a_first import SPEC

FIXED = [paragraph("The corrected words of a small article.")]

revisions = [
    revision(
        slug="no-note", title="No note", categories=["Notes"], excerpt="Revision 2.",
        published="2026-11-02",
        revised="2026-11-20",
        body=FIXED, sources=[SPEC],
    ),
    revision(
        slug="no-date", title="No date", categories=["Notes"], excerpt="Revision 2.",
        published="2026-11-02",
        changes="The words are corrected.",
        body=FIXED, sources=[SPEC],
    ),
    revision(
        slug="blank-note", title="Blank note", categories=["Notes"], excerpt="Revision 2.",
        published="2026-11-02",
        revised="2026-11-20",
        changes=" ",
        body=FIXED, sources=[SPEC],
    ),
    revision(
        slug="bad-date", title="Bad date", categories=["Notes"], excerpt="Revision 2.",
        published="2026-11-02",
        revised="20 November 2026",
        changes="The words are corrected.",
        body=FIXED, sources=[SPEC],
    ),
    revision(
        slug="no-fields", title="No fields", categories=["Notes"], excerpt="Revision 2.",
        published="2026-11-20",
        body=FIXED, sources=[SPEC],
    ),
    revision(
        slug="brand-new", title="Brand new", categories=["Notes"], excerpt="Revision 1.",
        published="2026-11-20",
        revised="2026-11-25",
        changes="Nothing: no revision came before this one.",
        body=FIXED, sources=[SPEC],
    ),
]
"""
"""``articles/b_later.py`` of the first broken site: one mistake in each revision."""

DATES_FIRST = FIRST_BATCH.replace(
    '("no-note", "no-date", "blank-note", "bad-date", "no-fields")',
    '("moved-date", "same-day", "back-in-time", "same-words")',
)
"""``articles/a_first.py`` of the second broken site."""

DATES_AND_BODY = """\
from site_builder import Source, paragraph, revision

from a_first import SPEC, TEXT

FIXED = [paragraph("The corrected words of a small article.")]
RFC = Source(title="RFC 3986", url="https://www.rfc-editor.org/rfc/rfc3986", note="URI syntax")

revisions = [
    revision(
        slug="moved-date", title="Moved date", categories=["Notes"], excerpt="Revision 2.",
        published="2026-11-20",
        revised="2026-11-20",
        changes="The words are corrected.",
        body=FIXED, sources=[SPEC],
    ),
    revision(
        slug="same-day", title="Same day", categories=["Notes"], excerpt="Revision 2.",
        published="2026-11-02",
        revised="2026-11-02",
        changes="The words are corrected.",
        body=FIXED, sources=[SPEC],
    ),
    revision(
        slug="back-in-time", title="Back in time", categories=["Notes"], excerpt="Revision 2.",
        published="2026-11-02",
        revised="2026-10-30",
        changes="The words are corrected.",
        body=FIXED, sources=[SPEC],
    ),
    revision(
        slug="same-words", title="Same words", categories=["Notes"], excerpt="A new excerpt.",
        published="2026-11-02",
        revised="2026-11-20",
        changes="A new excerpt and one more source.",
        body=TEXT, sources=[SPEC, RFC],
    ),
]
"""
"""``articles/b_later.py`` of the second broken site: dates, and a body that did not change."""


@fixture
def what_a_revision_says() -> dict:
    """FIRST_BATCH and WHAT_IT_SAYS, validated in text and in JSON."""
    return broken_site({"articles/a_first.py": FIRST_BATCH, "articles/b_later.py": WHAT_IT_SAYS}, planted=6)


EARLY_FIX = """\
from site_builder import paragraph, revision

from a_first import SPEC

revisions = [
    revision(
        slug="no-note", title="no-note", categories=["Notes"], excerpt="Revision 2.",
        published="2026-11-02",
        revised="2026-11-20",
        changes="A sentence more.",
        body=[paragraph("The first words of a small article, and one more.")], sources=[SPEC],
    ),
]
"""
"""A revision of ``no-note`` in ``articles/a_early_fix.py``, a name that sorts before ``a_first.py``."""


@fixture
def module_order() -> dict:
    """EARLY_FIX beside FIRST_BATCH; then the same module under the name the message suggests."""
    report = broken_site(
        {"articles/a_first.py": FIRST_BATCH, "articles/a_early_fix.py": EARLY_FIX}, planted=1
    )
    (suggested,) = re.findall(r"e\.g\. (\w+\.py)$", report["problems"]["revision-module-order"][0])
    renamed = run(site({"articles/a_first.py": FIRST_BATCH, f"articles/{suggested}": EARLY_FIX}), "validate")
    report["checks"]["theSuggestedNameValidates"] = renamed.code == 0
    return report


@fixture
def dates_and_body() -> dict:
    """DATES_FIRST and DATES_AND_BODY, validated in text and in JSON."""
    return broken_site({"articles/a_first.py": DATES_FIRST, "articles/b_later.py": DATES_AND_BODY}, planted=4)


def _german(with_history: bool) -> str:
    """A ``[tool.site_builder.labels.de]`` table: every label of the package's English, or every
    label but the words of an article's history (the words themselves do not matter here)."""
    from site_builder.language.labels import HISTORY, built_in

    lines = ["[tool.site_builder.labels.de]"]
    for key, value in built_in("en").items():
        if key in HISTORY and not with_history:
            continue
        if isinstance(value, str):
            lines.append(f"{key} = {json.dumps(value)}")
        else:
            forms = ", ".join(f"{form} = {json.dumps(text)}" for form, text in value.items())
            lines.append(f"{key} = {{ {forms} }}")
    return "\n".join(lines) + "\n"


@fixture
def history_words() -> dict:
    """A German article in two batches, on a site whose German table lacks the history words: with
    revision 1 alone, with revision 2 too, and with the words given."""
    german = {
        name: text.replace('categories=["Reliability"],', 'categories=["Reliability"], lang="de",')
        for name, text in THREE.items()
        if "c_2026" not in name
    }
    lacking = SETTINGS + "\n" + _german(with_history=False)
    alone = run(site({"articles/a_2024_03.py": german["articles/a_2024_03.py"]}, lacking), "validate")
    revised = run(site(german, lacking), "validate")
    complete = run(site(german, SETTINGS + "\n" + _german(with_history=True)), "validate")
    line = next(n for n, text in enumerate(SECOND.splitlines(), 1) if "changes=" in text)
    return {
        "revision 1 alone": alone.lines,
        "revision 2 too": revised.lines,
        "words given": complete.lines,
        "checks": {
            "onlyTheRevisedSiteFails": (alone.code, revised.code, complete.code) == (0, 1, 0),
            "atTheChangesLine": revised.lines[0].startswith(f"articles/b_2025_05.py:{line}: "),
        },
    }


# --- The page.

history_page = revision(
    slug="revisions-over-time",
    title="Correcting an article: revisions over time",
    categories=["Guide"],
    excerpt="A published article is corrected by a later revision, never edited in place: how to "
    "write one, what readers, feeds, search engines and importers get, and every rule with the "
    "line it prints.",
    published="2026-12-01",
    body=[
        paragraph(
            "An article published on a site built by site_builder is never edited in place. When it "
            "turns out to be wrong, you publish a *later revision* of it: the whole article again, "
            "corrected, in a new batch module, with the date of the correction and a short note "
            "saying what changed and why. The article's page then shows the latest revision with "
            "its history; every earlier revision stays readable at an address of its own, and a "
            "page for each correction shows, word by word, what it changed. Its fixtures run like "
            "the first's, so the corrected claims are backed the same way."
        ),
        heading("When to write a revision"),
        paragraph(
            "A published revision is something the site said on a given day. Readers may have "
            "quoted it, linked to it, acted on it. So when a claim turns out to be wrong, a number "
            "changes, a source no longer says what the article says it does, or the code stops "
            "running, write a revision. Each one is listed in the article's history for every "
            "reader to see, so gather what one review found into one revision rather than three."
        ),
        paragraph(
            "A draft (`draft=True`) or a revision scheduled for a later day has not been published "
            "yet: nobody has read it, so edit it where it is. Once a build has published it, "
            "correct it with a revision."
        ),
        heading("Writing one"),
        paragraph(
            "Put the revision in a new batch module whose file name sorts after the module that "
            "published the article. Batches are read in file-name order, then in the order of "
            "their `revisions` lists, and the revisions of an article must come in date order; a "
            "date in the file name, `articles/revised_2026_12.py`, takes care of both. Then call "
            "`revision(...)` as for the first one, with:"
        ),
        unordered_list(
            [
                "**the same `slug`** — that is what makes it a revision of that article rather "
                "than a mistake (see `slug-unique` below);",
                "**the same `published`** — the day the article first appeared, which stays its "
                "publication date everywhere;",
                '**`revised="YYYY-MM-DD"`** — the date of this revision, after the previous '
                "revision's date (on the same day, with its time: see [a correction the same "
                "day](#a-correction-the-same-day));",
                '**`changes="…"`** — one or two sentences of inline Markdown, written for '
                "readers: what was wrong and what the revision changes. It is shown in the "
                "history and on the diff page, and its links are checked like any other;",
                "**everything else, complete** — title, categories, excerpt, cover, body and "
                "sources. A revision is the whole article as of its date, not a patch: keep what "
                "was right, change what was not.",
            ]
        ),
        paragraph(
            "Leave the earlier module as it is: it *is* the earlier revision, and its page stays "
            "on the site. The new module may import from it — sources, constants, the model a "
            "fixture runs — as any batch may import another. Define the fixtures that back the "
            "new revision's outputs in the new module: every fixture of every revision runs, and "
            "each revision's `verified_output` blocks are checked against what its fixtures "
            "return, so a corrected result needs a fixture that computes it, and the earlier "
            "result stays backed by the earlier fixture."
        ),
        paragraph(
            "A revision dated after the build's date is *scheduled*, like a first revision: the "
            "site keeps showing the one before until that day, and `--future` previews it "
            "([Writing an article](/articles/writing-articles/#drafts-and-scheduled-revisions)). "
            "`draft=True` keeps it off the site altogether."
        ),
        heading("An article in three batches"),
        paragraph(
            "A small site built on 2026-12-01 holds one article in three batches. The first, "
            "`articles/a_2024_03.py`, published it in March 2024 with waits that double without "
            "end:"
        ),
        code_block(FIRST, language="python"),
        paragraph(
            "The second, `articles/b_2025_05.py`, caps each wait. It imports the sources from the "
            "first batch, and its fixture runs the corrected model:"
        ),
        code_block(SECOND, language="python"),
        paragraph(
            "The third, `articles/c_2026_11.py`, reuses the second's model for six retries, adds a "
            "paragraph and a source:"
        ),
        code_block(THIRD, language="python"),
        heading("What readers get"),
        paragraph(
            "`build` counts revisions, so this site of one article has three, and nine pages: the "
            "home page, the list of categories, the category's page, the 404 page, and five pages "
            "of the article:"
        ),
        verified_output(
            three_revisions,
            expected={
                "build": ["built 3 revisions, 9 pages"],
                "articleFiles": [
                    "articles/retry-waits/diff/2/index.html",
                    "articles/retry-waits/diff/3/index.html",
                    "articles/retry-waits/index.html",
                    "articles/retry-waits/revisions/1/index.html",
                    "articles/retry-waits/revisions/2/index.html",
                ],
            },
        ),
        unordered_list(
            [
                "**`articles/SLUG/`** shows the latest revision, at the address the article always "
                "had. Its byline gives both dates, *Published* (the first revision's) and "
                '*Updated* (the latest\'s), and after the body a section `id="history"` lists '
                "every revision, newest first: its number, its date, its `changes` note, a link "
                "to its page and one to what it changed.",
                "**`articles/SLUG/revisions/N/`** keeps each earlier revision as it was, with its "
                "own fixtures' marks, under a notice that it is not the latest and a link to it. "
                "Its canonical URL is the article's, which tells search engines to show the "
                "article rather than this copy.",
                "**`articles/SLUG/diff/N/`** shows what revision N changed in revision N − 1: "
                "the text of revision N with the words it added in `<ins>` and the words it "
                "removed in `<del>`, in paragraphs, headings, lists, tables and code alike.",
            ]
        ),
        paragraph("The latest page's byline, its history as a reader sees it, and the links of the history:"),
        verified_output(
            three_revisions,
            expected={
                "latest": {
                    "byline": "Published: 2024-03-04 · Updated: 2026-11-20 · 1 min read",
                    "history": [
                        "Revision 3 · 2026-11-20 — Six retries instead of four, and a server's "
                        "Retry-After wins over the computed wait. What changed",
                        "Revision 2 · 2025-05-06 — The waits had no cap; each is now at most 5 s. "
                        "What changed",
                        "Revision 1 · 2024-03-04",
                    ],
                    "historyLinks": [
                        "/articles/retry-waits/diff/3/",
                        "/articles/retry-waits/revisions/2/",
                        "/articles/retry-waits/diff/2/",
                        "/articles/retry-waits/revisions/1/",
                    ],
                }
            },
        ),
        paragraph(
            "The page of revision 1: its canonical URL, its notice and where the notice links, "
            "and its history, in which revision 1 is the one shown (in bold rather than a link):"
        ),
        verified_output(
            three_revisions,
            expected={
                "revision1": {
                    "canonical": "https://demo.example/articles/retry-waits/",
                    "notice": "You are reading revision 1 of 2024-03-04, not the latest. Read the "
                    "latest revision",
                    "noticeLink": "/articles/retry-waits/",
                    "history": [
                        "Revision 3 · 2026-11-20 — Six retries instead of four, and a server's "
                        "Retry-After wins over the computed wait. What changed",
                        "Revision 2 · 2025-05-06 — The waits had no cap; each is now at most 5 s. "
                        "What changed",
                        "Revision 1 · 2024-03-04",
                    ],
                }
            },
        ),
        paragraph(
            "The two diff pages: their heading, which revisions they compare, the `changes` note, "
            "the count of words, and the text inside each `<del>` and each `<ins>` of the body, in "
            "page order. Revision 2 added four words to the first paragraph and changed two "
            "numbers of the verified output; revision 3 changed a word and a number, added two "
            "lines to the output, a paragraph and a source:"
        ),
        verified_output(
            three_revisions,
            expected={
                "diff2": {
                    "title": "What revision 2 changed",
                    "compared": "Revision 1 of 2024-03-04 compared with revision 2 of 2025-05-06",
                    "changes": "The waits had no cap; each is now at most 5 s.",
                    "summary": "6 words added · 2 words removed · Revision 1 · Revision 2",
                    "removed": ["8", "15"],
                    "added": [", up to 5 s", "5", "12"],
                },
                "diff3": {
                    "title": "What revision 3 changed",
                    "compared": "Revision 2 of 2025-05-06 compared with revision 3 of 2026-11-20",
                    "summary": "33 words added · 2 words removed · Revision 2 · Revision 3",
                    "removed": ["Four", "12"],
                    "added": [
                        "Six",
                        "5, 5,",
                        "22",
                        "When the server answers 503 with a Retry-After header, wait as long as it says.",
                        "RFC 9110, section 10.2.3: Retry-After — how long the server asks the client to wait",
                    ],
                },
            },
        ),
        paragraph(
            "The diff is made from the two revisions' HTML, so what it marks is exactly what a "
            "reader would see change; a paragraph, list item or table row added or removed whole "
            "is marked whole, and inside a code block every space counts. The counts are "
            "of words inside the marks — the new source counts too."
        ),
        heading("Lists, the feed, the sitemap and search"),
        paragraph(
            "Everywhere else the article is one entry, the latest revision, dated by it: one card "
            "on the home page and its category's page (sorted by the latest date, marked "
            "*Updated*), one entry in the Atom feed whose `published` is the first revision's date "
            "and `updated` the latest's, so a feed reader can show it as updated, and "
            "one URL in the sitemap with the latest date as `lastmod`. The revision and diff pages "
            "are not in the sitemap, and the search index holds the latest revision only, at the "
            "article's URL — a search never leads to text the site has since corrected:"
        ),
        verified_output(
            three_revisions,
            expected={
                "homeCard": "Updated: 2026-11-20 · 1 min read",
                "feedEntry": {"published": "2024-03-04T00:00:00Z", "updated": "2026-11-20T00:00:00Z"},
                "sitemap": {
                    "https://demo.example/": "2026-11-20",
                    "https://demo.example/articles/retry-waits/": "2026-11-20",
                    "https://demo.example/categories/": "2026-11-20",
                    "https://demo.example/categories/reliability/": "2026-11-20",
                },
                "searchIndex": ["/articles/retry-waits/"],
            },
        ),
        paragraph(
            "The dates each page gives social sites and search engines ([Templates and "
            "theming](/articles/templates-and-theming/#shared-and-indexed-the-head-of-an-article-page)) "
            "are those of the revision it shows: published when the article first was, modified "
            "on the revision's own date:"
        ),
        verified_output(
            three_revisions,
            expected={
                "sharing": {
                    "latest": {
                        "published_time": "2024-03-04",
                        "modified_time": "2026-11-20",
                        "datePublished": "2024-03-04",
                        "dateModified": "2026-11-20",
                    },
                    "revision 1": {
                        "published_time": "2024-03-04",
                        "modified_time": "2024-03-04",
                        "datePublished": "2024-03-04",
                        "dateModified": "2024-03-04",
                    },
                }
            },
        ),
        paragraph(
            "Categories follow the latest revision too. When a correction moves an article to "
            "another category, the category only earlier revisions had gets no page (unless "
            "another article is in it), their pages show it as plain text rather than a link, "
            "and a link to that page from any article is a `url-target` problem, at the line "
            "that writes it. The same site with its third revision in *Retries* instead of "
            "*Reliability*, then with the second revision linking to `/categories/reliability/`:"
        ),
        verified_output(
            moved_category,
            expected={
                "categoryPages": ["retries"],
                "tags": {
                    "revision 1": '<span class="tag">Reliability</span>',
                    "latest": '<a class="tag" href="/categories/retries/">Retries</a>',
                },
                "linkToTheOldCategory": [
                    "articles/b_2025_05.py:26: retry-waits: '/categories/reliability/' is neither a file "
                    "under assets/ nor a page of the site",
                    "1 problem found",
                ],
            },
        ),
        heading("What importers get"),
        paragraph(
            "`site-builder revisions` and `build/revisions.json` hold every revision, in site "
            "order, each a complete object. Five keys, after all the others, say where it stands "
            "in its article's history: `revision` (its number, from 1), `revises` (the number "
            "before it, or `null`), `changes` (the note as HTML, or `null` for a first revision), "
            "`revised` (its own date, or `null`) and `revisedAt` (its date and time, for a "
            "revision that gives one, or `null`). `published` is the article's first date in "
            "every one of them. `--latest` prints only the latest revision of each article, where "
            "the article's first revision stood in the array. Some keys of each object:"
        ),
        code_block("site-builder revisions\nsite-builder revisions --latest", language="sh"),
        verified_output(
            for_importers,
            expected={
                "revisions": [
                    {
                        "batch": "a_2024_03",
                        "published": "2024-03-04",
                        "revision": 1,
                        "revises": None,
                        "changes": None,
                        "revised": None,
                        "revisedAt": None,
                    },
                    {
                        "batch": "b_2025_05",
                        "published": "2024-03-04",
                        "revision": 2,
                        "revises": 1,
                        "changes": "The waits had no cap; each is now at most <strong>5 s</strong>.",
                        "revised": "2025-05-06",
                        "revisedAt": None,
                    },
                    {
                        "batch": "c_2026_11",
                        "published": "2024-03-04",
                        "revision": 3,
                        "revises": 2,
                        "changes": "Six retries instead of four, and a server&#039;s "
                        "<code>Retry-After</code> wins over the computed wait.",
                        "revised": "2026-11-20",
                        "revisedAt": None,
                    },
                ],
                "revisions --latest": [
                    {
                        "batch": "c_2026_11",
                        "published": "2024-03-04",
                        "revision": 3,
                        "revises": 2,
                        "changes": "Six retries instead of four, and a server&#039;s "
                        "<code>Retry-After</code> wins over the computed wait.",
                        "revised": "2026-11-20",
                        "revisedAt": None,
                    }
                ],
            },
        ),
        paragraph(
            "An importer that mirrors the site takes `--latest`; one that keeps an archive, or shows "
            "its own history, takes them all and groups them by `slug`. The date a revision took "
            "effect is `revisedAt`, else `revised`, else `published`. `--slug S` keeps every "
            "revision of that article, or with `--latest` only its latest. [The revisions "
            "JSON](/articles/revisions-json/) describes every key and the schema."
        ),
        heading("A correction the same day"),
        paragraph(
            "An error found within hours of publication is corrected the same day. Two revisions "
            "of one article with the same date would leave readers, feeds and importers to guess "
            "which came first, so a correction made on the day of the revision before it gives "
            "its time too: the date, `T`, the hours and minutes (seconds if you like), and the "
            "offset from UTC — `Z` for UTC itself, or one like `+09:00`. The time orders the "
            "day's revisions; the date alone still decides when a revision is published, as "
            "`published` does, so a correction is on the site from the first build of its day."
        ),
        paragraph(
            "Here `articles/a_2024_03_fix.py` corrects the article of the first batch above the "
            "afternoon it appeared. It shows the first revision's output again, so it imports its "
            "fixture rather than defining one:"
        ),
        code_block(SAME_DAY, language="python"),
        paragraph(
            "Readers see the time beside the date, in UTC or the offset written; the feed entry's "
            "`updated` and the page's `article:modified_time` carry the time in RFC 3339. In "
            "`revisions`, `revised` stays the date, for importers that read it as one, and "
            "`revisedAt` adds the date and time; it is `null` when the author gave a date alone. "
            "The same correction without its time is a `revised-order` problem that says how to "
            "write it:"
        ),
        paragraph(
            "Times compare as instants, whatever their offsets. A further correction written "
            '`revised="2024-03-05T01:00+09:00"`, one in the morning of 5 March in Seoul, was '
            "made at 16:00 UTC on 4 March, twenty minutes before the one above; it is refused "
            "(`seoulNextMorning` below). All of it, built on 2026-12-01:"
        ),
        verified_output(
            same_day,
            expected={
                "byline": "Published: 2024-03-04 · Updated: 2024-03-04 16:20 UTC · 1 min read",
                "history": [
                    "Revision 2 · 2024-03-04 16:20 UTC — Says how long the first wait is. What changed",
                    "Revision 1 · 2024-03-04",
                ],
                "feedEntry": {"published": "2024-03-04T00:00:00Z", "updated": "2024-03-04T16:20:00Z"},
                "revisions": [
                    {"revision": 1, "revised": None, "revisedAt": None},
                    {"revision": 2, "revised": "2024-03-04", "revisedAt": "2024-03-04T16:20:00Z"},
                ],
                "withoutTheTime": [
                    "articles/a_2024_03_fix.py:12: retry-waits: revised 2024-03-04 is the same day as "
                    "revision 1 (articles/a_2024_03.py:20); a correction made that day gives its time "
                    'too, e.g. revised="2024-03-04T15:30Z"',
                    "1 problem found",
                ],
                "seoulNextMorning": [
                    "articles/a_2024_03_fix2.py:12: retry-waits: revised 2024-03-05T01:00+09:00 is not "
                    "after the time of revision 2 (articles/a_2024_03_fix.py:6), 2024-03-04T16:20Z; an "
                    "article's revisions come in date order (batches are read in file-name order, then "
                    "list order)",
                    "1 problem found",
                ],
            },
        ),
        heading("The rules"),
        paragraph(
            "Each rule is checked by `validate`, `build` and the pytest plugin like every other "
            "([Validation rules](/articles/validation-rules/)), and each problem is reported at the "
            "line of the field at fault in the later revision. The first broken site publishes "
            "five articles in `articles/a_first.py` (a helper writes the five first revisions):"
        ),
        code_block(FIRST_BATCH, language="python"),
        paragraph(
            "Its `articles/b_later.py` gets what a later revision must say wrong, once in each revision:"
        ),
        code_block(WHAT_IT_SAYS, language="python"),
        verified_output(
            what_a_revision_says,
            expected={
                "exit": 1,
                "problems": {
                    "changes": [
                        "articles/b_later.py:11: no-note: revision 2 of 'no-note' needs changes= saying "
                        "what changed and why",
                        "articles/b_later.py:24: blank-note: changes must say what this revision changed "
                        "and why; it is empty",
                    ],
                    "revised": [
                        "articles/b_later.py:17: no-date: revision 2 of 'no-date' needs revised= with its "
                        "date",
                        "articles/b_later.py:30: bad-date: revised '20 November 2026' is not an ISO date "
                        "like 2026-12-01, nor a date and time like 2026-12-01T15:30Z",
                    ],
                    "slug-unique": [
                        "articles/b_later.py:35: no-fields: slug 'no-fields' is already used at "
                        "articles/a_first.py:9; a later revision of that article gives revised= (its "
                        "date) and changes= (what changed and why)",
                    ],
                    "revision-first": [
                        "articles/b_later.py:42: brand-new: no earlier revision publishes 'brand-new': an "
                        "article's first revision has no revised= or changes=",
                    ],
                },
                "summary": "6 problems found",
            },
        ),
        unordered_list(
            [
                "**`changes`** — a later revision without a note (reported at its `revised=` "
                "line), or with one that is empty or only spaces (at its `changes=` line).",
                "**`revised`** — a later revision without its date (at its `changes=` line), or "
                "with one that is neither `YYYY-MM-DD` nor a date and time like "
                "`2026-12-04T16:20Z`, or not a day of the calendar.",
                "**`slug-unique`** — a revision that uses a published slug but gives neither "
                "`revised=` nor `changes=`. It may be a second article that needs a slug of its "
                "own, or a revision that forgot to say so; the message names the `slug=` line of "
                "the earlier revision, here inside the helper `first`.",
                "**`revision-first`** — `revised=` or `changes=` on a revision whose slug no "
                "revision publishes: a first revision has nothing to revise. Check the slug.",
            ]
        ),
        paragraph(
            "A revision whose article is published by a module that sorts after its own is "
            "read before the article's first revision. That is one mistake, of the order, and "
            "it is said once, at the revision's `revised=` line, with a name for the module "
            "that sorts after the article's (a name that validates, which the fixture below "
            "checks). Here `articles/a_early_fix.py` revises `no-note` of `articles/a_first.py`:"
        ),
        code_block(EARLY_FIX, language="python"),
        verified_output(
            module_order,
            expected={
                "exit": 1,
                "problems": {
                    "revision-module-order": [
                        "articles/a_early_fix.py:9: no-note: this revision of 'no-note' is loaded before "
                        "the article's first revision (articles/a_first.py:8): batches load in the order "
                        "of their file names, and a_early_fix.py sorts before a_first.py; give this "
                        "module a name that sorts after it, e.g. a_first_2026_11_20.py"
                    ]
                },
                "summary": "1 problem found",
            },
        ),
        paragraph(
            "Within one module the same mistake is a revision listed before the first one in "
            "`revisions`; the message then says to list it after that one."
        ),
        paragraph(
            "The second site publishes four other articles the same way, and its later batch gets "
            "the dates and the body wrong:"
        ),
        code_block(DATES_AND_BODY, language="python"),
        verified_output(
            dates_and_body,
            expected={
                "exit": 1,
                "problems": {
                    "published": [
                        "articles/b_later.py:11: moved-date: published '2026-11-20' differs from revision "
                        "1's '2026-11-02' (articles/a_first.py:8); a later revision keeps the article's "
                        "first date and gives its own as revised=",
                    ],
                    "revised-order": [
                        "articles/b_later.py:19: same-day: revised 2026-11-02 is the same day as revision "
                        "1 (articles/a_first.py:8); a correction made that day gives its time too, e.g. "
                        'revised="2026-11-02T15:30Z"',
                        "articles/b_later.py:26: back-in-time: revised 2026-10-30 is not after the date of "
                        "revision 1 (articles/a_first.py:8), 2026-11-02; an article's revisions come in "
                        "date order (batches are read in file-name order, then list order)",
                    ],
                    "revision-body": [
                        "articles/b_later.py:35: same-words: body is the same as revision 1's "
                        "(articles/a_first.py:8); a revision must change the text",
                    ],
                },
                "summary": "4 problems found",
            },
        ),
        unordered_list(
            [
                "**`published`** — `published` is the article's first date, the same in every "
                "revision; the date of a correction goes into `revised`.",
                "**`revised-order`** — each revision's date is after the previous one's (a first "
                "revision's date is its `published`). A correction on the day of the revision "
                "before it gives its time, after that revision's time if it has one ([a "
                "correction the same day](#a-correction-the-same-day)). A date before the previous "
                "one usually means the batch files sort in the wrong order; rename the later one.",
                "**`revision-body`** — a revision whose body renders to the same HTML as the "
                "previous one's. The body is what readers read and what the diff compares: a new "
                "title, excerpt or category alone, or a source added without a word of the text "
                "changing, is no revision. Say in the text what the new source supports.",
            ]
        ),
        paragraph(
            "A revision with several mistakes gets one line for each, and the rules of a revision's "
            "own fields ([Validation rules](/articles/validation-rules/)) apply to every revision "
            "as to the first."
        ),
        heading("The words of the history pages"),
        paragraph(
            "The history, the notice and the diff page use ten words of the chrome that older "
            "pages did not need: `updated`, `history`, `revision`, `revision_notice`, "
            "`latest_link`, `diff_link`, `diff_title`, `words_added`, `words_removed` and "
            "`compared`. English, Russian and Korean have them. A language a site adds with a "
            "labels table ([Languages](/articles/languages/#adding-a-language-a-labels-table)) may "
            "leave them out until an article in that language has a later revision; then they "
            "are a `labels` problem at the `changes=` line of that revision. Here the first two "
            'batches of the article above, given `lang="de"`, are validated three times: revision '
            "1 alone on a site whose German table gives every label but those ten, both revisions "
            "on that site, and both on a site whose table gives every label:"
        ),
        verified_output(
            history_words,
            expected={
                "revision 1 alone": ["ok: 1 revision valid, 1 fixture passed"],
                "revision 2 too": [
                    "articles/b_2025_05.py:24: retry-waits: 'retry-waits' has a later revision in 'de': "
                    "its pages need the labels updated, history, revision, revision_notice, "
                    "latest_link, diff_link, diff_title, words_added, words_removed, compared, which "
                    "[tool.site_builder.labels.de] does not give",
                    "1 problem found",
                ],
                "words given": ["ok: 2 revisions valid, 2 fixtures passed"],
            },
        ),
        heading("Why revisions instead of editing in place"),
        unordered_list(
            [
                "**A reader can tell.** Someone who read or quoted the article sees that it "
                "changed, when, and why, and can read both texts. An article edited in place "
                "would say something else under the same date, and a correction would look "
                "like what the article had always said.",
                "**The old text stays checked.** An earlier revision is a batch like any other: "
                "its fixtures run and its outputs are compared with what they return, so what "
                "the article said on its date stays backed by the code it showed — and if an "
                "upgrade breaks that code, the build says so.",
                "**The repository's history is not the reader's.** Git keeps every edit, but "
                "readers see pages, feeds and search results. The history section, the diff "
                "pages and the feed's `updated` date put the record where they look.",
                "**Dates stay honest.** `published` stays the day the article appeared, the "
                "feed, the sitemap and the page's metadata say when it was last changed, and a "
                "search engine is pointed at the latest text only.",
                "**Importers choose.** The `revisions` JSON carries every revision with its "
                "number, so a system that imports articles can mirror the latest "
                "(`--latest`) or keep the whole history.",
            ]
        ),
        paragraph(
            "The cost is a new batch module for each correction, and a little build time: the "
            "pages of a corrected article are rendered on every build that has anything to do "
            "([Incremental "
            "builds](/articles/incremental-builds/#an-article-revised-by-a-later-batch) says why)."
        ),
    ],
    sources=[
        Source(
            title="RFC 4287: The Atom Syndication Format, sections 4.2.9 and 4.2.15",
            url="https://www.rfc-editor.org/rfc/rfc4287",
            note="atom:published is when an entry was first available, atom:updated the last "
            "significant change",
        ),
        Source(
            title="HTML Living Standard: the ins and del elements",
            url="https://html.spec.whatwg.org/multipage/edits.html",
            note="ins marks an addition to the document, del a removal",
        ),
        Source(
            title="Google Search Central: consolidate duplicate URLs",
            url="https://developers.google.com/search/docs/crawling-indexing/consolidate-duplicate-urls",
            note="rel=canonical names the URL a search engine should show for duplicate pages",
        ),
    ],
)

revisions = [history_page]
