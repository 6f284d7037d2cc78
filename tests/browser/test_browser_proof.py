"""The marks of a site that sets ``repo_url``, in a real Chromium: each links to its fixture's
``def`` line in the repository, and following it opens exactly that URL in a new tab.

The repository's host never sees a request: the browser context answers it with a stub page
and records the URL it was asked for. Marks of a site without ``repo_url`` (links into the
page's list of fixtures) are followed in ``test_browser``, on the repository's own site.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Route

from site_builder import cli
from tests.browser.pages import DESKTOP, Site, serving, visit, watched_page
from tests.render.test_proof_marks import ALPHA_LINE, BETA_LINE, LANGS, make_site

pytestmark = pytest.mark.browser

REPO = "https://github.com/me/site"
SOURCE_URI = "blob/trunk/site/"
ALPHA = f"{REPO}/{SOURCE_URI}articles/proofs.py#L{ALPHA_LINE}"
BETA = f"{REPO}/{SOURCE_URI}articles/proofs.py#L{BETA_LINE}"


@pytest.fixture(scope="module")
def site(chromium: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """The proof site of ``test_proof_marks`` with ``repo_url``, as if it lived in ``site/`` of its
    repository, served on 127.0.0.1."""
    settings = f'repo_url = "{REPO}"\nsource_uri = "{SOURCE_URI}"\n'
    root = make_site(tmp_path_factory.mktemp("proof-browser"), settings)
    assert cli.main(["build", "--root", str(root), "--no-cache"]) == 0
    with serving(root / "build") as base:
        yield Site(root / "build", base, {}, [])


@pytest.mark.parametrize("lang", LANGS)
def test_each_mark_opens_its_fixture_s_def_line_in_the_repository(
    browser: Browser, site: Site, lang: str
) -> None:
    asked: list[str] = []

    def answer(route: Route) -> None:
        asked.append(route.request.url)
        route.fulfill(status=200, content_type="text/html", body="<title>source</title>")

    with watched_page(browser, site, viewport=DESKTOP) as (page, watch):
        page.context.route("https://github.com/**", answer)
        visit(page, watch, site, f"/articles/proof-{lang}/")
        marks = page.locator(".article-body pre + p.proof a")
        hrefs = marks.evaluate_all("links => links.map(a => a.getAttribute('href'))")
        assert hrefs == [ALPHA, ALPHA, BETA]
        assert page.locator(".proof").count() == 3
        assert page.locator(".article-body pre").count() == 3

        for n, href in enumerate(hrefs):
            with page.context.expect_page() as opened:
                marks.nth(n).click()
            tab = opened.value
            tab.wait_for_load_state("load")
            assert tab.url == href
            assert tab.evaluate("window.opener") is None
            tab.close()
        # The fragment stays in the browser: the host is asked for the file, and the tab shows its line.
        assert asked == [href.partition("#")[0] for href in hrefs]
        box = page.locator("#fixtures li a").evaluate_all("links => links.map(a => a.getAttribute('href'))")
        assert box == [ALPHA, BETA]
        assert not watch.problems, "\n".join(watch.problems)
