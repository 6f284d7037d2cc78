"""More ways to run the real tool, for the reference pages (validation rules, commands, CI).

``_tool`` runs one command with ``--root``; the pages about problems and commands also
need both outputs of ``validate`` side by side, a command run from a given folder
without ``--root``, a non-UTF-8 file, and pytest run in a site. Everything runs in a
subprocess with the same interpreter and environment (and ``_tool``'s fixed build date),
in a fixture's temporary folder.
Nothing here is shown to readers.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from _tool import SETTINGS, Ran, environment, run, site

SUMMARY_ENDS = ("problem found", "problems found", "warning found", "warnings found")
NO_PYTEST = "this page's fixture runs pytest, which is not installed: pip install pytest"


@dataclass(frozen=True)
class Found:
    """What ``validate`` reported about a site, in text and in JSON."""

    code: int
    lines: list[str]
    """The problem lines of the text output (stderr), without the closing count."""
    summary: str
    """The last line of the text output: ``N problems found`` or ``ok: …``."""
    objects: list[dict]
    """``validate --format json``: one object per problem."""

    @property
    def by_rule(self) -> dict[str, list[str]]:
        """The text lines grouped by the rule the JSON output names, in order of appearance."""
        grouped: dict[str, list[str]] = {}
        for problem, line in zip(self.objects, self.lines, strict=False):
            grouped.setdefault(problem["rule"], []).append(line)
        return grouped

    @property
    def agree(self) -> bool:
        """Each JSON object spells exactly the text line at the same place (a warning's text
        line says ``warning:`` before its message)."""
        spelled = [
            f"{p['path']}:{p['line']}: {p['slug']}: {'warning: ' if p['severity'] == 'warning' else ''}"
            f"{p['message']}"
            for p in self.objects
        ]
        return spelled == self.lines

    def checks(self, planted: int) -> dict[str, bool]:
        """What every broken-site fixture checks: exit 1, one line per planted mistake, a
        count that says so, and the two formats agreeing."""
        return {
            "exitsWithOne": self.code == 1,
            "oneLinePerMistake": len(self.lines) == planted,
            "countLineSaysSo": self.summary == f"{planted} problem{'s' if planted != 1 else ''} found",
            "textAndJsonAgree": self.agree,
        }


def validate_both(root: Path) -> Found:
    """``validate`` in text and in ``--format json`` on the same site."""
    text = run(root, "validate")
    as_json = run(root, "validate", "--format", "json")
    lines = text.lines
    summary = lines[-1] if lines else ""
    problems = lines[:-1] if summary.endswith(SUMMARY_ENDS) else lines
    objects = as_json.json() if as_json.stdout.strip() else []
    return Found(text.code, problems, summary, objects if isinstance(objects, list) else [])


def pytest_in(root: Path, *args: str) -> Ran:
    """``python -m pytest ARGS`` in the site ``root`` (no cache folder, no colours).

    pytest is a test dependency, not the tool's: without it, the fixture that asked
    fails saying so, instead of on the empty output of a run that never started."""
    if importlib.util.find_spec("pytest") is None:
        raise ModuleNotFoundError(NO_PYTEST, name="pytest")
    env = {k: v for k, v in environment({"NO_COLOR": "1"}).items() if not k.startswith("PYTEST_")}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=110,
        check=False,
    )
    return Ran(done.returncode, done.stdout, done.stderr)


def broken_site(files: dict[str, str], planted: int, settings: str = SETTINGS) -> dict:
    """Validate a broken site made of ``files``: its exit code, its problem lines by rule, its
    count line, and the checks every such site has (``planted`` is how many mistakes it holds)."""
    found = validate_both(site(files, settings))
    checks = found.checks(planted)
    checks["everyLineNamesAFile"] = all(
        line.startswith(("articles/", "pyproject.toml:", "templates/")) for line in found.lines
    )
    return {"exit": found.code, "problems": found.by_rule, "summary": found.summary, "checks": checks}
