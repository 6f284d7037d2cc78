"""Golden markup of every public helper, of ``contentHtml`` and of reading time.

The expected strings are written out by hand from DESIGN.md's "Helper markup" table:
downstream importers read these bytes, so they are never computed by the code under test.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from markupsafe import Markup

from site_builder import (
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
    transcript,
    unordered_list,
    verified_output,
)
from site_builder.authoring.body import body_text, content_html, reading_minutes
from site_builder.authoring.model import Revision
from site_builder.settings.project import Settings
from tests.support.sites import MakeSite, RunCli


@fixture
def lost_response() -> dict[str, object]:
    return {"effects": 1, "checks": {"onlyOneEffect": True}}


GOLDEN: list[tuple[str, Callable[[], Markup], str]] = [
    ("paragraph-plain", lambda: paragraph("Plain text."), "<p>Plain text.</p>"),
    ("paragraph-ampersand", lambda: paragraph("a & b"), "<p>a &amp; b</p>"),
    (
        "paragraph-cyrillic-inline",
        lambda: paragraph("Метод `POST` сам по себе *не* становится **идемпотентным**."),
        "<p>Метод <code>POST</code> сам по себе <em>не</em> становится <strong>идемпотентным</strong>.</p>",
    ),
    (
        "paragraph-korean-link",
        lambda: paragraph("[한국어 문서](https://example.org/ko?a=1&b=2)를 보세요"),
        '<p><a href="https://example.org/ko?a=1&amp;b=2">한국어 문서</a>를 보세요</p>',
    ),
    (
        "paragraph-code-is-escaped",
        lambda: paragraph("Write `a < b && c > 'd'`."),
        "<p>Write <code>a &lt; b &amp;&amp; c &gt; &#039;d&#039;</code>.</p>",
    ),
    ("heading-plain", lambda: heading("Why retries repeat"), "<h2>Why retries repeat</h2>"),
    (
        "heading-cyrillic-inline",
        lambda: heading("Повтор `POST` и *ключ*"),
        "<h2>Повтор <code>POST</code> и <em>ключ</em></h2>",
    ),
    ("heading-korean", lambda: heading("재시도와 멱등성"), "<h2>재시도와 멱등성</h2>"),
    (
        "code-block-no-language-stripped",
        lambda: code_block("\n\n  SELECT 1 WHERE a < b AND c = 'x' & d;  \n\n"),
        "<pre><code>SELECT 1 WHERE a &lt; b AND c = &#039;x&#039; &amp; d;</code></pre>",
    ),
    (
        "code-block-language",
        lambda: code_block('print("привет")\nprint("안녕")\n', language="python"),
        '<pre><code class="language-python">print(&quot;привет&quot;)\nprint(&quot;안녕&quot;)</code></pre>',
    ),
    (
        "code-block-keeps-inner-indentation",
        lambda: code_block("def f():\n    return `*not md*`\n", language="py"),
        '<pre><code class="language-py">def f():\n    return `*not md*`</code></pre>',
    ),
    (
        "figure",
        lambda: figure("/assets/retry/path.svg", "Запрос и ответ", "Путь *запроса* — 요청"),
        '<figure><img src="/assets/retry/path.svg" alt="Запрос и ответ" loading="lazy" />'
        "<figcaption>Путь <em>запроса</em> — 요청</figcaption></figure>",
    ),
    (
        "figure-alt-is-plain-text",
        lambda: figure("/assets/a.svg", "*not em* & `code`", "Caption"),
        '<figure><img src="/assets/a.svg" alt="*not em* &amp; `code`" loading="lazy" />'
        "<figcaption>Caption</figcaption></figure>",
    ),
    (
        "ordered-list",
        lambda: ordered_list(["Отправить `POST`", "**Повторить**", "확인"]),
        "<ol><li>Отправить <code>POST</code></li><li><strong>Повторить</strong></li><li>확인</li></ol>",
    ),
    (
        "unordered-list",
        lambda: unordered_list(["one & two", "[RFC 9110](https://www.rfc-editor.org/rfc/rfc9110.html)"]),
        '<ul><li>one &amp; two</li><li><a href="https://www.rfc-editor.org/rfc/rfc9110.html">'
        "RFC 9110</a></li></ul>",
    ),
    (
        "unordered-list-tuple",
        lambda: unordered_list(("a", "b")),
        "<ul><li>a</li><li>b</li></ul>",
    ),
    (
        "data-table",
        lambda: data_table(
            "Повторы и *эффекты*", ["Метод", "재시도", "Effects"], [["`POST`", "нет", 2], ["PUT", "да", 1.5]]
        ),
        '<div class="table-scroll"><table><caption>Повторы и <em>эффекты</em></caption>'
        '<thead><tr><th scope="col">Метод</th><th scope="col">재시도</th><th scope="col">Effects</th></tr>'
        "</thead><tbody><tr><td><code>POST</code></td><td>нет</td><td>2</td></tr>"
        "<tr><td>PUT</td><td>да</td><td>1.5</td></tr></tbody></table></div>",
    ),
    (
        "markdown-blocks",
        lambda: markdown("Первый *абзац*.\n\n- один\n- 둘\n\n```sql\nSELECT 1 < 2;\n```"),
        "<p>Первый <em>абзац</em>.</p>\n<ul>\n<li>один</li>\n<li>둘</li>\n</ul>\n"
        '<pre><code class="language-sql">SELECT 1 &lt; 2;\n</code></pre>',
    ),
    (
        "markdown-link-strong",
        lambda: markdown("**Bold** and [a link](https://example.org/a)."),
        '<p><strong>Bold</strong> and <a href="https://example.org/a">a link</a>.</p>',
    ),
    (
        "verified-output",
        lambda: verified_output(lost_response, expected={"effects": 1, "ключ": "값 & <b>"}),
        '<pre><code class="language-json">{\n  &quot;effects&quot;: 1,\n'
        "  &quot;ключ&quot;: &quot;값 &amp; &lt;b&gt;&quot;\n}</code></pre>",
    ),
    (
        "verified-output-nested",
        lambda: verified_output(
            lost_response, expected={"checks": {"onlyOneEffect": True}, "list": [1, None]}
        ),
        '<pre><code class="language-json">{\n  &quot;checks&quot;: {\n    &quot;onlyOneEffect&quot;: true\n'
        "  },\n  &quot;list&quot;: [\n    1,\n    null\n  ]\n}</code></pre>",
    ),
]


@pytest.mark.parametrize(("build", "expected"), [c[1:] for c in GOLDEN], ids=[c[0] for c in GOLDEN])
def test_helper_markup_is_the_established_format(build: Callable[[], Markup], expected: str) -> None:
    block = build()
    assert isinstance(block, Markup)
    assert str(block) == expected
    assert block.flaws == ()  # type: ignore[attr-defined]


VERIFIED_EXPECTED: list[object] = [
    {"effects": 1},
    {"checks": {"onlyOneEffect": True, "retryReplayed": True}, "текст": "한국어 <i>&amp;</i> 'q'"},
    {"list": [1, 2.5, None, False], "empty": {}, "nested": [[]]},
]


@pytest.mark.parametrize("expected", VERIFIED_EXPECTED, ids=["flat", "unicode-hostile", "lists"])
def test_verified_output_is_exactly_the_json_code_block(expected: object) -> None:
    block = verified_output(lost_response, expected=expected)
    assert str(block) == str(code_block(json.dumps(expected, ensure_ascii=False, indent=2), language="json"))
    assert block.verified is not None  # type: ignore[attr-defined]
    assert block.verified.expected == expected  # type: ignore[attr-defined]


def test_a_transcript_shows_each_command_after_a_prompt_and_claims_its_lines() -> None:
    block = transcript(
        lost_response,
        """
        $ site-builder init "my <site>"
        wrote my <site>/pyproject.toml & more
          cd "my <site>"
        $ echo $ done
        """,
    )
    assert str(block) == (
        '<pre class="transcript"><samp><span class="prompt">$ </span>'
        "<kbd>site-builder init &quot;my &lt;site&gt;&quot;</kbd>\n"
        "wrote my &lt;site&gt;/pyproject.toml &amp; more\n"
        "  cd &quot;my &lt;site&gt;&quot;\n"
        '<span class="prompt">$ </span><kbd>echo $ done</kbd></samp></pre>'
    )
    assert block.flaws == ()  # type: ignore[attr-defined]
    assert block.verified.helper == "transcript"  # type: ignore[attr-defined]
    assert block.verified.expected == {  # type: ignore[attr-defined]
        "transcript": [
            '$ site-builder init "my <site>"',
            "wrote my <site>/pyproject.toml & more",
            '  cd "my <site>"',
            "$ echo $ done",
        ]
    }
    assert transcript(lost_response, "$ true", key="session").verified.expected == {"session": ["$ true"]}  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("call", "rule", "message"),
    [
        (lambda: transcript(lost_response, "output first\n$ cmd"), "transcript-session", "a session starts"),
        (lambda: transcript(lost_response, ""), "transcript-session", "a session starts"),
        (lambda: transcript(lost_response, ["$ cmd"]), "helper-type", "the session must be a str, not list"),
        (lambda: transcript(lost_response, "$ cmd", key=""), "helper-type", "key must be a non-empty str"),
        (lambda: transcript(print, "$ cmd"), "verified-fixture", "must be a @fixture function"),
    ],
    ids=["output-first", "empty", "not-str", "empty-key", "not-fixture"],
)
def test_a_malformed_transcript_is_a_flaw_at_its_line(
    call: Callable[[], Markup], rule: str, message: str
) -> None:
    block = call()
    (flaw,) = block.flaws  # type: ignore[attr-defined]
    assert flaw.rule == rule and message in flaw.message and flaw.message.startswith("transcript(): ")
    assert flaw.site.line == call.__code__.co_firstlineno  # type: ignore[attr-defined]


def _revision(body: list[Markup], sources: list[Source], lang: str = "ru") -> Revision:
    return revision(
        slug="retry-without-second-effect",
        title="Повтор без второго эффекта",
        categories=["HTTP"],
        excerpt="…",
        published="2020-06-18",
        lang=lang,
        body=body,
        sources=sources,
    )


RFC = Source(
    title="RFC 9110: HTTP Semantics",
    url="https://www.rfc-editor.org/rfc/rfc9110.html",
    note="defines which methods are idempotent",
)
KO = Source(title="재시도 & <안내>", url="https://example.org/ko?a=1&b=2", note="요청 \"키\" 'q'")


def test_content_html_joins_body_and_sources_section_in_russian() -> None:
    rev = _revision([paragraph("Метод `POST`."), code_block("x < y", language="python")], [RFC, KO])
    label = Settings().sources_label("ru")
    assert label == "Проверяемые источники"
    assert content_html(rev, label, "ru") == (
        "<p>Метод <code>POST</code>.</p>\n"
        '<pre><code class="language-python">x &lt; y</code></pre>\n'
        "<h2>Проверяемые источники</h2>\n"
        '<ul><li><a href="https://www.rfc-editor.org/rfc/rfc9110.html" target="_blank" '
        'rel="noopener noreferrer">RFC 9110: HTTP Semantics</a>\u00a0— '
        "defines which methods are idempotent</li>"
        '<li><a href="https://example.org/ko?a=1&amp;b=2" target="_blank" rel="noopener noreferrer">'
        "재시도 &amp; &lt;안내&gt;</a>\u00a0— 요청 &quot;키&quot; &#039;q&#039;</li></ul>"
    )


@pytest.mark.parametrize(
    ("lang", "space"),
    [("ru", "\u00a0"), ("ru-RU", "\u00a0"), ("RU", "\u00a0"), ("en", " "), ("ko", " "), ("uk", " ")],
)
def test_the_space_before_a_sources_dash_follows_the_language(lang: str, space: str) -> None:
    """Russian keeps the dash on the title's line (a non-breaking space), with or without a
    region; every other language has the contract's ordinary space."""
    html = content_html(_revision([paragraph("x")], [RFC], lang=lang), "Sources", lang)
    assert f"RFC 9110: HTTP Semantics</a>{space}— defines" in html


def test_content_html_with_one_body_part_and_site_label() -> None:
    rev = _revision([heading("Intro")], [RFC], lang="en")
    assert content_html(rev, "Sources & notes", "en") == (
        "<h2>Intro</h2>\n<h2>Sources &amp; notes</h2>\n"
        '<ul><li><a href="https://www.rfc-editor.org/rfc/rfc9110.html" target="_blank" '
        'rel="noopener noreferrer">RFC 9110: HTTP Semantics</a> — '
        "defines which methods are idempotent</li></ul>"
    )


SITE_SETTINGS = """\
[tool.site_builder]
title = "Test site"
base_url = "https://example.org/"
language = "ru"
min_body_chars = 20
"""


def test_revisions_json_content_html_and_minutes(make_site: MakeSite, run_cli: RunCli) -> None:
    root = make_site(
        {
            "articles/first.py": """\
                from site_builder import Source, heading, paragraph, revision
                revisions = [revision(
                    slug="first-post", title="Первый", categories=["Заметки"], excerpt="…",
                    published="2024-01-02",
                    body=[paragraph("Достаточно слов для *маленького* лимита."), heading("Итог & вывод")],
                    sources=[Source(title="A", url="https://a.example/", note="a"),
                             Source(title="B", url="https://b.example/?x=1&y=2", note="b")],
                )]
            """
        },
        settings=SITE_SETTINGS,
    )
    result = run_cli(["revisions", "--root", str(root)])
    assert result.code == 0, result.err
    (rev,) = json.loads(result.out)
    assert rev["contentHtml"] == (
        "<p>Достаточно слов для <em>маленького</em> лимита.</p>\n<h2>Итог &amp; вывод</h2>\n"
        "<h2>Проверяемые источники</h2>\n"
        '<ul><li><a href="https://a.example/" target="_blank" rel="noopener noreferrer">A</a>\u00a0— a</li>'
        '<li><a href="https://b.example/?x=1&amp;y=2" target="_blank" rel="noopener noreferrer">'
        "B</a>\u00a0— b</li>"
        "</ul>"
    )
    assert rev["readingMinutes"] == 1
    assert rev["bodyChars"] == len("Достаточно слов для маленького лимита. Итог & вывод")


BODY_TEXT = [
    ("entity-decoded", "<p>a &amp; b</p>", "a & b"),
    ("tags-become-spaces", "<p>one</p><p>two</p>", "one two"),
    ("escaped-markup-decoded", "<p>&lt;script&gt; &#039;q&#039; &quot;</p>", "<script> 'q' \""),
    ("double-escaped-stays-once", "<p>&amp;amp;</p>", "&amp;"),
    (
        "whitespace-collapsed",
        "  <h2>Заголовок</h2>\n<pre><code>x = 1\n\n  y</code></pre>  ",
        "Заголовок x = 1 y",
    ),
    ("korean-tab", "<p> 한국어\t텍스트 </p>", "한국어 텍스트"),
    ("nbsp-is-whitespace", "<p>a&nbsp;&nbsp;b</p>", "a b"),
    ("attributes-dropped", '<p><a href="https://a.example/" title="t">link</a>!</p>', "link !"),
    ("empty", "", ""),
]


@pytest.mark.parametrize(("html", "expected"), [c[1:] for c in BODY_TEXT], ids=[c[0] for c in BODY_TEXT])
def test_body_text(html: str, expected: str) -> None:
    assert body_text(html) == expected


def _words(n: int, word: str = "слово") -> str:
    return " ".join([word] * n)


READING = [
    ("empty-is-one", "", 1),
    ("one-word", "word", 1),
    ("200-words", _words(200), 1),
    ("201-words-round-up", _words(201), 2),
    ("400-words", _words(400, "word"), 2),
    ("401-words", _words(401, "word"), 3),
    ("500-hangul", "가" * 500, 1),
    ("501-hangul", "가" * 501, 2),
    ("korean-words-count-characters", _words(200, "한국어"), 2),  # 600 syllables
    ("1000-cjk", "漢" * 1000, 2),
    ("1001-cjk", "漢" * 1001, 3),
    ("mixed-exact", _words(100) + " " + "가" * 250, 1),
    ("mixed-round-up", _words(100) + " " + "가" * 251, 2),
    ("mixed-in-one-token", _words(199) + " " + "word가나다", 2),
]


@pytest.mark.parametrize(("text", "expected"), [c[1:] for c in READING], ids=[c[0] for c in READING])
def test_reading_minutes(text: str, expected: int) -> None:
    assert reading_minutes(text) == expected


def test_reading_minutes_of_rendered_body() -> None:
    # 201 words split across two blocks: the tag between them must not glue two words into one.
    html = str(paragraph(_words(100))) + "\n" + str(paragraph(_words(101, "ещё")))
    assert reading_minutes(body_text(html)) == 2
