"""The line of a link inside the helper call that holds it.

A block knows the line its helper call starts on; a paragraph written over ten lines has its
links on any of them. A problem with a link is reported at the line of the string literal
that holds the URL, found when the problem is (never for a link that is fine): the file is
parsed, the call that starts at the block's line gives the span, and its string tokens are
read in order. Where the URL cannot be found as written (built by code, split between two
literals, in an f-string), the call's own line stands.
"""

from __future__ import annotations

import ast
import io
import tokenize

from site_builder.authoring.model import CallSite


def link_site(site: CallSite, url: str) -> CallSite:
    """The line, within the call that starts at ``site``, of the first string literal that
    holds ``url``; ``site`` itself when there is none."""
    try:
        with open(site.path, encoding="utf-8") as file:
            source = file.read()
        tree = ast.parse(source, site.path)
    except (OSError, SyntaxError, ValueError):
        return site
    ends = [
        node.end_lineno or node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and node.lineno == site.line
    ]
    if not ends or max(ends) == site.line:
        return site
    lines = source.splitlines(keepends=True)[site.line - 1 : max(ends)]
    found = _string_line(lines, url)
    return CallSite(site.path, site.line + found - 1) if found is not None else site


def _string_line(lines: list[str], url: str) -> int | None:
    """The 1-based line, in ``lines``, of the first string literal whose value holds ``url``."""
    try:
        for token in tokenize.generate_tokens(io.StringIO("".join(lines)).readline):
            if token.type == tokenize.STRING and url in _value(token.string):
                return token.start[0]
    except (tokenize.TokenError, SyntaxError):  # the span ends inside a bracket, say
        return None
    return None


def _value(literal: str) -> str:
    """The text of a string literal token; empty for an f-string or bytes."""
    try:
        value = ast.literal_eval(literal)
    except (ValueError, SyntaxError):
        return ""
    return value if isinstance(value, str) else ""
