"""How pytest-xdist hands out the tests: one at a time as workers free up, except the modules
of :data:`TOGETHER`, each given whole to one worker.

A module-scoped fixture runs once in each worker that runs one of its module's tests. For
most modules that is a small site built two or three times over; for these it is a served
site measured in Chromium, a matrix of builds, or a site (a corpus) built once for all their
tests, and spreading the module over three workers did that work up to three times:
``tests/browser/test_browser.py`` alone took 188 s of CPU over 3 workers and 77 s in one
(``pytest -n 3`` and ``-n 1``, on 2 cores, 2026-12-06)."""

from __future__ import annotations

from xdist.scheduler import LoadScopeScheduling

TOGETHER = {
    "tests/browser/test_browser.py": "a served site, one Chromium page per mode, each page measured once",
    "tests/browser/test_browser_sub_path.py": "the all-features site built and served at a sub-path",
    "tests/browser/test_browser_typography.py": "a served site of three languages in Chromium",
    "tests/whole_site/test_all_features.py": "the all-features site built in each mode of its matrix",
    # The modules below build a site once for their tests (a module-scoped fixture of their own
    # or of their folder's conftest.py); spread over 3 workers, each built it again: the CPU a
    # module took with ``-n 3`` over what it took alone, less the two extra workers' start
    # (1.7 s), on 2 cores, 2026-12-06.
    "tests/pipeline/test_incremental.py": "the corpus built first and clean for each input (11.9 s)",
    "tests/pipeline/test_site_index.py": "the corpus built first and clean for each input (3.7 s)",
    "tests/whole_site/test_hostile_vectors.py": "the site of every vector and its twin (2.4 s)",
    "tests/render/test_sub_path.py": "the site built at the root and at each sub-path (1.7 s)",
    "tests/render/test_revisions_over_time.py": "the revised site built at each base path (1.4 s)",
    "tests/render/test_drafts.py": "the drafts site built at each base path, both ways (1.2 s)",
    "tests/pipeline/test_build.py": "tests/sites/valid_site built (1.1 s)",
    "tests/render/test_sharing.py": "the sharing site built at each base path (1.1 s)",
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
