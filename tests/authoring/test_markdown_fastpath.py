"""Plain text skips the Markdown parser; the result must be what the parser gives."""

from __future__ import annotations

import importlib

from hypothesis import given, settings
from hypothesis import strategies as st

markdown = importlib.import_module("site_builder.authoring.markdown")

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


# Prose as authors write it, with the spellings the fast renderer takes and the near
# misses it must leave to the parser (single stars, spaces inside spans, images, stray
# brackets and backticks, escapes, URLs the parser re-encodes).
_PIECES = st.one_of(
    st.text(alphabet=" aZяЖ한1.,;:!?&'\"()%/#-\t", max_size=8),
    st.sampled_from(
        ["**", "*", "***", "`", "``", "[", "]", "(", ")", "!", "![", "_", "\\", "<", ">", "~", "\n", " "]
    ),
    st.builds("`{}`".format, st.text(alphabet=" a`*[]_я\\", max_size=5)),
    st.builds("**{}**".format, st.text(alphabet=" a*_.я1`!,", max_size=6)),
    st.builds(
        "[{}]({})".format,
        st.text(alphabet=" a*я]`!&", max_size=5),
        st.text(alphabet="aZ/:.?=#%&'()*_~ \"<>я1!@$+{}|^Ω\u00a0", max_size=12),
    ),
)
PROSE = st.lists(_PIECES, max_size=8).map("".join)


@settings(max_examples=2000, deadline=None)
@given(PROSE)
def test_prose_renders_as_the_parser_renders_it(text: str) -> None:
    assert markdown.render_inline(text) == markdown.parse_inline(text)


def test_plain_spellings_of_code_strong_and_links_skip_the_parser() -> None:
    text = "Лидер **пакет signature**, `retry_after` и [узел](https://example.org/ref/1?a=b#c)."
    fast = markdown._simple_inline(text)
    assert fast == markdown.parse_inline(text)
    assert fast is not None and fast.urls == ("https://example.org/ref/1?a=b#c",)
    assert markdown._simple_inline("a *b* c") is None  # emphasis with one star: the parser's
