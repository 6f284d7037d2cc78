"""What a build returns: its problems (nothing written), or what it wrote."""

from __future__ import annotations

from dataclasses import dataclass, field

from site_builder.errors import Problem
from site_builder.model.schedule import Omitted


@dataclass(frozen=True, slots=True, kw_only=True)
class Built:
    """The result of ``build``: problems (nothing written) or what was written."""

    problems: tuple[Problem, ...]
    """Every problem of every step; when not empty, the output was left untouched."""
    revisions: int
    """Revisions of the site."""
    pages: int
    """HTML pages written."""
    files: int
    """Files written in all."""
    unchanged: bool = False
    """Nothing had changed since the last build: nothing was written."""
    omitted: Omitted = field(default_factory=Omitted)
    """What the build left out (drafts, scheduled revisions)."""
    warnings: tuple[Problem, ...] = ()
    """Likely mistakes that did not stop the build (of the last build, when nothing changed)."""
    superseded: bool = False
    """A newer edit came once the pages were shown (``serve``): nothing was written, the
    next build goes on from there."""

    @classmethod
    def failed(cls, problems: tuple[Problem, ...], revisions: int) -> Built:
        """A build that wrote nothing, for ``problems``."""
        return cls(problems=problems, revisions=revisions, pages=0, files=0)
