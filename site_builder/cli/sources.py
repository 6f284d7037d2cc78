"""What ``site-builder check-sources`` does once its arguments are read (they are in
``arguments``): the sources of each article's latest revision taken from the site as
``revisions`` reads it, and the asking (:mod:`site_builder.sources`) with this run's client,
cache and clock. Only this command imports the module, and with it an HTTP client, an HTML
parser and a PDF reader: every other command starts without them."""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from site_builder.cli.printing import problems_as
from site_builder.errors import errors_in
from site_builder.language.english import count
from site_builder.model.schedule import views
from site_builder.pipeline.cache.store import CACHE_DIR
from site_builder.settings.project import Project
from site_builder.sources.check import Asking, Checked, Citation, check_sources
from site_builder.sources.client import Client
from site_builder.sources.policy import Policy
from site_builder.sources.store import FOLDER, Answers

if TYPE_CHECKING:
    from site_builder.pipeline.site_check import Judged


def check_sources_command(args: argparse.Namespace, project: Project, check: Callable[..., Judged]) -> int:
    """``check-sources``: the site read by ``check`` (``scratch=`` its folder, as ``revisions``
    reads it), its sources asked about, the findings printed; the exit code."""
    with tempfile.TemporaryDirectory(prefix="site-builder-") as scratch:
        checked = check(scratch=Path(scratch))
        if errors_in(checked.problems):
            problems_as(args.format, checked.problems)
            print("check-sources reads a valid site only: nothing was asked", file=sys.stderr)
            return 1
        citations = _latest_citations(checked)
    asked = _ask_about(project, citations, args.timeout)
    problems_as(args.format, asked.problems)
    _summary(asked)
    return 1 if errors_in(asked.problems) else 0


def _latest_citations(judged: Judged) -> list[Citation]:
    """The web sources of each article's latest revision the schedule shows, in site order."""
    latest: dict[str, list[Citation]] = {}
    for part in judged.summaries:
        refs = part.body().refs
        shown = views(judged.schedule, part.timings)
        for (slug, _), view, cited in zip(refs.slugs, shown, refs.cited, strict=True):
            if view is not None:
                latest.pop(slug, None)  # a later revision takes its place, in site order
                latest[slug] = [Citation(slug, each) for each in cited]
    return [citation for citations in latest.values() for citation in citations]


def _ask_about(project: Project, citations: list[Citation], timeout: float) -> Checked:
    """``citations`` checked now, the site's kept answers read and written."""
    asking = Asking(
        client=Client(Policy(timeout=timeout)),
        answers=Answers(project.root / CACHE_DIR / FOLDER),
        max_age_days=project.settings.source_max_age,
        now=time.time(),
    )
    return check_sources(project.root, citations, asking)


def _summary(checked: Checked) -> None:
    """What was checked and what it cost, on stderr."""
    sources, addresses = count(checked.citations, "source"), count(checked.addresses, "address", "addresses")
    asked = f"{checked.asked} asked ({count(checked.requests, 'request')})"
    kept = checked.addresses - checked.asked
    print(f"checked {sources} at {addresses}: {asked}, {kept} answered from the cache", file=sys.stderr)


__all__ = ["check_sources_command"]
