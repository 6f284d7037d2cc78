"""Which URLs an article may use, and how a bad one typed by an author gets reported."""

from __future__ import annotations

import inspect
from collections.abc import Callable

import pytest
from markupsafe import Markup

from site_builder import figure, markdown, paragraph
from site_builder.model.url_policy import check_url
from tests.support.sites import HEADER, MakeSite, RunCli

ALLOWED = [
    ("https", "https://www.rfc-editor.org/rfc/rfc9110.html", None),
    ("https-upper-case", "HTTPS://EXAMPLE.ORG/A", None),
    ("https-query-fragment", "https://example.org/a?b=1&c=2#d", None),
    ("http", "http://example.org", None),
    ("mailto", "mailto:author@example.org", None),
    ("site-path", "/assets/retry/request-path.svg", "/assets/retry/request-path.svg"),
    ("site-root", "/", "/"),
    ("site-path-query-fragment", "/articles/x/?a=1#top", "/articles/x/"),
    ("site-path-percent-encoded", "/assets/caf%C3%A9.svg", "/assets/café.svg"),
    ("fragment", "#retry-without-second-effect", None),
    ("fragment-cyrillic", "#повтор", None),
    ("surrounding-spaces", "  https://example.org/  ", None),
]


@pytest.mark.parametrize(("url", "local_path"), [c[1:] for c in ALLOWED], ids=[c[0] for c in ALLOWED])
def test_allowed_url(url: str, local_path: str | None) -> None:
    checked = check_url(url)
    assert checked.error is None
    assert checked.local_path == local_path


REJECTED = [
    ("javascript", "javascript:alert(1)", "scheme"),
    ("javascript-upper-case", "JAVASCRIPT:alert(1)", "scheme"),
    ("javascript-mixed-case", "JaVaScRiPt:alert(1)", "scheme"),
    ("javascript-leading-spaces", "   javascript:alert(1)", "scheme"),
    ("javascript-leading-control", "\x01\x00javascript:alert(1)", "scheme"),
    ("javascript-embedded-tab", "java\tscript:alert(1)", "scheme"),
    ("javascript-embedded-newline", "java\nscript:alert(1)", "scheme"),
    ("javascript-embedded-cr", "javas\r\ncript:alert(1)", "scheme"),
    ("javascript-tab-before-colon", "javascript\t:alert(1)", "scheme"),
    ("vbscript", "vbscript:msgbox(1)", "scheme"),
    ("data-html", "data:text/html,<script>alert(1)</script>", "scheme"),
    ("data-base64", "data:text/html;base64,PHNjcmlwdD4=", "scheme"),
    ("ftp", "ftp://example.org/file", "scheme"),
    ("protocol-relative", "//evil.example", "protocol-relative"),
    ("protocol-relative-after-space", " \t//evil.example/x", "protocol-relative"),
    ("protocol-relative-tab-inside", "/\t/evil.example", "protocol-relative"),
    ("slash-backslash", "/\\evil.example", "protocol-relative"),
    ("backslash-backslash", "\\\\evil.example", "protocol-relative"),
    ("relative-path", "foo/bar", "relative"),
    ("dot-relative", "./foo", "relative"),
    ("parent-relative", "../foo", "relative"),
    ("query-only", "?a=1", "relative"),
    ("entity-spelled-colon", "javascript&colon;alert(1)", "relative"),
    ("empty", "", "empty"),
    ("only-spaces", "   ", "empty"),
    ("http-no-host", "http://", "no host"),
    ("https-no-host", "https://", "no host"),
    ("https-no-slashes", "https:example.org", "no host"),
    ("https-triple-slash", "https:///path", "no host"),
    ("https-port-without-host", "https://:443/", "no host"),
    ("https-userinfo-without-host", "https://user@/", "no host"),
]


@pytest.mark.parametrize(("url", "reason"), [c[1:] for c in REJECTED], ids=[c[0] for c in REJECTED])
def test_rejected_url(url: str, reason: str) -> None:
    checked = check_url(url)
    assert checked.error is not None
    assert reason in checked.error
    assert checked.local_path is None


URLS_RECORDED: list[tuple[str, Callable[[], Markup], tuple[str, ...]]] = [
    ("paragraph-link", lambda: paragraph("[x](javascript:alert(1))"), ("javascript:alert(1)",)),
    ("paragraph-angle-link", lambda: paragraph("[x](<vbscript:msgbox(1)>)"), ("vbscript:msgbox(1)",)),
    ("paragraph-image", lambda: paragraph("![i](data:text/html,x)"), ("data:text/html,x",)),
    (
        "markdown-reference-link",
        lambda: markdown("[b][a] and [c](https://ok.example/)\n\n[a]: javascript:alert(1)"),
        ("javascript:alert(1)", "https://ok.example/"),
    ),
    (
        "markup-link",
        lambda: paragraph(Markup('<a href="javascript:alert(1)">x</a><img src="//evil.example/i">')),
        ("javascript:alert(1)", "//evil.example/i"),
    ),
    ("figure-src", lambda: figure("javascript:alert(1)", "Alt", "Caption"), ("javascript:alert(1)",)),
    (
        "figure-caption-link",
        lambda: figure("/assets/a.svg", "Alt", "[x](foo/bar)"),
        ("/assets/a.svg", "foo/bar"),
    ),
]


@pytest.mark.parametrize(("build", "urls"), [c[1:] for c in URLS_RECORDED], ids=[c[0] for c in URLS_RECORDED])
def test_disallowed_link_is_recorded_for_validation(
    build: Callable[[], Markup], urls: tuple[str, ...]
) -> None:
    block = build()
    assert block.urls == urls  # type: ignore[attr-defined]
    assert any(check_url(u).error is not None for u in block.urls)  # type: ignore[attr-defined]


def test_javascript_link_in_paragraph_keeps_its_url_not_rewritten() -> None:
    block = paragraph("[x](javascript:alert(1))")
    assert block.urls == ("javascript:alert(1)",)  # type: ignore[attr-defined]
    assert block.flaws == ()  # type: ignore[attr-defined]
    checked = check_url(block.urls[0])  # type: ignore[attr-defined]
    assert checked.error is not None
    assert "'javascript:'" in checked.error


def test_validation_reports_the_disallowed_link(make_site: MakeSite, run_cli: RunCli) -> None:
    root = make_site(
        {
            "articles/links.py": HEADER
            + """\
revisions = [revision(
    slug="bad-link", title="Bad link", categories=["Notes"], excerpt="x",
    published="2024-01-02",
    body=[paragraph("Enough words to pass the tiny limit of this test site."),
          paragraph("[x](javascript:alert(1))")],
    sources=[Source(title="A", url="https://a.example/", note="a"),
             Source(title="B", url="https://b.example/", note="b")],
)]
"""
        }
    )
    result = run_cli(["validate", "--root", str(root)])
    assert result.code == 1
    assert (
        "articles/links.py:8: bad-link: URL scheme 'javascript:' is not allowed in 'javascript:alert(1)'"
        in result.err
    )


def test_wrong_type_is_a_flaw_at_the_callers_line() -> None:
    frame = inspect.currentframe()
    assert frame is not None
    block, line = paragraph(42), frame.f_lineno  # type: ignore[arg-type]
    assert str(block) == "<p></p>"
    flaws = block.flaws  # type: ignore[attr-defined]
    assert [f.rule for f in flaws] == ["helper-type"]
    assert "int" in flaws[0].message
    assert flaws[0].site.path == __file__
    assert flaws[0].site.line == line
    assert block.site.line == line  # type: ignore[attr-defined]
