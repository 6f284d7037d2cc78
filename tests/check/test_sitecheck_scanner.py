"""The rendered-site check reads tags the way a browser would, without a parse tree."""

from __future__ import annotations

from tests.support.reference import check_pages

FILES = {"index.html", "a/index.html", "x.svg"}


def messages(page: str) -> list[tuple[int, str]]:
    return [(p.line, p.message) for p in check_pages({"index.html": page}, FILES, "build")]


def test_every_quoting_style_of_an_attribute_is_read() -> None:
    page = "<a href='/missing/'>x</a>\n<a href=/gone>y</a>\n<img src=\"/x.svg\" alt=ok>"
    assert messages(page) == [
        (1, "'/missing/' points to no file of the site"),
        (2, "'/gone' points to no file of the site"),
    ]


def test_comments_scripts_and_styles_hide_no_real_tag_and_add_no_fake_one() -> None:
    page = (
        "<!-- <a href='/missing/'> -->\n"
        "<script>var s = '<img src=/nowhere.png>';</script>\n"
        "<style>a::after { content: '<a href=/x>' }</style>\n"
        "<img src='/x.svg'>"
    )
    assert messages(page) == [(4, "<img src='/x.svg'> has no alt text")]


def test_entities_in_attributes_are_decoded_and_ids_found() -> None:
    page = '<h2 id="a&amp;b">t</h2>\n<a href="#a&amp;b">ok</a> <a href="#nope">no</a>'
    assert messages(page) == [(2, "'#nope': no element with id 'nope' on index.html")]


def test_line_numbers_count_from_one() -> None:
    page = "\n\n\n<a href='/a/' target=\"_blank\" rel=noopener>x</a>"
    assert messages(page) == [(4, "link to '/a/' opens a new tab without rel=\"noopener noreferrer\"")]
