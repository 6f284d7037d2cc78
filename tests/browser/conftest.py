"""The fixtures of the browser tests: Debian's Chromium, and one browser driving it for the run."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from tests.browser.pages import debian_chromium, launched


@pytest.fixture(scope="session")
def chromium() -> Path:
    """Debian's Chromium: missing fails the run on CI and skips it, visibly, elsewhere."""
    return debian_chromium()


@pytest.fixture(scope="session")
def browser(chromium: Path) -> Iterator[Browser]:
    """One Chromium for the whole run: each test opens a context of its own in it (a context
    costs a few milliseconds, a browser a second)."""
    with launched(chromium) as running:
        yield running
