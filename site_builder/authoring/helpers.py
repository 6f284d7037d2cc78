"""The body helpers authors call: each returns a :class:`Block` of safe HTML.

The markup is the established format downstream importers read, byte for
byte. A plain ``str`` is inline Markdown, :class:`Markup` is trusted HTML, and
code and alt text are escaped completely. A wrong argument never raises, nor does a
call the helper's signature does not take: the block records a flaw at the author's
line and validation reports it with the batch's other problems.
"""

from __future__ import annotations

import functools
import inspect
import json
import re
import textwrap
from collections.abc import Callable, Mapping, Sequence
from typing import ParamSpec

from markupsafe import Markup

from site_builder.authoring.escaping import attr, element, escape_text, forbidden_character, urls_in_html
from site_builder.authoring.markdown import render_block, render_inline
from site_builder.authoring.model import Block, CallSite, Fixture, Flaw, Verified, call_site
from site_builder.errors import did_you_mean

_LANGUAGE = re.compile(r"[A-Za-z0-9_+#.-]{1,40}")
_Args = ParamSpec("_Args")


class _Parts:
    """Collects the URLs and flaws of one helper call while it renders."""

    def __init__(self, helper: str, site: CallSite) -> None:
        self.helper, self.site = helper, site
        self.urls: list[str] = []
        self.flaws: list[Flaw] = []

    def flaw(self, rule: str, message: str) -> str:
        self.flaws.append(Flaw(self.site, rule, f"{self.helper}(): {message}"))
        return ""

    def inline(self, value: object, what: str, *, numbers: bool = False) -> str:
        """Render author text: Markdown for ``str``, verbatim for ``Markup``."""
        if isinstance(value, Markup):
            self.urls.extend(urls_in_html(value))
            return str(value)
        if isinstance(value, str):
            if bad := forbidden_character(value):
                # Checked on the raw text: Markdown would turn NUL into U+FFFD silently.
                self.flaw("xml-character", f"{what} contains {bad}")
            rendered = render_inline(value)
            self.urls.extend(rendered.urls)
            return rendered.html
        if numbers and isinstance(value, int | float) and not isinstance(value, bool):
            return escape_text(str(value))
        allowed = "a str, a number or Markup" if numbers else "a str or Markup"
        return self.flaw("helper-type", f"{what} must be {allowed}, not {_kind(value)}")

    def items(self, value: object, what: str) -> Sequence[object]:
        if isinstance(value, list | tuple):
            return value
        self.flaw("helper-type", f"{what} must be a list, not {_kind(value)}")
        return ()

    def block(self, html: str, verified: Verified | None = None) -> Block:
        return Block.make(html, self.site, urls=tuple(self.urls), flaws=tuple(self.flaws), verified=verified)


def _forgiving(helper: Callable[_Args, Block]) -> Callable[_Args, Block]:
    """``helper``, except that a call its signature does not take (a keyword it does not
    have, an argument missing or given twice, one too many) returns an empty block with
    each mistake as a ``helper-arguments`` flaw at the author's line, instead of raising a
    TypeError that would stop the whole batch from importing. Type checkers still see the
    helper's own signature. A call that fits costs nothing more than the call: the
    signature is read only when Python refused the arguments (a TypeError raised before the
    helper's own frame began)."""
    signature = inspect.signature(helper)

    @functools.wraps(helper)
    def call(*args: _Args.args, **kwargs: _Args.kwargs) -> Block:
        try:
            return helper(*args, **kwargs)
        except TypeError as exc:
            if exc.__traceback__ is None or exc.__traceback__.tb_next is not None:
                raise  # raised inside the helper: a bug of ours, not the author's call
            refused = str(exc)
        parts = _Parts(helper.__name__, call_site())
        for message in _misfits(signature, args, kwargs) or [refused]:
            parts.flaw("helper-arguments", message)
        return parts.block("")

    return call


def _misfits(signature: inspect.Signature, args: Sequence[object], kwargs: Mapping[str, object]) -> list[str]:
    """What in a call with ``args`` and ``kwargs`` does not fit ``signature``."""
    params = signature.parameters
    positional = [p.name for p in params.values() if p.kind is p.POSITIONAL_OR_KEYWORD]
    found = []
    if len(args) > len(positional):
        found.append(f"takes {_count(len(positional), 'argument')}, not {len(args)}")
    given = set(positional[: len(args)])
    found += [_keyword_misfit(name, params, given) for name in kwargs if name not in params or name in given]
    given |= set(kwargs)
    found += [f"missing {p.name!r}" for p in params.values() if p.default is p.empty and p.name not in given]
    return found


def _keyword_misfit(name: str, params: Mapping[str, inspect.Parameter], given: set[str]) -> str:
    """A keyword the helper does not have, or one it was given by position too."""
    if name in given:
        return f"{name!r} is given twice, by position and by keyword"
    close = did_you_mean(name, params)
    return f"unknown keyword {name!r}" + (close or f"; it takes {', '.join(params)}")


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _kind(value: object) -> str:
    return "None" if value is None else type(value).__name__


@_forgiving
def paragraph(text: str) -> Block:
    """``<p>TEXT</p>``."""
    parts = _Parts("paragraph", call_site())
    return parts.block(str(element("p", parts.inline(text, "the text"))))


@_forgiving
def heading(text: str) -> Block:
    """``<h2>TEXT</h2>``: a section of the article, listed in its contents."""
    parts = _Parts("heading", call_site())
    return parts.block(str(element("h2", parts.inline(text, "the text"))))


@_forgiving
def markdown(text: str) -> Block:
    """A piece of CommonMark (paragraphs, lists, fences) with raw HTML off."""
    parts = _Parts("markdown", call_site())
    if isinstance(text, Markup):
        return parts.block(parts.inline(text, "the text"))
    if not isinstance(text, str):
        return parts.block(parts.flaw("helper-type", f"the text must be a str, not {_kind(text)}"))
    if bad := forbidden_character(text):
        parts.flaw("xml-character", f"the text contains {bad}")
    rendered = render_block(text)
    parts.urls.extend(rendered.urls)
    return parts.block(rendered.html)


@_forgiving
def code_block(code: str, language: str | None = None) -> Block:
    """``<pre><code class="language-L">CODE</code></pre>``, the code escaped."""
    parts = _Parts("code_block", call_site())
    return parts.block(_code_html(parts, code, language))


def _code_html(parts: _Parts, code: object, language: object) -> str:
    if not isinstance(code, str):
        parts.flaw("helper-type", f"the code must be a str, not {_kind(code)}")
        code = ""
    lang_attr = ""
    if language is not None:
        if isinstance(language, str) and _LANGUAGE.fullmatch(language):
            lang_attr = attr("class", f"language-{language}")
        else:
            parts.flaw("code-language", f"language {language!r} is not a name like 'python'")
    return f"<pre><code{lang_attr}>{escape_text(str(code).strip())}</code></pre>"


@_forgiving
def figure(src: str, alt: str, caption: str) -> Block:
    """An image with alt text and a caption; both are required."""
    parts = _Parts("figure", call_site())
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


@_forgiving
def ordered_list(items: Sequence[str]) -> Block:
    """``<ol><li>ITEM</li>…</ol>``."""
    parts = _Parts("ordered_list", call_site())
    return parts.block(_list_html(parts, "ol", items))


@_forgiving
def unordered_list(items: Sequence[str]) -> Block:
    """``<ul><li>ITEM</li>…</ul>``."""
    parts = _Parts("unordered_list", call_site())
    return parts.block(_list_html(parts, "ul", items))


def _list_html(parts: _Parts, tag: str, items: object) -> str:
    values = parts.items(items, "the items")
    if isinstance(items, list | tuple) and not values:
        parts.flaw("list-empty", "a list needs at least one item")
    lis = "".join(str(element("li", parts.inline(v, f"item {n}"))) for n, v in enumerate(values, 1))
    return str(element(tag, lis))


@_forgiving
def data_table(caption: str, headers: Sequence[str], rows: Sequence[Sequence[str | int | float]]) -> Block:
    """A captioned table inside a scrolling wrapper; every row as wide as the header."""
    parts = _Parts("data_table", call_site())
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
                f"row {number} has {_count(len(cells), 'cell')}; the header has {len(head)}",
            )
        tds = "".join(
            str(element("td", parts.inline(c, f"row {number} cell {i}", numbers=True)))
            for i, c in enumerate(cells, 1)
        )
        trs.append(f"<tr>{tds}</tr>")
    cap = element("caption", parts.inline(caption, "the caption"))
    table = f"<table>{cap}<thead><tr>{ths}</tr></thead><tbody>{''.join(trs)}</tbody></table>"
    return parts.block(f'<div class="table-scroll">{table}</div>')


@_forgiving
def verified_output(fixture: Fixture, expected: object) -> Block:
    """Print ``expected`` as JSON; the build fails unless ``fixture`` returns it."""
    parts = _Parts("verified_output", call_site())
    try:
        text = json.dumps(expected, ensure_ascii=False, indent=2, allow_nan=False)
    except (TypeError, ValueError) as exc:
        parts.flaw("verified-expected", f"expected is not a JSON value: {exc}")
        text = ""
    verified = Verified(fixture=fixture, expected=expected) if _is_fixture(parts, fixture) else None
    return parts.block(_code_html(parts, text, "json"), verified)


def _is_fixture(parts: _Parts, fixture: object) -> bool:
    """Whether ``fixture`` is one, a flaw noted when it is not."""
    if isinstance(fixture, Fixture):
        return True
    parts.flaw("verified-fixture", f"the first argument must be a @fixture function, not {_kind(fixture)}")
    return False


@_forgiving
def transcript(fixture: Fixture, session: str, key: str = "transcript") -> Block:
    """A terminal session: a line starting with ``$ `` is a command, the lines after it what
    it printed. The build fails unless ``fixture`` returns the same lines under ``key``."""
    parts = _Parts("transcript", call_site())
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


def _session_lines(parts: _Parts, session: object) -> list[str]:
    """The session's lines, its common indentation and blank first and last lines taken off."""
    if not isinstance(session, str):
        parts.flaw("helper-type", f"the session must be a str, not {_kind(session)}")
        return []
    if bad := forbidden_character(session):
        parts.flaw("xml-character", f"the session contains {bad}")
    lines = textwrap.dedent(session).strip("\n").splitlines()
    if not lines or not lines[0].startswith(PROMPT):
        parts.flaw("transcript-session", f"a session starts with a command: a line beginning with {PROMPT!r}")
    return lines
