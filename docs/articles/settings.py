"""Documentation: every key of [tool.site_builder], the ordered navigation, the site root."""

import dataclasses
import json
import re

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

KEYS = [
    # key, type the tool accepts, default as JSON ("required" when there is none), meaning
    (
        "title",
        "str",
        "required",
        "The site's name: the header of every page, the home page heading, page titles, the feed.",
    ),
    (
        "base_url",
        "str",
        "required",
        "The absolute `http(s)` URL the site is served from; canonical links, the feed and the "
        "sitemap are written with it.",
    ),
    (
        "language",
        "str",
        '"en"',
        "A language tag (`en`, `ru`, `ko-KR`): the `lang` of revisions that do not set their own, "
        "and the language of the site's own words. It must have labels: `en`, `ru` and `ko` come "
        "with the package, any other language needs a `labels` table.",
    ),
    (
        "description",
        "str",
        '""',
        "Shown under the title on the home page, in the footer, as the meta description of the "
        "list pages and as the feed's subtitle.",
    ),
    ("min_body_chars", "int", "5000", "Fewest characters of visible body text a revision may have."),
    ("max_body_chars", "int", "15000", "Most characters of visible body text a revision may have."),
    ("min_sources", "int", "2", "Fewest sources each revision must cite (`0` turns the rule off)."),
    ("fixture_timeout", "int or float", "10.0", "Seconds one fixture may run before it counts as failed."),
    (
        "import_timeout",
        "int or float",
        "60.0",
        "Seconds importing one batch may take; a batch whose import does not finish is a problem at "
        "its file ([Site-wide rules](/articles/site-wide-rules/#modules-that-do-not-load)).",
    ),
    ("articles_dir", "str", '"articles"', "Folder of the batch modules, relative to the site root."),
    (
        "assets_dir",
        "str",
        '"assets"',
        "Folder of the files articles reference, relative to the site root; always served under `/assets/`.",
    ),
    (
        "output_dir",
        "str",
        '"build"',
        "Where `build` writes the site, relative to the site root (`--out DIR` overrides it).",
    ),
    (
        "sources_heading",
        "dict",
        "{}",
        'The heading of the sources section per language, e.g. `{ en = "Further reading" }`; '
        "Russian is always «Проверяемые источники».",
    ),
    (
        "nav",
        "list",
        "[]",
        "The ordered navigation, written as `[[tool.site_builder.nav]]` tables (see below).",
    ),
    (
        "repo_url",
        "str",
        '""',
        "The address of the site's repository, an absolute `http(s)` URL such as "
        "`https://github.com/me/notes`. With it, the mark under each verified output links to its "
        'fixture\'s source there; `""` means no repository (see below).',
    ),
    (
        "source_uri",
        "str",
        '"blob/main/"',
        "Where, under `repo_url`, the repository shows the files of the site root: "
        '`"blob/main/docs/"` for a site in a `docs/` folder, `"-/blob/main/"` on GitLab. Used only '
        "with `repo_url`.",
    ),
    (
        "author",
        "str",
        '""',
        "The site's author: the feed's `<author>`, `<meta name=\"author\">` on every page and the "
        "author in each article's JSON-LD. Empty: the site title, as an organisation (see below).",
    ),
    (
        "feed_limit",
        "int",
        "50",
        "How many of the newest articles the Atom feed holds (at least 1), one entry each; "
        "`revisions.json` holds every revision, the sitemap and the list pages every article.",
    ),
    (
        "source_max_age",
        "int",
        "7",
        "Days `check-sources` trusts a page it fetched: a run within them asks no server again, a "
        "later one asks whether the page changed. 0: ask every time "
        "([Checking sources](/articles/checking-sources/#what-it-keeps)).",
    ),
    (
        "labels",
        "dict",
        "{}",
        "The chrome's words per language, as `[tool.site_builder.labels.LANG]` tables: one for "
        "`en`, `ru` or `ko` changes the words it gives, one for another language adds it and gives "
        "every word ([Languages](/articles/languages/#adding-a-language-a-labels-table)).",
    ),
]
"""The table readers see; the fixtures below check it against the tool."""

EVERY_KEY_TRUE = "[tool.site_builder]\n" + "".join(f"{key} = true\n" for key, *_ in KEYS)
"""Settings where every key has the wrong type (a boolean fits none of them)."""

BROKEN = """\
[tool.site_builder]
title = "Demo"
min_body_chars = "20"
min_sources = 1
theme = "dark"
language = "English"
"""
"""Settings with one mistake of each kind; base_url is missing."""

NAV = """\
[[tool.site_builder.nav]]
section = "Start here"
pages = [
    ["gamma", "Install"],
    ["alpha", "First article"],
]

[[tool.site_builder.nav]]
section = "Reference"
pages = [["beta", "Settings"]]
"""
"""The reading order of the demonstration site: gamma, alpha, then beta; delta is left out."""

WRONG_NAV = """\
[[tool.site_builder.nav]]
section = "Start here"
pages = [
    ["alpha", "First article"],
    ["alpah", "A typo"],
    "beta",
]
"""


IN_DOCS = """\
[tool.site_builder]
title = "Notes"
base_url = "https://me.github.io/notes/"
min_body_chars = 20
min_sources = 1
repo_url = "https://github.com/me/notes"
source_uri = "blob/main/docs/"
"""
"""The settings of a site kept in the docs/ folder of the repository github.com/me/notes."""

PROVEN = """\
from site_builder import Source, fixture, paragraph, revision, verified_output


@fixture
def answer() -> dict:
    return {"answer": 6 * 7, "checks": {"is42": 6 * 7 == 42}}


revisions = [
    revision(
        slug="answer", title="Answer", categories=["Demo"], excerpt="42.", published="2026-12-01",
        body=[paragraph("The answer:"), verified_output(answer, expected={"answer": 42})],
        sources=[Source(title="CommonMark", url="https://spec.commonmark.org/0.31.2/", note="the syntax")],
    )
]
"""
"""``articles/answer.py``: one fixture, whose ``def`` is on line 5."""

WRONG_REPO = """\
[tool.site_builder]
title = "Notes"
base_url = "https://me.github.io/notes/"
min_body_chars = 20
repo_url = "github.com/me/notes"
source_uri = "../blob/main/"
min_sources = 1
"""


AUTHORED = """\
author = "Ann Example"
feed_limit = 2
"""
"""Added to the demonstration settings: an author, and a feed of the two newest revisions."""

WRONG_FEED = """\
author = ["Ann", "Bo"]
feed_limit = 0
"""


def _authorship(root) -> dict:
    """What a built site says of its author and what its feed holds."""
    feed = page(root, "feed.xml")
    ld = re.search(
        r'<script type="application/ld\+json">(.*?)</script>', page(root, "articles/beta/index.html")
    )
    return {
        "feedAuthor": re.findall(r"<author>\s*<name>(.*?)</name>", feed),
        "feedEntries": re.findall(r"<entry[^>]*>\s*<title>(.*?)</title>", feed),
        "revisionsJson": [entry["slug"] for entry in json.loads(page(root, "revisions.json"))],
        "metaAuthor": {
            name: re.findall(r'<meta name="author" content="([^"]*)">', page(root, name))
            for name in ("index.html", "articles/beta/index.html", "404.html")
        },
        "jsonLdAuthor": json.loads(ld.group(1))["author"],
    }


def _shown(value: object) -> str:
    return json.dumps(list(value) if isinstance(value, tuple) else value, ensure_ascii=False)


@fixture
def defaults() -> dict:
    """The defaults of the Settings dataclass, and which keys a site must set."""
    from site_builder.settings.project import Settings

    real = dataclasses.asdict(Settings())
    ran = run(site({"articles/demo.py": article()}, "[tool.site_builder]\n"), "validate")
    required = sorted(re.findall(r"missing required key '(\w+)'", ran.stderr))
    table = {key: default for key, _, default, _ in KEYS}
    shown = {key: "required" if key in required else _shown(value) for key, value in real.items()}
    return {
        "defaults": real,
        "required": required,
        "checks": {
            "everyKeyInTheTable": list(real) == list(table),
            "tableShowsTheRealDefaults": shown == table,
            "exitsWithOne": ran.code == 1,
        },
    }


@fixture
def wrong_types() -> dict:
    """Every key set to true: the tool names the type each key takes."""
    ran = run(site({"articles/demo.py": article()}, EVERY_KEY_TRUE), "validate")
    mine = [line for line in ran.lines if line.startswith("pyproject.toml:")]
    accepted = dict(re.findall(r"settings: (\w+) must be (.+), not bool$", ran.stderr, re.MULTILINE))
    return {
        "exit": ran.code,
        "settingsProblems": mine,
        "articleProblems": [line for line in ran.lines if line.startswith("articles/")],
        "checks": {
            "oneProblemPerKey": len(mine) == len(KEYS),
            "tableShowsTheRealTypes": accepted == {key: kind for key, kind, _, _ in KEYS},
            "articlesStillChecked": any(line.startswith("articles/demo.py:") for line in ran.lines),
        },
    }


@fixture
def broken_settings() -> dict:
    """An unknown key, a wrong type, a missing key and a wrong value, in one run."""
    ran = run(site({"articles/demo.py": article()}, BROKEN), "validate")
    return {
        "exit": ran.code,
        "stderr": [line for line in ran.lines if line.startswith("pyproject.toml:")],
        "checks": {
            "exitsWithOne": ran.code == 1,
            "fourSettingsProblems": sum(line.startswith("pyproject.toml:") for line in ran.lines) == 4,
        },
    }


@fixture
def source_links() -> dict:
    """Where the mark of a verified output links: with IN_DOCS, with the default source_uri, without."""
    hrefs = {}
    for name, settings in (
        ("source_uri = blob/main/docs/", IN_DOCS),
        ("source_uri left out", IN_DOCS.replace('source_uri = "blob/main/docs/"\n', "")),
        ("repo_url left out", SETTINGS),
    ):
        root = site({"articles/answer.py": PROVEN}, settings)
        ran = run(root, "build")
        found = re.search(
            r'<p class="proof"[^>]*><a href="([^"]*)"', page(root, "articles/answer/index.html")
        )
        hrefs[name] = found.group(1) if ran.code == 0 and found else None
    line = PROVEN.splitlines().index("def answer() -> dict:") + 1
    return {
        "markLinksTo": hrefs,
        "checks": {
            "atTheDefLine": all(href.endswith(f"answer.py#L{line}") for href in list(hrefs.values())[:2]),
            "noRepositoryNoSourceLink": hrefs["repo_url left out"] == "#fixture-answer",
        },
    }


@fixture
def wrong_repo() -> dict:
    """A repo_url without a scheme and a source_uri that climbs out of the repository."""
    ran = session(site({"articles/answer.py": PROVEN}, WRONG_REPO), ["validate"])
    return {
        "transcript": ran.lines,
        "checks": {"exitsWithOne": ran.codes == [1], "twoProblems": ran.lines[-1] == "2 problems found"},
    }


@fixture
def author_and_feed() -> dict:
    """Three articles on three days, built with AUTHORED and without; then WRONG_FEED."""
    days = {"alpha": "2026-11-01", "beta": "2026-11-15", "gamma": "2026-12-01"}
    files = {
        f"articles/{slug}.py": article(slug, slug.title()).replace("2026-12-01", day)
        for slug, day in days.items()
    }
    built = {}
    for name, settings in (("withAuthor", SETTINGS + AUTHORED), ("withoutAuthor", SETTINGS)):
        root = site(files, settings)
        ran = run(root, "build")
        built[name] = _authorship(root) if ran.code == 0 else {"exit": ran.code, "stderr": ran.lines}
    wrong = session(site(files, SETTINGS + WRONG_FEED), ["validate"])
    return {
        **built,
        "wrong": wrong.lines,
        "checks": {
            "wrongExitsWithOne": wrong.codes == [1],
            "feedIsTheNewestTwo": built["withAuthor"]["feedEntries"] == ["Gamma", "Beta"],
            "revisionsJsonHoldsAll": len(built["withAuthor"]["revisionsJson"]) == len(days),
        },
    }


@fixture
def reading_order() -> dict:
    """A site of four articles with NAV: the sidebar, the neighbours and the home page."""
    dated = {"alpha": "2026-10-01", "beta": "2026-10-02", "gamma": "2026-10-03", "delta": "2026-10-04"}
    files = {
        f"articles/{slug}.py": article(slug, slug.title()).replace("2026-12-01", day)
        for slug, day in dated.items()
    }
    root = site(files, SETTINGS + "\n" + NAV)
    ran = run(root, "build")
    alpha = page(root, "articles/alpha/index.html")
    sidebar = between(alpha, '<nav class="reading-nav"', "</nav>")
    home = page(root, "index.html")
    delta = page(root, "articles/delta/index.html")
    return {
        "alphaPage": {
            "sections": re.findall(r'<h2 class="reading-nav-section">(.*?)</h2>', sidebar),
            "links": re.findall(r'<a href="[^"]*"[^>]*>(.*?)</a>', sidebar),
            "current": re.findall(r'href="([^"]*)" aria-current="page"', sidebar),
            "previous": re.findall(r'rel="prev" href="([^"]*)"', alpha),
            "next": re.findall(r'rel="next" href="([^"]*)"', alpha),
        },
        "homeOrder": re.findall(r'<h2 class="card-title"><a href="([^"]*)"', home),
        "checks": {
            "built": ran.code == 0,
            "deltaHasTheSidebarButNoNeighbours": 'class="reading-nav"' in delta and 'rel="prev"' not in delta,
            "homeListsEveryArticle": home.count('class="card-title"') == len(dated),
        },
    }


@fixture
def wrong_nav() -> dict:
    """A slug that is no article, and an entry that is not a pair: problems at their lines."""
    files = {f"articles/{slug}.py": article(slug, slug.title()) for slug in ("alpha", "beta")}
    root = site(files, SETTINGS + "\n" + WRONG_NAV)
    ran = session(root, ["validate"])
    first = SETTINGS.count("\n") + 2  # the line of the [[tool.site_builder.nav]] header
    said = "\n".join(ran.lines)
    return {
        "transcript": ran.lines,
        "checks": {
            "exitsWithOne": ran.codes == [1],
            "typoAtItsLine": f"pyproject.toml:{first + 4}: settings: nav lists 'alpah'" in said,
            "pairAtItsLine": f"pyproject.toml:{first + 5}: settings: a nav page is a pair" in said,
        },
    }


settings_page = revision(
    slug="settings",
    title="Settings",
    categories=["Reference"],
    excerpt="Every key of [tool.site_builder], the ordered navigation, how the site root is found, "
    "and what a mistake in the settings looks like.",
    published="2026-12-01",
    body=[
        paragraph(
            "A site's settings live in its `pyproject.toml`, in the `[tool.site_builder]` table — the "
            "same file Python tools already read, so there is no separate configuration file to find. "
            "Only two keys are required. Here is the table of a small site that sets a few more:"
        ),
        code_block(
            """
[tool.site_builder]
title = "Field notes"
base_url = "https://notes.example/"
language = "en"
description = "Short, checked notes on HTTP and databases."
min_sources = 1
sources_heading = { en = "Further reading" }
""",
            language="toml",
        ),
        paragraph(
            "The settings are read once per command. Every key is checked: a key the tool does not "
            "know, a value of the wrong type and a missing required key are problems reported like "
            "any problem in an article, with the line of `pyproject.toml` where they are."
        ),
        heading("Every key"),
        data_table(
            "The keys of [tool.site_builder]",
            ["key", "type", "default", "meaning"],
            [
                [f"`{key}`", f"`{kind}`", default if default == "required" else f"`{default}`", meaning]
                for key, kind, default, meaning in KEYS
            ],
        ),
        paragraph(
            "The defaults in this table are not copied by hand. A fixture reads them from the "
            "`Settings` dataclass of the installed tool (the one `site_builder/settings/project.py` "
            "defines), finds which keys are required by validating a site whose table is empty, "
            "and fails if the table above says anything else:"
        ),
        verified_output(
            defaults,
            expected={
                "defaults": {
                    "title": "",
                    "base_url": "",
                    "language": "en",
                    "description": "",
                    "min_body_chars": 5000,
                    "max_body_chars": 15000,
                    "min_sources": 2,
                    "fixture_timeout": 10.0,
                    "import_timeout": 60.0,
                    "articles_dir": "articles",
                    "assets_dir": "assets",
                    "output_dir": "build",
                    "sources_heading": {},
                    "nav": [],
                    "repo_url": "",
                    "source_uri": "blob/main/",
                    "author": "",
                    "feed_limit": 50,
                    "source_max_age": 7,
                    "labels": {},
                },
                "required": ["base_url", "title"],
            },
        ),
        paragraph(
            "The type column comes from the tool too. Set every key to `true` — a boolean is the one "
            "value that fits none of them — and `validate` names the type each key accepts, one line "
            "per key. TOML integers are Python `int`, TOML tables `dict`, TOML arrays `list`; "
            "`fixture_timeout` and `import_timeout` alone accept a fraction of a second:"
        ),
        verified_output(
            wrong_types,
            expected={
                "exit": 1,
                "settingsProblems": [
                    "pyproject.toml:2: settings: title must be str, not bool",
                    "pyproject.toml:3: settings: base_url must be str, not bool",
                    "pyproject.toml:4: settings: language must be str, not bool",
                    "pyproject.toml:5: settings: description must be str, not bool",
                    "pyproject.toml:6: settings: min_body_chars must be int, not bool",
                    "pyproject.toml:7: settings: max_body_chars must be int, not bool",
                    "pyproject.toml:8: settings: min_sources must be int, not bool",
                    "pyproject.toml:9: settings: fixture_timeout must be int or float, not bool",
                    "pyproject.toml:10: settings: import_timeout must be int or float, not bool",
                    "pyproject.toml:11: settings: articles_dir must be str, not bool",
                    "pyproject.toml:12: settings: assets_dir must be str, not bool",
                    "pyproject.toml:13: settings: output_dir must be str, not bool",
                    "pyproject.toml:14: settings: sources_heading must be dict, not bool",
                    "pyproject.toml:15: settings: nav must be list, not bool",
                    "pyproject.toml:16: settings: repo_url must be str, not bool",
                    "pyproject.toml:17: settings: source_uri must be str, not bool",
                    "pyproject.toml:18: settings: author must be str, not bool",
                    "pyproject.toml:19: settings: feed_limit must be int, not bool",
                    "pyproject.toml:20: settings: source_max_age must be int, not bool",
                    "pyproject.toml:21: settings: labels must be dict, not bool",
                ],
                "articleProblems": [
                    "articles/demo.py:10: demo: body is 55 characters; at least 5,000 are required",
                    "articles/demo.py:11: demo: cites 1 source; at least 2 are required",
                ],
            },
        ),
        paragraph(
            "The same run also checks the site's one article, against the default limits: a value "
            "that is wrong is replaced by its default, so the articles are still checked in the same "
            "run instead of hiding behind the settings' problems."
        ),
        heading("Problems in the settings"),
        paragraph(
            "Besides its type, a value is checked for what it means: `base_url` must be an absolute "
            "`http` or `https` URL, `language` a language tag, the limits must not be negative and "
            "`min_body_chars` not above `max_body_chars`, `fixture_timeout` and `import_timeout` "
            "more than zero, the three "
            "folders inside the site root (no absolute path, no `..`), `sources_heading` must map "
            "language tags to non-empty labels, and `feed_limit` be at least 1. `language` must "
            "also have labels, and each `labels` table is checked label by label, against its "
            "language's plural forms ([Languages](/articles/languages/#mistakes-in-a-labels-table) "
            "shows those problems; their rules are `settings-language` and `settings-labels`). A key "
            "the tool does "
            "not know is named with the closest one when one is near ([did you "
            "mean](/articles/site-wide-rules/#names-typed-wrong-did-you-mean)). These settings "
            "hold one mistake of each kind and leave out `base_url`:"
        ),
        code_block(BROKEN, language="toml"),
        verified_output(
            broken_settings,
            expected={
                "exit": 1,
                "stderr": [
                    "pyproject.toml:1: settings: missing required key 'base_url'",
                    "pyproject.toml:3: settings: min_body_chars must be int, not str",
                    "pyproject.toml:5: settings: unknown key 'theme'",
                    "pyproject.toml:6: settings: language 'English' is not a language tag like 'en' or 'ru'",
                ],
            },
        ),
        paragraph(
            "A missing key has no line of its own, so its problem points at the table's header. In "
            "`validate --format json` these problems carry the rules `settings-required`, "
            "`settings-type`, `settings-unknown` and `settings-value`, so a script can tell them apart."
        ),
        heading("How the site root is found"),
        paragraph(
            "Every command works on one site, whose root is the folder holding its `pyproject.toml`. "
            "Without `--root DIR` the tool starts in the current folder and walks up, folder by "
            "folder, until it finds a `pyproject.toml` that contains a `[tool.site_builder]` table — "
            "a `pyproject.toml` without one, such as a parent project's, is passed over. So a command "
            "typed anywhere inside a site works, and one typed outside any site is a usage error "
            "(exit code 2). [Commands](/articles/commands/) shows both, as the tool prints them."
        ),
        paragraph(
            "Every path in the settings — `articles_dir`, `assets_dir`, `output_dir` — is relative to "
            "that root, whatever folder the command was typed in. The cache of incremental builds, "
            "`.site-builder-cache/`, is kept there as well."
        ),
        heading("The ordered navigation"),
        paragraph(
            "A documentation site is read in an order; a blog is read newest first. To give a site a "
            "reading order, add `[[tool.site_builder.nav]]` tables after `[tool.site_builder]`. Each "
            'table is one section: a `section` title and its `pages`, a list of `["slug", "link '
            'text"]` pairs in reading order. The link text is yours to choose — it may be shorter '
            "than the article's title. This is the navigation of a small site with four articles, "
            "`alpha`, `beta`, `gamma` and `delta`, published on four days in that order:"
        ),
        code_block(NAV, language="toml"),
        paragraph("With a navigation set, a build changes three things:"),
        unordered_list(
            [
                "**A sidebar** on every article page lists the sections and their links, the current "
                'page marked with `aria-current="page"` (shown above the article on narrow screens).',
                "**Previous and next links** under each article that the navigation lists lead to its "
                "neighbours in reading order, across sections; the first page has no previous link, the "
                "last no next.",
                "**The home page** lists the navigation's articles first, in reading order, and then "
                "every other article, newest first. A site without a navigation lists all of them "
                "newest first.",
            ]
        ),
        paragraph(
            "A fixture builds that site and reads the pages back: the sidebar and neighbours of "
            "`alpha`, and the order of the home page, where `delta` — the newest article, but not in "
            "the navigation — comes last:"
        ),
        verified_output(
            reading_order,
            expected={
                "alphaPage": {
                    "sections": ["Start here", "Reference"],
                    "links": ["Install", "First article", "Settings"],
                    "current": ["/articles/alpha/"],
                    "previous": ["/articles/gamma/"],
                    "next": ["/articles/beta/"],
                },
                "homeOrder": ["/articles/gamma/", "/articles/alpha/", "/articles/beta/", "/articles/delta/"],
            },
        ),
        paragraph(
            "An article left out of the navigation still shows the sidebar, with nothing marked, and "
            "has no previous or next link. Each table must hold exactly `section` and `pages`; each "
            "page must be a pair of non-empty strings naming an article of the site, listed once in "
            "the whole navigation. A wrong entry is a problem at its own line of `pyproject.toml`. In "
            "this navigation, for a site of `alpha` and `beta`, the second slug has a typo and the "
            "third entry is a bare slug instead of a pair:"
        ),
        code_block(WRONG_NAV, language="toml"),
        transcript(
            wrong_nav,
            """
            $ site-builder validate
            pyproject.toml:11: settings: nav lists 'alpah', which is not the slug of an article
            pyproject.toml:12: settings: a nav page is a pair ["slug", "link text"], not 'beta'
            2 problems found
            """,
        ),
        paragraph(
            "The link texts live in the settings rather than being read from the articles on purpose: "
            "an article's page then depends only on its own revision and the settings, which is what "
            "lets an incremental build re-render just the articles that changed (see "
            "[incremental builds](/articles/incremental-builds/)). Changing the navigation changes "
            "the settings, so every page is rendered again."
        ),
        heading("Linking fixtures to their source: repo_url and source_uri"),
        paragraph(
            "Under each verified output, the article page shows which fixture verified it (see "
            "[Fixtures](/articles/fixtures/)). When the site says where its repository is, that "
            "mark — and the fixture's name in the box at the top of the article — links to the "
            "line of the fixture's `def` in the repository, so a reader can read the check. Two "
            "keys say where, as `repo_url` and `edit_uri` do in MkDocs:"
        ),
        unordered_list(
            [
                "**`repo_url`** — the repository's address, an absolute `http` or `https` URL "
                "without a query or a fragment: `https://github.com/me/notes`. Left empty (the "
                "default), marks link to the article's own list of fixtures instead.",
                "**`source_uri`** — the path under `repo_url` where the repository shows the files "
                "of the site root, the folder of this `pyproject.toml`. The default, `blob/main/`, "
                "fits a site at the top of a GitHub repository whose branch is `main`. A site kept "
                'in a `docs/` folder sets `"blob/main/docs/"`; another branch, `"blob/trunk/"`; '
                'GitLab shows files under `"-/blob/main/"`. It is a relative path — no leading `/`, '
                "no `..`, no `:`, `?`, `#`, backslash or space — and the slashes at its ends do not "
                "matter.",
            ]
        ),
        paragraph(
            "The link is `repo_url`, `/`, `source_uri`, then the fixture's file relative to the site "
            "root and `#L` with the line of its `def`. These are the settings of a site kept in the "
            "`docs/` folder of the repository `github.com/me/notes`:"
        ),
        code_block(IN_DOCS, language="toml"),
        paragraph(
            "Its `articles/answer.py` defines a fixture `answer` on line 5. Where the mark under the "
            "answer links: with those settings, with the same settings but no `source_uri` (the "
            "default, right for a site at the top of its repository), and with no `repo_url` at all:"
        ),
        verified_output(
            source_links,
            expected={
                "markLinksTo": {
                    "source_uri = blob/main/docs/": "https://github.com/me/notes/blob/main/docs/articles/answer.py#L5",
                    "source_uri left out": "https://github.com/me/notes/blob/main/articles/answer.py#L5",
                    "repo_url left out": "#fixture-answer",
                }
            },
        ),
        paragraph(
            "Check the first link of a new site by opening it: a wrong branch or folder in "
            "`source_uri` gives a link the build cannot know is wrong, since it never visits the "
            "repository. What it can know, it checks, like every setting:"
        ),
        code_block(WRONG_REPO, language="toml"),
        transcript(
            wrong_repo,
            """
            $ site-builder validate
            pyproject.toml:5: settings: repo_url must be an absolute http(s) URL, not 'github.com/me/notes'
            pyproject.toml:6: settings: source_uri must be a path under repo_url like 'blob/main/', not '../blob/main/'
            2 problems found
            """,  # noqa: E501
        ),
        heading("The author and the feed"),
        paragraph(
            "`author` names who writes the site. It becomes the `<author>` of the Atom feed, a "
            '`<meta name="author">` on every page, and the author of each article\'s JSON-LD '
            "(the structured data search engines read; see [Templates and "
            "theming](/articles/templates-and-theming/)), where a set `author` is a `Person`. Left "
            "empty, the site title stands in everywhere, and in JSON-LD the author is the site, an "
            "`Organization`."
        ),
        paragraph(
            "`feed_limit` keeps the feed small: `feed.xml` holds only that many of the newest "
            "articles (by the date of their latest revision, newest first; articles of the same day "
            "in site order), one entry each. "
            "Feed readers fetch the feed again and again, and a feed of every full article would "
            "grow with the site. By default it keeps the newest 50, enough for a reader to catch "
            "up; Pelican offers the same limit as `FEED_MAX_ITEMS`. `revisions.json` still holds every "
            "revision, and the sitemap, the home page and the category pages every article. A site "
            "of three articles, "
            "`alpha`, `beta` and `gamma`, published on 2026-11-01, 2026-11-15 and 2026-12-01, built "
            "with these two lines added to its settings, then without them:"
        ),
        code_block(AUTHORED, language="toml"),
        verified_output(
            author_and_feed,
            expected={
                "withAuthor": {
                    "feedAuthor": ["Ann Example"],
                    "feedEntries": ["Gamma", "Beta"],
                    "revisionsJson": ["alpha", "beta", "gamma"],
                    "metaAuthor": {
                        "index.html": ["Ann Example"],
                        "articles/beta/index.html": ["Ann Example"],
                        "404.html": ["Ann Example"],
                    },
                    "jsonLdAuthor": {"@type": "Person", "name": "Ann Example"},
                },
                "withoutAuthor": {
                    "feedAuthor": ["Demo"],
                    "feedEntries": ["Gamma", "Beta", "Alpha"],
                    "revisionsJson": ["alpha", "beta", "gamma"],
                    "metaAuthor": {
                        "index.html": ["Demo"],
                        "articles/beta/index.html": ["Demo"],
                        "404.html": ["Demo"],
                    },
                    "jsonLdAuthor": {"@type": "Organization", "name": "Demo"},
                },
            },
        ),
        paragraph(
            "The feed's `<updated>` is still the date of the newest revision, and an incremental "
            "build gives the same feed as a clean one: a new article, or a correction, which moves its "
            "article to the top, pushes the oldest out. "
            "`feed_limit` must be a whole number of at least 1, and `author` text:"
        ),
        code_block(WRONG_FEED, language="toml"),
        transcript(
            author_and_feed,
            """
            $ site-builder validate
            pyproject.toml:6: settings: author must be str, not list
            pyproject.toml:7: settings: feed_limit must be at least 1, not 0
            2 problems found
            """,
            key="wrong",
        ),
        heading("The sources heading"),
        paragraph(
            "Each article ends with the list of its sources under a heading in the article's "
            "language. Russian articles always get «Проверяемые источники»; for other languages the "
            "site chooses with `sources_heading`, a TOML table from language tag to label; a region "
            "tag such as `en-GB` takes its language's entry unless it has one of its own, and "
            "`ru-RU` is Russian. Without an entry, English gets `Sources` and Korean `출처`. The "
            "label is part of the article's `contentHtml`, so the JSON that importers read carries "
            "it too (see "
            "[revisions.json](/articles/revisions-json/))."
        ),
    ],
    sources=[
        Source(
            title="TOML v1.0.0: Array of Tables",
            url="https://toml.io/en/v1.0.0#array-of-tables",
            note="the [[table]] syntax of the ordered navigation",
        ),
        Source(
            title="PEP 518: the [tool] table of pyproject.toml",
            url="https://peps.python.org/pep-0518/#tool-table",
            note="where tools keep their settings in pyproject.toml",
        ),
    ],
)

revisions = [settings_page]
