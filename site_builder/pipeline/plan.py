"""What a build is about to do, worked out before the heavy machinery is imported.

The CLI plans a build first: the settings are read once, every input is hashed,
and when the output folder is exactly what the last build of these inputs wrote,
the command answers without importing Markdown, templates or workers.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from site_builder.errors import SiteBuilderError, UsageError
from site_builder.model.schedule import Schedule
from site_builder.pipeline.cache.inputs import Inputs, hash_inputs
from site_builder.pipeline.cache.reuse import Cache
from site_builder.pipeline.cache.store import CacheFolder
from site_builder.pipeline.staging.folder import Stage, leftovers
from site_builder.pipeline.staging.written import Written
from site_builder.settings.project import Project


@dataclass(frozen=True, slots=True, kw_only=True)
class Plan:
    """One build of a project into one output folder."""

    project: Project
    target: Path
    """The output folder (resolved)."""
    inputs: Inputs
    """Every input, hashed."""
    reuse: Cache | None
    """What the cache remembers; None with ``--no-cache``."""
    live: Written | None
    """The record of the last build into ``target``, read once for the whole build."""
    unchanged: Written | None
    """That record when building again would give the same site: every input hashes the
    same, the output is untouched and the schedule publishes the same revisions the same
    way (then there is nothing to do)."""
    schedule: Schedule
    """The build's date and flags: what it publishes."""

    def open_stage(self) -> Stage:
        """The staging folder: the spare site when the cache keeps one, an empty folder otherwise."""
        reuse = self.reuse
        spare = reuse.spare() if reuse is not None else None
        held = reuse.spare_record() if reuse is not None else None
        vouched = reuse is not None and held is not None and reuse.spare_vouched(held)
        try:
            return Stage.open(self.target, spare, self.live, held, vouched=vouched)
        except OSError as exc:
            raise SiteBuilderError(f"cannot write the site beside {self.target}: {exc}") from exc


def plan_build(
    project: Project,
    out: Path | None = None,
    *,
    cache: bool = True,
    schedule: Schedule | None = None,
    store: CacheFolder | None = None,
) -> Plan:
    """Plan a build of ``project`` into ``out`` (default: its ``output_dir``) under ``schedule``
    (default: today's, or ``SOURCE_DATE_EPOCH``'s, without drafts or scheduled revisions);
    ``store``: the cache as a long-lived process keeps it (default: read from disk)."""
    schedule = schedule or Schedule.now()
    target = project.output(out)
    _check_target(project, target)
    reuse = Cache.of(project.root, target, store) if cache else None
    inputs = hash_inputs(project, target, reuse.stamps() if reuse is not None else None)
    live = reuse.live() if reuse is not None else None
    unchanged = _unchanged(project, target, inputs, live, schedule)
    return Plan(
        project=project,
        target=target,
        inputs=inputs,
        reuse=reuse,
        live=live,
        unchanged=unchanged,
        schedule=schedule,
    )


def _check_target(project: Project, target: Path) -> None:
    """A build replaces its output folder whole: never the site, its sources, or a file."""
    if target == project.root or project.root.is_relative_to(target):
        raise UsageError(f"the output folder {target} would replace the site itself; choose another --out")
    settings = project.settings
    for name in (settings.articles_dir, settings.assets_dir, "templates"):
        source = (project.root / name).resolve()
        if target.is_relative_to(source) or source.is_relative_to(target):
            message = f"the output folder {target} overlaps the site's {name}/ folder; choose another --out"
            raise UsageError(message)
    if target.exists() and not target.is_dir():
        raise UsageError(f"the output folder {target} is a file; choose another --out")


def _unchanged(
    project: Project, target: Path, inputs: Inputs, live: Written | None, schedule: Schedule
) -> Written | None:
    if live is None or project.problems or live.window is None or not live.window.holds(schedule):
        return None
    new, old = leftovers(target)
    if new.exists() or old.exists():  # an interrupted build: the full path cleans up first
        return None
    return live if live.holds(target, inputs.key) else None
