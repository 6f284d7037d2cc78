"""``site-builder build``: the built site, its feeds, its checks and its atomic write.

DESIGN.md "The built site" and "Commands": load, validate, run fixtures, render, check
the rendered site, then swap it in whole; when any step finds a problem nothing is
written and the previous ``build/`` stays exactly as it was.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import re
import shutil
import tempfile
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit

import pytest
from bs4 import BeautifulSoup, Tag

from site_builder import cli
from site_builder.errors import Problem
from site_builder.pipeline.cache.store import CACHE_DIR
from site_builder.pipeline.staging import folder as output
from tests.support.reference import check_pages
from tests.support.sites import HEADER, SETTINGS, SITES, MakeSite, RunCli, searchable, tree

ATOM = "{http://www.w3.org/2005/Atom}"
SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
BASE = "https://example.org/"
DB_CATEGORY = "базы-данных"

SOURCES = """\
    sources=[Source(title="A", url="https://a.example/", note="a"),
             Source(title="B", url="https://b.example/", note="b")],
"""


# --- helpers -------------------------------------------------------------------------


def stamps(folder: Path) -> dict[str, int]:
    """Modification times: a rewrite with the same bytes still shows here."""
    return {p.relative_to(folder).as_posix(): p.stat().st_mtime_ns for p in folder.rglob("*")}


def soup(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text("utf-8"), "html.parser")


def copy_valid_site(tmp_path: Path, name: str = "valid_site") -> Path:
    root = tmp_path / name
    shutil.copytree(SITES / "valid_site", root)
    return root


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text("utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new), "utf-8")


def one_article(categories: list[str], *, title: str = "Title", excerpt: str = "Excerpt.") -> str:
    return (
        HEADER
        + f"""
revisions = [revision(
    slug="only-article", title={title!r}, categories={categories!r}, excerpt={excerpt!r},
    published="2024-01-02",
    body=[paragraph("Enough words to pass the tiny limit of this test site."), heading("Intro")],
"""
        + SOURCES
        + ")]\n"
    )


def leftovers(root: Path) -> list[str]:
    return sorted(p.name for p in root.iterdir() if p.name.startswith(".build."))


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``tests/sites/valid_site`` built once; tests only read it."""
    root = copy_valid_site(tmp_path_factory.mktemp("built"))
    messages = io.StringIO()
    with contextlib.redirect_stderr(messages):
        code = cli.main(["build", "--root", str(root)])
    assert code == 0, messages.getvalue()
    return root / "build"


# --- the site as built ---------------------------------------------------------------


def test_build_prints_the_summary_line_only(tmp_path: Path, run_cli: RunCli) -> None:
    root = copy_valid_site(tmp_path)

    result = run_cli(["build", "--root", str(root)])

    assert (result.code, result.out) == (0, "")
    assert re.fullmatch(r"built 3 revisions, 10 pages in \d+\.\d s\n", result.err), result.err


def test_build_writes_every_page_feed_and_asset(built: Path) -> None:
    files = set(tree(built))
    assert {f for f in files if not f.startswith("pagefind/")} >= {
        "index.html",
        "404.html",
        "robots.txt",
        "feed.xml",
        "sitemap.xml",
        "revisions.json",
        "theme/style.css",
        "articles/one-key-one-row/index.html",
        "articles/hangul-keys/index.html",
        "articles/retry-budget/index.html",
        "categories/index.html",
        f"categories/{DB_CATEGORY}/index.html",
        "categories/데이터베이스/index.html",
        "categories/http/index.html",
        "categories/reliability/index.html",
        "assets/db/cover.svg",
        "assets/db/write-path.svg",
    }
    assert (built / "assets/db/write-path.svg").read_bytes() == (
        SITES / "valid_site/assets/db/write-path.svg"
    ).read_bytes()
    assert {"pagefind/pagefind.js", "pagefind/pagefind-ui.js"} <= files
    robots = (built / "robots.txt").read_text("utf-8")
    assert f"Sitemap: {BASE}sitemap.xml" in robots.splitlines()


def test_index_lists_articles_newest_first(built: Path) -> None:
    links = [a["href"] for a in soup(built / "index.html").select(".card-title a")]
    assert links == ["/articles/hangul-keys/", "/articles/one-key-one-row/", "/articles/retry-budget/"]


@pytest.mark.parametrize(
    ("page", "lang"),
    [
        ("index.html", "ru"),
        ("404.html", "ru"),
        ("categories/index.html", "ru"),
        (f"categories/{DB_CATEGORY}/index.html", "ru"),
        ("articles/one-key-one-row/index.html", "ru"),
        ("articles/hangul-keys/index.html", "ko"),
        ("articles/retry-budget/index.html", "en"),
    ],
    ids=["index", "404", "categories", "category", "article-ru", "article-ko", "article-en"],
)
def test_html_lang_follows_the_revision_or_the_site(built: Path, page: str, lang: str) -> None:
    html = soup(built / page).find("html")
    assert isinstance(html, Tag)
    assert html["lang"] == lang


# --- Atom feed and sitemap -------------------------------------------------------------


def test_atom_feed_has_one_entry_per_revision_newest_first(built: Path) -> None:
    import json

    revisions = json.loads((built / "revisions.json").read_text("utf-8"))
    feed = ET.parse(built / "feed.xml").getroot()
    entries = feed.findall(f"{ATOM}entry")

    assert feed.tag == f"{ATOM}feed"
    newest = max(r["published"] for r in revisions)
    assert feed.findtext(f"{ATOM}updated") == f"{newest}T00:00:00Z"
    assert len(entries) == len(revisions) == 3
    dates = [e.findtext(f"{ATOM}published") for e in entries]
    assert dates == sorted(dates, reverse=True)
    ids = [e.findtext(f"{ATOM}id") or "" for e in entries]
    assert ids == [f"{BASE}articles/{slug}/" for slug in ("hangul-keys", "one-key-one-row", "retry-budget")]
    for entry_id in [*ids, feed.findtext(f"{ATOM}id") or ""]:
        parts = urlsplit(entry_id)
        assert (parts.scheme, parts.netloc) == ("https", "example.org"), entry_id
    by_slug = {r["slug"]: r for r in revisions}
    for entry, slug in zip(entries, ("hangul-keys", "one-key-one-row", "retry-budget"), strict=True):
        content = entry.find(f"{ATOM}content")
        assert content is not None
        assert content.get("type") == "html"
        assert content.text == by_slug[slug]["contentHtml"]
        assert entry.findtext(f"{ATOM}title") == by_slug[slug]["title"]
        assert [c.get("term") for c in entry.findall(f"{ATOM}category")] == by_slug[slug]["categories"]


def test_sitemap_locations_are_absolute_and_percent_encoded(built: Path) -> None:
    urlset = ET.parse(built / "sitemap.xml").getroot()
    locs = [u.findtext(f"{SITEMAP}loc") or "" for u in urlset.findall(f"{SITEMAP}url")]

    assert urlset.tag == f"{SITEMAP}urlset"
    assert all(loc.startswith(BASE) and loc.isascii() for loc in locs), locs
    assert f"{BASE}categories/{quote(DB_CATEGORY)}/" in locs
    assert f"{BASE}articles/hangul-keys/" in locs
    for loc in locs:  # each names a page that was written
        path = unquote(urlsplit(loc).path).lstrip("/")
        assert (built / path / "index.html").is_file(), loc


def test_feed_with_hostile_text_is_well_formed(make_site: MakeSite, run_cli: RunCli) -> None:
    hostile = "<b>x</b> & ]]> \"q\" 'a' &amp;"
    settings = SETTINGS.replace('title = "Test site"', 'title = "Site <&> ]]> \\"q\\" \'a\'"')
    root = make_site(
        {"articles/a.py": one_article([f"C {hostile}"], title=f"T {hostile}", excerpt=f"E {hostile}")},
        settings=settings,
    )

    result = run_cli(["build", "--root", str(root)])

    assert result.code == 0, result.err
    feed = ET.parse(root / "build/feed.xml").getroot()
    assert feed.findtext(f"{ATOM}title") == "Site <&> ]]> \"q\" 'a'"
    entry = feed.find(f"{ATOM}entry")
    assert entry is not None
    assert entry.findtext(f"{ATOM}title") == f"T {hostile}"
    assert entry.findtext(f"{ATOM}summary") == f"E {hostile}"
    assert [c.get("term") for c in entry.findall(f"{ATOM}category")] == [f"C {hostile}"]
    ET.parse(root / "build/sitemap.xml")  # well-formed too


# --- revisions.json ------------------------------------------------------------------


def test_revisions_json_is_the_revisions_command_output(tmp_path: Path, run_cli: RunCli) -> None:
    root = copy_valid_site(tmp_path)
    assert run_cli(["build", "--root", str(root)]).code == 0

    result = run_cli(["revisions", "--root", str(root)])

    assert result.code == 0, result.err
    assert (root / "build/revisions.json").read_bytes() == result.out.encode("utf-8")


# --- article pages: ids, contents, fixtures note, highlighting -------------------------


def test_heading_ids_are_readable_unique_and_the_toc_resolves(built: Path) -> None:
    page = soup(built / "articles/one-key-one-row/index.html")
    ids = [t["id"] for t in page.find_all(id=True)]
    body_ids = [h["id"] for h in page.select(".article-body h2")]
    toc = [a["href"] for a in page.select("nav.toc a")]

    assert len(ids) == len(set(ids)), ids
    assert body_ids == ["почему-ключ-один", "키가-하나인-이유", "пример", "пример-2", "проверяемые-источники"]
    assert toc == [f"#{anchor}" for anchor in body_ids]
    fragment = page.select_one(".article-body p a")
    assert fragment is not None
    assert fragment["href"] == "#" + quote("почему-ключ-один")
    assert unquote(str(fragment["href"]))[1:] in ids


def test_link_to_a_heading_of_another_article_resolves(built: Path) -> None:
    link = soup(built / "articles/hangul-keys/index.html").select_one(".article-body a[href^='/articles/']")
    assert link is not None
    path, _, fragment = unquote(str(link["href"])).partition("#")
    target = soup(built / path.lstrip("/") / "index.html")
    assert fragment == "키가-하나인-이유"
    assert target.find(id=fragment) is not None


def test_article_names_the_fixtures_that_verify_it(built: Path) -> None:
    verified = soup(built / "articles/one-key-one-row/index.html").select_one("aside.verified")
    unverified = soup(built / "articles/retry-budget/index.html").select_one("aside.verified")
    assert verified is not None and unverified is not None
    # The fixture's name, not its internal id; the entry is what the block's mark links to.
    assert [c.get_text() for c in verified.select("code")] == ["one_key"]
    assert [li["id"] for li in verified.select("li")] == ["fixture-one_key"]
    assert unverified.select("code") == []


def test_code_is_highlighted_on_the_page_but_not_in_content_html(built: Path) -> None:
    import json

    page = soup(built / "articles/one-key-one-row/index.html")
    code = page.select_one("pre.highlight code.language-python")
    content = json.loads((built / "revisions.json").read_text("utf-8"))[0]["contentHtml"]

    assert code is not None
    keywords = [s.get_text() for s in code.select("span.k")]
    assert keywords[:1] == ["def"]
    assert code.get_text().startswith("def apply(seen: dict[str, int], key: str) -> bool:")
    assert page.select("[style]") == []
    assert (
        '<pre><code class="language-python">def apply(seen: dict[str, int], key: str) -&gt; bool:' in content
    )
    assert "<span" not in content and "highlight" not in content
    assert ".highlight .k {" in (built / "theme/style.css").read_text("utf-8")


# --- categories ------------------------------------------------------------------------


def test_cyrillic_category_has_a_readable_folder_and_encoded_links(built: Path) -> None:
    encoded = f"/categories/{quote(DB_CATEGORY)}/"
    page = soup(built / f"categories/{DB_CATEGORY}/index.html")
    hrefs = [a["href"] for a in soup(built / "categories/index.html").select("a[href^='/categories/']")]

    assert encoded == "/categories/%D0%B1%D0%B0%D0%B7%D1%8B-%D0%B4%D0%B0%D0%BD%D0%BD%D1%8B%D1%85/"
    assert encoded in hrefs
    assert all(str(h).isascii() for h in hrefs), hrefs
    assert [a["href"] for a in page.select(".card-title a")] == [
        "/articles/hangul-keys/",
        "/articles/one-key-one-row/",
    ]
    h1 = page.find("h1")
    assert h1 is not None and h1.get_text() == "Рубрика: Базы данных"


HOSTILE_CATEGORIES = ["../../etc", "a/b", "..", "\\x", "C:\\"]


def test_hostile_category_names_never_leave_the_output(tmp_path: Path, run_cli: RunCli) -> None:
    root = tmp_path / "deep" / "site"
    (root / "articles").mkdir(parents=True)
    (root / "assets").mkdir()
    (root / "pyproject.toml").write_text(SETTINGS, "utf-8")
    (root / "articles/a.py").write_text(one_article(HOSTILE_CATEGORIES), "utf-8")
    mine = {"build", ".site-builder-cache"}  # the output and the build's cache
    before = {p for p in tmp_path.rglob("*") if not mine & set(p.relative_to(tmp_path).parts)}

    result = run_cli(["build", "--root", str(root)])

    assert result.code == 0, result.err
    after = {p for p in tmp_path.rglob("*") if not mine & set(p.relative_to(tmp_path).parts)}
    assert after == before
    out = root / "build"
    pages = sorted(p.relative_to(out).as_posix() for p in (out / "categories").rglob("index.html"))
    assert len(pages) == len(HOSTILE_CATEGORIES) + 1  # one per category and the list
    for page in pages:
        assert (out / page).resolve().is_relative_to(out.resolve())
        assert ".." not in page.split("/") and "\\" not in page and ":" not in page
    links = soup(out / "articles/only-article/index.html").select("a.tag")
    assert [a.get_text() for a in links] == HOSTILE_CATEGORIES
    for link in links:
        target = out / unquote(str(link["href"])).strip("/") / "index.html"
        assert target.resolve().is_relative_to((out / "categories").resolve()), link["href"]
        h1 = soup(target).find("h1")
        assert h1 is not None and h1.get_text() == f"Category: {link.get_text()}"


def test_categories_whose_names_differ_get_a_page_each(make_site: MakeSite, run_cli: RunCli) -> None:
    names = {"about-c": "C", "about-cpp": "C++", "about-csharp": "C#"}
    batch = HEADER + "\nrevisions = [\n"
    for slug, name in names.items():
        batch += f"""revision(
    slug={slug!r}, title={slug!r}, categories=[{name!r}], excerpt="E.", published="2024-01-02",
    body=[paragraph("Enough words to pass the tiny limit of this test site.")],
{SOURCES}),
"""
    root = make_site({"articles/a.py": batch + "]\n"})

    result = run_cli(["build", "--root", str(root)])

    assert result.code == 0, result.err
    out = root / "build"
    listed = [a.get_text() for a in soup(out / "categories/index.html").select(".category-list a")]
    assert sorted(listed) == sorted(names.values())
    for slug, name in names.items():
        tag = soup(out / f"articles/{slug}/index.html").select_one("a.tag")
        assert tag is not None
        page = soup(out / unquote(str(tag["href"])).strip("/") / "index.html")
        h1 = page.find("h1")
        assert h1 is not None and h1.get_text() == f"Category: {name}"
        assert [a["href"] for a in page.select(".card-title a")] == [f"/articles/{slug}/"]


# --- templates -----------------------------------------------------------------------


def test_site_template_overrides_the_package_template_by_name(make_site: MakeSite, run_cli: RunCli) -> None:
    card = '<li class="my-card"><a href="{{ item.url }}">{{ item.title }}</a></li>\n'
    root = make_site({"articles/a.py": one_article(["Notes"]), "templates/_card.html": card})

    result = run_cli(["build", "--root", str(root)])

    assert result.code == 0, result.err
    index = soup(root / "build/index.html")
    assert [str(li) for li in index.select("li.my-card")] == [
        '<li class="my-card"><a href="/articles/only-article/">Title</a></li>'
    ]
    assert index.select("li.card") == []
    assert soup(root / "build/articles/only-article/index.html").select_one("article.article") is not None


# --- determinism -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "second"), [([], []), (["--jobs", "1"], ["--jobs", "2"])], ids=["two-runs", "jobs-1-vs-2"]
)
def test_output_is_byte_identical(
    tmp_path: Path, run_cli: RunCli, first: list[str], second: list[str]
) -> None:
    one, two = copy_valid_site(tmp_path, "one"), copy_valid_site(tmp_path, "elsewhere")

    assert run_cli(["build", "--root", str(one), *first]).code == 0
    assert run_cli(["build", "--root", str(two), *second]).code == 0

    a, b = tree(one / "build"), tree(two / "build")
    assert sorted(a) == sorted(b)
    assert [rel for rel in a if a[rel] != b[rel]] == []


# --- --out -----------------------------------------------------------------------------


def test_out_writes_the_site_to_the_given_folder(tmp_path: Path, run_cli: RunCli) -> None:
    root = copy_valid_site(tmp_path)
    out = tmp_path / "public" / "www"

    result = run_cli(["build", "--root", str(root), "--out", str(out)])

    assert result.code == 0, result.err
    assert (out / "articles/one-key-one-row/index.html").is_file()
    assert (out / "feed.xml").is_file()
    assert not (root / "build").exists()
    assert sorted(p.name for p in out.parent.iterdir()) == ["www"]


def _other_file_system(here: Path) -> Path | None:
    """A writable folder on another file system than ``here`` (Linux's /dev/shm), or None."""
    shm = Path("/dev/shm")
    if shm.is_dir() and os.access(shm, os.W_OK) and shm.stat().st_dev != here.stat().st_dev:
        return shm
    return None


@pytest.mark.parametrize("flags", [(), ("--no-cache",)], ids=["cache", "no-cache"])
def test_the_output_may_be_on_another_file_system_than_the_cache_or_the_temporary_folder(
    tmp_path: Path, run_cli: RunCli, monkeypatch: pytest.MonkeyPatch, flags: tuple[str, ...]
) -> None:
    """``--out`` on another disk than the site (its cache), or ``--no-cache`` with the
    temporary folder on another disk than the output (a tmpfs /tmp): the search index is made
    in one and published in the other. Each build failed with "Invalid cross-device link"
    before 2026-12-04; now what cannot be linked is copied, and the site is the usual one."""
    other = _other_file_system(tmp_path)
    if other is None:
        pytest.skip("this machine has no second file system to build into")
    root = copy_valid_site(tmp_path)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # --no-cache's scratch: the site's disk
    out = Path(tempfile.mkdtemp(dir=other)) / "www"
    try:
        for words in (None, "Limit retries"):  # a first build, then one that updates the live site
            if words is not None:
                edit(root / "articles/retry_en.py", "Cap retries", words)
            result = run_cli(["build", "--root", str(root), "--out", str(out), *flags])
            assert result.code == 0, result.err
        here = run_cli(["build", "--root", str(root), "--out", str(tmp_path / "here"), "--no-cache"])
        assert here.code == 0, here.err
        # Pagefind numbers pages in the order it finds them in the folder, which differs from
        # one file system to another: the index's bytes do too, not the pages a reader finds.
        there, mine = searchable(tree(out)), searchable(tree(tmp_path / "here"))
        assert there == mine and any(path.startswith("pagefind/found/") for path in there)
    finally:
        shutil.rmtree(out.parent, ignore_errors=True)


def test_a_file_that_cannot_be_linked_is_copied(
    tmp_path: Path, run_cli: RunCli, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same on any machine: every hard link refused as across file systems, including
    into a folder not made yet (whose first refusal is "no such folder")."""

    def refused(source: object, target: object) -> None:
        if not Path(str(target)).parent.is_dir():
            raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), str(target))
        raise OSError(errno.EXDEV, os.strerror(errno.EXDEV))

    monkeypatch.setattr(output.os, "link", refused)
    root = copy_valid_site(tmp_path)
    for words in (None, "Limit retries"):
        if words is not None:
            edit(root / "articles/retry_en.py", "Cap retries", words)
        result = run_cli(["build", "--root", str(root)])
        assert result.code == 0, result.err
    clean = run_cli(["build", "--root", str(root), "--out", str(tmp_path / "clean"), "--no-cache"])
    assert clean.code == 0, clean.err
    assert searchable(tree(root / "build")) == searchable(tree(tmp_path / "clean"))


@pytest.mark.parametrize("mode", ["cache", "cache-on-another-disk", "no-cache"])
def test_successful_builds_leave_nothing_beside_the_output(
    tmp_path: Path, run_cli: RunCli, monkeypatch: pytest.MonkeyPatch, mode: str
) -> None:
    """Each build replaces the output: the staging folder becomes it, and the old site is
    removed (or, with the cache, moved into the cache as its spare) - never left beside it."""
    if mode == "cache-on-another-disk":  # the old site cannot become the spare: it is dropped
        real = Path.rename

        def rename(self: Path, target: Path) -> Path:
            if Path(target).parent.name == "spare":
                raise OSError(errno.EXDEV, os.strerror(errno.EXDEV))
            return real(self, target)

        monkeypatch.setattr(output.Path, "rename", rename)
    root = copy_valid_site(tmp_path)
    parent = tmp_path / "public"
    parent.mkdir()
    (parent / "unrelated.txt").write_text("not the site's", "utf-8")
    out = parent / "www"
    before = {p.name for p in parent.iterdir()}
    # The first build creates the output, the second replaces it, the third (with the
    # cache) brings the spare up to date in place of a fresh staging folder.
    for old, new in [(None, None), ("Cap retries", "Limit retries"), ("Limit retries", "Bound retries")]:
        if old is not None and new is not None:
            edit(root / "articles/retry_en.py", old, new)

        result = run_cli(
            ["build", "--root", str(root), "--out", str(out), *(["--no-cache"] if mode == "no-cache" else [])]
        )

        assert result.code == 0, result.err
        assert {p.name for p in parent.iterdir()} == before | {"www"}, new
        assert (new or "Cap retries") in (out / "index.html").read_text("utf-8")
    assert (parent / "unrelated.txt").read_text("utf-8") == "not the site's"
    assert not (root / "build").exists()
    spares = root / CACHE_DIR / "spare"
    kept = sorted(p.name for p in spares.iterdir()) if spares.is_dir() else []
    assert len(kept) == (1 if mode == "cache" else 0), kept  # where the old site went


@pytest.mark.parametrize("where", ["root", "parent"])
def test_out_that_would_replace_the_site_is_refused(tmp_path: Path, run_cli: RunCli, where: str) -> None:
    root = copy_valid_site(tmp_path)
    out = root if where == "root" else root.parent
    before = tree(tmp_path)

    result = run_cli(["build", "--root", str(root), "--out", str(out)])

    assert result.code == 2
    assert "site-builder: the output folder" in result.err and "Traceback" not in result.err
    assert tree(tmp_path) == before


# --- checks of the rendered site ---------------------------------------------------------

FILES = frozenset({"index.html", "articles/x/index.html", "assets/a.svg", "categories/база/index.html"})
X_PAGE = '<h2 id="here">Here</h2>'
X = "articles/x/index.html"
NEW_TAB = 'opens a new tab without rel="noopener noreferrer"'


def page_problem(line: int, rule: str, message: str, path: str = "build/index.html") -> Problem:
    return Problem(path=path, line=line, subject="page", rule=rule, message=message)


CHECKS = [
    ("broken-link", '<p>\n<a href="/missing/">m</a></p>', [
        page_problem(2, "page-link", "'/missing/' points to no file of the site"),
    ]),
    ("broken-anchor-same-page", '<h2 id="a">A</h2>\n\n<a href="#b">b</a>', [
        page_problem(3, "page-link", "'#b': no element with id 'b' on index.html"),
    ]),
    ("broken-anchor-other-page", '<a href="/articles/x/#nowhere">x</a>', [
        page_problem(1, "page-link", f"'/articles/x/#nowhere': no element with id 'nowhere' on {X}"),
    ]),
    ("missing-asset-src", '<img src="/assets/missing.svg" alt="A">', [
        page_problem(1, "page-link", "'/assets/missing.svg' points to no file of the site"),
    ]),
    ("img-without-alt", '<img src="/assets/a.svg">', [
        page_problem(1, "page-img-alt", "<img src='/assets/a.svg'> has no alt text"),
    ]),
    ("img-blank-alt", '\n<img src="/assets/a.svg" alt="  ">', [
        page_problem(2, "page-img-alt", "<img src='/assets/a.svg'> has no alt text"),
    ]),
    ("blank-without-rel", '<a href="https://x.example/" target="_blank">x</a>', [
        page_problem(1, "page-rel", f"link to 'https://x.example/' {NEW_TAB}"),
    ]),
    ("blank-half-rel", '<a href="https://x.example/" target="_blank" rel="noopener">x</a>', [
        page_problem(1, "page-rel", f"link to 'https://x.example/' {NEW_TAB}"),
    ]),
    ("clean", (
        '<a href="/articles/x/#here">x</a><a href="/categories/%D0%B1%D0%B0%D0%B7%D0%B0/">c</a>'
        '<img src="/assets/a.svg" alt="A">'
        '<a href="https://x.example/" target="_blank" rel="noopener noreferrer">e</a>'
        '<a href="mailto:a@example.org">m</a><a href="/">home</a>'
    ), []),
]  # fmt: skip


@pytest.mark.parametrize(("html", "expected"), [c[1:] for c in CHECKS], ids=[c[0] for c in CHECKS])
def test_check_pages_reports_the_exact_problem(html: str, expected: list[Problem]) -> None:
    pages = {"index.html": html, "articles/x/index.html": X_PAGE}
    assert check_pages(pages, FILES, "build") == expected


def test_broken_link_in_a_template_fails_the_build_at_the_template_line(
    tmp_path: Path, run_cli: RunCli
) -> None:
    root = copy_valid_site(tmp_path)
    override = (
        '{% extends "base.html" %}\n{% block main %}\n<p>Gone.</p>\n<a href="HREF">back</a>\n{% endblock %}\n'
    )
    (root / "templates").mkdir()
    (root / "templates/404.html").write_text(override.replace("HREF", "/feed.xml"), "utf-8")
    assert run_cli(["build", "--root", str(root)]).code == 0
    before = tree(root / "build")
    (root / "templates/404.html").write_text(override.replace("HREF", "/no-such-page/"), "utf-8")

    result = run_cli(["build", "--root", str(root)])

    assert result.code == 1
    assert (
        result.err.splitlines()[0]
        == "templates/404.html:4: template: '/no-such-page/' points to no file of the site"
    )
    assert tree(root / "build") == before


# --- a failed build leaves the previous site whole ---------------------------------------


def break_fixture(root: Path) -> str:
    edit(root / "articles/databases_ru.py", '"oneRow": len(seen) == 1', '"oneRow": len(seen) == 2')
    return "articles/databases_ru.py:"


def break_template(root: Path) -> str:
    (root / "templates").mkdir()
    broken = (
        '{% extends "base.html" %}\n{% block main %}\n<p>{{ article.no_such_field }}</p>\n{% endblock %}\n'
    )
    (root / "templates/article.html").write_text(broken, "utf-8")
    return "templates/article.html:3: template: "


def break_template_encoding(root: Path) -> str:
    """A template saved in another encoding: Latin-1's "é" is not UTF-8."""
    (root / "templates").mkdir()
    broken = '{% extends "base.html" %}\n{% block main %}\n<p>Café</p>\n{% endblock %}\n'
    (root / "templates/article.html").write_bytes(broken.encode("latin-1"))
    return "templates/article.html:3: template: TemplateSyntaxError: not UTF-8 text: byte 0xe9 at offset 49"


@pytest.mark.parametrize(
    "breaker",
    [break_fixture, break_template, break_template_encoding],
    ids=["failing-fixture", "template-error", "template-not-utf8"],
)
def test_failed_build_leaves_the_previous_site_untouched(
    tmp_path: Path, run_cli: RunCli, breaker: Callable[[Path], str]
) -> None:
    root = copy_valid_site(tmp_path)
    assert run_cli(["build", "--root", str(root)]).code == 0
    before, times, inode = tree(root / "build"), stamps(root / "build"), (root / "build").stat().st_ino
    # A change that would show in the output, had anything been written.
    edit(root / "articles/retry_en.py", "Cap retries", "Limit retries")
    prefix = breaker(root)

    result = run_cli(["build", "--root", str(root)])

    assert result.code == 1
    assert any(line.startswith(prefix) for line in result.err.splitlines()), result.err
    assert "nothing was written; the previous site is untouched" in result.err
    assert "Traceback" not in result.err
    assert tree(root / "build") == before
    assert stamps(root / "build") == times
    assert (root / "build").stat().st_ino == inode
    assert leftovers(root) == []


def test_an_input_that_cannot_be_read_is_named_and_nothing_is_built(tmp_path: Path, run_cli: RunCli) -> None:
    root = copy_valid_site(tmp_path)
    assert run_cli(["build", "--root", str(root)]).code == 0
    before = tree(root / "build")
    (root / "articles/moved.py").symlink_to(root / "nowhere.py")

    for command in ("build", "validate"):
        result = run_cli([command, "--root", str(root)])

        assert result.code == 1
        assert result.err == (
            f"site-builder: articles/moved.py: cannot be read (a symbolic link to {root / 'nowhere.py'}): "
            "No such file or directory\n"
        )
    assert tree(root / "build") == before
    assert leftovers(root) == []


def test_failing_fixture_is_reported_with_its_id(tmp_path: Path, run_cli: RunCli) -> None:
    root = copy_valid_site(tmp_path)
    break_fixture(root)

    result = run_cli(["build", "--root", str(root)])

    assert result.code == 1
    assert "fixture databases_ru:one_key" in result.err and "oneRow" in result.err
    assert not (root / "build").exists()
    assert leftovers(root) == []


def test_template_error_names_the_template_file_and_line(tmp_path: Path, run_cli: RunCli) -> None:
    root = copy_valid_site(tmp_path)
    break_template(root)

    result = run_cli(["build", "--root", str(root)])

    assert result.code == 1
    assert result.err.splitlines()[0] == (
        "templates/article.html:3: template: UndefinedError: 'dict object' has no attribute 'no_such_field'"
    )


def _disk_full(monkeypatch: pytest.MonkeyPatch, target: str) -> None:
    """Make the ``n``-th write of the staging step fail as a full disk would."""
    calls = {"n": 0}
    if target == "write_bytes":
        owner, name = output.Path, "write_bytes"
    else:
        owner, name = output.shutil, "copyfile"
    real = getattr(owner, name)

    def failing(*args: object, **kwargs: object) -> object:
        calls["n"] += 1
        if calls["n"] >= 2:  # one file already written: the staging folder is half full
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, failing)


@pytest.mark.parametrize("target", ["write_bytes", "copyfile"])
def test_disk_full_leaves_the_previous_site_untouched(
    tmp_path: Path, run_cli: RunCli, monkeypatch: pytest.MonkeyPatch, target: str
) -> None:
    root = copy_valid_site(tmp_path)
    assert run_cli(["build", "--root", str(root)]).code == 0
    before, inode = tree(root / "build"), (root / "build").stat().st_ino
    edit(root / "articles/retry_en.py", "Cap retries", "Limit retries")
    _disk_full(monkeypatch, target)

    result = run_cli(["build", "--root", str(root)])

    assert result.code == 1
    assert result.out == ""
    assert "Traceback" not in result.err
    assert result.err.startswith("site-builder: cannot write the site to ")
    assert os.strerror(errno.ENOSPC) in result.err
    assert tree(root / "build") == before
    assert (root / "build").stat().st_ino == inode
    assert leftovers(root) == []


def test_failure_between_the_two_renames_restores_the_previous_site(
    tmp_path: Path, run_cli: RunCli, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = copy_valid_site(tmp_path)
    assert run_cli(["build", "--root", str(root)]).code == 0
    before = tree(root / "build")
    edit(root / "articles/retry_en.py", "Cap retries", "Limit retries")
    real = Path.rename

    def rename(self: Path, target: Path) -> Path:
        if self.name == ".build.new":  # the old site is already moved aside
            assert not (root / "build").exists() and (root / ".build.old").is_dir()
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        return real(self, target)

    monkeypatch.setattr(output.Path, "rename", rename)

    result = run_cli(["build", "--root", str(root)])

    assert result.code == 1
    assert result.err.startswith("site-builder: cannot write the site to ") and "Traceback" not in result.err
    assert tree(root / "build") == before
    assert leftovers(root) == []


# --- recovery after a killed build ---------------------------------------------------------


def test_recover_restores_the_old_site_when_killed_between_the_renames(tmp_path: Path) -> None:
    target = tmp_path / "build"
    (tmp_path / ".build.old/articles").mkdir(parents=True)
    (tmp_path / ".build.old/index.html").write_text("old site", "utf-8")
    (tmp_path / ".build.old/articles/a.html").write_text("old article", "utf-8")
    (tmp_path / ".build.new").mkdir()
    (tmp_path / ".build.new/index.html").write_text("half", "utf-8")

    output.recover(target)

    assert tree(target) == {"index.html": b"old site", "articles/a.html": b"old article"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["build"]


def test_recover_keeps_the_site_and_drops_stale_staging(tmp_path: Path) -> None:
    target = tmp_path / "build"
    target.mkdir()
    (target / "index.html").write_text("current", "utf-8")
    for stale in (".build.new", ".build.old"):
        (tmp_path / stale).mkdir()
        (tmp_path / stale / "index.html").write_text(stale, "utf-8")

    output.recover(target)

    assert tree(target) == {"index.html": b"current"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["build"]


def test_build_recovers_a_killed_build_before_anything_else(tmp_path: Path, run_cli: RunCli) -> None:
    root = copy_valid_site(tmp_path)
    assert run_cli(["build", "--root", str(root)]).code == 0
    before = tree(root / "build")
    (root / "build").rename(root / ".build.old")  # killed between the two renames
    (root / ".build.new").mkdir()
    (root / ".build.new/index.html").write_text("half-written", "utf-8")
    break_fixture(root)  # this build fails: what remains is what recovery restored

    result = run_cli(["build", "--root", str(root)])

    assert result.code == 1
    assert tree(root / "build") == before
    assert leftovers(root) == []
