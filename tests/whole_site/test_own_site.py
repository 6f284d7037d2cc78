"""This repository's own site (``articles/``, ``assets/``, the root ``pyproject.toml``) builds at
the domain's root and below a path, and every URL it writes leads to a built file below that
path (issue 32, item 5).

Built from a copy, so the repository's own ``build/`` and cache are never touched
(tests/support/own_site.py). Below ``/sub/`` it did not build before commit 8fabba2: its
revised articles' diff pages showed the body's images and links without the path.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.own_site import own_site_once
from tests.support.site_urls import dead_urls, every_url


@pytest.fixture(scope="module", params=["/", "/sub/"], ids=["root", "sub"])
def built(request: pytest.FixtureRequest, run_folder: Path) -> tuple[str, Path, str]:
    """(base URL, output folder, what the build printed) of the site served from that base URL,
    built once for the run (at the root, the browser tests' and the proof marks' site too)."""
    site = own_site_once(run_folder, str(request.param))
    return site.base_url, site.out, site.said


def test_every_url_of_the_site_leads_to_a_built_file_below_its_path(built: tuple[str, Path, str]) -> None:
    base_url, out, _ = built
    found = every_url(out, base_url)
    assert dead_urls(out, base_url, found) == []
    # Not vacuous: the diff pages of the revised articles are read, their body images among the URLs.
    diffs = [f for f in found if "/diff/" in f.where.split(" ")[0] and "<img src>" in f.where]
    assert diffs, "no image of a diff page was read"
    assert all(f.resolved.startswith(base_url + "assets/") for f in diffs)
