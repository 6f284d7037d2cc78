"""Documentation: installing site_builder, starting a site with init, building, adding articles."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

from _tool import run_in, session

from site_builder import (
    Source,
    code_block,
    data_table,
    fixture,
    heading,
    markdown,
    paragraph,
    revision,
    transcript,
    verified_output,
)
from site_builder.starter.origin import origin


def _started(lang: str = "en") -> tuple[Path, list[str]]:
    """``site-builder init mysite`` in a new temporary folder: the site and what init said."""
    here = Path(tempfile.mkdtemp(prefix="docs-init-"))
    ran = run_in(here, "init", "mysite", *(("--lang", lang) if lang != "en" else ()))
    if ran.code != 0:
        raise RuntimeError("\n".join(ran.lines))
    return here / "mysite", ran.lines


@fixture
def starting_a_site() -> dict:
    """``site-builder init mysite`` typed in an empty folder: what it says, and whether every
    file it names is there."""
    here = Path(tempfile.mkdtemp(prefix="docs-init-"))
    ran = session(here, ["init", "mysite"])
    root = here / "mysite"
    written = [line.removeprefix("wrote mysite/") for line in ran.lines if line.startswith("wrote ")]
    # The note depends on how the tool was installed (Deploying shows each way): left out here.
    note = [line for line in ran.lines if line.startswith("note: ")]
    return {
        "transcript": [line for line in ran.lines if not line.startswith("note: ")],
        "checks": {
            "initSucceeded": ran.codes == [0],
            "sixFiles": len(written) == 6,
            "everyFileExists": all((root / name).is_file() for name in written),
            "aNoteExactlyWhenCiCannotInstallIt": len(note) == (origin().note is not None)
            and all(origin().requirement in line or "push that commit" in line for line in note),
        },
    }


@fixture
def building_the_starter() -> dict:
    """The starter site builds and validates with no problem at once."""
    root, _ = _started()
    ran = session(root, ["build"], ["validate", "--format", "github"])
    return {
        "transcript": ran.lines,
        "checks": {
            "bothExitZero": ran.codes == [0, 0],
            "built": (root / "build" / "articles" / "your-first-verified-article" / "index.html").is_file(),
            "noAnnotation": not any(line.startswith("::") for line in ran.lines),
        },
    }


@fixture
def init_refuses_a_site() -> dict:
    """init in a folder that already holds a site writes nothing."""
    root, _ = _started()
    before = sorted(p.relative_to(root).as_posix() for p in root.rglob("*"))
    again = session(root, ["init"])
    after = sorted(p.relative_to(root).as_posix() for p in root.rglob("*"))
    return {
        "transcript": again.lines,
        "checks": {"exitsWithTwo": again.codes == [2], "nothingWritten": before == after},
    }


@fixture
def a_new_article() -> dict:
    """new adds a skeleton whose fixture stub fails until it is written."""
    root, _ = _started()
    ran = session(root, ["new", "second-article"], ["validate"])
    said = ran.lines[ran.lines.index("$ site-builder validate") :]
    stub = [line for line in said if "fixture second_article:" in line]
    return {
        "transcript": ran.lines,
        "checks": {
            "newExitsWithZero": ran.codes[:1] == [0],
            "validateFails": ran.codes[1:] == [1],
            "theStubFailsAtItsLine": bool(stub) and stub[0].startswith("articles/second_article.py:"),
        },
    }


@fixture
def a_taken_slug_or_module() -> dict:
    """new refuses a slug the site uses, and a module name another slug's batch has, saying
    what to do instead; the ``--batch`` it advises then works."""
    root, _ = _started()
    first = run_in(root, "new", "second-article")
    before = sorted(p.relative_to(root).as_posix() for p in root.rglob("*"))
    ran = session(root, ["new", "second-article"], ["new", "first-article"])
    after = sorted(p.relative_to(root).as_posix() for p in root.rglob("*"))
    advised = re.search(r"with --batch (\w+),", ran.lines[-1])
    batch = run_in(root, "new", "first-article", "--batch", advised.group(1)) if advised else None
    return {
        "transcript": ran.lines,
        "checks": {
            "firstWrote": first.code == 0,
            "bothExitTwo": ran.codes == [2, 2],
            "nothingWritten": before == after,
            "theAdvisedBatchWorks": batch is not None and batch.code == 0,
        },
    }


@fixture
def a_russian_site() -> dict:
    """init --lang ru: the settings' language, and the chrome of the built home page."""
    root, _ = _started("ru")
    settings = (root / "pyproject.toml").read_text("utf-8")
    language = re.search(r'^language = "(\w+)"$', settings, re.MULTILINE)
    built = run_in(root, "build")
    home = (root / "build" / "index.html").read_text("utf-8") if built.code == 0 else ""
    tag = re.search(r'<html lang="(\w+)">', home)
    return {
        "language": language.group(1) if language else None,
        "htmlLang": tag.group(1) if tag else None,
        "checks": {
            "built": built.code == 0,
            "sameLanguage": bool(language and tag and language.group(1) == tag.group(1)),
        },
    }


getting_started = revision(
    slug="getting-started",
    title="Getting started",
    categories=["Guide"],
    excerpt="Install site_builder, start a site with init, build it, preview it and add an article.",
    published="2026-12-01",
    body=[
        paragraph(
            "This page takes you from nothing to a site that builds, checks itself and is ready "
            "to publish on GitHub Pages. You need Python 3.11 or newer and pip; nothing else."
        ),
        heading("Install"),
        paragraph(
            "Install site_builder into a virtual environment of its own, as you would any "
            "command-line tool, so that it never fights with packages of your system's Python "
            "(Debian and Ubuntu refuse `pip install` into the system Python anyway). From a "
            "clone of the project, or with the path of a wheel built from it "
            "(`python -m build`):"
        ),
        code_block(
            """\
python3 -m venv ~/.venvs/site-builder
~/.venvs/site-builder/bin/pip install .    # in the project's folder; or the path of a .whl file
~/.venvs/site-builder/bin/site-builder --version""",
            language="sh",
        ),
        paragraph(
            "Add `~/.venvs/site-builder/bin` to your `PATH`, or install with `pipx install` "
            "instead, which makes such an environment for you. The commands below are written "
            "as `site-builder`; `python -m site_builder` is the same program."
        ),
        heading("Start a site"),
        paragraph(
            "`site-builder init DIR` writes a starter site into `DIR` (by default the current "
            "folder): the settings, one article with a fixture, a figure, a `.gitignore` and a "
            "GitHub Actions workflow. It prints every file it wrote and what to type next. When "
            "the workflow's line that installs site-builder cannot work on GitHub's runners (you "
            "installed the tool from a folder of your machine, as above), it adds a `note:` "
            "saying which line to change and how ([Deploying](/articles/deploying/#github-pages) "
            "shows each case):"
        ),
        transcript(
            starting_a_site,
            """
            $ site-builder init mysite
            wrote mysite/pyproject.toml
            wrote mysite/.gitignore
            wrote mysite/.github/workflows/site.yml
            wrote mysite/.github/workflows/sources.yml
            wrote mysite/articles/first_article.py
            wrote mysite/assets/first-article/how-a-page-is-made.svg
            next:
              cd mysite
              site-builder build
              site-builder serve
            """,
        ),
        data_table(
            "What init writes",
            ["file", "what it is for"],
            [
                [
                    "`pyproject.toml`",
                    "the settings (`[tool.site_builder]`), every optional key with its default",
                ],
                [
                    "`articles/first_article.py`",
                    "one revision: an article with a fixture, a `verified_output`, a figure, two sources",
                ],
                ["`assets/first-article/how-a-page-is-made.svg`", "the figure the article shows"],
                [
                    "`.gitignore`",
                    "keeps the output folder `build/` and the cache `.site-builder-cache/` out of git",
                ],
                [
                    "`.github/workflows/site.yml`",
                    "validates pull requests; builds and deploys the default branch to GitHub Pages",
                ],
                [
                    "`.github/workflows/sources.yml`",
                    "once a week, asks every cited page whether it still answers and holds its quote "
                    "([Checking sources](/articles/checking-sources/#in-ci))",
                ],
            ],
        ),
        paragraph(
            "`--lang ru` or `--lang ko` writes the starter article in Russian or Korean and "
            "sets the site's `language`, which is also the language of the site's own words "
            "(menus, dates, the 404 page) and of each page's `lang` attribute:"
        ),
        verified_output(a_russian_site, expected={"language": "ru", "htmlLang": "ru"}),
        paragraph(
            "`init` never overwrites anything. In a folder that already holds a site — a "
            "`pyproject.toml` with `[tool.site_builder]`, or an `articles/` folder — it writes "
            "nothing and exits with 2; if just one of its files already exists, it names that "
            "file and writes nothing either. Typed again in `mysite`:"
        ),
        transcript(
            init_refuses_a_site,
            """
            $ site-builder init
            site-builder: . already holds a site: it has an articles/ folder; nothing was written
            """,
        ),
        heading("Build, check and preview"),
        paragraph(
            "In the site's folder, `site-builder build` validates every article, runs every "
            "fixture, renders the pages, checks every link of the result, indexes it for "
            "search and only then replaces `build/` as a whole. `site-builder validate` does "
            "the same checks and writes nothing; with `--format github` it prints each problem "
            "as a GitHub annotation, and no annotation at all when there is nothing to say, only "
            "its `ok:` line. The starter site passes both at once (the seconds the build took are "
            "shown as `…`, since they vary):"
        ),
        transcript(
            building_the_starter,
            """
            $ site-builder build
            built 1 revision, 5 pages in … s
            $ site-builder validate --format github
            ok: 1 revision valid, 1 fixture passed
            """,
        ),
        paragraph(
            "`site-builder serve` builds the site into its cache folder, serves it on "
            "http://127.0.0.1:8000/ and rebuilds whenever you save a file of the site; open "
            "pages reload by themselves, and a change that does not build shows its problems "
            "over the last good page instead of replacing it."
        ),
        heading("Read the starter article"),
        paragraph(
            "Open `articles/first_article.py` beside its page. It is an ordinary Python "
            "module: sources are `Source(...)` values, the text is a list of helper calls "
            "(`paragraph`, `heading`, `code_block`, `figure`, …), and the number the article "
            "states is printed by `verified_output(...)` from what its `@fixture` function "
            "really returns. Change the expected value in the article and `validate` fails; "
            "change the code the fixture runs so that it returns something else and it fails "
            "too. [Writing an article](/articles/writing-articles/) explains every helper and "
            "[Fixtures and verified output](/articles/fixtures/) every rule of fixtures."
        ),
        heading("Add an article"),
        paragraph(
            "`site-builder new SLUG` writes a skeleton of a new revision into its own batch "
            "module (or, with `--batch NAME`, appends it to `articles/NAME.py`). Its fixture is "
            "a stub that fails until you write it, and its list of sources is empty (the form "
            "of one is in a comment) until you cite real ones, so a half-written article can "
            "never be published by accident; the command says so and points at the line:"
        ),
        transcript(
            a_new_article,
            """
            $ site-builder new second-article
            wrote articles/second_article.py: a skeleton of second-article
            articles/second_article.py:9: fixture second_article:second_article_result: a stub that fails (writeThisFixture = false) until you write it
            next: make the fixture compute what the article shows, write the body (5,000 to 15,000 characters of text) and at least 2 real sources, then run:
              site-builder validate
            $ site-builder validate
            articles/second_article.py:9: fixture second_article:second_article_result: checks failed: writeThisFixture = false (each check must be true)
            articles/second_article.py:21: second-article: body is 248 characters; at least 5,000 are required
            articles/second_article.py:28: second-article: cites 0 sources; at least 2 are required
            3 problems found
            """,  # noqa: E501
        ),
        paragraph(
            "A slug the site already uses (drafts and scheduled revisions included) is "
            "refused; so is a module name another article's batch has, with the way to add "
            "to that module instead. Both exit with 2 and write nothing. Here `new "
            "second-article` is typed a second time, then `new first-article`, whose module "
            "would be the starter's `first_article.py`:"
        ),
        transcript(
            a_taken_slug_or_module,
            """
            $ site-builder new second-article
            site-builder: slug 'second-article' is already used in articles/second_article.py; choose another slug
            $ site-builder new first-article
            site-builder: articles/first_article.py already exists; add the revision to it with --batch first_article, or choose another slug
            """,  # noqa: E501
        ),
        markdown(
            "Every problem comes as `PATH:LINE: SUBJECT: message`, the form editors and "
            "terminals turn into a link to the line. Fix them one by one and run `validate` "
            "again; [Validation rules](/articles/validation-rules/) and [Site-wide "
            "rules](/articles/site-wide-rules/) list every rule with the exact line it prints."
        ),
        heading("Publish"),
        paragraph(
            "Push the folder to a GitHub repository, turn on Pages with *GitHub Actions* as "
            "its source, and set `base_url` in `pyproject.toml` to the address Pages gives "
            "you. From then on every pull request is validated (problems appear on its lines) "
            "and every push to the default branch is built and published. "
            "[Deploying](/articles/deploying/) covers project sites under a sub-path and "
            "other hosts."
        ),
    ],
    sources=[
        Source(
            title="Python Packaging User Guide: Installing stand alone command line tools",
            url="https://packaging.python.org/en/latest/guides/installing-stand-alone-command-line-tools/",
            note="why a command-line tool gets a virtual environment of its own (pipx)",
        ),
        Source(
            title="PEP 668: Marking Python base environments as externally managed",
            url="https://peps.python.org/pep-0668/",
            note="why Debian's and Ubuntu's pip refuse to install into the system Python",
        ),
    ],
)

revisions = [getting_started]
