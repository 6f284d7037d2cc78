"""A template error as a problem at the template's file and line, not a traceback."""

from __future__ import annotations

from pathlib import Path

import jinja2

from site_builder.errors import Problem
from site_builder.model.batches import shown


def template_problem(root: Path, exc: jinja2.TemplateError) -> Problem:
    """The problem a template error stands for, at the innermost template frame."""
    frame = _template_frame(exc)
    name = getattr(exc, "filename", None) or (frame[0] if frame else "templates")
    line = getattr(exc, "lineno", None) or (frame[1] if frame else 1)
    return Problem(
        path=shown(root, name),
        line=line,
        subject="template",
        rule="template",
        message=f"{type(exc).__name__}: {exc.message or exc}",
    )


def _template_frame(exc: BaseException) -> tuple[str, int] | None:
    """Jinja compiles templates under their own file names: the innermost such frame."""
    tb, found = exc.__traceback__, None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename.endswith(".html"):
            found = (tb.tb_frame.f_code.co_filename, tb.tb_lineno)
        tb = tb.tb_next
    return found
