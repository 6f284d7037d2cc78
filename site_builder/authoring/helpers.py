"""The body helpers authors call: each returns a :class:`Block` of safe HTML.

The markup is the established format downstream importers read, byte for
byte. A plain ``str`` is inline Markdown, :class:`Markup` is trusted HTML, and
code and alt text are escaped completely. A wrong argument never raises, nor does a
call the helper's signature does not take: the block records a flaw at the author's
line and validation reports it with the batch's other problems.
"""

from __future__ import annotations

import json
import re
import textwrap
from collections.abc import Mapping, Sequence

from markupsafe import Markup

from site_builder.authoring.calls import Parts, count, forgiving, kind
from site_builder.authoring.escaping import attr, element, escape_text, forbidden_character
from site_builder.authoring.markdown import render_block
from site_builder.authoring.model import Block, Chart, Fixture, Verified, call_site

_LANGUAGE = re.compile(r"[A-Za-z0-9_+#.-]{1,40}")


@forgiving
def paragraph(text: str) -> Block:
    """``<p>TEXT</p>``."""
    parts = Parts("paragraph", call_site())
    return parts.block(str(element("p", parts.inline(text, "the text"))))


@forgiving
def heading(text: str) -> Block:
    """``<h2>TEXT</h2>``: a section of the article, listed in its contents."""
    parts = Parts("heading", call_site())
    return parts.block(str(element("h2", parts.inline(text, "the text"))))


@forgiving
def markdown(text: str) -> Block:
    """A piece of CommonMark (paragraphs, lists, fences) with raw HTML off."""
    parts = Parts("markdown", call_site())
    if isinstance(text, Markup):
        return parts.block(parts.inline(text, "the text"))
    if not isinstance(text, str):
        return parts.block(parts.flaw("helper-type", f"the text must be a str, not {kind(text)}"))
    if bad := forbidden_character(text):
        parts.flaw("xml-character", f"the text contains {bad}")
    rendered = render_block(text)
    parts.urls.extend(rendered.urls)
    return parts.block(rendered.html)


@forgiving
def code_block(code: str, language: str | None = None) -> Block:
    """``<pre><code class="language-L">CODE</code></pre>``, the code escaped."""
    parts = Parts("code_block", call_site())
    return parts.block(_code_html(parts, code, language))


def _code_html(parts: Parts, code: object, language: object) -> str:
    if not isinstance(code, str):
        parts.flaw("helper-type", f"the code must be a str, not {kind(code)}")
        code = ""
    lang_attr = ""
    if language is not None:
        if isinstance(language, str) and _LANGUAGE.fullmatch(language):
            lang_attr = attr("class", f"language-{language}")
        else:
            parts.flaw("code-language", f"language {language!r} is not a name like 'python'")
    return f"<pre><code{lang_attr}>{escape_text(str(code).strip())}</code></pre>"


@forgiving
def figure(src: str, alt: str, caption: str) -> Block:
    """An image with alt text and a caption; both are required."""
    parts = Parts("figure", call_site())
    if not isinstance(src, str) or not src.strip():
        parts.flaw("figure-src", f"src must be a non-empty path, not {src!r}")
        src = ""
    else:
        parts.urls.append(src)
    if not isinstance(alt, str) or not alt.strip():
        parts.flaw("figure-alt", "alt text is required and must not be empty")
        alt = alt if isinstance(alt, str) else ""
    if isinstance(caption, str) and not caption.strip():
        parts.flaw("figure-caption", "a caption is required and must not be empty")
    img = f'<img{attr("src", src)}{attr("alt", alt)} loading="lazy" />'
    return parts.block(f"<figure>{img}{element('figcaption', parts.inline(caption, 'the caption'))}</figure>")


@forgiving
def ordered_list(items: Sequence[str]) -> Block:
    """``<ol><li>ITEM</li>…</ol>``."""
    parts = Parts("ordered_list", call_site())
    return parts.block(_list_html(parts, "ol", items))


@forgiving
def unordered_list(items: Sequence[str]) -> Block:
    """``<ul><li>ITEM</li>…</ul>``."""
    parts = Parts("unordered_list", call_site())
    return parts.block(_list_html(parts, "ul", items))


def _list_html(parts: Parts, tag: str, items: object) -> str:
    values = parts.items(items, "the items")
    if isinstance(items, list | tuple) and not values:
        parts.flaw("list-empty", "a list needs at least one item")
    lis = "".join(str(element("li", parts.inline(v, f"item {n}"))) for n, v in enumerate(values, 1))
    return str(element(tag, lis))


@forgiving
def data_table(caption: str, headers: Sequence[str], rows: Sequence[Sequence[str | int | float]]) -> Block:
    """A captioned table inside a scrolling wrapper; every row as wide as the header."""
    parts = Parts("data_table", call_site())
    head = parts.items(headers, "the headers")
    if isinstance(headers, list | tuple) and not head:
        parts.flaw("table-headers", "a table needs at least one header")
    ths = "".join(f'<th scope="col">{parts.inline(h, f"header {n}")}</th>' for n, h in enumerate(head, 1))
    trs = []
    for number, row in enumerate(parts.items(rows, "the rows"), 1):
        cells = parts.items(row, f"row {number}")
        if isinstance(row, list | tuple) and len(cells) != len(head):
            parts.flaw(
                "table-row-width",
                f"row {number} has {count(len(cells), 'cell')}; the header has {len(head)}",
            )
        tds = "".join(
            str(element("td", parts.inline(c, f"row {number} cell {i}", numbers=True)))
            for i, c in enumerate(cells, 1)
        )
        trs.append(f"<tr>{tds}</tr>")
    cap = element("caption", parts.inline(caption, "the caption"))
    table = f"<table>{cap}<thead><tr>{ths}</tr></thead><tbody>{''.join(trs)}</tbody></table>"
    return parts.block(f'<div class="table-scroll">{table}</div>')


@forgiving
def verified_output(fixture: Fixture, expected: object) -> Block:
    """Print ``expected`` as JSON; the build fails unless ``fixture`` returns it."""
    parts = Parts("verified_output", call_site())
    try:
        text = json.dumps(expected, ensure_ascii=False, indent=2, allow_nan=False)
    except (TypeError, ValueError) as exc:
        parts.flaw("verified-expected", f"expected is not a JSON value: {exc}")
        text = ""
    verified = Verified(fixture=fixture, expected=expected) if _is_fixture(parts, fixture) else None
    return parts.block(_code_html(parts, text, "json"), verified)


def _is_fixture(parts: Parts, fixture: object) -> bool:
    """Whether ``fixture`` is one, a flaw noted when it is not."""
    if isinstance(fixture, Fixture):
        return True
    parts.flaw("verified-fixture", f"the first argument must be a @fixture function, not {kind(fixture)}")
    return False


@forgiving
def transcript(fixture: Fixture, session: str, key: str = "transcript") -> Block:
    """A terminal session: a line starting with ``$ `` is a command, the lines after it what
    it printed. The build fails unless ``fixture`` returns the same lines under ``key``."""
    parts = Parts("transcript", call_site())
    lines = _session_lines(parts, session)
    if not isinstance(key, str) or not key:
        parts.flaw("helper-type", f"key must be a non-empty str, not {key!r}")
        key = "transcript"
    shown = "\n".join(
        f'<span class="prompt">$ </span><kbd>{escape_text(line[2:])}</kbd>'
        if line.startswith(PROMPT)
        else escape_text(line)
        for line in lines
    )
    html = f'<pre class="transcript"><samp>{shown}</samp></pre>'
    verified = (
        Verified(fixture=fixture, expected={key: lines}, helper="transcript")
        if _is_fixture(parts, fixture)
        else None
    )
    return parts.block(html, verified)


PROMPT = "$ "
"""What starts a command's line in a transcript."""


def _session_lines(parts: Parts, session: object) -> list[str]:
    """The session's lines, its common indentation and blank first and last lines taken off."""
    if not isinstance(session, str):
        parts.flaw("helper-type", f"the session must be a str, not {kind(session)}")
        return []
    if bad := forbidden_character(session):
        parts.flaw("xml-character", f"the session contains {bad}")
    lines = textwrap.dedent(session).strip("\n").splitlines()
    if not lines or not lines[0].startswith(PROMPT):
        parts.flaw("transcript-session", f"a session starts with a command: a line beginning with {PROMPT!r}")
    return lines


@forgiving
def chart(fixture: Fixture, spec: Mapping[str, object], alt: str, caption: str, data: str = "chart") -> Block:
    """A chart the build draws from the rows ``fixture`` returns under ``data``, as the
    Vega-Lite specification ``spec`` (without its ``data``) says; ``alt`` names it for those who
    cannot see it, and the page shows the rows as a table too."""
    parts = Parts("chart", call_site())
    spec = _chart_spec(parts, spec)
    if not isinstance(alt, str) or not alt.strip():
        parts.flaw("chart-alt", "alt text is required and must not be empty")
    if not isinstance(data, str) or not data:
        parts.flaw("helper-type", f"data must be a non-empty str, not {data!r}")
    if isinstance(caption, str) and not caption.strip():
        parts.flaw("chart-caption", "a caption is required and must not be empty")
    captioned = parts.inline(caption, "the caption")
    html = f'<figure class="chart">{element("figcaption", captioned)}</figure>'
    if not _is_fixture(parts, fixture):
        return parts.block(html)
    drawn = Chart(spec=spec, key=str(data), alt=alt if isinstance(alt, str) else "", caption=captioned)
    return parts.block(html, Verified(fixture=fixture, expected={}, helper="chart"), drawn)


def _chart_spec(parts: Parts, spec: object) -> dict[str, object]:
    """``spec`` as a JSON object without ``data``; an empty one, and a flaw, when it is not."""
    if not isinstance(spec, Mapping) or "data" in spec:
        parts.flaw(
            "chart-spec",
            "spec must be a Vega-Lite specification (a dict) without 'data': the rows come from the fixture",
        )
        return {}
    try:
        json.dumps(spec, allow_nan=False)
    except (TypeError, ValueError) as exc:
        parts.flaw("chart-spec", f"spec is not a JSON value: {exc}")
        return {}
    return dict(spec)
