"""Documentation: @fixture, what passes and what fails, verified_output, verify and --repeat."""

import re
from pathlib import Path

from _html_probe import lines_by_fixture
from _pages_kit import between, page
from _tool import SETTINGS, article, run, session, site

from site_builder import (
    Source,
    code_block,
    data_table,
    fixture,
    heading,
    paragraph,
    revision,
    transcript,
    unordered_list,
    verified_output,
)

# --- A batch whose fixture passes and backs one verified_output.

BACKOFF_BATCH = """\
from site_builder import Source, fixture, paragraph, revision, verified_output


def backoff(attempt):
    return 0.5 * 2**attempt


@fixture
def delays() -> dict:
    waits = [backoff(n) for n in range(3)]
    doubling = all(later == 2 * earlier for earlier, later in zip(waits, waits[1:]))
    return {
        "attempts": len(waits) + 1,
        "delays": waits,
        "checks": {"threeWaits": len(waits) == 3, "eachWaitDoubles": doubling},
    }


revisions = [
    revision(
        slug="backoff",
        title="Backoff",
        categories=["Demo"],
        excerpt="A fixture and the output it backs.",
        published="2026-12-01",
        body=[
            paragraph("Four attempts wait 0.5, 1 and 2 seconds between them:"),
            verified_output(delays, expected={"attempts": 4, "delays": [0.5, 1.0, 2.0]}),
        ],
        sources=[Source(title="CommonMark Spec", url="https://spec.commonmark.org/0.31.2/", note="syntax")],
    )
]
"""


@fixture
def passing() -> dict:
    """Validate the backoff site, verify its fixture, and ask for a fixture id it does not have."""
    root = site({"articles/retries.py": BACKOFF_BATCH})
    checked = session(root, ["validate"])
    verified = run(root, "verify", "retries:delays")
    unknown = session(root, ["verify", "retries:jitter"])
    entries = verified.json() if verified.code == 0 else []
    shown = [{key: value for key, value in entry.items() if key != "duration"} for entry in entries]
    return {
        "validate": checked.lines,
        "verify": {"exit": verified.code, "stdout": shown},
        "unknownId": unknown.lines,
        "checks": {
            "validateExitsWithZero": checked.codes == [0],
            "verifyExitsWithZero": verified.code == 0,
            "onePassedFixture": [e["status"] for e in entries] == ["passed"],
            "durationIsANumber": all(isinstance(e["duration"], int | float) for e in entries),
            "unknownIdIsAUsageError": unknown.codes == [2],
        },
    }


# --- One batch of fixtures that each fail in their own way.

FAILING = {
    "false_check": """\
@fixture
def false_check() -> dict:
    size = len("twelve chars")
    return {"size": size, "checks": {"isSmall": size < 10}}""",
    "non_bool_check": """\
@fixture
def non_bool_check() -> dict:
    return {"checks": {"found": "yes".count("y")}}""",
    "no_checks": """\
@fixture
def no_checks() -> dict:
    return {"answer": 42}""",
    "empty_checks": """\
@fixture
def empty_checks() -> dict:
    return {"answer": 42, "checks": {}}""",
    "not_a_dict": """\
@fixture
def not_a_dict() -> dict:
    return [42]""",
    "not_json": """\
@fixture
def not_json() -> dict:
    return {"ids": {1, 2}, "checks": {"two": True}}""",
    "raises": """\
@fixture
def raises() -> dict:
    answer = int("forty-two")
    return {"answer": answer, "checks": {"is42": answer == 42}}""",
    "exits": """\
@fixture
def exits() -> dict:
    os._exit(3)""",
    "too_slow": """\
@fixture
def too_slow() -> dict:
    time.sleep(30)
    return {"checks": {"finished": True}}""",
    "network": """\
@fixture
def network() -> dict:
    try:
        socket.create_connection(("192.0.2.1", 80), timeout=1).close()
    except OSError:
        pass
    return {"checks": {"ok": True}}""",
    "writes": """\
@fixture
def writes() -> dict:
    with open("fixture-notes.txt", "w") as notes:
        notes.write("left behind")
    return {"checks": {"wrote": True}}""",
    "takes_argument": """\
@fixture
def takes_argument(size) -> dict:
    return {"checks": {"positive": size > 0}}""",
}
FAILING_BATCH = (
    "import os\nimport socket\nimport time\n\nfrom site_builder import fixture\n\n\n"
    + "\n\n\n".join(FAILING.values())
    + "\n\n\nrevisions = []\n"
)
ONE_SECOND = SETTINGS + "fixture_timeout = 1\n"


@fixture
def failures() -> dict:
    """Validate the batch of failing fixtures: one problem line per fixture."""
    ran = run(site({"articles/failing.py": FAILING_BATCH}, ONE_SECOND), "validate")
    found = lines_by_fixture(ran.lines)
    return {
        "exit": ran.code,
        "problems": found,
        "last": ran.lines[-1],
        "checks": {
            "exitsWithOne": ran.code == 1,
            "oneLinePerFixture": sorted(found) == sorted(FAILING),
            "eachAtItsFile": all(line.startswith("articles/failing.py:") for line in found.values()),
            "countMatches": ran.lines[-1] == f"{len(FAILING)} problems found",
            "nothingWritten": not Path("fixture-notes.txt").exists(),
        },
    }


# --- A verified_output that no longer matches its fixture.

DRIFT_BATCH = """\
from site_builder import Source, fixture, paragraph, revision, verified_output


@fixture
def delays() -> dict:
    waits = [0.5 * 2**n for n in range(3)]
    return {"attempts": 4, "delays": waits, "ratio": 2.0, "checks": {"threeWaits": len(waits) == 3}}


revisions = [
    revision(
        slug="backoff",
        title="Backoff",
        categories=["Demo"],
        excerpt="Two claims about one fixture.",
        published="2026-12-01",
        body=[
            paragraph("What the fixture returns, and what the text claims:"),
            verified_output(delays, expected={"attempts": 4}),
            verified_output(delays, expected={"attempts": 3, "delays": [0.5, 1.0], "ratio": 2, "total": 3.5}),
        ],
        sources=[Source(title="CommonMark Spec", url="https://spec.commonmark.org/0.31.2/", note="syntax")],
    )
]
"""


@fixture
def drift() -> dict:
    """Validate and verify the drifting site: the problem line, and verify's per-block report."""
    root = site({"articles/drift.py": DRIFT_BATCH})
    checked = session(root, ["validate"])
    verified = run(root, "verify")
    entries = verified.json() if verified.stdout.strip() else []
    blocks = entries[0]["verifiedOutputs"] if entries else []
    return {
        "validate": checked.lines,
        "verify": {
            "exit": verified.code,
            "status": [e["status"] for e in entries],
            "verifiedOutputs": blocks,
        },
        "checks": {
            "validateExitsWithOne": checked.codes == [1],
            "verifyExitsWithOne": verified.code == 1,
            "fixtureItselfPassed": [e["status"] for e in entries] == ["passed"],
            "firstBlockMatches": [b["status"] for b in blocks] == ["matches", "drifted"],
            "fourDifferences": len(blocks[1]["differences"]) == 4 if len(blocks) == 2 else False,
        },
    }


# --- Run twice: a fixture that stamps the time is not deterministic.

REPEAT_BATCH = """\
import time

from site_builder import fixture


@fixture
def delays() -> dict:
    waits = [0.5 * 2**n for n in range(3)]
    return {"delays": waits, "checks": {"threeWaits": len(waits) == 3}}


@fixture
def stamped() -> dict:
    return {"generatedAt": time.time_ns(), "checks": {"stamped": True}}


revisions = []
"""
UNSTABLE = "is not deterministic: $.generatedAt: run 1 returned "


@fixture
def repeat() -> dict:
    """verify --repeat 3: the steady fixture passes, the one that reads the clock fails."""
    ran = run(site({"articles/timing.py": REPEAT_BATCH}), "verify", "--repeat", "3")
    entries = {e["id"]: e for e in ran.json()} if ran.stdout.strip() else {}
    error = entries.get("timing:stamped", {}).get("error") or ""
    return {
        "exit": ran.code,
        "status": {fid: e["status"] for fid, e in entries.items()},
        "stampedErrorUpToTheFirstValue": error[: len(UNSTABLE)],
        "checks": {
            "exitsWithOne": ran.code == 1,
            "steadyPasses": entries.get("timing:delays", {}).get("status") == "passed",
            "clockFails": entries.get("timing:stamped", {}).get("status") == "failed",
            "namesTheKey": error.startswith(UNSTABLE),
        },
    }


# --- A fixture defined in a helper module: shared by the batches that show it.

SHARED_FIXTURE = """\
from site_builder import fixture


@fixture
def answer() -> dict:
    return {"answer": 42, "checks": {"is42": 6 * 7 == 42}}


def made_in_a_function():
    @fixture
    def hidden() -> dict:
        return {"answer": 42, "checks": {"is42": 6 * 7 == 42}}

    return hidden
"""
USES_SHARED = """\
from _shared import answer
from site_builder import Source, paragraph, revision, verified_output

revisions = [
    revision(
        slug="shared-answer",
        title="Shared answer",
        categories=["Demo"],
        excerpt="A fixture imported from a helper module.",
        published="2026-12-01",
        body=[
            paragraph("The answer, from a helper module:"),
            verified_output(answer, expected={"answer": 42}),
        ],
        sources=[Source(title="CommonMark Spec", url="https://spec.commonmark.org/0.31.2/", note="syntax")],
    )
]
"""


USES_HIDDEN = USES_SHARED.replace(
    "from _shared import answer\n", "from _shared import made_in_a_function\n"
).replace("revisions = [", "answer = made_in_a_function()\n\nrevisions = [")
"""The same batch, showing a fixture that a function of ``_shared.py`` makes."""


@fixture
def shared_fixture() -> dict:
    """Validate and verify a batch whose verified_output uses a fixture of _shared.py; then
    validate it showing a fixture made inside a function of _shared.py."""
    root = site({"articles/answer.py": USES_SHARED, "articles/_shared.py": SHARED_FIXTURE})
    checked, verified = session(root, ["validate"]), run(root, "verify", "_shared:answer")
    runs = verified.json() if verified.code == 0 else []
    found = runs[0] if runs else {}
    hidden = session(
        site({"articles/answer.py": USES_HIDDEN, "articles/_shared.py": SHARED_FIXTURE}), ["validate"]
    )
    return {
        "validate": checked.lines,
        "verify": {
            "id": found.get("id"),
            "path": found.get("path"),
            "line": found.get("line"),
            "status": found.get("status"),
            "verifiedOutputs": [
                (v["slug"], v["path"], v["status"]) for v in found.get("verifiedOutputs", [])
            ],
        },
        "madeInAFunction": hidden.lines,
        "checks": {
            "sharedFixturePasses": checked.codes == [0]
            and verified.code == 0
            and found.get("status") == "passed",
            "madeInAFunctionIsAProblem": hidden.codes == [1] and hidden.lines[-1] == "1 problem found",
        },
    }


# --- What readers see: a mark under each verified output, and the box of fixtures.

SHOWN_BATCH = """\
from site_builder import Source, fixture, paragraph, revision, verified_output


@fixture
def delays() -> dict:
    waits = [0.5 * 2**n for n in range(3)]
    return {"attempts": len(waits) + 1, "delays": waits, "checks": {"threeWaits": len(waits) == 3}}


@fixture
def total() -> dict:
    seconds = sum(0.5 * 2**n for n in range(3))
    return {"seconds": seconds, "checks": {"sumOfTheWaits": seconds == 0.5 + 1.0 + 2.0}}


revisions = [
    revision(
        slug="backoff",
        title="Backoff",
        categories=["Demo"],
        excerpt="Two fixtures, three verified outputs.",
        published="2026-12-01",
        body=[
            paragraph("Four attempts:"),
            verified_output(delays, expected={"attempts": 4}),
            paragraph("They wait 0.5, 1 and 2 seconds:"),
            verified_output(delays, expected={"delays": [0.5, 1.0, 2.0]}),
            paragraph("That is 3.5 seconds in all:"),
            verified_output(total, expected={"seconds": 3.5}),
        ],
        sources=[Source(title="CommonMark Spec", url="https://spec.commonmark.org/0.31.2/", note="syntax")],
    )
]
"""
TRANSLATED_BATCH = """\
from site_builder import Source, fixture, paragraph, revision, verified_output


@fixture
def answer() -> dict:
    return {"answer": 6 * 7, "checks": {"is42": 6 * 7 == 42}}


revisions = [
    revision(
        slug=f"answer-{lang}", title=f"Answer ({lang})", categories=["Demo"], excerpt="42.",
        published="2026-12-01", lang=lang,
        body=[paragraph("42:"), verified_output(answer, expected={"answer": 42})],
        sources=[Source(title="CommonMark Spec", url="https://spec.commonmark.org/0.31.2/", note="syntax")],
    )
    for lang in ("ru", "ko")
]
"""
REPO_SETTINGS = SETTINGS + 'repo_url = "https://github.com/me/notes"\n'


def _seen(root) -> dict:
    """The box of fixtures and the marks of the built page of ``backoff``."""
    html = page(root, "articles/backoff/index.html")
    box = between(html, '<aside class="verified"', "</aside>")
    return {
        "box": [line.strip() for line in box.splitlines() if line.strip()],
        "marks": re.findall(r'<p class="proof".*</p>', html),
    }


@fixture
def readers_see() -> dict:
    """The backoff site built without and with repo_url; a page with no verified output; ru and ko."""
    files = {
        "articles/retries.py": SHOWN_BATCH,
        "articles/plain.py": article("plain", "Plain"),
        "articles/translated.py": TRANSLATED_BATCH,
    }
    root = site(files)
    built = run(root, "build")
    without = _seen(root)
    content = {r["slug"]: r["contentHtml"] for r in run(root, "revisions").json()}
    plain = page(root, "articles/plain/index.html")
    ids = set(re.findall(r'<li id="([^"]+)"', "".join(without["box"])))
    languages = {}
    for lang in ("ru", "ko"):
        html = page(root, f"articles/answer-{lang}/index.html")
        languages[lang] = {
            "heading": re.search(r'<h2 id="verified-heading">(.*?)</h2>', html).group(1),
            "entry": re.search(r"</code> — (.*?)</li>", html).group(1),
            "mark": re.search(r'<p class="proof"[^>]*><a [^>]*>(.*?)</a>', html).group(1),
        }
    with_repo = site(files, REPO_SETTINGS)
    built_with_repo = run(with_repo, "build")
    defined = {
        name: SHOWN_BATCH.splitlines().index(f"def {name}() -> dict:") + 1 for name in ("delays", "total")
    }
    return {
        "withoutRepoUrl": without,
        "noVerifiedOutput": re.findall(r'<p id="verified-heading">.*</p>', plain),
        "otherLanguages": languages,
        "withRepoUrl": _seen(with_repo),
        "defLines": defined,
        "checks": {
            "builtBoth": built.code == built_with_repo.code == 0,
            "marksLinkToTheBox": all(
                re.search(r'href="#([^"]+)"', mark).group(1) in ids for mark in without["marks"]
            ),
            "contentHtmlHasNoMark": not any("proof" in html for html in content.values()),
            "linksAtTheDefLines": [
                int(line) for line in re.findall(r"retries\.py#L(\d+)", "".join(_seen(with_repo)["marks"]))
            ]
            == [defined["delays"], defined["delays"], defined["total"]],
        },
    }


def _pieces(*names: str) -> str:
    return "\n\n\n".join(FAILING[name] for name in names)


fixtures = revision(
    slug="fixtures",
    title="Fixtures and verified output",
    categories=["Reference"],
    excerpt="How a fixture backs what an article prints: what passes, every way to fail, "
    "verified_output, verify and --repeat.",
    published="2026-12-01",
    body=[
        paragraph(
            "A number, a table or an output that an article prints is a claim. site_builder makes "
            "every such claim checkable: a *fixture* — a small function next to the article — "
            "computes the result, and a `verified_output` block prints part of what it returned. "
            "Validation runs the fixture and compares. When the code changes and the result with "
            "it, the article stops validating until its text says the new thing."
        ),
        heading("A fixture and the output it backs"),
        paragraph(
            "Decorate a function of a batch module with `@fixture`. It takes no arguments and "
            "returns a dict: the values the article shows, and a `checks` dict of named booleans "
            "that say the computation did what the article says it does. Here is a batch, "
            "`articles/retries.py`, with one fixture and one block that prints two of its values:"
        ),
        code_block(BACKOFF_BATCH, language="python"),
        paragraph("`site-builder validate` loads the batch, runs the fixture and compares:"),
        transcript(
            passing,
            """
            $ site-builder validate
            ok: 1 revision valid, 1 fixture passed
            """,
            key="validate",
        ),
        paragraph(
            "A fixture's *id* is `MODULE:FUNCTION`, where MODULE is the batch's file name without "
            "`.py`: this one is `retries:delays`. `site-builder verify` runs fixtures — all of "
            "them, or the ids you name — and prints a JSON array with, for each, where it is "
            "defined, whether it passed, what it returned, why it failed and how each "
            "`verified_output` block it backs compares. Each entry also has a `duration` in "
            "seconds, which changes from run to run and is left out here:"
        ),
        code_block("site-builder verify retries:delays", language="sh"),
        verified_output(
            passing,
            expected={
                "verify": {
                    "exit": 0,
                    "stdout": [
                        {
                            "id": "retries:delays",
                            "path": "articles/retries.py",
                            "line": 9,
                            "status": "passed",
                            "output": {
                                "attempts": 4,
                                "delays": [
                                    0.5,
                                    1.0,
                                    2.0,
                                ],
                                "checks": {
                                    "threeWaits": True,
                                    "eachWaitDoubles": True,
                                },
                            },
                            "error": None,
                            "verifiedOutputs": [
                                {
                                    "slug": "backoff",
                                    "path": "articles/retries.py",
                                    "line": 28,
                                    "status": "matches",
                                    "differences": [],
                                },
                            ],
                        },
                    ],
                },
            },
        ),
        paragraph(
            "An id the site does not have is a usage error (exit code 2), and the message lists "
            "the ids there are:"
        ),
        transcript(
            passing,
            """
            $ site-builder verify retries:jitter
            site-builder: unknown fixture id retries:jitter; the site has: retries:delays
            """,
            key="unknownId",
        ),
        heading("What passes"),
        paragraph("A fixture passes when all of this holds:"),
        unordered_list(
            [
                "it returns within the fixture timeout (`fixture_timeout`, 10 seconds by default);",
                "what it returns is a `dict` that `json.dumps` can write (no sets, no objects, no "
                "`NaN`), of at most 10,000,000 characters as JSON;",
                "its `checks` is a non-empty dict, and every value in it is exactly `True` — not "
                '`1`, not `"yes"`;',
                "it touched no network and wrote nothing outside its temporary directory.",
            ]
        ),
        paragraph(
            "Anything else is a problem, reported like every other as "
            "`PATH:LINE: fixture MODULE:FUNCTION: message`, where LINE is the line of the "
            "fixture's `def`. The batch `articles/failing.py` below — it starts with `import os`, "
            "`import socket`, `import time` and `from site_builder import fixture` — defines one "
            "fixture for each way to fail, and the site gives fixtures one second "
            "(`fixture_timeout = 1`). One "
            "`validate` run reports all of them; the blocks below show each fixture next to its "
            "line of that run."
        ),
        heading("Checks that fail"),
        paragraph(
            "A check that is not `True` fails, and the message names it with the value it had. "
            "So does a fixture with no `checks`, or an empty one:"
        ),
        code_block(_pieces("false_check", "non_bool_check", "no_checks", "empty_checks"), language="python"),
        verified_output(
            failures,
            expected={
                "problems": {
                    "false_check": (
                        "articles/failing.py:9: fixture failing:false_check: checks failed: "
                        "isSmall = false (each check must be true)"
                    ),
                    "non_bool_check": (
                        "articles/failing.py:15: fixture failing:non_bool_check: checks failed: "
                        "found = 1 (each check must be true)"
                    ),
                    "no_checks": (
                        "articles/failing.py:20: fixture failing:no_checks: returned no "
                        '"checks": a fixture must return {"checks": {name: True, …}}'
                    ),
                    "empty_checks": (
                        'articles/failing.py:25: fixture failing:empty_checks: "checks" is '
                        "empty; name at least one check that must be True"
                    ),
                },
            },
        ),
        heading("A value that is not a JSON object"),
        paragraph(
            "The output must be a dict, and JSON must be able to write it, since that is how it "
            "travels back from the worker and how the article prints it:"
        ),
        code_block(_pieces("not_a_dict", "not_json"), language="python"),
        verified_output(
            failures,
            expected={
                "problems": {
                    "not_a_dict": (
                        "articles/failing.py:30: fixture failing:not_a_dict: returned list, not a dict"
                    ),
                    "not_json": (
                        "articles/failing.py:35: fixture failing:not_json: returned a value that "
                        "is not JSON: Object of type set is not JSON serializable"
                    ),
                },
            },
        ),
        heading("An exception or an exit"),
        paragraph(
            "An exception is reported with its type, its message and the frames of the fixture's "
            "own file — `at PATH:LINE in FUNCTION` — not a whole traceback. A fixture that ends "
            "its process (`os._exit`, a crash) is reported with the exit code:"
        ),
        code_block(_pieces("raises", "exits"), language="python"),
        verified_output(
            failures,
            expected={
                "problems": {
                    "raises": (
                        "articles/failing.py:40: fixture failing:raises: raised ValueError: "
                        "invalid literal for int() with base 10: 'forty-two' at "
                        "articles/failing.py:41 in raises"
                    ),
                    "exits": (
                        "articles/failing.py:46: fixture failing:exits: the worker exited with "
                        "code 3 without returning (os._exit or a crash)"
                    ),
                },
            },
        ),
        heading("A timeout"),
        paragraph(
            "A fixture still running at the deadline is asked where it is, then killed, together "
            "with every process it started, and the command goes on with the others. The "
            "problem names the line it was on, in the fixture's file, as a raise does:"
        ),
        code_block(FAILING["too_slow"], language="python"),
        verified_output(
            failures,
            expected={
                "problems": {
                    "too_slow": "articles/failing.py:51: fixture failing:too_slow: did not finish within "
                    "1 s at articles/failing.py:52 in too_slow",
                },
            },
        ),
        heading("The sandbox: no network, no writes outside the temporary directory"),
        paragraph(
            "A fixture runs offline, and may write only inside its own temporary directory — the "
            "one `tempfile.gettempdir()` returns in the worker, where `tempfile.mkdtemp()` and "
            "friends put their files. Each forbidden call raises `PermissionError` in the fixture "
            "*and* is recorded, so a fixture that catches the error and returns passing checks "
            "still fails; the refused file is never written."
        ),
        code_block(_pieces("network", "writes"), language="python"),
        verified_output(
            failures,
            expected={
                "problems": {
                    "network": (
                        "articles/failing.py:57: fixture failing:network: tried to open a "
                        "network connection to '192.0.2.1' port 80 (refused: fixtures run "
                        "offline)"
                    ),
                    "writes": (
                        "articles/failing.py:66: fixture failing:writes: tried to write to "
                        "'fixture-notes.txt', outside its temporary directory "
                        "(tempfile.gettempdir()) at articles/failing.py:67 in writes"
                    ),
                },
            },
        ),
        paragraph(
            "The guard is built on Python's audit hooks: it sees connections and name lookups, "
            "and the calls that create, change or remove files. It keeps honest code honest; it "
            "is not a security boundary against code written to escape it."
        ),
        heading("A fixture that takes arguments"),
        paragraph(
            "A fixture is called with no arguments, so one that needs them is a problem of its "
            "definition, found before anything runs:"
        ),
        code_block(FAILING["takes_argument"], language="python"),
        verified_output(
            failures,
            expected={
                "problems": {
                    "takes_argument": (
                        "articles/failing.py:73: fixture failing:takes_argument: a fixture takes "
                        "no arguments; this one needs size"
                    ),
                },
                "last": "12 problems found",
            },
        ),
        heading("verified_output: what the article prints"),
        code_block("verified_output(fixture, expected)", language="python"),
        paragraph(
            "The block prints `expected` as indented JSON, exactly as "
            '`code_block(json.dumps(expected, ensure_ascii=False, indent=2), language="json")` '
            "would, and claims that the fixture's output *contains* it. The comparison is a "
            "recursive subset:"
        ),
        data_table(
            "How expected is compared with the fixture's output",
            ["expected holds", "it matches when the output holds"],
            [
                [
                    "an object",
                    "an object with every key of expected, each value matching; other keys are ignored",
                ],
                ["an array", "an array of the same length, item by item matching"],
                [
                    "a string, number, `true`, `false` or `null`",
                    "the same value of the same JSON type: `1`, `1.0` and `true` are three different claims",
                ],
            ],
        ),
        paragraph(
            "Extra keys are how `checks` and anything else that is not worth printing stay off "
            "the page, while an array is always shown whole. One fixture may back any number of "
            "blocks, each printing a different part. In this batch, `articles/drift.py`, the "
            "first block's claim holds; the second block's does not, in four places:"
        ),
        code_block(DRIFT_BATCH, language="python"),
        transcript(
            drift,
            """
            $ site-builder validate
            articles/drift.py:20: backoff: verified_output of drift:delays does not match what it returns: $.attempts: the article prints 3, the fixture returns 4; $.delays: the article prints [0.5, 1.0], the fixture returns [0.5, 1.0, 2.0]; $.ratio: the article prints 2, the fixture returns 2.0; $.total: the article prints 3.5, the fixture returns no such key
            1 problem found
            """,  # noqa: E501
            key="validate",
        ),
        paragraph(
            "The problem is reported at the line of the block, with a JSON path for each "
            "difference. The fixture itself passed — its checks hold — so it is the text that is "
            "wrong. `verify` shows the same per block:"
        ),
        verified_output(
            drift,
            expected={
                "verify": {
                    "exit": 1,
                    "status": [
                        "passed",
                    ],
                    "verifiedOutputs": [
                        {
                            "slug": "backoff",
                            "path": "articles/drift.py",
                            "line": 19,
                            "status": "matches",
                            "differences": [],
                        },
                        {
                            "slug": "backoff",
                            "path": "articles/drift.py",
                            "line": 20,
                            "status": "drifted",
                            "differences": [
                                "$.attempts: the article prints 3, the fixture returns 4",
                                (
                                    "$.delays: the article prints [0.5, 1.0], "
                                    "the fixture returns [0.5, 1.0, 2.0]"
                                ),
                                "$.ratio: the article prints 2, the fixture returns 2.0",
                                "$.total: the article prints 3.5, the fixture returns no such key",
                            ],
                        },
                    ],
                },
            },
        ),
        paragraph(
            "A block is only compared with a fixture that passed: when the fixture fails, that "
            "failure is the one problem reported, and `verify` marks its blocks `not checked`."
        ),
        heading("What readers see"),
        paragraph(
            "On the site, a verified output does not look like any other code block: the article page "
            "marks each one, right under the block, with the fixture that verified it, and a box at "
            "the top of the article lists its fixtures — one entry per fixture, in the order the "
            "body first uses them, each saying how many of the article's outputs it verifies, under "
            "a heading that counts the entries. This batch, `articles/retries.py`, has two fixtures "
            "and three outputs:"
        ),
        code_block(SHOWN_BATCH, language="python"),
        paragraph("The box and the marks of its built page:"),
        verified_output(
            readers_see,
            expected={
                "withoutRepoUrl": {
                    "box": [
                        '<aside class="verified" id="fixtures" aria-labelledby="verified-heading" '
                        "data-pagefind-ignore>",
                        '<h2 id="verified-heading">Fixtures that verify results: 2</h2>',
                        '<ul><li id="fixture-delays"><code>delays</code> — verified results: 2</li>'
                        '<li id="fixture-total"><code>total</code> — verified results: 1</li></ul>',
                        "</aside>",
                    ],
                    "marks": [
                        '<p class="proof" data-pagefind-ignore><a href="#fixture-delays">verified by '
                        "fixture <code>delays</code></a></p>",
                        '<p class="proof" data-pagefind-ignore><a href="#fixture-delays">verified by '
                        "fixture <code>delays</code></a></p>",
                        '<p class="proof" data-pagefind-ignore><a href="#fixture-total">verified by '
                        "fixture <code>total</code></a></p>",
                    ],
                },
            },
        ),
        unordered_list(
            [
                "**The mark** is a strip joined to the bottom of the block, a ✓ and the fixture's "
                "name in the theme's green. Without a repository (below) it links to the "
                "fixture's entry in the box, which is outlined while a reader has followed the link.",
                "**The anchors are stable**: `/articles/SLUG/#fixtures` is the box and "
                "`#fixture-NAME` an entry, so they can be linked from elsewhere; a heading of the "
                "body that would get the same id gets another (`fixtures-2`). When two fixtures "
                "of one page share a function name (from different batches), both show their full "
                "id, `MODULE:FUNCTION`, and their anchors become `fixture-MODULE-FUNCTION`.",
                "**They are page chrome.** They are not in the article's `contentHtml` — the "
                "revisions JSON keeps the helpers' markup exactly (the fixture checked it) — and "
                "not in search excerpts (`data-pagefind-ignore`).",
            ]
        ),
        paragraph(
            "An article with no verified output keeps a one-sentence box instead, and the words follow "
            "the page's language — here the same kind of article, in Russian and Korean, with one "
            "verified output each (heading, entry, mark):"
        ),
        verified_output(
            readers_see,
            expected={
                "noVerifiedOutput": [
                    '<p id="verified-heading">No result in this article is verified by a fixture.</p>'
                ],
                "otherLanguages": {
                    "ru": {
                        "heading": "Фикстуры, проверяющие результаты: 1",
                        "entry": "проверенных результатов: 1",
                        "mark": "проверено фикстурой <code>answer</code>",
                    },
                    "ko": {
                        "heading": "결과를 검증하는 픽스처: 1개",
                        "entry": "검증한 결과: 1개",
                        "mark": "검증한 픽스처: <code>answer</code>",
                    },
                },
            },
        ),
        paragraph(
            "A reader who wants to see the check itself needs the fixture's code. When the site says "
            "where its repository is — the `repo_url` setting, with `source_uri` for a site that is "
            "not at the top of its repository (see [Settings](/articles/settings/)) — each mark and "
            "each name in the box link to the line of the fixture's `def` there, in a new tab. The "
            'same site with `repo_url = "https://github.com/me/notes"`; `delays` is defined on line '
            "5 of `articles/retries.py` and `total` on line 11:"
        ),
        verified_output(
            readers_see,
            expected={
                "withRepoUrl": {
                    "box": [
                        '<aside class="verified" id="fixtures" aria-labelledby="verified-heading" '
                        "data-pagefind-ignore>",
                        '<h2 id="verified-heading">Fixtures that verify results: 2</h2>',
                        '<ul><li id="fixture-delays"><a href="https://github.com/me/notes/blob/main/'
                        'articles/retries.py#L5" target="_blank" rel="noopener noreferrer"><code>delays'
                        '</code></a> — verified results: 2</li><li id="fixture-total"><a href="https://'
                        'github.com/me/notes/blob/main/articles/retries.py#L11" target="_blank" '
                        'rel="noopener noreferrer"><code>total</code></a> — verified results: 1</li></ul>',
                        "</aside>",
                    ],
                    "marks": [
                        '<p class="proof" data-pagefind-ignore><a href="https://github.com/me/notes/blob/'
                        'main/articles/retries.py#L5" target="_blank" rel="noopener noreferrer">verified '
                        "by fixture <code>delays</code></a></p>",
                        '<p class="proof" data-pagefind-ignore><a href="https://github.com/me/notes/blob/'
                        'main/articles/retries.py#L5" target="_blank" rel="noopener noreferrer">verified '
                        "by fixture <code>delays</code></a></p>",
                        '<p class="proof" data-pagefind-ignore><a href="https://github.com/me/notes/blob/'
                        'main/articles/retries.py#L11" target="_blank" rel="noopener noreferrer">verified '
                        "by fixture <code>total</code></a></p>",
                    ],
                },
                "defLines": {"delays": 5, "total": 11},
            },
        ),
        paragraph(
            "The link names the line of the `def`, not of `@fixture` above it, and it follows the "
            "code: move a fixture and the next build links to its new line. "
            "[Templates and theming](/articles/templates-and-theming/) has the template variable "
            "(`article.proofs`) and the CSS classes (`.verified`, `.proof`) behind the box and the "
            "marks."
        ),
        heading("Workers and timeouts"),
        paragraph(
            "Fixtures are an author's code, and may hang, exit, print or leave state behind. So "
            "each fixture runs in a worker process of its own, forked from the process that "
            "loaded its batch, in a process group of its own and with a temporary directory of "
            "its own (`TMPDIR` points there). The command waits for the result up to "
            "`fixture_timeout` seconds (a setting, 10 by default; any number above 0), then kills "
            "the worker's whole group. Whatever the fixture prints goes to standard error, never "
            "into the JSON a command writes to standard output."
        ),
        heading("Determinism, and verify --repeat"),
        paragraph(
            "A fixture must return the same output every time it runs. `build` relies on it: it "
            "keeps what it learned about each batch in `.site-builder-cache/`, and does not run "
            "the fixtures of a batch again while the batch, the other files of the articles "
            "folder, the site's templates, the settings and site_builder itself are unchanged "
            "(`validate` reads that cache too, without writing it). To check that a fixture "
            "really is deterministic, run it several times:"
        ),
        code_block("site-builder verify --repeat 3", language="sh"),
        paragraph(
            "Each fixture then runs three times, each time in a fresh worker, and fails if a later "
            "run disagrees with the first on whether it passed or on any value of its output. "
            "In this batch, `delays` is "
            "steady and `stamped` reads the clock:"
        ),
        code_block(REPEAT_BATCH, language="python"),
        paragraph(
            "The error names the key that changed and the values of run 1 and run 2 — "
            "timestamps, different in every run, so this page shows the message up to the first "
            "of them:"
        ),
        verified_output(
            repeat,
            expected={
                "exit": 1,
                "status": {
                    "timing:delays": "passed",
                    "timing:stamped": "failed",
                },
                "stampedErrorUpToTheFirstValue": "is not deterministic: $.generatedAt: run 1 returned ",
            },
        ),
        paragraph(
            "`site-builder validate --no-cache` and `build --no-cache` also run every fixture again, once."
        ),
        heading("Where fixtures live"),
        paragraph(
            "A fixture belongs to the module that defines it at module level: a batch, or a "
            "helper module of the articles folder — a file whose name starts with `_`, such as "
            "`_shared.py`, which is never a batch itself but which batches may import. A helper "
            "module is where several articles share one fixture. Its id is the helper's name and "
            "the function's, `_shared:answer`; its problems point at its `def` in `_shared.py`; "
            "and every batch that shows it runs it as one of its own, so each batch is still "
            "checked, and kept by the cache, on its own (editing `_shared.py` checks them all "
            "again, as it does for any file of the folder)."
        ),
        code_block(f"# articles/_shared.py\n{SHARED_FIXTURE}", language="python"),
        code_block(f"# articles/answer.py\n{USES_SHARED}", language="python"),
        paragraph("`validate` runs it with the batch:"),
        transcript(
            shared_fixture,
            """
            $ site-builder validate
            ok: 1 revision valid, 1 fixture passed
            """,
            key="validate",
        ),
        paragraph(
            "`verify _shared:answer` runs it alone and lists the outputs it backs (its id, file, "
            "line and status, and the slug, file and status of each output):"
        ),
        verified_output(
            shared_fixture,
            expected={
                "verify": {
                    "id": "_shared:answer",
                    "path": "articles/_shared.py",
                    "line": 5,
                    "status": "passed",
                    "verifiedOutputs": [["shared-answer", "articles/answer.py", "matches"]],
                },
            },
        ),
        paragraph(
            "A fixture made inside a function, of a helper module or of a batch, is no module's "
            "fixture: the same batch with `answer = made_in_a_function()` in place of the import "
            "(two lines longer) is a problem at the block's line:"
        ),
        transcript(
            shared_fixture,
            """
            $ site-builder validate
            articles/answer.py:15: shared-answer: verified_output uses _shared:hidden, which is not a fixture of a batch
            1 problem found
            """,  # noqa: E501
            key="madeInAFunction",
        ),
        heading("Writing honest checks"),
        paragraph(
            "A fixture whose checks cannot fail proves nothing: the article would print the "
            "output whatever it was. A few habits keep checks worth their name."
        ),
        unordered_list(
            [
                '**Compute each check from the run.** `"threeWaits": len(waits) == 3` can fail; '
                '`"ok": True` cannot.',
                "**Check what the text claims, in other words than the output.** If the article "
                "says the delays double, test that each one is twice the one before — not that the "
                "list equals itself.",
                "**Prefer an independent route.** Compare against a value computed another way, a "
                "known answer from a source, or a property that must hold (sorted, unique, summing "
                "to the total).",
                "**Make it fail once.** Break the code on purpose and watch validation report the "
                "check; then put it back.",
                "**Keep it deterministic.** No clock, no randomness without a fixed seed, no "
                "network, no files outside the temporary directory; run `verify --repeat 3` when "
                "in doubt.",
                "**Keep it fast.** A fixture runs under a timeout and on every clean build; "
                "seconds, not minutes.",
            ]
        ),
    ],
    sources=[
        Source(
            title="PEP 578: Python Runtime Audit Hooks",
            url="https://peps.python.org/pep-0578/",
            note="the mechanism the fixture sandbox uses to refuse network and file writes",
        ),
        Source(
            title="os.fork",
            url="https://docs.python.org/3/library/os.html#os.fork",
            note="how each fixture's worker process is started",
        ),
    ],
)

revisions = [fixtures]
