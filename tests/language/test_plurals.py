"""Every count in the chrome and the command line, for 0, 1, 2, 5, 21 and 22, in Russian,
English and Korean: the exact text, written out by hand (CLDR's rules through Babel).

Russian is the language with traps: 1 and 21 take one form (статья), 2 and 22 another
(статьи), 0 and 5 a third (статей). English has one (1) and other; Korean other only.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from site_builder.cli.printing import report
from site_builder.errors import Problem
from site_builder.language.english import agree, count
from site_builder.language.labels import COUNTS, labels_for
from site_builder.language.plurals import category
from site_builder.render.items import CategoryLink, Item
from site_builder.render.pages import environment, render_articles, render_lists
from site_builder.render.proofs import Proof
from site_builder.settings.project import Settings
from tests.support.sites import HEADER, SETTINGS, MakeSite, RunCli

NUMBERS = (0, 1, 2, 5, 21, 22)

# label → language → the text for each of NUMBERS.
CHROME = {
    "words_added": {
        "en": [
            "0 words added",
            "1 word added",
            "2 words added",
            "5 words added",
            "21 words added",
            "22 words added",
        ],
        "ru": [
            "добавлено 0 слов",
            "добавлено 1 слово",
            "добавлено 2 слова",
            "добавлено 5 слов",
            "добавлено 21 слово",
            "добавлено 22 слова",
        ],
        "ko": [
            "단어 0개 추가",
            "단어 1개 추가",
            "단어 2개 추가",
            "단어 5개 추가",
            "단어 21개 추가",
            "단어 22개 추가",
        ],
    },
    "words_removed": {
        "en": [
            "0 words removed",
            "1 word removed",
            "2 words removed",
            "5 words removed",
            "21 words removed",
            "22 words removed",
        ],
        "ru": [
            "удалено 0 слов",
            "удалено 1 слово",
            "удалено 2 слова",
            "удалено 5 слов",
            "удалено 21 слово",
            "удалено 22 слова",
        ],
        "ko": [
            "단어 0개 삭제",
            "단어 1개 삭제",
            "단어 2개 삭제",
            "단어 5개 삭제",
            "단어 21개 삭제",
            "단어 22개 삭제",
        ],
    },
    "minutes": {
        "en": ["0 min read", "1 min read", "2 min read", "5 min read", "21 min read", "22 min read"],
        "ru": [
            "0 мин чтения",
            "1 мин чтения",
            "2 мин чтения",
            "5 мин чтения",
            "21 мин чтения",
            "22 мин чтения",
        ],
        "ko": ["0분 분량", "1분 분량", "2분 분량", "5분 분량", "21분 분량", "22분 분량"],
    },
    "verified": {
        "en": [
            "0 results verified by fixtures",
            "1 result verified by a fixture",
            "2 results verified by fixtures",
            "5 results verified by fixtures",
            "21 results verified by fixtures",
            "22 results verified by fixtures",
        ],
        "ru": [
            "Проверено фикстурами: 0 результатов",
            "Проверено фикстурами: 1 результат",
            "Проверено фикстурами: 2 результата",
            "Проверено фикстурами: 5 результатов",
            "Проверено фикстурами: 21 результат",
            "Проверено фикстурами: 22 результата",
        ],
        "ko": [
            "픽스처로 검증된 결과: 0개",
            "픽스처로 검증된 결과: 1개",
            "픽스처로 검증된 결과: 2개",
            "픽스처로 검증된 결과: 5개",
            "픽스처로 검증된 결과: 21개",
            "픽스처로 검증된 결과: 22개",
        ],
    },
    "proof_fixtures": {
        "en": [f"Fixtures that verify results: {n}" for n in NUMBERS],
        "ru": [f"Фикстуры, проверяющие результаты: {n}" for n in NUMBERS],
        "ko": [f"결과를 검증하는 픽스처: {n}개" for n in NUMBERS],
    },
    "proof_results": {
        "en": [f"verified results: {n}" for n in NUMBERS],
        "ru": [f"проверенных результатов: {n}" for n in NUMBERS],
        "ko": [f"검증한 결과: {n}개" for n in NUMBERS],
    },
    "article_count": {
        "en": ["0 articles", "1 article", "2 articles", "5 articles", "21 articles", "22 articles"],
        "ru": ["0 статей", "1 статья", "2 статьи", "5 статей", "21 статья", "22 статьи"],
        "ko": ["글 0개", "글 1개", "글 2개", "글 5개", "글 21개", "글 22개"],
    },
}

CHROME_CASES = [
    pytest.param(label, lang, n, texts[i], id=f"{label}-{lang}-{n}")
    for label, by_lang in CHROME.items()
    for lang, texts in by_lang.items()
    for i, n in enumerate(NUMBERS)
]


def test_the_table_covers_every_label_with_a_number() -> None:
    """A label that holds a number and is missing here fails, until its row is written."""
    assert set(CHROME) == COUNTS


@pytest.mark.parametrize(("label", "lang", "n", "expected"), CHROME_CASES)
def test_each_chrome_count_takes_its_plural_form(label: str, lang: str, n: int, expected: str) -> None:
    assert getattr(labels_for(lang, {}), label).format(n=n) == expected


def test_a_plural_label_printed_as_it_is_shows_its_other_form() -> None:
    """A site's template that prints ``{{ labels.minutes }}`` gets the text it got when labels
    were format strings."""
    assert [str(labels_for(lang, {}).minutes) for lang in ("en", "ru", "ko")] == [
        "{n} min read",
        "{n} мин чтения",
        "{n}분 분량",
    ]


@pytest.mark.parametrize("lang", ["ru-RU", "en-GB", "ko-KR"])
def test_a_region_tag_counts_as_its_language(lang: str) -> None:
    base = lang[:2]
    for label, by_lang in CHROME.items():
        shown = [getattr(labels_for(lang, {}), label).format(n=n) for n in NUMBERS]
        assert shown == by_lang[base], label


# --- the counts on the pages ------------------------------------------------------------


def _item(slug: str, lang: str, minutes: int, category: str, proofs: tuple[str, ...] = ()) -> Item:
    """An article; ``proofs``: the fixture of each of its verified outputs."""
    body = "<p>Body.</p>"
    return Item(
        slug=slug,
        title=f"Title {slug}",
        url=f"/articles/{slug}/",
        published="2024-01-02",
        minutes=minutes,
        excerpt="Excerpt.",
        cover=None,
        lang=lang,
        categories=(CategoryLink(category, "/categories/c/"),),
        fixtures=tuple(dict.fromkeys(proofs)),
        verified=len(proofs),
        content_html=body,
        proofs=tuple(Proof(len(body), fid, "articles/batch.py", 1) for fid in proofs),
    )


def _text(html: str, pattern: str) -> list[str]:
    return [" ".join(m.split()) for m in re.findall(pattern, html, re.DOTALL)]


PAGE_NUMBERS = [n for n in NUMBERS if n > 0]  # a category holds at least one article


@pytest.mark.parametrize("lang", ["en", "ru", "ko"])
@pytest.mark.parametrize("n", PAGE_NUMBERS)
def test_pages_show_each_count_in_its_plural_form(lang: str, n: int) -> None:
    """The article's byline and list of fixtures, the card, and the categories page."""
    i = NUMBERS.index(n)
    settings = Settings(title="T", base_url="https://example.org/", language=lang)
    env = environment(Path("/nonexistent-site-root"))
    many = _item("many", lang, n, "C", tuple(f"batch:fx{k}" for k in range(n)))  # n fixtures
    one = _item("one", lang, n, "C", ("batch:fx",) * n)  # one fixture, n verified outputs
    items = [_item(f"a{k}", lang, n, "C") for k in range(n)]

    pages = render_articles(env, settings, [many, one])
    article = pages["articles/many/index.html"]
    assert _text(article, r'<p class="meta"[^>]*>.*?<span>.*?</span> ·\s*<span>(.*?)</span>') == [
        CHROME["minutes"][lang][i]
    ]
    assert _text(article, r'<h2 id="verified-heading">(.*?)</h2>') == [CHROME["proof_fixtures"][lang][i]]
    listed = _text(pages["articles/one/index.html"], r"</code>(?:</a>)? — (.*?)</li>")
    assert listed == [CHROME["proof_results"][lang][i]]

    lists = render_lists(env, settings, items)
    cards = _text(lists["index.html"], r"</time> ·(.*?)</p>")
    assert cards == [CHROME["minutes"][lang][i]] * n
    counts = _text(lists["categories/index.html"], r'<span class="count">\((.*?)\)</span>')
    assert counts == [CHROME["article_count"][lang][i]]


def test_a_card_speaks_its_article_language_on_a_site_in_another() -> None:
    """An English article listed on a Russian site: "9 min read", with its own lang."""
    settings = Settings(title="T", base_url="https://example.org/", language="ru")
    env = environment(Path("/nonexistent-site-root"))
    items = [
        _item("english", "en", 9, "C"),
        _item("russian", "ru", 9, "C"),
        _item("korean", "ko", 9, "C"),
    ]

    index = render_lists(env, settings, items)["index.html"]

    cards = re.findall(r'(<li class="card"[^>]*>).*?</time> ·(.*?)</p>', index, re.DOTALL)
    assert [(tag, " ".join(text.split())) for tag, text in cards] == [
        ('<li class="card" lang="en">', "9 min read"),
        ('<li class="card">', "9 мин чтения"),
        ('<li class="card" lang="ko">', "9분 분량"),
    ]


# --- the command line -------------------------------------------------------------------

# The English of every count the command line prints: noun → the text for each of NUMBERS.
CLI_NOUNS = {
    "revision": ["0 revisions", "1 revision", "2 revisions", "5 revisions", "21 revisions", "22 revisions"],
    "fixture": ["0 fixtures", "1 fixture", "2 fixtures", "5 fixtures", "21 fixtures", "22 fixtures"],
    "page": ["0 pages", "1 page", "2 pages", "5 pages", "21 pages", "22 pages"],
    "problem": ["0 problems", "1 problem", "2 problems", "5 problems", "21 problems", "22 problems"],
    "source": ["0 sources", "1 source", "2 sources", "5 sources", "21 sources", "22 sources"],
    "real source": [
        "0 real sources",
        "1 real source",
        "2 real sources",
        "5 real sources",
        "21 real sources",
        "22 real sources",
    ],
    "character": [
        "0 characters",
        "1 character",
        "2 characters",
        "5 characters",
        "21 characters",
        "22 characters",
    ],
    "label": ["0 labels", "1 label", "2 labels", "5 labels", "21 labels", "22 labels"],
}


@pytest.mark.parametrize(
    ("noun", "n", "expected"),
    [
        pytest.param(noun, n, texts[i], id=f"{noun}-{n}")
        for noun, texts in CLI_NOUNS.items()
        for i, n in enumerate(NUMBERS)
    ],
)
def test_each_command_line_count_is_correct_english(noun: str, n: int, expected: str) -> None:
    assert count(n, noun) == expected


def test_the_command_line_s_english_rule_is_cldr_s_by_babel() -> None:
    """The command line words a count without asking Babel (``language/english.agree``): for every
    count it prints, its form is the one Babel's English rule gives (0 to 100,000, and beyond)."""
    counts = [*range(100_001), 10**6, 10**6 + 1, 2**31, 2**31 + 1, 10**12 + 1]
    assert [agree(n, "one", "other") for n in counts] == [category("en", n) for n in counts]


def test_thousands_are_grouped() -> None:
    assert count(15000, "character") == "15,000 characters"


@pytest.mark.parametrize(
    ("n", "last_line"),
    [(1, "1 problem found"), (2, "2 problems found"), (5, "5 problems found"), (21, "21 problems found")],
)
def test_the_problem_count_line(n: int, last_line: str, capsys: pytest.CaptureFixture[str]) -> None:
    problem = Problem(path="a.py", line=1, subject="s", rule="r", message="m")
    report([problem] * n)
    assert capsys.readouterr().err.splitlines()[-1] == last_line


def _batch(n_revisions: int, n_fixtures: int, sources: int = 2) -> str:
    """A batch of revisions, each on one line (line 7 is the first), the first showing every fixture."""
    fixtures = "".join(
        f"@fixture\ndef fx{k}() -> dict:\n    return {{'checks': {{'ok': True}}}}\n\n\n"
        for k in range(n_fixtures)
    )
    shown = "".join(
        f", verified_output(fx{k}, expected={{'checks': {{'ok': True}}}})" for k in range(n_fixtures)
    )
    cited = ", ".join(
        f"Source(title='S{k}', url='https://example.org/s{k}', note='n')" for k in range(sources)
    )
    body = "paragraph('Enough words for the tiny limit of this site.')"
    revisions = "".join(
        f"    revision(slug='post-{k}', title='Post {k}', categories=['C'], excerpt='E.', "
        f"published='2024-01-0{k + 1}', body=[{body}{shown if k == 0 else ''}], sources=[{cited}]),\n"
        for k in range(n_revisions)
    )
    return f"{HEADER}\n\n{fixtures}revisions = [\n{revisions}]\n"


@pytest.mark.parametrize(
    ("revisions", "fixtures", "ok", "built"),
    [
        (1, 0, "ok: 1 revision valid, 0 fixtures passed", "built 1 revision, 5 pages"),
        (1, 1, "ok: 1 revision valid, 1 fixture passed", "built 1 revision, 5 pages"),
        (2, 2, "ok: 2 revisions valid, 2 fixtures passed", "built 2 revisions, 6 pages"),
        (5, 1, "ok: 5 revisions valid, 1 fixture passed", "built 5 revisions, 9 pages"),
    ],
)
def test_validate_and_build_count_in_english(
    make_site: MakeSite, run_cli: RunCli, revisions: int, fixtures: int, ok: str, built: str
) -> None:
    root = make_site({"articles/posts.py": _batch(revisions, fixtures)})

    validated = run_cli(["validate", "--root", str(root)])
    assert (validated.code, validated.err.splitlines()) == (0, [ok]), validated.err

    first = run_cli(["build", "--root", str(root)])
    assert first.code == 0, first.err
    assert re.fullmatch(rf"{built} in \d+\.\d s\n", first.err), first.err
    again = run_cli(["build", "--root", str(root)])
    assert re.fullmatch(rf"nothing changed since the last build: {built[6:]} in \d+\.\d s\n", again.err)


@pytest.mark.parametrize(
    ("min_sources", "given", "message"),
    [
        (1, 0, "cites 0 sources; at least 1 is required"),
        (2, 1, "cites 1 source; at least 2 are required"),
        (22, 21, "cites 21 sources; at least 22 are required"),
    ],
)
def test_the_sources_count_problem_agrees(
    make_site: MakeSite, run_cli: RunCli, min_sources: int, given: int, message: str
) -> None:
    settings = SETTINGS + f"min_sources = {min_sources}\n"
    root = make_site({"articles/posts.py": _batch(1, 0, sources=given)}, settings=settings)

    result = run_cli(["validate", "--root", str(root)])

    assert result.err.splitlines() == [f"articles/posts.py:7: post-0: {message}", "1 problem found"]


@pytest.mark.parametrize(
    ("limits", "message"),
    [
        ("min_body_chars = 1\nmax_body_chars = 1\n", "body is 45 characters; at most 1 is allowed"),
        ("min_body_chars = 46\n", "body is 45 characters; at least 46 are required"),
    ],
)
def test_the_body_length_problem_agrees(
    make_site: MakeSite, run_cli: RunCli, limits: str, message: str
) -> None:
    settings = SETTINGS.replace("min_body_chars = 20\n", "") + limits
    root = make_site({"articles/posts.py": _batch(1, 0)}, settings=settings)

    result = run_cli(["validate", "--root", str(root)])

    assert result.err.splitlines() == [f"articles/posts.py:7: post-0: {message}", "1 problem found"]
