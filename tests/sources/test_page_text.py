"""How a fetched page becomes the text a quote is looked for in, and how the client reads the
answers around it: typography, markup, character sets, PDFs, ``Retry-After``, redirects."""

from __future__ import annotations

import email.utils
import time

import pytest

from site_builder.sources.client import Client, _retry_after
from site_builder.sources.policy import Policy
from site_builder.sources.text import normalised, page_text
from tests.support.web import Reply, always, pdf, serving


@pytest.mark.parametrize(
    ("typed", "set_as"),
    [
        ('"idempotent" - it\'s safe...', "\u201cidempotent\u201d \u2014 it\u2019s safe\u2026"),
        ("a b", "a\u00a0\n\t b"),
        ("retry-able", "retry\u2011able"),
        ("hyphenation", "hyphen\u00adation"),
        ("fi", "\ufb01"),  # a ligature is its letters
        ("Повтор безопасен", "Повтор\u00a0безопасен"),
        ("같은 키", "같은\u3000키"),  # an ideographic space
    ],
)
def test_typography_a_reader_does_not_see_is_normalised_away(typed: str, set_as: str) -> None:
    assert normalised(set_as) == normalised(typed)


def test_a_word_wrapped_at_its_hyphen_reads_as_one_word() -> None:
    # A plain-text RFC, and the HTML pages made from one, wrap "non-idempotent" after its hyphen.
    wrapped = "<pre>   retry a request with a non-\n   idempotent method unless</pre>"
    assert page_text(wrapped.encode(), "text/html") == "retry a request with a non-idempotent method unless"
    assert normalised("a non-\r\n   idempotent method") == normalised("a non-idempotent method")
    # A hyphen before a space on the same line is not a wrapped word; nor is a dash between spaces.
    assert normalised("pre- and post-conditions") == "pre- and post-conditions"
    assert normalised("retries -\nthree at most") == "retries - three at most"


def test_case_is_kept() -> None:
    assert normalised("Idempotent") != normalised("idempotent")


def test_an_html_page_reads_as_its_visible_text() -> None:
    body = (
        "<html><head><title>Title</title><style>p{}</style></head><body><script>let x</script>"
        "<p>First<br>line</p><p>Bo<b>l</b>d <a href='/x'>link</a></p><ul><li>one</li><li>two</li></ul>"
        "<noscript>enable</noscript><p>a &amp; b</p></body></html>"
    )
    assert page_text(body.encode(), "text/html") == "First line Bold link one two a & b"


def test_the_character_set_comes_from_the_header_or_the_page() -> None:
    russian = "<p>Повтор запроса безопасен</p>"
    assert (
        page_text(russian.encode("cp1251"), "text/html; charset=windows-1251") == "Повтор запроса безопасен"
    )
    declared = '<html><head><meta charset="windows-1251"></head><body>' + russian + "</body></html>"
    assert page_text(declared.encode("cp1251"), "text/html") == "Повтор запроса безопасен"
    assert page_text("<p>같은 키는 한 번</p>".encode(), "text/html; charset=utf-8") == "같은 키는 한 번"


def test_a_pdf_and_plain_text_read_as_their_text() -> None:
    assert page_text(pdf("Retries are safe for idempotent methods"), "application/pdf") == (
        "Retries are safe for idempotent methods"
    )
    assert page_text(pdf("Served as octets"), "application/octet-stream") == "Served as octets"
    assert page_text(b"%PDF-1.4\nnot really", "application/pdf") is None
    assert page_text("plain\n  text \u2014 here".encode(), "text/plain; charset=utf-8") == "plain text - here"


def test_retry_after_takes_seconds_or_a_date() -> None:
    assert _retry_after("120") == 120
    later = email.utils.formatdate(time.time() + 30, usegmt=True)
    assert 25 <= _retry_after(later) <= 31
    assert _retry_after(email.utils.formatdate(time.time() - 30, usegmt=True)) == 0
    assert _retry_after("soon") == -1 and _retry_after("") == -1


def test_a_retry_after_date_is_waited_for() -> None:
    waits: list[float] = []
    later = email.utils.formatdate(time.time() + 30, usegmt=True)  # far enough for a slow machine

    def once_later(_seen: object, before: int) -> Reply:
        return Reply(503, headers=(("Retry-After", later),)) if before == 0 else Reply(body=b"<p>ok</p>")

    with serving({"/x": once_later}) as web:
        answer = Client(Policy(), sleep=waits.append).get(web.url("/x"), {})
    assert (answer.failure, answer.status, answer.requests) == ("", 200, 2)
    assert len(waits) == 1 and 20 <= waits[0] <= 30.5


def test_redirects_in_a_loop_end_in_a_finding() -> None:
    routes = {
        "/a": always(Reply(302, headers=(("Location", "/b"),))),
        "/b": always(Reply(301, headers=(("Location", "/a"),))),
    }
    with serving(routes) as web:
        answer = Client(Policy(redirects=4)).get(web.url("/a"), {})
    assert answer.failure == "redirects more than 4 times" and answer.requests == 5


def test_a_redirect_that_names_no_address_is_a_finding() -> None:
    with serving({"/nowhere": always(Reply(301))}) as web:
        answer = Client(Policy()).get(web.url("/nowhere"), {})
    assert (answer.failure, answer.requests) == ("answers 301 Moved Permanently without a Location", 1)


def test_an_answer_larger_than_the_limit_is_read_to_the_limit_only() -> None:
    big = b"<p>" + b"x" * 5000 + b"</p>"
    with serving({"/big": always(Reply(body=big)), "/small": always(Reply(body=b"<p>small</p>"))}) as web:
        client = Client(Policy(largest=1000, per_host=1))
        answer = client.get(web.url("/big"), {})
        after = client.get(web.url("/small"), {})  # the one connection to the host still serves
    assert len(answer.body) == 1000 and answer.failure == ""
    assert after.body == b"<p>small</p>"
