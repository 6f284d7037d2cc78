"""Typography at a phone's width (390 px) in a real Chromium, judged from the page's own text
layout, never from a screenshot: each word is a DOM Range whose client rects must all lie on
one line.

* Korean breaks lines between words only: every Hangul word of the repository's Korean
  article stays whole (``word-break: keep-all``); without the rule, the same check fails.
* An inline ``code`` span never breaks inside a token that fits on a line; without the
  rule, the same check fails.
* Nothing is wider than the page: a Hangul word, a code token and a URL longer than the
  line wrap instead of widening it.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from site_builder import cli
from tests.browser.pages import serving

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
PHONE = {"width": 390, "height": 844}
KOREAN_ARTICLE = "/articles/retry-decision-one-question/"
EXTREMES = "/articles/extremes/"

SETTINGS = """\
[tool.site_builder]
title = "Typography"
base_url = "https://example.org/"
language = "ru"
min_body_chars = 20
"""

LONG_HANGUL = "가나다라마바사아자차카타파하" * 5
LONG_TOKEN = "x" * 40 + "-" + "y" * 40
EXTREMES_BATCH = f"""\
from site_builder import Source, paragraph, revision

revisions = [revision(
    slug="extremes", title="긴 낱말", categories=["글꼴"], excerpt="줄 바꿈.", published="2024-01-02",
    lang="ko",
    body=[
        paragraph("한국어 문장 사이에 아주 긴 낱말 {LONG_HANGUL} 이 들어가도 화면을 넘지 않는다."),
        paragraph("토큰 `{LONG_TOKEN}` 은 줄보다 길다."),
        paragraph("주소 https://example.org/{"a" * 70}/{"b" * 30} 도 마찬가지다."),
        paragraph(" ".join(["`retry-after-header`"] * 30)),
    ],
    sources=[Source(title="A", url="https://a.example/", note="a"),
             Source(title="B", url="https://b.example/", note="b")],
)]
"""

# Every maximal run of Hangul syllables in the page's text nodes: a Range over it, its client
# rects' tops. A run wider than its block may (must) wrap: it is counted apart.
HANGUL_WORDS = r"""
(root) => {
  const walker = document.createTreeWalker(document.querySelector(root), NodeFilter.SHOW_TEXT);
  const broken = [], tooWide = [];
  let words = 0, node;
  while ((node = walker.nextNode())) {
    const block = node.parentElement.closest('p, li, td, th, h1, h2, figcaption, pre, div');
    const width = block ? block.clientWidth : document.documentElement.clientWidth;
    for (const match of node.data.matchAll(/[\uAC00-\uD7A3]+/g)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const rects = [...range.getClientRects()].filter(r => r.width > 0);
      if (!rects.length) continue;
      words++;
      const wide = rects.reduce((sum, r) => sum + r.width, 0) > width;
      const tops = new Set(rects.map(r => Math.round(r.top)));
      if (wide) tooWide.push(match[0]);
      else if (tops.size > 1) broken.push(match[0]);
    }
  }
  return {words, broken, tooWide};
}
"""

# Every inline code span that fits on one line of its block: each of its characters on one line.
INLINE_CODE = r"""
() => {
  const broken = [], checked = [];
  for (const code of document.querySelectorAll(':not(pre) > code')) {
    const block = code.closest('p, li, td, th, h1, h2, figcaption');
    const text = code.firstChild;
    if (!block || !text || text.nodeType !== Node.TEXT_NODE) continue;
    const probe = document.createElement('span');
    probe.style.cssText = 'position:absolute;visibility:hidden;white-space:nowrap';
    probe.className = code.className;
    probe.append(code.cloneNode(true));
    document.body.append(probe);
    const oneLine = probe.getBoundingClientRect().width;
    probe.remove();
    if (oneLine > block.clientWidth) continue;
    checked.push(text.data);
    const tops = new Set();
    for (let i = 0; i < text.data.length; i++) {
      const range = document.createRange();
      range.setStart(text, i);
      range.setEnd(text, i + 1);
      const rect = range.getClientRects()[0];
      if (rect && rect.width > 0) tops.add(Math.round(rect.top));
    }
    if (tops.size > 1) broken.push(text.data);
  }
  return {checked: checked.length, broken};
}
"""

# Elements whose right edge passes the viewport's, and the page's own width.
OVERFLOW = r"""
() => ({
  scrollWidth: document.documentElement.scrollWidth,
  wider: [...document.querySelectorAll('main *')]
    .filter(e => !e.closest('pre, .table-scroll') && e.getBoundingClientRect().right > innerWidth + 0.5)
    .map(e => e.tagName + ': ' + e.textContent.slice(0, 40)),
})
"""


@dataclass(frozen=True)
class Served:
    base: str


@pytest.fixture(scope="module")
def served(chromium: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """The repository's Korean article and a page of extremes, built and served (once Chromium
    is known to be there)."""
    root = tmp_path_factory.mktemp("typography") / "site"
    (root / "articles").mkdir(parents=True)
    (root / "pyproject.toml").write_text(SETTINGS, "utf-8")
    for name in ("retry_decision.py", "_shown_source.py"):  # the article imports the helper
        shutil.copy(ROOT / "articles" / name, root / "articles" / name)
    shutil.copytree(ROOT / "assets/retry_decision", root / "assets/retry_decision")
    (root / "articles/extremes.py").write_text(EXTREMES_BATCH, "utf-8")
    assert cli.main(["build", "--root", str(root), "--no-cache"]) == 0
    with serving(root / "build") as base:
        yield Served(base)


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport=PHONE)
    context.route(
        "**/*", lambda route: route.continue_() if "127.0.0.1" in route.request.url else route.abort()
    )
    page = context.new_page()
    try:
        yield page
    finally:
        context.close()


def opened(page: Page, url: str, css: str = "") -> Page:
    page.goto(url)
    page.wait_for_load_state("load")
    if css:  # the control: the same page with one rule of the theme undone
        page.add_style_tag(content=css)
    return page


def test_no_korean_word_is_broken_across_lines(served: Served, phone: Page) -> None:
    page = opened(phone, served.base + KOREAN_ARTICLE)
    found = page.evaluate(HANGUL_WORDS, "main")
    assert found["words"] > 1000, found  # the whole article was walked
    assert found["broken"] == [], found["broken"]
    assert found["tooWide"] == []


def test_without_keep_all_the_same_check_finds_broken_words(served: Served, phone: Page) -> None:
    page = opened(phone, served.base + KOREAN_ARTICLE, ":lang(ko) { word-break: normal !important; }")
    found = page.evaluate(HANGUL_WORDS, "main")
    assert len(found["broken"]) > 20, found


def test_no_inline_code_token_is_broken(served: Served, phone: Page) -> None:
    for path in (KOREAN_ARTICLE, EXTREMES):
        found = opened(phone, served.base + path).evaluate(INLINE_CODE)
        assert found["checked"] > 10, (path, found)
        assert found["broken"] == [], (path, found)


def test_without_the_code_rule_the_same_check_finds_broken_tokens(served: Served, phone: Page) -> None:
    page = opened(phone, served.base + EXTREMES, ":not(pre) > code { display: inline !important; }")
    found = page.evaluate(INLINE_CODE)
    assert "retry-after-header" in found["broken"], found


@pytest.mark.parametrize("path", [KOREAN_ARTICLE, EXTREMES, "/"])
def test_nothing_is_wider_than_a_phone(served: Served, phone: Page, path: str) -> None:
    found = opened(phone, served.base + path).evaluate(OVERFLOW)
    assert found == {"scrollWidth": PHONE["width"], "wider": []}


def test_a_word_longer_than_the_line_wraps_and_is_the_only_one(served: Served, phone: Page) -> None:
    found = opened(phone, served.base + EXTREMES).evaluate(HANGUL_WORDS, "main")
    assert found["tooWide"] == [LONG_HANGUL]
    assert found["broken"] == []
