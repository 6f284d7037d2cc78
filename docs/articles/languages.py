"""Documentation: the language setting, per-revision lang, chrome labels, sources headings, reading time."""

import re

from _tool import run, site

from site_builder import (
    Source,
    code_block,
    data_table,
    fixture,
    heading,
    paragraph,
    revision,
    verified_output,
)

# --- One batch, five revisions in four languages (and a regional tag).

NOTES_BATCH = """\
from site_builder import Source, paragraph, revision

SPEC = Source(title="BCP 47", url="https://www.rfc-editor.org/info/bcp47", note="language tags")


def note(slug, lang, text):
    return revision(
        slug=slug,
        title=slug,
        categories=["Demo"],
        excerpt="One paragraph in one language.",
        published="2026-12-01",
        lang=lang,
        body=[paragraph(text)],
        sources=[SPEC],
    )


revisions = [
    note("in-english", None, "Written in the site's language, so it gives no lang."),
    note("in-russian", "ru", "Повторный запрос не должен создавать второй эффект."),
    note("in-korean", "ko", "재시도는 두 번째 효과를 만들면 안 됩니다."),
    note("in-german", "de", "Eine Wiederholung darf keine zweite Wirkung haben."),
    note("in-russian-region", "ru-RU", "Тот же текст, но с тегом ru-RU."),
]
"""
SLUGS = ["in-english", "in-russian", "in-korean", "in-german", "in-russian-region"]


def _first(pattern: str, text: str) -> str | None:
    match = re.search(pattern, text, re.DOTALL)
    return match.group(1) if match else None


def _chrome(page: str) -> dict:
    """The words around an article on its built page."""
    sources = re.findall(r'<h2 id="[^"]*">([^<]*)</h2>', page.split('class="article-body"', 1)[-1])
    return {
        "htmlLang": _first(r'<html lang="([^"]*)">', page),
        "readingTime": _first(r"<span>([^<]*)</span>", page),
        "contents": _first(r'<h2 id="toc-heading">([^<]*)</h2>', page),
        "sourcesHeading": sources[-1] if sources else None,
    }


@fixture
def chrome() -> dict:
    """Build the five-language site and read the chrome of each article page, the index and the feed."""
    root = site({"articles/notes.py": NOTES_BATCH})
    ran = run(root, "build")
    out = root / "build"
    pages = {slug: _chrome((out / "articles" / slug / "index.html").read_text("utf-8")) for slug in SLUGS}
    feed = (out / "feed.xml").read_text("utf-8") if ran.code == 0 else ""
    index = (out / "index.html").read_text("utf-8") if ran.code == 0 else ""
    return {
        "exit": ran.code,
        "pages": pages,
        "indexHtmlLang": _first(r'<html lang="([^"]*)">', index),
        "feedLang": _first(r'<feed [^>]*xml:lang="([^"]*)"', feed),
        "feedEntryLangs": re.findall(r'<entry xml:lang="([^"]*)"', feed),
        "checks": {
            "built": ran.code == 0,
            "germanFallsBackToEnglish": pages["in-german"]["contents"] == pages["in-english"]["contents"],
            "russianHasItsOwnWords": pages["in-russian"]["contents"] != pages["in-english"]["contents"],
            "pageLangIsTheRevisions": [p["htmlLang"] for p in pages.values()]
            == ["en", "ru", "ko", "de", "ru-RU"],
            "fiveFeedEntries": len(re.findall(r"<entry ", feed)) == 5,
        },
    }


# --- The sources heading per language, with the sources_heading setting.

HEADING_SETTINGS = """\
[tool.site_builder]
title = "Demo"
base_url = "https://demo.example/"
min_body_chars = 20
min_sources = 1
sources_heading = { en = "Further reading", de = "Quellen", ru = "Источники" }
"""
HEADINGS_BATCH = """\
from site_builder import Source, paragraph, revision

SPEC = Source(title="BCP 47", url="https://www.rfc-editor.org/info/bcp47", note="language tags")


def note(slug, lang):
    return revision(
        slug=slug,
        title=slug,
        categories=["Demo"],
        excerpt="Which heading its sources get.",
        published="2026-12-01",
        lang=lang,
        body=[paragraph("A paragraph, and then the sources.")],
        sources=[SPEC],
    )


revisions = [
    note("lang-en", "en"),
    note("lang-en-gb", "en-GB"),
    note("lang-de", "de"),
    note("lang-ko", "ko"),
    note("lang-ru", "ru"),
    note("lang-fr", "fr"),
]
"""


@fixture
def sources_headings() -> dict:
    """Print the revisions and read the sources heading out of each contentHtml."""
    ran = run(site({"articles/headings.py": HEADINGS_BATCH}, HEADING_SETTINGS), "revisions")
    items = ran.json() if ran.code == 0 else []
    found = {item["lang"]: re.findall(r"\n<h2>([^<]*)</h2>\n<ul>", item["contentHtml"])[-1] for item in items}
    return {
        "exit": ran.code,
        "sourcesHeading": found,
        "checks": {
            "exitsWithZero": ran.code == 0,
            "sixRevisions": len(found) == 6,
            "settingUsedForEnglish": found.get("en") == "Further reading",
            "russianNotOverridden": found.get("ru") != "Источники",
        },
    }


# --- Reading time of English and Korean bodies.

READING_BATCH = """\
from site_builder import Source, paragraph, revision

SPEC = Source(title="BCP 47", url="https://www.rfc-editor.org/info/bcp47", note="language tags")


def note(slug, lang, text, minutes=None):
    return revision(
        slug=slug,
        title=slug,
        categories=["Demo"],
        excerpt="A body of a known length.",
        published="2026-12-01",
        lang=lang,
        reading_minutes=minutes,
        body=[paragraph(text)],
        sources=[SPEC],
    )


revisions = [
    note("english-450-words", "en", " ".join(["retry"] * 450)),
    note("korean-1000-syllables", "ko", " ".join(["효과"] * 500)),
    note("korean-text-tagged-en", "en", " ".join(["효과"] * 500)),
    note("mixed", "ko", " ".join(["retry"] * 300 + ["효과"] * 150)),
    note("one-sentence", "en", "Short texts still take a minute."),
    note("author-decides", "en", " ".join(["retry"] * 450), minutes=10),
]
"""


@fixture
def reading_time() -> dict:
    """Print the revisions of bodies of known length: readingMinutes and bodyChars of each."""
    ran = run(site({"articles/reading.py": READING_BATCH}), "revisions")
    items = ran.json() if ran.code == 0 else []
    shown = {
        item["slug"]: {"readingMinutes": item["readingMinutes"], "bodyChars": item["bodyChars"]}
        for item in items
    }
    minutes = {slug: value["readingMinutes"] for slug, value in shown.items()}
    return {
        "exit": ran.code,
        "revisions": shown,
        "checks": {
            "exitsWithZero": ran.code == 0,
            "englishRoundsUp": minutes.get("english-450-words") == -(-450 // 200),
            "koreanBy500": minutes.get("korean-1000-syllables") == 1000 // 500,
            "langDoesNotMatter": minutes.get("korean-text-tagged-en") == minutes.get("korean-1000-syllables"),
            "atLeastOne": minutes.get("one-sentence") == 1,
            "authorWins": minutes.get("author-decides") == 10,
        },
    }


# --- Tags that are not language tags.

BAD_SETTINGS = """\
[tool.site_builder]
title = "Demo"
base_url = "https://demo.example/"
language = "english"
min_body_chars = 20
min_sources = 1
"""
BAD_BATCH = """\
from site_builder import Source, paragraph, revision

revisions = [
    revision(
        slug="bad-tag",
        title="A wrong tag",
        categories=["Demo"],
        excerpt="A language name where a tag belongs.",
        published="2026-12-01",
        lang="zh_CN",
        body=[paragraph("A tag uses a hyphen: zh-CN, not zh_CN.")],
        sources=[Source(title="BCP 47", url="https://www.rfc-editor.org/info/bcp47", note="language tags")],
    )
]
"""


@fixture
def bad_tags() -> dict:
    """Validate a site whose language setting and one revision's lang are not tags."""
    ran = run(site({"articles/bad.py": BAD_BATCH}, BAD_SETTINGS), "validate")
    return {
        "exit": ran.code,
        "stderr": ran.lines,
        "checks": {
            "exitsWithOne": ran.code == 1,
            "settingAtItsLine": any(line.startswith("pyproject.toml:4: ") for line in ran.lines),
            "revisionAtItsFile": any(line.startswith("articles/bad.py:") for line in ran.lines),
            "twoProblems": ran.lines[-1] == "2 problems found",
        },
    }


languages = revision(
    slug="languages",
    title="Languages",
    categories=["Reference"],
    excerpt="The language setting and each revision's lang: the page's lang attribute, the chrome's "
    "words, the sources heading and the reading time.",
    published="2026-12-01",
    body=[
        paragraph(
            "A site has one language, and each revision may be written in another. The language "
            "decides the `lang` attribute of a page, the words of the chrome around an article (the "
            "heading of the table of contents, the reading time, the date's label), the heading of "
            "the sources section, and the language of the feed. It never changes the article's own "
            "text: that is yours."
        ),
        heading("The language setting and lang"),
        paragraph(
            "The site's language is the `language` setting in `[tool.site_builder]`, `en` when left "
            "out. A revision written in another language says so with `lang`; a revision without "
            "`lang` is in the site's language, and its `lang` in the `revisions` JSON is the site's."
        ),
        code_block(
            '[tool.site_builder]\ntitle = "Notes"\nbase_url = "https://notes.example/"\nlanguage = "en"',
            language="toml",
        ),
        paragraph(
            "Both take a language tag in the BCP 47 style: two or three letters, then optional "
            "subtags of up to eight letters or digits after hyphens — `en`, `ru`, `ko`, `pt-BR`, "
            "`zh-Hant`. A name such as `english` or an underscore as in `zh_CN` is a problem. Here "
            "is a site whose `pyproject.toml` and only batch get both wrong:"
        ),
        code_block(BAD_SETTINGS, language="toml"),
        code_block(BAD_BATCH, language="python"),
        verified_output(
            bad_tags,
            expected={
                "exit": 1,
                "stderr": [
                    ("articles/bad.py:10: bad-tag: lang 'zh_CN' is not a language tag like 'en' or 'ru'"),
                    (
                        "pyproject.toml:4: settings: language 'english' is not a language tag "
                        "like 'en' or 'ru'"
                    ),
                    "2 problems found",
                ],
            },
        ),
        paragraph(
            "The setting's problem points at its line of `pyproject.toml`, the revision's at its "
            "`lang=` line. While the setting is wrong, the site goes on being checked as if it "
            "said `en`."
        ),
        heading("What the language changes"),
        data_table(
            "Where the site's language and a revision's lang are used",
            ["What", "Follows"],
            [
                ["The `lang` attribute of an article's page", "the revision's `lang`"],
                ["The words of the chrome on an article's page", "the revision's `lang`"],
                ["The heading of the sources section (and `contentHtml`)", "the revision's `lang`"],
                ["An entry of the Atom feed (`xml:lang`)", "the revision's `lang`"],
                ["The index, category and 404 pages, and the feed as a whole", "the site's `language`"],
                ["The search index (one for the whole site)", "the site's `language`"],
            ],
        ),
        heading("The chrome's words"),
        paragraph(
            "The labels around an article — the table of contents, the reading time, the date, "
            "the categories, search, the note on verified results, previous and next — exist "
            "today in three languages: English (`en`), Russian (`ru`) and Korean (`ko`). A tag with "
            "a region uses its language's labels (`ru-RU` gets the Russian ones), and any other "
            "language falls back to English."
        ),
        paragraph(
            "This batch, `articles/notes.py`, has one short revision per language, including a "
            "German one and one tagged `ru-RU`; the site's language is `en`:"
        ),
        code_block(NOTES_BATCH, language="python"),
        paragraph("Built, each article page carries its own `lang` and its own words:"),
        verified_output(
            chrome,
            expected={
                "pages": {
                    "in-english": {
                        "htmlLang": "en",
                        "readingTime": "1 min read",
                        "contents": "Contents",
                        "sourcesHeading": "Sources",
                    },
                    "in-russian": {
                        "htmlLang": "ru",
                        "readingTime": "1 мин чтения",
                        "contents": "Содержание",
                        "sourcesHeading": ("Проверяемые источники"),
                    },
                    "in-korean": {
                        "htmlLang": "ko",
                        "readingTime": "1분 분량",
                        "contents": "목차",
                        "sourcesHeading": "출처",
                    },
                    "in-german": {
                        "htmlLang": "de",
                        "readingTime": "1 min read",
                        "contents": "Contents",
                        "sourcesHeading": "Sources",
                    },
                    "in-russian-region": {
                        "htmlLang": "ru-RU",
                        "readingTime": "1 мин чтения",
                        "contents": "Содержание",
                        "sourcesHeading": "Sources",
                    },
                },
            },
        ),
        paragraph(
            "The index page is in the site's language, and so is the feed; each entry of the "
            "feed carries its revision's language:"
        ),
        verified_output(
            chrome,
            expected={
                "indexHtmlLang": "en",
                "feedLang": "en",
                "feedEntryLangs": [
                    "en",
                    "ru",
                    "ko",
                    "de",
                    "ru-RU",
                ],
            },
        ),
        heading("The sources heading"),
        paragraph(
            "Every revision ends with its sources under a heading in its language. The Russian "
            "heading is fixed by the project's contract. For other languages the "
            "`sources_heading` setting maps a language tag "
            "to the heading; a language without an entry gets a default — Korean has its own, "
            "every other language the English one:"
        ),
        code_block(HEADING_SETTINGS, language="toml"),
        paragraph(
            "A batch with one revision per tag — `en`, `en-GB`, `de`, `ko`, `ru` and `fr` — gets "
            "these headings in its `contentHtml`:"
        ),
        verified_output(
            sources_headings,
            expected={
                "sourcesHeading": {
                    "en": "Further reading",
                    "en-GB": "Sources",
                    "de": "Quellen",
                    "ko": "출처",
                    "ru": ("Проверяемые источники"),
                    "fr": "Sources",
                },
            },
        ),
        paragraph(
            "Two things to notice. The setting's `ru` entry is ignored, since the Russian heading "
            "is fixed. And the setting and the Russian heading are looked up by the exact tag: "
            "`en-GB` does not use the `en` entry, and — as the built pages above show — a "
            "revision tagged `ru-RU` gets Russian chrome but not the fixed Russian heading. Give a "
            "region its own `sources_heading` entry, or tag Russian revisions plain `ru`."
        ),
        heading("Reading time"),
        paragraph(
            "Each revision's reading time is shown on its page and card and printed as "
            "`readingMinutes` in the `revisions` JSON. Unless the author gives `reading_minutes`, "
            "it is computed from the body text (the visible text of the body, without the sources "
            "section):"
        ),
        data_table(
            "How the reading time is computed",
            ["Counted", "Speed"],
            [
                ["Hangul and CJK characters (Korean, Chinese, Japanese kana and kanji)", "500 a minute"],
                ["Words of everything else, separated by spaces", "200 a minute"],
            ],
        ),
        paragraph(
            "The two are added, rounded up to a whole minute, and never less than one. The count "
            "looks at the characters, not at `lang`: Korean text counts as Korean whatever the "
            "revision's tag. This batch, `articles/reading.py`, has bodies of known length:"
        ),
        code_block(READING_BATCH, language="python"),
        verified_output(
            reading_time,
            expected={
                "revisions": {
                    "english-450-words": {
                        "readingMinutes": 3,
                        "bodyChars": 2699,
                    },
                    "korean-1000-syllables": {
                        "readingMinutes": 2,
                        "bodyChars": 1499,
                    },
                    "korean-text-tagged-en": {
                        "readingMinutes": 2,
                        "bodyChars": 1499,
                    },
                    "mixed": {
                        "readingMinutes": 3,
                        "bodyChars": 2249,
                    },
                    "one-sentence": {
                        "readingMinutes": 1,
                        "bodyChars": 32,
                    },
                    "author-decides": {
                        "readingMinutes": 10,
                        "bodyChars": 2699,
                    },
                },
            },
        ),
        paragraph(
            "`bodyChars` is the length of the same visible text in characters, the number the "
            "`min_body_chars` and `max_body_chars` settings limit. To check the arithmetic: the "
            "English body is 450 words, the Korean one 500 words of two Hangul syllables each "
            "(1,000 characters, and no words left once they are counted), and the mixed one 300 "
            "English words and 300 syllables."
        ),
    ],
    sources=[
        Source(
            title="BCP 47: Tags for Identifying Languages",
            url="https://www.rfc-editor.org/info/bcp47",
            note="the form of the language tags the language setting and lang take",
        ),
        Source(
            title="HTML Living Standard: the lang and xml:lang attributes",
            url="https://html.spec.whatwg.org/multipage/dom.html#the-lang-and-xml:lang-attributes",
            note="what the lang attribute of a page tells browsers and screen readers",
        ),
    ],
)

revisions = [languages]
