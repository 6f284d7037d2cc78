"""Machine output that cannot be written: a reader that went away (``site-builder revisions |
head``) ends the command quietly, exit code 1, as a command SIGPIPE ends; a stdout that
cannot take it (a full disk) says so in one line. Never a traceback."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.sites import SITES

COMMANDS = {
    "revisions, streamed": ["revisions"],
    "revisions --latest": ["revisions", "--latest"],
    "validate --format json": ["validate", "--format", "json"],
}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return Path(shutil.copytree(SITES / "valid_site", tmp_path_factory.mktemp("stdout") / "site"))


@pytest.fixture
def gone_reader() -> Iterator[int]:
    """The write end of a pipe whose read end is already closed."""
    read, write = os.pipe()
    os.close(read)
    yield write
    os.close(write)


def command(site: Path, args: list[str], stdout: int) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "site_builder", *args, "--root", str(site)],
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize("args", COMMANDS.values(), ids=COMMANDS.keys())
def test_a_reader_that_went_away_ends_the_command_quietly(
    site: Path, gone_reader: int, args: list[str]
) -> None:
    done = command(site, args, gone_reader)
    assert (done.returncode, done.stderr) == (1, "")


@pytest.mark.parametrize("args", COMMANDS.values(), ids=COMMANDS.keys())
def test_a_full_disk_is_said_in_one_line(site: Path, args: list[str]) -> None:
    with open("/dev/full", "wb") as full:
        done = command(site, args, full.fileno())
    assert (done.returncode, done.stderr) == (
        1,
        "site-builder: cannot write to stdout: No space left on device\n",
    )


@pytest.mark.parametrize("args", COMMANDS.values(), ids=COMMANDS.keys())
def test_a_reader_that_stays_gets_every_byte(site: Path, args: list[str]) -> None:
    done = command(site, args, subprocess.PIPE)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("[") and done.stdout.endswith("]\n")
