"""The watch every browser test keeps on its pages (``tests/browser/pages.py``) catches what it
promises to: a request to another host is reported, and never reaches that host, since no name
but the test server's resolves in the tests' Chromium."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser

from tests.browser.pages import DESKTOP, Site, serving, visit, watched_page

pytestmark = pytest.mark.browser

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Outside</title>
<link rel="stylesheet" href="https://fonts.example.com/site.css"></head>
<body><p>A page that asks another host for a style sheet and an image.</p>
<img src="https://images.example.org/figure.png" alt="figure"></body></html>
"""


def test_a_request_to_another_host_is_reported_and_resolves_nowhere(browser: Browser, tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text(PAGE, "utf-8")
    with serving(tmp_path) as base:
        site = Site(root=tmp_path, base=base, pages={}, all_categories=[])
        with watched_page(browser, site, viewport=DESKTOP) as (page, watch):
            visit(page, watch, site, "/")

    outside = sorted(p for p in watch.problems if p.startswith("request to another host"))
    assert outside == [
        "request to another host (blocked): https://fonts.example.com/site.css",
        "request to another host (blocked): https://images.example.org/figure.png",
    ]
    failed = sorted(p for p in watch.problems if p.startswith("request failed"))
    assert failed == [
        "request failed: GET https://fonts.example.com/site.css (net::ERR_NAME_NOT_RESOLVED)",
        "request failed: GET https://images.example.org/figure.png (net::ERR_NAME_NOT_RESOLVED)",
    ]
