"""Every code snippet a reader may copy from the docs or the README parses as the language it
is shown in: Python, TOML, YAML, JSON, XML, and shell (``bash -n``). A snippet the docs show
as an author's mistake (a site's input whose problem the page then prints) is listed in
:data:`BROKEN_ON_PURPOSE`, and must still fail, so the list cannot outlive its reasons.

The docs' snippets are the ``code_block`` calls of their batches (the verified outputs are
checked by the docs' own build), read by loading the batches, without running a fixture."""

from __future__ import annotations

import ast
import contextlib
import html
import io
import json
import re
import shlex
import subprocess
import tomllib
import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from site_builder import cli
from site_builder.authoring.model import Block
from site_builder.check.load import batch_paths, load_batch
from site_builder.cli.arguments import command_parser
from tests.support.actions import step_problems

REPOSITORY = Path(__file__).parents[2]
DOCS = REPOSITORY / "docs"
_CODE = re.compile(r'<pre><code(?: class="language-([\w+#.-]+)")?>(.*?)</code></pre>', re.DOTALL)
_FENCE = re.compile(r"^```(\w+)\n(.*?)^```", re.MULTILINE | re.DOTALL)
_SIGNATURE = re.compile(r"^[a-z_]+\(.*\)( -> .+)?$")


@dataclass(frozen=True)
class Snippet:
    """One code block as a reader sees it."""

    where: str
    """``docs/articles/FILE.py:LINE`` of its ``code_block`` call, or ``README.md:LINE``."""
    language: str
    code: str
    then: Callable[[], object] | None = None
    """The fixture of the first ``verified_output`` after it on its page: what shows its output
    (a transcript's commands: the transcript's own fixture)."""


def _docs_snippets() -> list[Snippet]:
    found = []
    for path in batch_paths(DOCS / "articles"):
        batch, problem = load_batch(path, DOCS)
        assert batch is not None, problem
        for revision in batch.revisions:
            blocks = [block for block in revision.body if isinstance(block, Block)]
            for n, block in enumerate(blocks):
                if block.verified:
                    if block.verified.helper == "transcript":
                        found.append(_transcript_commands(f"docs/articles/{path.name}", block))
                    continue
                then = next((b.verified.fixture for b in blocks[n + 1 :] if b.verified), None)
                for match in _CODE.finditer(str(block)):
                    where = f"docs/articles/{path.name}:{block.site.line}"
                    found.append(Snippet(where, match[1] or "", html.unescape(match[2]), then))
    return found


def _transcript_commands(path: str, block: Block) -> Snippet:
    """The commands of a transcript, as the shell snippet a reader types; its own fixture is
    what shows their output."""
    assert block.verified is not None
    (lines,) = block.verified.expected.values()  # type: ignore[attr-defined]
    typed = [line.removeprefix("$ ") for line in lines if line.startswith("$ ")]
    return Snippet(f"{path}:{block.site.line}", "sh", "\n".join(typed), block.verified.fixture)


def _readme_snippets() -> list[Snippet]:
    text = (REPOSITORY / "README.md").read_text("utf-8")
    return [
        Snippet(f"README.md:{text.count(chr(10), 0, m.start()) + 2}", m[1], m[2])
        for m in _FENCE.finditer(text)
    ]


def _python(code: str) -> None:
    """A module; or a helper's signature per line (``paragraph(text: str | Markup) -> Block``),
    read as the ``def`` it stands for."""
    try:
        ast.parse(code)
    except SyntaxError:
        lines = code.splitlines()
        if not all(_SIGNATURE.match(line) for line in lines):
            raise
        ast.parse("\n".join(f"def {line}: ..." for line in lines))


def _shell(code: str) -> None:
    done = subprocess.run(["bash", "-n"], input=code, text=True, capture_output=True, check=False)
    if done.returncode != 0:
        raise SyntaxError(done.stderr.strip())


PARSERS: dict[str, Callable[[str], object]] = {
    "python": _python,
    "toml": tomllib.loads,
    "yaml": yaml.safe_load,
    "json": json.loads,
    "xml": ET.fromstring,
    "sh": _shell,
}
"""How each language is read; ``html`` and ``text`` (page markup and printed output, read
by nobody as a program) are not."""
UNREAD = {"html", "text"}

BROKEN_ON_PURPOSE = {
    ("docs/articles/site_wide_rules.py", 'body=[paragraph("An unclosed call."],'): (
        "b_syntax.py, whose import problem the page prints"
    ),
    ("docs/articles/site_wide_rules.py", "min_body_chars = 20\nmin_body_chars = 30"): (
        "NOT_TOML, the pyproject.toml whose problem the page prints"
    ),
    ("docs/articles/templates_and_theming.py", '<rect x="1" x="2"'): (
        "BAD_COVER, the SVG whose problem the page prints"
    ),
}
"""(file, a piece of the snippet's code) of each snippet that must not parse, and why."""


def broken_on_purpose(snippet: Snippet) -> bool:
    """Whether ``snippet`` is one the docs show broken (:data:`BROKEN_ON_PURPOSE`)."""
    path = snippet.where.rsplit(":", 1)[0]
    return any(path == file and piece in snippet.code for file, piece in BROKEN_ON_PURPOSE)


SNIPPETS = _docs_snippets() + _readme_snippets()


def test_the_snippets_are_all_found_and_each_language_is_read_or_said_not_to_be() -> None:
    languages = {snippet.language for snippet in SNIPPETS}
    assert languages <= PARSERS.keys() | UNREAD, languages - PARSERS.keys() - UNREAD
    read = [s for s in SNIPPETS if s.language in PARSERS]
    assert len(SNIPPETS) >= 130 and len(read) >= 120  # 130 and 124 on 2026-12-04


def test_each_snippet_broken_on_purpose_is_one_snippet() -> None:
    for file, piece in BROKEN_ON_PURPOSE:
        found = [s.where for s in SNIPPETS if s.where.rsplit(":", 1)[0] == file and piece in s.code]
        assert len(found) == 1, (file, piece, found)


@pytest.mark.parametrize("snippet", [s for s in SNIPPETS if s.language in PARSERS], ids=lambda s: s.where)
def test_a_snippet_parses_as_its_language(snippet: Snippet) -> None:
    parse = PARSERS[snippet.language]
    if broken_on_purpose(snippet):
        with pytest.raises((SyntaxError, ValueError, yaml.YAMLError, ET.ParseError)):
            parse(snippet.code)
        return
    try:
        parse(snippet.code)
    except (SyntaxError, ValueError, yaml.YAMLError, ET.ParseError) as exc:
        pytest.fail(f"{snippet.where}: the {snippet.language} snippet does not parse: {exc}\n{snippet.code}")


# --- workflows: the actions' inputs, and the tool's own commands ---------------------------------


def workflow_steps(document: object) -> list[dict[str, object]]:
    """Every step of a workflow (each job's), or of a snippet that is a list of steps; in a job
    with a matrix, each ``${{ matrix.NAME }}`` of a ``run`` line is its first value, as in the
    matrix's first job."""
    if isinstance(document, list):
        return [step for step in document if isinstance(step, dict)]
    if isinstance(document, dict) and isinstance(document.get("jobs"), dict):
        return [
            _in_first_job(step, job) for job in document["jobs"].values() for step in job.get("steps", [])
        ]
    return []


def _in_first_job(step: dict[str, object], job: dict[str, object]) -> dict[str, object]:
    strategy = job.get("strategy")
    matrix = strategy.get("matrix", {}) if isinstance(strategy, dict) else {}
    if "run" not in step or not matrix:
        return step
    run = str(step["run"])
    for name, values in matrix.items():
        run = re.sub(r"\$\{\{\s*matrix\." + re.escape(name) + r"\s*\}\}", str(values[0]), run)
    return {**step, "run": run}


def starter_workflows(folder: Path) -> dict[str, str]:
    """The workflows ``init`` writes, in a site it makes in ``folder``, by file name."""
    site = folder / "site"
    with contextlib.redirect_stderr(io.StringIO()):
        assert cli.main(["init", str(site)]) == 0
    return {path.name: path.read_text("utf-8") for path in sorted((site / ".github" / "workflows").iterdir())}


def tool_commands(steps: list[dict[str, object]]) -> list[list[str]]:
    """The ``site-builder`` commands of the steps' ``run`` lines, split as a shell splits them."""
    lines = [line for step in steps for line in str(step.get("run", "")).splitlines()]
    return [
        words[1:] for line in lines if (words := shlex.split(line, comments=True))[:1] == ["site-builder"]
    ]


def test_every_workflow_step_gives_its_action_only_its_inputs_and_runs_real_commands(tmp_path: Path) -> None:
    """The workflows the docs and the README show, and the one ``init`` writes: each action at
    its major version gets only inputs its ``action.yml`` declares, and every required one
    (:mod:`tests.support.actions`); each ``site-builder`` command parses as the tool's."""
    documents = {s.where: yaml.safe_load(s.code) for s in SNIPPETS if s.language == "yaml"}
    for name, text in starter_workflows(tmp_path).items():
        documents[f"init's .github/workflows/{name}"] = yaml.safe_load(text)
    parser, commands = command_parser(
        dict.fromkeys(("validate", "verify", "build", "serve", "revisions", "check-sources"))
    )
    used, ran = 0, 0
    for where, document in documents.items():
        steps = workflow_steps(document)
        problems = [problem for step in steps for problem in step_problems(step)]
        assert problems == [], where
        used += sum("uses" in step for step in steps)
        for argv in tool_commands(steps):
            with contextlib.redirect_stderr(io.StringIO()) as said:
                try:
                    parser.parse(argv, commands)
                except SystemExit:
                    pytest.fail(f"{where}: site-builder {shlex.join(argv)}: {said.getvalue()}")
            ran += 1
    assert used >= 17 and ran >= 7, (used, ran)  # 17 and 7 on 2026-12-05


def test_a_misspelled_input_is_caught() -> None:
    step = {"uses": "actions/upload-pages-artifact@v3", "with": {"pathh": "build/"}}
    assert step_problems(step) == ["actions/upload-pages-artifact@v3: no input 'pathh'"]
    assert step_problems({"uses": "actions/cache@v4", "with": {"path": "x"}}) == [
        "actions/cache@v4: 'key' is required"
    ]
    assert step_problems({"uses": "actions/checkout@v9"}) == [
        "actions/checkout@v9: not an action and version tests/support/actions.py knows"
    ]
