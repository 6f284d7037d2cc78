"""Step 9 of the build, the writing: the finished search index linked into the staging folder,
then the staging folder swapped in for the live site whole, with the record of what is live now.
"""

from __future__ import annotations

from dataclasses import dataclass

from site_builder.errors import SiteBuilderError
from site_builder.model.schedule import Window
from site_builder.pipeline.plan import Plan
from site_builder.pipeline.site_check import Judged
from site_builder.pipeline.sitewide.stage import Staged
from site_builder.pipeline.staging import folder as staging
from site_builder.pipeline.staging.written import Written, listing
from site_builder.search.indexing import Index
from site_builder.search.pagefind import UI_FILES


def publish(stage: staging.Stage, index: Index, files: frozenset[str]) -> None:
    """The search bundles linked into the staging folder, the scripts that merge them beside them,
    and whatever else an older site left below ``pagefind/`` pruned."""
    linked = stage.linked_from_live()
    for path, source in index.files.items():
        if not linked(path, source):
            staging.link(source, stage.folder / path)
    for path, text in index.scripts.items():
        staging.write_file(stage.folder, path, text if isinstance(text, bytes) else text.encode("utf-8"))
    kept = set(files) | set(index.files) | set(index.scripts) | UI_FILES
    stage.prune(kept, within="pagefind")  # the rest is pruned already


@dataclass(frozen=True, slots=True)
class Swapped:
    record: Written
    """What is live now."""
    spare_kept: bool
    """The site live until now is kept as the spare."""


def go_live(plan: Plan, stage: staging.Stage, judged: Judged, staged: Staged, index: Index) -> Swapped:
    """Step 9: the new site replaces the old one whole."""
    pages = sum(path.endswith(".html") for path in staged.hashes)
    listed, folders = listing(stage.folder, known=stage.known)  # the folders it left alone: from their record
    if missing := sorted(staged.hashes.keys() - listed.keys()):
        # A bug of ours, never the author's: publishing would serve a site without them and
        # record them as written, so that the next build trusts their absence too.
        shown = ", ".join(missing[:3]) + (f" and {len(missing) - 3} more" if len(missing) > 3 else "")
        raise SiteBuilderError(
            f"internal error: the build did not write {shown} into {stage.folder}; the previous "
            "site is untouched (please report this)"
        )
    spare = plan.reuse.spare() if plan.reuse is not None else None
    kept_old = staging.swap(stage.folder, plan.target, spare)
    warnings = tuple(p for p in judged.problems if p.severity == "warning")
    window = Window.of(plan.schedule, judged.timings(), published=judged.revisions > 0)
    record = Written(
        site=plan.inputs.key,
        files=listed,
        hashes=staged.hashes,
        revisions=judged.revisions,
        pages=pages,
        bundles=index.bundles,
        window=window,
        omitted=judged.omitted(),
        warnings=warnings,
        folders=folders,
    )
    return Swapped(record, kept_old)
