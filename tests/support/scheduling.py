"""How pytest-xdist hands out the tests: one at a time as workers free up, except the modules
of :data:`TOGETHER`, each given whole to one worker.

A module-scoped fixture runs once in each worker that runs one of its module's tests. For
most modules that is a small site built two or three times over; for these it is a served
site measured in Chromium, or a matrix of builds, and spreading the module over three workers
did that work three times: ``tests/browser/test_browser.py`` alone took 188 s of CPU over
3 workers and 77 s in one (``pytest -n 3`` and ``-n 1``, on 2 cores, 2026-12-06)."""

from __future__ import annotations

from xdist.scheduler import LoadScopeScheduling

TOGETHER = {
    "tests/browser/test_browser.py": "a served site, one Chromium page per mode, each page measured once",
    "tests/browser/test_browser_sub_path.py": "the all-features site built and served at a sub-path",
    "tests/browser/test_browser_typography.py": "a served site of three languages in Chromium",
    "tests/whole_site/test_all_features.py": "the all-features site built in each mode of its matrix",
}
"""Each module given to one worker, and the module-scoped work it then does once."""


def scope(nodeid: str) -> str:
    """The unit ``nodeid`` is handed out in: its module, when that is in :data:`TOGETHER`;
    else the test alone."""
    module = nodeid.split("::", 1)[0]
    return module if module in TOGETHER else nodeid


class ModulesTogether(LoadScopeScheduling):  # type: ignore[misc]
    """pytest-xdist's ``loadscope`` scheduling with :func:`scope` as the scope: the units go
    out largest first (the modules of :data:`TOGETHER`), then the other tests one by one, in
    the order they were collected."""

    def _split_scope(self, nodeid: str) -> str:
        return scope(nodeid)
