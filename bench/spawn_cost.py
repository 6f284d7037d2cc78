"""What starting the search indexer costs the process that starts it, by its size.

A process of ``--mb`` megabytes of Python objects starts ``true`` ``--spawns`` times and reads
all its objects after each start, as a build or ``serve`` goes on working: once with a
pre-exec function (what site_builder did until 2026-12-06: ``fork``, then Python in the child
asks for the parent-death signal) and once through :func:`bound_to_parent` (``setpriv``, no
Python in the child, so :mod:`subprocess` uses ``vfork``). Prints, per start, the CPU time of
the process and its children and the page faults of the process, as JSON.

    python bench/spawn_cost.py --mb 60 450 --spawns 50
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time

from site_builder.runtime.processes import bound_to_parent, die_with_parent

OBJECTS_PER_MB = 3_300
"""Lists of 30 small ints per megabyte of resident memory, near enough (measured)."""


def _touch(data: list[list[int]]) -> int:
    return sum(item[0] for item in data)


def measure(mb: int, spawns: int, way: str) -> dict[str, object]:
    """Start ``true`` ``spawns`` times from a process holding ``mb`` MB, ``way``: ``preexec`` or
    ``bound``; the costs per start beyond the same loop with no start."""
    data = [list(range(30)) for _ in range(mb * OBJECTS_PER_MB)]
    _touch(data)

    def run(start: bool) -> tuple[float, float, int]:
        self0, kids0 = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        wall = time.perf_counter()
        for _ in range(spawns):
            if start and way == "preexec":
                subprocess.run(["true"], preexec_fn=die_with_parent, check=True)
            elif start:
                command, before_exec = bound_to_parent(["true"])
                subprocess.run(command, preexec_fn=before_exec, check=True)
            _touch(data)
        self1, kids1 = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        pairs = ((self0, self1), (kids0, kids1))
        cpu = sum(getattr(b, f) - getattr(a, f) for a, b in pairs for f in ("ru_utime", "ru_stime"))
        return time.perf_counter() - wall, cpu, self1.ru_minflt - self0.ru_minflt

    base = run(False)
    spawned = run(True)
    maxrss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    return {
        "way": way,
        "rss_mb": maxrss_mb,
        "wall_ms_per_start": round((spawned[0] - base[0]) / spawns * 1000, 2),
        "cpu_ms_per_start": round((spawned[1] - base[1]) / spawns * 1000, 2),
        "faults_per_start": round((spawned[2] - base[2]) / spawns),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--mb", type=int, nargs="+", default=[60, 450])
    parser.add_argument("--spawns", type=int, default=50)
    parser.add_argument("--way", choices=["preexec", "bound"], help="one measurement, in this process")
    args = parser.parse_args()
    if args.way:
        print(json.dumps(measure(args.mb[0], args.spawns, args.way)))
        return
    rows = []
    for mb in args.mb:
        for way in ("preexec", "bound"):  # each in a process of its own: the sizes do not mix
            done = subprocess.run(
                [sys.executable, __file__, "--mb", str(mb), "--spawns", str(args.spawns), "--way", way],
                capture_output=True,
                text=True,
                check=True,
            )
            rows.append(json.loads(done.stdout))
    print(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
