"""``site-builder new SLUG``: a revision skeleton, as a new batch or at the end of one.

The skeleton validates except for its fixture, a stub whose only check is
``writeThisFixture = False``, and its sources, an empty list with the form of one in a
comment: validation keeps failing until the author makes the fixture compute what the
article shows and cites real sources (placeholder addresses would pass as sources).
An existing batch is only appended to, never rewritten.
"""

from __future__ import annotations

import io
import itertools
import keyword
import re
import tempfile
import tokenize
from dataclasses import dataclass
from pathlib import Path

from site_builder.check.revision_fields import SLUG
from site_builder.errors import UsageError
from site_builder.pipeline.cache.reuse import Cache
from site_builder.pipeline.site_check import check_site
from site_builder.settings.project import Project
from site_builder.starter.site import render, today

_IMPORTS = "from site_builder import Source, fixture, heading, paragraph, revision, verified_output"


@dataclass(frozen=True, slots=True)
class Added:
    """Where ``new`` put the skeleton."""

    path: Path
    """The batch module written or appended to."""
    created: bool
    """True for a new module, False when appended to an existing batch."""
    fixture_id: str
    """``MODULE:FUNCTION`` of the stub fixture."""
    fixture_line: int
    """The line of the stub fixture's ``def``."""


def add_revision(project: Project, slug: str, batch: str | None) -> Added:
    """Write the skeleton of revision ``slug``: a new batch, or appended to ``batch``."""
    if not SLUG.fullmatch(slug):
        raise UsageError(f"slug {slug!r} must be 3 to 120 characters of a-z, 0-9 and '-'")
    if batch is None:
        path = _new_path(project, slug)
        name = python_name(slug)
    else:
        path = _batch_path(project, batch)
        name = _free_name(path.read_text("utf-8", errors="replace"), python_name(slug))
    fixture = f"{name}_result"
    _refuse_a_used_slug(project, slug)  # last: it loads every batch of the site
    values = {"FIXTURE": fixture, "NAME": name, "SLUG": slug, "TITLE": _title(slug), "TODAY": today()}
    block = render("revision.py.in", values)
    if batch is None:
        _write_new(path, slug, block, name)
    else:
        _append(path, block, name)
    line = path.read_text("utf-8").splitlines().index(f"def {fixture}() -> dict[str, object]:") + 1
    return Added(path, batch is None, f"{path.stem}:{fixture}", line)


def python_name(slug: str) -> str:
    """A Python name for ``slug``: ``-`` as ``_``, prefixed when it would not be a name."""
    name = slug.replace("-", "_").strip("_")
    return name if name.isidentifier() and not keyword.iskeyword(name) else f"article_{name}".rstrip("_")


def _title(slug: str) -> str:
    return slug.replace("-", " ").strip().capitalize()


def _refuse_a_used_slug(project: Project, slug: str) -> None:
    """The site's slugs as loading its batches finds them (the cache is read, never written)."""
    with tempfile.TemporaryDirectory(prefix="site-builder-") as scratch:
        reuse = Cache.of(project.root, project.output())
        judged = check_site(project, run=False, scratch=Path(scratch), schedule=None, reuse=reuse)
    for part in judged.summaries:
        if any(used == slug for used, _ in part.refs.slugs):  # drafts and scheduled ones too
            used = f"{project.settings.articles_dir}/{part.name}.py"
            raise UsageError(f"slug {slug!r} is already used in {used}; choose another slug")


def _new_path(project: Project, slug: str) -> Path:
    module = slug.replace("-", "_")
    path = project.articles / f"{'article' if module.startswith('_') else ''}{module}.py"
    if path.exists():
        _refuse_a_used_slug(project, slug)  # a slug taken is the news, not the module's name
        raise UsageError(
            f"{_shown(project, path)} already exists; add the revision to it with --batch {path.stem}, "
            "or choose another slug"
        )
    return path


def _batch_path(project: Project, batch: str) -> Path:
    batch = batch.removesuffix(".py")
    path = project.articles / f"{batch}.py"
    if not re.fullmatch(r"[A-Za-z0-9_]+", batch) or not path.is_file():
        raise UsageError(f"no batch {_shown(project, path)}; without --batch, new writes a new module")
    return path


def _free_name(text: str, name: str) -> str:
    """``name``, or ``name_2``, ``name_3``…: the first that neither it nor its fixture's name
    (``…_result``) is a name the batch's ``text`` uses already, so an appended skeleton never
    rebinds one of the module's."""
    used = _names(text)
    candidates = (name if number == 1 else f"{name}_{number}" for number in itertools.count(1))
    return next(each for each in candidates if not {each, f"{each}_result"} & used)


def _names(text: str) -> set[str]:
    """Every name in the Python source ``text`` (words in strings and comments are not); a
    module that does not tokenize counts each word as one."""
    try:
        return {
            token.string
            for token in tokenize.generate_tokens(io.StringIO(text).readline)
            if token.type == tokenize.NAME
        }
    except (tokenize.TokenError, SyntaxError):
        return set(re.findall(r"\w+", text))


def _write_new(path: Path, slug: str, block: str, name: str) -> None:
    header = f'"""{_title(slug)}."""\n\nfrom __future__ import annotations\n\n{_IMPORTS}\n\n\n'
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("x", encoding="utf-8", newline="\n") as handle:  # "x": never overwrite
        handle.write(f"{header}{block}\nrevisions = [{name}]\n")


def _append(path: Path, block: str, name: str) -> None:
    existing = path.read_bytes()
    separator = "" if not existing or existing.endswith(b"\n") else "\n"
    added = f"{separator}\n\n# --- Added by `site-builder new`.\n\n{_IMPORTS}  # noqa: E402\n\n\n{block}"
    # Appended, never rewritten: the author's code stays exactly as it is.
    with path.open("a", encoding="utf-8", newline="\n") as handle:
        handle.write(f"{added}\nrevisions = [*revisions, {name}]\n")


def _shown(project: Project, path: Path) -> str:
    return path.relative_to(project.root).as_posix()
