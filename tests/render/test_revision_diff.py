"""The word-by-word diff between two revisions (site_builder/render/diff.py).

Small cases compare the whole output with HTML written out by hand. The properties run on
articles made by the real helpers, hostile text included: the output is well nested, marks
never sit where HTML forbids them, and taking one side of every mark gives back that side's
text and tags exactly.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markupsafe import Markup

from site_builder import code_block, data_table, heading, ordered_list, paragraph, unordered_list
from site_builder.render.diff import RevisionDiff, diff_revisions

TABLE_HEAD = (
    '<div class="table-scroll"><table><caption>Outcomes</caption><thead><tr>'
    '<th scope="col">Case</th><th scope="col">Effects</th></tr></thead><tbody>'
)
TABLE_FOOT = "</tbody></table></div>"


def table(rows: str) -> str:
    return TABLE_HEAD + rows + TABLE_FOOT


CASES = [
    pytest.param(
        "<p>The quick brown fox jumps.</p>",
        "<p>The slow red fox jumps.</p>",
        "<p>The <del>quick brown</del><ins>slow red</ins> fox jumps.</p>",
        (2, 2, 1),
        id="words-changed-in-paragraph",
    ),
    pytest.param(
        "<p>One.</p>\n<p>Three.</p>",
        "<p>One.</p>\n<p>Two.</p>\n<p>Three.</p>",
        '<p>One.</p>\n<ins class="diff-block"><p>Two.</p></ins>\n<p>Three.</p>',
        (1, 0, 1),
        id="paragraph-added",
    ),
    pytest.param(
        "<p>One.</p>\n<p>Two.</p>\n<p>Three.</p>",
        "<p>One.</p>\n<p>Three.</p>",
        '<p>One.</p>\n<del class="diff-block"><p>Two.</p></del>\n<p>Three.</p>',
        (0, 1, 1),
        id="paragraph-removed",
    ),
    pytest.param(
        "<p>Retries repeat the request.</p>",
        "<p>A key makes a second call harmless.</p>",
        '<del class="diff-block"><p>Retries repeat the request.</p></del>'
        '<ins class="diff-block"><p>A key makes a second call harmless.</p></ins>',
        (7, 4, 2),
        id="paragraph-rewritten-shown-old-then-new",
    ),
    pytest.param(
        '<pre><code class="language-python">def f(a, b):\n    return a + b\n\nprint(f(1, 2))</code></pre>',
        '<pre><code class="language-python">def f(a, b):\n    return a * b\n\nprint(f(1, 2))</code></pre>',
        '<pre><code class="language-python">def f(a, b):\n    return a <del>+</del><ins>*</ins> b\n\n'
        "print(f(1, 2))</code></pre>",
        (0, 0, 1),
        id="code-sign-changed",
    ),
    pytest.param(
        '<pre><code class="language-python">if ok:\n    send()\nlog()</code></pre>',
        '<pre><code class="language-python">if ok:\n    send()\n    record()\nlog()</code></pre>',
        '<pre><code class="language-python">if ok:\n    send()\n<ins>    record()\n</ins>log()</code></pre>',
        (1, 0, 1),
        id="code-line-added-indentation-kept",
    ),
    pytest.param(
        "<pre><code>x = 1\n  y = 2</code></pre>",
        "<pre><code>x = 1\n    y = 2</code></pre>",
        "<pre><code>x = 1\n<del>  </del><ins>    </ins>y = 2</code></pre>",
        (0, 0, 1),
        id="code-spaces-count",
    ),
    pytest.param(
        "<pre><code>a = 1\nb = 2</code></pre>",
        "<pre><code>a = 1\nb = 2\n\ndef total(values):\n    return sum(v * 2 for v in values if v)"
        "</code></pre>",
        "<pre><code>a = 1\nb = 2<ins>\n\ndef total(values):\n"
        "    return sum(v * 2 for v in values if v)</ins></code></pre>",
        (11, 0, 1),
        id="code-that-grew-stays-one-program",
    ),
    pytest.param(
        "<pre><code>f(1)\n(2)</code></pre>",
        "<pre><code>f(3)\n(4)</code></pre>",
        "<pre><code>f(<del>1</del><ins>3</ins>)\n(<del>2</del><ins>4</ins>)</code></pre>",
        (2, 2, 1),
        id="code-marks-stop-at-line-ends",
    ),
    pytest.param(
        table("<tr><td>lost response</td><td>1</td></tr><tr><td>timeout</td><td>2</td></tr>"),
        table("<tr><td>lost response</td><td>1</td></tr><tr><td>timeout</td><td>0</td></tr>"),
        table(
            "<tr><td>lost response</td><td>1</td></tr>"
            "<tr><td>timeout</td><td><del>2</del><ins>0</ins></td></tr>"
        ),
        (1, 1, 1),
        id="table-cell-changed",
    ),
    pytest.param(
        table("<tr><td>lost response</td><td>1</td></tr>"),
        table("<tr><td>lost response</td><td>1</td></tr><tr><td>still running</td><td>0</td></tr>"),
        table(
            '<tr><td>lost response</td><td>1</td></tr><tr data-diff="ins"><td data-diff="ins">'
            '<ins>still running</ins></td><td data-diff="ins"><ins>0</ins></td></tr>'
        ),
        (3, 0, 1),
        id="table-row-added",
    ),
    pytest.param(
        "<ol><li>Send.</li><li>Retry.</li></ol>",
        "<ol><li>Send.</li><li>Wait for the answer.</li><li>Retry.</li></ol>",
        '<ol><li>Send.</li><li data-diff="ins"><ins>Wait for the answer.</ins></li><li>Retry.</li></ol>',
        (4, 0, 1),
        id="list-item-added",
    ),
    pytest.param(
        "<ul><li>Send.</li><li>Retry.</li></ul>",
        "<ul><li>Retry.</li></ul>",
        '<ul><li data-diff="del"><del>Send.</del></li><li>Retry.</li></ul>',
        (0, 1, 1),
        id="list-item-removed",
    ),
    pytest.param(
        "<p>Send <code>POST /pay</code> once.</p>",
        "<p>Send <code>POST /payments</code> once.</p>",
        "<p>Send <code>POST /<del>pay</del><ins>payments</ins></code> once.</p>",
        (1, 1, 1),
        id="inline-code-diffed-inside",
    ),
    pytest.param(
        '<p>See <a href="https://example.org/a">the draft</a>.</p>',
        '<p>See <a href="https://example.org/b">the draft</a>.</p>',
        '<p>See <del><a href="https://example.org/a">the draft</a></del>'
        '<ins><a href="https://example.org/b">the draft</a></ins>.</p>',
        (2, 2, 1),
        id="link-target-changed",
    ),
    pytest.param(
        "<p>The key matters.</p>",
        "<p>The <strong>key</strong> matters.</p>",
        "<p>The <del>key</del><ins><strong>key</strong></ins> matters.</p>",
        (1, 1, 1),
        id="word-made-strong",
    ),
    pytest.param(
        "<p>5 000 мс — RFC 7231</p>",
        "<p>5\u00a0000\u00a0мс\u00a0— RFC\u00a07231</p>",
        "<p>5\u00a0000\u00a0мс\u00a0— RFC\u00a07231</p>",
        (0, 0, 0),
        id="non-breaking-spaces-are-no-visible-change",
    ),
    pytest.param(
        "<p>RFC 7231 §6.5.8</p>",
        "<p>RFC\u00a07231 §\u00a06.5.8</p>",
        "<p>RFC\u00a07231 §<ins>\u00a0</ins>6.5.8</p>",
        (0, 0, 1),
        id="a-space-added-is-a-change",
    ),
    pytest.param(
        '<h2 id="why">Why</h2>\n<p id="x" title="id=&quot;y&quot;" data-id="z">Text.</p>',
        '<h2 id="why">Why not</h2>\n<p id="x" title="id=&quot;y&quot;" data-id="z">Text.</p>',
        '<h2>Why<ins> not</ins></h2>\n<p title="id=&quot;y&quot;" data-id="z">Text.</p>',
        (1, 0, 1),
        id="ids-dropped-only-ids",
    ),
    pytest.param(
        "<pre><code>x = 1</code></pre>\n<pre><code>x = 1</code></pre>\n<p>retry </p>",
        "<pre><code>y = x + 1</code></pre>\n<p> retry </p>",
        "<pre><code><del>x = </del><ins>y = x + </ins>1</code></pre>\n"
        '<del class="diff-block"><pre><code>x = 1</code></pre></del>\n\n<p><ins> </ins>retry </p>',
        (2, 3, 3),
        id="line-breaks-between-blocks-never-marked",
    ),
    pytest.param(
        "<p>Same.</p>",
        "<p>Same.</p>",
        "<p>Same.</p>",
        (0, 0, 0),
        id="nothing-changed",
    ),
    pytest.param(
        "",
        "<p>First.</p>",
        '<ins class="diff-block"><p>First.</p></ins>',
        (1, 0, 1),
        id="from-nothing",
    ),
]


@pytest.mark.parametrize(("old", "new", "expected", "counts"), CASES)
def test_small_cases(old: str, new: str, expected: str, counts: tuple[int, int, int]) -> None:
    diff = diff_revisions(old, new)
    assert diff.html == expected
    assert isinstance(diff.html, Markup)
    assert (diff.words_added, diff.words_removed, diff.blocks_changed) == counts
    check_nesting(diff.html)
    assert_sides(old, new, diff)


HOSTILE = [
    pytest.param(
        "<p>Type &lt;script&gt;alert(1)&lt;/script&gt; here.</p>",
        "<p>Type &lt;script&gt;alert(2)&lt;/script&gt; here.</p>",
        "<p>Type &lt;script&gt;alert(<del>1</del><ins>2</ins>)&lt;/script&gt; here.</p>",
        id="script-stays-text",
    ),
    pytest.param(
        "<p>a &amp; b &quot;c&quot; &#039;d&#039;</p>",
        "<p>a &amp;&amp; b &quot;e&quot; &#039;d&#039;</p>",
        "<p>a <ins>&amp;</ins>&amp; b &quot;<del>c</del><ins>e</ins>&quot; &#039;d&#039;</p>",
        id="entities-kept-whole",
    ),
    pytest.param(
        "<pre><code>if a &lt; b &amp;&amp; c:\n    pass</code></pre>",
        "<pre><code>if a &lt;= b &amp;&amp; c:\n    pass</code></pre>",
        "<pre><code>if a &lt;<ins>=</ins> b &amp;&amp; c:\n    pass</code></pre>",
        id="escaped-code",
    ),
    pytest.param(
        "<p>&lt;/p&gt;&lt;ins&gt;x</p>",
        "<p>&lt;/p&gt;&lt;del&gt;x</p>",
        "<p>&lt;/p&gt;&lt;<del>ins</del><ins>del</ins>&gt;x</p>",
        id="markup-lookalikes",
    ),
]


@pytest.mark.parametrize(("old", "new", "expected"), HOSTILE)
def test_escapes_are_kept(old: str, new: str, expected: str) -> None:
    diff = diff_revisions(old, new)
    assert diff.html == expected
    check_nesting(diff.html)
    assert_sides(old, new, diff)


def test_unbalanced_input_comes_out_well_nested() -> None:
    old = "<p>open <em>never closed</p></div>\n<p>next"
    diff = diff_revisions(old, "<p>open <em>never shut</em></p>\n<p>next</p>")
    assert diff.html == "<p>open <em>never <del>closed</del><ins>shut</ins></em></p>\n<p>next</p>"
    check_nesting(diff.html)


def test_same_input_same_bytes() -> None:
    old, new = article(SAMPLE), article([*SAMPLE[:2], ("p", "An added paragraph."), *SAMPLE[3:]])
    assert diff_revisions(old, new) == diff_revisions(old, new)


# --- articles made by the real helpers -------------------------------------------------------

SAMPLE: list[tuple[str, Any]] = [
    ("h2", "Why retries repeat"),
    ("p", "A `POST` that timed out may have run: the client cannot tell."),
    ("code", "def send(key):\n    return post('/pay', key=key)"),
    ("ul", ["one key per intent", "a repeat click reuses it"]),
    ("table", [["lost response", "1"], ["timeout", "0"]]),
]


def render(kind: str, value: Any) -> str:
    makers: dict[str, Callable[[Any], Markup]] = {
        "h2": heading,
        "p": paragraph,
        "code": lambda v: code_block(v, language="python"),
        "ul": unordered_list,
        "ol": ordered_list,
        "table": lambda v: data_table("Outcomes", ["Case", "Effects"], v),
    }
    return str(makers[kind](value))


def article(blocks: list[tuple[str, Any]]) -> str:
    return "\n".join(render(kind, value) for kind, value in blocks)


WORDS = [
    "retry", "key", "ключ", "повтор", "결정론적", "<script>", "&amp;", "&", '"q"', "'s'", "a<b",
    "x>y", "1\u00a0200", "—", "`code`", "**strong**", "[link](https://example.org/?a=1&b=2)",
    "id=\"h\"", "</p>", "<ins>", "",
]  # fmt: skip
CODE_LINES = ["x = 1", "    y = x  +  1", "\tz = '<b>' & \"q\"", "", "return {'a': 1}", "  # done"]

spaced = st.tuples(st.sampled_from(WORDS), st.sampled_from([" ", " ", " ", "\u00a0", "\n", ""])).map("".join)
words = st.lists(spaced, min_size=1, max_size=8).map("".join)
code = st.lists(st.sampled_from(CODE_LINES), min_size=1, max_size=6).map("\n".join)
items = st.lists(words, min_size=1, max_size=4)
row = st.lists(words, min_size=2, max_size=2)
rows = st.lists(row, max_size=4)
block = st.one_of(
    st.tuples(st.just("p"), words),
    st.tuples(st.just("h2"), words),
    st.tuples(st.just("code"), code),
    st.tuples(st.sampled_from(["ul", "ol"]), items),
    st.tuples(st.just("table"), rows),
)


@st.composite
def revised(draw: st.DrawFn) -> tuple[str, str]:
    """An article and a later revision of it: blocks kept, dropped, edited a little or added."""
    old = draw(st.lists(block, max_size=6))
    new: list[tuple[str, Any]] = []
    for kind, value in old:
        action = draw(st.sampled_from(["keep", "drop", "edit", "edit", "add"]))
        if action == "add":
            new.append(draw(block))
        if action == "edit":
            value = draw(edited(kind, value))
        if action != "drop":
            new.append((kind, value))
    new.extend(draw(st.lists(block, max_size=2)))
    return article(old), article(new)


@st.composite
def touched(draw: st.DrawFn, items: list[Any], fresh: st.SearchStrategy[Any]) -> list[Any]:
    """``items`` with one or two of them replaced, inserted or deleted."""
    items = list(items)
    for _ in range(draw(st.integers(1, 2))):
        at = draw(st.integers(0, len(items)))
        how = draw(st.sampled_from(["replace", "insert", "delete"]))
        if how == "insert" or at == len(items):
            items.insert(at, draw(fresh))
        elif how == "replace":
            items[at] = draw(fresh)
        else:
            del items[at]
    return items


def edited(kind: str, value: Any) -> st.SearchStrategy[Any]:
    if kind == "code":
        return touched(value.split("\n"), st.sampled_from(CODE_LINES)).map("\n".join)
    if kind in ("p", "h2"):
        return touched(value.split(" "), spaced).map(" ".join) | respaced(value)
    if kind == "table":
        return st.one_of(touched(value, row), *(edited_row(value, n) for n in range(len(value))))
    return touched(value, words).filter(bool)


def respaced(text: str) -> st.SearchStrategy[str]:
    """``text`` with a space added somewhere, or one of its spaces taken out or changed."""
    at = st.integers(0, len(text))
    added = st.tuples(at, st.sampled_from([" ", "\u00a0"])).map(lambda a: text[: a[0]] + a[1] + text[a[0] :])
    spaces = [n for n, c in enumerate(text) if c.isspace()]
    if not spaces:
        return added
    changed = st.tuples(st.sampled_from(spaces), st.sampled_from(["", " ", "\u00a0", "\n"]))
    return added | changed.map(lambda c: text[: c[0]] + c[1] + text[c[0] + 1 :])


def edited_row(rows: list[list[str]], n: int) -> st.SearchStrategy[list[list[str]]]:
    """``rows`` with one cell of row ``n`` rewritten."""

    def change(cell_word: tuple[int, str]) -> list[list[str]]:
        cell, word = cell_word
        row = list(rows[n])
        row[cell] = word
        return [*rows[:n], row, *rows[n + 1 :]]

    return st.tuples(st.integers(0, 1), words).map(change)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(revised())
def test_each_side_of_the_marks_is_that_revision(pair: tuple[str, str]) -> None:
    old, new = pair
    diff = diff_revisions(old, new)
    check_nesting(diff.html)
    assert_sides(old, new, diff)
    top_marks = [c for c in parse(diff.html).children if isinstance(c, Element) and c.tag in ("ins", "del")]
    assert not any(blank(mark) for mark in top_marks), "a mark around the spaces between blocks"


def blank(mark: Element) -> bool:
    return all(isinstance(c, str) and not c.strip() for c in mark.children)


@settings(max_examples=100, deadline=None)
@given(revised())
def test_no_change_no_mark(pair: tuple[str, str]) -> None:
    _, new = pair
    diff = diff_revisions(new, new)
    assert (diff.words_added, diff.words_removed, diff.blocks_changed) == (0, 0, 0)
    assert diff.html == new


# --- reading the output ----------------------------------------------------------------------

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
NO_MARK_INSIDE = {"ul", "ol", "table", "thead", "tbody", "tfoot", "tr"}


@dataclass
class Element:
    tag: str
    attrs: list[tuple[str, str | None]]
    children: list[Element | str] = field(default_factory=list)


class TreeReader(HTMLParser):
    """Parses HTML strictly: every end tag must close the innermost open element."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack = [Element("#root", [])]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = Element(tag, attrs)
        parent = self.stack[-1]
        if tag in ("ins", "del"):
            assert parent.tag not in NO_MARK_INSIDE, f"<{tag}> directly inside <{parent.tag}>"
            assert not any(open_.tag in ("ins", "del") for open_ in self.stack), f"<{tag}> inside a mark"
        parent.children.append(element)
        if tag not in VOID:
            self.stack.append(element)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        assert tag in VOID, f"<{tag}/> is not a void element"
        self.stack[-1].children.append(Element(tag, attrs))

    def handle_endtag(self, tag: str) -> None:
        assert self.stack[-1].tag == tag, f"</{tag}> closes <{self.stack[-1].tag}>"
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


def parse(html: str) -> Element:
    reader = TreeReader()
    reader.feed(html)
    reader.close()
    assert len(reader.stack) == 1, f"left open: {[e.tag for e in reader.stack[1:]]}"
    return reader.stack[0]


def check_nesting(html: str) -> None:
    parse(html)


def side(node: Element, kind: str) -> Element:
    """One revision out of the diff: the other kind of mark dropped, this kind unwrapped."""
    other = "del" if kind == "ins" else "ins"
    children: list[Element | str] = []
    for child in node.children:
        if isinstance(child, str):
            children.append(child)
        elif child.tag == other or (("data-diff", other) in child.attrs):
            continue
        elif child.tag == kind:
            children.extend(side(child, kind).children)
        else:
            attrs = [(name, value) for name, value in child.attrs if name != "data-diff"]
            children.append(Element(child.tag, attrs, side(child, kind).children))
    return Element(node.tag, node.attrs, children)


@dataclass
class Reading:
    text: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)


def read(node: Element, into: Reading, pre: bool = False) -> Reading:
    """Text as DESIGN.md's body text reads it (a tag is a space), whitespace inside <pre> kept
    visible; and the tags in order."""
    for child in node.children:
        if isinstance(child, str):
            into.text.append("".join(f"<{ord(c)}>" if pre and c.isspace() else c for c in child))
        else:
            into.tags.append(f"{child.tag} {[a for a in child.attrs if a[0] != 'id']}")
            into.text.append(" ")
            read(child, into, pre or child.tag == "pre")
            into.text.append(" ")
    return into


def reading(node: Element) -> tuple[str, list[str]]:
    found = read(node, Reading())
    return " ".join("".join(found.text).split()), found.tags


def assert_sides(old: str, new: str, diff: RevisionDiff) -> None:
    shown = parse(diff.html)
    assert reading(side(shown, "del")) == reading(parse(old))
    assert reading(side(shown, "ins")) == reading(parse(new))
