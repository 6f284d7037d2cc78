"""Documentation: the language setting and lang, the languages the chrome speaks, labels tables,
plural forms, cards, Korean line breaks, sources headings and reading time."""

import re

from _pages_kit import lines_with, page
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
    unordered_list,
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

GERMAN = """\
[tool.site_builder.labels.de]
contents = "Inhalt"                                  # heading of the table of contents
minutes = { one = "{n} Minute Lesezeit", other = "{n} Minuten Lesezeit" }
categories = "Kategorien"                            # the categories page, the header's link to it
category = "Kategorie"                               # before the name on a category's page
search = "Suche"                                     # the search box
verified = { one = "{n} Ergebnis von einer Fixture geprüft", other = "{n} Ergebnisse von Fixtures geprüft" }
verified_none = "Kein Ergebnis dieses Artikels ist von einer Fixture geprüft."
published = "Veröffentlicht"                         # before the date of an article
articles = "Artikel"                                 # a list's heading, for a site's own templates
not_found = "Seite nicht gefunden"                   # title of the 404 page
not_found_text = "Unter dieser Adresse gibt es keine Seite."
home = "Startseite"                                  # the 404 page's link to the home page
feed = "Atom-Feed"                                   # the header's link to the feed
skip = "Zum Inhalt"                                  # the skip link
navigation = "Seiten"                                # name of the reading-order sidebar
previous = "Zurück"                                  # previous page in reading order
next = "Weiter"                                      # next page in reading order
proof_mark = "von der Fixture {fixture} geprüft"     # under each verified output
proof_fixtures = { one = "{n} Fixture prüft Ergebnisse", other = "{n} Fixtures prüfen Ergebnisse" }
proof_results = { one = "{n} geprüftes Ergebnis", other = "{n} geprüfte Ergebnisse" }
draft = "Entwurf"                                    # mark of a draft that --drafts includes
scheduled = "Geplant für {date}"                     # mark of a revision that --future includes
article_count = { one = "{n} Artikel", other = "{n} Artikel" }   # on the categories page
updated = "Aktualisiert"                             # before the date of an article's latest revision
history = "Versionen"                                # heading of an article's list of revisions
revision = "Version {n}"                             # one revision in that list
revision_notice = "Sie lesen Version {n} vom {date}, nicht die neueste."   # an earlier revision's page
latest_link = "Zur neuesten Version"                 # its link to the latest revision
diff_link = "Was sich geändert hat"                  # link to what a revision changed
diff_title = "Was Version {n} geändert hat"          # title of that page
words_added = { one = "{n} Wort hinzugefügt", other = "{n} Wörter hinzugefügt" }
words_removed = { one = "{n} Wort entfernt", other = "{n} Wörter entfernt" }
compared = "Version {old} vom {old_date} verglichen mit Version {new} vom {new_date}"
"""
"""A table that adds German: every label, the words of an article's history included."""


def _first(pattern: str, text: str) -> str | None:
    match = re.search(pattern, text, re.DOTALL)
    return match.group(1) if match else None


def _chrome(page: str) -> dict:
    """The words around an article on its built page."""
    sources = re.findall(r'<h2 id="[^"]*">([^<]*)</h2>', page.split('class="article-body"', 1)[-1])
    return {
        "htmlLang": _first(r'<html lang="([^"]*)">', page),
        "published": _first(r"<span>([^<]*): <time", page),
        "readingTime": _first(r"<span>([^<]*)</span>", page),
        "contents": _first(r'<h2 id="toc-heading">([^<]*)</h2>', page),
        "sourcesHeading": sources[-1] if sources else None,
    }


def _cards(index: str) -> dict:
    """Each card of a list page, by its link's slug: the ``lang`` of its ``<li>`` and its reading time."""
    found = re.findall(
        r'<li class="card"(?: lang="([^"]*)")?>.*?<a href="/articles/([^/]*)/">'
        r".*?</time> ·\s*([^<]*?)\s*</p>",
        index,
        re.DOTALL,
    )
    return {slug: {"lang": lang or None, "readingTime": minutes} for lang, slug, minutes in found}


@fixture
def chrome() -> dict:
    """The five-language batch validated on the demonstration site, then built with the German table:
    the chrome of each article page, the index and its cards, and the feed."""
    unknown = session(site({"articles/notes.py": NOTES_BATCH}), ["validate"])
    root = site({"articles/notes.py": NOTES_BATCH}, SETTINGS + "\n" + GERMAN)
    ran = run(root, "build")
    pages = (
        {slug: _chrome(page(root, f"articles/{slug}/index.html")) for slug in SLUGS} if ran.code == 0 else {}
    )
    feed = page(root, "feed.xml") if ran.code == 0 else ""
    index = page(root, "index.html") if ran.code == 0 else ""

    def words(slug: str) -> str | None:
        return pages.get(slug, {}).get("contents")

    russian = words("in-russian")
    return {
        "withoutGermanLabels": unknown.lines,
        "exit": ran.code,
        "pages": pages,
        "indexHtmlLang": _first(r'<html lang="([^"]*)">', index),
        "cards": _cards(index),
        "feedLang": _first(r'<feed [^>]*xml:lang="([^"]*)"', feed),
        "feedEntryLangs": re.findall(r'<entry xml:lang="([^"]*)"', feed),
        "checks": {
            "refusedWithoutTheTable": unknown.codes == [1],
            "builtWithIt": ran.code == 0,
            "germanHasItsOwnWords": words("in-german") == "Inhalt",
            "regionUsesItsLanguage": bool(russian) and words("in-russian-region") == russian,
            "pageLangIsTheRevisions": [p["htmlLang"] for p in pages.values()]
            == ["en", "ru", "ko", "de", "ru-RU"],
            "fiveCards": len(_cards(index)) == 5,
            "fiveFeedEntries": len(re.findall(r"<entry ", feed)) == 5,
        },
    }


# --- Plural forms: the categories page of a site whose categories hold 1, 2, 5, 21 and 22 articles.

COUNTED_BATCH = """\
from site_builder import Source, paragraph, revision

SPEC = Source(title="CLDR", url="https://cldr.unicode.org/", note="plural rules")

revisions = [
    revision(
        slug=f"note-{size}-{number}",
        title=f"Note {number} of {size}",
        categories=[f"Holds {size}"],
        excerpt="One of the articles a category counts.",
        published="2026-12-01",
        body=[paragraph("A short note, counted on the categories page.")],
        sources=[SPEC],
    )
    for size in (1, 2, 5, 21, 22)
    for number in range(1, size + 1)
]
"""
SIZES = (1, 2, 5, 21, 22)


@fixture
def plural_counts() -> dict:
    """COUNTED_BATCH built as a Russian, an English and a Korean site: the count of each category on
    the categories page, and the plural forms the tool knows for five languages."""
    from site_builder.language.plurals import categories

    shown, built = {}, []
    for lang in ("ru", "en", "ko"):
        root = site({"articles/counted.py": COUNTED_BATCH}, SETTINGS + f'language = "{lang}"\n')
        ran = run(root, "build")
        built.append(ran.code)
        listed = page(root, "categories/index.html") if ran.code == 0 else ""
        counts = dict(re.findall(r'>Holds (\d+)</a> <span class="count">\(([^)]*)\)</span>', listed))
        shown[lang] = [counts.get(str(size)) for size in SIZES]
    return {
        "categoriesPage": shown,
        "pluralForms": {lang: list(categories(lang)) for lang in ("en", "ru", "ko", "de", "fr")},
        "checks": {
            "allBuilt": built == [0, 0, 0],
            "everyCategoryCounted": all(None not in texts for texts in shown.values()),
        },
    }


# --- Changing some words of a language the package has.

CHANGED = """\
[tool.site_builder.labels.en]
feed = "Subscribe"

[tool.site_builder.labels.en.minutes]
one = "{n} minute"
other = "{n} minutes"
"""
"""Two English words changed, the second a plural label written as a sub-table."""


@fixture
def changed_words() -> dict:
    """Two articles of 1 and 3 minutes on a site with CHANGED: the words the pages show."""
    longer = article("longer", "Longer").replace(
        "        body=[", "        reading_minutes=3,\n        body=["
    )
    root = site(
        {"articles/short.py": article("short", "Short"), "articles/longer.py": longer}, SETTINGS + CHANGED
    )
    ran = run(root, "build")
    pages = (
        {slug: page(root, f"articles/{slug}/index.html") for slug in ("short", "longer")}
        if ran.code == 0
        else {}
    )
    return {
        "exit": ran.code,
        "readingTime": {slug: _first(r"<span>([^<]*)</span>", text) for slug, text in pages.items()},
        "headerFeedLink": _first(r'<a href="/feed.xml">([^<]*)</a>', pages.get("short", "")),
        "unchanged": {"contents": _first(r'<h2 id="toc-heading">([^<]*)</h2>', pages.get("short", ""))},
        "checks": {"built": ran.code == 0},
    }


# --- Mistakes in labels tables, and a site language without labels.

WRONG_LABELS = """\
[tool.site_builder.labels.en]
minuets = { one = "{n} minute", other = "{n} minutes" }
proof_results = { one = "{n} verified result", few = "{n} verified results", other = "{n} verified results" }

[tool.site_builder.labels.ru]
article_count = { one = "{n} статья", other = "{n} статьи" }

[tool.site_builder.labels.ko]
minutes = "{n}분"
"""


@fixture
def label_mistakes() -> dict:
    """WRONG_LABELS and the German table without its last label, validated; then a site whose
    language is pt-BR, without a table."""
    german = GERMAN.replace(
        'next = "Weiter"                                      # next page in reading order\n', ""
    )
    wrong = session(
        site({"articles/demo.py": article()}, SETTINGS + "\n" + WRONG_LABELS + "\n" + german), ["validate"]
    )
    portuguese = session(
        site({"articles/demo.py": article()}, SETTINGS + 'language = "pt-BR"\n'), ["validate"]
    )
    return {
        "labels": wrong.lines,
        "siteLanguage": portuguese.lines,
        "checks": {
            "germanLostItsLastLabel": german != GERMAN,
            "bothExitOne": wrong.codes == portuguese.codes == [1],
            "fiveProblems": wrong.lines[-1:] == ["5 problems found"],
            "allInTheSettings": all(line.startswith("pyproject.toml:") for line in wrong.lines[1:-1]),
        },
    }


# --- Korean line breaks and inline code in the theme.


@fixture
def typography() -> dict:
    """The built stylesheet's rules for inline code and for Korean text."""
    root = site({"articles/demo.py": article()})
    ran = run(root, "build")
    css = page(root, "theme/style.css") if ran.code == 0 else ""
    return {
        "inlineCode": lines_with(css, ":not(pre) > code { display"),
        "korean": lines_with(css, ":lang(ko)"),
        "checks": {"built": ran.code == 0},
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
    note("lang-de-ch", "de-CH"),
]
"""


@fixture
def sources_headings() -> dict:
    """Print the revisions (the German table added to the settings) and read the sources heading
    out of each contentHtml."""
    settings = HEADING_SETTINGS + "\n" + GERMAN
    ran = run(site({"articles/headings.py": HEADINGS_BATCH}, settings), "revisions")
    items = ran.json() if ran.code == 0 else []
    found = {item["lang"]: re.findall(r"\n<h2>([^<]*)</h2>\n<ul>", item["contentHtml"])[-1] for item in items}
    spaces = {item["lang"]: re.findall(r"</a>(.)— ", item["contentHtml"]) for item in items}
    named = {" ": "ordinary", "\u00a0": "non-breaking"}
    return {
        "exit": ran.code,
        "sourcesHeading": found,
        "spaceBeforeDash": {lang: [named.get(c, repr(c)) for c in seen] for lang, seen in spaces.items()},
        "checks": {
            "exitsWithZero": ran.code == 0,
            "sixRevisions": len(found) == 6,
            "settingUsedForEnglish": found.get("en") == "Further reading",
            "russianNotOverridden": found.get("ru") != "Источники",
            "regionTakesItsLanguage": (found.get("de-CH"), found.get("en-GB"))
            == ("Quellen", "Further reading"),
            "onlyRussianKeepsTheDash": {lang for lang, seen in spaces.items() if seen != [" "]} == {"ru"},
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
    ran = session(site({"articles/bad.py": BAD_BATCH}, BAD_SETTINGS), ["validate"])
    return {
        "transcript": ran.lines,
        "checks": {
            "exitsWithOne": ran.codes == [1],
            "settingAtItsLine": any(line.startswith("pyproject.toml:4: ") for line in ran.lines),
            "revisionAtItsFile": any(line.startswith("articles/bad.py:") for line in ran.lines),
            "twoProblems": ran.lines[-1] == "2 problems found",
        },
    }


languages = revision(
    slug="languages",
    title="Languages",
    categories=["Reference"],
    excerpt="The language setting and each revision's lang: the languages the chrome speaks, labels "
    "tables that add one, plural forms, cards, Korean line breaks, the sources heading and reading time.",
    published="2026-12-01",
    body=[
        paragraph(
            "A site has one language, and each revision may be written in another. The language "
            "decides the `lang` attribute of a page, the words of the *chrome* around an article (the "
            "heading of the table of contents, the reading time, the date's label, the box of "
            "fixtures, the categories page…) and the form those words take next to a number, the "
            "heading of the sources section, and the language of the feed. It never changes the "
            "article's own text: that is yours."
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
            "subtags of up to eight letters or digits after hyphens — `en`, `ru`, `ko`, `en-GB`, "
            "`zh-Hant`. A name such as `english` or an underscore as in `zh_CN` is a problem. Here "
            "is a site whose `pyproject.toml` and only batch get both wrong:"
        ),
        code_block(BAD_SETTINGS, language="toml"),
        code_block(BAD_BATCH, language="python"),
        transcript(
            bad_tags,
            """
            $ site-builder validate
            articles/bad.py:10: bad-tag: lang 'zh_CN' is not a language tag like 'en' or 'ru'
            pyproject.toml:4: settings: language 'english' is not a language tag like 'en' or 'ru'
            2 problems found
            """,
        ),
        paragraph(
            "The setting's problem points at its line of `pyproject.toml`, the revision's at its "
            "`lang=` line. While the setting is wrong, the site goes on being checked as if it "
            "said `en`. A well-formed tag must also name a language the chrome can be written in, "
            "which is the next section."
        ),
        heading("The languages of the chrome"),
        paragraph(
            "The chrome is every word the site writes itself: the date's label and the reading "
            "time, *Contents*, the box of fixtures and the mark under each verified output, the "
            "categories page, the 404 page, the header, the skip link and the reading-order "
            "navigation. The package has it in three languages: English (`en`), Russian (`ru`) and "
            "Korean (`ko`). A tag with a region or a script uses its language's words — `ru-RU` the "
            "Russian ones, `en-GB` the English ones — whatever its case."
        ),
        paragraph(
            "The site's `language` and every revision's `lang` must be one of those, or a language "
            "the site adds itself (next section). Anything else is a problem rather than a page whose "
            "`lang` says one language while its chrome speaks another. This batch, "
            "`articles/notes.py`, has one short revision per language, including a German one and "
            "one tagged `ru-RU`; the site's language is `en`:"
        ),
        code_block(NOTES_BATCH, language="python"),
        paragraph(
            "On the demonstration site, which adds no language, `validate` refuses the German "
            "revision at its `lang=` line — here inside `note`, the function that calls "
            "`revision`, under the slug of the revision it made:"
        ),
        transcript(
            chrome,
            """
            $ site-builder validate
            articles/notes.py:13: in-german: lang 'de' has no labels; supported: en, ko, ru; add a [tool.site_builder.labels.de] table
            1 problem found
            """,  # noqa: E501
            key="withoutGermanLabels",
        ),
        paragraph(
            "The message lists what the site supports — the package's languages and the site's "
            "own, sorted — and names the table that would add the language. The `language` setting "
            "is held to the same rule at its line of `pyproject.toml`, and a tag with a region "
            'asks for its language\'s table. A site set to `language = "pt-BR"` without one:'
        ),
        transcript(
            label_mistakes,
            """
            $ site-builder validate
            pyproject.toml:6: settings: language 'pt-BR' has no labels; supported: en, ko, ru; add a [tool.site_builder.labels.pt] table
            1 problem found
            """,  # noqa: E501
            key="siteLanguage",
        ),
        heading("Adding a language: a labels table"),
        paragraph(
            "A `[tool.site_builder.labels.LANG]` table in `pyproject.toml` gives the chrome's words "
            "for one language. A table for a language the package has — `en`, `ru` or `ko` — "
            "changes only the words it gives. A table for any other language adds that language, "
            "and must give every label; only the ten words of an article's history (the last ten "
            "below) may wait until an article in that language is corrected by a later revision. A "
            "table for a tag with a region (`de-CH`) may give only some "
            "words once its language (`de`) is complete, from the package or from a table of the "
            "site. This table adds German; the comments say where each label appears:"
        ),
        code_block(GERMAN, language="toml"),
        paragraph(
            "Most labels are plain text; `proof_mark` holds `{fixture}` where the fixture's name "
            "goes, and `scheduled` holds `{date}`. The seven labels written as inline tables — "
            "`minutes`, `verified`, `proof_fixtures`, `proof_results`, `article_count`, "
            "`words_added` and `words_removed` — hold a number, `{n}`, and give one text for each "
            "plural form of the language (below). Two labels, `verified` (a count of verified "
            "results, which the box of fixtures replaced) and `articles`, are not used by the "
            "package's templates; they stay for a site's own."
        ),
        paragraph(
            "The last ten are the words of an article corrected by later revisions ([Correcting an "
            "article](/articles/revisions-over-time/)): `updated` in its byline, `history` and "
            "`revision` (`{n}`, the revision's number) in the list of its revisions, "
            "`revision_notice` (`{n}` and `{date}`) and `latest_link` on the page of an earlier "
            "revision, and `diff_link`, `diff_title` (`{n}`), `words_added`, `words_removed` and "
            "`compared` (`{old}`, `{old_date}`, `{new}`, `{new_date}`) for the page of what a "
            "revision changed. A table that adds a language may leave these ten out — a site that "
            "added one before articles had a history gave every label there was then — until an "
            "article in that language has a later revision. Then its pages need them, and "
            "validation says so at that revision's `changes=` line, naming the labels missing "
            "([Correcting an article](/articles/revisions-over-time/#the-words-of-the-history-pages) "
            "shows the line)."
        ),
        paragraph(
            "With this table after the demonstration site's settings, the batch above builds, and "
            "each article page carries its own `lang` and its own words — the date's label, the "
            "reading time, the heading of the contents and of the sources:"
        ),
        verified_output(
            chrome,
            expected={
                "exit": 0,
                "pages": {
                    "in-english": {
                        "htmlLang": "en",
                        "published": "Published",
                        "readingTime": "1 min read",
                        "contents": "Contents",
                        "sourcesHeading": "Sources",
                    },
                    "in-russian": {
                        "htmlLang": "ru",
                        "published": "Опубликовано",
                        "readingTime": "1 мин чтения",
                        "contents": "Содержание",
                        "sourcesHeading": "Проверяемые источники",
                    },
                    "in-korean": {
                        "htmlLang": "ko",
                        "published": "게시일",
                        "readingTime": "1분 분량",
                        "contents": "목차",
                        "sourcesHeading": "출처",
                    },
                    "in-german": {
                        "htmlLang": "de",
                        "published": "Veröffentlicht",
                        "readingTime": "1 Minute Lesezeit",
                        "contents": "Inhalt",
                        "sourcesHeading": "Sources",
                    },
                    "in-russian-region": {
                        "htmlLang": "ru-RU",
                        "published": "Опубликовано",
                        "readingTime": "1 мин чтения",
                        "contents": "Содержание",
                        "sourcesHeading": "Проверяемые источники",
                    },
                },
            },
        ),
        paragraph(
            "A region tag takes its language's words: the `ru-RU` page reads as the `ru` one, sources "
            "heading included. The sources heading is not a label, though: it has a setting of its "
            "own, `sources_heading` (below), which is why the German page's reads *Sources*."
        ),
        heading("What the language changes"),
        data_table(
            "Where the site's language and a revision's lang are used",
            ["What", "Follows"],
            [
                ["The `lang` attribute of an article's page", "the revision's `lang`"],
                ["The words of the chrome on an article's page", "the revision's `lang`"],
                [
                    "An earlier revision's page, and the page of what a revision changed",
                    "the `lang` of the revision shown (on a diff page, of the newer one)",
                ],
                ["An article's card in the lists of the index and category pages", "the revision's `lang`"],
                ["The heading of the sources section (and `contentHtml`)", "the revision's `lang`"],
                ["An entry of the Atom feed (`xml:lang`)", "the revision's `lang`"],
                [
                    "The index, category, categories and 404 pages around the cards, and the feed as a whole",
                    "the site's `language`",
                ],
                ["The search index (one for the whole site)", "the site's `language`"],
            ],
        ),
        paragraph(
            "The index page of the site above is in the site's language, and so is the feed; each "
            "entry of the feed carries its revision's language:"
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
        paragraph(
            "A card, though, follows its article: the reading time of a Russian article reads "
            "`мин чтения` on an English home page too, and the card's `<li>` carries the article's "
            "`lang` whenever it is not the page's, so that a screen reader reads it in its language "
            "and the Korean line-breaking rule (below) applies to it. The cards of that home page, "
            "by slug — the `lang` of each card (`null`: none, the page's) and its reading time:"
        ),
        verified_output(
            chrome,
            expected={
                "cards": {
                    "in-english": {"lang": None, "readingTime": "1 min read"},
                    "in-russian": {"lang": "ru", "readingTime": "1 мин чтения"},
                    "in-korean": {"lang": "ko", "readingTime": "1분 분량"},
                    "in-german": {"lang": "de", "readingTime": "1 Minute Lesezeit"},
                    "in-russian-region": {"lang": "ru-RU", "readingTime": "1 мин чтения"},
                }
            },
        ),
        heading("Numbers and plural forms"),
        paragraph(
            "A label with a number takes the form its language gives that number: *1 статья*, "
            "*2 статьи*, *5 статей*. Which form goes with which number is decided by the plural "
            "rules of the Unicode CLDR, which site_builder takes from the Babel library rather than "
            "writing rules of its own — hand-written rules tend to miss that Russian 21 takes the "
            "form of 1, 22 the form of 2, and 11 to 14 the form of 5. The forms each language uses, "
            "as the installed tool reports them for five of them:"
        ),
        verified_output(
            plural_counts,
            expected={
                "pluralForms": {
                    "en": ["one", "other"],
                    "ru": ["one", "few", "many", "other"],
                    "ko": ["other"],
                    "de": ["one", "other"],
                    "fr": ["one", "many", "other"],
                }
            },
        ),
        unordered_list(
            [
                "**English** and **German**: `one` for exactly 1, `other` for every other number.",
                "**Russian**: `one` for 1, 21, 31… (but not 11), `few` for 2–4, 22–24… (but not "
                "12–14), `many` for 0, 5–20, 25–30…, and `other` for fractions, which no count of "
                "the chrome has.",
                "**Korean** has a single form, `other`: the number never changes the word.",
            ]
        ),
        paragraph(
            "The categories page counts the articles of each category. This batch, "
            "`articles/counted.py`, makes categories of 1, 2, 5, 21 and 22 articles:"
        ),
        code_block(COUNTED_BATCH, language="python"),
        paragraph(
            'Built three times — with `language = "ru"`, `"en"` and `"ko"` — the counts the '
            "categories page shows in brackets after each category, from the smallest to the largest:"
        ),
        verified_output(
            plural_counts,
            expected={
                "categoriesPage": {
                    "ru": ["1 статья", "2 статьи", "5 статей", "21 статья", "22 статьи"],
                    "en": ["1 article", "2 articles", "5 articles", "21 articles", "22 articles"],
                    "ko": ["글 1개", "글 2개", "글 5개", "글 21개", "글 22개"],
                }
            },
        ),
        paragraph(
            "The same rule words the reading time, the heading of the box of fixtures and the count "
            "after each fixture in it. Their package texts happen to need no change of form — "
            "`мин чтения` is an abbreviation, and *Fixtures that verify results: 2* reads right for "
            "every number — so the package gives every form the same text there; a table of your "
            "own may differ, as the German `minutes` above does. The command line speaks English "
            "whatever the site's language, by the English rule: `ok: 1 revision valid, 1 fixture "
            "passed` (see [Commands](/articles/commands/#validate))."
        ),
        heading("Changing a few words"),
        paragraph(
            "To change some of the package's words, give a table for that language with only those "
            "labels. A plural label may also be written as a sub-table of its own, one line per "
            "form. This site changes the header's link to the feed and the English reading time:"
        ),
        code_block(CHANGED, language="toml"),
        paragraph(
            "Two articles built with it, one of 1 minute and one of 3 (`reading_minutes=3`): their "
            "reading times, the header's link to the feed, and a word the table did not give, "
            "which stays the package's:"
        ),
        verified_output(
            changed_words,
            expected={
                "exit": 0,
                "readingTime": {"short": "1 minute", "longer": "3 minutes"},
                "headerFeedLink": "Subscribe",
                "unchanged": {"contents": "Contents"},
            },
        ),
        paragraph(
            "The labels are part of the settings, and every page depends on the settings: changing "
            "a table renders every page again in the next build."
        ),
        heading("Mistakes in a labels table"),
        paragraph(
            "Every table is checked against the labels there are and against the plural forms of "
            "its language, and each mistake is a problem at its own line of `pyproject.toml` — "
            "the key's line, or the table's header for a label that is missing. These tables, "
            "added to the demonstration settings (its five lines and a blank one come first) and "
            "followed by the German table above without its `next` line, have one mistake each:"
        ),
        code_block(WRONG_LABELS, language="toml"),
        transcript(
            label_mistakes,
            """
            $ site-builder validate
            pyproject.toml:8: settings: labels.en has an unknown label 'minuets'; did you mean 'minutes'?
            pyproject.toml:9: settings: labels.en.proof_results has the plural form few, which en does not use; en uses one, other (CLDR)
            pyproject.toml:12: settings: labels.ru.article_count lacks the plural forms few, many; ru uses one, few, many, other (CLDR)
            pyproject.toml:15: settings: labels.ko.minutes holds a number: give a text for each plural form of ko (other), as minutes = { other = "…" }
            pyproject.toml:17: settings: labels.de lacks 1 label: next
            5 problems found
            """,  # noqa: E501
            key="labels",
        ),
        paragraph(
            "An unknown label far from every real one is answered with the list of labels "
            "instead. A plain label must be a non-empty string, and every form of a plural label "
            "too. In `validate --format json` the problems of a table carry the rule "
            "`settings-labels`, a `language` setting without labels `settings-language`, and a "
            "revision's `lang` without labels `lang`."
        ),
        heading("Korean line breaks and inline code"),
        paragraph(
            "Korean puts spaces between words, but a browser may break a line between any two "
            "Hangul syllables, and so inside a word: *재시도* (retry) split as *재* at the end of "
            "one line and *시도* at the start of the next. The theme gives every element in Korean "
            "`word-break: keep-all`, so that lines break at the spaces only. It applies through "
            "`:lang(ko)`: to a Korean article's page, and to a Korean card on a page in another "
            'language, which carries `lang="ko"` (above). A word longer than the whole line still '
            "wraps rather than widening the page."
        ),
        paragraph(
            "Inline code — a `` `code` `` span outside a code block, in any language — is kept "
            "whole the same way: it is one box that moves to the next line instead of breaking "
            "inside a token such as `Retry-After`. Only a span longer than a whole line wraps, "
            "inside its own box, so it never overflows a phone's screen; punctuation right after "
            "such a long span starts the next line. The two rules of the built `theme/style.css`:"
        ),
        verified_output(
            typography,
            expected={
                "inlineCode": [":not(pre) > code { display: inline-block; max-width: 100%; }"],
                "korean": [":lang(ko) { word-break: keep-all; }"],
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
            "With the German table above added to these settings, a batch with one revision per "
            "tag — `en`, `en-GB`, `de`, `ko`, `ru` and `de-CH` — gets these headings in its "
            "`contentHtml`:"
        ),
        verified_output(
            sources_headings,
            expected={
                "sourcesHeading": {
                    "en": "Further reading",
                    "en-GB": "Further reading",
                    "de": "Quellen",
                    "ko": "출처",
                    "ru": ("Проверяемые источники"),
                    "de-CH": "Quellen",
                },
                "spaceBeforeDash": {
                    "en": ["ordinary"],
                    "en-GB": ["ordinary"],
                    "de": ["ordinary"],
                    "ko": ["ordinary"],
                    "ru": ["non-breaking"],
                    "de-CH": ["ordinary"],
                },
            },
        ),
        paragraph(
            "Two things to notice. The setting's `ru` entry is ignored, since the Russian heading "
            "is fixed — for `ru-RU` too. And as for the chrome's words, a region tag takes its "
            "language's entry: `en-GB` uses the `en` one and `de-CH` the `de` one. An entry for the "
            'region itself (`en-GB = "Further reading"`) comes first, where a region wants other '
            "words than its language. Each source is its title, a dash and its note; in Russian the "
            "space before the dash is a non-breaking one (U+00A0), so the dash never starts a line, as "
            "Russian typography wants (`spaceBeforeDash` above); every other language gets an "
            "ordinary space."
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
        Source(
            title="Unicode CLDR: Language Plural Rules",
            url="https://www.unicode.org/cldr/charts/latest/supplemental/language_plural_rules.html",
            note="the plural forms of each language and the numbers that take them",
        ),
        Source(
            title="Babel: Plural Rules (babel.plural)",
            url="https://babel.pocoo.org/en/latest/api/plural.html",
            note="the library through which site_builder applies CLDR's rules",
        ),
        Source(
            title="MDN: word-break",
            url="https://developer.mozilla.org/en-US/docs/Web/CSS/word-break",
            note="keep-all, which stops breaks between the syllables of a Korean word",
        ),
    ],
)

revisions = [languages]
