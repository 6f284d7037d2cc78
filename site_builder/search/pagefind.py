"""Pagefind's service fed some pages of the staging folder, one by one, and the script
that merges the shards' bundles in the browser."""

from __future__ import annotations

import base64
import contextlib
import functools
import json
import os
import re
import shutil
import subprocess
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path, PurePosixPath

from site_builder.model.layout import under
from site_builder.runtime.processes import die_with_parent, die_with_parent_in_background

BUNDLE = "pagefind"
"""The folder of the site that holds the search index."""
UI_FILES = frozenset({"pagefind/pagefind-ui.js", "pagefind/pagefind-ui.css", "pagefind/site-search.js"})
"""What the pages link to from the index: checked links may count on them."""
SCRIPT = "pagefind/site-search.js"
"""The script that starts the search box over every bundle."""


def start_pagefind(
    site: Path, pages: Sequence[str], run: Path, out: Path, language: str, *, background: bool = False
) -> Indexer:
    """Index ``pages`` (paths relative to ``site``) into ``out``, in this order, by Pagefind's
    service running in ``run`` (its working folder, where its messages go); ``background``:
    at a lower CPU priority."""
    shutil.rmtree(run, ignore_errors=True)
    run.mkdir(parents=True)
    with (run / "stderr.txt").open("wb") as stderr:
        # die_with_parent: a killed build must not leave an indexer running.
        process = subprocess.Popen(
            [_executable(), "--service"],
            cwd=run,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            preexec_fn=die_with_parent_in_background if background else die_with_parent,
        )
    return Indexer(process, site, pages, out, language, run / "stderr.txt")


class Indexer:
    """One shard's Pagefind, fed its pages one by one in the order given.

    Pagefind's command line finds the pages itself, in the order the file system lists
    them, and numbers them in that order: the index's bytes then depend on the file
    system (tmpfs lists a folder in the order its files were made, ext4 by a hash seeded
    per file system), so a rebuild would differ from a clean build of the same pages. Its
    service (``pagefind --service``, the protocol its Node and Python packages speak:
    messages of base64-encoded JSON, each ended by a comma) takes the pages in our order.
    One thread writes the requests, another reads the answers and writes the bundle the
    service answers with; then the service's input is closed and it exits."""

    def __init__(
        self,
        process: subprocess.Popen[bytes],
        site: Path,
        pages: Sequence[str],
        out: Path,
        language: str,
        stderr: Path,
    ) -> None:
        self.process = process
        self._stderr = stderr
        self._last = len(pages) + 1
        """The id of the last request, the one that writes the bundle."""
        self._errors: list[str] = []
        self._written = False
        requests = [_request(0, {"type": "NewIndex", "config": {"force_language": language}})]
        requests += (_page_request(number, site, page) for number, page in enumerate(pages, 1))
        requests.append(_request(self._last, {"type": "GetFiles", "index_id": 0}))
        self._out = out
        self._threads = (
            threading.Thread(target=self._write, args=(requests,), daemon=True),
            threading.Thread(target=self._read, daemon=True),
        )
        for thread in self._threads:
            thread.start()

    def poll(self) -> int | None:
        return self.process.poll()

    def wait(self, timeout: float | None = None) -> int:
        """The exit code, once the service ended; ``subprocess.TimeoutExpired`` after ``timeout``."""
        return self.process.wait(timeout)

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()

    def failure(self) -> str | None:
        """After the service ended: why its bundle cannot be used, or None when it was written."""
        self.process.wait()
        for thread in self._threads:
            thread.join()
        self._close()
        if self.process.stdout is not None:
            self.process.stdout.close()
        if self._errors:
            return f"pagefind failed: {self._errors[0]}"
        if self.process.returncode != 0 or not self._written:
            said = self._stderr.read_text("utf-8", errors="replace").strip().splitlines() or ["no output"]
            return f"pagefind failed with exit code {self.process.returncode}: {said[-1]}"
        return None

    def _write(self, requests: Iterable[Callable[[], bytes]]) -> None:
        stdin = self.process.stdin
        assert stdin is not None
        for request in requests:
            try:
                data = request()
            except FileNotFoundError:  # not staged: the build's own check names it
                continue
            except OSError as error:
                self._errors.append(f"could not read a page: {error}")
                self._close()
                return
            try:
                stdin.write(data)
            except (OSError, ValueError):  # the service ended, or was stopped
                return
        with contextlib.suppress(OSError, ValueError):
            stdin.flush()

    def _read(self) -> None:
        """Read the answers until the bundle is written, an error is answered or the service
        ends; then close its input."""
        stdout = self.process.stdout
        assert stdout is not None
        pending = bytearray()
        while not self._written and not self._errors and (chunk := os.read(stdout.fileno(), 1 << 20)):
            pending += chunk
            if b"," not in chunk:  # the bundle's answer is megabytes long: copied once, when whole
                continue
            *answers, rest = bytes(pending).split(b",")
            pending = bytearray(rest)
            for answer in answers:
                message = json.loads(base64.b64decode(answer))
                payload = message.get("payload", {})
                if payload.get("type") == "Error":
                    self._errors.append(str(payload.get("message")))
                elif message.get("message_id") == self._last:
                    self._save(payload.get("files", []))
        self._close()

    def _save(self, files: list[dict[str, str]]) -> None:
        """Write the bundle Pagefind answered with. Its own writing (``WriteFiles``) is not
        used: it hands the last writes to threads it does not wait for, and a service whose
        input ends exits at once, so files came out cut short."""
        for file in files:
            path = PurePosixPath(file["path"])
            if path.is_absolute() or ".." in path.parts:
                self._errors.append(f"a file outside the bundle: {file['path']}")
                return
            target = self._out / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(base64.b64decode(file["content"]))
        self._written = True

    def _close(self) -> None:
        """Close the service's input: it exits at the end of it."""
        with contextlib.suppress(OSError, ValueError):
            if self.process.stdin is not None:
                self.process.stdin.close()


def _request(number: int, payload: dict[str, object]) -> Callable[[], bytes]:
    return lambda: _message(number, payload)


def _page_request(number: int, site: Path, page: str) -> Callable[[], bytes]:
    """A page's request, its file read only when it is sent."""
    url = "/" + page.removesuffix("index.html")  # the URL Pagefind's command line gives the file

    def made() -> bytes:
        contents = (site / page).read_text("utf-8")
        payload = {"type": "AddFile", "index_id": 0, "file_path": page, "url": url, "file_contents": contents}
        return _message(number, payload)

    return made


def _message(number: int, payload: Mapping[str, object]) -> bytes:
    return base64.b64encode(json.dumps({"message_id": number, "payload": payload}).encode()) + b","


def _executable() -> str:
    """The Pagefind binary the ``pagefind[bin]`` wheel ships: run directly, not through Python."""
    try:
        import pagefind_bin  # type: ignore[import-untyped]

        return str(pagefind_bin.get_executable())
    except (ImportError, FileNotFoundError):
        return shutil.which("pagefind") or "pagefind"


@functools.cache
def pagefind_version() -> str:
    """The installed Pagefind's version: part of every shard's key."""
    try:
        from importlib.metadata import version

        return version("pagefind")
    except Exception:  # noqa: BLE001 - an unknown version only means a different cache key
        return "unknown"


def merging_script(bundles: Sequence[str], base_path: str) -> str:
    """``site-search.js``: the search box over the first bundle, merging the others.

    ``bundles`` are the bundles' folders in the site (``/pagefind/``); below a base path
    (``/sub/``) both they and the results' URLs, which Pagefind knows site-relative, move
    under it. Every merged index is told the base URL: each resolves its own results."""
    values = {
        "BUNDLES": json.dumps([under(base_path, bundle) for bundle in bundles]),
        "BASE_OPTION": "" if base_path == "/" else f"baseUrl: {json.dumps(base_path)}, ",
    }
    # One pass: a value that happens to spell a placeholder stays as it is.
    return _PLACEHOLDER.sub(lambda match: values[match.group()], _SCRIPT)


_PLACEHOLDER = re.compile("BUNDLES|BASE_OPTION")


_SCRIPT = """\
(function () {
  var box = document.getElementById("search");
  if (!window.PagefindUI || !box) return;
  var bundles = BUNDLES;
  new PagefindUI({element: box, bundlePath: bundles[0], BASE_OPTIONshowSubResults: false, showImages: false,
                  mergeIndex: bundles.slice(1).map(function (path) { return {BASE_OPTIONbundlePath: path}; }),
                  translations: {placeholder: box.dataset.label}});
  var input = box.querySelector(".pagefind-ui__search-input");
  if (input) input.setAttribute("aria-label", box.dataset.label);
})();
"""
