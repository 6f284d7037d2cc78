"""Syntax highlighting of code blocks on the page, with Pygments CSS classes.

``contentHtml`` keeps the helpers' plain ``<pre><code class="language-L">``; the
page gets Pygments tokens as ``<span class="…">`` (no inline styles), and the
stylesheet carries the colours for light and dark mode.
"""

from __future__ import annotations

import functools
import html
import re

from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexer import Lexer
from pygments.lexers import get_lexer_by_name
from pygments.util import ClassNotFound

_BLOCK = re.compile(r'<pre><code class="language-([A-Za-z0-9_+#.-]+)">(.*?)</code></pre>', re.DOTALL)
_FORMATTER = HtmlFormatter(nowrap=True)


def highlight_code(page_html: str) -> str:
    """Replace each code block with a language by its highlighted form."""
    return _BLOCK.sub(_replace, page_html)


@functools.lru_cache(maxsize=64)
def _lexer(language: str) -> Lexer | None:
    """The lexer of a language, found once: Pygments' lookup costs a millisecond a block."""
    try:
        return get_lexer_by_name(language, stripnl=False, ensurenl=False)
    except ClassNotFound:
        return None


def _replace(match: re.Match[str]) -> str:
    return _highlighted(match.group(0), match.group(1), match.group(2))


# An article's revisions, its diff pages and a site's repeated snippets show one block many
# times: each is highlighted once per process. The result depends on nothing but its arguments.
@functools.lru_cache(maxsize=1024)
def _highlighted(block: str, language: str, escaped: str) -> str:
    lexer = _lexer(language.lower())
    if lexer is None:
        return block
    code = html.unescape(escaped)
    # Pygments drops leading U+FEFFs (one or all, by version); the page must show what was written.
    bom = code[: len(code) - len(code.lstrip("\ufeff"))]
    tokens = bom + highlight(code[len(bom) :], lexer, _FORMATTER).rstrip("\n")
    return f'<pre class="highlight" tabindex="0"><code class="language-{language}">{tokens}</code></pre>'


def highlight_css() -> str:
    """Token colours: a light style, and a dark one under ``prefers-color-scheme``."""
    # xcode: every token colour keeps a 4.5:1 contrast on the theme's code background.
    light = HtmlFormatter(style="xcode").get_style_defs(".highlight")  # type: ignore[no-untyped-call]
    dark = HtmlFormatter(style="monokai").get_style_defs(".highlight")  # type: ignore[no-untyped-call]
    # screen only: paper gets the light colours even when the system is in dark mode.
    dark_block = f"@media screen and (prefers-color-scheme: dark) {{\n{_only_tokens(dark)}\n}}"
    return f"{_only_tokens(light)}\n{dark_block}\n"


def _only_tokens(css: str) -> str:
    """Drop Pygments' own background and line rules: the theme sets those."""
    keep = [line for line in css.splitlines() if re.match(r"\.highlight \.\w+ \{", line)]
    return "\n".join(keep)
