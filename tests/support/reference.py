"""Test-only reference implementations: the simple, in-process forms of what the package
does in worker processes or streams, for tests to compare against or to call directly."""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass
from pathlib import Path

import jinja2

from site_builder.authoring.model import Fixture, Revision
from site_builder.check.batch_rules import batch_problems
from site_builder.check.linkcheck import check_scanned, in_output
from site_builder.check.load import batch_paths, load_batch, missing_articles
from site_builder.check.site_rules import site_problems
from site_builder.errors import Problem
from site_builder.model.batches import Batch, fixture_id, relative_to_root
from site_builder.model.page_scan import scan_page
from site_builder.render.feeds import feed_entry, write_atom_feed
from site_builder.render.items import Item
from site_builder.render.pages import render_articles, render_lists
from site_builder.settings.project import Settings, load_settings


@dataclass(frozen=True, slots=True)
class Site:
    """Everything loaded from a site root, and what went wrong loading it."""

    root: Path
    """The folder holding ``pyproject.toml``."""
    settings: Settings
    """Checked settings (defaults where a value was wrong)."""
    batches: tuple[Batch, ...]
    """Batches that imported, in name order."""
    problems: tuple[Problem, ...]
    """Settings problems and batches that could not be loaded."""

    def revisions(self) -> list[tuple[Batch, Revision]]:
        """Every revision in site order: batch name, then list order."""
        return [(batch, rev) for batch in self.batches for rev in batch.revisions]

    def fixtures(self) -> dict[str, Fixture]:
        """Every fixture by id, in site order."""
        return {fixture_id(fx): fx for batch in self.batches for fx in batch.fixtures}

    def relative(self, path: str | Path) -> str:
        """``path`` relative to the root, with forward slashes when inside it."""
        return relative_to_root(self.root, path)


def load_site(root: Path) -> Site:
    """Read the settings and import every batch under the articles folder."""
    root = root.resolve()
    settings, problems = load_settings(root)
    folder = root / settings.articles_dir
    if not folder.is_dir():
        return Site(root, settings, (), (*problems, missing_articles(settings)))
    batches = []
    for path in batch_paths(folder):
        batch, problem = load_batch(path, root)
        if problem is not None:
            problems.append(problem)
        if batch is not None:
            batches.append(batch)
    return Site(root, settings, tuple(batches), tuple(problems))


def validate(site: Site) -> list[Problem]:
    """Every problem of the site: loading, settings, revisions and fixture definitions."""
    problems = list(site.problems)
    parts = []
    for batch in site.batches:
        found, refs = batch_problems(site.root, site.settings, batch)
        problems += found
        parts.append(refs)
    problems += site_problems(site.root, site.settings, parts)
    return sorted(problems, key=Problem.sort_key)


def atom_feed(settings: Settings, items: Sequence[Item]) -> str:
    """An Atom (RFC 4287) feed of every revision, newest first."""
    entries = [feed_entry(settings, item).encode("utf-8") for item in items]
    out = io.BytesIO()
    write_atom_feed(settings, items, lambda n: out.write(entries[n]), out.write)
    return out.getvalue().decode("utf-8")


def render_pages(env: jinja2.Environment, settings: Settings, items: Sequence[Item]) -> dict[str, str]:
    """Every HTML page of the site by its output path."""
    return render_lists(env, settings, items) | render_articles(env, settings, items)


def check_pages(
    pages: Mapping[str, str], files: Set[str], output_name: str, *, base_path: str = "/"
) -> list[Problem]:
    """Problems of the rendered ``pages`` (output path → HTML) against all output ``files``,
    for a site served below ``base_path``."""
    scanned = {path: scan_page(text) for path, text in pages.items()}
    return check_scanned(scanned, files, in_output(output_name, scanned), base_path=base_path)
