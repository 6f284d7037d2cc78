"""The one Markdown parser of the package: CommonMark with raw HTML off.

Everything an author types goes through :func:`render_inline` or
:func:`render_block`. Text and attributes are escaped with the package's own
spellings (``'`` as ``&#039;``), and every URL the text links to is returned
with the HTML, so validation can reject a disallowed scheme instead of the
parser silently dropping the link.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

from site_builder.authoring.escaping import escape_text


@dataclass(frozen=True, slots=True)
class Rendered:
    """HTML made from author text, with the URLs it points to."""

    html: str
    """Safe HTML: nothing the author typed became markup by itself."""
    urls: tuple[str, ...]
    """Link ``href`` and image ``src`` values, in document order."""


class _Renderer(RendererHTML):
    """markdown-it's renderer with the package's escaping spellings."""

    @staticmethod
    def renderAttrs(token: Token) -> str:  # noqa: N802 - markdown-it's name
        return "".join(f' {escape_text(key)}="{escape_text(str(value))}"' for key, value in token.attrItems())

    def text(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        return escape_text(tokens[idx].content)

    def code_inline(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        token = tokens[idx]
        return f"<code{self.renderAttrs(token)}>{escape_text(token.content)}</code>"

    def code_block(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        token = tokens[idx]
        return f"<pre{self.renderAttrs(token)}><code>{escape_text(token.content)}</code></pre>\n"


class _Parser(MarkdownIt):
    """Accepts every link so that validation, not the parser, judges it."""

    def validateLink(self, url: str) -> bool:  # noqa: N802 - markdown-it's name
        return True


@cache
def parser() -> MarkdownIt:
    """Return the shared parser; it is only read after it is built."""
    options: OptionsDict | dict[str, object] = {
        "html": False,
        "linkify": False,
        "typographer": False,
        # Fences go through the same escaping as everything else.
        "highlight": lambda code, _lang, _attrs: escape_text(code),
    }
    md = _Parser("commonmark", options, renderer_cls=_Renderer)
    # An author who types "&amp;" means those five characters, not "&".
    return md.disable("entity")


def _urls(tokens: Sequence[Token]) -> tuple[str, ...]:
    found: list[str] = []
    for token in tokens:
        if token.type == "link_open":
            found.append(str(token.attrGet("href") or ""))
        elif token.type == "image":
            found.append(str(token.attrGet("src") or ""))
        if token.children:
            found.extend(_urls(token.children))
    return tuple(found)


# Characters that can start an inline rule (or that normalisation changes). Text
# without any of them renders as itself, escaped: most headings, list items and
# table cells skip the parser, which is the largest cost of loading a site.
_ACTIVE = re.compile(r"[\n\r\x00\\`*_\[\]!<~&]")


def render_inline(text: str) -> Rendered:
    """Render one line-level piece of Markdown (no paragraphs, no headings)."""
    if _ACTIVE.search(text) is None:
        return Rendered(escape_text(text), ())
    return _simple_inline(text) or parse_inline(text)


# The inline Markdown of most prose, in its plainest spelling: `code`, **strong** and
# [text](url) between runs of plain text. A text made only of these renders here, as the
# parser would render it (tests compare the two on generated text); anything else --
# escapes, single `*` or `_`, images, autolinks, line breaks, nesting, spaces at the
# edge of a span -- returns None and goes to the parser.
_TEXT = r"[^\n\r\x00\\`*_\[\]<~]"
_SIMPLE = re.compile(
    # Plain text: any run without a rule's first character ("!" only before "[").
    r"(?P<plain>(?:[^\n\r\x00\\`*_\[\]<~!]|!(?!\[))[^\n\r\x00\\`*_\[\]<~!]*(?:!(?!\[)[^\n\r\x00\\`*_\[\]<~!]*)*)"
    r"|`(?P<code>[^`\n\r\x00 ](?:[^`\n\r\x00]*[^`\n\r\x00 ])?)`(?!`)"
    rf"|(?:^|(?<= ))\*\*(?P<strong>(?=\w){_TEXT}*(?<=[^\W_]))\*\*(?=$|[ .,;:?)])"
    rf'|\[(?P<label>{_TEXT}+)\]\((?P<href>[^\x00-\x20\x7f()<>\\"`\[\]&]+)\)'
)

# URLs the parser's normalisation leaves exactly as written (others go through it).
_VERBATIM_URL = re.compile(r"(?:https?://[A-Za-z0-9.-]+(?::[0-9]+)?)?(?:[/?#.][A-Za-z0-9/._~!$'*+,;=?#-]*)?")


def _simple_inline(text: str) -> Rendered | None:
    parts: list[str] = []
    urls: list[str] = []
    position = 0
    for match in _SIMPLE.finditer(text):
        if match.start() != position:
            return None
        position = match.end()
        kind = match.lastgroup
        if kind == "plain":
            parts.append(escape_text(match.group(0)))
        elif kind == "code":
            parts.append(f"<code>{escape_text(match.group(kind))}</code>")
        elif kind == "strong":
            parts.append(f"<strong>{escape_text(match.group(kind))}</strong>")
        else:
            href = match.group("href")
            if _VERBATIM_URL.fullmatch(href) is None:
                href = parser().normalizeLink(href)
            urls.append(href)
            parts.append(f'<a href="{escape_text(href)}">{escape_text(match.group("label"))}</a>')
    if position != len(text):
        return None
    return Rendered("".join(parts), tuple(urls))


def parse_inline(text: str) -> Rendered:
    """:func:`render_inline` without the shortcut for plain text (tests compare the two)."""
    md = parser()
    env: EnvType = {}
    tokens = md.parseInline(text, env)
    return Rendered(md.renderer.render(tokens, md.options, env), _urls(tokens))


def render_block(text: str) -> Rendered:
    """Render a Markdown document; the trailing newline is dropped."""
    md = parser()
    env: EnvType = {}
    tokens = md.parse(text, env)
    return Rendered(md.renderer.render(tokens, md.options, env).rstrip("\n"), _urls(tokens))
