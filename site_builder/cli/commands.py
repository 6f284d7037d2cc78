"""The ``site-builder`` command: what each command calls and prints, nothing more (its
arguments are defined in :mod:`site_builder.cli.arguments`).

Exit codes: 0 all is well, 1 the site has problems, 2 the command line is
wrong; 130 stopped by Ctrl-C (or by SIGTERM while waiting for another command on the
site). Machine output goes to stdout, messages to stderr.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import io
import json
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from site_builder.cli.arguments import LOCKING, command_parser
from site_builder.cli.endings import STOPPED, ended_by
from site_builder.cli.printing import ReaderGoneError, left_out, out, problems_as, report, to_stdout
from site_builder.cli.shards import check_final, run_one_shard
from site_builder.errors import CLOSE_IDS, SiteBuilderError, UsageError, did_you_mean, errors_in
from site_builder.language.english import count
from site_builder.model.schedule import Omitted, Schedule
from site_builder.pipeline.cache.reuse import Cache
from site_builder.pipeline.plan import plan_build
from site_builder.pipeline.site_lock import SiteLock
from site_builder.runtime.collector import collection_paused
from site_builder.runtime.exits import end_process
from site_builder.runtime.interrupts import interruptible
from site_builder.settings.project import Project, find_root, holds_site, table_hint
from site_builder.settings.pyproject import PYPROJECT

if TYPE_CHECKING:
    from site_builder.pipeline.site_check import Judged

# The pipeline (Markdown, templates, workers) is imported by the commands that use it:
# a build with nothing to do answers without it.


def run() -> NoReturn:
    """The ``site-builder`` command (and ``python -m site_builder``): :func:`main` on the
    process's arguments, then the process ends with its exit code
    (:func:`~site_builder.runtime.exits.end_process`)."""
    end_process(main())


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; return its exit code. Returns (never exits), so a program or a test
    may call it in its own process."""
    handlers = {"validate": _validate, "verify": _verify, "build": _build, "serve": _serve}
    parser, commands = command_parser({**handlers, "revisions": _revisions, "check-sources": _check_sources})
    try:
        args = parser.parse(sys.argv[1:] if argv is None else argv, commands)
    except SystemExit as exc:  # argparse exits on --help and on usage errors
        return exc.code if isinstance(exc.code, int) else 2
    # A command runs without the cyclic collector (site_builder.runtime.collector); serve, which
    # runs for hours, keeps it.
    paused = collection_paused() if args.handler is not _serve else contextlib.nullcontext()
    try:
        with paused:
            # init makes a site, so it is the one command that does not read one first.
            code: int = _on_site(args) if args.site else args.handler(args)
    except (ReaderGoneError, SiteBuilderError, KeyboardInterrupt) as exc:
        return ended_by(exc)
    return code


def _on_site(args: argparse.Namespace) -> int:
    """Run a command on the site it names, holding the site's lock when it uses the cache or
    the staging folders (:mod:`site_builder.pipeline.site_lock`)."""
    project = Project.read(_root(args.root))
    # build stages beside its output even with --no-cache; validate and revisions only read the cache.
    locks = args.command in LOCKING and not (args.command in ("validate", "revisions") and args.no_cache)
    if not locks:
        return int(args.handler(args, project))
    # SIGTERM stops a wait as Ctrl-C does; signals are the main thread's (main() may run in another).
    main_thread = threading.current_thread() is threading.main_thread()
    try:
        with interruptible() if main_thread else contextlib.nullcontext():
            lock = SiteLock.take(project.root, wait=not args.no_wait, say=_say)
    except KeyboardInterrupt:  # stopped while waiting: nothing was done, nothing to say
        return STOPPED
    with lock:
        return int(args.handler(args, project))


def _say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _schedule(args: argparse.Namespace) -> Schedule:  # a bad SOURCE_DATE_EPOCH: a usage error
    return Schedule.now(drafts=args.drafts, future=args.future)


def _root(given: Path | None) -> Path:
    if given is None:
        return find_root(Path.cwd())
    if not given.is_dir():
        raise UsageError(f"--root {given}: not a folder")
    if not holds_site(given):
        hint = table_hint(given, "it has")
        raise UsageError(f"--root {given}: no {PYPROJECT} with [tool.site_builder] in this folder{hint}")
    return given


def _check(
    project: Project, args: argparse.Namespace, *, run: bool, scratch: Path, templates: bool = False
) -> Judged:
    """Steps 1-5 under the command's schedule; the cache read, never written (validate, revisions)."""
    from site_builder.pipeline.site_check import check_site

    reuse = None if args.no_cache else Cache.of(project.root, project.output())
    schedule = _schedule(args)
    return check_site(project, run=run, scratch=scratch, schedule=schedule, reuse=reuse, templates=templates)


def _validate(args: argparse.Namespace, project: Project) -> int:
    if args.shard is not None:
        return run_one_shard(args, project, _schedule(args), render=False)
    check_final(args, project, _schedule(args))
    with tempfile.TemporaryDirectory(prefix="site-builder-") as scratch:
        checked = _check(project, args, run=True, scratch=Path(scratch), templates=True)
    problems_as(args.format, checked.problems)
    failed = errors_in(checked.problems)
    if not failed:
        revisions, fixtures = count(checked.validated, "revision"), count(len(checked.outcomes), "fixture")
        print(f"ok: {revisions} valid, {fixtures} passed", file=sys.stderr)
        left_out(checked.omitted(), "a build leaves out")
    return 1 if failed else 0


def _check_sources(args: argparse.Namespace, project: Project) -> int:
    # Imported here: urllib3, Beautiful Soup and pypdf cost every other command ~0.1 s of its start.
    from site_builder.cli.sources import check_sources_command

    return check_sources_command(args, project, functools.partial(_check, project, args, run=False))


def _build(args: argparse.Namespace, project: Project) -> int:
    started = time.monotonic()
    if args.shard is not None:
        return run_one_shard(args, project, _schedule(args), render=True)
    plan = plan_build(project, args.out, cache=not args.no_cache, schedule=_schedule(args))
    check_final(args, project, plan.schedule, plan)
    last = plan.unchanged
    if last is not None:
        report(last.warnings)
        _summary(True, last.revisions, last.pages, started, last.omitted)
        return 0
    from site_builder.pipeline.events import Events
    from site_builder.pipeline.steps import build

    with _progress() as progress:
        built = build(plan, jobs=args.jobs, events=Events(step=progress))
    if built.problems:
        report(built.problems)
        print("nothing was written; the previous site is untouched", file=sys.stderr)
        return 1
    report(built.warnings)
    _summary(built.unchanged, built.revisions, built.pages, started, built.omitted)
    return 0


def _summary(unchanged: bool, revisions: int, pages: int, started: float, omitted: Omitted) -> None:
    done = "nothing changed since the last build:" if unchanged else "built"
    took = time.monotonic() - started
    print(f"{done} {count(revisions, 'revision')}, {count(pages, 'page')} in {took:.1f} s", file=sys.stderr)
    left_out(omitted)


@contextlib.contextmanager
def _progress() -> Iterator[Callable[[str], None]]:
    """A live status line on a terminal; silence otherwise (CI gets the summary only)."""
    if not sys.stderr.isatty():
        yield lambda _step: None
        return
    from rich.console import Console

    with Console(stderr=True).status("building") as status:
        yield lambda step: status.update(step)


def _serve(args: argparse.Namespace) -> int:
    from site_builder.runtime.interrupts import interruptible
    from site_builder.serve import STOP_WITHIN, serve

    say = functools.partial(print, file=sys.stderr, flush=True)
    schedule = _schedule(args)  # a bad SOURCE_DATE_EPOCH is a usage error before anything is served
    # SIGTERM stops serve as Ctrl-C does, at any moment (reading the site, the first build,
    # serving): the temporary site is removed, and nothing but what serve said is printed.
    with interruptible(STOP_WITHIN) as stopping:
        try:
            project = Project.read(_root(args.root))
            serve(project, args.port, say, stopping, host=args.host, include=schedule, wait=not args.no_wait)
        except KeyboardInterrupt:
            pass
        except OSError as exc:
            raise UsageError(f"cannot serve on {args.host} port {args.port}: {exc.strerror or exc}") from exc
    return 0


def _verify(args: argparse.Namespace, project: Project) -> int:
    from site_builder.check.claims import claim_report, failure_text
    from site_builder.model.batches import relative_to_root
    from site_builder.pipeline.verify import verify_fixtures

    checked = verify_fixtures(project, args.ids, repeat=args.repeat)
    root = project.root
    results = []
    for fid, outcome in checked.outcomes.items():
        where, failure = checked.fixtures[fid], failure_text(root, outcome)
        backed = [claim for claim in checked.claims if claim.fixture == fid]
        results.append(
            {
                "id": fid,
                "path": relative_to_root(root, where.path),
                "line": where.line,
                "status": "failed" if failure else "passed",
                "duration": round(outcome.duration, 3),
                "output": outcome.output,
                "error": failure,
                "verifiedOutputs": claim_report(root, backed, outcome),
            }
        )
    out(json.dumps(results, ensure_ascii=False, indent=2) + "\n")
    report(checked.problems)
    return 1 if checked.problems else 0


def _revisions(args: argparse.Namespace, project: Project) -> int:
    if args.indent < 0:
        raise UsageError("--indent must be 0 or more")
    with tempfile.TemporaryDirectory(prefix="site-builder-") as scratch:
        return _print_revisions(args, project, Path(scratch))


def _print_revisions(args: argparse.Namespace, project: Project, scratch: Path) -> int:
    checked = _check(project, args, run=False, scratch=scratch)
    report(checked.problems)
    if errors_in(checked.problems):
        return 1
    _refuse_unknown_slugs(checked, args.slug or ())
    left_out(checked.omitted())
    if args.slug is None and args.indent == 2 and not args.latest:  # kept with each batch: streamed
        _stream_revisions(checked)
    else:
        _print_chosen_revisions(checked, args.slug, args.indent, latest=args.latest)
    return 0


def _refuse_unknown_slugs(checked: Judged, asked: Sequence[str]) -> None:
    """A usage error naming each slug asked for that no revision has (and the one meant)."""
    slugs = {item.slug for part in checked.summaries for item in part.items}
    if missing := [slug for slug in asked if slug not in slugs]:
        lines = [f"no revision with slug {s}{did_you_mean(s, slugs, CLOSE_IDS)}" for s in missing]
        raise UsageError("\n".join(lines) + checked.left_out(missing))


def _stream_revisions(checked: Judged) -> None:
    """Every revision as ``revisions.json`` holds it, written from each batch's kept fragment."""
    from site_builder.pipeline.sitewide.histories import Histories
    from site_builder.pipeline.sitewide.joined import write_revisions

    histories = Histories.of(checked.summaries)
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:  # a stdout without bytes (a test's): gathered, then written as text
        memory = io.BytesIO()
        write_revisions(histories, memory.write)
        out(memory.getvalue())
    else:
        out(b"")  # flushed: what the text layer holds first, then the revisions straight to bytes
        write_revisions(histories, to_stdout(buffer.write))
        out(b"")


def _print_chosen_revisions(
    checked: Judged, slugs: Sequence[str] | None, indent: int, *, latest: bool
) -> None:
    """The revisions of ``slugs`` (all when None), only each article's latest if ``latest``."""
    from site_builder.pipeline.sitewide.histories import Histories
    from site_builder.render.revisions_json import dumps, latest_only

    histories = Histories.of(checked.summaries)
    data = [d for n in range(len(checked.summaries)) for d in histories.data(n)]
    data = latest_only(data) if latest else data
    out(dumps([d for d in data if slugs is None or d["slug"] in slugs], indent))


__all__ = ["main"]
