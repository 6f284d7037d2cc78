"""The chrome's languages: a language without labels is a problem naming the supported ones;
a ``[tool.site_builder.labels.LANG]`` table adds a language or changes words of one, and
every mistake in it is a settings problem at its line."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import pytest

from site_builder.language.labels import BUILT_IN, HISTORY, NAMES, built_in
from site_builder.language.tables import check_table
from site_builder.settings.project import load_settings
from tests.support.sites import HEADER, SETTINGS, MakeSite, RunCli

BATCH = (
    HEADER
    + """
revisions = [
    revision(slug="post", title="Post", categories=["C"], excerpt="E.", published="2024-01-02",
             body=[paragraph("Enough words for the tiny limit of this site.")],
             sources=[Source(title="A", url="https://example.org/a", note="a"),
                      Source(title="B", url="https://example.org/b", note="b")]),
]
"""
)

GERMAN = """
[tool.site_builder.labels.de]
contents = "Inhalt"
minutes = { one = "{n} Minute Lesezeit", other = "{n} Minuten Lesezeit" }
categories = "Kategorien"
category = "Kategorie"
search = "Suche"
verified = { one = "{n} Ergebnis von einer Fixture geprüft", other = "{n} Ergebnisse von Fixtures geprüft" }
verified_none = "Kein Ergebnis dieses Artikels ist von einer Fixture geprüft."
published = "Veröffentlicht"
articles = "Artikel"
not_found = "Seite nicht gefunden"
not_found_text = "Unter dieser Adresse gibt es keine Seite."
home = "Startseite"
feed = "Atom-Feed"
skip = "Zum Inhalt"
navigation = "Seiten"
previous = "Zurück"
next = "Weiter"
proof_mark = "von der Fixture {fixture} geprüft"
proof_fixtures = { one = "{n} Fixture prüft Ergebnisse", other = "{n} Fixtures prüfen Ergebnisse" }
proof_results = { one = "{n} geprüftes Ergebnis", other = "{n} geprüfte Ergebnisse" }
draft = "Entwurf"
scheduled = "Geplant für {date}"
article_count = { one = "{n} Artikel", other = "{n} Artikel" }
"""


def settings_problems(tmp_path: Path, text: str) -> list[str]:
    (tmp_path / "pyproject.toml").write_text(text, "utf-8")
    return [str(p) for p in load_settings(tmp_path)[1]]


def test_the_built_in_tables_are_complete_and_sound() -> None:
    for lang in BUILT_IN:
        table = built_in(lang)
        assert list(table) == list(NAMES), lang  # every label, in the order of Labels
        assert list(check_table(lang, table, ())) == [], lang


def test_a_language_without_labels_names_the_supported_ones(tmp_path: Path) -> None:
    text = SETTINGS.replace('language = "en"', 'language = "de"')

    assert settings_problems(tmp_path, text) == [
        "pyproject.toml:4: settings: language 'de' has no labels; supported: en, ko, ru; "
        "add a [tool.site_builder.labels.de] table"
    ]


def test_a_region_tag_without_labels_asks_for_its_language(tmp_path: Path) -> None:
    text = SETTINGS.replace('language = "en"', 'language = "de-AT"')

    assert settings_problems(tmp_path, text) == [
        "pyproject.toml:4: settings: language 'de-AT' has no labels; supported: en, ko, ru; "
        "add a [tool.site_builder.labels.de] table"
    ]


@pytest.mark.parametrize("tag", ["ru-RU", "en-GB", "ko-KR", "RU"])
def test_a_region_tag_falls_back_to_its_language(tmp_path: Path, tag: str) -> None:
    assert settings_problems(tmp_path, SETTINGS.replace('language = "en"', f'language = "{tag}"')) == []


@pytest.mark.parametrize(
    ("language", "lang", "heading", "published"),
    [
        ("en", "ru-RU", "Проверяемые источники", "Опубликовано"),
        ("en", "ko-KR", "출처", "게시일"),
        ("ru-RU", None, "Проверяемые источники", "Опубликовано"),
    ],
    ids=["revision-ru-RU", "revision-ko-KR", "site-ru-RU"],
)
def test_a_region_tag_takes_its_languages_sources_heading_and_chrome(
    make_site: MakeSite, run_cli: RunCli, language: str, lang: str | None, heading: str, published: str
) -> None:
    batch = (
        BATCH
        if lang is None
        else BATCH.replace('published="2024-01-02",', f'published="2024-01-02", lang="{lang}",')
    )
    root = make_site(
        {"articles/posts.py": batch}, settings=SETTINGS.replace('language = "en"', f'language = "{language}"')
    )

    listed, built = run_cli(["revisions", "--root", str(root)]), run_cli(["build", "--root", str(root)])

    assert listed.code == built.code == 0, listed.err + built.err
    (item,) = json.loads(listed.out)
    assert f"\n<h2>{heading}</h2>\n<ul>" in item["contentHtml"]
    page = (root / "build/articles/post/index.html").read_text("utf-8")
    assert f">{heading}</h2>" in page
    assert f"<span>{published}:" in page


def test_a_region_tag_takes_its_languages_sources_heading_setting(
    make_site: MakeSite, run_cli: RunCli
) -> None:
    settings = (
        SETTINGS + 'sources_heading = { en = "Further reading", en-AU = "Sources, mate", ru = "Источники" }\n'
    )
    batch = (
        HEADER
        + """
SOURCES = [Source(title="A", url="https://example.org/a", note="a"),
           Source(title="B", url="https://example.org/b", note="b")]
revisions = [
    revision(slug=f"in-{lang.lower()}", lang=lang, title="Post", categories=["C"], excerpt="E.",
             published="2024-01-02", body=[paragraph("Enough words for the tiny limit of this site.")],
             sources=SOURCES)
    for lang in ["en", "en-GB", "en-AU", "ru-RU"]
]
"""
    )
    root = make_site({"articles/posts.py": batch}, settings=settings)

    result = run_cli(["revisions", "--root", str(root)])

    assert result.code == 0, result.err
    headings = {
        item["lang"]: re.findall(r"\n<h2>([^<]*)</h2>\n<ul>", item["contentHtml"])
        for item in json.loads(result.out)
    }
    assert headings == {
        "en": ["Further reading"],
        "en-GB": ["Further reading"],  # its language's entry
        "en-AU": ["Sources, mate"],  # its own entry first
        "ru-RU": ["Проверяемые источники"],  # Russian's heading is fixed by the contract
    }


def test_a_table_adds_a_language_and_the_site_speaks_it(make_site: MakeSite, run_cli: RunCli) -> None:
    settings = SETTINGS.replace('language = "en"', 'language = "de"') + GERMAN
    root = make_site({"articles/posts.py": BATCH}, settings=settings)

    result = run_cli(["build", "--root", str(root)])

    assert result.code == 0, result.err
    index = (root / "build/index.html").read_text("utf-8")
    assert '<html lang="de">' in index
    assert re.search(r"</time> ·\s*1 Minute Lesezeit", index)
    categories = (root / "build/categories/index.html").read_text("utf-8")
    assert '<span class="count">(1 Artikel)</span>' in categories
    assert "<title>Kategorien — Test site</title>" in categories


def test_a_revision_in_a_language_without_labels_is_a_problem_at_its_line(
    make_site: MakeSite, run_cli: RunCli
) -> None:
    root = make_site(
        {"articles/posts.py": BATCH.replace('published="2024-01-02",', 'published="2024-01-02", lang="de",')}
    )

    result = run_cli(["validate", "--root", str(root)])

    assert result.code == 1
    assert result.err.splitlines() == [
        "articles/posts.py:6: post: lang 'de' has no labels; supported: en, ko, ru; "
        "add a [tool.site_builder.labels.de] table",
        "1 problem found",
    ]


def test_a_revision_in_an_added_language_is_valid(make_site: MakeSite, run_cli: RunCli) -> None:
    batch = BATCH.replace('published="2024-01-02",', 'published="2024-01-02", lang="de-CH",')
    root = make_site({"articles/posts.py": batch}, settings=SETTINGS + GERMAN)

    result = run_cli(["build", "--root", str(root)])

    assert result.code == 0, result.err
    page = (root / "build/articles/post/index.html").read_text("utf-8")
    assert '<html lang="de-CH">' in page
    assert "<span>Veröffentlicht:" in page
    card = re.search(
        r'<li class="card" lang="de-CH">.*?</li>', (root / "build/index.html").read_text("utf-8"), re.S
    )
    assert card is not None and "1 Minute Lesezeit" in card.group()


def test_a_table_changes_words_of_a_built_in_language(make_site: MakeSite, run_cli: RunCli) -> None:
    settings = SETTINGS + '\n[tool.site_builder.labels.en]\nhome = "Start"\n'
    root = make_site({"articles/posts.py": BATCH}, settings=settings)

    assert run_cli(["build", "--root", str(root)]).code == 0
    page = (root / "build/404.html").read_text("utf-8")
    assert ">Start</a>" in page
    assert "Page not found" in page  # the words not given stay the package's


# Each mistake in a labels table: the settings text after SETTINGS, and the problem with its line
# (SETTINGS has 6 lines: each text below starts on line 7, with a blank line).
MISTAKES = [
    pytest.param(
        '\n[tool.site_builder.labels.en]\nminuets = "{n} min"\n',
        "pyproject.toml:9: settings: labels.en has an unknown label 'minuets'; did you mean 'minutes'?",
        id="unknown-key-close",
    ),
    pytest.param(
        '\n[tool.site_builder.labels.en]\nzzz = "z"\n',
        "pyproject.toml:9: settings: labels.en has an unknown label 'zzz'; the labels are: "
        + ", ".join(NAMES),
        id="unknown-key-far",
    ),
    pytest.param(
        '\n[tool.site_builder.labels.ru]\nhome = "Домой"\n'
        'article_count = { one = "{n} статья", other = "{n} статьи" }\n',
        "pyproject.toml:10: settings: labels.ru.article_count lacks the plural forms few, many; "
        "ru uses one, few, many, other (CLDR)",
        id="missing-plural-forms",
    ),
    pytest.param(
        '\n[tool.site_builder.labels.en]\nminutes = { one = "{n} min", few = "{n} m", other = "{n} min" }\n',
        "pyproject.toml:9: settings: labels.en.minutes has the plural form few, which en does not use; "
        "en uses one, other (CLDR)",
        id="extra-plural-form",
    ),
    pytest.param(
        '\n[tool.site_builder.labels.ko]\nminutes = "{n}분"\n',
        "pyproject.toml:9: settings: labels.ko.minutes holds a number: give a text for each plural form "
        'of ko (other), as minutes = { other = "…" }',
        id="count-given-a-string",
    ),
    pytest.param(
        '\n[tool.site_builder.labels.en.minutes]\none = "{n} min"\nother = ""\n',
        "pyproject.toml:8: settings: labels.en.minutes must map each plural form to a non-empty string",
        id="empty-plural-text-in-a-sub-table",
    ),
    pytest.param(
        '\n[tool.site_builder.labels.en]\nhome = ""\n',
        "pyproject.toml:9: settings: labels.en.home must be a non-empty string",
        id="empty-text",
    ),
    pytest.param(
        '\n[tool.site_builder.labels.de]\ncontents = "Inhalt"\n',
        "pyproject.toml:8: settings: labels.de lacks 22 labels: "
        + ", ".join(name for name in NAMES if name != "contents" and name not in HISTORY),
        id="new-language-incomplete",
    ),
    pytest.param(
        GERMAN.replace('next = "Weiter"\n', ""),
        "pyproject.toml:8: settings: labels.de lacks 1 label: next",
        id="new-language-lacks-one",
    ),
    pytest.param(
        '\n[tool.site_builder.labels.Deutsch]\nhome = "Start"\n',
        "pyproject.toml:8: settings: labels.Deutsch is not named by a language tag like 'de' or 'pt-BR'",
        id="not-a-tag",
    ),
    pytest.param(
        '\n[tool.site_builder.labels]\nde = "Deutsch"\n',
        "pyproject.toml:9: settings: labels.de must be a table of labels, not str",
        id="not-a-table",
    ),
    pytest.param(
        'labels = "de"\n',
        "pyproject.toml:7: settings: labels must be dict, not str",
        id="labels-not-a-table",
    ),
]


@pytest.mark.parametrize(("text", "problem"), MISTAKES)
def test_each_mistake_in_a_labels_table_is_a_settings_problem_at_its_line(
    tmp_path: Path, text: str, problem: str
) -> None:
    assert settings_problems(tmp_path, SETTINGS + text) == [problem]


def test_a_region_table_may_give_only_some_words_of_its_language(tmp_path: Path) -> None:
    text = SETTINGS + GERMAN + '\n[tool.site_builder.labels.de-CH]\nhome = "Startsite"\n'
    assert settings_problems(tmp_path, text) == []


def test_changing_labels_renders_the_pages_again(make_site: MakeSite, run_cli: RunCli) -> None:
    """The cache keys every batch by the settings, labels included: a cached build after an edit
    of the labels equals a clean build."""
    settings = (
        SETTINGS
        + '\n[tool.site_builder.labels.en]\nminutes = { one = "{n} minute", other = "{n} minutes" }\n'
    )
    root = make_site({"articles/posts.py": BATCH}, settings=settings)
    assert run_cli(["build", "--root", str(root)]).code == 0
    page = root / "build/articles/post/index.html"
    assert "<span>1 minute</span>" in page.read_text("utf-8")

    (root / "pyproject.toml").write_text(settings.replace('"{n} minute"', '"{n} minute to read"'), "utf-8")
    cached = run_cli(["build", "--root", str(root)])

    assert cached.code == 0, cached.err
    assert cached.err.startswith("built 1 revision"), cached.err
    assert "<span>1 minute to read</span>" in page.read_text("utf-8")
    index = (root / "build/index.html").read_text("utf-8")
    assert re.search(r"</time> ·\s*1 minute to read", index)
    assert run_cli(["build", "--root", str(root), "--no-cache", "--out", str(root / "clean")]).code == 0
    for path in (root / "clean").rglob("*.html"):
        assert path.read_bytes() == (root / "build" / path.relative_to(root / "clean")).read_bytes(), path


def test_search_excerpts_hold_the_article_not_the_chrome(make_site: MakeSite, run_cli: RunCli) -> None:
    """Pagefind indexes the title and the body; the byline (date · minutes), the categories,
    the table of contents and the fixture note are chrome (``data-pagefind-ignore``)."""
    batch = BATCH.replace('published="2024-01-02",', 'published="2024-01-02", lang="ru",')
    root = make_site({"articles/posts.py": batch})
    assert run_cli(["build", "--root", str(root)]).code == 0

    (fragment,) = (root / "build/pagefind/fragment").iterdir()
    data = gzip.decompress(fragment.read_bytes())
    content = json.loads(data[data.index(b"{") :])["content"]

    assert (
        content == "Post. Enough words for the tiny limit of this site. Проверяемые источники. A — a. B — b."
    )
    page = (root / "build/articles/post/index.html").read_text("utf-8")
    assert "Опубликовано" in page and "мин чтения" in page  # on the page, not in the index
