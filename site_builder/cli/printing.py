"""How the command line prints: problems on stderr, machine output on stdout (UTF-8
whatever the locale), and problems as JSON or GitHub Actions annotations. The command
line speaks English, every count in its plural form (``1 problem``, ``2 problems``)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence

from site_builder.errors import Problem, SiteBuilderError, errors_in
from site_builder.language.english import count
from site_builder.model.schedule import Omitted


def report(problems: Sequence[Problem]) -> None:
    """Every problem on stderr, one a line, then how many there were (warnings apart)."""
    for problem in problems:
        print(problem, file=sys.stderr)
    errors = len(errors_in(problems))
    counts = [count(errors, "problem")] if errors else []
    if warnings := len(problems) - errors:
        counts.append(count(warnings, "warning"))
    if counts:
        print(f"{' and '.join(counts)} found", file=sys.stderr)


def problems_as(form: str, problems: Sequence[Problem]) -> None:
    """``problems`` as ``--format`` asks: text on stderr (:func:`report`), or JSON or GitHub
    Actions annotations on stdout."""
    if form == "json":
        out(json.dumps([problem_dict(p) for p in problems], ensure_ascii=False, indent=2) + "\n")
    elif form == "github":
        out("".join(annotation(p) + "\n" for p in problems))
    else:
        report(problems)


def left_out(omitted: Omitted, lead: str = "left out") -> None:
    """What a build leaves out (drafts, scheduled revisions) on stderr, if anything."""
    if (message := omitted.message(lead)) is not None:
        print(message, file=sys.stderr)


def problem_dict(problem: Problem) -> dict[str, object]:
    """A problem as ``validate --format json`` prints it."""
    return {
        "path": problem.path,
        "line": problem.line,
        "slug": problem.subject,
        "rule": problem.rule,
        "message": problem.message,
        "severity": problem.severity,
    }


def annotation(problem: Problem) -> str:
    """A problem as a GitHub Actions workflow annotation."""

    def prop(value: str) -> str:
        return _escape_data(value).replace(":", "%3A").replace(",", "%2C")

    return (
        f"::{problem.severity} file={prop(problem.path)},line={problem.line},title={prop(problem.rule)}"
        f"::{_escape_data(problem.subject + ': ' + problem.message)}"
    )


def out(text: str | bytes) -> None:
    """Write machine output as UTF-8 whatever the locale says."""
    data = text if isinstance(text, bytes) else text.encode("utf-8")
    buffer = getattr(sys.stdout, "buffer", None)
    try:
        if buffer is None:
            sys.stdout.write(data.decode("utf-8"))
        else:
            sys.stdout.flush()
            buffer.write(data)
            buffer.flush()
    except OSError as exc:
        raise _unwritten(exc) from None


class ReaderGoneError(Exception):
    """stdout's reader closed it before the output ended (``site-builder revisions | head``)."""


def to_stdout(write: Callable[[bytes], object]) -> Callable[[bytes], None]:
    """``write`` (of stdout's bytes) failing as :func:`out` fails: never with a traceback."""

    def written(data: bytes) -> None:
        try:
            write(data)
        except OSError as exc:
            raise _unwritten(exc) from None

    return written


def _unwritten(exc: OSError) -> Exception:
    """What a failed write to stdout is to the command: its reader gone (:class:`ReaderGoneError`),
    or any other failure (a full disk), the command's error in words."""
    if isinstance(exc, BrokenPipeError):
        return ReaderGoneError()
    return SiteBuilderError(f"cannot write to stdout: {exc.strerror or exc}")


def _escape_data(value: str) -> str:
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
