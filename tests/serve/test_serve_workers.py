"""``serve``'s worker processes (kept warm across rebuilds, gone with ``serve`` however it ends)
and its watch for edits (on from before the first build)."""

from __future__ import annotations

import os
import re
import signal
import sys
import time
from pathlib import Path

from tests.serve.test_serve import (
    ARTICLE,
    OTHER,
    OTHER_BATCH,
    SERVING,
    SLOW_BATCH,
    commands,
    get,
    lines_until_serving,
    live_batch,
    replace_file,
    serve_process,
    serving,
    serving_address,
    session_processes,
    state_when,
    wait_for,
)
from tests.support.sites import HEADER, MakeSite

IMPORTER = re.compile(r"Imported by process (\d+), edit (\d+)\.")


def pid_batch(edit: int) -> str:
    """A batch whose page names the process that imported it."""
    return (
        HEADER
        + f"""
import os

SRC = [Source(title="One", url="https://example.org/one", note="the first"),
       Source(title="Two", url="https://example.org/two", note="the second")]

revisions = [revision(slug="live-article", title="Live", categories=["Misc"], excerpt="Live.",
                      published="2024-01-01", sources=SRC,
                      body=[paragraph(f"Imported by process {{os.getpid()}}, edit {edit}.")])]
"""
    )


def test_serve_imports_each_edit_in_workers_it_keeps(make_site: MakeSite) -> None:
    """Three edits are imported by worker processes that are still running after the last:
    serve keeps its workers (modules imported, templates compiled) instead of starting new
    ones for every rebuild, which ``build`` does and which would have ended by then."""
    root = make_site({ARTICLE: pid_batch(0), OTHER: OTHER_BATCH})
    importers = []
    with serving(root, "--port", "0") as server:
        base = serving_address(server, SERVING).group(1)
        for edit in (1, 2, 3):
            replace_file(root, ARTICLE, pid_batch(edit))
            wait_for(
                f"version {edit + 1}",
                lambda e=edit: state_when(base, lambda s: s["version"] == e + 1),
                server,
            )
            status, html = get(base + "articles/live-article/")
            found = IMPORTER.search(html)
            assert status == 200 and found is not None and found.group(2) == str(edit), html
            importers.append(int(found.group(1)))
        gone = [pid for pid in importers if not Path(f"/proc/{pid}").exists()]
        assert gone == [], f"the workers that imported edits {importers} had ended: {gone}"
        assert server.process.pid not in importers, "an edit was imported in serve's own process"


HELPER_USER = (
    HEADER
    + """
from _words import WORDS

SRC = [Source(title="One", url="https://example.org/one", note="the first"),
       Source(title="Two", url="https://example.org/two", note="the second")]

revisions = [revision(slug="live-article", title="Live", categories=["Misc"], excerpt="Live.",
                      published="2024-01-01", sources=SRC, body=[paragraph(WORDS)])]
"""
)


def test_serve_reads_an_edited_helper_module_afresh_in_the_workers_it_keeps(make_site: MakeSite) -> None:
    """A helper beside the batches (``_words.py``) edited while serve runs: the next page shows
    the helper as it is now. A kept worker had it in its modules from the first build and, until
    a batch's helpers were forgotten with it, showed the first words after every edit."""
    first = 'WORDS = "First words, before any edit."\n'
    root = make_site({ARTICLE: HELPER_USER, OTHER: OTHER_BATCH, "articles/_words.py": first})
    with serving(root, "--port", "0") as server:
        base = serving_address(server, SERVING).group(1)
        for version, words in enumerate(("Second words, edited.", "Third words, edited again."), 2):
            replace_file(root, "articles/_words.py", f"WORDS = {words!r}\n")
            wait_for(
                f"version {version}", lambda v=version: state_when(base, lambda s: s["version"] == v), server
            )
            status, html = get(base + "articles/live-article/")
            assert status == 200 and words in html, f"version {version} does not show {words!r}"


def test_serve_killed_leaves_no_worker_behind(make_site: MakeSite, tmp_path: Path) -> None:
    """SIGKILL gives serve no chance to stop its workers: they watch it and end on their
    own, and so does the forkserver that started them (a worker held its lifeline)."""
    root = make_site({ARTICLE: pid_batch(0), OTHER: OTHER_BATCH})
    with serve_process(root, tmp_path) as process:
        lines_until_serving(process)
        alive = session_processes(process.pid)
        assert len(alive) > 1, f"no worker of serve's to watch: {commands(alive)}"
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=5)
        killed = time.monotonic()
        while (left := session_processes(process.pid)) and time.monotonic() < killed + 3:
            time.sleep(0.02)
        assert left == [], f"processes of serve's session alive 3 s after SIGKILL: {commands(left)}"


def test_an_edit_saved_during_the_first_build_is_built(make_site: MakeSite) -> None:
    """The first build takes a second (a slow batch); an edit saved meanwhile shows once serve
    serves: the watch was on before the build began, and queued it. (On a loaded machine the
    edit may come before the first build read the batch: then that build shows it.)"""
    slow = "articles/slow_2024_03.py"
    root = make_site(
        {
            ARTICLE: live_batch("Words of the first build."),
            slow: SLOW_BATCH.format(text="The first words of the slow batch."),
        }
    )
    with serving(root, "--port", "0") as server:
        time.sleep(0.4)  # serve is importing the slow batch
        assert server.output() == "", "the first build was over before the edit"
        replace_file(root, ARTICLE, live_batch("Words saved while the first build ran."))
        base = serving_address(server, SERVING).group(1)
        edited = "Words saved while the first build ran."
        wait_for(
            "the edit", lambda: True if edited in get(base + "articles/live-article/")[1] else None, server
        )


DECOY = """\
import os
import pathlib

pathlib.Path(os.environ["DECOY_MARK"]).write_text(str(os.getpid()))
"""

ENVIRONMENT_BATCH = (
    HEADER
    + """
import os

SRC = [Source(title="One", url="https://example.org/one", note="the first"),
       Source(title="Two", url="https://example.org/two", note="the second")]

revisions = [revision(slug="live-article", title="Live", categories=["Misc"], excerpt="Live.",
                      published="2024-01-01", sources=SRC,
                      body=[paragraph("The batch was imported with PYTHONSAFEPATH "
                                      f"{os.environ.get('PYTHONSAFEPATH')!r}.")])]
"""
)


def test_serve_workers_import_the_installed_package_whatever_the_current_folder_holds(
    make_site: MakeSite, tmp_path: Path
) -> None:
    """``serve`` started, as a user starts it, from a folder holding a ``site_builder/``
    package of its own (a clone of this repository): its workers import the package the
    command runs, never that folder's (a forkserver's ``sys.path`` begins with the current
    folder), and a batch sees the user's environment as it is."""
    root = make_site({ARTICLE: ENVIRONMENT_BATCH, OTHER: OTHER_BATCH})
    here = tmp_path / "clone"
    (here / "site_builder").mkdir(parents=True)
    (here / "site_builder/__init__.py").write_text(DECOY, "utf-8")
    mark = tmp_path / "decoy-imported"
    env = {key: value for key, value in os.environ.items() if key != "PYTHONSAFEPATH"}
    command = Path(sys.executable).with_name("site-builder")
    with serving(
        root, "--port", "0", env={**env, "DECOY_MARK": str(mark)}, program=[str(command)], cwd=here
    ) as server:
        base = serving_address(server, SERVING).group(1)
        status, html = get(base + "articles/live-article/")
    assert status == 200, html
    assert "imported with PYTHONSAFEPATH None." in html, html
    assert not mark.exists(), f"process {mark.read_text()} imported the current folder's site_builder"
