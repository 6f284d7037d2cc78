"""Joining shards' bundles (:mod:`.combine`) in a process of its own, as Pagefind runs in its own.

A join is mostly CBOR in Python: in the build's own process it would hold the interpreter
lock that the site-wide pages and the link check need, and it could only start once they
were done. As a process, the runs of shards already indexed are joined while the last
shards are indexed and the rest of the site is rendered, and a build that stops (or
``serve``, giving up for a newer edit) ends a join as it ends an indexer.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import site_builder
from site_builder.runtime.processes import bound_to_parent
from site_builder.search.combine import UncombinableError, combine

REFUSED = 3
"""The exit code of a join refused (:class:`~.combine.UncombinableError`): the shards are then
published as they are."""
_PACKAGE_ROOT = str(Path(site_builder.__file__).resolve().parent.parent)
_MAIN = (
    "import sys; sys.path.insert(0, sys.argv[1]); "
    "from site_builder.search.joining import main; sys.exit(main(sys.argv[2:]))"
)
"""The child's program: this package, from where this process has it (an installed copy or a
checkout), whatever the child's folder and environment."""


def start_join(bundles: Sequence[Path], out: Path, *, background: bool = False) -> subprocess.Popen[str]:
    """Join ``bundles``, in order, into ``out``, in a new process (at a lower CPU priority if
    ``background``); it exits with :data:`REFUSED` when they cannot be joined exactly."""
    program = [sys.executable, "-I", "-c", _MAIN, _PACKAGE_ROOT, str(out), *map(str, bundles)]
    command, before_exec = bound_to_parent(program, background=background)
    return subprocess.Popen(
        command,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=before_exec,
    )


def main(arguments: Sequence[str]) -> int:
    """``OUT BUNDLE...``: the join, its exit code (0, or :data:`REFUSED` with why on stderr)."""
    out, *bundles = (Path(argument) for argument in arguments)
    try:
        combine(bundles, out)
    except UncombinableError as exc:
        print(exc, file=sys.stderr)
        return REFUSED
    return 0  # any other error is a fault of ours: its traceback's last line is the problem
