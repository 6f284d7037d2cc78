"""Documentation: the templates, the variables they get, overriding them, the theme."""

import json
import re
import struct
from importlib import resources
from pathlib import Path

from _pages_kit import between, edit, lines_with, page
from _tool import SETTINGS, Ran, article, run, site

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
    # file, what it renders, the variables it gets besides site, lang, labels, canonical, labels_in, url
    (
        "base.html",
        "The frame of every page: `<head>`, the header with the search box, `<main>`, the footer. "
        "It defines the blocks `title`, `description`, `sharing` (empty) and `main`.",
        "only those four",
    ),
    (
        "article.html",
        "An article page; extends `base.html` and fills its `sharing` block.",
        "`article`, `toc`, `nav`, `sharing`",
    ),
    ("index.html", "The home page; extends `base.html`.", "`heading`, `intro`, `items`"),
    (
        "category.html",
        "A category's page; extends `index.html` and changes only its `title` block.",
        "`heading`, `intro` (empty), `items`",
    ),
    ("categories.html", "The list of categories at `/categories/`.", "`categories`"),
    (
        "diff.html",
        "What a later revision of an article changed, at `/articles/SLUG/diff/N/`; extends `base.html`.",
        "`diff`",
    ),
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
        "The settings: `site.title`, `site.base_url`, `site.description`, `site.language`, `site.author`, "
        "`site.nav`…",
    ),
    (
        "`lang`",
        "every page",
        "The page's language: the article's `lang` on an article page, the site's elsewhere.",
    ),
    (
        "`labels`",
        "every page",
        "The site's own words in `lang`, one attribute per label of the [labels "
        "tables](/articles/languages/#adding-a-language-a-labels-table): `labels.search`, "
        "`labels.contents`, `labels.published`, `labels.previous`, `labels.next`, `labels.draft`, "
        "`labels.scheduled` (`.format(date=…)`), `labels.proof_mark` (`.format(fixture=…)`)… The "
        "labels with a number — `labels.minutes`, `labels.article_count`, `labels.proof_fixtures`, "
        "`labels.proof_results`, `labels.verified`, `labels.words_added`, `labels.words_removed` — are "
        "plural labels: `.format(n=…)` picks the form that goes with the number (below). The words "
        "of an article's history are `labels.updated`, `labels.history`, `labels.revision` "
        "(`.format(n=…)`), `labels.revision_notice` (`.format(n=…, date=…)`), `labels.latest_link`, "
        "`labels.diff_link`, `labels.diff_title` (`.format(n=…)`) and `labels.compared` "
        "(`.format(old=…, old_date=…, new=…, new_date=…)`).",
    ),
    (
        "`labels_in`",
        "every page",
        "A function: `labels_in(tag)` is the `labels` of another language. `_card.html` words each "
        "card in its article's language with `{% set words = labels_in(item.lang) %}`.",
    ),
    (
        "`url`",
        "every page",
        "A function: `url('/categories/')` is a site-relative path as the page must write it, "
        "below the path of `base_url` for a site under a sub-path "
        "([Deploying](/articles/deploying/#sites-under-a-sub-path)). The package's templates write "
        "every link with it.",
    ),
    (
        "`canonical`",
        "every page",
        "The page's absolute URL: `base_url` joined with the page's path — on the page of an earlier "
        "revision, the article's URL instead.",
    ),
    (
        "`article`",
        "article.html",
        "`title`, `published`, `minutes`, `excerpt`, `cover` (or none), `cover_size` (the cover's "
        "`(width, height)` read from its file, or none), `categories` (each with "
        "`name` and `url`), `fixtures` (ids), `verified_count` (its `verified_output` blocks), "
        "`proofs` (its fixtures, as the box at the top lists them: below), `draft` (true for an "
        "included draft), `scheduled` (the date of an included scheduled revision, or empty), "
        "`history` (none for an article with one revision; below), and `body`: the article's HTML "
        "with heading ids, highlighting and the mark under each verified output, already trusted.",
    ),
    ("`toc`", "article.html", "One entry per `h2` of the body, with `anchor` and `text`."),
    (
        "`sharing`",
        "article.html",
        "What social sites and search engines read: `sharing.meta`, a list of `(attribute, name, "
        "content)` for the OpenGraph and Twitter `<meta>` tags, and `sharing.json_ld`, the article's "
        "JSON-LD, ready to print inside a `<script>` element (below).",
    ),
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
        "`excerpt`, `cover`, `cover_size`, `lang`, `categories`, `fixtures`, `verified` (how many "
        "results are "
        "verified), `content_html`, `draft` and `scheduled` as on the article, and `updated`: the date "
        "of the article's latest revision when it has more than one, else empty (`published` is "
        "always the first revision's).",
    ),
    ("`categories`", "categories.html", "Every category, each with `name`, `url` and `count`, by name."),
    (
        "`diff`",
        "diff.html",
        "`title` (the article's, in the newer revision), `article_url`, `old` and `new` (the two "
        "revisions compared, as `article.history` lists them), `html` (the newer revision's body "
        "with `<ins>` and `<del>` marks, already trusted), `added` and `removed` (how many words).",
    ),
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

UNCLOSED = """\
{% extends "base.html" %}
{% block main %}
<p>{{ site.title.upper( }}</p>
{% endblock %}
"""
"""A template that does not compile: the call on line 3 is never closed."""

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

CORRECTED = """\
from site_builder import Source, paragraph, revision

revisions = [
    revision(
        slug="demo",
        title="Demo",
        categories=["Demo"],
        excerpt="A short demonstration article.",
        published="2026-11-02",
        revised="2026-11-20",
        changes="A *shorter* sentence.",
        body=[paragraph("This article exists for the tool to check.")],
        sources=[Source(title="CommonMark", url="https://spec.commonmark.org/0.31.2/", note="the syntax")],
    )
]
"""
"""``articles/b_fix.py``: a later revision of the article ``articles/a_demo.py`` published on 2026-11-02."""

HISTORY_PROBES = {
    "templates/article.html": (
        '<!doctype html>\n<html lang="{{ lang }}"><body><p>canonical={{ canonical }} '
        "{% if article.history %}{% set h = article.history %}history.shown={{ h.shown }} "
        "history.is_latest={{ h.is_latest }} history.url={{ h.url }} history.latest={{ h.latest.number }} "
        "history.current={{ h.current.number }} history.versions={% for v in h.versions %}"
        "[number={{ v.number }} date={{ v.date }} changes={{ v.changes }} url={{ v.url }} "
        "diff={{ v.diff }}]{% endfor %}{% else %}history={{ article.history }}{% endif %}</p>\n"
        "<div data-pagefind-body>{{ article.body }}</div></body></html>\n"
    ),
    "templates/diff.html": (
        '{% extends "base.html" %}\n{% block main %}<p>diff.title={{ diff.title }} '
        "diff.article_url={{ diff.article_url }} diff.old={{ diff.old.number }} {{ diff.old.url }} "
        "diff.new={{ diff.new.number }} {{ diff.new.url }} diff.added={{ diff.added }} "
        "diff.removed={{ diff.removed }}</p>\n<div>{{ diff.html }}</div>{% endblock %}\n"
    ),
    "templates/index.html": (
        "<p>{% for i in items %}{{ i.slug }}: published={{ i.published }} updated={{ i.updated }}; "
        "{% endfor %}</p>\n"
    ),
}
"""Templates that print the values of an article's history, of a diff page, and of a card."""

REPO = 'repo_url = "https://github.com/me/notes"\n'

COVER = """\
<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630" viewBox="0 0 1200 630">
  <rect width="1200" height="630" fill="#0a7d55"/>
  <circle cx="600" cy="315" r="200" fill="#ffffff"/>
</svg>
"""
"""``assets/retry/cover.svg``: a cover drawn at the size social sites ask for, without text."""

SHARED = """\
from site_builder import Source, paragraph, revision

SPEC = Source(title="CommonMark", url="https://spec.commonmark.org/0.31.2/", note="the syntax")

revisions = [
    revision(
        slug="retry-budget",
        title="Бюджет повторов",
        categories=["Надёжность"],
        excerpt="Сколько повторов выдержит сервис.",
        published="2026-11-20",
        lang="ru",
        cover="/assets/retry/cover.svg",
        body=[paragraph("Повтор без бюджета превращает сбой в лавину.")],
        sources=[SPEC],
    ),
    revision(
        slug="retry-jitter",
        title="Jitter & <backoff>",
        categories=["Reliability"],
        excerpt="Why retries wait a random time.",
        published="2026-11-25",
        cover="/assets/retry/cover.svg",
        body=[paragraph("Waiting a random time spreads the retries out.")],
        sources=[SPEC],
    ),
    revision(
        slug="no-cover",
        title="No cover",
        categories=["Reliability"],
        excerpt="An article without a cover.",
        published="2026-11-30",
        body=[paragraph("Nothing to show but words.")],
        sources=[SPEC],
    ),
]
"""
"""``articles/retry.py``: two articles sharing one SVG cover, one in Russian; a third without a cover."""

BAD_COVER = """\
<svg xmlns="http://www.w3.org/2000/svg" width="320" height="120">
  <rect x="1" x="2" width="10" height="10"/>
</svg>
"""


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


def _head(html: str) -> list[str]:
    """The lines of a page's ``<head>`` from ``<link rel="canonical">`` to the JSON-LD, included."""
    lines = html.splitlines()
    first = next(n for n, line in enumerate(lines) if line.startswith('<link rel="canonical"'))
    last = next(n for n, line in enumerate(lines) if line.startswith('<script type="application/ld+json">'))
    return lines[first : last + 1]


def _png_size(data: bytes) -> list[int]:
    """Width and height from a PNG's IHDR chunk (``[]`` for anything that is not a PNG)."""
    return list(struct.unpack(">II", data[16:24])) if data[:8] == b"\x89PNG\r\n\x1a\n" else []


@fixture
def sharing_tags() -> dict:
    """SHARED with COVER and an author, built; the heads of its pages, read back and parsed."""
    root = site(
        {"articles/retry.py": SHARED, "assets/retry/cover.svg": COVER}, SETTINGS + 'author = "Ann Example"\n'
    )
    ran = run(root, "build")
    heads = {
        slug: _head(page(root, f"articles/{slug}/index.html"))
        for slug in ("retry-budget", "retry-jitter", "no-cover")
    }
    ld = heads["retry-jitter"][-1]
    data = json.loads(ld[ld.index(">") + 1 : ld.rindex("</script>")])
    package = resources.files("site_builder").joinpath("templates/article.html").read_text("utf-8")
    block = package[
        package.index("{% block sharing %}") : package.index(
            "{% endblock %}", package.index("{% block sharing %}")
        )
        + 14
    ]
    return {
        "retry-budget": heads["retry-budget"],
        "retry-jitter": {
            "differentLines": [line for line in heads["retry-jitter"] if line not in heads["retry-budget"]],
            "jsonLd": data,
        },
        "no-cover": {
            "twitter:card": [line for line in heads["no-cover"] if "twitter:card" in line],
            "og:image": [line for line in heads["no-cover"] if "og:image" in line],
        },
        "sharingBlock": block.splitlines(),
        "checks": {
            "built": ran.code == 0,
            "scriptCannotBeClosedEarly": "</" not in ld[ld.index(">") + 1 : ld.rindex("</script>")],
            "homeHasOnlyTheAuthor": "og:type" not in page(root, "index.html")
            and '<meta name="author" content="Ann Example">' in page(root, "index.html"),
        },
    }


@fixture
def cover_png() -> dict:
    """SHARED built twice (the second time after an edit): the PNG drawn from COVER, and its cache;
    then a site whose cover is not well-formed SVG, validated and built."""
    root = site({"articles/retry.py": SHARED, "assets/retry/cover.svg": COVER})
    first = run(root, "build")
    drawn = (root / "build" / "og" / "retry" / "cover.svg.png").read_bytes()
    cache = root / ".site-builder-cache" / "og"
    kept = {path.name: path.stat().st_mtime_ns for path in cache.iterdir()}
    edit(root / "articles" / "retry.py", "Nothing to show but words.", "Nothing to show but a few words.")
    second = run(root, "build")
    page_bytes = (root / "build" / "og" / "retry" / "cover.svg.png").read_bytes()
    bad = site(
        {
            "articles/tall.py": article("tall-cover", "Tall").replace(
                "        body=[", '        cover="/assets/covers/tall.svg",\n        body=['
            ),
            "assets/covers/tall.svg": BAD_COVER,
        }
    )
    checked, built = run(bad, "validate"), run(bad, "build")
    return {
        "og": sorted(
            path.relative_to(root / "build").as_posix() for path in (root / "build" / "og").rglob("*.png")
        ),
        "pngSize": _png_size(drawn),
        "cacheEntries": len(kept),
        "unreadable": {
            "validate": {"exit": checked.code, "stderr": checked.lines},
            "build": {"exit": built.code, "stderr": built.lines},
        },
        "checks": {
            "bothBuilt": first.code == second.code == 0,
            "sameBytesAfterTheEdit": page_bytes == drawn,
            "notDrawnAgain": {p.name: p.stat().st_mtime_ns for p in cache.iterdir()} == kept,
        },
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


MOMENT_PROBE = {
    "templates/article.html": (
        '<!doctype html>\n<html lang="{{ lang }}"><body><p>{% if article.history %}'
        "{% for v in article.history.versions %}[{{ v.date }} | {{ v.date|moment }}]{% endfor %}"
        "{% endif %}</p>\n<div data-pagefind-body>{{ article.body }}</div></body></html>\n"
    ),
}
"""An article template that prints each version's ``date`` as it is and through ``moment``."""


@fixture
def moment_values() -> dict:
    """The article of ``history_values`` corrected the day it was published, at 16:20 in Seoul."""
    first = article().replace('published="2026-12-01"', 'published="2026-11-02"')
    same_day = CORRECTED.replace('revised="2026-11-20"', 'revised="2026-11-02T16:20+09:00"')
    root = site({"articles/a_demo.py": first, "articles/b_fix.py": same_day} | MOMENT_PROBE)
    ran = run(root, "build")
    shown = re.search(r"<p>(.*?)</p>", page(root, "articles/demo/index.html")) if ran.code == 0 else None
    return {"history": shown.group(1) if shown else None, "checks": {"built": ran.code == 0}}


@fixture
def history_values() -> dict:
    """An article corrected by a later batch, and another never revised, built with HISTORY_PROBES."""
    first = article().replace('published="2026-12-01"', 'published="2026-11-02"')
    files = {
        "articles/a_demo.py": first,
        "articles/b_fix.py": CORRECTED,
        "articles/c_other.py": article("other"),
    }
    root = site(files | HISTORY_PROBES)
    ran = run(root, "build")
    names = (
        "articles/demo/index.html",
        "articles/demo/revisions/1/index.html",
        "articles/demo/diff/2/index.html",
        "articles/other/index.html",
        "index.html",
    )
    shown = {
        name: re.search(r"<p>(.*?)</p>", page(root, name)).group(1) if ran.code == 0 else None
        for name in names
    }
    diff = between(page(root, "articles/demo/diff/2/index.html"), "<div>", "</div>") if ran.code == 0 else ""
    return {
        "pages": shown,
        "diff.html": diff,
        "checks": {
            "built": ran.code == 0,
            "earlierRevisionCanonicalIsTheArticle": (
                shown["articles/demo/revisions/1/index.html"] or ""
            ).startswith("canonical=https://demo.example/articles/demo/ "),
        },
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


COUNTS = """\
{% extends "base.html" %}
{% block main %}
<p>as it is: {{ labels.minutes }}</p>
<p>{% for n in [1, 3] %}{{ labels.minutes.format(n=n) }}; {% endfor %}</p>
<p>{% for c in categories %}{{ c.name }}: {{ labels.article_count.format(n=c.count) }}; {% endfor %}</p>
<p>{% for n in [0, 1, 2, 5, 21, 22] %}{{ labels_in("ru").article_count.format(n=n) }}; {% endfor %}</p>
<p>{% for n in [1, 2] %}{{ labels_in("ko").article_count.format(n=n) }}; {% endfor %}</p>
{% endblock %}
"""
"""``templates/categories.html``: the plural labels, printed as they are and with numbers."""

COVERS = """\
{% extends "base.html" %}
{% block main %}
{% for i in items %}<p>{{ i.slug }}: cover={{ i.cover }} cover_size={{ i.cover_size }}</p>
{% endfor %}
{% endblock %}
"""
"""``templates/index.html``: each item's cover and the size read from its file."""


@fixture
def count_labels() -> dict:
    """A site of two articles in two categories, one with a 320 × 180 SVG cover, built with COUNTS
    and COVERS: what the categories page and the home page print."""
    covered = article("covered", "Covered").replace(
        "        body=[", '        cover="/assets/card.svg",\n        body=['
    )
    files = {
        "articles/covered.py": covered,
        "articles/plain.py": article("plain", "Plain").replace('["Demo"]', '["Demo", "Notes"]'),
        "assets/card.svg": '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 320 180"/>\n',
        "templates/categories.html": COUNTS,
        "templates/index.html": COVERS,
    }
    root = site(files)
    ran = run(root, "build")

    def shown(name: str) -> list[str]:
        main = between(page(root, name), '<main id="main">', "</main>") if ran.code == 0 else ""
        return re.findall(r"<p>(.*?)</p>", main)

    return {
        "categoriesPage": shown("categories/index.html"),
        "homePage": shown("index.html"),
        "checks": {"built": ran.code == 0},
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


def _validated_and_built(template: str) -> tuple[Path, Ran, Ran]:
    """A demo site whose ``templates/404.html`` is ``template``: validated, then built."""
    root = site({"articles/demo.py": article(), "templates/404.html": template})
    return root, run(root, "validate"), run(root, "build")


def _both_said(checked: Ran, built: Ran, checks: dict[str, bool]) -> dict:
    """What validate and build printed, and ``checks``: a fixture's result."""
    return {
        "validate": {"exit": checked.code, "stderr": checked.lines},
        "build": {"exit": built.code, "stderr": built.lines},
        "checks": checks,
    }


@fixture
def unknown_variable() -> dict:
    """A template that uses a variable it is not given: validate, then build."""
    root, checked, built = _validated_and_built(UNKNOWN)
    checks = {
        "validateRendersNoPage": checked.code == 0,
        "buildFails": built.code == 1,
        "atTheTemplatesLine": built.lines[0].startswith("templates/404.html:3:"),
        "nothingWritten": not (root / "build").exists(),
    }
    return _both_said(checked, built, checks)


@fixture
def unclosed_call() -> dict:
    """A template that does not compile: validate, then build."""
    root, checked, built = _validated_and_built(UNCLOSED)
    checks = {
        "bothFail": checked.code == built.code == 1,
        "sameLine": checked.lines[0] == built.lines[0],
        "nothingWritten": not (root / "build").exists(),
    }
    return _both_said(checked, built, checks)


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
def history_hooks() -> dict:
    """The selectors of the built stylesheet's rules for the history, the notice and the diff page,
    and the colours of the marks in light and dark mode."""
    root = site({"articles/demo.py": article()})
    ran = run(root, "build")
    css = page(root, "theme/style.css")
    selectors = [
        s.strip()
        for s in re.findall(r"^([^{}\n/]*\.(?:history|revision-notice|diff)\b[^{}\n]*)\{", css, re.MULTILINE)
    ]
    return {
        "selectors": selectors,
        "markColours": lines_with(css, "--ins-bg:"),
        "checks": {
            "built": ran.code == 0,
            "lightAndDark": len(lines_with(css, "--ins-bg:")) == 2,
            "neverColourAlone": "text-decoration: underline" in css
            and "text-decoration: line-through" in css,
        },
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
                    "diff.html",
                    "index.html",
                ]
            },
        ),
        paragraph(
            "Six of them are pages; the four whose names begin with `_` are pieces that the pages "
            "include, and `base.html` is the frame the pages extend. Every template gets four values — "
            "`site`, `lang`, `labels` and `canonical` — and two functions, `labels_in` and `url`; "
            "the page templates get more:"
        ),
        data_table(
            "What each template renders, and what it is given besides site, lang, labels, canonical, "
            "labels_in and url",
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
        heading("Labels with a number, and cover sizes"),
        paragraph(
            "A label that holds a number is a *plural label*: it has one text per plural form of its "
            "language ([Languages](/articles/languages/#numbers-and-plural-forms)), and "
            "`.format(n=…)` puts the number into the text of the form that goes with it. Printed as "
            "it is, `{{ labels.minutes }}` shows its `other` text with `{n}` still in it, as it did "
            "before labels had plural forms. `labels_in(tag)` gives another language's labels, "
            "with that language's forms. This `templates/categories.html` prints them for a site of "
            "two articles, one in the category *Demo*, the other in *Demo* and *Notes*:"
        ),
        code_block(COUNTS, language="html"),
        verified_output(
            count_labels,
            expected={
                "categoriesPage": [
                    "as it is: {n} min read",
                    "1 min read; 3 min read; ",
                    "Demo: 2 articles; Notes: 1 article; ",
                    "0 статей; 1 статья; 2 статьи; 5 статей; 21 статья; 22 статьи; ",
                    "글 1개; 글 2개; ",
                ]
            },
        ),
        paragraph(
            "The package's `categories.html` writes each count that way, "
            "`labels.article_count.format(n=c.count)`, and `_card.html` the reading time as "
            "`words.minutes.format(n=item.minutes)`, where `words` is `labels_in(item.lang)`. "
            "`article.cover_size` and each item's `cover_size` are the cover's `(width, height)`, "
            "read from its file ([Writing an article](/articles/writing-articles/#image-sizes)); "
            "the package's templates write them as the `width` and `height` of the cover's `<img>`. "
            "They are none without a cover, and for a cover on another site. An `index.html` that "
            'prints them, for the same site, whose first article has a cover `<svg viewBox="0 0 320 '
            '180">`:'
        ),
        code_block(COVERS, language="html"),
        verified_output(
            count_labels,
            expected={
                "homePage": [
                    "covered: cover=/assets/card.svg cover_size=(320, 180)",
                    "plain: cover=None cover_size=None",
                ]
            },
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
        heading("An article's history in a template"),
        paragraph(
            "An article corrected by later revisions ([Correcting an "
            "article](/articles/revisions-over-time/)) has one page per revision, all rendered by "
            "`article.html`, and one page per correction rendered by `diff.html`. On those pages "
            "`article.history` holds the article's revisions: `versions`, newest first, each with "
            "`number`, `date` (the date it took effect), `changes` (its note as trusted HTML; empty "
            "for the first), `url` (its page: the article's URL for the latest) and `diff` (the page "
            "of what it changed; empty for the first); `shown`, the number of the revision the page "
            "shows; and for convenience `latest`, `current` (the version shown), `url` (the page's "
            "own) and `is_latest`. For an article with a single revision `article.history` is none, "
            "which is how the package's `article.html` leaves out the *Updated* date, the notice "
            "and the history section. A fixture builds an article published by `articles/a_demo.py` "
            "on 2026-11-02 and corrected by this `articles/b_fix.py`, and another article never "
            "revised, with templates that print these values:"
        ),
        code_block(CORRECTED, language="python"),
        verified_output(
            history_values,
            expected={
                "pages": {
                    "articles/demo/index.html": "canonical=https://demo.example/articles/demo/ "
                    "history.shown=2 history.is_latest=True history.url=/articles/demo/ history.latest=2 "
                    "history.current=2 history.versions=[number=2 date=2026-11-20 changes=A "
                    "<em>shorter</em> sentence. url=/articles/demo/ diff=/articles/demo/diff/2/]"
                    "[number=1 date=2026-11-02 changes= url=/articles/demo/revisions/1/ diff=]",
                    "articles/demo/revisions/1/index.html": "canonical=https://demo.example/articles/demo/ "
                    "history.shown=1 history.is_latest=False history.url=/articles/demo/revisions/1/ "
                    "history.latest=2 history.current=1 history.versions=[number=2 date=2026-11-20 "
                    "changes=A <em>shorter</em> sentence. url=/articles/demo/ "
                    "diff=/articles/demo/diff/2/][number=1 date=2026-11-02 changes= "
                    "url=/articles/demo/revisions/1/ diff=]",
                    "articles/demo/diff/2/index.html": "diff.title=Demo diff.article_url=/articles/demo/ "
                    "diff.old=1 /articles/demo/revisions/1/ diff.new=2 /articles/demo/ diff.added=1 "
                    "diff.removed=3",
                    "articles/other/index.html": "canonical=https://demo.example/articles/other/ "
                    "history=None",
                    "index.html": "other: published=2026-12-01 updated=; demo: published=2026-11-02 "
                    "updated=2026-11-20; ",
                },
            },
        ),
        paragraph(
            "A version's `date` is a date, or for a correction made the day of the revision before "
            "it a date and time in RFC 3339, ready for a `<time datetime>`. The filter `moment` "
            "writes it as readers read it, as the package's templates do: the date alone, or the "
            "date, the time and the offset from UTC. The article above, corrected the day it was "
            'published with `revised="2026-11-02T16:20+09:00"`, under a template that prints '
            "`[{{ v.date }} | {{ v.date|moment }}]` for each version:"
        ),
        verified_output(
            moment_values,
            expected={
                "history": "[2026-11-02T16:20:00+09:00 | 2026-11-02 16:20 UTC+09:00][2026-11-02 | 2026-11-02]"
            },
        ),
        paragraph(
            "Both pages of the corrected article name the article's URL as canonical, and the home "
            "page lists each article by the date of its latest revision, newest first. The diff "
            "page's `diff.old` and `diff.new` are versions like those of `article.history.versions`, "
            "so `diff.new.changes` and `diff.new.date` are there too. `diff.html` is the newer "
            "revision's body as `contentHtml` holds it — no heading ids, no highlighting — with the "
            "marks added:"
        ),
        verified_output(
            history_values,
            expected={
                "diff.html": "<div><p>This article exists <del>so</del><ins>for</ins> the tool <del>has "
                "something</del> to check.</p>\n<h2>Sources</h2>\n"
                '<ul><li><a href="https://spec.commonmark.org/0.31.2/" target="_blank" '
                'rel="noopener noreferrer">CommonMark</a> — the syntax</li></ul></div>'
            },
        ),
        paragraph(
            'An added or removed block is wrapped whole in `<ins class="diff-block">` or `<del '
            'class="diff-block">`; a list item, table row or cell added or removed, which HTML does '
            'not allow inside `<ins>`, carries `data-diff="ins"` or `data-diff="del"` and has its '
            "content wrapped instead. A site's own `article.html` written before histories existed "
            "still builds: it shows each revision's text, and simply no history."
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
            "checked like every other link of the site, and reported at the template's file and line: "
            "what it writes literally — a link to a page that does not exist, an image without alt "
            "text — already by `validate`, what it makes from an expression by `build` (see "
            "[Site-wide rules](/articles/site-wide-rules/#templates-a-site-writes))."
        ),
        paragraph(
            "Templates are inputs of the build like articles and settings: `serve` rebuilds when a file "
            "in `templates/` changes, and a changed template makes an incremental build render every "
            "page again."
        ),
        heading("Escaping and undefined variables"),
        paragraph(
            "The templates are rendered with autoescaping on: a value printed with `{{ … }}` is "
            "escaped as HTML unless it is already marked safe — which only the article's `body`, the "
            "`changes` note of a revision and a diff page's `diff.html` are, since the helpers and the "
            "renderer built them. A site title with markup characters in it stays text:"
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
            "A template error is reported like any other problem, at the template's file and line — "
            "never as a traceback or a path in the output folder. `validate` compiles each template "
            "in your `templates/` folder, so one that is not valid Jinja fails it, as it fails the "
            "build, at the same line. Here `templates/404.html` leaves a call open:"
        ),
        code_block(UNCLOSED, language="html"),
        verified_output(
            unclosed_call,
            expected={
                "validate": {
                    "exit": 1,
                    "stderr": [
                        "templates/404.html:3: template: TemplateSyntaxError: unexpected '}', expected ')'",
                        "1 problem found",
                    ],
                },
                "build": {
                    "exit": 1,
                    "stderr": [
                        "templates/404.html:3: template: TemplateSyntaxError: unexpected '}', expected ')'",
                        "1 problem found",
                        "nothing was written; the previous site is untouched",
                    ],
                },
            },
        ),
        paragraph(
            "Undefined variables are errors too (Jinja's `StrictUndefined`): a misspelt name or "
            "attribute does not quietly print an empty string. That one only a rendered page can "
            "show: `validate` does not render pages, so it passes, and `build` fails without writing "
            "anything. Here `templates/404.html` prints a variable called `author`, which no page is "
            "given:"
        ),
        code_block(UNKNOWN, language="html"),
        verified_output(
            unknown_variable,
            expected={
                "validate": {"exit": 0, "stderr": ["ok: 1 revision valid, 0 fixtures passed"]},
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
            "`site-builder serve` running): `validate` alone catches only the ones that do not "
            "compile."
        ),
        heading("Shared and indexed: the head of an article page"),
        paragraph(
            "A link to an article pasted into a chat, a social network or a feed reader is shown as a "
            "card — title, description, picture — read from the page's OpenGraph and Twitter `<meta>` "
            "tags; search engines read the article's JSON-LD, schema.org data in a `<script>` element. "
            "Every article page carries both, right after its canonical link, made from the revision "
            "and the settings: nothing to write. A fixture builds this batch, with the cover below "
            'and `author = "Ann Example"` in the settings:'
        ),
        code_block(SHARED, language="python"),
        paragraph("The head of the Russian article, from the canonical link to the JSON-LD:"),
        verified_output(
            sharing_tags,
            expected={
                "retry-budget": [
                    '<link rel="canonical" href="https://demo.example/articles/retry-budget/">',
                    '<meta property="og:type" content="article">',
                    '<meta property="og:title" content="Бюджет повторов">',
                    '<meta property="og:description" content="Сколько повторов выдержит сервис.">',
                    '<meta property="og:url" content="https://demo.example/articles/retry-budget/">',
                    '<meta property="og:site_name" content="Demo">',
                    '<meta property="og:locale" content="ru_RU">',
                    '<meta property="article:published_time" content="2026-11-20">',
                    '<meta property="article:modified_time" content="2026-11-20">',
                    '<meta property="og:image" content="https://demo.example/og/retry/cover.svg.png">',
                    '<meta property="og:image:type" content="image/png">',
                    '<meta property="og:image:width" content="1200">',
                    '<meta property="og:image:height" content="630">',
                    '<meta property="og:image:alt" content="Бюджет повторов">',
                    '<meta name="twitter:card" content="summary_large_image">',
                    '<meta name="twitter:title" content="Бюджет повторов">',
                    '<meta name="twitter:description" content="Сколько повторов выдержит сервис.">',
                    '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Article",'
                    '"headline":"Бюджет повторов","description":"Сколько повторов выдержит сервис.",'
                    '"inLanguage":"ru","datePublished":"2026-11-20","dateModified":"2026-11-20",'
                    '"author":{"@type":"Person","name":"Ann Example"},'
                    '"url":"https://demo.example/articles/retry-budget/",'
                    '"mainEntityOfPage":{"@type":"WebPage","@id":"https://demo.example/articles/retry-budget/"},'
                    '"image":"https://demo.example/og/retry/cover.svg.png"}</script>',
                ]
            },
        ),
        unordered_list(
            [
                "**Title and description** are the revision's `title` (without the site's name) and "
                "`excerpt`; `og:url` is the canonical URL, `base_url` and the page's path; "
                "`og:site_name` the site's `title`.",
                "**`og:locale`** comes from the revision's `lang`: a tag with a territory keeps it "
                "(`pt-BR` → `pt_BR`), a bare language takes its most likely one (`ru` → `ru_RU`, "
                "`en` → `en_US`, `ko` → `ko_KR`), and a language too rare for that list gets no "
                "`og:locale` tag rather than a guess.",
                "**The dates**: the published time is the article's `published`, the day it first "
                "appeared; the modified time is the date of the revision the page shows — the same "
                "date for a first revision, its `revised` date for a later one ([Correcting an "
                "article](/articles/revisions-over-time/#lists-the-feed-the-sitemap-and-search)).",
                "**The picture** (`og:image`, with its alt text, the title) is there only when the "
                "cover can be one: a PNG drawn from an SVG cover (next section), or a PNG, JPEG, GIF "
                "or WebP cover as it is. With a picture the Twitter card is `summary_large_image`, "
                "without one `summary`.",
                "**The JSON-LD** is one schema.org `Article`: headline, description, language, "
                "dates, `author` (a `Person` named by the `author` setting; without it the site, an "
                "`Organization` named by its title — see [Settings](/articles/settings/)), URL and "
                "picture.",
            ]
        ),
        paragraph(
            "The English article, which shares the cover, differs in these lines only; its title "
            "shows how values are escaped — as every attribute in the `<meta>` tags, and with "
            "`\\u0026`, `\\u003c`, `\\u003e` in the JSON-LD, so that no title can close the "
            "`<script>` element — and its JSON-LD, parsed, is the data search engines get. The "
            "article without a cover has the small card and no picture:"
        ),
        verified_output(
            sharing_tags,
            expected={
                "retry-jitter": {
                    "differentLines": [
                        '<link rel="canonical" href="https://demo.example/articles/retry-jitter/">',
                        '<meta property="og:title" content="Jitter &amp; &lt;backoff&gt;">',
                        '<meta property="og:description" content="Why retries wait a random time.">',
                        '<meta property="og:url" content="https://demo.example/articles/retry-jitter/">',
                        '<meta property="og:locale" content="en_US">',
                        '<meta property="article:published_time" content="2026-11-25">',
                        '<meta property="article:modified_time" content="2026-11-25">',
                        '<meta property="og:image:alt" content="Jitter &amp; &lt;backoff&gt;">',
                        '<meta name="twitter:title" content="Jitter &amp; &lt;backoff&gt;">',
                        '<meta name="twitter:description" content="Why retries wait a random time.">',
                        '<script type="application/ld+json">{"@context":"https://schema.org",'
                        '"@type":"Article","headline":"Jitter \\u0026 \\u003cbackoff\\u003e",'
                        '"description":"Why retries wait a random time.","inLanguage":"en",'
                        '"datePublished":"2026-11-25","dateModified":"2026-11-25",'
                        '"author":{"@type":"Person","name":"Ann Example"},'
                        '"url":"https://demo.example/articles/retry-jitter/",'
                        '"mainEntityOfPage":{"@type":"WebPage","@id":"https://demo.example/articles/retry-jitter/"},'
                        '"image":"https://demo.example/og/retry/cover.svg.png"}</script>',
                    ],
                    "jsonLd": {
                        "@context": "https://schema.org",
                        "@type": "Article",
                        "headline": "Jitter & <backoff>",
                        "description": "Why retries wait a random time.",
                        "inLanguage": "en",
                        "datePublished": "2026-11-25",
                        "dateModified": "2026-11-25",
                        "author": {"@type": "Person", "name": "Ann Example"},
                        "url": "https://demo.example/articles/retry-jitter/",
                        "mainEntityOfPage": {
                            "@type": "WebPage",
                            "@id": "https://demo.example/articles/retry-jitter/",
                        },
                        "image": "https://demo.example/og/retry/cover.svg.png",
                    },
                },
                "no-cover": {
                    "twitter:card": ['<meta name="twitter:card" content="summary">'],
                    "og:image": [],
                },
            },
        ),
        paragraph(
            'The other pages — home, categories, 404 — carry only `<meta name="author">` (see '
            "[Settings](/articles/settings/)). The tags come from the `sharing` block: `base.html` "
            "leaves it empty, and the package's `article.html` fills it from the `sharing` variable:"
        ),
        verified_output(
            sharing_tags,
            expected={
                "sharingBlock": [
                    "{% block sharing %}{% for attribute, name, content in sharing.meta %}<meta "
                    '{{ attribute }}="{{ name }}" content="{{ content }}">',
                    '{% endfor %}<script type="application/ld+json">{{ sharing.json_ld }}</script>',
                    "{% endblock %}",
                ]
            },
        ),
        paragraph(
            "A site's own `article.html` that extends `base.html` gets none of these tags until it "
            "has the same block: copy these three lines into it. One that leaves the block out, on "
            "purpose or because it was written before the block existed, simply has no sharing tags "
            "— nothing fails. `sharing.json_ld` is already escaped for the `<script>` element, so "
            "print it as it is."
        ),
        heading("The cover social sites see"),
        paragraph(
            "Social sites do not show SVG, so `build` draws each SVG cover under `assets/` as a PNG "
            "of 1200 × 630 pixels — the size Facebook, X and LinkedIn ask for — at `og/` and the "
            "cover's path under `assets/`, with `.png` added: `/assets/retry/cover.svg` becomes "
            "`og/retry/cover.svg.png` in the output, and that is the page's `og:image`. The cover "
            "of the batch above:"
        ),
        code_block(COVER, language="xml"),
        verified_output(
            cover_png,
            expected={"og": ["og/retry/cover.svg.png"], "pngSize": [1200, 630], "cacheEntries": 1},
        ),
        unordered_list(
            [
                "**Drawn once.** The two articles share the cover, so it was drawn once: `og/` "
                "holds one PNG and `.site-builder-cache/og/` one drawing (`cacheEntries`). The "
                "fixture then edited an article and built again: the cover was not drawn again "
                "and the PNG kept its bytes. A cover is drawn again only when its SVG changes, or "
                "— for an SVG with text — the installed fonts do. Many new covers are drawn in "
                "`--jobs` worker processes; each takes some tens of milliseconds, more with text.",
                "**Fitted, not cropped.** An SVG of another shape is fitted inside 1200 × 630 with "
                "its proportions kept, centred on white. Draw covers at 1200 × 630 (or 40:21) to "
                "fill the card. Dark-mode rules of the SVG (`prefers-color-scheme`) are not "
                'applied, and files the SVG refers to (`<image href="photo.png">`) are not '
                "drawn, as a browser showing the SVG as an image would not; `data:` images are.",
                "**Text and fonts.** Text in the SVG is drawn with the fonts installed on the "
                "machine that builds (the system's font folders), so the same cover may look "
                "different on another machine, and a script with no font installed — Korean on a "
                "machine without a CJK font — comes out as empty boxes. Name the face in the SVG "
                '(`font-family: "Noto Sans CJK KR", sans-serif`) and install it where you build '
                "(Debian and Ubuntu: `apt-get install fonts-noto-cjk`). The PNG has the same bytes "
                "from build to build on one machine.",
                "**In CI**, a build from a fresh clone draws every cover again; keep "
                "`.site-builder-cache/` between runs (see [Deploying](/articles/deploying/)) to "
                "draw only the new ones.",
            ]
        ),
        paragraph(
            "A PNG, JPEG, GIF or WebP cover needs no drawing: it is the `og:image` as it is, below "
            "`base_url` when it is a path of the site. Any other cover — an SVG on another host — "
            "gives no picture. `validate` reads only an SVG cover's `<svg>` tag, for the size every "
            "page gives the cover — an SVG without a size, or whose `<svg>` tag is broken, is "
            "already its problem ([Writing an article](/articles/writing-articles/#image-sizes)). It "
            "draws nothing, so an SVG broken further down is found by `build`, at the SVG's own "
            "line, under the slug of the first article that shows it. Here "
            "`assets/covers/tall.svg` writes the attribute `x` twice on its line 2:"
        ),
        code_block(BAD_COVER, language="xml"),
        verified_output(
            cover_png,
            expected={
                "unreadable": {
                    "validate": {"exit": 0, "stderr": ["ok: 1 revision valid, 0 fixtures passed"]},
                    "build": {
                        "exit": 1,
                        "stderr": [
                            "assets/covers/tall.svg:2: tall-cover: the cover cannot be drawn as a PNG for "
                            "social sites: attribute 'x' at 2:15 is already defined",
                            "1 problem found",
                            "nothing was written; the previous site is untouched",
                        ],
                    },
                }
            },
        ),
        paragraph(
            "A browser would not show that cover either; fix the SVG and build again. The drawing "
            "is done by resvg (the `resvg-py` package, installed with site_builder: a self-contained "
            "wheel, no system library needed)."
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
                "**dark mode** is the media query `prefers-color-scheme: dark`, which gives the same "
                "properties dark values — the page follows the reader's system setting, with no switch;",
                "**print** gets black on white, hides the search box, navigation and table of contents, "
                "and writes each external link's address after it;",
                "**wide screens** (62rem and up) put the ordered navigation in a sidebar beside the article.",
            ]
        ),
        paragraph(
            "Two rules are about line breaks: text in Korean breaks between words only "
            "(`word-break: keep-all` on `:lang(ko)`), and inline code moves to the next line whole "
            "instead of breaking inside a token — [Languages](/articles/languages/"
            "#korean-line-breaks-and-inline-code) shows both."
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
        paragraph(
            "The pages of an article's history have theirs: `.history` is the section listing the "
            "revisions (`.diff-link` the link to what one changed), `.revision-notice` the dashed "
            "box at the top of an earlier revision's page, and on a diff page `.diff` is the body. "
            "There `ins` and `del`, and the items, rows and cells marked `data-diff`, get a green "
            "and a red background — from the properties `--ins-bg` and `--del-bg`, darker in dark "
            "mode — and never colour alone: added words are underlined, removed ones struck "
            "through, and a block added or removed whole (`.diff-block`) has a rule down its side "
            "instead, so a change is told apart without colour, in print too. `.diff-summary` is "
            "the line counting the words. The selectors, and the lines that set the two colours:"
        ),
        verified_output(
            history_hooks,
            expected={
                "selectors": [
                    ".history",
                    ".history h2",
                    ".history ol",
                    ".history li",
                    ".diff-link",
                    ".revision-notice",
                    '.diff ins, .diff [data-diff="ins"]',
                    '.diff del, .diff [data-diff="del"]',
                    ".diff ins",
                    ".diff del",
                    ".diff .diff-block",
                    ".diff ins.diff-block",
                    ".diff del.diff-block",
                    ".diff-summary",
                ],
                "markColours": [
                    ":root { --ins-bg: #d7f5dd; --del-bg: #fde2e1; }",
                    ":root { --ins-bg: #1f4d2b; --del-bg: #5c2424; }",
                ],
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
            "`contentHtml`, and the media queries of the built stylesheet (the theme's — dark mode, "
            "wide screens, print, then dark mode again for the colours of a diff — and last the "
            "tokens' dark colours):"
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
