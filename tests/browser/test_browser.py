"""The built site of this repository in a real Chromium: navigation, search, layout, contrast, axe.

The repository's own articles (Russian, Korean, English) are built once per module, served over
real HTTP on 127.0.0.1 and driven through Playwright with Debian's Chromium. Nothing leaves the
machine: no name but the server's resolves, and every request to another host is reported as
a failure. A failed check takes screenshots of the pages it failed on (the viewport and the
whole page, in that mode) under the pytest temp dir, and its message names them.
"""

from __future__ import annotations

import json
import re
import tempfile
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, BrowserContext, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from site_builder.check.claims import Claim
from site_builder.errors import errors_in
from site_builder.pipeline.cache.reuse import Cache
from site_builder.pipeline.site_check import check_site
from site_builder.pipeline.site_lock import SiteLock
from site_builder.settings.project import Project
from tests.browser.pages import (
    CHART_TEXTS_JS,
    DESKTOP,
    MISSING_PATH,
    TIMEOUT_MS,
    Site,
    Watch,
    serving,
    visit,
    watch_page,
    watched_page,
)
from tests.support.own_site import OwnSite

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
MOBILE = {"width": 375, "height": 800}
MIN_CONTRAST = 4.5

# A word of each language that occurs in the articles, and the article it must find.
SEARCHES = [
    pytest.param("идемпотентности", "retry-server-idempotency-record", id="ru"),
    pytest.param("워커", "retry-decision-one-question", id="ko"),
    pytest.param("jitter", "retry-spec-read-as-a-test", id="en"),
]
REVISED = ("retry-client-one-intent-one-key", "retry-spec-read-as-a-test")
"""Two articles of this repository that have a second revision."""
PAGE_TYPES = ["index", "article", "revision", "diff", "category", "categories", "404"]


# --- the site, served ------------------------------------------------------------------------


def _pages_by_type(root: Path, categories: list[str]) -> dict[str, list[str]]:
    """The pages each check opens: every article, and two categories (an ASCII and a non-ASCII URL)."""
    articles = sorted(p.parent.name for p in (root / "articles").glob("*/index.html"))
    return {
        "index": ["/"],
        "article": [f"/articles/{slug}/" for slug in articles],
        # An earlier revision and a diff page, in Russian and in English (issue 16).
        "revision": [f"/articles/{slug}/revisions/1/" for slug in REVISED],
        "diff": [f"/articles/{slug}/diff/2/" for slug in REVISED],
        "category": sorted({categories[0], categories[-1]}),
        "categories": ["/categories/"],
        "404": [MISSING_PATH],
    }


@pytest.fixture(scope="module")
def site(chromium: Path, own_site_at_root: OwnSite) -> Iterator[Site]:
    """This repository's real site, built once for the run, served on a free port of 127.0.0.1."""
    out = own_site_at_root.out
    categories = sorted(f"/categories/{p.parent.name}/" for p in (out / "categories").glob("*/index.html"))
    assert categories, "the build wrote no category page"
    pages = _pages_by_type(out, categories)
    assert len(pages["article"]) == 5, f"expected the repo's 5 articles, built {pages['article']}"

    with serving(out) as base:
        yield Site(out, base, pages, categories)


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the screenshots go."""
    return tmp_path_factory.mktemp("screenshots")


# --- a page under watch ----------------------------------------------------------------------


def shoot(page: Page, shots: Path, mode: str, path: str, *, full_page: bool = False) -> Path:
    """A screenshot named after the mode and the page: the viewport as PNG, or the whole page as JPEG."""
    name = re.sub(r"[^\w-]+", "_", path.strip("/")) or "index"
    if full_page:  # JPEG: a long article as PNG takes a second to encode
        target = shots / f"{mode}-{name}-full.jpg"
        page.screenshot(path=str(target), full_page=True, type="jpeg", quality=70)
    else:
        target = shots / f"{mode}-{name}.png"
        page.screenshot(path=str(target))
    return target


def report(failures: list[str], screenshots: list[Path]) -> str:
    lines = [*failures, "", "screenshots:", *(f"  {p}" for p in screenshots)]
    return "\n".join(lines)


# --- colours ---------------------------------------------------------------------------------

RGBA = tuple[float, float, float, float]
_COLOR = re.compile(r"rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)(?:\s*[,/]\s*([\d.]+)(%?))?\s*\)")


def parse_color(text: str) -> RGBA:
    """A computed CSS colour (``rgb(...)``/``rgba(...)``) as r, g, b in 0..255 and alpha in 0..1."""
    match = _COLOR.fullmatch(text.strip())
    if not match:
        raise ValueError(f"unsupported computed colour {text!r}")
    r, g, b, a, percent = match.groups()
    alpha = 1.0 if a is None else float(a) / (100 if percent else 1)
    return float(r), float(g), float(b), alpha


def over(top: RGBA, bottom: RGBA) -> RGBA:
    """``top`` composited over an opaque ``bottom``."""
    a = top[3]
    return (
        top[0] * a + bottom[0] * (1 - a),
        top[1] * a + bottom[1] * (1 - a),
        top[2] * a + bottom[2] * (1 - a),
        1.0,
    )


def effective_background(layers: list[str]) -> RGBA:
    """The colour behind an element: its own background and its ancestors', innermost first."""
    colors = [parse_color(c) for c in layers]
    base: RGBA = (255.0, 255.0, 255.0, 1.0)  # the canvas, if nothing up the tree is opaque
    stack: list[RGBA] = []
    for color in colors:
        if color[3] >= 1:
            base = color
            break
        if color[3] > 0:
            stack.append(color)
    for color in reversed(stack):
        base = over(color, base)
    return base


def luminance(color: RGBA) -> float:
    def channel(v: float) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(color[0]) + 0.7152 * channel(color[1]) + 0.0722 * channel(color[2])


def contrast(fg: RGBA, bg: RGBA) -> float:
    """The WCAG 2 contrast ratio of ``fg`` (composited over ``bg``) against ``bg``."""
    lighter, darker = sorted((luminance(over(fg, bg)), luminance(bg)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def test_contrast_helper() -> None:
    white, black = parse_color("rgb(255, 255, 255)"), parse_color("rgb(0, 0, 0)")
    assert contrast(black, white) == pytest.approx(21)
    assert contrast(white, white) == pytest.approx(1)
    assert contrast(parse_color("rgb(118, 118, 118)"), white) == pytest.approx(4.54, abs=0.01)
    assert effective_background(["rgba(0, 0, 0, 0)", "rgb(22, 24, 27)"]) == (22, 24, 27, 1)
    half = effective_background(["rgba(0, 0, 0, 0.5)", "rgb(255, 255, 255)"])
    assert half[:3] == pytest.approx((127.5, 127.5, 127.5))
    assert parse_color("rgb(1 2 3 / 50%)") == (1, 2, 3, 0.5)


# Every visible element that holds text of its own, with its colour and the backgrounds behind it.
# Pairs that look alike (same kind, colour and background chain) are reported once.
TEXT_COLOURS_JS = """() => {
    const seen = new Map();
    const kind = el => {
        if (el.closest("pre")) return "code block";
        if (el.closest("a")) return "link";
        if (el.closest("td, th")) return "table cell";
        if (el.closest("h1, h2, h3, h4, h5, h6")) return "heading";
        return "text";
    };
    const describe = el => {
        let s = el.tagName.toLowerCase();
        if (el.id) s += "#" + el.id;
        if (el.classList.length) s += "." + [...el.classList].join(".");
        const parent = el.parentElement;
        return parent ? describe_parent(parent) + " > " + s : s;
    };
    const describe_parent = el => {
        let s = el.tagName.toLowerCase();
        if (el.classList.length) s += "." + [...el.classList].join(".");
        return s;
    };
    for (const el of document.body.querySelectorAll("*")) {
        const own = [...el.childNodes].some(n => n.nodeType === Node.TEXT_NODE && n.textContent.trim());
        if (!own) continue;
        const style = getComputedStyle(el);
        if (style.visibility !== "visible" || el.getClientRects().length === 0) continue;
        const rect = el.getBoundingClientRect();
        if (rect.width === 0 || rect.height === 0 || rect.right < 0 || rect.bottom < 0) continue;
        const layers = [];
        for (let up = el; up; up = up.parentElement) {
            layers.push(getComputedStyle(up).backgroundColor);
        }
        const item = {kind: kind(el), color: style.color, layers,
                      element: describe(el), text: el.textContent.trim().slice(0, 40)};
        const key = item.kind + "|" + item.color + "|" + layers.join("|");
        if (!seen.has(key)) seen.set(key, item);
    }
    return [...seen.values()];
}"""

BOXES_JS = """() => Object.fromEntries(
    [[".site-header", "header"], ["main", "main"], [".site-footer", "footer"]].map(([sel, name]) => {
        const el = document.querySelector(sel);
        if (!el) return [name, null];
        const r = el.getBoundingClientRect();
        return [name, [r.left, r.top, r.right, r.bottom]];
    }))"""


def contrast_failures(page: Page) -> list[str]:
    failures = []
    for item in page.evaluate(TEXT_COLOURS_JS):
        try:
            fg = parse_color(item["color"])
            bg = effective_background(item["layers"])
        except ValueError as error:
            failures.append(f"{item['kind']} {item['element']} {item['text']!r}: {error}")
            continue
        ratio = contrast(fg, bg)
        if ratio < MIN_CONTRAST:
            shown = "rgb({:.0f}, {:.0f}, {:.0f})".format(*bg[:3])
            failures.append(
                f"{item['kind']} {item['element']} {item['text']!r}: colour {item['color']} "
                f"on {shown}, contrast {ratio:.2f} < {MIN_CONTRAST}"
            )
    return failures


def overlap_failures(page: Page) -> list[str]:
    boxes: dict[str, list[float] | None] = page.evaluate(BOXES_JS)
    failures = [f"no {name} element" for name, box in boxes.items() if box is None]
    named = [(name, box) for name, box in boxes.items() if box is not None]
    for i, (a_name, a) in enumerate(named):
        for b_name, b in named[i + 1 :]:
            width = min(a[2], b[2]) - max(a[0], b[0])
            height = min(a[3], b[3]) - max(a[1], b[1])
            if width > 0.5 and height > 0.5:
                failures.append(f"{a_name} {a} overlaps {b_name} {b} by {width:.1f}×{height:.1f} px")
    return failures


# --- navigation ------------------------------------------------------------------------------


def test_index_to_article_to_category_and_back(browser: Browser, site: Site) -> None:
    with watched_page(browser, site, viewport=DESKTOP) as (page, watch):
        visit(page, watch, site, "/")
        index_url = page.url
        card = page.locator(".cards .card").first
        link = card.locator(".card-title a")
        title = link.inner_text().strip()
        link.click()
        page.wait_for_url(lambda url: url != index_url)
        assert page.url.startswith(site.base + "/articles/"), f"the card led to {page.url}"
        assert page.locator("article h1").inner_text().strip() == title
        article_url = page.url

        tag = page.locator(".article-header .tags a.tag").first
        category = tag.inner_text().strip()
        tag.click()
        page.wait_for_url(lambda url: url != article_url)
        assert "/categories/" in page.url, f"the category tag led to {page.url}"
        assert category in page.locator("h1.page-title").inner_text()
        titles = [t.strip() for t in page.locator(".card-title a").all_inner_texts()]
        assert title in titles, f"the category {category!r} does not list {title!r}: {titles}"

        page.go_back(wait_until="load")
        assert page.url == article_url
        assert page.locator("article h1").inner_text().strip() == title
        page.go_back(wait_until="load")
        assert page.url == index_url
        assert page.locator(".cards .card").count() == 5
        assert not watch.problems, "\n".join(watch.problems)


def test_table_of_contents_jumps_to_each_heading(browser: Browser, site: Site) -> None:
    failures: list[str] = []
    with watched_page(browser, site, viewport=DESKTOP) as (page, watch):
        for path in site.pages["article"]:
            visit(page, watch, site, path)
            links = page.locator("nav.toc a")
            hrefs = links.evaluate_all("els => els.map(a => a.getAttribute('href'))")
            if not hrefs:
                failures.append(f"{path}: no table of contents")
            for i, href in enumerate(hrefs):
                page.evaluate("window.scrollTo(0, 0)")
                links.nth(i).click()
                anchor = href[1:]
                try:
                    page.wait_for_function(
                        "id => decodeURIComponent(location.hash.slice(1)) === id", arg=anchor, timeout=3000
                    )
                except PlaywrightTimeoutError:
                    failures.append(f"{path}: clicking {href!r} left the URL at {page.url}")
                    continue
                where = page.evaluate(
                    """id => {
                        const el = document.getElementById(id);
                        if (!el) return null;
                        const r = el.getBoundingClientRect();
                        return {top: r.top, bottom: r.bottom, height: innerHeight,
                                heading: /^H[1-6]$/.test(el.tagName)};
                    }""",
                    anchor,
                )
                if where is None:
                    failures.append(f"{path}: {href!r} points at no element")
                elif not where["heading"]:
                    failures.append(f"{path}: {href!r} points at an element that is not a heading")
                elif where["top"] < -1 or where["bottom"] > where["height"] + 1:
                    failures.append(f"{path}: after {href!r} the heading is at {where}, not in the viewport")
    assert not failures, "\n".join(failures)
    assert not watch.problems, "\n".join(watch.problems)


def test_source_links_open_a_new_tab_without_opener(browser: Browser, site: Site) -> None:
    failures: list[str] = []
    stub = "https://example.invalid/"
    with watched_page(browser, site, viewport=DESKTOP) as (page, watch):
        for path in site.pages["article"]:
            visit(page, watch, site, path)
            links = page.evaluate(
                """() => [...document.querySelectorAll(".article-body a[href]")]
                    .filter(a => /^https?:/.test(a.getAttribute("href")))
                    .map(a => ({href: a.getAttribute("href"), target: a.getAttribute("target"),
                                rel: (a.getAttribute("rel") || "").split(/\\s+/)}))"""
            )
            last_list = page.locator(".article-body > h2:last-of-type + ul a")
            if last_list.count() == 0:
                failures.append(f"{path}: no list of source links after the last heading")
            if not links:
                failures.append(f"{path}: no external links at all")
            for link in links:
                if link["target"] != "_blank" or not {"noopener", "noreferrer"} <= set(link["rel"]):
                    failures.append(
                        f"{path}: {link['href']} has target={link['target']!r} rel={' '.join(link['rel'])!r}"
                    )
        # One real click, its target answered locally: a new tab, and no way back to this one.
        context = page.context
        context.route(stub, lambda route: route.fulfill(status=200, content_type="text/html", body="ok"))
        first = page.locator(".article-body > h2:last-of-type + ul a").first
        first.evaluate("(a, url) => { a.href = url; }", stub)
        with context.expect_page() as opened:
            first.click()
        tab = opened.value
        tab.wait_for_load_state("load")
        assert tab.url == stub
        assert tab.evaluate("window.opener") is None, "the source tab can reach its opener"
        assert len(context.pages) == 2, "the source link did not open a separate tab"
    assert not failures, "\n".join(failures)
    assert not watch.problems, "\n".join(watch.problems)


# --- the proof: a mark under each verified output -------------------------------------------

MARKED_BLOCKS_JS = """() => [...document.querySelectorAll(".article-body :is(pre, figure.chart)")].map(b => {
    const next = b.nextElementSibling;
    const mark = next && next.matches("p.proof") ? next : null;
    const drawn = b.matches("figure") && b.querySelector(".chart-drawing svg text");
    return {text: drawn ? "<chart>" : b.textContent, mark: mark && mark.textContent,
            href: mark && mark.querySelector("a").getAttribute("href")};
})"""
TARGET_JS = """id => {
    const target = document.querySelector(":target");
    if (!target) return null;
    const r = target.getBoundingClientRect();
    return {id: target.id, text: target.textContent, inBox: !!target.closest("#fixtures"),
            visible: r.width > 0 && r.height > 0 && r.top >= 0 && r.bottom <= innerHeight
                     && getComputedStyle(target).visibility === "visible"};
}"""


def verified_outputs() -> dict[str, list[tuple[str, str]]]:
    """Each article's verified outputs and charts in body order, as validation reads them from
    its batch: the JSON the page prints (``<chart>`` for a chart, drawn) and the fixture's name
    (the latest revision of a slug is its page). Read as the pytest plugin reads the site: the
    batches the repository's cache holds as they are now from it (importing the five articles
    again costs 6 s of CPU), the others loaded, under the site's lock."""
    project = Project.read(ROOT)
    with tempfile.TemporaryDirectory() as scratch, SiteLock.take(ROOT, say=lambda _: None):
        judged = check_site(
            project, run=False, scratch=Path(scratch), schedule=None, reuse=Cache.of(ROOT, project.output())
        )
    assert not errors_in(judged.problems), judged.problems
    found: dict[str, list[tuple[str, str]]] = {}
    for batch in judged.summaries:
        for slug, _ in batch.refs.slugs:
            found[slug] = [
                (_shown(claim), claim.fixture.partition(":")[2])
                for claim in batch.refs.claims
                if claim.slug == slug
            ]
    return found


def _shown(claim: Claim) -> str:
    return "<chart>" if claim.helper == "chart" else json.dumps(claim.expected, ensure_ascii=False, indent=2)


def test_each_verified_output_has_its_mark_and_the_mark_leads_to_its_fixture(
    browser: Browser, site: Site
) -> None:
    failures: list[str] = []
    expected = verified_outputs()
    assert sum(map(len, expected.values())) >= 10, expected
    with watched_page(browser, site, viewport=DESKTOP) as (page, watch):
        for path in site.pages["article"]:
            visit(page, watch, site, path)
            blocks = page.evaluate(MARKED_BLOCKS_JS)
            marked = [(b["text"], b["mark"], b["href"]) for b in blocks if b["mark"] is not None]
            wanted = expected[path.strip("/").split("/")[-1]]
            if [text for text, _, _ in marked] != [text for text, _ in wanted]:
                failures.append(f"{path}: marked blocks {marked} are not the verified outputs {wanted}")
                continue
            if page.locator(".proof").count() != len(wanted):
                failures.append(f"{path}: {page.locator('.proof').count()} marks for {len(wanted)} blocks")
            for n, ((_, mark, href), (_, name)) in enumerate(zip(marked, wanted, strict=True)):
                if name not in mark or href != f"#fixture-{name}":
                    failures.append(f"{path}: mark {n + 1} reads {mark!r} and links to {href!r}")
                    continue
                page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
                page.locator(".proof a").nth(n).click()
                try:
                    page.wait_for_function("h => location.hash === h", arg=href, timeout=3000)
                except PlaywrightTimeoutError:
                    failures.append(f"{path}: clicking mark {n + 1} left the URL at {page.url}")
                    continue
                target = page.evaluate(TARGET_JS, href[1:])
                if target is None or target["id"] != href[1:]:
                    failures.append(f"{path}: after mark {n + 1} :target is {target}, not {href}")
                elif not (target["inBox"] and target["visible"] and name in target["text"]):
                    failures.append(f"{path}: mark {n + 1} leads to {target}: not a visible entry of {name}")
    assert not failures, "\n".join(failures)
    assert not watch.problems, "\n".join(watch.problems)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_each_chart_is_drawn_and_its_labels_read_in_both_schemes(
    browser: Browser, site: Site, scheme: str
) -> None:
    """The charts the build draws on this site's pages (axe does not look at SVG text)."""
    failures: list[str] = []
    seen = 0
    with watched_page(browser, site, viewport=DESKTOP, color_scheme=scheme) as (page, watch):
        for path in site.pages["article"]:
            visit(page, watch, site, path)
            for drawn in page.evaluate(CHART_TEXTS_JS):
                seen += 1
                if drawn["width"] < 300 or len(drawn["texts"]) < 5 or drawn["own"] != "rgba(0, 0, 0, 0)":
                    failures.append(f"{path}: {drawn['caption'][:40]!r} is not drawn over the page: {drawn}")
                failures += [
                    f"{path}: {t['text']!r} at {ratio:.2f}"
                    for t in drawn["texts"]
                    if (ratio := contrast(parse_color(t["fill"]), parse_color(t["background"])))
                    < MIN_CONTRAST
                ]
    assert seen == 3, seen  # the spec, client and diagnosis articles' latest revisions
    assert not failures, "\n".join(failures)
    assert not watch.problems, "\n".join(watch.problems)


# --- search ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("word", "slug"), SEARCHES)
def test_search_finds_the_article(browser: Browser, site: Site, word: str, slug: str) -> None:
    with watched_page(browser, site, viewport=DESKTOP) as (page, watch):
        visit(page, watch, site, "/")
        page.locator(".pagefind-ui__search-input").fill(word)
        results = page.locator(".pagefind-ui__result-link")
        results.first.wait_for(state="visible")
        expected = f"/articles/{slug}/"
        page.locator(f'.pagefind-ui__result-link[href$="{expected}"]').wait_for(state="visible")
        hrefs = results.evaluate_all("els => els.map(a => a.getAttribute('href'))")
        assert any(h.endswith(expected) for h in hrefs), f"{word!r} found {hrefs}, not {expected}"

        target = hrefs[0]
        results.first.click()
        page.wait_for_url(lambda url: urllib.parse.unquote(url).endswith(urllib.parse.unquote(target)))
        assert page.locator("article h1").count() == 1, f"{page.url} is not an article page"
        body = page.locator("article").inner_text().lower()
        assert word.lower() in body, f"{page.url} does not contain {word!r}"
        page.wait_for_load_state("networkidle")
        assert not watch.problems, "\n".join(watch.problems)


# --- every page type -------------------------------------------------------------------------


# --- every page type, in every mode: each page is opened once per mode and measured ----------

MODES: dict[str, dict[str, Any]] = {
    "light": {"context": {"viewport": DESKTOP, "color_scheme": "light"}, "media": "screen"},
    "dark": {"context": {"viewport": DESKTOP, "color_scheme": "dark"}, "media": "screen"},
    "mobile": {"context": {"viewport": MOBILE, "is_mobile": True, "has_touch": True}, "media": "screen"},
    "print": {"context": {"viewport": DESKTOP, "color_scheme": "light"}, "media": "print"},
    # Printing from a system in dark mode: the print rules must win over the dark palette.
    "print-dark": {"context": {"viewport": DESKTOP, "color_scheme": "dark"}, "media": "print"},
}
# axe options per mode: every rule on the desktop and on a phone; in dark mode only colours
# change, so only the colour rules run again. Only violations are read, so axe is asked to
# report no passes (the "no-passes" reporter: a quarter of its time, the same violations).
AXE_REPORT = {"resultTypes": ["violations"], "reporter": "no-passes"}
AXE_MODES: dict[str, dict[str, Any]] = {
    "light": AXE_REPORT,
    "dark": {**AXE_REPORT, "runOnly": ["color-contrast", "link-in-text-block"]},
    "mobile": AXE_REPORT,
}

MOBILE_LAYOUT_JS = """w => ({
    scrollWidth: document.documentElement.scrollWidth,
    wide: [...document.querySelectorAll("body *")]
        .filter(e => e.getBoundingClientRect().right > w + 0.5 && !e.closest(".table-scroll, pre"))
        .slice(0, 5).map(e => e.tagName.toLowerCase() + [...e.classList].map(c => "." + c).join("")),
    images: [...document.images].map(i => {
        const r = i.getBoundingClientRect();
        return {src: i.getAttribute("src"), left: r.left, right: r.right, width: r.width};
    }),
    tables: [...document.querySelectorAll("table")].map(t => {
        const box = t.parentElement;
        return {wrapped: box.classList.contains("table-scroll"), scrollWidth: box.scrollWidth,
                clientWidth: box.clientWidth, overflowX: getComputedStyle(box).overflowX};
    }),
})"""


@dataclass
class Snapshot:
    """What one page looked like in one mode."""

    mode: str
    path: str
    problems: list[str]
    broken_images: list[str]
    contrast: list[str]
    overlap: list[str]
    axe: list[str]
    layout: dict[str, Any]


def _axe_failures(results: dict[str, Any]) -> list[str]:
    lines = []
    for violation in results.get("violations", []):
        if violation.get("impact") not in ("serious", "critical"):
            continue
        targets = [" ".join(map(str, node.get("target", []))) for node in violation.get("nodes", [])]
        lines.append(
            f"axe {violation['id']} ({violation['impact']}): {violation['help']} — {len(targets)} node(s): "
            + "; ".join(targets[:8])
            + (" …" if len(targets) > 8 else "")
        )
    return lines


class Snapshots:
    """Each (mode, page) opened once and measured for every test that asks.

    One page per mode, navigated from URL to URL (a new page costs more than a navigation);
    its watch starts afresh for each URL.
    """

    def __init__(self, browser: Browser, site: Site, shots: Path) -> None:
        self.browser, self.site, self.shots_folder = browser, site, shots
        self.taken: dict[tuple[str, str], Snapshot] = {}
        self.pages: dict[str, tuple[BrowserContext, Page, Watch]] = {}
        self.axe = Axe()

    def page(self, mode: str) -> tuple[Page, Watch]:
        if mode not in self.pages:
            context = self.browser.new_context(**MODES[mode]["context"])
            context.set_default_timeout(TIMEOUT_MS)
            page, watch = watch_page(context, self.site)
            page.emulate_media(media=MODES[mode]["media"])
            self.pages[mode] = (context, page, watch)
        _, page, watch = self.pages[mode]
        watch.problems.clear()
        watch.expected_404.clear()
        return page, watch

    def close(self) -> None:
        for context, _, _ in self.pages.values():
            context.close()

    def __call__(self, mode: str, path: str) -> Snapshot:
        if (mode, path) not in self.taken:
            self.taken[mode, path] = self._take(mode, path)
        return self.taken[mode, path]

    def shots(self, snaps: list[Snapshot]) -> list[Path]:
        """Screenshots of the pages of ``snaps``, for the report of a failed test only (taking
        them for every page cost seconds that no passing test looks at): the viewport, and
        the whole page for what lies below it."""
        taken: list[Path] = []
        for snap in snaps:
            page, watch = self.page(snap.mode)
            visit(page, watch, self.site, snap.path)
            taken.append(shoot(page, self.shots_folder, snap.mode, snap.path))
            taken.append(shoot(page, self.shots_folder, snap.mode, snap.path, full_page=True))
        return taken

    def _take(self, mode: str, path: str) -> Snapshot:
        page, watch = self.page(mode)
        visit(page, watch, self.site, path)
        broken = page.evaluate(
            "() => [...document.images].filter(i => !i.complete || i.naturalWidth === 0).map(i => i.src)"
        )
        snap = Snapshot(
            mode=mode,
            path=path,
            problems=[],
            broken_images=broken,
            contrast=contrast_failures(page),
            overlap=overlap_failures(page),
            axe=_axe_failures(self.axe.run(page, options=AXE_MODES[mode]).response)
            if mode in AXE_MODES
            else [],
            layout=page.evaluate(MOBILE_LAYOUT_JS, MOBILE["width"]) if mode == "mobile" else {},
        )
        snap.problems = list(watch.problems)
        return snap


@pytest.fixture(scope="module")
def snapshots(browser: Browser, site: Site, shots: Path) -> Iterator[Snapshots]:
    taken = Snapshots(browser, site, shots)
    try:
        yield taken
    finally:
        taken.close()


def check(
    snapshots: Snapshots,
    site: Site,
    modes: list[str],
    kind: str,
    failures_of: Callable[[Snapshot], list[str]],
) -> None:
    """Assert that ``failures_of(snapshot)`` is empty for every page of ``kind`` in every mode."""
    failures: list[str] = []
    failing: list[Snapshot] = []
    for mode in modes:
        for path in site.pages[kind]:
            snap = snapshots(mode, path)
            found = failures_of(snap)
            failures += [f"[{mode}] {path}: {line}" for line in found]
            failing += [snap] if found else []
    assert not failures, report(failures, snapshots.shots(failing))


def test_a_failed_check_names_screenshots_of_the_pages_it_failed_on(snapshots: Snapshots, site: Site) -> None:
    (first, *_) = site.pages["categories"]  # a short page: a whole article takes seconds to shoot
    with pytest.raises(AssertionError) as failed:
        check(snapshots, site, ["dark"], "categories", lambda snap: ["planted"] if snap.path == first else [])
    named = re.findall(r"(\S+\.(?:png|jpg))$", str(failed.value), re.MULTILINE)
    name = re.sub(r"[^\w-]+", "_", first.strip("/"))
    assert [Path(p).name for p in named] == [f"dark-{name}.png", f"dark-{name}-full.jpg"]
    assert all(Path(p).stat().st_size > 1000 for p in named)


@pytest.mark.parametrize("kind", PAGE_TYPES)
def test_pages_load_without_console_errors_or_failed_requests(
    snapshots: Snapshots, site: Site, kind: str
) -> None:
    def failures_of(snap: Snapshot) -> list[str]:
        return snap.problems + [f"image did not load: {src}" for src in snap.broken_images]

    check(snapshots, site, ["light", "dark", "mobile"], kind, failures_of)


def test_every_category_page_loads_cleanly(browser: Browser, site: Site) -> None:
    failures: list[str] = []
    with watched_page(browser, site, viewport=DESKTOP) as (page, watch):
        for path in site.all_categories:
            visit(page, watch, site, path)
            if page.locator(".cards .card").count() == 0:
                failures.append(f"{path}: lists no article")
    assert not failures + watch.problems, "\n".join(failures + watch.problems)


def test_missing_page_shows_the_404_page_with_a_way_home(browser: Browser, site: Site) -> None:
    with watched_page(browser, site, viewport=DESKTOP) as (page, watch):
        visit(page, watch, site, MISSING_PATH)
        built = re.search(r"<h1[^>]*>(.*?)</h1>", (site.root / "404.html").read_text("utf-8"))
        assert built, "404.html has no h1"
        assert page.locator("h1").inner_text().strip() == built.group(1).strip()
        page.locator("main a[href='/']").click()
        page.wait_for_url(site.base + "/")
        assert page.locator(".cards .card").count() == 5
        assert not watch.problems, "\n".join(watch.problems)


@pytest.mark.parametrize("kind", PAGE_TYPES)
def test_mobile_page_does_not_scroll_sideways_and_images_fit(
    snapshots: Snapshots, site: Site, kind: str
) -> None:
    width = MOBILE["width"]

    def failures_of(snap: Snapshot) -> list[str]:
        layout, found = snap.layout, []
        if layout["scrollWidth"] > width:
            found.append(
                f"the page scrolls sideways: scrollWidth {layout['scrollWidth']} > {width}, "
                f"too wide: {layout['wide']}"
            )
        for img in layout["images"]:
            if img["width"] > width or img["left"] < -0.5 or img["right"] > width + 0.5:
                found.append(f"image {img['src']} does not fit the screen: {img}")
        return found

    check(snapshots, site, ["mobile"], kind, failures_of)


def test_wide_tables_scroll_inside_their_wrapper(snapshots: Snapshots, site: Site) -> None:
    scrolling: list[str] = []
    failures: list[str] = []
    snaps = [snapshots("mobile", path) for path in site.pages["article"]]
    for path, snap in zip(site.pages["article"], snaps, strict=True):
        for n, table in enumerate(snap.layout["tables"], 1):
            if not table["wrapped"]:
                failures.append(f"{path}: table {n} is not inside a .table-scroll wrapper")
            elif table["scrollWidth"] > table["clientWidth"]:
                scrolling.append(f"{path} table {n}")
                if table["overflowX"] not in ("auto", "scroll"):
                    failures.append(f"{path}: table {n} overflows a wrapper that does not scroll")
        if snap.layout["scrollWidth"] > MOBILE["width"]:
            failures.append(f"{path}: the page itself scrolls sideways ({snap.layout['scrollWidth']}px)")
    assert scrolling, report(
        ["no table is wider than a 375px screen: the wrapper went untested"], snapshots.shots(snaps)
    )
    assert not failures, report(failures, snapshots.shots(snaps))


@pytest.mark.parametrize("kind", PAGE_TYPES)
@pytest.mark.parametrize("mode", ["light", "dark", "print", "print-dark"])
def test_text_has_enough_contrast(snapshots: Snapshots, site: Site, mode: str, kind: str) -> None:
    check(snapshots, site, [mode], kind, lambda snap: snap.contrast)


@pytest.mark.parametrize("kind", PAGE_TYPES)
@pytest.mark.parametrize("mode", ["light", "dark", "mobile", "print", "print-dark"])
def test_header_main_and_footer_do_not_overlap(
    snapshots: Snapshots, site: Site, mode: str, kind: str
) -> None:
    check(snapshots, site, [mode], kind, lambda snap: snap.overlap)


@pytest.mark.parametrize("kind", PAGE_TYPES)
@pytest.mark.parametrize("mode", list(AXE_MODES))
def test_axe_finds_no_serious_violation(snapshots: Snapshots, site: Site, mode: str, kind: str) -> None:
    check(snapshots, site, [mode], kind, lambda snap: snap.axe)
