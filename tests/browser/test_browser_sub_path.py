"""A site built for a sub-path (``base_url = "https://example.org/sub/"``) in a real Chromium,
served the way GitHub Pages serves a project site: the output folder mounted at ``/sub/``.

Every page type is opened, the feed is followed from a page's own link, and a search runs in
the search box over the index (two shards joined into one bundle, then that bundle and a
delta). The site with every feature at once (``tests/sites/all_features``, with ``--drafts
--future``) is served at ``/sub/dir/``: each of its pages is opened, and searches in its three
languages open their article. The page watch of ``test_browser`` aborts and reports every
request that leaves the path, and reports every failed
request and every HTTP error but the deliberate visit of a missing page.
"""

from __future__ import annotations

import contextlib
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, expect

from site_builder import cli
from site_builder.search.delta import DELTA
from site_builder.search.heads import HEADS
from site_builder.search.shards import shard_count, shard_of
from tests.browser.pages import (
    CHART_TEXTS_JS,
    DESKTOP,
    MISSING_PATH,
    TIMEOUT_MS,
    Site,
    SiteHandler,
    serving,
    visit,
    visit_all,
    watched_page,
)
from tests.browser.test_browser import MIN_CONTRAST, contrast, parse_color
from tests.render.test_sub_path import filler_word, make_site
from tests.whole_site.test_all_features import BASES, build, copy_site

pytestmark = pytest.mark.browser

PREFIX = "/sub"
FILLERS = 9  # with the four batches of the site: thirteen batches, two search shards
PAGES = [
    pytest.param("/", id="home"),
    pytest.param("/articles/links-below-a-path/", id="article-with-cover-figure-and-links"),
    pytest.param("/articles/hangul-keys/", id="article-with-a-fragment-link"),
    pytest.param("/categories/paths/", id="category"),
    pytest.param("/categories/", id="categories"),
    pytest.param(MISSING_PATH, id="404"),
]


def mounted_at(prefix: str) -> type[SiteHandler]:
    """A handler serving the output folder mounted at ``prefix`` + ``/``: nothing answers
    outside it (a missing page below it gets the site's 404.html, as GitHub Pages serves a
    project site's)."""

    class _MountedHandler(SiteHandler):
        def send_head(self):  # type: ignore[no-untyped-def]
            if not self.path.startswith(prefix + "/"):
                self.send_error(404)
                return None
            return super().send_head()

        def translate_path(self, path: str) -> str:
            return super().translate_path(path.removeprefix(prefix))

    return _MountedHandler


@pytest.fixture(scope="module")
def site(chromium: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """The sub-path site with filler articles, built once and mounted at ``/sub/``.
    ``Site.base`` ends in ``/sub``: a request to any other path is aborted and reported."""
    root = make_site(tmp_path_factory.mktemp("sub-path"), "https://example.org/sub/", fillers=FILLERS)
    assert cli.main(["build", "--root", str(root)]) == 0
    out = root / "build"
    with serving(out, mounted_at(PREFIX)) as base:
        yield Site(out, base + PREFIX, {}, [])


def filler_of_shard(shard: int) -> int:
    """A filler article whose batch falls in ``shard`` of the index."""
    batches = sorted(
        ["databases_ru", "hangul_ko", "links_en", "retry_en"] + [f"filler_{n:02d}" for n in range(FILLERS)]
    )
    count = shard_count(len(batches))
    assert count == 2, f"{len(batches)} batches make {count} shards"
    return next(n for n in range(FILLERS) if shard_of(f"filler_{n:02d}", count) == shard)


@pytest.mark.parametrize("path", PAGES)
def test_every_page_type_loads_below_the_path(browser: Browser, site: Site, path: str) -> None:
    with watched_page(browser, site, viewport=DESKTOP) as (page, watch):
        visit(page, watch, site, path)  # a missing page must answer 404 with the site's page
        page.wait_for_load_state("networkidle")
        sheets = page.evaluate("[...document.styleSheets].map(s => s.href)")
        assert site.base + "/theme/style.css" in sheets, f"{path}: the theme is not loaded: {sheets}"
        assert page.locator(".pagefind-ui__search-input").count() == 1, f"{path}: no search box"
        assert not watch.problems, "\n".join(watch.problems)


def test_the_feed_link_and_the_way_home_from_the_404_page(browser: Browser, site: Site) -> None:
    with watched_page(browser, site, viewport=DESKTOP) as (page, watch):
        visit(page, watch, site, MISSING_PATH)
        page.locator("main a").first.click()
        page.wait_for_url(site.base + "/")
        assert page.locator(".cards .card").count() > 0
        feed = page.locator(".site-nav a").last.get_attribute("href")
        alternate = page.locator("link[type='application/atom+xml']").get_attribute("href")
        assert feed == alternate == "/sub/feed.xml"
        # Shown as a document, the feed has no icon link, and Chromium may ask the host's own
        # /favicon.ico for it (not always: it races the check below): the host's, not the site's.
        watch.expected_404.add(urllib.parse.urljoin(page.url, "/favicon.ico"))
        response = page.goto(urllib.parse.urljoin(page.url, feed))
        assert response is not None and response.status == 200
        assert response.text().lstrip().startswith("<?xml")
        assert not watch.problems, "\n".join(watch.problems)


@pytest.mark.parametrize("shard", [0, 1], ids=["first-shard", "merged-shard"])
def test_search_finds_an_article_and_opens_it(browser: Browser, site: Site, shard: int) -> None:
    n = filler_of_shard(shard)
    expected = f"{PREFIX}/articles/filler-{n:02d}/"
    with watched_page(browser, site, viewport=DESKTOP) as (page, watch):
        requested: list[str] = []
        page.on("request", lambda request: requested.append(urllib.parse.urlsplit(request.url).path))
        visit(page, watch, site, "/")
        page.locator(".pagefind-ui__search-input").fill(filler_word(n))
        result = page.locator(f'.pagefind-ui__result-link[href="{expected}"]')
        result.wait_for(state="visible")
        hrefs = page.locator(".pagefind-ui__result-link").evaluate_all(
            "els => els.map(a => a.getAttribute('href'))"
        )
        assert hrefs == [expected], f"{filler_word(n)!r} found {hrefs}"
        # Both shards are one bundle, whose entry and metadata Pagefind reads below the path.
        heads = [p for p in requested if p.endswith(("/pagefind-entry.json", ".pf_meta", "/heads.bin"))]
        assert len(heads) == 2 and heads[0] == f"{PREFIX}/pagefind/pagefind-entry.json", requested
        assert heads[1].startswith(f"{PREFIX}/pagefind/pagefind.") and heads[1].endswith(".pf_meta"), (
            requested
        )
        result.click()
        page.wait_for_url(site.base.removesuffix(PREFIX) + expected)
        assert page.locator("article h1").inner_text().strip() == f"Filler {n}"
        page.wait_for_load_state("networkidle")
        assert not watch.problems, "\n".join(watch.problems)


@pytest.fixture(scope="module")
def rebuilt(chromium: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """The sub-path site built, then one filler article of each shard given a new word in place
    of its own and the site built again: the search index is the shards, joined, and a delta."""
    root = make_site(tmp_path_factory.mktemp("sub-path-delta"), "https://example.org/sub/", fillers=FILLERS)
    assert cli.main(["build", "--root", str(root)]) == 0
    for shard in (0, 1):
        n = filler_of_shard(shard)
        batch = root / f"articles/filler_{n:02d}.py"
        batch.write_text(batch.read_text("utf-8").replace(filler_word(n), f"zyxedited{n}"), "utf-8")
    assert cli.main(["build", "--root", str(root)]) == 0
    out = root / "build"
    assert (out / DELTA / "pagefind-entry.json").is_file()
    with serving(out, mounted_at(PREFIX)) as base:
        yield Site(out, base + PREFIX, {}, [])


NOTHING_FOUND = "Ничего не найдено по запросу: {word}"
"""What Pagefind's search box says in Russian (the site's language) once a search found nothing:
the only sign that it has answered, since while it searches it lists no result either."""


def searched(page: Page, word: str, expected: int) -> list[str]:
    """The result links the search box lists for ``word``, once it has answered: with ``expected``
    results, once it lists that many (or, failing that, what it lists then, for the caller to
    compare); with none, once it says it found nothing (failing if it never does). Its message
    names the word while it still searches ("Поиск по запросу: …"), before the results'
    fragments are loaded, which a loaded machine can hold back past the network's idle."""
    page.locator(".pagefind-ui__search-input").fill(word)
    message = page.locator(".pagefind-ui__message")
    message.filter(has_text=word).wait_for(state="visible")
    links = page.locator(".pagefind-ui__result-link")
    if expected == 0:
        expect(message).to_have_text(NOTHING_FOUND.format(word=word))
    else:
        page.wait_for_load_state("networkidle")
        with contextlib.suppress(AssertionError):
            expect(links).to_have_count(expected)
    return links.evaluate_all("els => els.map(a => a.getAttribute('href'))")


@pytest.mark.parametrize("shard", [0, 1], ids=["first-shard", "merged-shard"])
def test_after_an_edit_search_finds_the_new_words_and_not_the_old(
    browser: Browser, rebuilt: Site, shard: int
) -> None:
    """Below the path, the delta's page is found by its new word, and the shard's copy of it,
    hidden, by neither word: every request stays below ``/sub/``."""
    n = filler_of_shard(shard)
    with watched_page(browser, rebuilt, viewport=DESKTOP) as (page, watch):
        requested: list[str] = []
        page.on("request", lambda request: requested.append(urllib.parse.urlsplit(request.url).path))
        visit(page, watch, rebuilt, "/")
        assert searched(page, f"zyxedited{n}", 1) == [f"{PREFIX}/articles/filler-{n:02d}/"]
        assert any(path.startswith(f"{PREFIX}/{DELTA}/fragment/") for path in requested), requested
        # Below the path too, both bundles' entries and metadata come from the one file.
        heads = [p for p in requested if p.endswith(("/pagefind-entry.json", ".pf_meta", "/heads.bin"))]
        assert heads == [f"{PREFIX}/{HEADS}"], requested
        assert searched(page, filler_word(n), 0) == []
        assert not watch.problems, "\n".join(watch.problems)


# --- every feature at once, two folders deep ----------------------------------------------------

ALL_PREFIX = "/sub/dir"


@pytest.fixture(scope="module")
def all_features(chromium: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """``tests/sites/all_features`` built with ``--drafts --future`` (every page it can have)
    below ``/sub/dir/``, at the build date of ``tests/whole_site/test_all_features.py``, mounted there."""
    folder = tmp_path_factory.mktemp("all-features")
    built = build(copy_site(folder, BASES["sub-dir"]), folder / "out", "--drafts", "--future")
    assert built.code == 0, built.err
    with serving(built.out, mounted_at(ALL_PREFIX)) as base:
        yield Site(built.out, base + ALL_PREFIX, {}, [])


def test_every_page_of_the_all_features_site_loads_below_the_path(
    browser: Browser, all_features: Site
) -> None:
    paths = ["/" + p.relative_to(all_features.root).as_posix() for p in all_features.root.rglob("*.html")]
    paths = [*sorted(p.removesuffix("index.html") for p in paths), MISSING_PATH]
    assert "/articles/growing-note/diff/4/" in paths and "/articles/draft-note/" in paths

    def theme_missing(page: Page, path: str) -> list[str]:
        sheets = page.evaluate("[...document.styleSheets].map(s => s.href)")
        loaded = all_features.base + "/theme/style.css" in sheets
        return [] if loaded else [f"the theme is not loaded: {sheets}"]

    context = browser.new_context(viewport=DESKTOP)
    context.set_default_timeout(TIMEOUT_MS)
    try:
        failures = visit_all(context, all_features, paths, theme_missing)
    finally:
        context.close()
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize(
    ("word", "slug", "title"),
    [
        pytest.param("zeppelinword", "growing-note", "A growing note", id="en"),
        pytest.param("уникален", "keys-ru", "Один ключ — одна строка", id="ru"),
        pytest.param("저장합니다", "hangul-notes", "멱등성 키 정리", id="ko"),
    ],
)
def test_search_on_the_all_features_site_opens_the_article(
    browser: Browser, all_features: Site, word: str, slug: str, title: str
) -> None:
    expected = f"{ALL_PREFIX}/articles/{slug}/"
    with watched_page(browser, all_features, viewport=DESKTOP) as (page, watch):
        visit(page, watch, all_features, "/")
        page.locator(".pagefind-ui__search-input").fill(word)
        result = page.locator(f'.pagefind-ui__result-link[href="{expected}"]')
        result.wait_for(state="visible")
        result.click()
        page.wait_for_url(all_features.base.removesuffix(ALL_PREFIX) + urllib.parse.quote(expected))
        assert page.locator("article h1").inner_text().strip() == title
        page.wait_for_load_state("networkidle")
        assert not watch.problems, "\n".join(watch.problems)


SELECT_TRANSCRIPT_JS = """() => {
    const range = document.createRange();
    range.selectNodeContents(document.querySelector("pre.transcript"));
    const selection = getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    return selection.toString();
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_transcript_reads_in_both_schemes_and_a_copy_of_it_leaves_the_prompt_out(
    browser: Browser, all_features: Site, scheme: str
) -> None:
    with watched_page(browser, all_features, viewport=DESKTOP, color_scheme=scheme) as (page, watch):
        visit(page, watch, all_features, "/articles/retry-basics/")
        assert page.locator("pre.transcript kbd").inner_text() == "budget --requests 1000 & more"
        checked = (
            Axe()
            .run(
                page,
                context="pre.transcript",
                options={"runOnly": ["color-contrast"], "resultTypes": ["violations"]},
            )
            .response
        )
        contrast = checked["violations"] + checked["incomplete"]
        assert contrast == [] and checked["passes"], contrast  # its text was looked at, and reads
        copied = page.evaluate(SELECT_TRANSCRIPT_JS)
        assert copied == "budget --requests 1000 & more\nretries allowed: 100 <of 1000>"
        assert not watch.problems, "\n".join(watch.problems)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_chart_reads_in_both_schemes_and_its_rows_are_reached_by_keyboard(
    browser: Browser, all_features: Site, scheme: str
) -> None:
    with watched_page(browser, all_features, viewport=DESKTOP, color_scheme=scheme) as (page, watch):
        visit(page, watch, all_features, "/articles/retry-basics/")
        drawing = page.locator("figure.chart .chart-drawing svg")
        assert drawing.is_visible() and drawing.bounding_box()["width"] > 100  # type: ignore[index]
        (drawn,) = page.evaluate(CHART_TEXTS_JS)
        texts = drawn["texts"]
        assert "retries allowed" in [t["text"] for t in texts]
        assert drawn["own"] == "rgba(0, 0, 0, 0)"  # the drawing's background: none
        low = [
            f"{t['text']!r}: {ratio:.2f}"
            for t in texts
            if (ratio := contrast(parse_color(t["fill"]), parse_color(t["background"]))) < MIN_CONTRAST
        ]
        assert not low, low  # every label against the page it is drawn on: the background is the page's
        checked = Axe().run(page, context="figure.chart", options={"resultTypes": ["violations"]}).response
        assert checked["violations"] == [], checked["violations"]
        for _ in range(60):  # the table's scrolling box takes the focus on the way through the page
            page.keyboard.press("Tab")
            if page.evaluate("() => !!document.activeElement.closest('figure.chart .table-scroll')"):
                break
        else:
            raise AssertionError("Tab never reached the chart's table")
        assert not watch.problems, "\n".join(watch.problems)
