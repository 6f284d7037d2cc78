"""Documentation: deploying a built site, at a domain's root or under a sub-path."""

from __future__ import annotations

import json
import re
import shutil
import tempfile
from pathlib import Path

from _pages_kit import files_by_hash, kept_texts
from _tool import article, run, run_in, session, site

from site_builder import (
    Source,
    code_block,
    data_table,
    fixture,
    heading,
    paragraph,
    revision,
    transcript,
    verified_output,
)
from site_builder.starter.origin import from_direct_url, from_folder, origin

PROJECT_SITE = """\
[tool.site_builder]
title = "Demo"
base_url = "https://octo.github.io/handbook/"
min_body_chars = 20
min_sources = 1
"""

LINKING = article().replace(
    'paragraph("This article exists so the tool has something to check.")',
    'paragraph("See [the other article](/articles/other/) and [this page](/articles/demo/)."),\n'
    '              paragraph("A figure lives under [/assets/](/assets/dot.svg).")',
)
DOT = '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><circle cx="4" cy="4" r="4"/></svg>'


@fixture
def cache_in_ci() -> dict:
    """A three-article site built, then a fresh copy of its sources with only the cache copied
    in (its files' times kept, as actions/cache restores them), built: the batches summarized
    again and the output against the first build's."""
    files = {f"articles/{slug}.py": article(slug, slug.title()) for slug in ("alpha", "beta", "gamma")}
    first = site(files)
    built = run(first, "build")
    clone = site(files)
    shutil.copytree(first / ".site-builder-cache", clone / ".site-builder-cache")
    kept = kept_texts(clone)
    again = session(clone, ["build"])
    return {
        "clone": again.lines,
        "batchesSummarizedAgain": sum(kept_texts(clone).get(name) != stat for name, stat in kept.items()),
        "sameSiteAsTheFirstBuild": files_by_hash(clone / "build") == files_by_hash(first / "build"),
        "checks": {"bothBuilt": built.code == 0 and again.codes == [0], "threeKept": len(kept) == 3},
    }


def _built(settings: str) -> Path:
    root = site(
        {
            "articles/demo.py": LINKING,
            "articles/other.py": article("other", "Other"),
            "assets/dot.svg": DOT,
        },
        settings,
    )
    ran = run(root, "build")
    if ran.code != 0:
        raise RuntimeError("\n".join(ran.lines))
    return root / "build"


def _attribute(html: str, pattern: str) -> str:
    found = re.search(pattern, html)
    return found.group(1) if found else ""


@fixture
def project_site_urls() -> dict:
    """A site whose base_url has a path: what its pages, feed and sitemap link to."""
    out = _built(PROJECT_SITE)
    home = (out / "index.html").read_text("utf-8")
    page = (out / "articles" / "demo" / "index.html").read_text("utf-8")
    urls = {
        "stylesheet": _attribute(home, r'<link rel="stylesheet" href="([^"]+style\.css)"'),
        "searchScript": _attribute(home, r'<script src="([^"]+pagefind-ui\.js)"'),
        "homeLink": _attribute(home, r'<a class="site-title" href="([^"]+)"'),
        "authorsLink": _attribute(page, r'<a href="([^"]*other[^"]*)"'),
        "canonical": _attribute(page, r'<link rel="canonical" href="([^"]+)"'),
        "ogUrl": _attribute(page, r'<meta property="og:url" content="([^"]+)"'),
        "sitemapFirst": _attribute((out / "sitemap.xml").read_text("utf-8"), r"<loc>([^<]+)</loc>"),
    }
    inside = all(u.startswith(("/handbook/", "https://octo.github.io/handbook/")) for u in urls.values())
    return {"urls": urls, "checks": {"everyUrlUnderTheBasePath": inside}}


@fixture
def content_html_as_written() -> dict:
    """What revisions.json carries for the same site-relative link."""
    out = _built(PROJECT_SITE)
    data = json.loads((out / "revisions.json").read_text("utf-8"))
    demo = next(r for r in data if r["slug"] == "demo")
    link = _attribute(demo["contentHtml"], r'<a href="([^"]*other[^"]*)"')
    page = (out / "articles" / "demo" / "index.html").read_text("utf-8")
    return {
        "contentHtmlLink": link,
        "pageLink": _attribute(page, r'<a href="([^"]*other[^"]*)"'),
        "checks": {"keptAsWritten": link == "/articles/other/"},
    }


@fixture
def pages_workflow() -> dict:
    """The jobs of the workflow init writes, and the steps of its deploy job."""
    here = Path(tempfile.mkdtemp(prefix="docs-pages-"))
    ran = run_in(here, "init")
    text = (here / ".github" / "workflows" / "site.yml").read_text("utf-8") if ran.code == 0 else ""
    jobs = re.findall(r"^  (\w+):$", text.split("\njobs:\n", 1)[-1], re.MULTILINE)
    deploy = text.split("\n  deploy:\n", 1)[-1]
    installs = f'run: python -m pip install "{origin().requirement}"'
    steps = [m.group(1) for m in re.finditer(r"^\s+(?:- )?((?:uses|run): .+)$", deploy, re.MULTILINE)]
    steps = [step.replace(origin().requirement, "REQUIREMENT") for step in steps]  # this machine's
    triggers = text.split("\non:\n", 1)[-1].split("\n\n", 1)[0]
    return {
        "jobs": jobs,
        "deploySteps": steps,
        "on": re.findall(r"^  (\w+):", triggers, re.MULTILINE),
        "deployRunsIf": re.search(r"^    if: (.+)$", deploy, re.MULTILINE).group(1),
        "checks": {
            "initExitsWithZero": ran.code == 0,
            "deploysWithPagesActions": "uses: actions/deploy-pages@v4" in steps,
            "bothJobsInstallTheToolThatWroteIt": text.count(installs) == 2,
            "noScheduleYet": "schedule:" not in text and "cron" not in text,
        },
    }


@fixture
def install_lines() -> dict:
    """The requirement init writes for each way site-builder can have been installed (what
    ``direct_url.json`` says of it; a folder with no git remote), and the note it adds."""
    wheel = "https://files.example/site_builder-0.1.0-py3-none-any.whl"
    ways = {
        "a package index": from_direct_url(None),
        "git": from_direct_url({"url": "https://github.com/you/site_builder", "vcs_info": GIT}),
        "a wheel on a server": from_direct_url({"url": wheel, "archive_info": {}}),
        "a folder of this machine": from_folder(Path("/home/you/site_builder")),
    }
    shown: dict[str, object] = {
        way: {"requirement": f.requirement, "note": f.note} for way, f in ways.items()
    }
    return {
        **shown,
        "checks": {
            "eachInstallsSiteBuilder": all(f.requirement.startswith("site-builder") for f in ways.values()),
            "aNoteOnlyForThisMachine": [f.note is not None for f in ways.values()]
            == [False, False, False, True],
        },
    }


GIT = {"vcs": "git", "commit_id": "4f2c9d1e8b7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e"}


deploying = revision(
    slug="deploying",
    title="Deploying a site",
    categories=["Guide"],
    excerpt="Publishing build/ on GitHub Pages or any static host, at a domain's root or under a sub-path.",
    published="2026-12-01",
    body=[
        paragraph(
            "`site-builder build` writes the whole site into one folder, `build/` by default "
            "(the `output_dir` setting). Everything in it is a static file: HTML pages, the "
            "theme, the assets, the feed, the sitemap, the search index under `pagefind/` and "
            "`revisions.json`. Deploying is copying that folder to a web server; nothing runs "
            "on the server."
        ),
        paragraph(
            "The build replaces the folder in one step (it writes a new copy beside it and "
            "swaps the two), so a server that serves `build/` directly never sees half a site, "
            "and a build that fails leaves the previous site as it was."
        ),
        heading("base_url: where the site will live"),
        paragraph(
            "The `base_url` setting is the absolute address the site is served from. The feed, "
            "the sitemap, every page's canonical link and the tags social sites and search "
            "engines read (`og:url`, `og:image`, the JSON-LD; see [Templates and "
            "theming](/articles/templates-and-theming/)) use it in full. It may end in a path: "
            "`https://example.org/` puts the site at a domain's root, "
            "`https://USER.github.io/REPO/` puts it in the folder `/REPO/` of a host, as GitHub "
            "Pages does for a project site."
        ),
        data_table(
            "Typical base_url values",
            ["where the site is served", "base_url"],
            [
                ["a domain of its own", "`https://docs.example.org/`"],
                ["a GitHub Pages user or organisation site", "`https://USER.github.io/`"],
                ["a GitHub Pages project site", "`https://USER.github.io/REPO/`"],
                ["a folder of another site", "`https://example.org/blog/`"],
            ],
        ),
        heading("Sites under a sub-path"),
        paragraph(
            "Authors keep writing links as if the site were at the root of its host: "
            '`[text](/articles/other/)`, `figure("/assets/x.svg", …)`, `cover="/assets/c.svg"`. '
            "Validation checks those against the site's own pages and assets folder. When the "
            "pages are written, every URL the generator puts in them — the theme, the favicon, "
            "the search scripts, links between pages, category links, covers, figures and the "
            "authors' own site-relative links — is placed under the path of `base_url`. Here is "
            'what a build of a small site with `base_url = "https://octo.github.io/handbook/"` '
            "links to:"
        ),
        verified_output(
            project_site_urls,
            expected={
                "urls": {
                    "stylesheet": "/handbook/theme/style.css",
                    "searchScript": "/handbook/pagefind/pagefind-ui.js",
                    "homeLink": "/handbook/",
                    "authorsLink": "/handbook/articles/other/",
                    "canonical": "https://octo.github.io/handbook/articles/demo/",
                    "ogUrl": "https://octo.github.io/handbook/articles/demo/",
                    "sitemapFirst": "https://octo.github.io/handbook/",
                }
            },
        ),
        paragraph(
            "The build's own link check reads the written pages with the same rule, so a link "
            "that would leave the sub-path once deployed is reported before anything is "
            "published. `site-builder serve` serves the preview under the same path "
            "(`http://127.0.0.1:8000/handbook/`), with the 404 page built for it, so what you "
            "click locally is what readers will click."
        ),
        heading("What revisions.json carries"),
        paragraph(
            "`revisions.json` and the `revisions` command are read by other systems that "
            "import the articles into their own sites. Their `contentHtml` keeps links exactly "
            "as the author wrote them, site-relative, whatever `base_url` says: an importer "
            "resolves them against its own base. Only the pages of this site are rewritten:"
        ),
        verified_output(
            content_html_as_written,
            expected={"contentHtmlLink": "/articles/other/", "pageLink": "/handbook/articles/other/"},
        ),
        heading("GitHub Pages"),
        paragraph(
            "A site made by `site-builder init` already carries a workflow, "
            "`.github/workflows/site.yml`, that checks pull requests and deploys the default "
            "branch with GitHub's own Pages actions. To turn it on, open the repository's "
            "*Settings → Pages* and choose *GitHub Actions* as the source; then set `base_url` "
            "to the address GitHub shows there (a project site's address ends in the "
            "repository's name). The workflow's deploy job, in short (`REQUIREMENT` is below):"
        ),
        verified_output(
            pages_workflow,
            expected={
                "jobs": ["validate", "deploy"],
                "deploySteps": [
                    "uses: actions/checkout@v4",
                    "uses: actions/setup-python@v5",
                    'run: python -m pip install "REQUIREMENT"',
                    "uses: actions/configure-pages@v5",
                    "run: site-builder build",
                    "uses: actions/upload-pages-artifact@v3",
                    "uses: actions/deploy-pages@v4",
                ],
            },
        ),
        paragraph(
            "Both jobs install the site-builder that wrote the site, from where it was installed, "
            "so a new release never changes what a build does without a commit: `REQUIREMENT` is "
            "read from what pip recorded of the install (its `direct_url.json`). A clone whose "
            "`origin` is on a server gives that commit from there, and `init` says to push it. "
            "Installed from a folder that only your machine has, the line works on your machine "
            "but not on GitHub's runners, and `init` says so in a `note:`. Change the line in "
            "both jobs to upgrade, or to install from elsewhere (a wheel kept in the repository, "
            "a git URL and tag):"
        ),
        verified_output(
            install_lines,
            expected={
                "a package index": {"requirement": "site-builder==0.1.0", "note": None},
                "git": {
                    "requirement": "site-builder @ git+https://github.com/you/site_builder"
                    "@4f2c9d1e8b7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e",
                    "note": None,
                },
                "a wheel on a server": {
                    "requirement": "site-builder @ https://files.example/site_builder-0.1.0-py3-none-any.whl",
                    "note": None,
                },
                "a folder of this machine": {
                    "requirement": "site-builder @ file:///home/you/site_builder",
                    "note": "this site-builder was installed from this machine "
                    "(file:///home/you/site_builder), which GitHub's runners cannot reach: in "
                    ".github/workflows/ (site.yml, both jobs, and sources.yml), change "
                    '"site-builder @ '
                    'file:///home/you/site_builder" to a requirement they can install, e.g. '
                    '"site-builder @ git+https://github.com/OWNER/REPOSITORY@TAG"',
                },
            },
        ),
        paragraph(
            "A CI run starts from a fresh clone, without `.site-builder-cache/`, so its build loads "
            "every batch, runs every fixture and draws every SVG cover's PNG for social sites again. "
            "For a site with slow fixtures or many covers, keep the folder between runs with "
            "GitHub's cache action: add this step to the deploy job's `steps`, before the one that "
            "runs `site-builder build`, at that list's indentation. "
            "Restoring an older cache is safe: every entry is keyed by a hash of what it was made "
            "from, so an entry that no longer fits is simply not used."
        ),
        code_block(
            """
- uses: actions/cache@v4
  with:
    path: .site-builder-cache
    key: site-builder-${{ github.sha }}
    restore-keys: site-builder-
""",
            language="yaml",
        ),
        paragraph(
            "A fixture builds a three-article site, then copies only its cache into a fresh copy "
            "of the same sources, which has no `build/` folder, and builds that (the seconds it "
            "took shown as `…`):"
        ),
        transcript(
            cache_in_ci,
            """
            $ site-builder build
            built 3 revisions, 7 pages in … s
            """,
            key="clone",
        ),
        paragraph(
            "No batch is summarized again, so no article is imported and no fixture runs, and the "
            "site is the first build's, byte for byte (the article pages are rendered again from "
            "what the cache kept):"
        ),
        verified_output(
            cache_in_ci,
            expected={"batchesSummarizedAgain": 0, "sameSiteAsTheFirstBuild": True},
        ),
        heading("Scheduled revisions need a build on their day"),
        paragraph(
            "A revision dated after the build's date is *scheduled*: the build leaves it out (see "
            "[Writing an article](/articles/writing-articles/)). Nothing on a static host ever "
            "builds the site again by itself, so a scheduled revision is published only by the first "
            "build that runs on or after its date — that is the whole mechanism. The workflow "
            "`site-builder init` writes builds and deploys on a push to the default branch and when "
            "started by hand from the *Actions* tab (`workflow_dispatch`), and on nothing else; its "
            "triggers and the condition of its deploy job:"
        ),
        verified_output(
            pages_workflow,
            expected={
                "on": ["pull_request", "push", "workflow_dispatch"],
                "deployRunsIf": "github.event_name != 'pull_request'",
            },
        ),
        paragraph(
            "So a revision scheduled for a quiet day waits for the next push, or for you to run the "
            "workflow by hand. To have it appear on its day, give the workflow a schedule: add a "
            "`schedule` trigger next to the others. The deploy job runs for every event that is not a "
            "pull request, so it needs no change:"
        ),
        code_block(
            """
on:
  pull_request:
  push:
    branches: [main]  # your default branch
  workflow_dispatch:
  schedule:
    - cron: "17 0 * * *"  # every day at 00:17 UTC
""",
            language="yaml",
        ),
        paragraph(
            "GitHub reads `cron` in UTC, as site_builder reads dates, so a build shortly after "
            "midnight UTC publishes what is due that day. Scheduled runs start only from the default "
            "branch, may start late when GitHub is busy (the top of every hour is, hence the 17), and in a "
            "public repository GitHub turns them off after 60 days without activity in it. A "
            "daily build of an unchanged site publishes identical files, and the deploy step "
            "replaces the site with the same site."
        ),
        paragraph(
            "Do not set `SOURCE_DATE_EPOCH` to the last commit's time in such a workflow "
            "(`SOURCE_DATE_EPOCH=$(git log -1 --format=%ct)`, the usual recipe for reproducible "
            "builds): it fixes the build's date to the day of that commit, and a daily build would "
            "then never reach the scheduled date. Set it where you want a build's output to be "
            "reproducible — to compare two builds, or to preview the site as it will be on a "
            "given day."
        ),
        heading("Any other static host"),
        paragraph(
            "Netlify, Cloudflare Pages, an S3 bucket or nginx all serve a folder of files. Run "
            "`site-builder build` in your deploy step (or locally) and publish `build/`. Two "
            "details make the site behave as built: serve `404.html` for unknown paths (most "
            "hosts do so by default when the file is at the root of the folder), and serve "
            "`.xml` and `.json` files with their usual content types. Set `base_url` to the "
            "address readers will use; a preview address that differs only in the host still "
            "works, since pages link by path, not by host."
        ),
    ],
    sources=[
        Source(
            title="GitHub Docs: Using custom workflows with GitHub Pages",
            url="https://docs.github.com/en/pages/getting-started-with-github-pages/using-custom-workflows-with-github-pages",
            note="the upload-pages-artifact and deploy-pages actions and the permissions they need",
        ),
        Source(
            title="GitHub Docs: Events that trigger workflows — schedule",
            url="https://docs.github.com/en/actions/using-workflows/events-that-trigger-workflows#schedule",
            note="cron in UTC, runs from the default branch only, delays, and the 60-day rule",
        ),
        Source(
            title="Reproducible Builds: SOURCE_DATE_EPOCH",
            url="https://reproducible-builds.org/docs/source-date-epoch/",
            note="the variable that fixes a build's date, in seconds since 1970-01-01 00:00 UTC",
        ),
        Source(
            title="GitHub Docs: Caching dependencies to speed up workflows",
            url="https://docs.github.com/en/actions/using-workflows/caching-dependencies-to-speed-up-workflows",
            note="actions/cache, its key and restore-keys",
        ),
        Source(
            title="GitHub Docs: About GitHub Pages",
            url="https://docs.github.com/en/pages/getting-started-with-github-pages/about-github-pages",
            note="user, organisation and project sites and their addresses",
        ),
    ],
)

revisions = [deploying]
