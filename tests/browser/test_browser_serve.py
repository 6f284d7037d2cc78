"""``site-builder serve`` in a real Chromium: a path the site does not have is the site's own
404 page, with status 404, at the root and below a sub-path's base path, and its link home works.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from tests.serve.test_serve import (
    ARTICLE,
    ARTICLE_URL,
    OTHER,
    OTHER_BATCH,
    built_404,
    live_batch,
    replace_file,
    serving,
    serving_address,
)
from tests.support.sites import SETTINGS, MakeSite

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("base_path", ["/", "/sub/"], ids=["root", "sub-path"])
def test_serve_shows_the_sites_404_page_for_a_missing_path(
    browser: Browser, make_site: MakeSite, tmp_path: Path, base_path: str
) -> None:
    settings = SETTINGS.replace('"https://example.org/"', f'"https://example.org{base_path}"')
    root = make_site(
        {ARTICLE: live_batch("Words of the one article of this site."), OTHER: OTHER_BATCH}, settings
    )
    built = built_404(root, tmp_path)
    title = re.search(r"<title>(.*?)</title>", built)
    heading = re.search(r"<h1[^>]*>(.*?)</h1>", built)
    assert title and heading, "the built 404.html has no title or h1"
    with serving(root, "--port", "0") as server:
        base = serving_address(
            server, re.compile(r"serving on (http://127\.0\.0\.1:\d+/\S*) \(Ctrl-C")
        ).group(1)
        page = browser.new_page()
        try:
            response = page.goto(base + "articles/no-such-article/")
            assert response is not None
            assert response.status == 404
            assert page.title() == title.group(1)
            assert page.locator("h1").inner_text().strip() == heading.group(1).strip()
            # Styled by the site's own theme, below the base path: not a bare error page.
            assert (
                page.locator("link[rel=stylesheet]").first.get_attribute("href")
                == f"{base_path}theme/style.css"
            )
            home = page.locator(f"main a[href='{base_path}']")
            home.click()
            page.wait_for_url(base)
            assert page.locator(".cards .card").count() == 2
        finally:
            page.close()


def test_an_open_page_is_pushed_each_new_version_and_each_failed_rebuild(
    browser: Browser, make_site: MakeSite
) -> None:
    """The page reloads itself when an edit builds, shows the problems over the last good page
    when one does not, and drops them when the fix builds: no manual reload, no polling."""
    root = make_site({ARTICLE: live_batch("The words first served."), OTHER: OTHER_BATCH})
    with serving(root, "--port", "0") as server:
        base = serving_address(server, re.compile(r"serving on (http://127\.0\.0\.1:\d+/) \(Ctrl-C")).group(1)
        page = browser.new_page()
        try:
            page.goto(base + ARTICLE_URL)
            assert "The words first served." in page.locator("main").inner_text()
            requests: list[str] = []
            page.on("request", lambda request: requests.append(request.url))

            replace_file(root, ARTICLE, live_batch("The words of the second version."))
            page.locator("main", has_text="The words of the second version.").wait_for(timeout=15_000)

            replace_file(root, ARTICLE, live_batch("Broken now.") + "def broken(:\n")
            alert = page.get_by_role("alert")
            alert.wait_for(timeout=15_000)
            assert f"{ARTICLE}:" in alert.inner_text() and "showing the last good site" in alert.inner_text()
            assert "The words of the second version." in page.locator("main").inner_text()

            replace_file(root, ARTICLE, live_batch("The words of the third version."))
            page.locator("main", has_text="The words of the third version.").wait_for(timeout=15_000)
            assert page.get_by_role("alert").count() == 0
            # The page asked for its state by push only: no request for the polled state.
            assert not [url for url in requests if url.endswith("/__site_builder__/state")], requests
        finally:
            page.close()
