"""What ``--shard I/N`` and ``--shards N`` add to ``validate`` and ``build``: their options,
one shard's run and what it prints, and the check a final run makes of the merged cache
(:mod:`site_builder.pipeline.shards`)."""

from __future__ import annotations

import argparse
import sys

from site_builder.cli.printing import problems_as
from site_builder.errors import UsageError, errors_in
from site_builder.language.english import count
from site_builder.model.schedule import Schedule
from site_builder.pipeline.cache.inputs import hash_inputs
from site_builder.pipeline.cache.reuse import Cache
from site_builder.pipeline.cache.store import CACHE_DIR
from site_builder.pipeline.plan import Plan
from site_builder.pipeline.shards import Shard, check_merged, run_shard
from site_builder.settings.project import Project


def add_options(command: argparse.ArgumentParser) -> None:
    """``--shard I/N`` and ``--shards N`` (never both)."""
    sharding = command.add_mutually_exclusive_group()
    sharding.add_argument(
        "--shard",
        type=_shard,
        metavar="I/N",
        help=f"only shard I of N of the batches (by a hash of each module's name), kept in {CACHE_DIR}/ "
        "for a final run with --shards N",
    )
    sharding.add_argument(
        "--shards",
        type=_count,
        metavar="N",
        help=f"the final run: {CACHE_DIR}/ holds every shard's (merged), so no fixture runs again; "
        "refused when a shard is missing",
    )


def run_one_shard(args: argparse.Namespace, project: Project, schedule: Schedule, *, render: bool) -> int:
    """``validate --shard I/N`` or ``build --shard I/N``: the shard's problems as ``--format``
    says (text for ``build``), then what it did; the exit code."""
    if args.no_cache:
        raise UsageError(f"--shard keeps its work in {CACHE_DIR}/: it cannot run with --no-cache")
    shard: Shard = args.shard
    done = run_shard(
        project,
        shard,
        reuse=Cache.of(project.root, project.output()),
        schedule=schedule,
        render=render,
        jobs=getattr(args, "jobs", None),
    )
    problems_as(getattr(args, "format", "text"), done.problems)
    if errors_in(done.problems):
        print(f"shard {shard} kept nothing: fix the problems above and run it again", file=sys.stderr)
        return 1
    batches, revisions = count(done.batches, "batch", "batches"), count(done.revisions, "revision")
    fixtures = count(done.fixtures, "fixture")
    print(
        f"ok: shard {shard}: {batches}, {revisions} valid, {fixtures} passed; kept in {CACHE_DIR}/ "
        f"for the final run (--shards {shard.count})",
        file=sys.stderr,
    )
    return 0


def check_final(
    args: argparse.Namespace, project: Project, schedule: Schedule, plan: Plan | None = None
) -> None:
    """For ``--shards N``: refuse a cache that lacks a shard or holds one of another site,
    version or schedule (a SiteBuilderError naming it); nothing to do without the option."""
    if args.shards is None:
        return
    if args.no_cache:
        raise UsageError(
            f"--shards reads every shard's work from {CACHE_DIR}/: it cannot run with --no-cache"
        )
    reuse = plan.reuse if plan is not None else Cache.of(project.root, project.output())
    assert reuse is not None  # no --no-cache
    inputs = plan.inputs if plan is not None else hash_inputs(project, project.output(), reuse.stamps())
    check_merged(reuse, inputs, args.shards, schedule, build=plan is not None)


def _shard(text: str) -> Shard:
    try:
        return Shard.parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of shards") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return value
