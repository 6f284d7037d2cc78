"""Documentation: the commands, their options, exit codes and outputs."""

import hashlib
import json
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _tool import SETTINGS, article, environment, run, run_in, session, site

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

COMMANDS = ("build", "validate", "verify", "revisions", "serve", "check-sources", "init", "new")

EFFECTS = """\
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
            verified_output(effects, expected={"effects": 1}),
        ],
    ),
]
"""
"""``articles/post.py`` of the site ``verify`` runs on."""

TIMING = re.compile(r" in \d+\.\d s$")
ROOT = "site root (default: nearest pyproject.toml with [tool.site_builder] upward)"
NO_CACHE = {
    "build": "neither read nor write .site-builder-cache/: load every batch, run every fixture, "
    "render every page",
    "validate": "do not read .site-builder-cache/ (validate writes it only with --shard): load every batch, "
    "run every fixture",
    "revisions": "do not read .site-builder-cache/ (revisions never writes it): load every batch",
}
"""What ``--no-cache`` says in the help of each command that takes it."""
SHARD = (
    "only shard I of N of the batches (by a hash of each module's name), kept in .site-builder-cache/ "
    "for a final run with --shards N"
)
SHARDS = (
    "the final run: .site-builder-cache/ holds every shard's (merged), so no fixture runs again; "
    "refused when a shard is missing"
)
NO_WAIT = "when another site-builder command is running on this site, fail (exit 2) instead of waiting for it"
"""What ``--no-wait`` says in the help of each command that takes it."""


def _options(help_text: str) -> dict[str, str]:
    """The ``options:`` section of ``--help`` (printed 200 columns wide): option → help."""
    section = help_text.split("options:\n", 1)[1]
    found: dict[str, str] = {}
    name = ""
    for line in section.splitlines():
        text = line.strip()
        if text.startswith("-"):  # an option, and its help when it fits beside it
            name, _, text = text.partition("  ")
            found[name] = text.strip()
        elif text and name:  # help on the lines below a long option
            found[name] = f"{found[name]} {text}".strip()
    return found


def _files(folder: Path) -> dict[str, str]:
    """Every file below ``folder`` by relative path, with a hash of its bytes."""
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def _two_articles() -> Path:
    return site(
        {
            "articles/alpha.py": article("first-post", "First"),
            "articles/beta.py": article("second-post", "Second"),
        }
    )


@fixture
def usage() -> dict:
    """``--help`` of every command, 200 columns wide so that no line wraps."""
    helps = {name: run_in(Path(tempfile.gettempdir()), name, "--help", columns=200) for name in COMMANDS}
    return {
        name: {"usage": ran.stdout.splitlines()[0], "options": _options(ran.stdout)}
        for name, ran in helps.items()
    } | {
        "checks": {
            "allExitZero": all(ran.code == 0 for ran in helps.values()),
            "eachNamesItsCommand": all(
                ran.stdout.startswith(f"usage: site-builder {name} ") for name, ran in helps.items()
            ),
            "everyCommandTakesRoot": all("--root DIR" in _options(ran.stdout) for ran in helps.values()),
        }
    }


@fixture
def finding_the_root() -> dict:
    """Without ``--root``: from a folder inside a site, and from a folder in no site."""
    root = site({"articles/post.py": article()})
    inside = run_in(root / "articles", "validate")
    nowhere = Path(tempfile.mkdtemp(prefix="no-site-"))
    outside = run_in(nowhere, "validate")
    not_a_folder = run(root / "pyproject.toml", "validate")
    no_site = run(nowhere, "validate")
    return {
        "fromArticles": {"exit": inside.code, "stderr": inside.lines},
        "fromAnEmptyFolder": {
            "exit": outside.code,
            "stderr": [line.replace(str(nowhere), "FOLDER") for line in outside.lines],
        },
        "rootIsAFile": {
            "exit": not_a_folder.code,
            "stderr": [line.replace(str(root), "SITE") for line in not_a_folder.lines],
        },
        "rootWithoutASite": {
            "exit": no_site.code,
            "stderr": [line.replace(str(nowhere), "FOLDER") for line in no_site.lines],
        },
        "checks": {
            "foundFromBelow": inside.code == 0,
            "noSiteIsAUsageError": outside.code == 2 and outside.stdout == "",
            "fileIsAUsageError": not_a_folder.code == 2,
            "noSiteThereIsAUsageError": no_site.code == 2 and no_site.stdout == "",
            "pathsWereReplaced": str(nowhere) in outside.stderr and str(root) in not_a_folder.stderr,
        },
    }


@fixture
def building() -> dict:
    """A build, the same build again, and a build into another folder with other jobs."""
    root = _two_articles()
    ran = session(root, ["build"], ["build"])
    other = Path(tempfile.mkdtemp(prefix="out-")) / "site"
    elsewhere = run(root, "build", "--out", str(other), "--jobs", "1", "--no-cache")
    summaries = [line for line in ran.lines if not line.startswith("$ ")]
    return {
        "transcript": ran.lines,
        "siteFolder": sorted(p.name for p in root.iterdir()),
        "output": sorted(p.name for p in (root / "build").iterdir()),
        "checks": {
            "allExitZero": ran.codes == [0, 0] and elsewhere.code == 0,
            "timedSummaries": len(summaries) == 2
            and all(line.endswith(" in … s") for line in summaries)
            and bool(TIMING.search(elsewhere.lines[-1])),
            "nothingOnStdout": elsewhere.stdout == "",
            "outIsTheSameSite": _files(root / "build") == _files(other),
        },
    }


@fixture
def failing_build() -> dict:
    """A build of a site with a problem: a previous build/ stays as it was."""
    root = site({"articles/post.py": article()})
    run(root, "build")
    before = _files(root / "build")
    (root / "articles" / "post.py").write_text(article().replace("2026-12-01", "2026-12-32"), "utf-8")
    failed = session(root, ["build"])
    return {
        "transcript": failed.lines,
        "checks": {
            "exitsWithOne": failed.codes == [1],
            "previousSiteUntouched": _files(root / "build") == before,
            "saysNothingWritten": failed.lines[-1] == "nothing was written; the previous site is untouched",
        },
    }


@fixture
def unreadable_input() -> dict:
    """A batch module that is a symbolic link to a file that moved: named, nothing built."""
    root = site({"articles/post.py": article()})
    (root / "articles" / "moved.py").symlink_to(root / "elsewhere.py")
    ran = session(root, ["build"], ["validate"])
    return {
        "transcript": [line.replace(str(root), "SITE") for line in ran.lines],
        "checks": {
            "exitsWithOne": ran.codes == [1, 1],
            "nothingBuilt": not (root / "build").exists(),
            "noTraceback": not any("Traceback" in line for line in ran.lines),
            "sitePathWasMasked": any(str(root) in line for line in ran.lines),
        },
    }


@fixture
def verifying() -> dict:
    """``verify`` on a site of one fixture: the JSON it prints, without the duration."""
    root = site({"articles/post.py": EFFECTS})
    ran = run(root, "verify")
    (item,) = ran.json()
    duration = item.pop("duration")
    unknown = session(root, ["verify", "post:effect"])
    return {
        "exit": ran.code,
        "stdout": [item],
        "unknownId": unknown.lines,
        "checks": {
            "exitsWithZero": ran.code == 0,
            "durationIsSeconds": isinstance(duration, int | float) and 0 <= duration < 60,
            "nothingOnStderr": ran.stderr == "",
            "unknownIdIsAUsageError": unknown.codes == [2],
        },
    }


@fixture
def listing() -> dict:
    """``revisions --slug``, an unknown slug, and ``--indent 0``."""
    root = _two_articles()
    one = run(root, "revisions", "--slug", "second-post")
    missing = session(root, ["revisions", "--slug", "third-post"])
    compact = run(root, "revisions", "--indent", "0")
    return {
        "slug": {"exit": one.code, "stdout": one.json()},
        "unknownSlug": missing.lines,
        "indent0": {"lines": len(compact.stdout.splitlines()), "slugs": [r["slug"] for r in compact.json()]},
        "checks": {
            "oneRevision": [r["slug"] for r in one.json()] == ["second-post"],
            "unknownSlugIsAUsageError": missing.codes == [2],
            "compactIsOneLine": compact.stdout.count("\n") == 1,
        },
    }


@fixture
def usage_errors() -> dict:
    """Command lines the tool refuses: exit 2, the reason on stderr's last line."""
    root = site({"articles/post.py": article()})
    hyphen = site(
        {"articles/post.py": article()}, SETTINGS.replace("[tool.site_builder]", "[tool.site-builder]")
    )
    tried = {
        "build --jobs 0": run(root, "build", "--jobs", "0"),
        "bulid": run_in(root, "bulid"),
        "build --drafs": run(root, "build", "--drafs"),
        "validate --format xml": run(root, "validate", "--format", "xml"),
        "revisions --indent -1": run(root, "revisions", "--indent", "-1"),
        "validate --bogus": run(root, "validate", "--bogus"),
        "publish": run_in(root, "publish"),
        "build --out .": run_in(root, "build", "--out", "."),
        "build --out pyproject.toml": run_in(root, "build", "--out", "pyproject.toml"),
        "build --out articles/site": run_in(root, "build", "--out", "articles/site"),
        "revisions --slug nope": run(root, "revisions", "--slug", "nope"),
        "serve --port 70000": run(root, "serve", "--port", "70000"),
        "build, [tool.site-builder]": run_in(hyphen, "build"),
    }
    with socket.socket() as taken:  # a port another program listens on
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        tried["serve --port BUSY"] = run(root, "serve", "--port", str(port))
    return {
        "refused": {
            command: {
                "exit": ran.code,
                "says": ran.lines[-1]
                .replace(str(root.resolve()), "SITE")
                .replace(str(hyphen.resolve()), "SITE")
                .replace(f"port {port}:", "port BUSY:"),
            }
            for command, ran in tried.items()
        },
        "checks": {
            "allExitTwo": all(ran.code == 2 for ran in tried.values()),
            "nothingOnStdout": all(ran.stdout == "" for ran in tried.values()),
            "nothingBuilt": not (root / "build").exists() and not (hyphen / "build").exists(),
        },
    }


def _first_lines(root: Path, *flags: str) -> list[str]:
    """``serve --port 0 FLAGS``: its first two lines on stderr (the port shown as PORT), then stopped."""
    process = subprocess.Popen(
        [sys.executable, "-m", "site_builder", "serve", "--root", str(root), "--port", "0", *flags],
        env=environment(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    lines: list[str] = []
    try:
        while len(lines) < 2 and (line := process.stderr.readline()):
            lines.append(line.rstrip("\n"))
        time.sleep(1)  # let it reach its watch loop before it is stopped
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        process.stderr.close()
    return [re.sub(r"127\.0\.0\.1:[1-9]\d*/", "127.0.0.1:PORT/", line) for line in lines]


@fixture
def serving() -> dict:
    """``serve --port 0``: what it prints before it serves; and a site that does not build."""
    root = site({"articles/post.py": article()})
    lines = _first_lines(root)
    broken = site({"articles/post.py": article().replace("2026-12-01", "2026-12-32")})
    refused = run(broken, "serve", "--port", "0")
    return {
        "stderr": lines,
        "broken": {"exit": refused.code, "stderr": refused.lines},
        "checks": {
            "servedOnAFreePort": bool(lines) and lines[-1].startswith("serving on http://127.0.0.1:PORT/"),
            "builtFirst": bool(lines) and lines[0].startswith("built "),
            "brokenExitsWithOne": refused.code == 1,
            "outputLeftAlone": not (root / "build").exists(),
        },
    }


FETCH = """\
import json, re, sys, urllib.error, urllib.request
try:
    with urllib.request.urlopen(sys.argv[1], timeout=30) as answer:
        status, text = answer.status, answer.read().decode("utf-8")
except urllib.error.HTTPError as error:
    status, text = error.code, error.read().decode("utf-8")
print(json.dumps({
    "status": status,
    "title": re.findall(r"<title>(.*?)</title>", text),
    "h1": re.findall(r"<h1[^>]*>(.*?)</h1>", text),
    "reloads": "location.reload()" in text,
}))
"""
"""GET a URL: its status, and the ``<title>`` and ``<h1>`` of the page it answers with."""


def _fetch(url: str) -> dict:
    """``FETCH`` in a child process, like a browser on this machine: the fixture's own process
    may open no connection (fixtures run offline), and this one goes only to 127.0.0.1, to the
    ``serve`` the fixture started."""
    assert url.startswith("http://127.0.0.1:")
    done = subprocess.run(
        [sys.executable, "-c", FETCH, url], capture_output=True, text=True, timeout=60, check=True
    )
    return json.loads(done.stdout)


@fixture
def serving_everywhere() -> dict:
    """``serve --host 0.0.0.0 --port 0``: its lines, a page and an unknown address, then SIGTERM."""
    root = site({"articles/post.py": article()})
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "site_builder",
            "serve",
            "--root",
            str(root),
            "--host",
            "0.0.0.0",
            "--port",
            "0",
        ],
        env=environment(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    lines: list[str] = []
    answers = {}
    try:
        while len(lines) < 3 and (line := process.stderr.readline()):
            lines.append(line.rstrip("\n"))
        port = re.search(r":(\d+)/", lines[1]).group(1)
        for path in ("/articles/demo/", "/no-such-page/", "/articles/"):
            answers[path] = _fetch(f"http://127.0.0.1:{port}{path}")
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            code = process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            code = process.wait()
    shown = [line.replace(f":{port}/", ":PORT/") for line in lines]
    # The address other devices use is this machine's own: the part between these two is left out.
    here, there = "here, or ", " from another device on the network"
    third = shown[2]
    return {
        "stderr": [*shown[:2], third[: third.index(here) + len(here)] + "…" + third[third.index(there) :]],
        "answers": answers,
        "stoppedWith": code,
        "checks": {
            "everyAddress": shown[1].startswith("serving on http://0.0.0.0:PORT/"),
            "notFoundIsTheSites": answers["/no-such-page/"]["title"] == ["Page not found — Demo"],
            "folderWithoutIndexToo": answers["/articles/"]["status"] == 404,
            "outputLeftAlone": not (root / "build").exists(),
        },
    }


GATED = """\
import time
from pathlib import Path

from site_builder import fixture

GO = Path(__file__).parent.parent / "go"


@fixture
def gated() -> dict:
    while not GO.exists():  # the build holds the site's lock until the documentation says go
        time.sleep(0.02)
    return {"checks": {"released": True}}
"""
"""The start of a batch whose fixture, so the build that runs it, ends only once the site has a
file ``go``."""


def _build_started(root: Path) -> subprocess.Popen:
    """``site-builder build`` in the background, its stderr readable line by line."""
    return subprocess.Popen(
        [sys.executable, "-m", "site_builder", "build", "--root", str(root)],
        env=environment(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


def _holds_the_lock(root: Path, pid: int) -> None:
    """Wait until process ``pid`` holds the site's lock (it writes its pid into the lock file)."""
    lock = root / ".site-builder-cache" / "lock"
    deadline = time.monotonic() + 100
    while not (lock.is_file() and lock.read_text() == f"{pid}\n"):
        assert time.monotonic() < deadline, "the first build never took the lock"
        time.sleep(0.05)


@fixture
def one_at_a_time() -> dict:
    """A build held up by its fixture; meanwhile a second build waits for it, and one with
    ``--no-wait`` refuses. The holder's pid is shown as N."""
    root = site({"articles/post.py": GATED + article()}, SETTINGS + "fixture_timeout = 100\n")
    first = _build_started(root)
    second = None
    try:
        _holds_the_lock(root, first.pid)
        refused = run(root, "build", "--no-wait")
        second = _build_started(root)
        said = second.stderr.readline()  # printed at once, while the first build still runs
        (root / "go").touch()
        first_err = first.communicate(timeout=110)[1]
        second_err = second.communicate(timeout=110)[1]
    finally:
        for process in (first, second):
            if process is not None and process.poll() is None:
                process.kill()
    holder = f"(pid {first.pid})"

    def shown(text: str) -> list[str]:
        return [TIMING.sub(" in S s", line.replace(holder, "(pid N)")) for line in text.splitlines() if line]

    return {
        "first": {"exit": first.returncode, "stderr": shown(first_err)},
        "second": {"exit": second.returncode, "stderr": shown(said + second_err)},
        "noWait": {"exit": refused.code, "stderr": shown(refused.stderr)},
        "checks": {
            "namesTheHolder": holder in said and holder in refused.stderr,
            "waitedBeforeTheFirstEnded": said.startswith("waiting for another"),
            "saidOnce": (said + second_err).count("waiting for") == 1,
            "noLockLeft": not (root / ".site-builder-cache" / "lock").exists(),
        },
    }


def _note(slug: str, published: str, draft: bool = False) -> str:
    """A batch of one revision, a draft or not."""
    text = article(slug, slug.replace("-", " ").capitalize()).replace("2026-12-01", published)
    return text.replace("        body=[", "        draft=True,\n        body=[") if draft else text


@fixture
def schedule_flags() -> dict:
    """A site with two drafts and two scheduled revisions, built and listed with each flag."""
    root = site(
        {
            "articles/a_out.py": _note("out-today", "2026-12-01"),
            "articles/b_draft.py": _note("first-draft", "2026-11-20", draft=True),
            "articles/c_draft.py": _note("second-draft", "2026-11-25", draft=True),
            "articles/d_gift.py": _note("gift", "2026-12-24"),
            "articles/e_resolutions.py": _note("resolutions", "2027-01-01"),
        }
    )
    built = session(
        root,
        ["build"],
        ["build", "--drafts"],
        ["build", "--future"],
        ["build", "--drafts", "--future"],
        ["validate"],
    )
    listed = run(root, "revisions")
    asked = session(root, ["revisions", "--slug", "first-draft"], ["revisions", "--slug", "gift"])
    epochs = {value: run(root, "build", env={"SOURCE_DATE_EPOCH": value}) for value in ("abc", "1.5")}
    return {
        "builds": built.lines,
        "revisions": {
            "stdoutSlugs": [entry["slug"] for entry in listed.json()],
            "stderr": listed.lines,
        },
        "revisionsSlug": asked.lines,
        "serve": _first_lines(root),
        "SOURCE_DATE_EPOCH": {
            value: {"exit": ran.code, "stderr": ran.lines} for value, ran in epochs.items()
        },
        "checks": {
            "buildsAndValidateExitZero": built.codes == [0, 0, 0, 0, 0],
            "draftKeyFalseWithoutFlags": all(entry["draft"] is False for entry in listed.json()),
            "leftOutSlugsAreUsageErrors": asked.codes == [2, 2],
            "badEpochIsAUsageError": all(ran.code == 2 and ran.stdout == "" for ran in epochs.values()),
        },
    }


commands = revision(
    slug="commands",
    title="Commands",
    categories=["Reference"],
    excerpt="build, validate, verify, revisions, serve and check-sources: what each does, its options "
    "and its output.",
    published="2026-12-01",
    body=[
        paragraph(
            "Everything site_builder does goes through one command, `site-builder`, with six "
            "subcommands, and two that make a site and an article ([init and new](#init-and-new)). "
            "`python -m site_builder` is the same program, handy where the "
            "console script is not on the `PATH`."
        ),
        data_table(
            "The commands",
            ["command", "does", "writes", "fixtures run"],
            [
                [
                    "`build`",
                    "validates, runs fixtures, renders and checks the pages, then replaces the output",
                    "the output folder, the cache",
                    "yes",
                ],
                ["`validate`", "validates and runs fixtures", "nothing", "yes"],
                ["`verify [ID…]`", "runs fixtures and prints their results as JSON", "nothing", "yes"],
                ["`revisions`", "validates, then prints every published revision as JSON", "nothing", "no"],
                [
                    "`serve`",
                    "builds into the cache, serves it, rebuilds on change",
                    "the cache (its `serve/` folder too)",
                    "yes",
                ],
                [
                    "`check-sources`",
                    "asks every cited page whether it still answers and holds its quote",
                    "its kept answers, in the cache",
                    "no",
                ],
            ],
        ),
        heading("Conventions every command follows"),
        unordered_list(
            [
                "**Exit codes.** `0`: all is well (warnings do not change it). `1`: the site "
                "has a problem — an error, a failing fixture, a drifted verified output. `2`: "
                "the command line itself is wrong — an unknown option, value, fixture id or "
                "slug, no site where it looks, an output folder that cannot be one. "
                "[Exit codes](#exit-codes) lists every case.",
                "**Streams.** Machine output (JSON, annotations) goes to stdout, always UTF-8 "
                "whatever the locale. Messages for people — problems, the `ok:` line, a "
                "build's summary — go to stderr, so `site-builder revisions > all.json` "
                "captures only the JSON.",
                "**Problems.** One a line, `PATH:LINE: SUBJECT: message`, followed by a line "
                "counting them; see [Validation rules](/articles/validation-rules/) and "
                "[Site-wide rules](/articles/site-wide-rules/) for each rule.",
                "**No tracebacks** for an author's mistake: a broken module, a failing "
                "fixture or a bad setting is a problem line like any other.",
            ]
        ),
        heading("Options"),
        paragraph(
            "Here is the usage line and the options of each command, as its `--help` prints "
            "them (run at 200 columns so that nothing wraps):"
        ),
        verified_output(
            usage,
            expected={
                "build": {
                    "usage": "usage: site-builder build [-h] [--root DIR] [--out DIR] [--jobs N] "
                    "[--shard I/N | --shards N] [--no-cache] [--drafts] [--future] [--no-wait]",
                    "options": {
                        "-h, --help": "show this help message and exit",
                        "--root DIR": ROOT,
                        "--out DIR": "output folder (default: output_dir setting)",
                        "--jobs N": "worker processes (default: one per core)",
                        "--shard I/N": SHARD,
                        "--shards N": SHARDS,
                        "--no-cache": NO_CACHE["build"],
                        "--drafts": "include drafts, marked",
                        "--future": "include scheduled revisions, marked",
                        "--no-wait": NO_WAIT,
                    },
                },
                "validate": {
                    "usage": "usage: site-builder validate [-h] [--root DIR] [--format {text,json,github}] "
                    "[--shard I/N | --shards N] [--no-cache] [--drafts] [--future] [--no-wait]",
                    "options": {
                        "-h, --help": "show this help message and exit",
                        "--root DIR": ROOT,
                        "--format {text,json,github}": "text on stderr (default), or json / GitHub "
                        "annotations on stdout",
                        "--shard I/N": SHARD,
                        "--shards N": SHARDS,
                        "--no-cache": NO_CACHE["validate"],
                        "--drafts": "include drafts, marked",
                        "--future": "include scheduled revisions, marked",
                        "--no-wait": NO_WAIT,
                    },
                },
                "verify": {
                    "usage": "usage: site-builder verify [-h] [--root DIR] [--repeat N] [ID ...]",
                    "options": {
                        "-h, --help": "show this help message and exit",
                        "--root DIR": ROOT,
                        "--repeat N": "run each fixture N times and report any whose output differs",
                    },
                },
                "revisions": {
                    "usage": "usage: site-builder revisions [-h] [--root DIR] [--slug S] [--indent N] "
                    "[--latest] [--no-cache] [--drafts] [--future] [--no-wait]",
                    "options": {
                        "-h, --help": "show this help message and exit",
                        "--root DIR": ROOT,
                        "--slug S": "only this slug (repeatable)",
                        "--indent N": "indent (0: one line; default 2)",
                        "--latest": "only the latest revision of each article",
                        "--no-cache": NO_CACHE["revisions"],
                        "--drafts": "include drafts, marked",
                        "--future": "include scheduled revisions, marked",
                        "--no-wait": NO_WAIT,
                    },
                },
                "serve": {
                    "usage": "usage: site-builder serve [-h] [--root DIR] [--port P] [--host H] [--drafts] "
                    "[--future] [--no-wait]",
                    "options": {
                        "-h, --help": "show this help message and exit",
                        "--root DIR": ROOT,
                        "--port P": "port (default 8000; 0: any free port)",
                        "--host H": "address to listen on (default 127.0.0.1, this machine only; 0.0.0.0: "
                        "every address, to open the site from a phone on the same network)",
                        "--drafts": "include drafts, marked",
                        "--future": "include scheduled revisions, marked",
                        "--no-wait": NO_WAIT,
                    },
                },
                "check-sources": {
                    "usage": "usage: site-builder check-sources [-h] [--root DIR] "
                    "[--format {text,json,github}] [--timeout S] [--drafts] [--future] [--no-wait]",
                    "options": {
                        "-h, --help": "show this help message and exit",
                        "--root DIR": ROOT,
                        "--format {text,json,github}": "text on stderr (default), or json / GitHub "
                        "annotations on stdout",
                        "--timeout S": "seconds to wait to connect, and for each read of an answer "
                        "(default 10)",
                        "--drafts": "check the sources of drafts too",
                        "--future": "check the sources of scheduled revisions too",
                        "--no-wait": NO_WAIT,
                    },
                },
                "init": {
                    "usage": "usage: site-builder init [-h] [--lang {en,ru,ko}] [--root DIR] [DIR]",
                    "options": {
                        "-h, --help": "show this help message and exit",
                        "--lang {en,ru,ko}": "the starter article's and the site's language",
                        "--root DIR": "the same as DIR",
                    },
                },
                "new": {
                    "usage": "usage: site-builder new [-h] [--root DIR] [--batch NAME] [--no-wait] SLUG",
                    "options": {
                        "-h, --help": "show this help message and exit",
                        "--root DIR": ROOT,
                        "--batch NAME": "append it to the existing batch articles/NAME.py "
                        "(default: a new batch module)",
                        "--no-wait": NO_WAIT,
                    },
                },
            },
        ),
        paragraph(
            "Options come after the command's name: `site-builder build --root docs`, not "
            "`site-builder --root docs build`. `site-builder --version` prints the version. "
            "`--no-cache` means a little less for each command, as its help says: `build` "
            "neither reads nor writes the cache; `validate` (but with `--shard`) and `revisions` "
            "never write it anyway, so for them it means only that it is not read — and "
            "`revisions` never runs fixtures, with or without it. `--shard I/N` and `--shards N` "
            "split `validate` or `build` across several machines, one shard of the batches "
            "each, then one final run ([Checking in CI]"
            "(/articles/continuous-integration/#a-site-too-big-for-one-runner-shards))."
        ),
        heading("Where the site is: --root"),
        paragraph(
            "A site's root is the folder whose `pyproject.toml` has a `[tool.site_builder]` "
            "table. Without `--root`, a command looks in the current folder, then in each "
            "folder above it, and takes the first such `pyproject.toml` — so it works from "
            "`articles/` or any other folder of the site. When none is found, or `--root` "
            "names something that is not a folder, the command stops with exit code 2 (the "
            "temporary folders of this run are shown as `FOLDER` and `SITE`):"
        ),
        verified_output(
            finding_the_root,
            expected={
                "fromArticles": {"exit": 0, "stderr": ["ok: 1 revision valid, 0 fixtures passed"]},
                "fromAnEmptyFolder": {
                    "exit": 2,
                    "stderr": [
                        "site-builder: no pyproject.toml with [tool.site_builder] in FOLDER or above; "
                        "use --root DIR"
                    ],
                },
                "rootIsAFile": {
                    "exit": 2,
                    "stderr": ["site-builder: --root SITE/pyproject.toml: not a folder"],
                },
                "rootWithoutASite": {
                    "exit": 2,
                    "stderr": [
                        "site-builder: --root FOLDER: no pyproject.toml with [tool.site_builder] in this "
                        "folder"
                    ],
                },
            },
        ),
        paragraph(
            "`--root` is taken as it is, without a search upward: the last case is "
            "`validate --root FOLDER` on that same empty folder, a mistake of the command line "
            "like the others."
        ),
        heading("build"),
        paragraph(
            "`site-builder build` validates every revision, runs every fixture, renders the "
            "pages, checks every link, `src`, `#fragment` and alt text of the rendered pages, "
            "indexes them for search, and only then replaces the output folder (`build/`, "
            "or the `output_dir` setting) in one step. If anything fails, it prints the "
            "problems and writes nothing. On success its last line says how many revisions "
            "and pages it built and how long it took (shown as `…` below, since it varies). "
            "A site of two articles, built twice:"
        ),
        transcript(
            building,
            """
            $ site-builder build
            built 2 revisions, 6 pages in … s
            $ site-builder build
            nothing changed since the last build: 2 revisions, 6 pages in … s
            """,
        ),
        paragraph(
            "The site's folder then holds the output folder and the cache beside its sources, "
            "and `build/` holds the whole site:"
        ),
        verified_output(
            building,
            expected={
                "siteFolder": [".site-builder-cache", "articles", "build", "pyproject.toml"],
                "output": [
                    "404.html",
                    "articles",
                    "categories",
                    "feed.xml",
                    "index.html",
                    "pagefind",
                    "revisions.json",
                    "robots.txt",
                    "sitemap.xml",
                    "theme",
                ],
            },
        ),
        unordered_list(
            [
                "**`--out DIR`** writes the site into `DIR` instead of the `output_dir` "
                "setting. A build replaces its output folder whole, so a folder it must not "
                "replace is refused before anything is done: an existing file, the site's root "
                "or a folder holding it, and a folder that is, holds or lies inside the "
                "articles, assets or `templates/` folder ([Exit codes](#exit-codes) shows the "
                "messages).",
                "**`--jobs N`** sets how many worker processes load batches, run fixtures and "
                "render pages (default: one per core). The output is byte for byte the same "
                "whatever `N` is: the fixture above also built the site with `--jobs 1 --out "
                "…` and compared every file.",
                "**`--no-cache`** neither reads nor writes `.site-builder-cache/`: every batch "
                "is loaded and every fixture run again. By default `build` keeps there what it "
                "learned of each batch, and the next build redoes only the batches whose "
                "inputs changed; when nothing changed at all it says so and writes nothing "
                "(the second run above). Deleting the folder is always safe; keep it out of "
                "version control.",
            ]
        ),
        paragraph(
            "A build with a problem exits with 1 and leaves the previous site exactly as it was. "
            "Here a site that was built once is given the date `2026-12-32`, then built again:"
        ),
        transcript(
            failing_build,
            """
            $ site-builder build
            articles/post.py:9: demo: published '2026-12-32' is not an ISO date like 2020-06-18
            1 problem found
            nothing was written; the previous site is untouched
            """,
        ),
        paragraph(
            "A file of the site that cannot be read — a symbolic link whose target moved, a file "
            "without read permission — stops `build`, `validate` and the other commands before they "
            "check anything, with exit code 1 and the file named (`SITE` stands for the site's folder). "
            "`serve` shows the same line as the page's problem and goes on serving the last good "
            "site until the file can be read again:"
        ),
        transcript(
            unreadable_input,
            """
            $ site-builder build
            site-builder: articles/moved.py: cannot be read (a symbolic link to SITE/elsewhere.py): No such file or directory
            $ site-builder validate
            site-builder: articles/moved.py: cannot be read (a symbolic link to SITE/elsewhere.py): No such file or directory
            """,  # noqa: E501
        ),
        heading("validate"),
        paragraph(
            "`site-builder validate` does everything `build` checks before rendering — every "
            "rule, every fixture, every `verified_output` — and writes nothing. It is the "
            "command to run while writing. With `--format text` (the default) problems go to "
            "stderr, ending with `N problems found`, or a single `ok: N revisions valid, M "
            "fixtures passed` line — each noun in the singular when its number is 1 (`1 problem "
            "found`, `ok: 1 revision valid, 1 fixture passed`), and a number of a thousand or more "
            "grouped with commas: the command line speaks English, "
            "whatever the site's `language`. `--format json` and `--format github` print the problems "
            "on stdout instead, for programs and for CI; see "
            "[Checking in CI](/articles/continuous-integration/). `--no-cache` makes it load "
            "every batch and run every fixture even when the cache of the last build says "
            "nothing changed; `validate` reads the cache but writes it only as one shard of a site "
            "(`--shard I/N`)."
        ),
        heading("verify"),
        paragraph(
            "`site-builder verify` runs fixtures — all of them, or the ids given as "
            "`MODULE:FUNCTION` — and prints a JSON array with one object per fixture: its "
            "id, the file and line of its `def`, `status` (`passed` or `failed`), "
            "`duration` in seconds, the `output` it returned, the `error` when it failed, "
            "and `verifiedOutputs`: each `verified_output` block it backs, with whether the "
            "block still `matches`. Here, for this module (`articles/post.py`):"
        ),
        code_block(EFFECTS, language="python"),
        verified_output(
            verifying,
            expected={
                "exit": 0,
                "stdout": [
                    {
                        "id": "post:effects",
                        "path": "articles/post.py",
                        "line": 7,
                        "status": "passed",
                        "output": {"effects": 1, "checks": {"oneEffect": True}},
                        "error": None,
                        "verifiedOutputs": [
                            {
                                "slug": "one-effect",
                                "path": "articles/post.py",
                                "line": 17,
                                "status": "matches",
                                "differences": [],
                            }
                        ],
                    }
                ],
            },
        ),
        paragraph(
            "The `duration` key is left out of the object above because it changes from run "
            'to run. A failed fixture has `"status": "failed"`, its reason in `error`, and '
            'its problem line on stderr; a drifted block has `"status": "drifted"` and its '
            "`differences`; `verify` then exits with 1. `verify` is the quickest way to see "
            "what a fixture really returns when you write or update a `verified_output`. "
            "`--repeat N` runs each fixture N times and fails one whose output is not the "
            "same every time — fixtures must be deterministic. An id the site does not have "
            "is a mistake of the command line: exit code 2, the closest id when one is close, the "
            "site's ids otherwise:"
        ),
        transcript(
            verifying,
            """
            $ site-builder verify post:effect
            site-builder: unknown fixture id post:effect; did you mean 'post:effects'?
            """,
            key="unknownId",
        ),
        heading("revisions"),
        paragraph(
            "`site-builder revisions` validates the site without running fixtures and prints "
            "its published revisions as a JSON array in site order (batch modules by file name, then "
            "the order of each `revisions` list) — the format importers read. `--slug S` "
            "keeps only that slug and may be repeated; `--indent N` sets the indentation "
            "(default 2; 0 puts the whole array on one line). An article corrected by later "
            "revisions appears once per revision, each numbered; `--latest` keeps only the latest "
            "revision of each article ([Correcting an article](/articles/revisions-over-time/)). "
            "When the site has a problem "
            "it prints only the problems, on stderr, and no JSON. On a site of two articles, "
            "`revisions --slug second-post` (its exit code and the JSON it printed), then "
            "`revisions --indent 0` (how many lines it printed, and the slugs):"
        ),
        verified_output(
            listing,
            expected={
                "slug": {
                    "exit": 0,
                    "stdout": [
                        {
                            "slug": "second-post",
                            "title": "Second",
                            "categories": ["Demo"],
                            "cover": None,
                            "excerpt": "A short demonstration article.",
                            "readingMinutes": 1,
                            "contentHtml": (
                                "<p>This article exists so the tool has something to check.</p>\n"
                                "<h2>Sources</h2>\n"
                                '<ul><li><a href="https://spec.commonmark.org/0.31.2/" target="_blank" '
                                'rel="noopener noreferrer">CommonMark</a> — the syntax</li></ul>'
                            ),
                            "lang": "en",
                            "published": "2026-12-01",
                            "batch": "beta",
                            "bodyChars": 55,
                            "sources": [
                                {
                                    "title": "CommonMark",
                                    "url": "https://spec.commonmark.org/0.31.2/",
                                    "note": "the syntax",
                                }
                            ],
                            "fixtures": [],
                            "draft": False,
                            "revision": 1,
                            "revises": None,
                            "changes": None,
                            "revised": None,
                        }
                    ],
                },
                "indent0": {"lines": 1, "slugs": ["first-post", "second-post"]},
            },
        ),
        paragraph(
            "A slug the site does not have is a mistake of the command line (exit 2), with a "
            "suggestion when a slug of the site is close to it, and no JSON:"
        ),
        transcript(
            listing,
            """
            $ site-builder revisions --slug third-post
            site-builder: no revision with slug third-post
            """,
            key="unknownSlug",
        ),
        heading("serve"),
        paragraph(
            "`site-builder serve` builds the site into `.site-builder-cache/serve/` (your `build/` is "
            "left alone), serves it on `127.0.0.1` — port 8000, or `--port P`; `--port 0` "
            "takes any free port — and watches the articles, assets, templates and "
            "settings. Each change rebuilds what it touched — the process keeps what the "
            "last build learned in memory — and the pages open in a browser hear of the new "
            "version at once (server-sent events) and reload. The edited articles' pages are "
            "shown as soon as the site is judged, the list pages once every link is checked (a "
            "second reload, only when they changed), both while the search index is still being "
            "made, so the search box finds the new words a moment after the page shows them. A change that "
            "does not build prints its problems and shows them over the last good page, which "
            "keeps being served. Ctrl-C stops it, deleting nothing: the next `serve` starts from the site "
            "it left and rebuilds only what changed meanwhile. While it runs, it takes the copies of "
            "the site it keeps under `.site-builder-cache/` to be as its last build left them, "
            "without looking at each page again: a file changed there by hand may be served as it "
            "is, so stop `serve` first (`build` looks at every file each time). Its first lines, "
            "with the port it got shown as `PORT`:"
        ),
        verified_output(
            serving,
            expected={
                "stderr": ["built 5 pages", "serving on http://127.0.0.1:PORT/ (Ctrl-C to stop)"],
                "broken": {
                    "exit": 1,
                    "stderr": [
                        "articles/post.py:9: demo: published '2026-12-32' is not an ISO date like 2020-06-18",
                        "site-builder: the site does not build; fix the problems above and run serve again",
                    ],
                },
            },
        ),
        paragraph(
            "A site that does not build the first time has nothing to serve: `serve` prints "
            "the problems and exits with 1, as the second part above shows. Once it serves, "
            "Ctrl-C (or SIGTERM) stops it at any moment with exit code 0, its temporary "
            "folder removed. A `serve` still running 1.5 seconds after the signal has a bug "
            "of ours: it prints where each of its threads was, for a bug report, and ends at "
            "once with exit code 1. A second Ctrl-C ends it at once too."
        ),
        paragraph(
            "**`--host H`** chooses the address `serve` listens on. The default, `127.0.0.1`, "
            "is this machine only. To open the site from a phone or another computer on the "
            "same network, listen on every address with `--host 0.0.0.0` (`::` for IPv6; a "
            "name such as `localhost` or one address of the machine works too) — like `mkdocs "
            "serve -a` or `hugo server --bind`. `serve` then says which address to type on the "
            "other device, and that anyone who can reach this machine can see the site. The "
            "address is taken before the first build, so an address that is not this "
            "machine's, or a port already in use, stops `serve` at once (exit 2)."
        ),
        paragraph(
            "An address the site does not have gets the site's own `404.html` (the one its "
            "templates make) with status 404, as a static host would answer — and so does a "
            "folder without an `index.html`; nothing is ever listed. Like every page `serve` "
            "answers with, it reloads itself when the site is rebuilt, so a missing page you "
            "are writing appears once it builds. A fixture started `serve --host 0.0.0.0 "
            "--port 0`, asked for an article, an unknown address and the folder `/articles/`, "
            "and then stopped it (the machine's own network address, in the middle of the last "
            "line, is left out):"
        ),
        verified_output(
            serving_everywhere,
            expected={
                "stderr": [
                    "built 5 pages",
                    "serving on http://0.0.0.0:PORT/ (Ctrl-C to stop)",
                    "0.0.0.0 listens on every network address of this machine: open "
                    "http://127.0.0.1:PORT/ here, or … from another device on the network (anyone "
                    "who can reach this machine can see the site)",
                ],
                "answers": {
                    "/articles/demo/": {
                        "status": 200,
                        "title": ["Demo — Demo"],
                        "h1": ["Demo"],
                        "reloads": True,
                    },
                    "/no-such-page/": {
                        "status": 404,
                        "title": ["Page not found — Demo"],
                        "h1": ["Page not found"],
                        "reloads": True,
                    },
                    "/articles/": {
                        "status": 404,
                        "title": ["Page not found — Demo"],
                        "h1": ["Page not found"],
                        "reloads": True,
                    },
                },
                "stoppedWith": 0,
            },
        ),
        paragraph(
            "The left-out part is a URL such as `http://192.168.1.23:PORT/`, with the address "
            "this machine uses on its network (on a machine without one, the line says to use "
            "this machine's address and the port). For a site whose `base_url` has a path "
            "(`https://me.github.io/notes/`), `serve` serves it below that path, and its 404 page "
            "is the one built for it, with its links and stylesheet below the path too."
        ),
        heading("check-sources"),
        paragraph(
            "`site-builder check-sources` is the one command that uses the network: it asks every "
            "source of each article's latest revision whether its address still answers and, for "
            "a source with a `quote`, whether the page still holds the quote. Each finding is a "
            "problem at the line of its `Source(`, printed as `validate` prints problems "
            "(`--format`), with the same exit codes. `--timeout S` sets how long to wait for a "
            "server (10 seconds by default). What servers answered is kept in the cache for "
            "`source_max_age` days. [Checking sources](/articles/checking-sources/) shows it "
            "at work and says how it asks, what it matches and what it keeps."
        ),
        heading("One command at a time: --no-wait"),
        paragraph(
            "Commands that use a site's cache or a build's staging folder take turns: `build` "
            "(with `--no-cache` too, since it still stages the new site beside the output "
            "folder), each build `serve` makes, `validate` and `revisions` (unless `--no-cache`: "
            "then they use neither), `new`, which reads the cache for the slugs taken, and "
            "`check-sources`, which reads it and keeps its answers there; and pytest with the "
            "plugin, while it reads the cache to collect a site's articles. Each "
            "holds a lock on the site while it runs — one lock for the site, whichever `--out` a "
            "build writes to, since every output folder of a site shares its cache. A command that "
            "finds the lock taken says so once, naming the process that has it, and waits; with "
            "`--no-wait` it stops at once instead, with exit code 2. `verify` and `init` take no "
            "lock. Here one build runs a fixture that takes its time, a second build waits for "
            "it, and a third, with `--no-wait`, refuses (the first build's process id is shown "
            "as `N`, each summary's time as `S`):"
        ),
        verified_output(
            one_at_a_time,
            expected={
                "first": {"exit": 0, "stderr": ["built 1 revision, 5 pages in S s"]},
                "second": {
                    "exit": 0,
                    "stderr": [
                        "waiting for another site-builder command on this site (pid N)",
                        "nothing changed since the last build: 1 revision, 5 pages in S s",
                    ],
                },
                "noWait": {
                    "exit": 2,
                    "stderr": [
                        "site-builder: another site-builder command is running on this site (pid N); "
                        "without --no-wait this one would wait for it"
                    ],
                },
            },
        ),
        paragraph(
            "The second build, once the first was done, found nothing left to do. The lock is "
            "the operating system's (`flock` on `.site-builder-cache/lock`): it ends with the "
            "process that holds it, however that process ends, so a build killed half-way never "
            "leaves the site locked, and the next command starts at once. Ctrl-C (or SIGTERM) "
            "while a command waits stops it with exit code 130, nothing done and nothing more "
            "said. `serve` holds the lock only while it builds: between its rebuilds, a `build` "
            "or `validate` of the same site runs at once, as it would beside `mkdocs serve` or "
            "`hugo server`, and a rebuild that comes meanwhile waits for it, saying so. "
            "`serve --no-wait` refuses to start while another command holds the lock; its later "
            "rebuilds always wait."
        ),
        heading("Drafts and scheduled revisions: --drafts and --future"),
        paragraph(
            "A build leaves out drafts (`draft=True`) and scheduled revisions (dated after the "
            "build's date: today in UTC, or the UTC date of `SOURCE_DATE_EPOCH` when it is set); "
            "[Writing an article](/articles/writing-articles/) explains both. Four commands take "
            "the same two flags, which include them, marked on their pages:"
        ),
        data_table(
            "The flags of build, serve, validate and revisions",
            ["flag", "includes"],
            [
                ["`--drafts`", "drafts, whatever their date"],
                ["`--future`", "scheduled revisions (a draft dated later needs both flags)"],
            ],
        ),
        paragraph(
            "`build` and `serve` publish what the flags include. `validate` judges the site the "
            "build with the same flags would publish: without them it checks what the default "
            "`build` writes — in CI too — and with them a preview (the difference is whether a "
            "link to a left-out revision is a problem). `revisions` prints only what that build "
            "publishes. `verify` runs every fixture and `new` sees every slug, whatever the "
            "schedule. Whenever something is left out, the command says so on stderr, with how "
            "many, why, the date of the next scheduled revision and the flag that includes them. "
            "A site of one published revision, two drafts and two revisions scheduled for "
            "2026-12-24 and 2027-01-01, built on 2026-12-01 (`SOURCE_DATE_EPOCH` of the "
            "demonstrations; the time of each summary shown as `…`):"
        ),
        transcript(
            schedule_flags,
            """
            $ site-builder build
            built 1 revision, 5 pages in … s
            left out 2 drafts and 2 scheduled revisions (the next is due 2026-12-24); --drafts / --future include them
            $ site-builder build --drafts
            built 3 revisions, 7 pages in … s
            left out 2 scheduled revisions (the next is due 2026-12-24); --future includes them
            $ site-builder build --future
            built 3 revisions, 7 pages in … s
            left out 2 drafts; --drafts includes them
            $ site-builder build --drafts --future
            built 5 revisions, 9 pages in … s
            $ site-builder validate
            ok: 5 revisions valid, 0 fixtures passed
            a build leaves out 2 drafts and 2 scheduled revisions (the next is due 2026-12-24); --drafts / --future include them
            """,  # noqa: E501
            key="builds",
        ),
        paragraph("`serve` says the same before it serves (the port it got shown as `PORT`):"),
        verified_output(
            schedule_flags,
            expected={
                "serve": [
                    "built 5 pages; left out 2 drafts and 2 scheduled revisions (the next is due "
                    "2026-12-24); --drafts / --future include them",
                    "serving on http://127.0.0.1:PORT/ (Ctrl-C to stop)",
                ],
            },
        ),
        paragraph(
            "`validate`'s `ok:` line counts every revision it judged, left-out ones too. `serve` "
            "takes the build's date again at each rebuild, so a `serve` left running publishes a "
            "scheduled revision at its first rebuild on that day. `revisions` prints the JSON of "
            "what is published on stdout, as always, and the same line on stderr, so "
            "`site-builder revisions > all.json` still captures only the JSON (each object's "
            "`draft` key is `false` unless `--drafts` is given; see [The revisions "
            "JSON](/articles/revisions-json/)). The slugs of the JSON it prints without flags, and "
            "what it says on stderr:"
        ),
        verified_output(
            schedule_flags,
            expected={
                "revisions": {
                    "stdoutSlugs": ["out-today"],
                    "stderr": [
                        "left out 2 drafts and 2 scheduled revisions (the next is due 2026-12-24); "
                        "--drafts / --future include them"
                    ],
                },
            },
        ),
        paragraph("Asking it for a left-out slug says why it is missing, with exit code 2:"),
        transcript(
            schedule_flags,
            """
            $ site-builder revisions --slug first-draft
            site-builder: no revision with slug first-draft; left out: first-draft (a draft); --drafts includes it
            $ site-builder revisions --slug gift
            site-builder: no revision with slug gift; left out: gift (scheduled for 2026-12-24); --future includes it
            """,  # noqa: E501
            key="revisionsSlug",
        ),
        paragraph(
            "`SOURCE_DATE_EPOCH` must be a whole number of seconds when it is set (an empty value "
            "counts as unset). Anything else stops `build`, `serve`, `validate`, `revisions`, "
            "`init` and `new` with nothing written, as a usage error:"
        ),
        verified_output(
            schedule_flags,
            expected={
                "SOURCE_DATE_EPOCH": {
                    "abc": {
                        "exit": 2,
                        "stderr": [
                            "site-builder: SOURCE_DATE_EPOCH must be a whole number of seconds, not 'abc'"
                        ],
                    },
                    "1.5": {
                        "exit": 2,
                        "stderr": [
                            "site-builder: SOURCE_DATE_EPOCH must be a whole number of seconds, not '1.5'"
                        ],
                    },
                },
            },
        ),
        heading("init and new"),
        paragraph(
            "`site-builder init [DIR]` writes a starter site that builds at once — settings, "
            "an article with a fixture, a figure, a `.gitignore` and a GitHub Actions "
            "workflow — and refuses, with exit code 2 and nothing written, a folder that "
            "already holds a site or any file it would write. `site-builder new SLUG` adds "
            "a revision skeleton whose fixture is a stub that fails until you write it, in a "
            "new batch module or, with `--batch NAME`, at the end of `articles/NAME.py`; a "
            "slug that is malformed or already taken exits with 2. "
            "[Getting started](/articles/getting-started/) shows both at work."
        ),
        heading("Exit codes"),
        paragraph(
            "Every command ends with one of three exit codes, so a script or a CI step can tell "
            "them apart; a command stopped by Ctrl-C ends with `130`, as a shell reports it, with no "
            "traceback and, for `build`, the previous site untouched (`serve` ends with `0`):"
        ),
        data_table(
            "Exit codes",
            ["code", "means", "for example"],
            [
                [
                    "`0`",
                    "all is well",
                    "the site is valid, built or served; its warnings (a category spelt close to "
                    "another) are printed and change nothing",
                ],
                [
                    "`1`",
                    "the site has a problem",
                    "an error-level problem in an article, a template or the settings, a failing "
                    "fixture, a `verified_output` that drifted, a file of the site that cannot be "
                    "read; nothing is written. Also a stdout that cannot take the output: a full "
                    "disk, said in one line, or a reader that went away "
                    "(`site-builder revisions | head`), said nothing about, as a shell's own "
                    "commands say nothing",
                ],
                [
                    "`2`",
                    "the command line is wrong",
                    "an unknown command, option or value; a fixture id or slug the site does not "
                    "have; no site found, or `--root` on a folder without one; an `--out` that "
                    "cannot be an output folder; a `serve` address or port that cannot be used; "
                    "a `SOURCE_DATE_EPOCH` that is not a number; `--no-wait` while another "
                    "command is running on the site",
                ],
            ],
        ),
        paragraph(
            "A mistake in the command line stops the command before it checks or writes "
            "anything, with exit code 2, nothing on stdout, and the reason as the last line on "
            "stderr (for a mistake argparse catches, the usage line comes above it; `SITE` stands "
            "for the temporary site's folder, and `BUSY` for a port another program already "
            "listens on). A mistyped command or option, and a settings table named like the "
            "command (`[tool.site-builder]`), are answered with the name meant, by the same "
            "closeness rule as a mistyped field:"
        ),
        verified_output(
            usage_errors,
            expected={
                "refused": {
                    "build --jobs 0": {
                        "exit": 2,
                        "says": "site-builder build: error: argument --jobs: must be 1 or more",
                    },
                    "validate --format xml": {
                        "exit": 2,
                        "says": "site-builder validate: error: argument --format: invalid choice: 'xml' "
                        "(choose from 'text', 'json', 'github')",
                    },
                    "revisions --indent -1": {"exit": 2, "says": "site-builder: --indent must be 0 or more"},
                    "bulid": {
                        "exit": 2,
                        "says": "site-builder: error: unknown command 'bulid'; did you mean 'build'?",
                    },
                    "build --drafs": {
                        "exit": 2,
                        "says": "site-builder build: error: unrecognized option '--drafs'; did you mean "
                        "'--drafts'?",
                    },
                    "validate --bogus": {
                        "exit": 2,
                        "says": "site-builder validate: error: unrecognized option '--bogus'",
                    },
                    "publish": {
                        "exit": 2,
                        "says": "site-builder: error: unknown command 'publish' (commands: validate, "
                        "verify, build, serve, revisions, check-sources, init, new)",
                    },
                    "build --out .": {
                        "exit": 2,
                        "says": "site-builder: the output folder SITE would replace the site itself; "
                        "choose another --out",
                    },
                    "build --out pyproject.toml": {
                        "exit": 2,
                        "says": "site-builder: the output folder SITE/pyproject.toml is a file; choose "
                        "another --out",
                    },
                    "build --out articles/site": {
                        "exit": 2,
                        "says": "site-builder: the output folder SITE/articles/site overlaps the site's "
                        "articles/ folder; choose another --out",
                    },
                    "revisions --slug nope": {"exit": 2, "says": "site-builder: no revision with slug nope"},
                    "serve --port 70000": {
                        "exit": 2,
                        "says": "site-builder serve: error: argument --port: must be 0 to 65535",
                    },
                    "build, [tool.site-builder]": {
                        "exit": 2,
                        "says": "site-builder: no pyproject.toml with [tool.site_builder] in SITE or above; "
                        "SITE/pyproject.toml has [tool.site-builder]: did you mean [tool.site_builder]?",
                    },
                    "serve --port BUSY": {
                        "exit": 2,
                        "says": "site-builder: cannot serve on 127.0.0.1 port BUSY: Address already in use",
                    },
                },
            },
        ),
    ],
    sources=[
        Source(
            title="argparse — Parser for command-line options",
            url="https://docs.python.org/3/library/argparse.html#exiting-methods",
            note="ArgumentParser.error() prints the usage and exits with status 2",
        ),
    ],
)

revisions = [commands]
