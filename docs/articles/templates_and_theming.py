"""Documentation: the templates, the variables they get, overriding them, the theme."""

import re
from importlib import resources

from _pages_kit import between, lines_with, page
from _tool import SETTINGS, article, run, site

from site_builder import (
    Source,
    code_block,
    data_table,
    fixture,
    heading,
    paragraph,
    revision,
    unordered_list,
    verified_output,
)

TEMPLATES = [
    # file, what it renders, the variables it gets besides site, lang, labels and canonical
    (
        "base.html",
        "The frame of every page: `<head>`, the header with the search box, `<main>`, the footer. "
        "It defines the blocks `title`, `description` and `main`.",
        "only those four",
    ),
    ("article.html", "An article page; extends `base.html`.", "`article`, `toc`, `nav`"),
    ("index.html", "The home page; extends `base.html`.", "`heading`, `intro`, `items`"),
    (
        "category.html",
        "A category's page; extends `index.html` and changes only its `title` block.",
        "`heading`, `intro` (empty), `items`",
    ),
    ("categories.html", "The list of categories at `/categories/`.", "`categories`"),
    ("404.html", "The page for an unknown address.", "only those four"),
    (
        "_card.html",
        "One article in a list; included by `index.html` for each of `items`.",
        "`item` (the loop's)",
    ),
    (
        "_nav.html",
        "The sidebar of the ordered navigation; included by `article.html` when the site has one.",
        "`nav`",
    ),
    ("_pager.html", "The previous and next links; included by `article.html` with the sidebar.", "`nav`"),
    (
        "_status.html",
        "The marks of a draft or a scheduled revision that `--drafts` / `--future` include (nothing "
        "for a published one); included by `article.html` and `_card.html`.",
        "`marked` (the article, or the card's item)",
    ),
]

VARIABLES = [
    (
        "`site`",
        "every page",
        "The settings: `site.title`, `site.base_url`, `site.description`, `site.language`, `site.nav`…",
    ),
    (
        "`lang`",
        "every page",
        "The page's language: the article's `lang` on an article page, the site's elsewhere.",
    ),
    (
        "`labels`",
        "every page",
        "The site's own words in `lang`: `labels.search`, `labels.contents`, `labels.published`, "
        "`labels.minutes` (a format string: `labels.minutes.format(n=3)`), `labels.previous`, "
        "`labels.next`, `labels.draft`, `labels.scheduled` (`.format(date=…)`), `labels.proof_mark` "
        "(`{fixture}`), `labels.proof_fixtures` and `labels.proof_results` (`.format(n=…)`)…",
    ),
    ("`canonical`", "every page", "The page's absolute URL: `base_url` joined with the page's path."),
    (
        "`article`",
        "article.html",
        "`title`, `published`, `minutes`, `excerpt`, `cover` (or none), `categories` (each with "
        "`name` and `url`), `fixtures` (ids), `verified_count` (its `verified_output` blocks), "
        "`proofs` (its fixtures, as the box at the top lists them: below), `draft` (true for an "
        "included draft), `scheduled` (the date of an included scheduled revision, or empty), and "
        "`body`: the article's HTML with heading ids, highlighting and the mark under each verified "
        "output, already trusted.",
    ),
    ("`toc`", "article.html", "One entry per `h2` of the body, with `anchor` and `text`."),
    (
        "`nav`",
        "article.html",
        "`nav.groups` (each with `title` and `links`; a link has `title`, `url`, `current`), "
        "`nav.previous` and `nav.next` (a link or none). Empty when the site sets no navigation.",
    ),
    ("`heading`, `intro`", "index.html, category.html", "The page's heading and the line under it."),
    (
        "`items`",
        "index.html, category.html",
        "The articles listed, each with `slug`, `title`, `url`, `published`, `minutes`, "
        "`excerpt`, `cover`, `lang`, `categories`, `fixtures`, `verified` (how many results are "
        "verified), `content_html`, and `draft` and `scheduled` as on the article.",
    ),
    ("`categories`", "categories.html", "Every category, each with `name`, `url` and `count`, by name."),
]

COMMON = (
    "lang={{ lang }} canonical={{ canonical }} site.title={{ site.title }} labels.search={{ labels.search }}"
)
PROBES = {
    "templates/404.html": "<p>" + COMMON + "</p>\n",
    "templates/categories.html": (
        "<p>"
        + COMMON
        + " categories={% for c in categories %}{{ c.name }} {{ c.url }} {{ c.count }}{% endfor %}</p>\n"
    ),
    "templates/index.html": (
        "<p>" + COMMON + " heading={{ heading }} intro={{ intro }} items={% for i in items %}"
        "{{ i.slug }} {{ i.url }} {{ i.published }} {{ i.minutes }} {{ i.lang }} {{ i.verified }}"
        "{% endfor %}</p>\n"
    ),
    "templates/article.html": (
        '<!doctype html>\n<html lang="{{ lang }}"><body><p>' + COMMON + " article.title={{ article.title }} "
        "article.minutes={{ article.minutes }} article.cover={{ article.cover }} "
        "toc={% for e in toc %}#{{ e.anchor }} {% endfor %}nav.groups={{ nav.groups | length }}</p>\n"
        "<div data-pagefind-body>{{ article.body }}</div></body></html>\n"
    ),
}
"""Templates that print the variables they are given: with undefined variables an error,
a build that succeeds proves every one of them exists."""

LOST = """\
{% extends "base.html" %}
{% block title %}Lost — {{ site.title }}{% endblock %}
{% block main %}
<h1 class="page-title">Nothing lives at this address</h1>
<p>Try the <a href="/categories/">list of categories</a>.</p>
{% endblock %}
"""

UNKNOWN = """\
{% extends "base.html" %}
{% block main %}
<p>Written by {{ author }}.</p>
{% endblock %}
"""

CODE = """\
from site_builder import Source, code_block, revision

revisions = [
    revision(
        slug="demo",
        title="Demo",
        categories=["Demo"],
        excerpt="A short demonstration article.",
        published="2026-12-01",
        body=[code_block("def greet(name):\\n    return name.title()", language="python")],
        sources=[Source(title="CommonMark", url="https://spec.commonmark.org/0.31.2/", note="the syntax")],
    )
]
"""


PROVEN = """\
from site_builder import Source, fixture, paragraph, revision, verified_output


@fixture
def delays() -> dict:
    waits = [0.5 * 2**n for n in range(3)]
    return {"attempts": len(waits) + 1, "delays": waits, "checks": {"threeWaits": len(waits) == 3}}


revisions = [
    revision(
        slug="demo",
        title="Demo",
        categories=["Demo"],
        excerpt="A draft scheduled for later, with two verified outputs.",
        published="2027-01-15",
        draft=True,
        body=[
            paragraph("Four attempts, three waits:"),
            verified_output(delays, expected={"attempts": 4}),
            verified_output(delays, expected={"delays": [0.5, 1.0, 2.0]}),
        ],
        sources=[Source(title="CommonMark", url="https://spec.commonmark.org/0.31.2/", note="the syntax")],
    )
]
"""
"""A draft dated after the demonstrations' build date, whose one fixture backs two outputs."""

PROOF_PROBES = {
    "templates/article.html": (
        '<!doctype html>\n<html lang="{{ lang }}"><body><p>article.draft={{ article.draft }} '
        "article.scheduled={{ article.scheduled }} article.proofs={% for p in article.proofs %}"
        "[name={{ p.name }} anchor={{ p.anchor }} href={{ p.href }} source={{ p.source }} "
        "results={{ p.results }} fixture={{ p.fixture }}]{% endfor %}</p>\n"
        '<ul>{% for p in article.proofs %}<li id="{{ p.anchor }}">{{ p.name }}</li>{% endfor %}</ul>\n'
        "<div data-pagefind-body>{{ article.body }}</div></body></html>\n"
    ),
    "templates/index.html": (
        "<p>{% for i in items %}item.draft={{ i.draft }} item.scheduled={{ i.scheduled }}{% endfor %} "
        "labels.draft={{ labels.draft }} labels.scheduled={{ labels.scheduled }} "
        "labels.proof_mark={{ labels.proof_mark }} labels.proof_fixtures={{ labels.proof_fixtures }} "
        "labels.proof_results={{ labels.proof_results }}</p>\n"
    ),
}
"""Templates that print the variables of drafts, schedules and fixtures."""

REPO = 'repo_url = "https://github.com/me/notes"\n'


@fixture
def proofs_and_marks() -> dict:
    """PROVEN built with --drafts --future by PROOF_PROBES, without and with repo_url."""
    shown: dict[str, dict[str, str]] = {}
    bodies = []
    for name, settings in (("withoutRepoUrl", SETTINGS), ("withRepoUrl", SETTINGS + REPO)):
        root = site({"articles/demo.py": PROVEN} | PROOF_PROBES, settings)
        ran = run(root, "build", "--drafts", "--future")
        article_page, home = page(root, "articles/demo/index.html"), page(root, "index.html")
        shown[name] = {
            "articles/demo/index.html": re.search(r"<p>(.*?)</p>", article_page).group(1),
            "index.html": re.search(r"<p>(.*?)</p>", home).group(1),
        }
        bodies.append(ran.code == 0 and article_page.count('<p class="proof"') == 2)
    return {
        "pages": shown,
        "checks": {"builtWithTwoMarksInTheBody": bodies == [True, True]},
    }


@fixture
def package_templates() -> dict:
    """The templates that ship in the package."""
    folder = resources.files("site_builder").joinpath("templates")
    names = sorted(entry.name for entry in folder.iterdir() if entry.name.endswith(".html"))
    return {
        "templates": names,
        "checks": {"tableListsThemAll": names == sorted(name for name, _, _ in TEMPLATES)},
    }


@fixture
def every_variable() -> dict:
    """Each page template replaced by one that prints its variables; then the built pages."""
    files = {
        "articles/demo.py": article().replace("body=[paragraph(", 'body=[heading("First part"), paragraph(')
    }
    files["articles/demo.py"] = files["articles/demo.py"].replace(
        "paragraph, revision", "heading, paragraph, revision"
    )
    root = site(files | PROBES, SETTINGS + 'description = "Checked notes."\n')
    ran = run(root, "build")
    shown = {}
    for name in (
        "404.html",
        "categories/index.html",
        "index.html",
        "categories/demo/index.html",
        "articles/demo/index.html",
    ):
        text = page(root, name)
        shown[name] = re.search(r"<p>(.*?)</p>", text).group(1) if ran.code == 0 else None
    return {
        "pages": shown,
        "checks": {
            "built": ran.code == 0,
            "categoryPageUsesTheIndexOverride": "heading=Category: Demo"
            in (shown["categories/demo/index.html"] or ""),
            "tocHasThePlantedHeading": "#first-part" in (shown["articles/demo/index.html"] or ""),
        },
    }


@fixture
def overriding_404() -> dict:
    """A site whose templates/404.html replaces two blocks of base.html."""
    root = site({"articles/demo.py": article(), "templates/404.html": LOST})
    ran = run(root, "build")
    lost = page(root, "404.html")
    return {
        "exit": ran.code,
        "lines": lines_with(lost, "<title>") + lines_with(lost, "<h1"),
        "checks": {
            "built": ran.code == 0,
            "keepsTheChromeOfBase": 'class="skip-link"' in lost and 'id="search"' in lost,
            "articlesKeepThePackageTemplate": "data-pagefind-body" in page(root, "articles/demo/index.html"),
        },
    }


@fixture
def unknown_variable() -> dict:
    """A template that uses a variable it is not given: validate, then build."""
    root = site({"articles/demo.py": article(), "templates/404.html": UNKNOWN})
    checked = run(root, "validate")
    built = run(root, "build")
    return {
        "validate": {"exit": checked.code, "stderr": checked.lines},
        "build": {"exit": built.code, "stderr": built.lines},
        "checks": {
            "validateRendersNoPage": checked.code == 0,
            "buildFails": built.code == 1,
            "atTheTemplatesLine": built.lines[0].startswith("templates/404.html:3:"),
            "nothingWritten": not (root / "build").exists(),
        },
    }


@fixture
def escaped_title() -> dict:
    """A site title with markup characters, as the home page shows it."""
    settings = SETTINGS.replace('title = "Demo"', 'title = "Tips & <b>tricks</b>"')
    root = site({"articles/demo.py": article()}, settings)
    ran = run(root, "build")
    home = page(root, "index.html")
    return {
        "lines": lines_with(home, "<title>") + lines_with(home, 'class="site-title"'),
        "checks": {"built": ran.code == 0, "noBoldElement": "<b>" not in home},
    }


@fixture
def theme_hooks() -> dict:
    """The selectors of the built stylesheet's rules for the fixtures box, the marks and the statuses."""
    root = site({"articles/demo.py": article()})
    ran = run(root, "build")
    css = page(root, "theme/style.css")
    selectors = [
        s.strip()
        for s in re.findall(r"^([^{}\n/]*\.(?:verified|proof|status)\b[^{}\n]*)\{", css, re.MULTILINE)
    ]
    return {
        "selectors": selectors,
        "checks": {"built": ran.code == 0, "markJoinedToItsBlock": "pre:has(+ .proof)" in selectors},
    }


@fixture
def highlighting() -> dict:
    """A Python code block: the article page, its contentHtml, and the theme's media queries."""
    root = site({"articles/demo.py": CODE})
    ran = run(root, "build")
    shown = between(page(root, "articles/demo/index.html"), "<pre", "</pre>")
    stored = run(root, "revisions").json()[0]["contentHtml"]
    css = page(root, "theme/style.css")
    first = shown.splitlines()[0]
    # Whitespace is a token of its own in some Pygments versions and plain text in others.
    tokens = [[c, t] for c, t in re.findall(r'<span class="(\w+)">([^<]*)</span>', first) if c != "w"]
    return {
        "page": first[: first.index(">", first.index("<code")) + 1],
        "tokens": tokens,
        "contentHtml": stored.splitlines()[0],
        "styleCssMediaQueries": lines_with(css, "@media"),
        "checks": {
            "built": ran.code == 0,
            "pageHighlighted": '<span class="k">def</span>' in shown,
            "contentHtmlPlain": "<span" not in stored,
            "tokenColoursInTheTheme": "/* Syntax highlighting (Pygments) */" in css
            and ".highlight .k {" in css,
        },
    }


templates_page = revision(
    slug="templates-and-theming",
    title="Templates and theming",
    categories=["Reference"],
    excerpt="The Jinja templates that render every page, the variables each one gets, how a site "
    "overrides one, and the theme's stylesheet, dark mode and code highlighting.",
    published="2026-12-01",
    body=[
        paragraph(
            "Articles are data; the HTML around them comes from a handful of Jinja templates that ship "
            "inside the package. A site can replace any of them by putting a file of the same name in "
            "its own `templates/` folder, next to `pyproject.toml`. This page lists the templates, the "
            "values each one is given, and the rules they are rendered under."
        ),
        heading("The templates"),
        paragraph("A fixture lists the `.html` files in the installed package's `templates/` folder:"),
        verified_output(
            package_templates,
            expected={
                "templates": [
                    "404.html",
                    "_card.html",
                    "_nav.html",
                    "_pager.html",
                    "_status.html",
                    "article.html",
                    "base.html",
                    "categories.html",
                    "category.html",
                    "index.html",
                ]
            },
        ),
        paragraph(
            "Five of them are pages; the four whose names begin with `_` are pieces that the pages "
            "include, and `base.html` is the frame the pages extend. Every template gets four values — "
            "`site`, `lang`, `labels` and `canonical` — and the page templates get more:"
        ),
        data_table(
            "What each template renders, and what it is given besides site, lang, labels and canonical",
            ["template", "renders", "also gets"],
            [[f"`{name}`", renders, extra] for name, renders, extra in TEMPLATES],
        ),
        heading("The variables"),
        paragraph(
            'Every value a template sees is passed to it explicitly; there is no global "current '
            'page". These are their names and the attributes a template can read:'
        ),
        data_table(
            "Template variables",
            ["variable", "given to", "what it holds"],
            [list(row) for row in VARIABLES],
        ),
        paragraph(
            "To prove the list, a fixture replaces each page template by one line that prints some of "
            "its variables — for instance `categories.html` becomes "
            "`<p>lang={{ lang }} … categories={% for c in categories %}{{ c.name }} {{ c.url }} "
            "{{ c.count }}{% endfor %}</p>` — builds a site of one article, and reads the line back from "
            "each built page. Since an undefined variable is an error (see below), the build itself "
            "shows that each name it prints exists:"
        ),
        verified_output(
            every_variable,
            expected={
                "pages": {
                    "404.html": "lang=en canonical=https://demo.example/404.html site.title=Demo "
                    "labels.search=Search",
                    "categories/index.html": "lang=en canonical=https://demo.example/categories/ "
                    "site.title=Demo labels.search=Search categories=Demo /categories/demo/ 1",
                    "index.html": "lang=en canonical=https://demo.example/ site.title=Demo "
                    "labels.search=Search heading=Demo intro=Checked notes. "
                    "items=demo /articles/demo/ 2026-12-01 1 en 0",
                    "categories/demo/index.html": "lang=en canonical=https://demo.example/categories/demo/ "
                    "site.title=Demo labels.search=Search heading=Category: Demo intro= "
                    "items=demo /articles/demo/ 2026-12-01 1 en 0",
                    "articles/demo/index.html": "lang=en canonical=https://demo.example/articles/demo/ "
                    "site.title=Demo labels.search=Search article.title=Demo article.minutes=1 "
                    "article.cover=None toc=#first-part #sources nav.groups=0",
                }
            },
        ),
        paragraph(
            "Two details show here. The category page printed the overriding `index.html`'s line: "
            "`category.html` extends `index.html` by name, so a site that overrides `index.html` "
            "changes its category pages too. And the table of contents (`toc`) has an entry for the "
            "sources heading as well, since it is an `h2` of the body like any other."
        ),
        heading("Fixtures, drafts and schedules in a template"),
        paragraph(
            "`article.proofs` lists the article's fixtures in the order its body first uses them, "
            "one entry per fixture, as the box at the top of the package's article page shows them: "
            "`name` (the function's name; the full id `MODULE:FUNCTION` when two fixtures of the "
            "page share a name), `anchor` (the id of the entry in the box, `fixture-NAME`), `source` "
            "(the URL of the fixture's `def` in the site's repository, or empty without "
            "`repo_url`), `href` (where its marks link: `source`, or `#anchor` without a "
            "repository), `results` (how many outputs of the article it verifies) and `fixture` "
            "(its id). `draft` and `scheduled` tell an included draft or scheduled revision from a "
            "published one. A fixture builds, with `--drafts --future`, a draft dated 2027-01-15 "
            "whose one fixture backs two outputs, with templates that print these values — once "
            'without `repo_url`, once with `repo_url = "https://github.com/me/notes"`:'
        ),
        code_block(PROVEN, language="python"),
        verified_output(
            proofs_and_marks,
            expected={
                "pages": {
                    "withoutRepoUrl": {
                        "articles/demo/index.html": "article.draft=True article.scheduled=2027-01-15 "
                        "article.proofs=[name=delays anchor=fixture-delays href=#fixture-delays source= "
                        "results=2 fixture=demo:delays]",
                        "index.html": "item.draft=True item.scheduled=2027-01-15 labels.draft=Draft "
                        "labels.scheduled=Scheduled for {date} labels.proof_mark=verified by fixture "
                        "{fixture} labels.proof_fixtures=Fixtures that verify results: {n} "
                        "labels.proof_results=verified results: {n}",
                    },
                    "withRepoUrl": {
                        "articles/demo/index.html": "article.draft=True article.scheduled=2027-01-15 "
                        "article.proofs=[name=delays anchor=fixture-delays "
                        "href=https://github.com/me/notes/blob/main/articles/demo.py#L5 "
                        "source=https://github.com/me/notes/blob/main/articles/demo.py#L5 "
                        "results=2 fixture=demo:delays]",
                    },
                }
            },
        ),
        paragraph(
            "The mark under each verified output is not drawn by `article.html`: the renderer puts "
            "it into `article.body`, so a site's own `article.html` shows it too, and "
            "`contentHtml` in the revisions JSON never has it. Without `repo_url` each mark links to "
            "`#` and its fixture's `anchor`, and the build's link check holds every page to its "
            "links: an `article.html` of your own must then give some element of the page that id "
            "(the package's puts it on the fixture's entry in the box), as the probe above does "
            'with `<li id="{{ p.anchor }}">`, or the build fails on the marks\' links. The '
            "ids `fixtures` and `fixture-…` are kept for these anchors: a heading of the body never "
            "takes them. The marks of drafts and scheduled revisions come from `_status.html`, which "
            "the package's `article.html` and `_card.html` include with `marked` set to the "
            "article or the item; override it to change them everywhere."
        ),
        heading("Overriding a template"),
        paragraph(
            "Templates are looked up first in the site's `templates/` folder, then in the package. A "
            "file there replaces the package's template of the same name for every page that uses it, "
            "including pages that extend or include it. The simplest override extends `base.html` and "
            "replaces a block, keeping the header, search box and footer. This `templates/404.html` "
            "replaces the `title` and `main` blocks:"
        ),
        code_block(LOST, language="html"),
        verified_output(
            overriding_404,
            expected={
                "exit": 0,
                "lines": [
                    "<title>Lost — Demo</title>",
                    '<h1 class="page-title">Nothing lives at this address</h1>',
                ],
            },
        ),
        paragraph(
            "The fixture also checks that the built 404 page still has the skip link and the search box "
            "of `base.html`, and that the article pages, which the site did not override, still come "
            "from the package. To change the frame of every page — to add a stylesheet of your own from "
            "`assets/`, say — copy the package's `base.html` into `templates/` and edit the copy: a "
            "template cannot extend another of the same name. Links in an overriding template are "
            "checked like every other link of the built site, so a link to a page that does not exist "
            "fails the build."
        ),
        paragraph(
            "Templates are inputs of the build like articles and settings: `serve` rebuilds when a file "
            "in `templates/` changes, and a changed template makes an incremental build render every "
            "page again."
        ),
        heading("Escaping and undefined variables"),
        paragraph(
            "The templates are rendered with autoescaping on: a value printed with `{{ … }}` is "
            "escaped as HTML unless it is already marked safe — which only the article's `body` is, "
            "since the helpers built it. A site title with markup characters in it stays text:"
        ),
        verified_output(
            escaped_title,
            expected={
                "lines": [
                    "<title>Tips &amp; &lt;b&gt;tricks&lt;/b&gt;</title>",
                    '<a class="site-title" href="/">Tips &amp; &lt;b&gt;tricks&lt;/b&gt;</a>',
                ]
            },
        ),
        paragraph(
            "Undefined variables are errors too (Jinja's `StrictUndefined`): a misspelt name or "
            "attribute does not quietly print an empty string. A template error is reported like any "
            "other problem, at the template's file and line — never as a traceback or a path in the "
            "output folder. Only commands that render pages can see it: `validate` does not render "
            "pages, so it passes, and `build` fails without writing anything. Here `templates/404.html` "
            "prints a variable called `author`, which no page is given:"
        ),
        code_block(UNKNOWN, language="html"),
        verified_output(
            unknown_variable,
            expected={
                "validate": {"exit": 0, "stderr": ["ok: 1 revisions valid, 0 fixtures passed"]},
                "build": {
                    "exit": 1,
                    "stderr": [
                        "templates/404.html:3: template: UndefinedError: 'author' is undefined",
                        "1 problem found",
                        "nothing was written; the previous site is untouched",
                    ],
                },
            },
        ),
        paragraph(
            "So when you edit templates, check them with `site-builder build` (or keep "
            "`site-builder serve` running), not with `validate` alone."
        ),
        heading("The theme"),
        paragraph(
            "The stylesheet is the package's `theme/style.css`, written to `/theme/style.css` in every "
            "build along with the favicon; there is no theme setting. It sets a readable measure, "
            "styles the cards, the table of contents, the box of fixtures, the marks, the sidebar and "
            "the pager, and colours Pagefind's search box with the theme's colours. Everything is drawn "
            "from a few CSS custom properties (`--bg`, `--fg`, `--accent`, `--code-bg`…) so that:"
        ),
        unordered_list(
            [
                "**dark mode** is one media query, `prefers-color-scheme: dark`, that gives the same "
                "properties dark values — the page follows the reader's system setting, with no switch;",
                "**print** gets black on white, hides the search box, navigation and table of contents, "
                "and writes each external link's address after it;",
                "**wide screens** (62rem and up) put the ordered navigation in a sidebar beside the article.",
            ]
        ),
        paragraph(
            "What readers see of the checking has classes of its own, for a site that restyles it in "
            "a stylesheet of its own: `.verified` is the box of fixtures at the top of an article "
            "(its targeted entry outlined when a mark is followed), `.proof` the mark under each "
            "verified output — a strip joined to the bottom of the code block, a ✓ before it, in "
            'the theme\'s "verified" green (`--ok`), in light, dark and print — and `.status` / '
            "`.status-mark` the dashed marks of an included draft or scheduled revision. The "
            "selectors of their rules in the built stylesheet:"
        ),
        verified_output(
            theme_hooks,
            expected={
                "selectors": [
                    ".verified",
                    ".verified h2, .verified p",
                    ".verified ul",
                    ".verified li",
                    ".verified li:target",
                    "pre:has(+ .proof)",
                    ".proof",
                    ".proof::before",
                    ".proof a, .proof a:visited",
                    ".proof code",
                    ".status",
                    ".status-mark",
                ]
            },
        ),
        heading("Code highlighting"),
        paragraph(
            "A `code_block` with a `language` is highlighted on the article page by Pygments, with CSS "
            "classes rather than inline styles; a language Pygments does not know is left plain. The "
            "token colours are appended to `style.css`: Pygments' `xcode` style for light pages and "
            "`monokai` inside the dark-mode query (on screens only, so paper always gets the light "
            "colours). Highlighting is for the page only: an article's `contentHtml`, which importers "
            "read, keeps the helper's plain markup. One Python block: the page's `code` element and "
            "the class of each token on its first line (the spaces between them are left out: some "
            "Pygments versions wrap them in a `w` token of their own), the same line in "
            "`contentHtml`, and the media queries of the built stylesheet:"
        ),
        code_block(
            'code_block("def greet(name):\\n    return name.title()", language="python")', language="python"
        ),
        verified_output(
            highlighting,
            expected={
                "page": '<pre class="highlight" tabindex="0"><code class="language-python">',
                "tokens": [["k", "def"], ["nf", "greet"], ["p", "("], ["n", "name"], ["p", "):"]],
                "contentHtml": '<pre><code class="language-python">def greet(name):',
                "styleCssMediaQueries": [
                    "@media screen and (prefers-color-scheme: dark) {",
                    "@media screen and (min-width: 62rem) {",
                    "@media print {",
                    "@media screen and (prefers-color-scheme: dark) {",
                ],
            },
        ),
        paragraph(
            'The page\'s code block also gets `tabindex="0"`, so a reader using the keyboard can '
            "scroll a long line sideways; wide tables get the same, with their caption as the name of "
            "the scrolling region."
        ),
    ],
    sources=[
        Source(
            title="Jinja: Template Designer Documentation — Template Inheritance",
            url="https://jinja.palletsprojects.com/en/stable/templates/#template-inheritance",
            note="how extends and blocks work",
        ),
        Source(
            title="Jinja API: Undefined Types",
            url="https://jinja.palletsprojects.com/en/stable/api/#undefined-types",
            note="StrictUndefined raises on any use of an undefined value",
        ),
        Source(
            title="Jinja API: Autoescaping",
            url="https://jinja.palletsprojects.com/en/stable/api/#autoescaping",
            note="what autoescape=True does",
        ),
        Source(
            title="Pygments: Available formatters — HtmlFormatter",
            url="https://pygments.org/docs/formatters/#HtmlFormatter",
            note="CSS classes for tokens and get_style_defs",
        ),
        Source(
            title="MDN: prefers-color-scheme",
            url="https://developer.mozilla.org/en-US/docs/Web/CSS/@media/prefers-color-scheme",
            note="the media feature behind dark mode",
        ),
    ],
)

revisions = [templates_page]
