"""Documentation: checking a site in CI — GitHub annotations, JSON problems, the pytest plugin."""

import re
import shutil
from pathlib import Path

from _checking import pytest_in
from _tool import article, run, session, site

from site_builder import (
    Source,
    code_block,
    fixture,
    heading,
    paragraph,
    revision,
    transcript,
    unordered_list,
    verified_output,
)

GUIDE = """\
from site_builder import Source, figure, paragraph, revision

SPEC = Source(title="CommonMark", url="https://spec.commonmark.org/0.31.2/", note="the syntax")

revisions = [
    revision(
        slug="first-steps", title="First steps", categories=["Guide"], excerpt="Two mistakes.",
        published="2026-12-1", sources=[SPEC],
        body=[
            paragraph("Half of the readers stop after the first chart."),
            figure("/assets/read-50%.svg", "A bar at 50%.", "Readers who finish"),
        ],
    ),
]
"""
"""``articles/guide.py``: a wrong date, and a figure whose file does not exist."""

NOTES = """\
from site_builder import Source, fixture, paragraph, revision, verified_output

SPEC = Source(title="CommonMark", url="https://spec.commonmark.org/0.31.2/", note="the syntax")


@fixture
def effects() -> dict:
    return {"effects": 1, "checks": {"oneEffect": True}}


revisions = [
    revision(
        slug="one-effect", title="One effect", categories=["Notes"], excerpt="Backed by a fixture.",
        published="2026-12-01", sources=[SPEC],
        body=[
            paragraph("The retry has exactly one effect:"),
            verified_output(effects, expected={"effects": 2}),
        ],
    ),
    revision(
        slug="too-short", title="Short", categories=["Notes"], excerpt="Too short.",
        published="2026-12-01", sources=[SPEC], body=[paragraph("Hi.")],
    ),
]
"""
"""``articles/notes.py``: a drifted ``verified_output`` and a body under the minimum."""

WORKFLOW = """\
# .github/workflows/site.yml
name: site
on: [push, pull_request]
jobs:
  check:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-python@v5
        with:
          python-version: "3.11"
      - run: python -m pip install "site-builder @ git+https://github.com/OWNER/REPOSITORY@TAG"
      - run: site-builder validate --format github
      - run: site-builder build
      - uses: actions/upload-artifact@v4
        with:
          name: site
          path: build/
"""

WARNED = {
    "articles/a_first.py": article("first-steps").replace('categories=["Demo"]', 'categories=["Postgres"]'),
    "articles/b_second.py": article("second-steps").replace('categories=["Demo"]', 'categories=["Postgre"]'),
}
"""Two valid batches whose categories are spelt close to each other: a warning, no error."""

TIMING = re.compile(r" in [\d.]+s$")
PROBLEM = re.compile(r"^articles/\S+:\d+: ")


def _summary(ran_stdout: str) -> str:
    """pytest's last line without the time it took."""
    return TIMING.sub("", ran_stdout.strip().splitlines()[-1])


def _pytest_site():
    return site({"articles/notes.py": NOTES, "articles/about.py": article("about-this-site", "About")})


SHARDED = """\
jobs:
  shard:
    runs-on: ubuntu-latest
    strategy:
      matrix:
        shard: [1, 2, 3, 4]
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-python@v5
        with:
          python-version: "3.11"
      - run: python -m pip install "site-builder @ git+https://github.com/OWNER/REPOSITORY@TAG"
      # This shard's work of the last run: only batches changed since are loaded again.
      - uses: actions/cache@v4
        with:
          path: .site-builder-cache
          key: shard-${{ matrix.shard }}-of-4-${{ github.sha }}
          restore-keys: shard-${{ matrix.shard }}-of-4-
      - run: site-builder build --shard ${{ matrix.shard }}/4
      # tar keeps each file's time, which the cache checks its files by.
      - run: tar -cf shard.tar .site-builder-cache
      - uses: actions/upload-artifact@v4
        with:
          name: shard-${{ matrix.shard }}
          path: shard.tar

  site:
    needs: shard
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-python@v5
        with:
          python-version: "3.11"
      - run: python -m pip install "site-builder @ git+https://github.com/OWNER/REPOSITORY@TAG"
      - uses: actions/download-artifact@v4
        with:
          pattern: shard-*
          path: shards
      - run: for shard in shards/*/shard.tar; do tar -xf "$shard"; done
      - run: site-builder build --shards 4
      - uses: actions/upload-artifact@v4
        with:
          name: site
          path: build/
"""
"""The jobs of a workflow that checks a site in four shards, then builds it from their work."""

DEMO_BATCHES = ("alpha", "beta", "gamma", "delta")
"""Four one-article batches: ``delta`` hashes to shard 2 of 2, the others to shard 1."""

TIMED = re.compile(r" in \d+\.\d s$")


def _demo_site() -> Path:
    return site({f"articles/{name}.py": article(name, name.title()) for name in DEMO_BATCHES})


@fixture
def sharded() -> dict:
    """Two shards of a four-batch site in two folders, their caches merged into a third that
    builds with ``--shards 2``; then the same merge without shard 2."""
    ran = {}
    folders = []
    for number in (1, 2):
        folders.append(_demo_site())
        ran[f"shard {number}"] = run(folders[-1], "build", "--shard", f"{number}/2")
    final, partial = _demo_site(), _demo_site()
    for folder in folders:
        shutil.copytree(folder / ".site-builder-cache", final / ".site-builder-cache", dirs_exist_ok=True)
    shutil.copytree(folders[0] / ".site-builder-cache", partial / ".site-builder-cache")
    built = run(final, "build", "--shards", "2")
    refused = run(partial, "build", "--shards", "2")
    said = {name: each.lines for name, each in ran.items()}
    return {
        **said,
        "final": [TIMED.sub(" in S s", line) for line in built.lines],
        "without shard 2": [line.replace(str(partial), "SITE") for line in refused.lines],
        "checks": {
            "shardsExitZero": all(each.code == 0 for each in ran.values()),
            "finalBuilt": built.code == 0 and (final / "build" / "index.html").is_file(),
            "partialRefusedWithNothingBuilt": refused.code == 1 and not (partial / "build").exists(),
            "eachBatchInOneShard": sum(
                len(list((f / ".site-builder-cache/batches").glob("*.text"))) for f in folders
            )
            == len(DEMO_BATCHES),
        },
    }


@fixture
def annotations() -> dict:
    """``validate --format github`` on a site with two problems, next to the text output."""
    root = site({"articles/guide.py": GUIDE})
    shown, text = session(root, ["validate", "--format", "github"]), run(root, "validate")
    github = run(root, "validate", "--format", "github")
    lines = github.stdout.splitlines()
    return {
        "transcript": shown.lines,
        "checks": {
            "exitsWithOne": shown.codes == [1] and github.code == 1,
            "oneAnnotationPerProblem": len(lines) == len(text.lines) - 1 == 2,
            "allAreErrors": all(line.startswith("::error file=articles/guide.py,line=") for line in lines),
            "percentEscaped": "read-50%25.svg" in lines[-1] and "read-50%.svg" in text.lines[1],
            "annotationsOnStdoutNothingOnStderr": shown.lines[1:] == lines and github.stderr == "",
        },
    }


@fixture
def warning_annotations() -> dict:
    """``validate --format github`` on a site whose only problem is a warning."""
    root = site(WARNED)
    shown = session(root, ["validate", "--format", "github"])
    ran = run(root, "validate", "--format", "github")
    ok = [line for line in shown.lines if line.startswith("ok: ")]
    return {
        "transcript": shown.lines,
        "checks": {
            "passes": shown.codes == [0] and ran.code == 0,
            "oneWarning": ran.stdout.startswith("::warning ") and len(ran.stdout.splitlines()) == 1,
            "okLineOnStderr": len(ok) == 1 and ran.lines == ok,
        },
    }


@fixture
def problems_as_json() -> dict:
    """``validate --format json`` on the same site, and on a site without problems."""
    broken = run(site({"articles/guide.py": GUIDE}), "validate", "--format", "json")
    fine = run(site({"articles/guide.py": article("first-steps")}), "validate", "--format", "json")
    found = broken.json()
    return {
        "broken": {"exit": broken.code, "stdout": found, "stderr": broken.stderr},
        "fine": {"exit": fine.code, "stdout": fine.json(), "stderr": fine.lines},
        "checks": {
            "twoProblems": broken.code == 1 and len(found) == 2,
            "sixKeysEach": all(
                list(p) == ["path", "line", "slug", "rule", "message", "severity"] for p in found
            ),
            "fineIsAnEmptyList": fine.code == 0 and fine.json() == [],
        },
    }


@fixture
def pytest_items() -> dict:
    """``pytest --collect-only -q`` and ``pytest -q`` in a site of two batches."""
    root = _pytest_site()
    collected, ran = pytest_in(root, "--collect-only", "-q"), pytest_in(root, "-q")
    items = [line for line in collected.stdout.splitlines() if "::" in line]
    failures = [line for line in ran.stdout.splitlines() if PROBLEM.match(line)]
    return {
        "collected": items,
        "run": {"exit": ran.code, "problemLines": failures, "summary": _summary(ran.stdout)},
        "checks": {
            "fiveItems": len(items) == 5 and _summary(collected.stdout) == "5 tests collected",
            "exitsWithOne": ran.code == 1,
            "oneLinePerFailure": len(failures) == 2,
            "noTraceback": "Traceback" not in ran.stdout,
        },
    }


@fixture
def pytest_selecting() -> dict:
    """Choosing items: by slug, by module, and without the plugin."""
    root = _pytest_site()
    runs = {
        "-k about-this-site": pytest_in(root, "-q", "-k", "about-this-site"),
        "articles/notes.py": pytest_in(root, "-q", "articles/notes.py"),
        "-p no:site_builder": pytest_in(root, "-q", "-p", "no:site_builder"),
    }
    return {
        "runs": {args: {"exit": ran.code, "summary": _summary(ran.stdout)} for args, ran in runs.items()},
        "checks": {
            "slugSelectsOne": runs["-k about-this-site"].code == 0,
            "moduleFails": runs["articles/notes.py"].code == 1,
            "withoutThePluginNothingRuns": runs["-p no:site_builder"].code == 5,
        },
    }


@fixture
def pytest_drift() -> dict:
    """``-k`` with the slug of the article whose output drifted, and ``-k`` with its fixture's id."""
    root = _pytest_site()
    by_slug = pytest_in(root, "-q", "-k", "one-effect")
    by_fixture = pytest_in(root, "-q", "-k", "notes:effects")
    return {
        "-k one-effect": {"exit": by_slug.code, "summary": _summary(by_slug.stdout)},
        "-k notes:effects": {"exit": by_fixture.code, "summary": _summary(by_fixture.stdout)},
        "checks": {
            "slugFailsOnTheDrift": by_slug.code == 1 and "does not match" in by_slug.stdout,
            "fixtureAlonePasses": by_fixture.code == 0,
        },
    }


page = revision(
    slug="continuous-integration",
    title="Checking in CI",
    categories=["Guide"],
    excerpt="Problems as GitHub annotations or JSON, a workflow for every push, and the pytest plugin.",
    published="2026-12-01",
    body=[
        paragraph(
            "A site's checks are only worth something if they run on every change, before "
            "anything is published. site_builder gives a CI job three ways in: "
            "`site-builder validate` with an output format made for machines, the exit "
            "codes of every command (0 all is well, 1 problems, 2 a wrong command line), "
            "and a pytest plugin for projects that already run pytest."
        ),
        heading("Annotations on the pull request"),
        paragraph(
            "With `--format github`, `validate` prints each problem as a GitHub Actions "
            "workflow command. GitHub reads these lines from a step's output and shows each "
            "one as an error on the file and line it names — in the run's summary and in "
            "the pull request's diff. Take this batch, `articles/guide.py`, with a date "
            "missing a zero and a figure whose file is not in `assets/`:"
        ),
        code_block(GUIDE, language="python"),
        transcript(
            annotations,
            """
            $ site-builder validate --format github
            ::error file=articles/guide.py,line=8,title=published::first-steps: published '2026-12-1' is not an ISO date like 2020-06-18
            ::error file=articles/guide.py,line=11,title=url-target::first-steps: '/assets/read-50%25.svg' is neither a file under assets/ nor a page of the site
            """,  # noqa: E501
        ),
        unordered_list(
            [
                "`file` and `line` are the problem's path and line, `title` is the name of its "
                "rule, and the message is `SUBJECT: message` as the text output prints it.",
                "Values are escaped the way GitHub's workflow commands expect: `%` becomes "
                "`%25` (as in the file name above) and line breaks `%0D`/`%0A`; inside `file=` and "
                "`title=` a `:` becomes `%3A` and a `,` `%2C`. GitHub turns them back.",
                "The annotations go to stdout and nothing goes to stderr — not even the count "
                "line — while the exit code is still 1, so the step fails.",
            ]
        ),
        paragraph(
            "The date is reported at the `published=` line (8), the figure at its `figure(` "
            "call (11): each problem at the line where the thing at fault is written, so the "
            "annotation sits on it in the diff. A warning — so far only a category spelt close "
            "to another (see [Site-wide "
            "rules](/articles/site-wide-rules/#categories-written-two-ways)) — is written "
            "`::warning`, which GitHub shows in yellow; it does not fail the step. On a site whose "
            "only problem is one, `first-steps` in `Postgres` and `second-steps` in `Postgre`, "
            "`validate --format github` exits with 0 and still prints its `ok:` line on stderr:"
        ),
        transcript(
            warning_annotations,
            """
            $ site-builder validate --format github
            ::warning file=articles/b_second.py,line=7,title=category-spelling::second-steps: category 'Postgre' looks like 'Postgres' (articles/a_first.py:7) but makes a page of its own; did you mean 'Postgres'?
            ok: 2 revisions valid, 0 fixtures passed
            """,  # noqa: E501
        ),
        heading("Problems as JSON"),
        paragraph(
            "`--format json` prints one JSON array on stdout, an object per problem with "
            "six keys: `path` and `line` (where), `slug` (the subject: a slug, `batch "
            "MODULE`, `fixture MODULE:FUNCTION`, `settings` or `template`), `rule` (a short stable "
            "name; every one is listed in [Validation rules](/articles/validation-rules/) and "
            "[Site-wide rules](/articles/site-wide-rules/)), "
            '`message`, and `severity`: `"error"`, or `"warning"` for a problem that fails '
            "nothing. A site without problems prints an empty array, and the `ok:` "
            "line on stderr:"
        ),
        verified_output(
            problems_as_json,
            expected={
                "broken": {
                    "exit": 1,
                    "stdout": [
                        {
                            "path": "articles/guide.py",
                            "line": 8,
                            "slug": "first-steps",
                            "rule": "published",
                            "message": "published '2026-12-1' is not an ISO date like 2020-06-18",
                            "severity": "error",
                        },
                        {
                            "path": "articles/guide.py",
                            "line": 11,
                            "slug": "first-steps",
                            "rule": "url-target",
                            "message": "'/assets/read-50%.svg' is neither a file under assets/ "
                            "nor a page of the site",
                            "severity": "error",
                        },
                    ],
                    "stderr": "",
                },
                "fine": {"exit": 0, "stdout": [], "stderr": ["ok: 1 revision valid, 0 fixtures passed"]},
            },
        ),
        paragraph(
            "Use it to feed another tool — a review bot, a dashboard, a script that counts "
            "problems by rule. Match on `rule`, not on the wording of `message`, which is "
            "written for people, and on `severity` to tell what fails the run (the exit code is "
            "1 when at least one problem is an error) from what only asks for a look."
        ),
        heading("A GitHub Actions workflow"),
        paragraph(
            "This workflow checks every push and pull request. It installs site-builder (put "
            "the requirement `site-builder init` wrote for your install in place of the git URL "
            "and tag: see [Deploying](/articles/deploying/#github-pages)), validates with "
            "annotations, then builds and keeps the built site as an artifact of the run:"
        ),
        code_block(WORKFLOW, language="yaml"),
        unordered_list(
            [
                "A failing step stops the job, so a site with a problem never reaches `build`. "
                "`build` would stop on the same problems on its own, but it prints them as "
                "text, which GitHub does not place on lines.",
                "CI starts without `.site-builder-cache/`, so `build` loads every batch and "
                "runs every fixture again after `validate` did. For a site whose fixtures are "
                "slow, skip the `validate` step and let `build` fail with text problems, or "
                "build in a later job only when `validate` passed; or keep the cache between "
                "runs, as [Deploying](/articles/deploying/#github-pages) shows.",
                "To publish, add a deployment step after `build` that takes the `build/` "
                "folder — the artifact above is the same folder, kept with the run.",
                "`validate` judges the site that `build` without flags publishes. Drafts and "
                "scheduled revisions are checked and their fixtures run like the others, but a "
                "published article that links to one of them fails until it is published (see "
                "[Site-wide rules](/articles/site-wide-rules/#links-to-drafts-and-scheduled-revisions)), "
                "and a scheduled revision "
                "appears only when a build runs on or after its date — "
                "[Deploying](/articles/deploying/) adds a daily build.",
            ]
        ),
        heading("A site too big for one runner: shards"),
        paragraph(
            "A site's CI time is its fixtures' time. With thousands of articles whose fixtures take "
            "a second each, one runner takes hours, however many cores `build` uses. GitHub Actions "
            "already runs jobs side by side (a matrix) and hands files from one job to another "
            "(artifacts): `--shard I/N` splits the work to fit that. `build --shard 2/4` loads, checks "
            "and runs the fixtures of shard 2's batches only, renders their pages, and keeps all of "
            "it in `.site-builder-cache/` — it writes no site. Each batch belongs to one shard, by a "
            "hash of its module's file name, so adding an article moves no other batch to another "
            "shard. Once every shard's cache folder is merged into one (copied, each file's time "
            "kept), `build --shards N` builds the site from it: it checks the rules that need "
            "every batch and renders the rest, runs no fixture again, and its site is, byte for "
            "byte, what one `build` would have made. `validate` takes the same two options."
        ),
        paragraph(
            "The jobs of such a workflow: four shard jobs, each keeping its cache between runs (a "
            "push that changed one article loads that one batch again, in its shard) and handing it "
            "on as an artifact, then one job that builds the site from all four:"
        ),
        code_block(SHARDED, language="yaml"),
        paragraph(
            "The cache checks its files by their size and time, which an artifact does not keep: "
            "the shard jobs put their folder in a tar file, which does. Here are two shards of a "
            "site of four batches, run in two folders as two jobs would, their cache folders "
            "merged into a third, the final build there, and the same final build with shard 2's "
            "cache missing (the time a build took is shown as `S`; the site's folder as `SITE`):"
        ),
        verified_output(
            sharded,
            expected={
                "shard 1": [
                    "ok: shard 1 of 2: 3 batches, 3 revisions valid, 0 fixtures passed; kept in "
                    ".site-builder-cache/ for the final run (--shards 2)"
                ],
                "shard 2": [
                    "ok: shard 2 of 2: 1 batch, 1 revision valid, 0 fixtures passed; kept in "
                    ".site-builder-cache/ for the final run (--shards 2)"
                ],
                "final": ["built 4 revisions, 8 pages in S s"],
                "without shard 2": [
                    "site-builder: --shards 2: shard 2 of 2 is not in SITE/.site-builder-cache; merge "
                    "every shard's cache folder into this one before the final run (nothing was built)"
                ],
            },
        ),
        paragraph(
            "The final run refuses, with nothing built and the last site left as it was, a cache "
            "that is not a whole set of this site's shards: a shard missing (as above), or shards "
            "of another count; a shard made by another version of site-builder, or from other "
            "settings, templates or helper modules; a batch changed since its shard ran; shards "
            "run for another build date or with other `--drafts` and `--future` flags; and, for "
            "`build --shards`, a shard made by `validate --shard`, which renders no pages. Every "
            "job must use the same `SOURCE_DATE_EPOCH` (or run on the same day) and the same "
            "flags. A shard whose batches have problems prints them, keeps nothing and fails its "
            "job, so the final job does not run."
        ),
        heading("The pytest plugin"),
        paragraph(
            "Installing site_builder also installs a pytest plugin (through the `pytest11` "
            "entry point). In a site, `pytest` collects every batch module of the articles "
            "folder: each revision becomes a test item named by its slug, each fixture an "
            "item named by its id, and the first module also carries a `settings` item (and a "
            "`templates` item when the site has templates of its own). An "
            "item fails with the same `PATH:LINE: SUBJECT: message` lines as "
            "`site-builder validate`; a warning fails nothing and is listed in pytest's warnings "
            "summary as a `SiteWarning`. Other files are left to pytest's usual collection, and "
            "outside a site the plugin collects nothing. Here is a site with two batches — "
            "`articles/about.py` holds one valid article (`about-this-site`), and "
            "`articles/notes.py` is this:"
        ),
        code_block(NOTES, language="python"),
        verified_output(
            pytest_items,
            expected={
                "collected": [
                    "articles/about.py::settings",
                    "articles/about.py::about-this-site",
                    "articles/notes.py::one-effect",
                    "articles/notes.py::too-short",
                    "articles/notes.py::notes:effects",
                ],
                "run": {
                    "exit": 1,
                    "problemLines": [
                        "articles/notes.py:17: one-effect: verified_output of notes:effects does not match "
                        "what it returns: $.effects: the article prints 2, the fixture returns 1",
                        "articles/notes.py:22: too-short: body is 3 characters; at least 20 are required",
                    ],
                    "summary": "2 failed, 3 passed",
                },
            },
        ),
        paragraph(
            "`collected` is what `pytest --collect-only -q` lists; `run` is `pytest -q`: its "
            "exit code, the problem lines of its failures and its last line (without the "
            "time it took). Note which item fails for the drifted output: the article's "
            "(`one-effect`), which prints it. An article's item checks the rules of the revision — "
            "fields, length, sources, links — and then each output it prints against what its "
            "fixture returns now; a fixture's item checks the fixture itself (its checks all "
            "true), so `notes:effects` passes. Each fixture runs once in a session, whichever item "
            "asks for it first, and a fixture that fails fails its own item and every article that "
            "shows its output. Like `validate`, the plugin reads the batches the site's "
            "`.site-builder-cache/` holds as they are now, so after a build only the edited "
            "batches are imported to collect the items."
        ),
        heading("Choosing items"),
        paragraph(
            "pytest's usual ways of choosing tests apply: `-k` matches item names, so "
            "`-k my-slug` checks one article; a path runs one batch module with all its "
            "fixtures; and `-p no:site_builder` turns the plugin off for a run (pytest then "
            "finds no tests in a site and exits with 5)."
        ),
        verified_output(
            pytest_selecting,
            expected={
                "runs": {
                    "-k about-this-site": {"exit": 0, "summary": "1 passed, 4 deselected"},
                    "articles/notes.py": {"exit": 1, "summary": "2 failed, 1 passed"},
                    "-p no:site_builder": {"exit": 5, "summary": "no tests ran"},
                },
            },
        ),
        paragraph(
            "Choosing by slug checks everything the article shows: the article `one-effect` prints "
            "an output its fixture no longer returns, so `-k one-effect` fails, though it runs no "
            "other item. Choosing the fixture by its id checks the fixture alone, which passes:"
        ),
        verified_output(
            pytest_drift,
            expected={
                "-k one-effect": {"exit": 1, "summary": "1 failed, 4 deselected"},
                "-k notes:effects": {"exit": 0, "summary": "1 passed, 4 deselected"},
            },
        ),
        paragraph(
            "In CI, `python -m pytest` can replace the `validate` step for a project that "
            "runs pytest anyway; `validate --format github` remains the way to get "
            "annotations on the pull request."
        ),
    ],
    sources=[
        Source(
            title="Workflow commands for GitHub Actions",
            url="https://docs.github.com/en/actions/using-workflows/workflow-commands-for-github-actions",
            note="the ::error file=…,line=…,title=…::message command and how GitHub shows it",
        ),
        Source(
            title="actions/toolkit: packages/core/src/command.ts",
            url="https://github.com/actions/toolkit/blob/main/packages/core/src/command.ts",
            note="how message and property values are escaped (%25, %0D, %0A, %3A, %2C)",
        ),
        Source(
            title="pytest: How to invoke pytest",
            url="https://docs.pytest.org/en/stable/how-to/usage.html",
            note="-k expressions, running one file, and -p no:NAME to disable a plugin",
        ),
        Source(
            title="pytest: Exit codes",
            url="https://docs.pytest.org/en/stable/reference/exit-codes.html",
            note="exit code 5 when no tests were collected",
        ),
    ],
)

revisions = [page]
