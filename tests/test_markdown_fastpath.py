"""Plain text skips the Markdown parser; the result must be what the parser gives."""

from __future__ import annotations

import importlib

from hypothesis import given, settings
from hypothesis import strategies as st

markdown = importlib.import_module("site_builder.markup")

# Everything except the characters that can start an inline rule: the shortcut's domain.
PLAIN = st.text(
    alphabet=st.characters(blacklist_characters="\n\r\x00\\`*_[]!<~&", blacklist_categories=("Cs",)),
    max_size=80,
)


@settings(max_examples=500, deadline=None)
@given(PLAIN)
def test_plain_text_renders_as_the_parser_renders_it(text: str) -> None:
    assert markdown.render_inline(text) == markdown.parse_inline(text)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_any_text_renders_as_the_parser_renders_it(text: str) -> None:
    assert markdown.render_inline(text).html == markdown.parse_inline(text).html


def test_active_text_still_goes_through_the_parser() -> None:
    assert markdown.render_inline("a `b` *c*").html == "a <code>b</code> <em>c</em>"
