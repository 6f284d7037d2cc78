"""Every merged bundle's entry and metadata in one file, asked for once.

Each bundle's Pagefind asks for two small files before it can search: its entry
(``pagefind-entry.json``) and its metadata (``*.pf_meta``), one after the other, bundle after
bundle. The merging module's copy of ``pagefind.js`` (:mod:`.merged`), and the copy of the
worker it starts (Pagefind 1.5 searches in a worker), take both from :data:`HEADS` instead: a
reader's first search over four bundles made 14 requests instead of 21 (bench/README.md).
"""

from __future__ import annotations

import base64
import json
import re
import urllib.parse
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
HEADS = f"{FOLDER}/heads.json"
"""Every merged bundle's entry and metadata file, by URL path, base64."""
HEAD_FILE = re.compile(r"pagefind-entry\.json|pagefind\.[^/]+\.pf_meta")
"""The files of a bundle that :data:`HEADS` holds (by name)."""
_WORKER_URL = re.compile(r"\$\{basePath\}pagefind-worker\.js")
"""Where Pagefind 1.5's ``pagefind.js`` starts its worker, relative to the bundle's folder."""


def from_heads(
    core: str, worker_js: str | None, heads: Mapping[str, bytes], base_path: str
) -> dict[str, str]:
    """:data:`HEADS` of ``heads`` (each bundle's entry and metadata by URL path), the copy of
    ``pagefind.js`` (``core``) taking them from it, and, when ``core`` starts a worker, the copy
    of ``worker_js`` that does too, started in its place; by output path."""
    fetching = _HEADS_FETCH.replace("HEADS_URL", json.dumps(under(base_path, f"/{HEADS}")))
    core = f"const fetch = ({fetching})(globalThis.fetch.bind(globalThis));\n" + core
    files = {HEADS: json.dumps(_encoded(heads), sort_keys=True)}
    if worker_js is not None and _WORKER_URL.search(core):
        core = _WORKER_URL.sub(lambda _: "${basePath}merged/pagefind-worker.js", core)
        files[WORKER] = f"self.fetch = ({fetching})(self.fetch.bind(self));\n" + worker_js
    return files | {CORE: core}


def _encoded(heads: Mapping[str, bytes]) -> dict[str, str]:
    return {path: base64.b64encode(data).decode("ascii") for path, data in heads.items()}


def bundle_heads(files: Mapping[str, Path], bundles: Sequence[str], base_path: str) -> dict[str, bytes]:
    """Each bundle's entry and metadata file (``files``: output path → where it is now), by the
    URL path the browser asks for it at."""
    folders = set(bundles)
    return {
        urllib.parse.quote(under(base_path, f"/{path}")): files[path].read_bytes()
        for path in sorted(files)
        if path.rpartition("/")[0] in folders and HEAD_FILE.fullmatch(path.rpartition("/")[2])
    }


_HEADS_FETCH = r"""(real) => {
  // site_builder: each bundle's entry and metadata from one file, asked for once.
  let heads = null;
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input), self.location.href);
    if (/\/pagefind-entry\.json$|\.pf_meta$/.test(url.pathname)) {
      heads ??= real(`${HEADS_URL}?ts=${Date.now()}`).then((r) => (r.ok ? r.json() : {}), () => ({}));
      const held = (await heads)[url.pathname];
      if (held !== undefined) return new Response(Uint8Array.from(atob(held), (c) => c.charCodeAt(0)));
    }
    return real(input, init);
  };
}"""
"""A ``fetch`` over ``real`` that answers a bundle's entry or metadata from :data:`HEADS`."""
