"""Every merged bundle's entry and metadata in one file, asked for once.

Each bundle's Pagefind asks for two small files before it can search: its entry
(``pagefind-entry.json``) and its metadata (``*.pf_meta``), one after the other, bundle after
bundle. The merging module's copy of ``pagefind.js`` (:mod:`.merged`), and the copy of the
worker it starts (Pagefind 1.5 searches in a worker), take both from :data:`HEADS` instead: a
reader's first search over four bundles made 14 requests instead of 21 (bench/README.md).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from site_builder.model.layout import under
from site_builder.search.pagefind import BUNDLE

FOLDER = f"{BUNDLE}/merged"
"""Where the merging module, its copies of Pagefind's scripts and :data:`HEADS` are published."""
CORE = f"{FOLDER}/pagefind-core.js"
"""The merging module's copy of the first bundle's ``pagefind.js``."""
WORKER = f"{FOLDER}/pagefind-worker.js"
"""The copy of Pagefind's worker script (Pagefind 1.5 searches in a worker) that the copy of
``pagefind.js`` starts: it too takes the bundles' entries and metadata from :data:`HEADS`."""
HEADS = f"{FOLDER}/heads.bin"
"""Every merged bundle's entry and metadata file: a line of JSON, each file's URL path → where
its bytes begin after that line and how many they are, then the files' bytes."""
_WORKER_URL = re.compile(r"\$\{basePath\}pagefind-worker\.js")
"""Where Pagefind 1.5's ``pagefind.js`` starts its worker, relative to the bundle's folder."""


def from_heads(
    core: str, worker_js: str | None, heads: Mapping[str, bytes], base_path: str
) -> dict[str, str | bytes]:
    """:data:`HEADS` of ``heads`` (each bundle's entry and metadata by URL path), the copy of
    ``pagefind.js`` (``core``) taking them from it, and, when ``core`` starts a worker, the copy
    of ``worker_js`` that does too, started in its place; by output path."""
    fetching = _HEADS_FETCH.replace("HEADS_URL", json.dumps(under(base_path, f"/{HEADS}")))
    core = f"const fetch = ({fetching})(globalThis.fetch.bind(globalThis));\n" + core
    files: dict[str, str | bytes] = {HEADS: packed(heads)}
    if worker_js is not None and _WORKER_URL.search(core):
        core = _WORKER_URL.sub(lambda _: "${basePath}merged/pagefind-worker.js", core)
        files[WORKER] = f"self.fetch = ({fetching})(self.fetch.bind(self));\n" + worker_js
    files[CORE] = core
    return files


def packed(heads: Mapping[str, bytes]) -> bytes:
    """:data:`HEADS` of ``heads``: the files by URL path."""
    where, start = {}, 0
    for path in sorted(heads):
        where[path] = [start, len(heads[path])]
        start += len(heads[path])
    return (
        json.dumps(where, sort_keys=True).encode("ascii")
        + b"\n"
        + b"".join(heads[path] for path in sorted(heads))
    )


def unpacked(data: bytes) -> dict[str, bytes]:
    """The files :data:`HEADS` holds (``data``), by URL path, as the search box reads them."""
    line, _, rest = data.partition(b"\n")
    return {path: rest[start : start + length] for path, (start, length) in json.loads(line).items()}


def bundle_heads(files: Mapping[str, Path], bundles: Sequence[str], base_path: str) -> dict[str, bytes]:
    """Each bundle's entry and metadata file (``files``: output path → where it is now), by the
    URL path the browser asks for it at (``base_path`` is quoted already; Pagefind's names are
    plain ASCII)."""
    folders = set(bundles)
    return {
        under(base_path, f"/{path}"): files[path].read_bytes()
        for path in sorted(files)
        if path.endswith((".pf_meta", "/pagefind-entry.json")) and path.rpartition("/")[0] in folders
    }


_HEADS_FETCH = r"""(real) => {
  // site_builder: each bundle's entry and metadata from one file, asked for once.
  let heads = null;
  const unpacked = async (response) => {
    if (!response.ok) return {};
    const bytes = new Uint8Array(await response.arrayBuffer());
    const line = bytes.indexOf(10);
    const files = {};
    const where = JSON.parse(new TextDecoder().decode(bytes.subarray(0, line)));
    for (const [path, [start, length]] of Object.entries(where)) {
      files[path] = bytes.slice(line + 1 + start, line + 1 + start + length);
    }
    return files;
  };
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input), self.location.href);
    if (/\/pagefind-entry\.json$|\.pf_meta$/.test(url.pathname)) {
      heads ??= real(`${HEADS_URL}?ts=${Date.now()}`).then(unpacked).catch(() => ({}));
      const held = (await heads)[url.pathname];
      if (held !== undefined) return new Response(held);
    }
    return real(input, init);
  };
}"""
"""A ``fetch`` over ``real`` that answers a bundle's entry or metadata from :data:`HEADS`."""
