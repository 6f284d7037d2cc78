"""The charts of a batch's revisions, drawn in the worker that ran its fixtures: each from
the rows its fixture returned, or a problem at the ``chart(`` line saying why it cannot be."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

from site_builder.authoring.body import placed
from site_builder.authoring.model import Block, Revision
from site_builder.check.claims import fixture_failure
from site_builder.check.fixture_runs import Outcome
from site_builder.errors import Problem
from site_builder.model.batches import fixture_id, relative_to_root
from site_builder.render.charts import SLOT, ChartError, Drawn, drawing, rows_of


def draw_charts(
    root: Path, revisions: Sequence[Revision], outcomes: Mapping[str, Outcome] | None
) -> tuple[list[tuple[Drawn, ...]], list[Problem]]:
    """Each revision's charts, drawn, and what kept any from being drawn. Without ``outcomes``
    (the fixtures did not run) nothing is drawn; a chart whose fixture failed, or whose block
    is flawed, is left undrawn (its problem is reported already)."""
    drawn: list[tuple[Drawn, ...]] = []
    problems: list[Problem] = []
    for revision in revisions:
        charts: list[Drawn] = []
        for at, block in _charts_of(revision):
            if outcomes is None or block.flaws:
                continue
            try:
                html = _drawn(block, outcomes)
            except ChartError as exc:
                path, line = relative_to_root(root, block.site.path), block.site.line
                problems.append(
                    Problem(
                        path=path,
                        line=line,
                        subject=revision.slug or "revision",
                        rule="chart-draw",
                        message=f"chart(): {exc}",
                    )
                )
                continue
            if html is not None:
                charts.append(Drawn(at, html))
        drawn.append(tuple(charts))
    return drawn, problems


def _charts_of(revision: Revision) -> Iterator[tuple[int, Block]]:
    """Each chart block of ``revision``, with where its drawing goes in ``contentHtml``."""
    for start, block in placed(revision):
        if isinstance(block, Block) and block.chart is not None and block.verified is not None:
            yield start + len(SLOT), block


def _drawn(block: Block, outcomes: Mapping[str, Outcome]) -> str | None:
    """The chart of ``block`` drawn; None when its fixture did not run here or failed. Raises
    ChartError."""
    assert block.chart is not None and block.verified is not None
    fid = fixture_id(block.verified.fixture)
    outcome = outcomes.get(fid)
    if outcome is None or fixture_failure(outcome) is not None:
        return None  # not run here (another batch's, or no batch's: a site-wide problem), or failed
    rows = rows_of(outcome.output, block.chart.key)
    return drawing(block.chart.spec, rows, block.chart.alt, block.chart.caption)
