"""Step 7 of the build: the links of every staged page checked (a fault there is a template's,
reported at the template's line), or only those of the pages that may have changed since the
last passing check of the live site; and what the next check may reuse.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from site_builder.check.linkcheck import check_scanned
from site_builder.check.templates import Templates
from site_builder.errors import Problem
from site_builder.model.page_scan import Scan
from site_builder.pipeline.cache.link_memory import Links, link_context, links_after, to_check
from site_builder.pipeline.plan import Plan
from site_builder.pipeline.sitewide.stage import Staged
from site_builder.pipeline.staging import folder as staging
from site_builder.search.pagefind import UI_FILES


@dataclass(frozen=True, slots=True)
class LinkCheck:
    """The link check of one build: its problems, and what the next check may reuse."""

    problems: tuple[Problem, ...]
    memory: Links | None
    """None when nothing is remembered (``--no-cache``)."""


def check_links(plan: Plan, stage: staging.Stage, staged: Staged, *, keep: bool) -> LinkCheck:
    """Step 7: every staged page's links, or only those that may have changed since the last
    passing check of the live site; with ``keep``, what the next check may reuse."""
    files = staged.files | UI_FILES
    scanned: Mapping[str, Scan] = staged.scanned if staged.scanned is not None else {}
    context = link_context(plan.inputs.common, files, plan.target.name)
    last = plan.reuse.links(stage.live) if plan.reuse is not None else None
    pages = staged.pages
    only = to_check(last, context, pages)
    base_path = plan.project.settings.base_path
    templates = Templates(plan.project.root)

    def locate(page: str, rule: str, tag: str, url: str) -> tuple[str, int, str]:
        return templates.locate(page, rule, tag, url, base_path)

    problems = check_scanned(scanned, files, locate, only, base_path=base_path)
    memory = (
        links_after(last, only, scanned, files, pages, plan.inputs.key, context, base_path=base_path)
        if keep
        else None
    )
    return LinkCheck(tuple(problems), memory)
