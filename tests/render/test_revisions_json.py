"""The ``revisions`` JSON importers read, checked against the schema the package ships.

DESIGN.md "`revisions` JSON": an array in site order with the established keys, UTF-8
not ASCII-escaped, deterministic, ``readingMinutes`` from the author or computed from
the body text (words at 200 a minute, Hangul/CJK characters at 500, rounded up, >= 1).
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from site_builder.authoring import body as content
from site_builder.render.revisions_json import schema
from tests.support.sites import HEADER, MakeSite, RunCli

# The site's language is Russian, so a revision without ``lang`` must come out as ``ru``.
SETTINGS_RU = """\
[tool.site_builder]
title = "Тестовый сайт"
base_url = "https://example.org/"
language = "ru"
min_body_chars = 20
max_body_chars = 15000
fixture_timeout = 2
"""

KEYS = [
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
]

EN_WORDS = " ".join(["word"] * 401)  # 401 / 200 -> 2.005 -> 3 minutes
KO_TEXT = "가" * 900 + " " + " ".join(["word"] * 40)  # 900/500 + 40/200 = 2.0 -> 2 minutes
RU_WORDS = " ".join(["слово"] * 250)  # would be 2 minutes; the author says 7

RU_BATCH = (
    HEADER
    + f'''

@fixture
def effects():
    return {{"effects": 1, "retries": 2, "checks": {{"onlyOneEffect": True}}}}


@fixture
def replay():
    return {{"replayed": True, "checks": {{"retryReplayed": True}}}}


RFC9110 = Source(title="RFC 9110: HTTP Semantics", url="https://www.rfc-editor.org/rfc/rfc9110.html",
                 note="определяет идемпотентные методы")
STRIPE = Source(title="Stripe: Idempotent requests", url="https://docs.stripe.com/api/idempotent_requests",
                note="ключ идемпотентности & повтор")

ru_default = revision(
    slug="retry-without-second-effect", title="Повтор без второго эффекта",
    categories=["HTTP", "Бэкенд"], excerpt="Почему повтор не должен списывать дважды.",
    cover="/assets/cover.svg", published="2020-06-18",
    body=[paragraph("Метод `POST` сам по себе не становится идемпотентным."),
          verified_output(effects, expected={{"effects": 1}}),
          paragraph("{RU_WORDS}"),
          verified_output(replay, expected={{"replayed": True}}),
          verified_output(effects, expected={{"retries": 2}})],
    sources=[RFC9110, STRIPE],
    reading_minutes=7,
)

ru_plain = revision(
    slug="ru-plain", title="Просто", categories=["Заметки"], excerpt="Без фикстур.",
    published="2020-06-19", lang="ru",
    body=[paragraph("{RU_WORDS}")],
    sources=[RFC9110, STRIPE],
)

revisions = [ru_default, ru_plain]
'''
)

KO_BATCH = (
    HEADER
    + f'''
revisions = [revision(
    slug="korean-notes", title="한국어 노트", categories=["노트"], excerpt="한국어 요약.",
    published="2021-01-02", lang="ko",
    body=[paragraph("{KO_TEXT}")],
    sources=[Source(title="가", url="https://a.example/", note="가나"),
             Source(title="나", url="https://b.example/", note="다라")],
)]
'''
)

EN_BATCH = (
    HEADER
    + f'''
revisions = [revision(
    slug="english-notes", title="English <notes>", categories=["Notes"], excerpt="An excerpt.",
    published="2022-03-04", lang="en",
    body=[paragraph("{EN_WORDS}")],
    sources=[Source(title="A & B", url="https://a.example/", note="a"),
             Source(title="B", url="https://b.example/", note="b")],
)]
'''
)

SITE_ORDER = ["english-notes", "korean-notes", "retry-without-second-effect", "ru-plain"]


@pytest.fixture
def site(make_site: MakeSite) -> Path:
    return make_site(
        {
            "articles/c_ru.py": RU_BATCH,
            "articles/b_ko.py": KO_BATCH,
            "articles/a_en.py": EN_BATCH,
            "assets/cover.svg": '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>\n',
        },
        settings=SETTINGS_RU,
    )


@pytest.fixture
def output(site: Path, run_cli: RunCli) -> str:
    result = run_cli(["revisions", "--root", str(site)])
    assert result.code == 0, result.err
    return result.out


@pytest.fixture
def data(output: str) -> list[dict[str, Any]]:
    loaded = json.loads(output)
    assert isinstance(loaded, list)
    return loaded


@pytest.fixture
def by_slug(data: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {item["slug"]: item for item in data}


def validator() -> Draft202012Validator:
    shipped = schema()
    Draft202012Validator.check_schema(shipped)
    return Draft202012Validator(shipped, format_checker=Draft202012Validator.FORMAT_CHECKER)


def test_output_satisfies_the_shipped_schema(data: list[dict[str, Any]]) -> None:
    errors = sorted(validator().iter_errors(data), key=lambda e: list(e.path))
    assert [f"{list(e.path)}: {e.message}" for e in errors] == []
    assert len(data) == 4


def test_the_schema_is_the_file_in_the_package() -> None:
    shipped = Path(__import__("site_builder").__file__).parent / "schemas" / "revisions.schema.json"
    assert json.loads(shipped.read_text("utf-8")) == schema()
    assert schema()["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_site_order_and_batches(data: list[dict[str, Any]]) -> None:
    assert [item["slug"] for item in data] == SITE_ORDER
    assert [item["batch"] for item in data] == ["a_en", "b_ko", "c_ru", "c_ru"]


def test_keys(data: list[dict[str, Any]]) -> None:
    for item in data:
        assert set(KEYS) <= set(item), item.keys()
        assert list(item)[:7] == KEYS[:7]


def test_fields_as_written(by_slug: dict[str, dict[str, Any]]) -> None:
    item = by_slug["retry-without-second-effect"]
    assert item["title"] == "Повтор без второго эффекта"
    assert item["categories"] == ["HTTP", "Бэкенд"]
    assert item["cover"] == "/assets/cover.svg"
    assert item["excerpt"] == "Почему повтор не должен списывать дважды."
    assert item["published"] == "2020-06-18"
    assert item["sources"] == [
        {
            "title": "RFC 9110: HTTP Semantics",
            "url": "https://www.rfc-editor.org/rfc/rfc9110.html",
            "note": "определяет идемпотентные методы",
        },
        {
            "title": "Stripe: Idempotent requests",
            "url": "https://docs.stripe.com/api/idempotent_requests",
            "note": "ключ идемпотентности & повтор",
        },
    ]
    assert by_slug["english-notes"]["cover"] is None
    assert by_slug["english-notes"]["title"] == "English <notes>"


@pytest.mark.parametrize(
    ("slug", "minutes"),
    [("retry-without-second-effect", 7), ("ru-plain", 2), ("english-notes", 3), ("korean-notes", 2)],
    ids=["author-given", "cyrillic-words", "english-words", "hangul-and-words"],
)
def test_reading_minutes(by_slug: dict[str, dict[str, Any]], slug: str, minutes: int) -> None:
    assert by_slug[slug]["readingMinutes"] == minutes


def test_body_chars_counts_code_points_of_the_body_text(by_slug: dict[str, dict[str, Any]]) -> None:
    assert by_slug["english-notes"]["bodyChars"] == len(EN_WORDS)
    assert by_slug["korean-notes"]["bodyChars"] == len(KO_TEXT)
    assert by_slug["ru-plain"]["bodyChars"] == len(RU_WORDS)


def test_lang_defaults_to_the_site_language(by_slug: dict[str, dict[str, Any]]) -> None:
    assert by_slug["retry-without-second-effect"]["lang"] == "ru"
    assert by_slug["ru-plain"]["lang"] == "ru"
    assert by_slug["korean-notes"]["lang"] == "ko"
    assert by_slug["english-notes"]["lang"] == "en"


def test_sources_heading_is_russian_for_ru(by_slug: dict[str, dict[str, Any]]) -> None:
    for slug in ("retry-without-second-effect", "ru-plain"):
        assert "\n<h2>Проверяемые источники</h2>\n<ul>" in by_slug[slug]["contentHtml"]
    for slug in ("english-notes", "korean-notes"):
        assert "Проверяемые источники" not in by_slug[slug]["contentHtml"]
        assert "\n<h2>" in by_slug[slug]["contentHtml"]


def test_content_html_is_body_then_sources(by_slug: dict[str, dict[str, Any]]) -> None:
    assert by_slug["ru-plain"]["contentHtml"] == (
        f"<p>{RU_WORDS}</p>\n<h2>Проверяемые источники</h2>\n<ul>"
        '<li><a href="https://www.rfc-editor.org/rfc/rfc9110.html" target="_blank" rel="noopener noreferrer">'
        "RFC 9110: HTTP Semantics</a>\u00a0— определяет идемпотентные методы</li>"
        '<li><a href="https://docs.stripe.com/api/idempotent_requests" '
        'target="_blank" rel="noopener noreferrer">'
        "Stripe: Idempotent requests</a>\u00a0— ключ идемпотентности &amp; повтор</li></ul>"
    )
    english = by_slug["english-notes"]["contentHtml"]
    assert english.startswith(f"<p>{EN_WORDS}</p>\n<h2>")
    assert (
        '<a href="https://a.example/" target="_blank" rel="noopener noreferrer">A &amp; B</a> — a</li>'
        in english
    )


def test_verified_output_prints_its_expected_json(by_slug: dict[str, dict[str, Any]]) -> None:
    html = by_slug["retry-without-second-effect"]["contentHtml"]
    printed = json.dumps({"effects": 1}, ensure_ascii=False, indent=2).replace('"', "&quot;")
    assert html.split("\n")[1:4] == [
        '<pre><code class="language-json">{',
        "  &quot;effects&quot;: 1",
        "}</code></pre>",
    ]
    assert f'<pre><code class="language-json">{printed}</code></pre>' in html


def test_fixtures_lists_the_ids_verified_output_uses(by_slug: dict[str, dict[str, Any]]) -> None:
    fixtures = by_slug["retry-without-second-effect"]["fixtures"]
    assert sorted(fixtures) == ["c_ru:effects", "c_ru:replay"]
    assert len(fixtures) == len(set(fixtures))
    assert by_slug["ru-plain"]["fixtures"] == []
    assert by_slug["english-notes"]["fixtures"] == []


def test_cyrillic_and_hangul_are_not_escaped(output: str) -> None:
    assert "Повтор без второго эффекта" in output
    assert "한국어 노트" in output
    assert "\\u" not in output


def test_output_is_deterministic(site: Path, run_cli: RunCli, output: str) -> None:
    again = run_cli(["revisions", "--root", str(site)])
    assert again.out == output


def test_output_is_deterministic_across_processes(site: Path, output: str) -> None:
    runs = [
        subprocess.run(
            [sys.executable, "-m", "site_builder", "revisions", "--root", str(site)],
            capture_output=True,
            timeout=60,
            check=False,
            env={**os.environ, "PYTHONHASHSEED": seed},
        )
        for seed in ("1", "2")
    ]
    assert [r.returncode for r in runs] == [0, 0]
    assert runs[0].stdout == runs[1].stdout == output.encode("utf-8")


def test_slug_filter_output_satisfies_the_schema(site: Path, run_cli: RunCli) -> None:
    result = run_cli(["revisions", "--root", str(site), "--slug", "korean-notes", "--indent", "0"])
    assert result.code == 0
    data = json.loads(result.out)
    assert [item["slug"] for item in data] == ["korean-notes"]
    assert validator().is_valid(data)


def _drop(item: dict[str, Any], key: str) -> None:
    del item[key]


BREAKAGES = [
    ("missing-slug", lambda item: _drop(item, "slug")),
    ("missing-fixtures", lambda item: _drop(item, "fixtures")),
    ("reading-minutes-zero", lambda item: item.update(readingMinutes=0)),
    ("reading-minutes-float", lambda item: item.update(readingMinutes=2.5)),
    ("bad-slug", lambda item: item.update(slug="Bad Slug")),
    ("empty-categories", lambda item: item.update(categories=[])),
    ("bad-date", lambda item: item.update(published="18.06.2020")),
    ("unknown-key", lambda item: item.update(extra=1)),
    ("source-without-note", lambda item: item["sources"][0].pop("note")),
    ("fixture-id-shape", lambda item: item.update(fixtures=["not an id"])),
    ("body-chars-string", lambda item: item.update(bodyChars="100")),
]


@pytest.mark.parametrize("breakage", [b for _, b in BREAKAGES], ids=[name for name, _ in BREAKAGES])
def test_the_schema_rejects_a_broken_object(data: list[dict[str, Any]], breakage: Any) -> None:
    check = validator()
    assert check.is_valid(data)
    broken = copy.deepcopy(data)
    breakage(broken[2])
    assert not check.is_valid(broken)


def test_the_schema_rejects_an_object_instead_of_an_array(data: list[dict[str, Any]]) -> None:
    assert not validator().is_valid(data[0])


@settings(max_examples=400, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            ["<b>", "</p>", "&amp;", "&nbsp;", "a", "я", " ", "\t", "\n", "\u3000", "\x1c", "\xa0"]
        )
    ).map("".join)
)
def test_body_text_is_the_contract_spelled_out(markup: str) -> None:
    """DESIGN.md: every tag replaced by a space, entities decoded, whitespace runs collapsed
    to one space, trimmed (the implementation splits rather than substitutes)."""
    import html
    import re

    expected = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]*>", " ", markup))).strip()
    assert content.body_text(markup) == expected
