"""Hostile input for every helper and every text argument.

Whatever an author types reaches the page as text: the parsed output holds exactly the
elements and attributes the helper itself writes, and the visible text is the input.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

import bs4
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
    unordered_list,
    verified_output,
)
from site_builder.authoring.body import content_html


@fixture
def claims() -> dict[str, object]:
    return {"checks": {"ok": True}}


HOSTILE = {
    "script": "<script>alert(1)</script>",
    "img-onerror": "<img src=x onerror=alert(1)>",
    "double-quote-breakout": '" onmouseover="alert(1)',
    "single-quote-breakout": "' autofocus onfocus='alert(1)",
    "already-escaped": "&amp; &lt;b&gt; &#039;",
    "jinja-expression": "{{ 7*7 }}",
    "jinja-statement": "{% if %}x{% endif %}",
    "close-and-reopen": "</p></figcaption></td><p>",
    "comment": "<!-- hidden -->",
    "cdata-svg": "]]><svg onload=alert(1)>",
}

Elements = list[tuple[str, dict[str, str]]]


@dataclass(frozen=True)
class Slot:
    """One text argument of one helper, and what its output must parse to."""

    build: Callable[[str], Markup]
    elements: Callable[[str], Elements]
    """Every element of the output, in order, with all its attributes."""
    visible: Callable[[str], str]
    """The text a reader sees."""


def _fixed(*tags: str) -> Callable[[str], Elements]:
    return lambda _t: [(tag, {}) for tag in tags]


def _same(t: str) -> str:
    return t


TABLE_HEAD = [("div", {"class": "table-scroll"}), ("table", {}), ("caption", {}), ("thead", {}), ("tr", {})]
TH = ("th", {"scope": "col"})


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2)


SLOTS: dict[str, Slot] = {
    "paragraph.text": Slot(paragraph, _fixed("p"), _same),
    "heading.text": Slot(heading, _fixed("h2"), _same),
    "code_block.code": Slot(code_block, _fixed("pre", "code"), _same),
    "code_block.code-with-language": Slot(
        lambda t: code_block(t, language="html"),
        lambda _t: [("pre", {}), ("code", {"class": "language-html"})],
        _same,
    ),
    "figure.src": Slot(
        lambda t: figure(t, "Alt", "Caption"),
        lambda t: [
            ("figure", {}),
            ("img", {"src": t, "alt": "Alt", "loading": "lazy"}),
            ("figcaption", {}),
        ],
        lambda _t: "Caption",
    ),
    "figure.alt": Slot(
        lambda t: figure("/assets/a.svg", t, "Caption"),
        lambda t: [
            ("figure", {}),
            ("img", {"src": "/assets/a.svg", "alt": t, "loading": "lazy"}),
            ("figcaption", {}),
        ],
        lambda _t: "Caption",
    ),
    "figure.caption": Slot(
        lambda t: figure("/assets/a.svg", "Alt", t),
        lambda _t: [
            ("figure", {}),
            ("img", {"src": "/assets/a.svg", "alt": "Alt", "loading": "lazy"}),
            ("figcaption", {}),
        ],
        _same,
    ),
    "ordered_list.item": Slot(
        lambda t: ordered_list(["first", t]), _fixed("ol", "li", "li"), "first{}".format
    ),
    "unordered_list.item": Slot(lambda t: unordered_list([t]), _fixed("ul", "li"), _same),
    "data_table.caption": Slot(
        lambda t: data_table(t, ["H"], [["D"]]),
        lambda _t: [*TABLE_HEAD, TH, ("tbody", {}), ("tr", {}), ("td", {})],
        "{}HD".format,
    ),
    "data_table.header": Slot(
        lambda t: data_table("C", ["H", t], [["D", 1]]),
        lambda _t: [*TABLE_HEAD, TH, TH, ("tbody", {}), ("tr", {}), ("td", {}), ("td", {})],
        "CH{}D1".format,
    ),
    "data_table.cell": Slot(
        lambda t: data_table("C", ["H"], [[t]]),
        lambda _t: [*TABLE_HEAD, TH, ("tbody", {}), ("tr", {}), ("td", {})],
        "CH{}".format,
    ),
    "markdown.text": Slot(markdown, _fixed("p"), _same),
    "verified_output.value": Slot(
        lambda t: verified_output(claims, {"k": t}),
        lambda _t: [("pre", {}), ("code", {"class": "language-json"})],
        lambda t: _json({"k": t}),
    ),
    "verified_output.key": Slot(
        lambda t: verified_output(claims, {t: [t]}),
        lambda _t: [("pre", {}), ("code", {"class": "language-json"})],
        lambda t: _json({t: [t]}),
    ),
}


def parse(html: str) -> bs4.BeautifulSoup:
    # One string per attribute, so class="table-scroll" compares as written.
    return bs4.BeautifulSoup(html, "html.parser", multi_valued_attributes=None)


def elements(soup: bs4.BeautifulSoup) -> Elements:
    return [(el.name, dict(el.attrs)) for el in soup.find_all(True)]


def has_comment_or_cdata(soup: bs4.BeautifulSoup) -> bool:
    return any(isinstance(s, bs4.Comment | bs4.CData | bs4.Doctype) for s in soup.descendants)


@pytest.mark.parametrize("text", list(HOSTILE.values()), ids=list(HOSTILE))
@pytest.mark.parametrize("slot", list(SLOTS.values()), ids=list(SLOTS))
def test_hostile_text_stays_text(slot: Slot, text: str) -> None:
    html = str(slot.build(text))
    soup = parse(html)
    assert elements(soup) == slot.elements(text), html
    assert soup.get_text() == slot.visible(text), html
    assert not has_comment_or_cdata(soup), html


SOURCE_SLOTS: dict[str, Callable[[str], Source]] = {
    "source.title": lambda t: Source(title=t, url="https://a.example/", note="Note"),
    "source.note": lambda t: Source(title="Title", url="https://a.example/", note=t),
    "source.url": lambda t: Source(title="Title", url="https://a.example/?q=" + t, note="Note"),
}


def _content(source: Source, label: str = "Sources") -> str:
    rev = revision(
        slug="hostile",
        title="Hostile",
        categories=["Tests"],
        excerpt="x",
        published="2024-01-01",
        body=[paragraph("Body")],
        sources=[source],
    )
    return content_html(rev, label, "en")


@pytest.mark.parametrize("text", list(HOSTILE.values()), ids=list(HOSTILE))
@pytest.mark.parametrize("slot", list(SOURCE_SLOTS), ids=list(SOURCE_SLOTS))
def test_hostile_text_in_sources_section_stays_text(slot: str, text: str) -> None:
    source = SOURCE_SLOTS[slot](text)
    soup = parse(_content(source))
    link = {"href": source.url, "target": "_blank", "rel": "noopener noreferrer"}
    assert elements(soup) == [("p", {}), ("h2", {}), ("ul", {}), ("li", {}), ("a", link)]
    assert soup.a is not None
    assert soup.a.get_text() == source.title
    assert soup.li is not None
    assert soup.li.get_text() == f"{source.title} — {source.note}"


@pytest.mark.parametrize("text", list(HOSTILE.values()), ids=list(HOSTILE))
def test_a_hostile_quote_and_the_address_it_cites_stay_text(text: str) -> None:
    """The quote is the blockquote's text, whatever it holds; the source's address, whatever
    its query holds, is its ``cite`` as it was typed."""
    source = Source(title="Title", url="https://a.example/?q=" + text, note="Note", quote=text)
    soup = parse(_content(source))
    link = {"href": source.url, "target": "_blank", "rel": "noopener noreferrer"}
    shape = [("p", {}), ("h2", {}), ("ul", {}), ("li", {}), ("a", link), ("blockquote", {"cite": source.url})]
    assert elements(soup) == shape
    assert soup.blockquote is not None
    assert soup.blockquote.get_text() == text


@pytest.mark.parametrize("text", list(HOSTILE.values()), ids=list(HOSTILE))
def test_hostile_sources_label_stays_text(text: str) -> None:
    soup = parse(_content(Source(title="T", url="https://a.example/", note="N"), label=text))
    assert soup.h2 is not None
    assert soup.h2.get_text() == text
    assert [name for name, _ in elements(soup)] == ["p", "h2", "ul", "li", "a"]


SPELLING = [
    ("paragraph", lambda: paragraph("& < > \" '"), "<p>&amp; &lt; &gt; &quot; &#039;</p>"),
    ("heading", lambda: heading("& < > \" '"), "<h2>&amp; &lt; &gt; &quot; &#039;</h2>"),
    ("markdown", lambda: markdown("& < > \" '"), "<p>&amp; &lt; &gt; &quot; &#039;</p>"),
    ("code_block", lambda: code_block("& < > \" '"), "<pre><code>&amp; &lt; &gt; &quot; &#039;</code></pre>"),
    (
        "figure",
        lambda: figure("/assets/a.svg?x=1&y='2'", "& < > \" '", "& < > \" '"),
        '<figure><img src="/assets/a.svg?x=1&amp;y=&#039;2&#039;" alt="&amp; &lt; &gt; &quot; &#039;" '
        'loading="lazy" /><figcaption>&amp; &lt; &gt; &quot; &#039;</figcaption></figure>',
    ),
    ("ordered_list", lambda: ordered_list(["& < > \" '"]), "<ol><li>&amp; &lt; &gt; &quot; &#039;</li></ol>"),
    (
        "unordered_list",
        lambda: unordered_list(["& < > \" '"]),
        "<ul><li>&amp; &lt; &gt; &quot; &#039;</li></ul>",
    ),
    (
        "data_table",
        lambda: data_table("&", ["<"], [["\" '"]]),
        '<div class="table-scroll"><table><caption>&amp;</caption><thead><tr><th scope="col">&lt;</th>'
        "</tr></thead><tbody><tr><td>&quot; &#039;</td></tr></tbody></table></div>",
    ),
    (
        "verified_output",
        lambda: verified_output(claims, ["& < > ' >"]),
        '<pre><code class="language-json">[\n  &quot;&amp; &lt; &gt; &#039; &gt;&quot;\n]</code></pre>',
    ),
    (
        "markdown-link-title",
        lambda: markdown('[x](https://a.example/?a=1&b=2 "q \\" \' < &")'),
        '<p><a href="https://a.example/?a=1&amp;b=2" title="q &quot; &#039; &lt; &amp;">x</a></p>',
    ),
    (
        "markdown-image-alt",
        lambda: markdown('![a" onerror="alert(1)](/assets/a.svg)'),
        '<p><img src="/assets/a.svg" alt="a&quot; onerror=&quot;alert(1)" /></p>',
    ),
]


@pytest.mark.parametrize(("build", "expected"), [c[1:] for c in SPELLING], ids=[c[0] for c in SPELLING])
def test_escaping_spells_the_five_entities(build: Callable[[], Markup], expected: str) -> None:
    assert str(build()) == expected


ALREADY_ESCAPED = [
    ("paragraph", lambda: paragraph("&amp;"), "<p>&amp;amp;</p>"),
    ("heading", lambda: heading("&amp; &lt;"), "<h2>&amp;amp; &amp;lt;</h2>"),
    ("markdown", lambda: markdown("&amp; &copy; &#60;"), "<p>&amp;amp; &amp;copy; &amp;#60;</p>"),
    ("code_block", lambda: code_block("&amp;"), "<pre><code>&amp;amp;</code></pre>"),
    (
        "figure",
        lambda: figure("/assets/a.svg", "&amp;", "&amp;"),
        '<figure><img src="/assets/a.svg" alt="&amp;amp;" loading="lazy" />'
        "<figcaption>&amp;amp;</figcaption></figure>",
    ),
    ("ordered_list", lambda: ordered_list(["&amp;"]), "<ol><li>&amp;amp;</li></ol>"),
    ("unordered_list", lambda: unordered_list(["&quot;"]), "<ul><li>&amp;quot;</li></ul>"),
    (
        "data_table",
        lambda: data_table("&amp;", ["&lt;"], [["&#039;"]]),
        '<div class="table-scroll"><table><caption>&amp;amp;</caption><thead><tr><th scope="col">&amp;lt;'
        "</th></tr></thead><tbody><tr><td>&amp;#039;</td></tr></tbody></table></div>",
    ),
    (
        "verified_output",
        lambda: verified_output(claims, "&amp;"),
        '<pre><code class="language-json">&quot;&amp;amp;&quot;</code></pre>',
    ),
    ("inline-code", lambda: paragraph("`&amp;`"), "<p><code>&amp;amp;</code></p>"),
]


@pytest.mark.parametrize(
    ("build", "expected"), [c[1:] for c in ALREADY_ESCAPED], ids=[c[0] for c in ALREADY_ESCAPED]
)
def test_already_escaped_text_shows_literally(build: Callable[[], Markup], expected: str) -> None:
    assert str(build()) == expected


RAW_HTML_BLOCKS = [
    (
        "script-block",
        "<script>\nalert(1)\n</script>",
        "<p>&lt;script&gt;\nalert(1)\n&lt;/script&gt;</p>",
    ),
    (
        "div-block-with-markdown",
        '<div onclick="alert(1)">\n*hi*\n</div>',
        "<p>&lt;div onclick=&quot;alert(1)&quot;&gt;\n<em>hi</em>\n&lt;/div&gt;</p>",
    ),
    ("style-block", "<style>p{color:red}</style>", "<p>&lt;style&gt;p{color:red}&lt;/style&gt;</p>"),
    ("iframe", "<iframe src=//evil.example>", "<p>&lt;iframe src=//evil.example&gt;</p>"),
    ("comment-block", "<!-- hidden -->", "<p>&lt;!-- hidden --&gt;</p>"),
    ("processing-instruction", "<?php echo 1 ?>", "<p>&lt;?php echo 1 ?&gt;</p>"),
    ("cdata", "<![CDATA[x]]>", "<p>&lt;![CDATA[x]]&gt;</p>"),
    (
        "inline-html-in-paragraph",
        'a <span style="x">b</span> c',
        "<p>a &lt;span style=&quot;x&quot;&gt;b&lt;/span&gt; c</p>",
    ),
    (
        "html-between-paragraphs",
        "before\n\n<img src=x onerror=alert(1)>\n\nafter",
        "<p>before</p>\n<p>&lt;img src=x onerror=alert(1)&gt;</p>\n<p>after</p>",
    ),
    (
        "html-in-list-item",
        "- <b>x</b>\n- {{ 7*7 }}",
        "<ul>\n<li>&lt;b&gt;x&lt;/b&gt;</li>\n<li>{{ 7*7 }}</li>\n</ul>",
    ),
    (
        "html-in-fence",
        "```html\n<script>alert(1)</script>\n```",
        '<pre><code class="language-html">&lt;script&gt;alert(1)&lt;/script&gt;\n</code></pre>',
    ),
    (
        "fence-info-breakout",
        '```"><script>\nx\n```',
        '<pre><code class="language-&quot;&gt;&lt;script&gt;">x\n</code></pre>',
    ),
]


@pytest.mark.parametrize(
    ("text", "expected"), [c[1:] for c in RAW_HTML_BLOCKS], ids=[c[0] for c in RAW_HTML_BLOCKS]
)
def test_raw_html_in_markdown_is_text(text: str, expected: str) -> None:
    html = str(markdown(text))
    assert html == expected
    soup = parse(html)
    assert {name for name, _ in elements(soup)} <= {"p", "em", "ul", "li", "pre", "code"}
    assert not has_comment_or_cdata(soup)
    for _, attrs in elements(soup):
        assert set(attrs) <= {"class"}


def test_hostile_code_block_language_adds_no_attribute() -> None:
    block = code_block("x", language='py" onload="alert(1)')
    assert str(block) == "<pre><code>x</code></pre>"
    assert [f.rule for f in block.flaws] == ["code-language"]  # type: ignore[attr-defined]


TRUSTED = Markup('<b class="k">B &amp; C</b>')
VERBATIM = [
    ("paragraph", lambda: paragraph(TRUSTED), '<p><b class="k">B &amp; C</b></p>'),
    ("heading", lambda: heading(TRUSTED), '<h2><b class="k">B &amp; C</b></h2>'),
    (
        "figure.caption",
        lambda: figure("/assets/a.svg", "Alt", TRUSTED),
        '<figure><img src="/assets/a.svg" alt="Alt" loading="lazy" />'
        '<figcaption><b class="k">B &amp; C</b></figcaption></figure>',
    ),
    (
        "ordered_list",
        lambda: ordered_list([TRUSTED, "*x*"]),
        '<ol><li><b class="k">B &amp; C</b></li><li><em>x</em></li></ol>',
    ),
    ("unordered_list", lambda: unordered_list([TRUSTED]), '<ul><li><b class="k">B &amp; C</b></li></ul>'),
    (
        "data_table",
        lambda: data_table(TRUSTED, [TRUSTED], [[TRUSTED]]),
        '<div class="table-scroll"><table><caption><b class="k">B &amp; C</b></caption><thead><tr>'
        '<th scope="col"><b class="k">B &amp; C</b></th></tr></thead><tbody><tr>'
        '<td><b class="k">B &amp; C</b></td></tr></tbody></table></div>',
    ),
    ("markdown", lambda: markdown(Markup('<div class="k">raw</div>')), '<div class="k">raw</div>'),
]


@pytest.mark.parametrize(("build", "expected"), [c[1:] for c in VERBATIM], ids=[c[0] for c in VERBATIM])
def test_markup_is_inserted_verbatim(build: Callable[[], Markup], expected: str) -> None:
    assert str(build()) == expected


def test_markup_code_is_still_plain_text() -> None:
    # "code_block text ... plain text, escaped completely", whatever its type.
    assert str(code_block(Markup("<b>x</b>"))) == "<pre><code>&lt;b&gt;x&lt;/b&gt;</code></pre>"


@pytest.mark.parametrize(
    ("src", "alt"),
    [("/assets/a.svg?x=1&y=2", "Alt"), ("/assets/a.svg", "a & <b> 'q'")],
    ids=["src", "alt"],
)
def test_markup_attribute_value_is_not_double_escaped(src: str, alt: str) -> None:
    # Escaped as plain text or trusted as written, the reader must see the same value.
    soup = parse(str(figure(Markup(src), Markup(alt), "Caption")))
    assert elements(soup) == [
        ("figure", {}),
        ("img", {"src": src, "alt": alt, "loading": "lazy"}),
        ("figcaption", {}),
    ]


def test_markup_source_title_is_not_double_escaped() -> None:
    soup = parse(_content(Source(title=Markup("A & B"), url="https://a.example/", note=Markup("n & m"))))
    assert soup.li is not None
    assert soup.li.get_text() == "A & B — n & m"
