"""What a build changed, read from its staging folder once its pages are checked and before
its search index is done: ``serve`` shows it at once, while Pagefind still runs.

The pages are final at that point (step 7 of :mod:`.pipeline` has checked their links); only
the search bundles and their script are still to come, and no page's bytes depend on them.
The files joined from the batches' texts (``revisions.json``, the feed) are left out: they
may still be being copied, and on a large site they are hundreds of megabytes that no page
needs. Until the swap they are the live site's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Set

from site_builder.pipeline.staging.folder import Stage

Changed = Mapping[str, bytes | None]
"""Output path → the new bytes of a generated file; None for one the build removed."""
Show = Callable[[Changed], None]
"""Told what changed, before the build goes on to wait for its search index."""


def changed(stage: Stage, hashes: Mapping[str, str], but: Set[str] = frozenset()) -> Changed | None:
    """The generated files whose bytes differ from the live site's (``hashes``: the new
    build's output path → content hash), read from the staging folder; None when there is
    no live site to compare with. The files ``but`` names are left as the live site has them."""
    live = stage.live
    if live is None:
        return None
    files: dict[str, bytes | None] = {path: None for path in live.hashes.keys() - hashes.keys() - but}
    for path, sha in hashes.items():
        if path not in but and live.hashes.get(path) != sha:
            files[path] = (stage.folder / path).read_bytes()
    return files
