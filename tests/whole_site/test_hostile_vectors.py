"""Known filter-evasion vectors in every field, hostile URLs in every URL place, hostile paths.

The vectors are the classic OWASP XSS filter evasion cheat sheet plus template and
escaping traps. All of them go into every field a revision and the settings have; one
``site-builder build`` of the whole site is then read back page by page (html5lib),
with its feed, sitemap, search-index input and ``revisions.json``. Vectors that must
fail validation (a ``javascript:`` link, say) are built apart and must stop the build.
"""

from __future__ import annotations

import contextlib
import gzip
import io
import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from site_builder import cli, paragraph
from tests.authoring.test_hostile_properties import (
    ATOM,
    COVER_SVG,
    REFERENCE,
    SEARCH_SCRIPT_SRC,
    THEME_SCRIPT_SRC,
    assert_harmless,
    collapsed,
    document,
    find,
    fragment,
    json_ld,
    newlines,
    one,
    page_shape,
    scripts,
    text_of,
    toml_string,
    walk,
)
from tests.support.reference import load_site, validate
from tests.support.sites import HEADER, SETTINGS, MakeSite, RunCli

# --- the vectors ---------------------------------------------------------------------------

VECTORS: tuple[str, ...] = (
    "<script>alert(1)</script>",
    "<SCRIPT SRC=http://xss.rocks/xss.js></SCRIPT>",
    "<IMG SRC=\"javascript:alert('XSS');\">",
    "<IMG SRC=javascript:alert('XSS')>",
    "<IMG SRC=JaVaScRiPt:alert('XSS')>",
    "<IMG SRC=&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;&#97;&#108;&#101;&#114;&#116;"
    "&#40;&#39;&#88;&#83;&#83;&#39;&#41;>",
    "<IMG SRC=&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116"
    "&#0000058&#0000097&#0000108&#0000101&#0000114&#0000116&#0000040&#0000039&#0000088&#0000083&#0000083"
    "&#0000039&#0000041>",
    "<IMG SRC=&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A&#x61&#x6C&#x65&#x72&#x74&#x28&#x27"
    "&#x58&#x53&#x53&#x27&#x29>",
    "<IMG SRC=\"jav\tascript:alert('XSS');\">",
    "<IMG SRC=\"jav&#x09;ascript:alert('XSS');\">",
    "<IMG SRC=\"jav&#x0A;ascript:alert('XSS');\">",
    "<IMG SRC=\" &#14;  javascript:alert('XSS');\">",
    '<SCRIPT/XSS SRC="http://xss.rocks/xss.js"></SCRIPT>',
    '<BODY onload!#$%&()*~+-_.,:;?@[/|\\]^`=alert("XSS")>',
    '<SCRIPT/SRC="http://xss.rocks/xss.js"></SCRIPT>',
    '<<SCRIPT>alert("XSS");//<</SCRIPT>',
    "<SCRIPT SRC=http://xss.rocks/xss.js?< B >",
    "<SCRIPT SRC=//xss.rocks/.j>",
    "<iframe src=http://xss.rocks/scriptlet.html <",
    "\\\";alert('XSS');//",
    '</TITLE><SCRIPT>alert("XSS");</SCRIPT>',
    '<INPUT TYPE="IMAGE" SRC="javascript:alert(\'XSS\');">',
    "<BODY BACKGROUND=\"javascript:alert('XSS')\">",
    "<IMG DYNSRC=\"javascript:alert('XSS')\">",
    "<STYLE>li {list-style-image: url(\"javascript:alert('XSS')\");}</STYLE><UL><LI>XSS</br>",
    "<svg/onload=alert(1)>",
    '"><script>alert(1)</script>',
    "'';!--\"<XSS>=&{()}",
    "</script><script>alert(1)</script>",
    "]]><script>alert(1)</script>",
    "<!--",
    "<!--[if gte IE 4]><SCRIPT>alert('XSS');</SCRIPT><![endif]-->",
    "{{ 7*7 }}",
    "{% raw %}",
    "{{ config.items() }}{{ self }}{{ request|attr('application') }}",
    "{% for x in range(3) %}{{ x }}{% endfor %}",
    "{# comment #}",
    "&lt;b&gt;",
    '<a href="data:text/html;base64,PHNjcmlwdD4=">x</a>',
    '<META HTTP-EQUIV="refresh" CONTENT="0;url=javascript:alert(\'XSS\');">',
    "<TABLE BACKGROUND=\"javascript:alert('XSS')\">",
    "<DIV STYLE=\"background-image: url(javascript:alert('XSS'))\">",
    "<DIV STYLE=\"width: expression(alert('XSS'));\">",
    "<BASE HREF=\"javascript:alert('XSS');//\">",
    '<OBJECT TYPE="text/x-scriptlet" DATA="http://xss.rocks/scriptlet.html"></OBJECT>',
    '<EMBED SRC="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+" type="image/svg+xml">',
    '<math><mi xlink:href="javascript:alert(1)">x</mi></math>',
    '<a onmouseover="alert(document.cookie)">xxs link</a>',
    '<IMG """><SCRIPT>alert("XSS")</SCRIPT>"\\>',
    '<IMG SRC=/ onerror="alert(String.fromCharCode(88,83,83))"></img>',
    "<scr<script>ipt>alert(1)</scr</script>ipt>",
    '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
    "<form><button formaction=javascript:alert(1)>X</button></form>",
    "<![CDATA[<script>alert(1)</script>]]>",
    '<?xml version="1.0"?><x/>',
    "&{alert('XSS')};",
    '<xss:script xmlns:xss="http://www.w3.org/1999/xhtml">alert(1)</xss:script>',
    "\u2028</script>\u2029<script>alert(1)</script>",
    "\u202e<script>alert(1)</script>\u202c \u2066\u2067\u2069",
    "<x onclick=alert(1)>\U0001f600 click \U0001d11e</x>",
    "&amp; &#039; &quot; &#x3C;script&#x3E;",
)

LINK_VECTORS: tuple[str, ...] = (
    "[x](javascript:alert(1))",
    "[x](JaVaScRiPt:alert(1))",
    "[x](&#106;avascript:alert(1))",
    "[x](&#x6A;avascript:alert(1))",
    "[x](javascript&colon;alert(1))",
    "[x](javascript&#58;alert(1))",
    "[x]( javascript:alert(1) )",
    "[x](<javascript:alert(1)>)",
    "[x](<java\tscript:alert(1)>)",
    "![x](javascript:alert(1))",
    "<javascript:alert(1)>",
    "<JaVaScRiPt:alert('XSS')>",
    "<vbscript:msgbox(1)>",
    "[x](vbscript:msgbox(1))",
    "[x](data:text/html;base64,PHNjcmlwdD4=)",
    "[x](//evil.example/)",
    "[x](\\\\evil.example/)",
    '[x](javascript:alert(1) "title")',
)
"""Vectors whose Markdown makes a link or an image to a URL validation must reject."""

FIELDS: tuple[str, ...] = (
    "title",
    "excerpt",
    "category",
    "heading",
    "paragraph",
    "markdown",
    "code_block",
    "code_block[html]",
    "figure.alt",
    "figure.caption",
    "ordered_list.item",
    "unordered_list.item",
    "data_table.caption",
    "data_table.header",
    "data_table.cell",
    "verified_output",
    "source.title",
    "source.note",
    "settings.title",
    "settings.description",
    "settings.sources_heading",
)
"""Every text field a revision and the settings have; each vector goes into all of them."""


def test_the_table_is_large_enough() -> None:
    assert len(VECTORS) >= 40
    assert len(set(VECTORS)) == len(VECTORS)
    assert len(FIELDS) == len(set(FIELDS))


BATCH = (
    HEADER
    + """
import json

VECTORS = {vectors!r}


@fixture
def echo() -> dict:
    return {{"checks": {{"ok": True}}, **{{f"v{{n}}": v for n, v in enumerate(VECTORS, 1)}}}}


def make(n, v):
    return revision(
        slug=f"vector-{{n:02d}}", title=v, categories=[v], excerpt=v, cover="/assets/fig.svg",
        published=f"2024-01-{{1 + n % 28:02d}}",
        body=[
            paragraph("Enough words to pass the tiny limit of this test site."),
            heading(v),
            paragraph(v),
            markdown(v),
            code_block(v),
            code_block(v, language="html"),
            figure("/assets/fig.svg", v, v),
            ordered_list([v, v]),
            unordered_list([v]),
            data_table(v, [v, v], [[v, v]]),
            verified_output(echo, {{f"v{{n}}": v}}),
        ],
        sources=[Source(title=v, url=f"https://a.example/{{n}}", note=v),
                 Source(title="B", url="https://b.example/", note="b")],
    )


revisions = [make(n, v) for n, v in enumerate(VECTORS, 1)]
"""
)


def settings_with(title: str, description: str, label: str) -> str:
    return (
        SETTINGS
        + f"description = {toml_string(description)}\n"
        + f"sources_heading = {{ en = {toml_string(label)} }}\n"
        + "feed_limit = 1000\n"  # every vector in the feed
    ).replace('title = "Test site"', f"title = {toml_string(title)}")


SITE_TITLE = " ".join(VECTORS[:20])
SITE_DESCRIPTION = " ".join(VECTORS[20:])
SOURCES_LABEL = " ".join(VECTORS[::3])


def reference_visible(text: str) -> str:
    """What markdown-it's own renderer shows of inline Markdown (backslash escapes applied)."""
    return collapsed(text_of(fragment("<p>" + REFERENCE.renderInline(text) + "</p>")))


def reference_block_visible(text: str) -> str:
    """What markdown-it's own renderer shows of a Markdown block."""
    return collapsed(text_of(fragment(REFERENCE.render(text))))


def pages_of(out: Path) -> dict[str, str]:
    return {
        p.relative_to(out).as_posix(): p.read_bytes().decode("utf-8") for p in sorted(out.rglob("*.html"))
    }


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The site of all vectors and its benign twin, both built once."""
    built = []
    for name, vectors, title, description, label in (
        ("hostile", VECTORS, SITE_TITLE, SITE_DESCRIPTION, SOURCES_LABEL),
        ("benign", tuple(f"Vector {n}" for n, _ in enumerate(VECTORS, 1)), "Site", "About", "Reading"),
    ):
        root = tmp_path_factory.mktemp(name) / "site"
        (root / "articles").mkdir(parents=True)
        (root / "assets").mkdir()
        (root / "assets/fig.svg").write_text(COVER_SVG, "utf-8")
        (root / "pyproject.toml").write_text(settings_with(title, description, label), "utf-8")
        (root / "articles/vectors.py").write_text(BATCH.format(vectors=vectors), "utf-8")
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            code = cli.main(["build", "--root", str(root)])
        assert code == 0, err.getvalue()
        built.append(root / "build")
    return built[0], built[1]


def test_every_vector_is_plain_text_to_markdown() -> None:
    # The table is about HTML, not Markdown: no vector makes Markdown markup of its own,
    # so any element on a built page that the benign twin lacks was injected.
    for vector in VECTORS:
        root = fragment(str(paragraph(vector)))
        assert [n.tag for n, _ in walk(root) if n.tag != "br"] == ["p"], vector


def articles(out: Path) -> Iterator[tuple[int, str, str]]:
    for n, vector in enumerate(VECTORS, 1):
        yield n, vector, f"articles/vector-{n:02d}/index.html"


def test_every_built_page_holds_only_template_markup(sites: tuple[Path, Path]) -> None:
    out, twin_out = sites
    pages, twin = pages_of(out), pages_of(twin_out)
    assert {path for _, _, path in articles(out)} <= set(pages)
    assert {"index.html", "404.html", "categories/index.html"} <= set(pages)
    allowed = {s for html in twin.values() for s in page_shape(document(html))}
    theme = scripts(document(twin["index.html"]))
    assert [src for src, _ in theme] == [THEME_SCRIPT_SRC, SEARCH_SCRIPT_SRC]
    for path, html in pages.items():
        root = document(html)
        shape = page_shape(root)
        assert set(shape) <= allowed, (path, set(shape) - allowed)
        assert_harmless(root, path)  # no on*=, no comment, no javascript:/vbscript:/data: URL
        assert scripts(root) == theme, path  # the theme's two scripts, nothing escaped into them
        assert len(json_ld(root)) == (1 if path.startswith("articles/") else 0), path  # parsed whole
        if path in twin and not path.startswith("categories/"):  # the very same elements as the twin
            assert shape == page_shape(document(twin[path])), path


def test_every_field_shows_the_vector_literally(sites: tuple[Path, Path]) -> None:
    out, _ = sites
    site_title, label = newlines(SITE_TITLE), newlines(SOURCES_LABEL)
    for n, vector, path in articles(out):
        page = document((out / path).read_bytes().decode("utf-8"))
        shown, text = reference_visible(vector), newlines(vector)
        assert text_of(one(page, "title")) == f"{text} — {site_title}", path
        assert text_of(one(page, "h1")) == text, path
        assert one(page, "meta", None, name="description").attrib["content"] == text
        assert one(page, "meta", None, property="og:title").attrib["content"] == text
        assert json_ld(page)[0]["headline"] == vector  # type: ignore[index]
        assert one(page, "img", "cover").attrib["alt"] == text
        assert [text_of(a) for a in find(page, "a", "tag")] == [text]
        assert text_of(one(page, "a", "site-title")) == site_title
        body = one(page, "div", "article-body")
        h2s = [n for n, _ in walk(body) if n.tag == "h2"]
        assert [collapsed(text_of(h)) for h in h2s] == [shown, collapsed(label)], path
        toc = [text_of(a) for a in find(one(page, "nav", "toc"), "a")]
        assert toc[0] == re.sub(r"\s+", " ", shown).strip()
        ps = [collapsed(text_of(p)) for p, _ in walk(body) if p.tag == "p"]
        assert ps[1:3] == [shown, reference_block_visible(vector)], path  # paragraph() and markdown()
        codes = [text_of(c) for c, _ in walk(body) if c.tag == "code"]
        assert codes[:2] == [vector.strip(), vector.strip()], path  # plain and highlighted
        assert json.loads(codes[2]) == {f"v{n}": vector}  # verified_output
        img = one(body, "img")
        assert img.attrib["alt"] == text
        assert collapsed(text_of(one(body, "figcaption"))) == shown
        cells = [collapsed(text_of(c)) for c, _ in walk(body) if c.tag in ("li", "caption", "th", "td")]
        assert cells[:8] == [shown] * 8, path  # ol ×2, ul, caption, th ×2, td ×2
        source = find(body, "a", None, target="_blank")[0]
        assert text_of(source) == text
        assert cells[8] == collapsed(f"{vector} — {vector}")
        searchable = one(page, "article", None, data_pagefind_body="")
        assert text_of(one(searchable, "h1", None, data_pagefind_meta="title")) == text
        assert find(searchable, "script") == [] and find(searchable, "style") == []


def test_template_syntax_and_entities_are_shown_not_evaluated(sites: tuple[Path, Path]) -> None:
    out, _ = sites
    for literal in ("{{ 7*7 }}", "{% raw %}", "{# comment #}", "&lt;b&gt;"):
        n = VECTORS.index(literal) + 1
        page = document((out / f"articles/vector-{n:02d}/index.html").read_bytes().decode("utf-8"))
        assert text_of(one(page, "h1")) == literal
        body = one(page, "div", "article-body")
        assert [text_of(p) for p, _ in walk(body) if p.tag == "p"][1] == literal
        texts = [t for node, _ in walk(page) for t in (node.text, node.tail) if t]
        assert not any(t.strip() == "49" for t in texts)
    index = document((out / "index.html").read_bytes().decode("utf-8"))
    assert "&lt;b&gt;" in [text_of(p) for p in find(index, "p", "excerpt")]
    assert "{{ 7*7 }}" in [text_of(h) for h in find(index, "h2", "card-title")]


def test_feed_sitemap_json_and_search_input_carry_the_vectors(sites: tuple[Path, Path]) -> None:
    out, twin_out = sites
    feed = ET.parse(out / "feed.xml").getroot()
    assert feed.findtext(f"{ATOM}title") == newlines(SITE_TITLE)
    assert feed.findtext(f"{ATOM}subtitle") == newlines(SITE_DESCRIPTION)
    entries = feed.findall(f"{ATOM}entry")
    assert sorted(e.findtext(f"{ATOM}title") or "" for e in entries) == sorted(newlines(v) for v in VECTORS)
    for entry in entries:
        title = entry.findtext(f"{ATOM}title")
        assert entry.findtext(f"{ATOM}summary") == title
        assert [newlines(c.get("term") or "") for c in entry.findall(f"{ATOM}category")] == [title]
    locs = [e.text or "" for e in ET.parse(out / "sitemap.xml").getroot().iter() if e.tag.endswith("loc")]
    assert {f"https://example.org/articles/vector-{n:02d}/" for n in range(1, len(VECTORS) + 1)} <= set(locs)
    assert all(loc.isascii() and loc.startswith("https://example.org/") for loc in locs)
    for loc in locs:  # every location is a page of this site, inside the output
        page = out / unquote(urlsplit(loc).path).lstrip("/")
        assert (page / "index.html").is_file() or page.is_file(), loc
        assert page.resolve().is_relative_to(out.resolve())

    data = json.loads((out / "revisions.json").read_text("utf-8"))
    twin = json.loads((twin_out / "revisions.json").read_text("utf-8"))
    contents = {e.findtext(f"{ATOM}id"): e.findtext(f"{ATOM}content") for e in entries}
    for vector, rev, twin_rev in zip(VECTORS, data, twin, strict=True):
        assert (rev["title"], rev["excerpt"], rev["categories"]) == (vector, vector, [vector])
        assert rev["sources"][0]["title"] == vector and rev["sources"][0]["note"] == vector
        content = fragment(rev["contentHtml"])
        assert_harmless(content, rev["slug"])
        assert page_shape(content) == page_shape(fragment(twin_rev["contentHtml"])), rev["slug"]
        url = f"https://example.org/articles/{rev['slug']}/"
        assert contents[url] == newlines(rev["contentHtml"])

    fragments = {}
    for path in (out / "pagefind").rglob("fragment/*"):  # every shard's
        raw = gzip.decompress(path.read_bytes())
        assert raw.startswith(b"pagefind_dcd")
        record = json.loads(raw[len(b"pagefind_dcd") :])
        fragments[record["url"]] = record
    for n, vector, _ in articles(out):
        record = fragments[f"/articles/vector-{n:02d}/"]
        assert " ".join(record["meta"]["title"].split()) == " ".join(vector.split())


# --- vectors that are validation problems ---------------------------------------------------


def _link_site(vector: str) -> str:
    places = [
        "paragraph(V)",
        "heading(V)",
        "markdown(V)",
        "unordered_list([V])",
        "data_table(V, ['h'], [[V]])",
        "figure('/assets/fig.svg', 'alt', V)",
    ]
    body = "".join(f"          {p},\n" for p in places)
    return (
        HEADER
        + f"\nV = {vector!r}\n\n"
        + "revisions = [revision(\n"
        + "    slug='bad-link', title='t', categories=['c'], excerpt='e', published='2024-01-02',\n"
        + "    body=[paragraph('Enough words to pass the tiny limit of this test site.'),\n"
        + body
        + "    ],\n"
        + "    sources=[Source(title='A', url='https://a.example/', note='a'),\n"
        + "             Source(title='B', url='https://b.example/', note='b')],\n"
        + ")]\n"
    )


URL_PROBLEM = re.compile(
    r"URL scheme '[a-z]+:' is not allowed|protocol-relative URL|relative URL .* is not allowed"
)


@pytest.mark.parametrize("vector", LINK_VECTORS)
def test_a_vector_that_links_to_a_script_stops_the_build(
    vector: str, make_site: MakeSite, run_cli: RunCli
) -> None:
    root = make_site({"articles/links.py": _link_site(vector), "assets/fig.svg": COVER_SVG})
    result = run_cli(["build", "--root", str(root)])
    assert result.code == 1, result.err
    assert "Traceback" not in result.err
    lines = {
        int(m.group(1))
        for m in re.finditer(r"articles/links\.py:(\d+): bad-link: (.*)", result.err)
        if URL_PROBLEM.search(m.group(2))
    }
    # heading(), paragraph(), markdown(), list item, table caption and cell, figure caption
    assert len(lines) == 6, result.err
    assert not (root / "build").exists()


# --- URLs: each place an author writes one --------------------------------------------------

BAD_URLS: tuple[str, ...] = (
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    " javascript:alert(1)",
    "\tjavascript:alert(1)",
    "java\tscript:alert(1)",
    "java\nscript:alert(1)",
    "java\rscript:alert(1)",
    "javascript\t:alert(1)",
    "&#106;avascript:alert(1)",
    "&#x6A;avascript:alert(1)",
    "javascript&colon;alert(1)",
    "javascript&#58;alert(1)",
    "%6Aavascript:alert(1)",
    "vbscript:msgbox(1)",
    "VBScript:msgbox(1)",
    "data:text/html;base64,PHNjcmlwdD4=",
    "data:image/svg+xml,<svg onload=alert(1)>",
    "//evil.example/x",
    "\\\\evil.example/x",
    "/\\evil.example/x",
    " //evil.example/x",
    "file:///etc/passwd",
    "jar:https://evil.example/a.jar!/",
    "http:\\\\evil.example",
)


def _one_revision(
    *, cover: str = "/assets/fig.svg", body: str = "", source_url: str = "https://a.example/"
) -> str:
    return (
        HEADER
        + "revisions = [revision(\n"
        + "    slug='place', title='t', categories=['c'], excerpt='e', published='2024-01-02',\n"
        + f"    cover={cover!r},\n"
        + "    body=[paragraph('Enough words to pass the tiny limit of this test site.'),\n"
        + (f"          {body},\n" if body else "")
        + "    ],\n"
        + f"    sources=[Source(title='A', url={source_url!r}, note='a'),\n"
        + "             Source(title='B', url='https://b.example/', note='b')],\n"
        + ")]\n"
    )


def _problems(make_site: MakeSite, batch: str) -> list[tuple[str, str]]:
    root = make_site({"articles/place.py": batch, "assets/fig.svg": COVER_SVG})
    return [(p.rule, p.message) for p in validate(load_site(root)) if p.subject == "place"]


def _angle(url: str) -> str:
    """A Markdown destination that keeps the URL whole (angle brackets allow spaces)."""
    return url if not re.search(r"[\s()<>]", url) else "<" + url.replace("<", "%3C").replace(">", "%3E") + ">"


def _anchor(url: str) -> str:
    return '<a href="' + url.replace('"', "&quot;") + '">x</a>'


PLACES = {
    "link": lambda u: {"body": f"paragraph({'[x](' + _angle(u) + ')'!r})"},
    "image": lambda u: {"body": f"paragraph({'![x](' + _angle(u) + ')'!r})"},
    "markdown-reference": lambda u: {"body": f"markdown({'[x][r]' + chr(10) * 2 + '[r]: ' + _angle(u)!r})"},
    "figure-src": lambda u: {"body": f"figure({u!r}, 'alt', 'caption')"},
    # Trusted HTML: written as is, so its entities are the browser's (and validation's) to decode.
    # Trusted HTML is written as is: its entities are the browser's (and validation's) to decode.
    "markup-href": lambda u: {"body": f"paragraph(Markup({_anchor(u)!r}))"},
    "cover": lambda u: {"cover": u},
    "source-url": lambda u: {"source_url": u},
}


MARKDOWN_PLACES = ("link", "image", "markdown-reference")


@pytest.mark.parametrize("url", BAD_URLS)
@pytest.mark.parametrize("place", list(PLACES))
def test_a_disallowed_url_is_a_validation_problem(place: str, url: str, make_site: MakeSite) -> None:
    if place in MARKDOWN_PLACES and re.search("[\r\n]", url):
        # A line break ends a Markdown destination: the "link" is text, no URL at all.
        assert paragraph("[x](" + url + ")").urls == ()  # type: ignore[attr-defined]
        return
    problems = _problems(make_site, _one_revision(**PLACES[place](url)))
    assert any(rule in ("url", "url-target") for rule, _ in problems), problems


# --- paths: nothing read outside assets/, nothing written outside the output ---------------------

ESCAPING_REFERENCES: tuple[str, ...] = (
    "/assets/../pyproject.toml",
    "/assets/%2e%2e/pyproject.toml",
    "/assets/%2E%2E/pyproject.toml",
    "/assets/..%2fpyproject.toml",
    "/assets/%2e%2e%2fpyproject.toml",
    "/assets/.%2e/pyproject.toml",
    "/assets/%252e%252e/pyproject.toml",
    "/assets/\\..\\pyproject.toml",
    "/assets/..\\pyproject.toml",
    "/assets/..%5cpyproject.toml",
    "/assets/./../pyproject.toml",
    "/assets//../pyproject.toml",
    "/assets/fig.svg/../../pyproject.toml",
    "/assets/../../../../../../etc/passwd",
    "/etc/passwd",
    "/pyproject.toml",
    "/articles/place.py",
    "/assets/fig.svg\x00",
    "/assets/fig.svg%00",
    "/assets/outside.svg",
    "/assets/outside-dir/secret.svg",
    "file:///etc/passwd",
)


def _with_outside_links(root: Path) -> None:
    outside = root.parent / "outside"
    outside.mkdir(exist_ok=True)
    (outside / "secret.svg").write_text("<svg>secret</svg>", "utf-8")
    (root / "assets/outside.svg").symlink_to(outside / "secret.svg")
    (root / "assets/outside-dir").symlink_to(outside, target_is_directory=True)


@pytest.mark.parametrize("reference", ESCAPING_REFERENCES)
@pytest.mark.parametrize("place", ["cover", "figure-src"])
def test_a_reference_outside_assets_is_a_validation_problem(
    place: str, reference: str, make_site: MakeSite
) -> None:
    batch = _one_revision(**PLACES[place](reference))
    root = make_site({"articles/place.py": batch, "assets/fig.svg": COVER_SVG})
    _with_outside_links(root)
    problems = [(p.rule, p.message) for p in validate(load_site(root)) if p.subject == "place"]
    # A NUL is cut off the end of a URL (as browsers do), but it is never valid text.
    rules = ("url", "url-target", "xml-character") if "\x00" in reference else ("url", "url-target")
    assert any(rule in rules for rule, _ in problems), problems


def test_the_references_inside_assets_are_accepted(make_site: MakeSite) -> None:
    # The control: the same places accept a real asset, however it is spelled.
    for reference in ("/assets/fig.svg", "/assets/./fig.svg", "/assets/%66ig.svg"):
        for place in ("cover", "figure-src"):
            problems = _problems(make_site, _one_revision(**PLACES[place](reference)))
            assert problems == [], (place, reference, problems)


def _tree(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): (p.read_bytes() if p.is_file() and not p.is_symlink() else b"")
        for p in folder.rglob("*")
    }


def test_a_symlink_in_assets_pointing_outside_is_not_copied(make_site: MakeSite, run_cli: RunCli) -> None:
    batch = _one_revision()
    root = make_site({"articles/place.py": batch, "assets/fig.svg": COVER_SVG})
    _with_outside_links(root)
    result = run_cli(["build", "--root", str(root)])
    out = root / "build"
    published = {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    leaked = sorted(path for path, data in published.items() if b"secret" in data)
    # A file outside assets/ must not reach the published site, linked or not.
    assert leaked == [], f"build exit {result.code} copied {leaked} from outside assets/"


HOSTILE_SLUGS: tuple[str, ...] = (
    "../etc",
    "../../outside",
    "..",
    "...",
    "a/b",
    "/abs-path",
    "a\\b",
    "..\\..\\x",
    "a\x00b",
    "C:\\x",
    "%2e%2e",
    "%2e%2e%2foutside",
    "UPPER-case",
    "with space",
    "é-accent",
    "ab",
    "x" * 121,
    "./abc",
    "abc/",
    "~root",
)


@pytest.mark.parametrize("slug", HOSTILE_SLUGS)
def test_a_hostile_slug_is_rejected_and_nothing_is_written(
    slug: str, tmp_path: Path, run_cli: RunCli
) -> None:
    root = tmp_path / "outer" / "site"
    (root / "articles").mkdir(parents=True)
    (root / "assets").mkdir()
    (root / "pyproject.toml").write_text(SETTINGS, "utf-8")
    (root / "articles/a.py").write_text(_one_revision().replace("'place'", repr(slug)), "utf-8")
    (root / "assets/fig.svg").write_text(COVER_SVG, "utf-8")
    before = _tree(tmp_path)
    result = run_cli(["build", "--root", str(root)])
    assert result.code == 1
    assert "Traceback" not in result.err
    assert "must be 3 to 120 characters of a-z, 0-9 and '-'" in result.err, result.err
    assert _tree(tmp_path) == before


MARKER = "hostile-marker-7f3a"
HOSTILE_CATEGORIES: tuple[str, ...] = (
    f"../../../../../../../../tmp/{MARKER}",
    f"/tmp/{MARKER}",
    f"..\\..\\{MARKER}",
    f"\\\\server\\share\\{MARKER}",
    f"C:\\{MARKER}",
    f"%2e%2e%2f%2e%2e%2f{MARKER}",
    f"..%2F..%2F{MARKER}",
    f"．．／．．／{MARKER}",
    f"a/../../{MARKER}",
    f"~/{MARKER}",
    f"$HOME/{MARKER}",
    ".",
    "..",
    "...",
    "/",
    "\\",
    "index.html",
    "../index.html",
    "?x=1#y",
    "<script>",
    "\u202e" + MARKER,
    "\U0001f600/..",
    "con",
    "nul.txt",
)


def test_hostile_category_names_write_only_inside_the_output(tmp_path: Path, run_cli: RunCli) -> None:
    root = tmp_path / "a" / "b" / "site"
    (root / "articles").mkdir(parents=True)
    (root / "assets").mkdir()
    (root / "pyproject.toml").write_text(SETTINGS, "utf-8")
    batch = _one_revision().replace("categories=['c']", f"categories={list(HOSTILE_CATEGORIES)!r}")
    (root / "articles/a.py").write_text(batch, "utf-8")
    (root / "assets/fig.svg").write_text(COVER_SVG, "utf-8")
    before = _tree(tmp_path)

    result = run_cli(["build", "--root", str(root)])

    assert result.code == 0, result.err
    out = (root / "build").resolve()
    cache = (root / ".site-builder-cache").resolve()  # the build's own cache
    after = _tree(tmp_path)
    changed = {p for p in after if before.get(p) != after[p]} | (set(before) - set(after))
    outside = sorted(
        p for p in changed if not any((tmp_path / p).resolve().is_relative_to(mine) for mine in (out, cache))
    )
    assert outside == []
    assert not Path(f"/tmp/{MARKER}").exists()
    assert not (Path("/") / MARKER).exists()
    pages = sorted(p for p in (out / "categories").rglob("index.html"))
    assert len(pages) == len(HOSTILE_CATEGORIES) + 1
    for page in pages:
        relative = page.relative_to(out).as_posix()
        assert ".." not in relative.split("/") and "\\" not in relative and ":" not in relative, relative


def test_a_category_too_long_for_a_file_name_is_a_problem_not_a_failed_write(
    make_site: MakeSite, run_cli: RunCli
) -> None:
    # 200 Cyrillic letters: a 400-byte folder name, longer than any file system allows.
    name = "я" * 200
    batch = _one_revision().replace("categories=['c']", f"categories=[{name!r}]")
    root = make_site({"articles/place.py": batch, "assets/fig.svg": COVER_SVG})
    checked = run_cli(["validate", "--root", str(root)])
    built = run_cli(["build", "--root", str(root)])
    # Either the site builds (the folder name is shortened) or validation names the category.
    if built.code != 0:
        assert checked.code == 1, f"validate passes but build fails: {built.err}"
        assert "category 1" in checked.err
    else:
        assert any(len(p.name.encode()) <= 255 for p in (root / "build/categories").iterdir())


# --- characters XML 1.0 forbids: a problem naming the field ---------------------------------------

FORBIDDEN = ("\x00", "\x08", "\x0b", "\x0c", "\x1f", "\ud800", "\udfff", "\ufffe", "\uffff")
BAD_FIELDS = {
    "title": ("title='T{c}t'", "title contains"),
    "excerpt": ("excerpt='E{c}e'", "excerpt contains"),
    "category 1": ("categories=['C{c}c']", "category 1 contains"),
    "category 2": ("categories=['C', 'D{c}d']", "category 2 contains"),
    "source 1 title": ("source_title='A{c}a'", "source 1 title contains"),
    "source 1 note": ("source_note='a{c}a'", "source 1 note contains"),
    # Helper text is checked before Markdown sees it (it would turn NUL into U+FFFD).
    "body item 2 paragraph": ("body=paragraph('x{c}x')", "paragraph(): the text contains"),
    "body item 2 code": ("body=code_block('x{c}x')", "body item 2 contains"),
    "body item 2 figure alt": ("body=figure('/assets/fig.svg', 'a{c}a', 'c')", "body item 2 contains"),
    "body item 2 table cell": (
        "body=data_table('c', ['h'], [['x{c}x']])",
        "data_table(): row 1 cell 1 contains",
    ),
}


def _batch_with(field: str, char: str) -> str:
    template, _ = BAD_FIELDS[field]
    code = template.format(c=repr(char)[1:-1])
    kind, _, value = code.partition("=")
    revision_args = {
        "title": "'t'",
        "excerpt": "'e'",
        "categories": "['c']",
        "source_title": "'A'",
        "source_note": "'a'",
        "body": "",
    }
    revision_args[kind] = value
    body = f"          {revision_args['body']},\n" if revision_args["body"] else ""
    return (
        HEADER
        + "revisions = [revision(\n"
        + f"    slug='place', title={revision_args['title']}, categories={revision_args['categories']},\n"
        + f"    excerpt={revision_args['excerpt']}, published='2024-01-02',\n"
        + "    body=[paragraph('Enough words to pass the tiny limit of this test site.'),\n"
        + body
        + "    ],\n"
        + f"    sources=[Source(title={revision_args['source_title']}, url='https://a.example/',"
        + f" note={revision_args['source_note']}),\n"
        + "             Source(title='B', url='https://b.example/', note='b')],\n"
        + ")]\n"
    )


@pytest.mark.parametrize("char", FORBIDDEN, ids=[f"U+{ord(c):04X}" for c in FORBIDDEN])
@pytest.mark.parametrize("field", list(BAD_FIELDS))
def test_a_character_xml_forbids_is_a_problem_naming_the_field(
    field: str, char: str, make_site: MakeSite, run_cli: RunCli
) -> None:
    root = make_site({"articles/place.py": _batch_with(field, char), "assets/fig.svg": COVER_SVG})
    result = run_cli(["build", "--root", str(root)])
    assert result.code == 1
    assert "Traceback" not in result.err
    expected = f"{BAD_FIELDS[field][1]} U+{ord(char):04X}"
    assert re.search(rf"articles/place\.py:\d+: place: {re.escape(expected)}\b", result.err), result.err
    assert result.err.count(" contains U+") == 1, result.err  # one mistake, one problem
    assert not (root / "build").exists()


@pytest.mark.parametrize("char", ["\x00", "\x08", "\x0b", "\x0c", "\x1f", "\x7f"])
@pytest.mark.parametrize("key", ["title", "description"])
def test_a_character_xml_forbids_in_the_settings_is_a_problem(
    key: str, char: str, make_site: MakeSite, run_cli: RunCli
) -> None:
    value = toml_string(f"A{char}B")
    settings = (
        SETTINGS + f"description = {value}\n"
        if key == "description"
        else SETTINGS.replace('"Test site"', value)
    )
    root = make_site({"articles/place.py": _one_revision(), "assets/fig.svg": COVER_SVG}, settings=settings)
    result = run_cli(["build", "--root", str(root)])
    if char == "\x7f":  # DEL is allowed in XML 1.0: a valid title
        assert result.code == 0, result.err
        return
    assert result.code == 1
    assert f"pyproject.toml:{_line(settings, key)}: settings: {key} contains U+{ord(char):04X}" in result.err
    assert not (root / "build").exists()


def _line(text: str, key: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if line.startswith(f"{key} ="))
