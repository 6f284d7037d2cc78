"""What a build changed, read from its staging folder before its search index is done:
``serve`` shows it at once, while Pagefind still runs.

It is read twice. Once the site is judged as a whole (step 5 of :mod:`.pipeline`), the
article pages the batches rendered are final, but for those of an article with a history,
which the main process renders again (step 6): they are shown first, and at 10,000 articles
that is 0.13 s before the rest of the site is rendered. Once every page's links are checked
(step 7), all the build changed is read, the list pages and the removed files too; only
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


def changed(
    stage: Stage, hashes: Mapping[str, str], but: Set[str] = frozenset(), *, whole: bool = True
) -> Changed | None:
    """The generated files whose bytes differ from the live site's (``hashes``: the new
    build's output path → content hash), read from the staging folder; None when there is
    no live site to compare with. The files ``but`` names are left as the live site has them.
    ``whole``: ``hashes`` is the whole new site, so a file it lacks was removed; else it is
    a part of it (the batches' own pages), and nothing is removed."""
    live = stage.live
    if live is None:
        return None
    gone = live.hashes.keys() - hashes.keys() - but if whole else ()
    files: dict[str, bytes | None] = dict.fromkeys(gone)
    for path, sha in hashes.items():
        if path not in but and live.hashes.get(path) != sha:
            files[path] = (stage.folder / path).read_bytes()
    return files
