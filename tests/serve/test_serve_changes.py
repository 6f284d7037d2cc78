"""``serve``'s watch of the sources loses no edit, even when the kernel loses the edit's event."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

from site_builder.serve.changes import LOOK, Changes
from site_builder.serve.session import _fingerprint


def test_an_edit_whose_event_is_lost_is_found_by_the_sources_fingerprint(tmp_path: Path) -> None:
    articles = tmp_path / "articles"
    articles.mkdir()
    (articles / "post.py").write_text("first = 1\n", "utf-8")
    sources = (str(articles), str(tmp_path / "pyproject.toml"))
    deaf = Changes(tmp_path, lambda _change, _path: False, lambda: _fingerprint(sources))  # every event lost
    stop = threading.Event()
    with deaf:
        timer = threading.Timer(3 * LOOK, stop.set)
        timer.start()
        assert not deaf.wait(stop), "a change was reported when nothing changed"
        stop.clear()
        (articles / "post.py").write_text("first = 22\n", "utf-8")  # another size
        timer = threading.Timer(10.0, stop.set)
        timer.start()
        started = time.monotonic()
        try:
            assert deaf.wait(stop), "the edit was never reported"
        finally:
            timer.cancel()
        assert time.monotonic() - started < 3 * LOOK
        stop.set()
        assert not deaf.wait(stop)  # taken once: nothing more to report


def test_the_fingerprint_follows_size_and_time_of_each_source_and_skips_pycache(tmp_path: Path) -> None:
    (tmp_path / "articles" / "__pycache__").mkdir(parents=True)
    post = tmp_path / "articles" / "post.py"
    post.write_text("x = 1\n", "utf-8")
    (tmp_path / "pyproject.toml").write_text("[tool.site_builder]\n", "utf-8")
    sources = (str(tmp_path / "articles"), str(tmp_path / "pyproject.toml"), str(tmp_path / "templates"))
    before = _fingerprint(sources)
    assert {path for path, _, _ in before} == {str(post), str(tmp_path / "pyproject.toml")}
    (tmp_path / "articles" / "__pycache__" / "post.cpython-311.pyc").write_bytes(b"compiled")
    assert _fingerprint(sources) == before
    os.utime(post, ns=(post.stat().st_atime_ns, post.stat().st_mtime_ns + 1_000_000))
    assert _fingerprint(sources) != before
