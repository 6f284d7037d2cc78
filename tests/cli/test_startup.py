"""What a command loads at its start: the libraries of ``check-sources`` (an HTTP client, an HTML
parser, a PDF reader) cost every other command about 0.1 s, and the test suite runs the tool
hundreds of times, so only that command imports them."""

from __future__ import annotations

import subprocess
import sys

ONLY_CHECK_SOURCES = ("urllib3", "bs4", "pypdf")


def imported_after(code: str) -> list[str]:
    """Which of ``ONLY_CHECK_SOURCES`` a fresh interpreter holds after running ``code``."""
    probe = f"{code}\nimport sys\nprint(' '.join(m for m in {ONLY_CHECK_SOURCES!r} if m in sys.modules))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return done.stdout.split()


def test_the_command_line_starts_without_the_libraries_of_check_sources() -> None:
    assert imported_after("import site_builder.cli") == []


def test_the_probe_sees_them_once_check_sources_is_imported() -> None:
    # pypdf is imported when a PDF is read, not before.
    assert imported_after("import site_builder.cli.sources") == ["urllib3", "bs4"]
