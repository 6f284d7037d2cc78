"""Hostile text, property by property: whatever Unicode an author types stays text.

Every helper and every template context is fed generated text full of markup
characters, template syntax, U+2028/U+2029, bidi controls and astral characters.
Parsed with html5lib (as a browser parses it), the output holds only the elements
and attributes the helper or template writes itself, plus the inline Markdown an
author may use, and the visible text is the input (modulo HTML's whitespace
collapsing). Feeds, the sitemap and the ``revisions`` JSON carry the same text.

The "no unexpected element" properties hold for ALL text; the "visible text" ones
use text whose ASCII punctuation is backslash-escaped (Markdown is live in helper
text) or compare against markdown-it's own plain rendering. Characters XML 1.0
forbids are a validation problem (tests/whole_site/test_hostile_vectors.py), so the build-level
properties leave them out.
"""

from __future__ import annotations

import contextlib
import functools
import io
import json
import re
import tempfile
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from pathlib import Path

import html5lib
import pytest
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markupsafe import Markup

from site_builder import (
    Source,
    cli,
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
from site_builder.authoring.escaping import NOT_XML
from site_builder.language.labels import labels_for
from site_builder.model.layout import category_url
from site_builder.model.url_policy import check_url
from site_builder.render.feeds import sitemap
from site_builder.render.highlight import highlight_code
from site_builder.render.items import items_from
from site_builder.render.pages import environment
from site_builder.render.proofs import proofs_of
from site_builder.render.revisions_json import dumps, revision_dict
from site_builder.settings.project import Settings
from tests.support.reference import atom_feed, render_pages

COVER_SVG = '<svg width="1" height="1"/>\n'
"""The cover of the generated site: any image with a size the build can read."""

# --- generated text ------------------------------------------------------------------

BIDI = "\u200e\u200f\u061c\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
PIECES = (
    *"<>&\"'",
    "{{",
    "}}",
    "{%",
    "%}",
    "{#",
    "#}",
    "{{ 7*7 }}",
    "{% raw %}",
    "{% endraw %}",
    "\u2028",
    "\u2029",
    *BIDI,
    "\u200b",
    "\ufeff",
    "\xa0",
    "\x85",
    "\u3000",
    "\U0001f600",
    "\U0001d11e",
    "\U00010348",
    "\U0010fffd",
    "\U000e0041",
    "&amp;",
    "&lt;b&gt;",
    "&#106;",
    "&#x3c;",
    "&colon;",
    "<script>",
    "</script>",
    "<!--",
    "-->",
    "]]>",
    "<![CDATA[",
    "<?xml",
    "javascript:alert(1)",
    " onerror=alert(1)",
    '" onmouseover="alert(1)',
    "' onfocus='alert(1)",
    "<img src=x>",
    "</p>",
    "</h2>",
    "</li>",
    "</td>",
    "</code></pre>",
    "<h2>",
    "\n",
    "\n\n",
    "\t",
    " ",
    "  \n",
    "\\",
    "`",
    "*",
    "**",
    "_",
    "[",
    "](",
    ")",
    "![",
    "<https://x.example/>",
    "<a@b.example>",
    "#",
    "- ",
    "1. ",
    "> ",
    "    ",
    "```",
    "|",
    "---",
)


def _text(characters: st.SearchStrategy[str], *, max_pieces: int = 10) -> st.SearchStrategy[str]:
    piece = st.one_of(st.sampled_from(PIECES), st.text(characters, max_size=6))
    return st.lists(piece, max_size=max_pieces).map("".join)


ANY_TEXT = _text(st.characters(exclude_categories=()))
"""Every code point, lone surrogates and the C0 controls included."""

XML_TEXT = _text(st.characters().filter(lambda c: NOT_XML.match(c) is None))
"""Every character an XML 1.0 document can carry (the others are a validation problem)."""

NONBLANK_XML_TEXT = XML_TEXT.filter(lambda s: bool(s.strip()))

MD_PUNCTUATION = re.compile(r"([!-/:-@\[-`{-~])")
HTML_SPACE = re.compile("[ \t\n\f\r]+")


def md_escape(text: str) -> str:
    """Backslash-escape every ASCII punctuation character: Markdown shows it literally."""
    return MD_PUNCTUATION.sub(r"\\\1", text)


def newlines(text: str) -> str:
    """What an HTML or XML parser makes of CR and CRLF: LF."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def collapsed(text: str) -> str:
    """Text as HTML shows it in a paragraph: ASCII whitespace runs are one space."""
    return HTML_SPACE.sub(" ", newlines(text)).strip(" ")


# --- parsing -------------------------------------------------------------------------

INLINE_MD: Mapping[str, frozenset[str]] = {
    "em": frozenset(),
    "strong": frozenset(),
    "code": frozenset(),
    "br": frozenset(),
    "a": frozenset({"href", "title"}),
    "img": frozenset({"src", "alt", "title"}),
}
"""What inline Markdown may legitimately make of author text."""

BLOCK_MD: Mapping[str, frozenset[str]] = {
    **INLINE_MD,
    **{tag: frozenset() for tag in ("p", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "li", "blockquote", "hr")},
    "ol": frozenset({"start"}),
    "pre": frozenset(),
    "code": frozenset({"class"}),
}
"""What a ``markdown()`` block may make of author text."""

BAD_SCHEME = re.compile(r"(?:javascript|vbscript|data):", re.IGNORECASE)
_URL_NOISE = re.compile("[\t\n\r]")
_C0_AND_SPACE = "".join(chr(c) for c in range(0x21))
URL_ATTRS = frozenset({"href", "src", "action", "formaction", "poster", "srcset", "xlink:href"})


def fragment(html: str) -> ET.Element:
    return html5lib.parseFragment(html, treebuilder="etree", namespaceHTMLElements=False)


def document(html: str) -> ET.Element:
    return html5lib.parse(html, treebuilder="etree", namespaceHTMLElements=False)


Ancestors = tuple[ET.Element, ...]


def walk(root: ET.Element, ancestors: Ancestors = ()) -> Iterator[tuple[ET.Element, Ancestors]]:
    """Every node below ``root`` in document order, with its ancestors."""
    for child in root:
        yield child, ancestors
        yield from walk(child, (*ancestors, child))


def text_of(element: ET.Element) -> str:
    return "".join(element.itertext())


def dangerous_url(value: str) -> bool:
    """A URL a browser would run or render as a document: javascript:, vbscript:, data:."""
    return BAD_SCHEME.match(_URL_NOISE.sub("", value.strip(_C0_AND_SPACE))) is not None


def assert_harmless(root: ET.Element, where: str, judged: Iterable[str] = ()) -> None:
    """No comment, no event handler anywhere below ``root``; a script URL only where validation sees it.

    ``judged`` are the URLs the helpers recorded: validation rejects a disallowed one, so
    it can appear in a helper's output but never in a built page.
    """
    # An HTML parser reads a NUL in an attribute value as U+FFFD (the HTML standard's
    # unexpected-null-character error); the URL it stands for is still the one judged.
    seen = {newlines(u).replace("\0", "\ufffd") for u in judged}
    for node, _ in walk(root):
        assert isinstance(node.tag, str), f"comment or processing instruction in {where!r}"
        for name, value in node.attrib.items():
            assert not name.lower().startswith("on"), f"event handler {name}= in {where!r}"
            if name.lower() in URL_ATTRS and dangerous_url(value):
                assert value in seen, f"{name}={value!r} in {where!r} is not a URL validation judges"
                assert check_url(value).error is not None, f"validation would accept {value!r}"


# --- helpers: nothing but the helper's own markup and inline Markdown -----------------

Attrs = Mapping[str, str | None]
"""Attribute name → value; None for a value that is the author's text."""
Allowed = Mapping[str, frozenset[str]]


@dataclass(frozen=True)
class Node:
    tag: str
    attrs: Attrs
    holds: Allowed | None = None
    """The Markdown this element's content may hold, when the content is author text."""


def check_markdown(parent: ET.Element, holds: Allowed, urls: Iterable[str], where: str) -> None:
    """Everything below ``parent`` is Markdown's own markup, and every URL is one validation judges."""
    seen = {newlines(u) for u in urls}
    for node, _ in walk(parent):
        assert isinstance(node.tag, str), f"comment in {where!r}"
        assert node.tag in holds, f"<{node.tag}> made from author text in {where!r}"
        assert set(node.attrib) <= holds[node.tag], f"<{node.tag} {node.attrib}> in {where!r}"
        for name in ("href", "src"):
            if name in node.attrib:
                assert node.attrib[name] in seen, f"{name}={node.attrib[name]!r} is not checked by validation"


def shape_check(root: ET.Element, skeleton: list[Node], urls: Iterable[str], where: str) -> list[ET.Element]:
    """Assert the helper's own elements, in order, with author text only where it belongs.

    Returns the helper's elements (author Markdown below them is checked, not returned).
    """
    found: list[ET.Element] = []

    def visit(parent: ET.Element) -> None:
        for child in parent:
            assert isinstance(child.tag, str), f"comment in {where!r}"
            assert len(found) < len(skeleton), f"unexpected <{child.tag}> in {where!r}"
            node = skeleton[len(found)]
            assert child.tag == node.tag, f"<{child.tag}> instead of <{node.tag}> in {where!r}"
            assert set(child.attrib) == set(node.attrs), f"<{child.tag} {child.attrib}> in {where!r}"
            for name, value in node.attrs.items():
                if value is not None:
                    assert child.attrib[name] == value, where
            found.append(child)
            if node.holds is None:
                visit(child)
            else:
                check_markdown(child, node.holds, urls, where)

    visit(root)
    assert len(found) == len(skeleton), f"missing elements in {where!r}"
    return found


@fixture
def claims() -> dict[str, object]:
    return {"checks": {"ok": True}}


@dataclass(frozen=True)
class Slot:
    """One text argument of one helper."""

    build: Callable[[str], Markup]
    skeleton: list[Node]
    shown: Callable[[list[ET.Element]], str]
    """The text a reader sees, read from the helper's elements."""
    expected: Callable[[str], str]
    """What that text must be, from the author's text."""
    markdown: bool = True
    """Whether the argument is inline Markdown (else plain text, escaped completely)."""


def _inline(tag: str, attrs: Attrs | None = None) -> Node:
    return Node(tag, attrs or {}, INLINE_MD)


def _plain(tag: str, attrs: Attrs | None = None) -> Node:
    return Node(tag, attrs or {})


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2)


def _text_at(index: int) -> Callable[[list[ET.Element]], str]:
    return lambda els: text_of(els[index])


def _attr_at(index: int, name: str) -> Callable[[list[ET.Element]], str]:
    return lambda els: els[index].attrib[name]


def _stripped(text: str) -> str:
    return newlines(text.strip())


TH = {"scope": "col"}
TWO_TD = [_inline("td"), _inline("td")]
TABLE_HEAD = [
    _plain("div", {"class": "table-scroll"}),
    _plain("table"),
    _inline("caption"),
    _plain("thead"),
    _plain("tr"),
]
IMG = {"src": "/assets/a.svg", "alt": "Alt", "loading": "lazy"}

SLOTS: dict[str, Slot] = {
    "paragraph": Slot(paragraph, [_inline("p")], _text_at(0), collapsed),
    "heading": Slot(heading, [_inline("h2")], _text_at(0), collapsed),
    "figure.caption": Slot(
        lambda t: figure("/assets/a.svg", "Alt", t),
        [_plain("figure"), _plain("img", IMG), _inline("figcaption")],
        _text_at(2),
        collapsed,
    ),
    "ordered_list.item": Slot(
        lambda t: ordered_list(["first", t]),
        [_plain("ol"), _inline("li"), _inline("li")],
        _text_at(2),
        collapsed,
    ),
    "unordered_list.item": Slot(
        lambda t: unordered_list([t]), [_plain("ul"), _inline("li")], _text_at(1), collapsed
    ),
    "data_table.caption": Slot(
        lambda t: data_table(t, ["H"], [["D"]]),
        [*TABLE_HEAD, _inline("th", TH), _plain("tbody"), _plain("tr"), _inline("td")],
        _text_at(2),
        collapsed,
    ),
    "data_table.header": Slot(
        lambda t: data_table("C", ["H", t], [["D", 1]]),
        [*TABLE_HEAD, _inline("th", TH), _inline("th", TH), _plain("tbody"), _plain("tr"), *TWO_TD],
        _text_at(6),
        collapsed,
    ),
    "data_table.cell": Slot(
        lambda t: data_table("C", ["H"], [[t]]),
        [*TABLE_HEAD, _inline("th", TH), _plain("tbody"), _plain("tr"), _inline("td")],
        _text_at(8),
        collapsed,
    ),
    "code_block": Slot(code_block, [_plain("pre"), _plain("code")], _text_at(1), _stripped, markdown=False),
    "code_block.language": Slot(
        lambda t: code_block(t, language="html"),
        [_plain("pre"), _plain("code", {"class": "language-html"})],
        _text_at(1),
        _stripped,
        markdown=False,
    ),
    "figure.alt": Slot(
        lambda t: figure("/assets/a.svg", t, "Caption"),
        [_plain("figure"), _plain("img", {**IMG, "alt": None}), _plain("figcaption")],
        _attr_at(1, "alt"),
        newlines,
        markdown=False,
    ),
    "figure.src": Slot(
        lambda t: figure(t, "Alt", "Caption"),
        [_plain("figure"), _plain("img", {**IMG, "src": None}), _plain("figcaption")],
        _attr_at(1, "src"),
        lambda t: newlines(t) if t.strip() else "",  # a blank src is a flaw, written as ""
        markdown=False,
    ),
    "verified_output.value": Slot(
        lambda t: verified_output(claims, {"k": t}),
        [_plain("pre"), _plain("code", {"class": "language-json"})],
        _text_at(1),
        lambda t: _json({"k": t}),
        markdown=False,
    ),
    "verified_output.key": Slot(
        lambda t: verified_output(claims, {t: [t]}),
        [_plain("pre"), _plain("code", {"class": "language-json"})],
        _text_at(1),
        lambda t: _json({t: [t]}),
        markdown=False,
    ),
}

HELPER_SETTINGS = settings(max_examples=60, deadline=None, database=None)


@pytest.mark.parametrize("name", list(SLOTS))
@HELPER_SETTINGS
@given(text=ANY_TEXT)
def test_helper_output_holds_only_its_own_markup(name: str, text: str) -> None:
    slot = SLOTS[name]
    block = slot.build(text)
    html = str(block)
    root = fragment(html)
    shape_check(root, slot.skeleton, block.urls, html)  # type: ignore[attr-defined]
    assert_harmless(root, html, block.urls)  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", list(SLOTS))
@HELPER_SETTINGS
@given(text=XML_TEXT)
def test_helper_visible_text_is_the_input(name: str, text: str) -> None:
    slot = SLOTS[name]
    block = slot.build(md_escape(text) if slot.markdown else text)
    html = str(block)
    root = fragment(html)
    found = shape_check(root, slot.skeleton, block.urls, html)  # type: ignore[attr-defined]
    # Escaped punctuation makes no markup: at most the line breaks "  \n" asks for.
    made = [n.tag for n, _ in walk(root) if n.tag != "br"]
    assert made == [n.tag for n in slot.skeleton], html
    shown, expected = slot.shown(found), slot.expected(text)
    assert (collapsed(shown) if slot.markdown else shown) == expected, html
    for literal in ("{{ 7*7 }}", "{% raw %}", "&lt;b&gt;", "&amp;", "\u2028", "\u202e", "\U0001f600"):
        if literal in expected:
            assert literal in shown, (literal, html)


SOURCE_SKELETON = [
    _plain("p"),
    _plain("h2"),
    _plain("ul"),
    _plain("li"),
    _plain("a", {"href": None, "target": "_blank", "rel": "noopener noreferrer"}),
]
SOURCE_URL = "https://a.example/"
OTHER_SOURCE_URL = "https://b.example/"


def _content(title: str = "Title", note: str = "Note", url: str = SOURCE_URL, label: str = "Sources") -> str:
    rev = revision(
        slug="hostile",
        title="Hostile",
        categories=["Tests"],
        excerpt="x",
        published="2024-01-02",
        body=[paragraph("Body")],
        sources=[Source(title=title, url=url, note=note)],
    )
    return content_html(rev, label, "en")


@pytest.mark.parametrize("field", ["title", "note", "url", "label"])
@HELPER_SETTINGS
@given(text=ANY_TEXT)
def test_sources_section_holds_only_its_own_markup(field: str, text: str) -> None:
    value = SOURCE_URL + "?q=" + text if field == "url" else text
    html = _content(**{field: value})
    root = fragment(html)
    found = shape_check(root, SOURCE_SKELETON, (), html)
    assert_harmless(root, html, [found[4].attrib["href"]])


@HELPER_SETTINGS
@given(title=XML_TEXT, note=XML_TEXT, label=XML_TEXT, query=XML_TEXT)
def test_sources_section_shows_the_text(title: str, note: str, label: str, query: str) -> None:
    url = f"{SOURCE_URL}?q={query}"
    html = _content(title=title, note=note, url=url, label=label)
    found = shape_check(fragment(html), SOURCE_SKELETON, (), html)
    assert text_of(found[1]) == newlines(label)
    assert text_of(found[4]) == newlines(title)
    assert found[4].attrib["href"] == newlines(url)
    assert text_of(found[3]) == newlines(f"{title} — {note}")


@HELPER_SETTINGS
@given(text=ANY_TEXT)
def test_markdown_block_holds_only_markdown(text: str) -> None:
    block = markdown(text)
    html = str(block)
    root = fragment(html)
    check_markdown(root, BLOCK_MD, block.urls, html)  # type: ignore[attr-defined]
    assert_harmless(root, html, block.urls)  # type: ignore[attr-defined]


def _reference() -> MarkdownIt:
    """markdown-it's own renderer and escaping, raw HTML off, every link kept."""
    md = MarkdownIt("commonmark", {"html": False})
    md.validateLink = lambda url: True  # type: ignore[method-assign]
    return md.disable("entity")


REFERENCE = _reference()


def outline(root: ET.Element) -> list[object]:
    """A comparable picture of a parsed fragment: tags, attributes, text and comments."""
    return [
        root.text or "",
        *([str(c.tag), sorted(c.attrib.items()), outline(c), c.tail or ""] for c in root),
    ]


@HELPER_SETTINGS
@given(text=ANY_TEXT)
def test_inline_markdown_parses_like_markdown_its_own_rendering(text: str) -> None:
    ours = fragment(str(paragraph(text)))
    theirs = fragment("<p>" + REFERENCE.renderInline(text) + "</p>")
    assert outline(ours) == outline(theirs)


@HELPER_SETTINGS
@given(text=ANY_TEXT)
def test_block_markdown_parses_like_markdown_its_own_rendering(text: str) -> None:
    ours = fragment(str(markdown(text)))
    theirs = fragment(REFERENCE.render(text).rstrip("\n"))
    assert outline(ours) == outline(theirs)


LANGUAGES = ("python", "html", "json", "sql", "bash", "text")


@HELPER_SETTINGS
@given(text=XML_TEXT, language=st.sampled_from(LANGUAGES))
@example(text="\ufeffx = 1", language="python")  # Pygments drops a leading U+FEFF
@example(text="\ufeff\ufeff", language="python")  # and, in some versions, every leading one
def test_highlighted_code_on_the_page_is_the_code(text: str, language: str) -> None:
    # contentHtml keeps code_block's markup; the page highlights it with Pygments tokens.
    html = highlight_code(str(code_block(text, language=language)))
    root = fragment(html)
    benign = fragment(highlight_code(str(code_block("x", language=language))))
    outer = [(n.tag, dict(n.attrib)) for n, a in walk(root) if not a or a[-1].tag != "code"]
    assert outer == [(n.tag, dict(n.attrib)) for n, a in walk(benign) if not a or a[-1].tag != "code"], html
    (code,) = [n for n, _ in walk(root) if n.tag == "code"]
    for node, _ in walk(code):
        assert (node.tag, set(node.attrib)) == ("span", {"class"}), html
    assert_harmless(root, html)
    assert text_of(code) == _stripped(text), html


# --- templates: every page of a site made of generated text ------------------------------

SLOW = settings(
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
    # Each example renders or builds a site: a failure is reported as generated, unshrunk.
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
)

BASE_URL = "https://example.org/"
NO_SITE_TEMPLATES = Path(__file__).parent / "no-site-templates-here"
"""The root given to ``environment``: no templates/ folder there, so the package's templates render."""
ARTICLE = "articles/hostile-article/index.html"
ATOM = "{http://www.w3.org/2005/Atom}"
THEME_SCRIPT_SRC = "/pagefind/pagefind-ui.js"
SEARCH_SCRIPT_SRC = "/pagefind/site-search.js"


@dataclass(frozen=True)
class Texts:
    """Everything an author and the settings can put on the pages."""

    site_title: str
    description: str
    sources_label: str
    title: str
    excerpt: str
    categories: tuple[str, ...]
    headings: tuple[tuple[str, bool], ...]
    """Heading text and whether it is backslash-escaped (shown literally) or raw Markdown."""
    paragraph: str
    code: str
    source_title: str
    source_note: str

    def benign(self) -> Texts:
        """The same site with harmless text: the same fields empty, the same structure."""

        def twin(value: str, name: str) -> str:
            return value and name

        return Texts(
            site_title=twin(self.site_title, "Site"),
            description=twin(self.description, "About the site"),
            sources_label=twin(self.sources_label, "Reading"),
            title=twin(self.title, "Title"),
            excerpt=twin(self.excerpt, "Excerpt"),
            categories=tuple(f"Category {n}" for n, _ in enumerate(self.categories)),
            headings=tuple((f"Heading {n}", True) for n, _ in enumerate(self.headings)),
            paragraph=twin(self.paragraph, "Paragraph"),
            code="x = 1" if self.code.strip() else "",
            source_title=twin(self.source_title, "Source"),
            source_note=twin(self.source_note, "Note"),
        )

    def escaped_headings(self) -> Texts:
        return replace(self, headings=tuple((h, True) for h, _ in self.headings))


@st.composite
def site_texts(draw: st.DrawFn, text: st.SearchStrategy[str] = XML_TEXT) -> Texts:
    nonblank = text.filter(lambda s: bool(s.strip()))
    return Texts(
        site_title=draw(nonblank),
        description=draw(text),
        sources_label=draw(text),
        title=draw(text),
        excerpt=draw(text),
        categories=tuple(draw(st.lists(nonblank, min_size=1, max_size=3, unique_by=category_url))),
        headings=tuple(draw(st.lists(st.tuples(text, st.booleans()), max_size=3))),
        paragraph=draw(text),
        code=draw(text),
        source_title=draw(text),
        source_note=draw(text),
    )


@dataclass(frozen=True)
class Rendered:
    pages: dict[str, str]
    feed: str
    sitemap: str
    json: str
    judged: tuple[str, ...]
    """Every URL validation would check: cover, helpers' links and images, sources."""


def render(texts: Texts) -> Rendered:
    body = [
        paragraph("Enough words to pass the tiny limit of this test site."),
        *(heading(md_escape(h) if escaped else h) for h, escaped in texts.headings),
        paragraph(md_escape(texts.paragraph)),
        code_block(texts.code, language="python"),
    ]
    rev = revision(
        slug="hostile-article",
        title=texts.title,
        categories=list(texts.categories),
        excerpt=texts.excerpt,
        cover="/assets/cover.svg",
        published="2024-01-02",
        body=body,
        sources=[
            Source(title="B", url=OTHER_SOURCE_URL, note="b"),
            Source(title=texts.source_title, url=SOURCE_URL, note=texts.source_note),
        ],
    )
    site = Settings(
        title=texts.site_title,
        base_url=BASE_URL,
        description=texts.description,
        sources_heading={"en": texts.sources_label} if texts.sources_label.strip() else {},
    )
    data = [revision_dict(rev, "batch", site)]
    # The cover's size, as the build measures it from assets/cover.svg (site_files).
    cover = (("/assets/cover.svg", 1, 1),)
    items = [replace(item, images=cover) for item in items_from(data, [proofs_of(NO_SITE_TEMPLATES, rev)])]
    pages = render_pages(environment(NO_SITE_TEMPLATES), site, items)
    judged = ("/assets/cover.svg", OTHER_SOURCE_URL, SOURCE_URL, *(u for b in body for u in b.urls))  # type: ignore[attr-defined]
    return Rendered(pages, atom_feed(site, items), sitemap(site, items), dumps(data, 2), judged)


def _classes(node: ET.Element) -> set[str]:
    return set(node.attrib.get("class", "").split())


def page_shape(root: ET.Element) -> list[tuple[str, tuple[str, ...]]]:
    """Tags and attribute names in order; author Markdown in headings and highlighting checked apart."""
    shape = []
    for node, ancestors in walk(root):
        tags = [a.tag for a in ancestors]
        if not isinstance(node.tag, str):
            shape.append(("#comment", ()))
        elif (node.tag, node.attrib) == ("br", {}):
            continue  # the hard line break an author asks for with "  \n" in any Markdown text
        elif "h2" in tags and (tags[0] != "html" or any("article-body" in _classes(a) for a in ancestors)):
            # An article heading's inline Markdown (a page's, or contentHtml's, which has no wrapper).
            assert node.tag in INLINE_MD and set(node.attrib) <= INLINE_MD[node.tag], node.tag
        elif "pre" in tags and "code" in tags:
            assert (node.tag, set(node.attrib)) == ("span", {"class"}), node.tag  # Pygments tokens
        else:
            shape.append((node.tag, tuple(sorted(node.attrib))))
    return shape


def scripts(root: ET.Element) -> list[tuple[str | None, str]]:
    """The page's scripts but its JSON-LD data (:func:`json_ld`)."""
    return [
        (n.attrib.get("src"), n.text or "")
        for n, _ in walk(root)
        if n.tag == "script" and n.attrib.get("type") != "application/ld+json"
    ]


def json_ld(root: ET.Element) -> list[object]:
    """The JSON-LD data of a page, parsed: nothing an author typed may end its script early."""
    return [json.loads(n.text or "") for n, _ in walk(root) if n.attrib.get("type") == "application/ld+json"]


def find(root: ET.Element, tag: str, cls: str | None = None, **attrs: str) -> list[ET.Element]:
    """Elements below ``root`` by tag, class and attributes (``data_x`` spells ``data-x``)."""
    return [
        n
        for n, _ in walk(root)
        if n.tag == tag
        and (cls is None or cls in _classes(n))
        and all(n.attrib.get(k.replace("_", "-")) == v for k, v in attrs.items())
    ]


def one(root: ET.Element, tag: str, cls: str | None = None, **attrs: str) -> ET.Element:
    found = find(root, tag, cls, **attrs)
    assert len(found) == 1, (tag, cls, attrs, len(found))
    return found[0]


def check_pages(texts: Texts, got: Rendered, twin: Rendered) -> None:
    """Every page against its harmless twin, then the author's text where the page shows it."""
    assert len(got.pages) == len(twin.pages)
    parsed = {path: document(html) for path, html in got.pages.items()}
    theme_scripts = scripts(document(twin.pages["404.html"]))
    assert [src for src, _ in theme_scripts] == [THEME_SCRIPT_SRC, SEARCH_SCRIPT_SRC]
    for (path, root), twin_html in zip(parsed.items(), twin.pages.values(), strict=True):
        assert page_shape(root) == page_shape(document(twin_html)), path
        assert_harmless(root, path, got.judged)
        assert scripts(root) == theme_scripts, path  # only the theme's two; no text escaped into them

    site_title, title = newlines(texts.site_title), newlines(texts.title)
    footer = site_title + (f" — {newlines(texts.description)}" if texts.description else "")
    cats = [newlines(c) for c in texts.categories]
    for path, root in parsed.items():
        assert text_of(one(root, "a", "site-title")) == site_title, path
        assert text_of(one(one(root, "footer", "site-footer"), "p")) == footer, path
        assert one(root, "link", None, rel="alternate").attrib["title"] == site_title, path

    page = parsed[ARTICLE]
    [data] = json_ld(page)
    assert (data["headline"], data["description"]) == (texts.title, texts.excerpt)  # type: ignore[index]
    assert text_of(one(page, "title")) == f"{title} — {site_title}"
    assert text_of(one(page, "h1")) == title
    assert one(page, "meta", None, name="description").attrib["content"] == newlines(texts.excerpt)
    assert one(page, "img", "cover").attrib["alt"] == title
    assert [text_of(a) for a in find(page, "a", "tag")] == cats
    searchable = one(page, "article", None, data_pagefind_body="")
    assert text_of(one(searchable, "h1", None, data_pagefind_meta="title")) == title
    body = one(searchable, "div", "article-body")
    h2s = [n for n, _ in walk(body) if n.tag == "h2"]
    assert len(h2s) == len(texts.headings) + 1
    toc = [text_of(a) for a in find(one(page, "nav", "toc"), "a")]
    assert len(toc) == len(h2s)
    for (text, escaped), shown, entry in zip(texts.headings, h2s, toc, strict=False):
        check_markdown(shown, INLINE_MD, got.judged, ARTICLE)
        if escaped:
            assert collapsed(text_of(shown)) == collapsed(text)
            assert entry == re.sub(r"\s+", " ", newlines(text)).strip()
    label = texts.sources_label if texts.sources_label.strip() else "Sources"
    assert text_of(h2s[-1]) == newlines(label)
    paragraphs = [n for n, _ in walk(body) if n.tag == "p"]
    assert collapsed(text_of(paragraphs[1])) == collapsed(texts.paragraph)
    assert text_of(one(body, "code", "language-python")) == _stripped(texts.code)
    assert text_of(find(body, "a", None, target="_blank")[-1]) == newlines(texts.source_title)
    items = [n for n, _ in walk(body) if n.tag == "li"]
    assert text_of(items[-1]) == newlines(f"{texts.source_title} — {texts.source_note}")

    index = parsed["index.html"]
    assert text_of(one(index, "h1", "page-title")) == site_title
    if texts.description:
        assert text_of(one(index, "p", "lead")) == newlines(texts.description)
    card = one(index, "li", "card")
    assert text_of(one(card, "h2", "card-title")) == title
    assert one(card, "img", "card-cover").attrib["alt"] == title
    assert text_of(one(card, "p", "excerpt")) == newlines(texts.excerpt)
    assert [text_of(a) for a in find(card, "a", "tag")] == cats

    listing = one(parsed["categories/index.html"], "ul", "category-list")
    order = [newlines(c) for c in sorted(texts.categories, key=str.casefold)]
    assert [text_of(a) for a in find(listing, "a")] == order
    word = labels_for("en", {}).category
    shown_categories = sorted(
        text_of(one(root, "h1", "page-title"))
        for path, root in parsed.items()
        if path.startswith("categories/") and path.count("/") == 2
    )
    assert shown_categories == sorted(f"{word}: {c}" for c in cats)
    assert text_of(one(parsed["404.html"], "title")) == f"{labels_for('en', {}).not_found} — {site_title}"


def check_machine_files(texts: Texts, got: Rendered, twin: Rendered) -> None:
    """Feed and sitemap parse as XML and carry the text; the JSON carries it verbatim."""
    feed = ET.fromstring(got.feed.encode("utf-8"))
    assert feed.findtext(f"{ATOM}title") == newlines(texts.site_title)
    if texts.description:
        assert feed.findtext(f"{ATOM}subtitle") == newlines(texts.description)
    entry = feed.find(f"{ATOM}entry")
    assert entry is not None
    assert entry.findtext(f"{ATOM}title") == newlines(texts.title)
    assert entry.findtext(f"{ATOM}summary") == newlines(texts.excerpt)
    assert [c.get("term") for c in entry.findall(f"{ATOM}category")] == list(texts.categories)
    locs = [e.text or "" for e in ET.fromstring(got.sitemap.encode("utf-8")).iter() if e.tag.endswith("loc")]
    assert locs and all(loc.startswith(BASE_URL) and loc.isascii() for loc in locs)

    (data,) = json.loads(got.json)
    assert data["title"] == texts.title
    assert data["excerpt"] == texts.excerpt
    assert data["categories"] == list(texts.categories)
    assert data["sources"][-1]["title"] == texts.source_title
    assert data["sources"][-1]["note"] == texts.source_note
    assert entry.findtext(f"{ATOM}content") == newlines(data["contentHtml"])
    content = fragment(data["contentHtml"])
    assert_harmless(content, "contentHtml", got.judged)
    (twin_data,) = json.loads(twin.json)
    assert page_shape(content) == page_shape(fragment(twin_data["contentHtml"]))


@settings(SLOW, max_examples=50)
@given(texts=site_texts())
def test_every_page_feed_and_json_show_generated_text_as_text(texts: Texts) -> None:
    got, twin = render(texts), render(texts.benign())
    check_pages(texts, got, twin)
    check_machine_files(texts, got, twin)


# --- a full build of a generated site ------------------------------------------------------


def toml_string(text: str) -> str:
    """A TOML basic string: controls and DEL as \\uXXXX, quotes and backslashes escaped."""
    out = []
    for char in text:
        if char in '"\\':
            out.append("\\" + char)
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04X}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def site_files(texts: Texts) -> dict[str, str]:
    """A site root's files: settings, one batch with one revision, the cover."""
    settings_text = (
        "[tool.site_builder]\n"
        f"title = {toml_string(texts.site_title)}\n"
        f'base_url = "{BASE_URL}"\n'
        'language = "en"\n'
        f"description = {toml_string(texts.description)}\n"
        "min_body_chars = 20\n"
        "fixture_timeout = 2\n"
    )
    if texts.sources_label.strip():
        settings_text += f"sources_heading = {{ en = {toml_string(texts.sources_label)} }}\n"
    headings = "".join(f"          heading({md_escape(h)!r}),\n" for h, _ in texts.headings)
    sources = [
        f"Source(title='B', url={OTHER_SOURCE_URL!r}, note='b')",
        f"Source(title={texts.source_title!r}, url={SOURCE_URL!r}, note={texts.source_note!r})",
    ]
    batch = (
        "from site_builder import Source, code_block, heading, paragraph, revision\n\n"
        "revisions = [revision(\n"
        f"    slug='hostile-article', title={texts.title!r}, categories={list(texts.categories)!r},\n"
        f"    excerpt={texts.excerpt!r}, published='2024-01-02', cover='/assets/cover.svg',\n"
        "    body=[paragraph('Enough words to pass the tiny limit of this test site.'),\n"
        f"{headings}"
        f"          paragraph({md_escape(texts.paragraph)!r}),\n"
        f"          code_block({texts.code!r}, language='python')],\n"
        f"    sources=[{', '.join(sources)}],\n"
        ")]\n"
    )
    return {"pyproject.toml": settings_text, "articles/hostile.py": batch, "assets/cover.svg": COVER_SVG}


def build_site(files: Mapping[str, str], folder: Path) -> tuple[int, str, Path]:
    """Write the site under ``folder`` and run ``site-builder build`` on it."""
    root = folder / "site"
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text, "utf-8")
    err, out = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        code = cli.main(["build", "--root", str(root), "--jobs", "1"])
    return code, err.getvalue(), root / "build"


@functools.cache
def template_shapes() -> frozenset[tuple[str, tuple[str, ...]]]:
    """Every (tag, attribute names) on the pages of a benign build: what the templates produce."""
    texts = Texts(
        "Site", "About", "Read", "Title", "Excerpt", ("Cat",), (("Intro", True),), "P", "x = 1", "S", "N"
    )
    with tempfile.TemporaryDirectory() as folder:
        code, err, out = build_site(site_files(texts), Path(folder))
        assert code == 0, err
        return frozenset(
            s for p in out.rglob("*.html") for s in page_shape(document(p.read_bytes().decode("utf-8")))
        )


@settings(SLOW, max_examples=10)
@given(texts=site_texts(NONBLANK_XML_TEXT).map(Texts.escaped_headings))
def test_full_build_of_a_generated_site_keeps_every_text_as_text(texts: Texts) -> None:
    allowed = template_shapes()
    expected = render(texts)
    with tempfile.TemporaryDirectory() as folder:
        code, err, out = build_site(site_files(texts), Path(folder))
        assert code == 0, err
        pages = {p.relative_to(out).as_posix(): p.read_bytes().decode("utf-8") for p in out.rglob("*.html")}
        assert pages == expected.pages  # the same pages check_pages judges, written as rendered
        for path, html in pages.items():
            root = document(html)
            assert set(page_shape(root)) <= allowed, path
            assert_harmless(root, path)  # validated: not one script URL on any page
        check_pages(texts, expected, render(texts.benign()))
        feed = ET.parse(out / "feed.xml").getroot()
        assert feed.findtext(f"{ATOM}title") == newlines(texts.site_title)
        ET.parse(out / "sitemap.xml")
        (data,) = json.loads((out / "revisions.json").read_text("utf-8"))
        assert (data["title"], data["excerpt"]) == (texts.title, texts.excerpt)
        assert data["categories"] == list(texts.categories)
        assert data["sources"][-1] == {
            "title": texts.source_title,
            "url": SOURCE_URL,
            "note": texts.source_note,
        }
