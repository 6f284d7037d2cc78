"""A site served below a path (``base_url = "https://example.org/sub/"``, a GitHub Pages
project site): every URL it writes lies below ``/sub/``.

DESIGN.md "Additions", Sub-paths. Authors keep writing site-relative URLs
(``/assets/x.svg``, ``/articles/slug/#part``) and validation resolves them against the
site root; the pages, the feed, the sitemap and the search script carry the path.
``contentHtml`` (``revisions.json``) keeps the author's URLs as written: importers read it.
A site at the domain's root is built exactly as before (``tests/whole_site/test_build_golden.py``).
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import shutil
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from bs4 import BeautifulSoup

from site_builder import cli
from site_builder.errors import Problem
from site_builder.model.layout import site_relative, under
from site_builder.render.sub_path import move_under
from site_builder.search.merged import merging_script
from site_builder.settings.project import Settings
from tests.support.reference import check_pages
from tests.support.site_urls import (
    ATOM,
    SITEMAP,
    XML_BASE,
    dead_urls,
    differing_beyond_urls,
    feed_urls,
    html_urls,
)
from tests.support.sites import SITES, RunCli, searchable, set_base_url, tree

HOST = "example.org"
SUB = f"https://{HOST}/sub/"
ROOT = f"https://{HOST}/"
SUB_PATHS = ("/sub/", "/sub/dir/")
"""The paths the built-site tests run below: one folder deep (a GitHub Pages project site) and two."""

LINKS_BATCH = '''\
"""An article whose body links into the site the ways authors write it."""

from site_builder import Source, figure, heading, paragraph, revision

RFC = Source(title="RFC 3986", url="https://www.rfc-editor.org/rfc/rfc3986", note="relative references")
PAGES = Source(title="GitHub Pages", url="https://docs.github.com/pages", note="project sites")

revisions = [
    revision(
        slug="links-below-a-path",
        title="Links below a path",
        categories=["HTTP", "Paths"],
        excerpt="Site-relative links written by the author.",
        cover="/assets/db/cover.svg",
        published="2021-03-04",
        lang="en",
        body=[
            paragraph("See [the budget](/articles/retry-budget/#the-budget), "
                      "[the drawing](/assets/db/write-path.svg), [home](/) and [a list](/categories/)."),
            heading("A figure"),
            figure("/assets/db/write-path.svg", "Client, server and log", "The write path."),
        ],
        sources=[RFC, PAGES],
    ),
]
'''

FILLER_BATCH = """\
from site_builder import Source, paragraph, revision

revisions = [revision(
    slug="filler-{n:02d}", title="Filler {n}", categories=["Filler"], excerpt="Filler.",
    published="2019-01-{day:02d}", lang="en",
    body=[paragraph("A short page about {word}, for the search index.")],
    sources=[Source(title="A", url="https://a.example/", note="a"),
             Source(title="B", url="https://b.example/", note="b")],
)]
"""


def filler_word(n: int) -> str:
    """A made-up word only the ``n``-th filler article holds."""
    return "zyxfiller" + "abcdefghijklmnopqrstuvwxyz"[n]


def make_site(folder: Path, base_url: str, *, fillers: int = 0) -> Path:
    """``tests/sites/valid_site`` (three batches, covers, a figure, a ``#fragment`` link across
    articles, non-ASCII categories) plus an article linking the ways authors do, and ``fillers``
    one-article batches (eleven or more make two search shards), served from ``base_url``."""
    root = folder / "site"
    shutil.copytree(SITES / "valid_site", root)
    set_base_url(root, base_url)
    (root / "articles/links_en.py").write_text(LINKS_BATCH, "utf-8")
    for n in range(fillers):
        batch = FILLER_BATCH.format(n=n, day=n + 1, word=filler_word(n))
        (root / f"articles/filler_{n:02d}.py").write_text(batch, "utf-8")
    return root


def build(run_cli: RunCli, root: Path) -> Path:
    result = run_cli(["build", "--root", str(root)])
    assert result.code == 0, result.err
    return root / "build"


def build_once(folder: Path, base_url: str) -> Path:
    root = make_site(folder, base_url)
    messages = io.StringIO()
    with contextlib.redirect_stderr(messages):
        assert cli.main(["build", "--root", str(root)]) == 0, messages.getvalue()
    return root / "build"


@dataclass(frozen=True)
class Sites:
    """The same site built below a path and at the domain's root."""

    path: str
    """The path the first is served below (``/sub/``)."""
    sub: Path
    """Its output."""
    root: Path
    """The output of the build at the domain's root."""

    @property
    def url(self) -> str:
        return f"https://{HOST}{self.path}"


@pytest.fixture(scope="module")
def root_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site built at the domain's root, once."""
    return build_once(tmp_path_factory.mktemp("root"), ROOT)


@pytest.fixture(scope="module", params=SUB_PATHS, ids=["sub", "sub-dir"])
def sites(
    request: pytest.FixtureRequest, root_build: Path, tmp_path_factory: pytest.TempPathFactory
) -> Sites:
    """The site built below each of :data:`SUB_PATHS` (each once), and at the root."""
    path = str(request.param)
    return Sites(path, build_once(tmp_path_factory.mktemp("sub"), f"https://{HOST}{path}"), root_build)


# --- the base path and the helpers that use it -------------------------------------------

BASE_PATHS = [
    ("domain-root", "https://example.org/", "/"),
    ("domain-without-slash", "https://example.org", "/"),
    ("project-site", "https://user.github.io/repo/", "/repo/"),
    ("no-trailing-slash", "https://example.org/sub", "/sub/"),
    ("nested", "https://example.org/a/b/", "/a/b/"),
    ("non-ascii", "https://example.org/блог/", "/%D0%B1%D0%BB%D0%BE%D0%B3/"),
    ("already-encoded", "https://example.org/%D0%B1/", "/%D0%B1/"),
    ("quote-and-ampersand", "https://example.org/a'b&c/", "/a%27b%26c/"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("base_url", "expected"), [c[1:] for c in BASE_PATHS], ids=[c[0] for c in BASE_PATHS]
)
def test_base_path_comes_from_the_base_url(base_url: str, expected: str) -> None:
    assert Settings(title="T", base_url=base_url).base_path == expected


UNDER = [
    ("page", "/sub/", "/articles/x/", "/sub/articles/x/"),
    ("page-with-fragment", "/sub/", "/articles/x/#part", "/sub/articles/x/#part"),
    ("site-root", "/sub/", "/", "/sub/"),
    ("fragment-alone", "/sub/", "#part", "#part"),
    ("absolute", "/sub/", "https://a.example/x", "https://a.example/x"),
    ("protocol-relative", "/sub/", "//a.example/x", "//a.example/x"),
    ("domain-root-site", "/", "/articles/x/", "/articles/x/"),
]  # fmt: skip


@pytest.mark.parametrize(("base", "url", "expected"), [c[1:] for c in UNDER], ids=[c[0] for c in UNDER])
def test_under_puts_site_relative_urls_below_the_base_path(base: str, url: str, expected: str) -> None:
    assert under(base, url) == expected


SITE_RELATIVE = [
    ("below", "/sub/", "/sub/articles/x/", "/articles/x/"),
    ("the-base-itself", "/sub/", "/sub/", "/"),
    ("the-base-without-slash", "/sub/", "/sub", "/"),
    ("outside", "/sub/", "/articles/x/", None),
    ("a-longer-name", "/sub/", "/subway/", None),
    ("decoded-non-ascii", "/%D0%B1/", "/б/x/", "/x/"),
    ("domain-root-site", "/", "/articles/x/", "/articles/x/"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("base", "path", "expected"), [c[1:] for c in SITE_RELATIVE], ids=[c[0] for c in SITE_RELATIVE]
)
def test_site_relative_undoes_the_base_path(base: str, path: str, expected: str | None) -> None:
    assert site_relative(base, path) == expected


MOVED = [
    ("link", '<a href="/articles/x/#p">x</a>', '<a href="/sub/articles/x/#p">x</a>'),
    ("figure", '<img src="/assets/a.svg" alt="A" loading="lazy" />',
     '<img src="/sub/assets/a.svg" alt="A" loading="lazy" />'),
    ("site-root", '<a href="/">home</a>', '<a href="/sub/">home</a>'),
    ("fragment", '<a href="#p">p</a>', '<a href="#p">p</a>'),
    ("external", '<a href="https://a.example/x" target="_blank">a</a>',
     '<a href="https://a.example/x" target="_blank">a</a>'),
    ("protocol-relative", '<a href="//a.example/">a</a>', '<a href="//a.example/">a</a>'),
    ("escaped-text", "<p>write href=&quot;/x&quot; or src=&#039;/y&#039;</p>",
     "<p>write href=&quot;/x&quot; or src=&#039;/y&#039;</p>"),
    ("code", '<pre><code>&lt;a href=&quot;/x&quot;&gt;</code></pre>',
     '<pre><code>&lt;a href=&quot;/x&quot;&gt;</code></pre>'),
    ("attribute-name-inside-a-word", '<a data-href="/x" href="/y">y</a>',
     '<a data-href="/x" href="/sub/y">y</a>'),
]  # fmt: skip


@pytest.mark.parametrize(("html", "expected"), [c[1:] for c in MOVED], ids=[c[0] for c in MOVED])
def test_move_under_moves_only_site_relative_attributes(html: str, expected: str) -> None:
    assert move_under(html, "/sub/") == expected
    assert move_under(html, "/") == html


def test_search_script_names_the_bundles_and_results_below_the_path() -> None:
    bundles = ["/pagefind/", "/pagefind/shard-01/"]
    script = merging_script(bundles, "/sub/")
    assert 'var bundles = ["/sub/pagefind/", "/sub/pagefind/shard-01/"];' in script, script
    # The first bundle and every merged one resolve their results' URLs below the path.
    assert script.count('baseUrl: "/sub/"') == 2, script
    assert "baseUrl" not in merging_script(bundles, "/")


# --- the link check of built pages ---------------------------------------------------------

FILES = frozenset({"index.html", "articles/x/index.html", "assets/a.svg", "feed.xml"})


def page_problem(line: int, message: str) -> Problem:
    return Problem(path="build/index.html", line=line, subject="page", rule="page-link", message=message)


OUTSIDE = "is outside the site's path '/sub/': it would be dead once deployed"
SUB_CHECKS = [
    ("below-the-path", '<a href="/sub/articles/x/#here">x</a><img src="/sub/assets/a.svg" alt="A">'
     '<a href="/sub/">home</a><a href="/sub">home</a><a href="/sub/feed.xml">feed</a>', []),
    ("relative", '<a href="articles/x/">x</a><a href="./">home</a>', []),
    ("outside-the-path", '<a href="/articles/x/">x</a>', [page_problem(1, f"'/articles/x/' {OUTSIDE}")]),
    ("asset-outside", '\n<img src="/assets/a.svg" alt="A">', [page_problem(2, f"'/assets/a.svg' {OUTSIDE}")]),
    ("relative-leaving-the-path", '<a href="../x/">x</a>', [page_problem(1, f"'../x/' {OUTSIDE}")]),
    ("missing-below-the-path", '<a href="/sub/missing/">m</a>',
     [page_problem(1, "'/sub/missing/' points to no file of the site")]),
    ("fragment-below-the-path", '<a href="/sub/articles/x/#nowhere">x</a>',
     [page_problem(1, "'/sub/articles/x/#nowhere': no element with id 'nowhere' on articles/x/index.html")]),
    ("external", '<a href="https://example.org/x" target="_blank" rel="noopener noreferrer">x</a>', []),
]  # fmt: skip


@pytest.mark.parametrize(("html", "expected"), [c[1:] for c in SUB_CHECKS], ids=[c[0] for c in SUB_CHECKS])
def test_link_check_resolves_links_below_the_path(html: str, expected: list[Problem]) -> None:
    pages = {"index.html": html, "articles/x/index.html": '<h2 id="here">Here</h2>'}
    assert check_pages(pages, FILES, "build", base_path="/sub/") == expected


def test_a_template_link_outside_the_path_fails_the_build(tmp_path: Path, run_cli: RunCli) -> None:
    root = make_site(tmp_path, SUB)
    (root / "templates").mkdir()
    override = '{% extends "base.html" %}\n{% block main %}\n<a href="HREF">feed</a>\n{% endblock %}\n'
    (root / "templates/404.html").write_text(override.replace("HREF", "/sub/feed.xml"), "utf-8")
    build(run_cli, root)
    before = tree(root / "build")
    (root / "templates/404.html").write_text(override.replace("HREF", "/feed.xml"), "utf-8")

    result = run_cli(["build", "--root", str(root)])

    assert result.code == 1
    assert result.err.splitlines()[0] == f"templates/404.html:3: template: '/feed.xml' {OUTSIDE}"
    assert tree(root / "build") == before


# --- the built site ------------------------------------------------------------------------


def outside(resolved: str, path: str = "/sub/") -> bool:
    """A URL on the site's host that leaves ``path`` (it would be dead once deployed)."""
    parts = urlsplit(resolved)
    return parts.scheme in ("http", "https") and parts.hostname == HOST and not parts.path.startswith(path)


SCANNED_PAGE = """<!doctype html><html><head>
<link rel="icon" href="/x.svg"><meta property="og:image" content="https://example.org/o.png">
<meta name="description" content="Plain / text"></head><body>
<img src="/sub/a.svg" srcset="/b.svg 1x, /sub/c.svg 2x" alt="a"><form action="/search"></form>
<a href="../../up/">in</a><a href="../../../up/">out</a><a href="https://other.example/x">other</a>
</body></html>"""


def test_the_url_scan_sees_every_kind_of_url_attribute(tmp_path: Path) -> None:
    """The scan below is not vacuous: it finds a stray in any URL-valued attribute."""
    page = tmp_path / "articles/x/index.html"
    page.parent.mkdir(parents=True)
    page.write_text(SCANNED_PAGE, "utf-8")

    strays = sorted(f.url for f in html_urls(tmp_path, SUB) if outside(f.resolved))

    assert strays == ["../../../up/", "/b.svg", "/search", "/x.svg", "https://example.org/o.png"]


def test_no_url_of_any_page_leaves_the_sub_path(sites: Sites) -> None:
    out, path = sites.sub, sites.path
    found = html_urls(out, sites.url)
    strays = [f"{f.where}: {f.url}" for f in found if outside(f.resolved, path)]
    assert not strays, "\n".join(strays)
    # Every URL on the site's host names a file the build wrote, once the path is taken off;
    # and so does every URL of the feed, the sitemap, robots.txt, revisions.json and the search.
    assert dead_urls(out, sites.url) == []
    # Not vacuous: the chrome, the search, the cards and the author's links are all among them.
    written = {f.url for f in found}
    for url in (
        "",
        "theme/style.css",
        "theme/favicon.svg",
        "feed.xml",
        "categories/",
        "categories/paths/",
        "pagefind/pagefind-ui.css",
        "pagefind/pagefind-ui.js",
        "pagefind/site-search.js",
        "assets/db/cover.svg",
        "assets/db/write-path.svg",
        "articles/retry-budget/#the-budget",
        "articles/links-below-a-path/",
    ):
        assert path + url in written, f"no page writes {path + url}"
    assert f"{sites.url}articles/links-below-a-path/" in written
    assert any(unquote(u).startswith(f"{path}articles/one-key-one-row/#") for u in written)


def test_the_404_page_links_below_the_path_from_any_depth(sites: Sites) -> None:
    tree = BeautifulSoup((sites.sub / "404.html").read_text("utf-8"), "html5lib")
    urls = [str(a["href"]) for a in tree.select("a[href]") if not str(a["href"]).startswith("#")]
    urls += [str(e["src"]) for e in tree.select("[src]")] + [str(e["href"]) for e in tree.select("link")]
    assert urls
    relative = [u for u in urls if not u.startswith((sites.path, sites.url))]
    assert not relative, f"404.html is served at any depth: {relative} would resolve differently"


def test_feed_links_ids_and_content_lie_below_the_path(sites: Sites) -> None:
    feed = ET.parse(sites.sub / "feed.xml").getroot()
    assert feed.get(XML_BASE) == sites.url
    entries = feed.findall(f"{ATOM}entry")
    assert len(entries) == 4
    urls = [f.resolved for f in feed_urls(sites.sub)]
    assert f"{sites.url}feed.xml" in urls and f"{sites.url}articles/retry-budget/#the-budget" in urls
    strays = [u for u in urls if outside(u, sites.path)]
    assert not strays, strays


def test_sitemap_robots_and_search_script_lie_below_the_path(sites: Sites) -> None:
    out, url = sites.sub, sites.url
    locations = [loc.text or "" for loc in ET.parse(out / "sitemap.xml").getroot().iter(f"{SITEMAP}loc")]
    assert len(locations) == len(list(out.rglob("index.html")))  # index, categories, each one, articles
    assert all(loc.startswith(url) for loc in locations), locations
    robots = (out / "robots.txt").read_text("utf-8")
    assert robots == f"User-agent: *\nAllow: {sites.path}\n\nSitemap: {url}sitemap.xml\n"
    script = (out / "pagefind/site-search.js").read_text("utf-8")
    bundles = json.loads(re.search(r"var bundles = (\[.*?\]);", script).group(1))  # type: ignore[union-attr]
    assert bundles == [f"{sites.path}pagefind/"]
    assert (out / "pagefind/pagefind-entry.json").is_file()


def test_revisions_json_keeps_the_authors_urls(sites: Sites) -> None:
    """contentHtml is what importers read: the same text and markup, whatever the base URL."""
    data = (sites.sub / "revisions.json").read_bytes()
    assert data == (sites.root / "revisions.json").read_bytes()
    links = next(r for r in json.loads(data) if r["slug"] == "links-below-a-path")
    assert '<a href="/articles/retry-budget/#the-budget">' in links["contentHtml"]
    assert links["cover"] == "/assets/db/cover.svg"


def test_the_sub_path_build_is_the_root_build_with_its_urls_moved(sites: Sites) -> None:
    """Nothing else changes: no page, asset or text differs but for where its URLs point."""
    # The search index holds the pages' text, so its files differ; the script is checked above.
    sub, root = tree(sites.sub), tree(sites.root)
    assert differing_beyond_urls(sub, root, sites.url, ROOT) == []
    moved = [path for path in sub if sub[path] != root.get(path)]
    assert "index.html" in moved and "feed.xml" in moved and "sitemap.xml" in moved


def test_moving_the_site_under_a_path_and_back_rebuilds_as_a_clean_build(
    tmp_path: Path, run_cli: RunCli
) -> None:
    """What the cache keeps of a build at the root (pages, lists, search shards, the link
    check, the spare site) never leaks into a build below a path, nor back."""
    root = make_site(tmp_path, ROOT, fillers=9)
    build(run_cli, root)
    for new in (SUB, ROOT):
        set_base_url(root, new)
        cached = searchable(tree(build(run_cli, root)))
        clean = tmp_path / f"clean-{len(new)}"
        result = run_cli(["build", "--root", str(root), "--out", str(clean), "--no-cache"])
        assert result.code == 0, result.err
        assert cached == searchable(tree(clean)), f"the cached build below {new} differs from a clean one"
        assert ('href="/sub/theme/style.css"' in cached["index.html"].decode("utf-8")) == (new == SUB)
