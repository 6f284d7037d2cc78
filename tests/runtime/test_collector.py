"""What a build frees goes back to the system when ``serve`` asks (:func:`give_back_memory`):
glibc's ``malloc`` keeps freed memory below a block still in use, as a long-lived process's
heap has it after a build."""

from __future__ import annotations

import platform
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="malloc_trim is glibc's")

HELD = """
from site_builder.runtime.collector import give_back_memory

def resident() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * 4096

blobs = [bytes(4000) for _ in range(50_000)]  # 200 MB from malloc (pymalloc takes 512 B at most)
pin = bytes(4000)  # above them, in use: free() alone cannot shrink the heap below it
used = resident()
del blobs
freed = resident()
give_back_memory()
print(used, freed, resident())
"""


def test_the_memory_a_build_freed_goes_back_to_the_system() -> None:
    done = subprocess.run([sys.executable, "-c", HELD], capture_output=True, text=True, check=True)
    used, freed, given_back = (int(n) / 2**20 for n in done.stdout.split())
    assert freed > used - 50, f"malloc gave the memory back by itself: {used:.0f} → {freed:.0f} MB"
    assert given_back < freed - 150, f"{freed:.0f} MB held after the free, {given_back:.0f} MB after"
