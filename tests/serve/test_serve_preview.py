"""``serve`` shows an edit as soon as its pages are checked, before the search index is done.

Pagefind is held at a gate (a wrapper that waits for a file) so the moment between the two
is as long as the test needs: the page must show the edit while the search bundle is still
the last build's, and the state must say the search is pending; once Pagefind may go on, the
bundle is the new one and the state says so.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

import pytest

from site_builder.search import pagefind
from site_builder.serve import session
from site_builder.serve.pages import State
from site_builder.serve.session import serve
from site_builder.settings.project import Project
from tests.serve.test_serve import (
    ARTICLE,
    ARTICLE_URL,
    OTHER,
    OTHER_BATCH,
    RELOAD,
    get,
    live_batch,
    replace_file,
    state,
)
from tests.support.sites import MakeSite, searchable, tree

pytestmark = pytest.mark.slow

DEADLINE = 20.0
SERVING = re.compile(r"serving on (http://127\.0\.0\.1:\d+/)")


@contextmanager
def serving_here(root: Path) -> Iterator[tuple[str, list[str]]]:
    """``serve`` in a thread of this process (so Pagefind's command can be swapped for the
    gate); its base URL and what it said."""
    said: list[str] = []
    up = threading.Event()
    stop = threading.Event()

    def say(text: str) -> None:
        said.append(text)
        if SERVING.search(text):
            up.set()

    failed: list[BaseException] = []

    def run() -> None:
        try:
            serve(Project.read(root), 0, say, stop)
        except BaseException as exc:  # noqa: BLE001 - reported by the test below
            failed.append(exc)
            up.set()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        assert up.wait(DEADLINE * 3) and not failed, f"serve did not start: {failed} {said}"
        match = SERVING.search("\n".join(said))
        assert match is not None
        yield match.group(1), said
    finally:
        stop.set()
        thread.join(DEADLINE)
        assert not thread.is_alive(), "serve did not stop"
        assert not failed, failed


def gated_pagefind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """Pagefind's command swapped for a wrapper that notes each run, then waits while the gate
    file is missing; the gate (there) and the file of runs."""
    gate = tmp_path / "gate"
    gate.touch()
    runs = tmp_path / "pagefind-runs"
    runs.touch()
    wrapper = tmp_path / "pagefind-at-a-gate"
    wrapper.write_text(
        f"#!/bin/sh\necho run >> '{runs}'\nwhile [ ! -e '{gate}' ]; do sleep 0.05; done\n"
        f"exec '{pagefind._executable()}' \"$@\"\n",
        "utf-8",
    )
    wrapper.chmod(0o755)
    monkeypatch.setattr(pagefind, "_executable", lambda: str(wrapper))
    return gate, runs


def until(what: str, probe: Callable[[], bool], said: list[str]) -> None:
    """Wait for ``probe()`` to be true."""
    deadline = time.monotonic() + DEADLINE
    while time.monotonic() < deadline:
        if probe():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}; serve said:\n" + "\n".join(said))


@pytest.fixture
def gated(make_site: MakeSite, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path, Path]:
    """A two-batch site with Pagefind at a gate: its root, the gate and the file of runs."""
    root = make_site({ARTICLE: live_batch("The words first served."), OTHER: OTHER_BATCH})
    return (root, *gated_pagefind(tmp_path, monkeypatch))


def test_an_edit_shows_before_its_search_index_is_done(
    gated: tuple[Path, Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """…and the memory each build freed is given back once it is done."""
    root, gate, runs = gated
    served = root / ".site-builder-cache" / "serve" / "site"
    given_back: list[bool] = []
    monkeypatch.setattr(session, "give_back_memory", lambda: given_back.append(True))
    with serving_here(root) as (base, said):
        assert len(given_back) == 1, "not given back after the first build"
        page = base + ARTICLE_URL
        bundle = found_pages(served)
        assert bundle, "the first build wrote no search bundle"
        assert state(base)["search_pending"] is False
        joined = get(base + "revisions.json")
        assert joined[0] == 200 and "The words first served." in joined[1]
        gate.unlink()
        started = len(runs.read_text().splitlines())
        replace_file(root, ARTICLE, live_batch("An edit that shows before its index."))

        until("the edit on the page", lambda: "An edit that shows before its index." in get(page)[1], said)
        shown = RELOAD.sub("", get(page)[1])
        until("Pagefind to be started", lambda: len(runs.read_text().splitlines()) > started, said)
        now = state(base)
        assert now["search_pending"] is True and now["problems"] == [], now
        assert found_pages(served) == bundle, "the search index changed before Pagefind ran"
        assert not any(line.startswith("built") for line in said[2:]), said
        # The joined files are not part of the preview: the live site's until the swap.
        assert get(base + "revisions.json") == joined

        assert len(given_back) == 1, "given back before the build was done"
        gate.touch()
        until("the swap", lambda: state(base)["search_pending"] is False, said)
        until("the memory given back", lambda: len(given_back) == 2, said)
        assert found_pages(served) != bundle
        built = (served / ARTICLE_URL / "index.html").read_text("utf-8")
        assert built == shown, "the preview was not the page built"
        assert RELOAD.sub("", get(page)[1]) == shown
        status, now_joined = get(base + "revisions.json")
        assert status == 200 and "An edit that shows before its index." in now_joined


def found_pages(served: Path) -> dict[str, bytes]:
    """The fragment of every page the served site's search finds (its bundles' but the hidden)."""
    return {
        path: data for path, data in searchable(tree(served)).items() if path.startswith("pagefind/found/")
    }


def indexed_text(served: Path) -> str:
    """The text of every page the served site's search finds."""
    return "\n".join(json.loads(data[data.index(b"{") :])["content"] for data in found_pages(served).values())


def test_an_edit_during_the_search_index_is_built_at_once_and_indexed_last(
    gated: tuple[Path, Path, Path],
) -> None:
    root, gate, runs = gated
    served = root / ".site-builder-cache" / "serve" / "site"
    with serving_here(root) as (base, said):
        page = base + ARTICLE_URL
        assert "words first served" in indexed_text(served)
        gate.unlink()
        started = len(runs.read_text().splitlines())
        replace_file(root, ARTICLE, live_batch("A first edit, held at the gate."))
        until("the first edit", lambda: "A first edit, held at the gate." in get(page)[1], said)
        until("Pagefind for it", lambda: len(runs.read_text().splitlines()) > started, said)

        replace_file(root, ARTICLE, live_batch("A second edit, while the first is indexed."))
        until("the second edit", lambda: "A second edit, while the first is indexed." in get(page)[1], said)
        until("Pagefind for it", lambda: len(runs.read_text().splitlines()) > started + 1, said)
        assert any("a newer edit came before the search index was done" in line for line in said), said
        assert state(base)["search_pending"] is True
        # The first edit's build ended at its preview: the live site, search and all, is the first.
        assert "words first served" in indexed_text(served)
        assert "words first served" in (served / ARTICLE_URL / "index.html").read_text("utf-8")

        gate.touch()
        until("the index", lambda: state(base)["search_pending"] is False, said)
        text = indexed_text(served)
        assert "A second edit, while the first is indexed." in text
        assert "first edit, held" not in text and "words first served" not in text


LATER_REVISION = """
revisions.append(revision(slug="live-article", title="Live", categories=["Misc"], excerpt="Live.",
                          published="2024-01-01", revised="2024-02-02", changes="Reworded.",
                          body=[paragraph("The live article, said again in other words.")],
                          sources=SRC))
"""


def previews(root: Path) -> tuple[list[tuple[str, dict[str, bytes | None]]], State]:
    """Rebuild ``root`` as ``serve`` does, its events in order (each step's name, and
    ``"shown"`` with the files each preview showed) and a server state told of each preview
    and of the build's end, as ``serve`` tells it."""
    from site_builder.pipeline.events import Events
    from site_builder.pipeline.plan import plan_build
    from site_builder.pipeline.steps import build

    told: list[tuple[str, dict[str, bytes | None]]] = []
    state = State("/")

    def show(files: Mapping[str, bytes | None]) -> None:
        told.append(("shown", dict(files)))
        assert state.preview(files, "/")

    built = build(
        plan_build(Project.read(root)),
        events=Events(step=lambda name: told.append((name, {})), changed=show),
    )
    state.update([str(problem) for problem in built.problems], "/")
    return told, state


def test_the_edited_pages_are_shown_before_the_rest_of_the_site_is_rendered(make_site: MakeSite) -> None:
    """The pages a batch rendered are shown once the site is judged (before step 6), and again
    with the rest once every link is checked: a second version only when the rest adds to them.
    Each page shown holds the bytes the build then publishes."""
    root = make_site({ARTICLE: live_batch("The words first served."), OTHER: OTHER_BATCH})
    page = ARTICLE_URL + "index.html"
    previews(root)  # the live site

    replace_file(root, ARTICLE, live_batch("The words of an edit."))
    told, state = previews(root)
    names = [name for name, _ in told]
    assert names.index("shown") < names.index("rendering") < names.index("shown", names.index("shown") + 1)
    first, second = (files for name, files in told if name == "shown")
    assert first == second and list(first) == [page]
    assert first[page] == (root / "build" / page).read_bytes()
    assert b"The words of an edit." in first[page]
    assert state.version == 1  # shown once: open pages reload once

    replace_file(root, ARTICLE, live_batch("The words of an edit.").replace('title="Live"', 'title="Lively"'))
    told, state = previews(root)
    first, second = (files for name, files in told if name == "shown")
    assert list(first) == [page] and first.items() < second.items()
    assert "index.html" in second and b"Lively" in (second["index.html"] or b"")
    assert state.version == 2  # the list pages came with the second preview
    assert all(files == (root / "build" / path).read_bytes() for path, files in second.items() if files)

    # An edit of the article and its later revision in another batch, at once: the article's
    # batch renders its page, but the page at its URL is now the later revision's, which the
    # main process renders (step 6). The first preview leaves it out; the second has it.
    replace_file(root, ARTICLE, live_batch("The words of a third edit."))
    replace_file(root, OTHER, OTHER_BATCH + LATER_REVISION)
    told, _ = previews(root)
    shown = [files for name, files in told if name == "shown"]
    assert all(page not in files for files in shown[:-1])
    assert shown[-1][page] == (root / "build" / page).read_bytes()
    assert b"said again in other words" in (shown[-1][page] or b"")

    # The same edit with a list page's template that fails as it renders (step 6): the page
    # was shown, and is taken back, as a new version of the live site with the problem over it.
    edited = OTHER_BATCH.replace("A second batch that always builds.", "A second batch, edited.")
    replace_file(root, OTHER, edited + LATER_REVISION)
    (root / "templates").mkdir()
    broken = '{% extends "base.html" %}{% block main %}{{ nothing.at_all }}{% endblock %}\n'
    (root / "templates" / "index.html").write_text(broken, "utf-8")
    told, state = previews(root)
    names = [name for name, _ in told]
    assert names.index("shown") < names.index("rendering") and names.count("shown") == 1
    other = "articles/other-article/index.html"
    assert b"A second batch, edited." in (told[names.index("shown")][1][other] or b"")
    assert (state.version, state.shown) == (2, {}) and "templates/index.html" in state.problems[0]
    assert b"A second batch, edited." not in (root / "build" / other).read_bytes()  # the live site


def test_a_good_preview_keeps_its_version_and_a_failed_one_is_taken_back() -> None:
    state = State("/")
    state.update(["articles/a.py:3: syntax: invalid syntax"], "/")
    assert (state.version, state.problems) == (0, ["articles/a.py:3: syntax: invalid syntax"])
    state.update([], "/")
    assert state.version == 1
    state.update(["articles/a.py:3: syntax: invalid syntax"], "/")
    assert state.preview({"a/index.html": b"<p>new</p>"}, "/")
    assert (state.version, state.shown, state.problems) == (2, {"a/index.html": b"<p>new</p>"}, [])
    state.update([], "/")
    assert (state.version, state.shown, state.problems) == (2, {}, [])  # the pages shown are the build's

    assert state.preview({"a/index.html": b"<p>newer</p>"}, "/")
    state.update(["pyproject.toml:1: search: pagefind failed"], "/")
    assert (state.version, state.shown) == (4, {})  # the last good site, as a new version
    assert state.problems == ["pyproject.toml:1: search: pagefind failed"]

    assert not state.preview({"a/index.html": b"x"}, "/moved/")  # another base path: no preview
    assert (state.version, state.shown) == (4, {})

    # Superseded by a newer edit after its preview: the preview stays, as the last good pages.
    assert state.preview({"a/index.html": b"<p>third</p>"}, "/")
    state.update([], "/", superseded=True)
    assert (state.version, state.shown) == (5, {"a/index.html": b"<p>third</p>"})
    state.update(["articles/a.py:3: syntax: invalid syntax"], "/")  # failed before any preview
    assert (state.version, state.shown) == (5, {"a/index.html": b"<p>third</p>"})
    state.update([], "/")  # built whole without a preview (nothing changed from the live site)
    assert (state.version, state.shown, state.problems) == (6, {}, [])
