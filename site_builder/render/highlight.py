"""Syntax highlighting of code blocks on the page, with Pygments CSS classes.

``contentHtml`` keeps the helpers' plain ``<pre><code class="language-L">``; the
page gets Pygments tokens as ``<span class="…">`` (no inline styles), and the
stylesheet carries the colours for light and dark mode.
"""

from __future__ import annotations

import functools
import hashlib
import html
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import pygments
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexer import Lexer
from pygments.lexers import get_lexer_by_name
from pygments.util import ClassNotFound

_BLOCK = re.compile(r'<pre><code class="language-([A-Za-z0-9_+#.-]+)">(.*?)</code></pre>', re.DOTALL)
_FORMATTER = HtmlFormatter(nowrap=True)


@dataclass(frozen=True, slots=True)
class Highlights:
    """The code blocks of one batch's pages in their highlighted form, by :func:`block_key`:
    those an earlier build of the batch showed, and those this one shows (the next build's).

    A block found among the earlier ones is not highlighted again. A new worker process
    compiles a lexer's rules at its first block (Python's: 0.02 s), which a rebuild after an
    edit of the prose alone then skips; the form depends on nothing but the block and
    Pygments' version, which the key holds."""

    earlier: Mapping[str, str] = field(default_factory=dict)
    shown: dict[str, str] = field(default_factory=dict)

    def of(self, block: str, language: str, escaped: str) -> str:
        """The highlighted form of ``block`` (see :func:`highlight_code`)."""
        key = block_key(block)
        found = self.shown.get(key)
        if found is None:
            found = self.earlier.get(key)
        if found is None:
            found = _highlighted(block, language, escaped)
        self.shown[key] = found
        return found


def block_key(block: str) -> str:
    """What a code block's highlighted form is known by: a hash of it and of Pygments' version."""
    return hashlib.sha256(f"{pygments.__version__}\0{block}".encode("utf-8", "surrogatepass")).hexdigest()


def highlight_code(page_html: str, highlights: Highlights | None = None) -> str:
    """Replace each code block with a language by its highlighted form (taken from, and noted in,
    ``highlights`` when given)."""
    return _BLOCK.sub(_replace if highlights is None else _replacer(highlights), page_html)


def _replacer(highlights: Highlights) -> Callable[[re.Match[str]], str]:
    def replace(match: re.Match[str]) -> str:
        return highlights.of(match.group(0), match.group(1), match.group(2))

    return replace


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
