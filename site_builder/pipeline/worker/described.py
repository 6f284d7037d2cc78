"""The revisions a batch shows, as the ``revisions`` JSON objects and as the items its pages
are made from: marked as the schedule shows them, their charts drawn from the fixtures' rows
and (in a build) their images measured."""

from __future__ import annotations

import dataclasses

from site_builder.check.fixture_runs import Outcome
from site_builder.errors import Problem
from site_builder.model.batches import Batch
from site_builder.model.schedule import View
from site_builder.pipeline.worker.charting import draw_charts
from site_builder.render.images import measure
from site_builder.render.items import Item, items_from
from site_builder.render.proofs import proofs_of
from site_builder.render.revisions_json import revision_dict
from site_builder.settings.project import Project


def described(
    project: Project,
    batch: Batch,
    seen: tuple[View | None, ...],
    outcomes: dict[str, Outcome] | None,
    *,
    measure_images: bool,
) -> tuple[tuple[dict[str, object], ...], list[Item], list[Problem]]:
    """The ``revisions`` JSON objects and the items of the revisions the schedule shows
    (``seen``), marked as it shows them, with their charts drawn (when the fixtures ran), and
    what kept a chart from being drawn; with ``measure_images`` (a build: the pages give each
    image its size) their images measured."""
    root = project.root
    shown = [(rev, view) for rev, view in zip(batch.revisions, seen, strict=True) if view is not None]
    data = tuple(revision_dict(rev, batch.name, project.settings) for rev, _ in shown)
    items = _marked(items_from(data, [proofs_of(root, rev) for rev, _ in shown]), [view for _, view in shown])
    drawn, problems = draw_charts(root, [rev for rev, _ in shown], outcomes)
    items = [dataclasses.replace(item, charts=charts) for item, charts in zip(items, drawn, strict=True)]
    if measure_images:
        assets = root / project.settings.assets_dir
        items = [
            dataclasses.replace(item, images=measure(assets, item.cover, item.content_html)) for item in items
        ]
    return data, items, problems


def _marked(items: list[Item], shown: list[View]) -> list[Item]:
    """Items marked as their schedule views say (a draft, scheduled for a date)."""
    return [
        dataclasses.replace(item, draft=draft, scheduled=scheduled) if draft or scheduled else item
        for item, (draft, scheduled) in zip(items, shown, strict=True)
    ]
