"""One site with every feature at once (issue 32, item 1), built in a matrix.

``tests/sites/all_features`` holds, together, what each feature's own tests build apart: three
languages; an article revised by two later batches (images and ``#fragment`` links in every
revision, so its revision and diff pages carry them) and a fourth revision that is a draft; a
Korean article corrected the day it was published (its correction gives a time); a draft, a
revision scheduled after the build's date; the ordered navigation; a category written two ways
(a warning); SVG covers (drawn as PNGs for social sites) and a raster one; SVG and PNG
figures; ``repo_url``; changed English labels; a fixture of batch A shown by batch B.

Each combination of base path (``/``, ``/sub/dir/``), flags (none, ``--drafts --future``),
``--jobs`` (1, 2) and build (clean; incremental after an edit of a batch) is built once. Every
build succeeds; every URL its pages, feed, sitemap, robots.txt, ``revisions.json`` and search
index write leads to a built file below the base path, fragments to ids; ``--jobs`` changes no
byte, an incremental build equals a clean build of the edited site, and a build below a path is
the root build with its URLs moved.
"""

from __future__ import annotations

import contextlib
import io
import json
import shutil
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urljoin

import pytest
from bs4 import BeautifulSoup

from site_builder import cli
from site_builder.check.templates import page_template
from site_builder.pipeline.worker.workers import Workers
from tests.support.drafts_site import epoch
from tests.support.site_urls import (
    ATOM,
    XML_BASE,
    Found,
    base_path_of,
    dead_urls,
    differing_beyond_urls,
    element_urls,
    every_url,
)
from tests.support.sites import SITES, set_base_url, tree

SITE = SITES / "all_features"
BUILD_DATE = "2024-01-01"
"""The build's date (``SOURCE_DATE_EPOCH``): the revision due 2099 is scheduled."""
BASES = {"root": "https://example.org/", "sub-dir": "https://example.org/sub/dir/"}
FLAGS = {"published": (), "drafts-future": ("--drafts", "--future")}
JOBS = ("1", "2")
MODES = ("clean", "incremental")
EDIT = ("articles/b_2021_ru.py", "note: newer words.", "note: edited words.")
"""The edit of the incremental builds: a word of revision 2 of the growing note, which its
revision page and both diff pages around it show."""

LEFT_OUT_PATHS = (
    "articles/draft-note/",
    "articles/future-note/",
    "articles/growing-note/revisions/3/",
    "articles/growing-note/diff/4/",
    "categories/drafts-only/",
    "categories/later/",
)
"""What only ``--drafts --future`` publish: the draft, the scheduled note, the growing note's
draft revision 4 (its diff, and revision 3's own page) and the categories only they have."""
LEFT_OUT_WORDS = ("zanzibarquux", "quuxplorer", "zeppelinword", "still a draft")


@dataclass(frozen=True)
class Built:
    """One build of the matrix: how it ended, and a copy of what it wrote."""

    code: int
    err: str
    out: Path
    """A copy of the output folder (empty when the build failed)."""
    seconds: float


def copy_site(folder: Path, base_url: str, *, edited: bool = False) -> Path:
    root = folder / "site"
    shutil.copytree(SITE, root, ignore=shutil.ignore_patterns(".site-builder-cache", "build", "__pycache__"))
    set_base_url(root, base_url)
    if edited:
        edit(root)
    return root


def edit(root: Path, name: str = EDIT[0], old: str = EDIT[1], new: str = EDIT[2]) -> None:
    """Replace ``old`` (which must be there) by ``new`` in the site's file ``name``: by default
    :data:`EDIT`."""
    path = root / name
    text = path.read_text("utf-8")
    assert old in text
    path.write_text(text.replace(old, new), "utf-8")


def build(root: Path, keep: Path, *args: str) -> Built:
    """``site-builder build`` at the tests' build date; the output copied to ``keep``."""
    messages = io.StringIO()
    started = time.perf_counter()
    with pytest.MonkeyPatch.context() as patch, contextlib.redirect_stderr(messages):
        patch.setenv("SOURCE_DATE_EPOCH", epoch(BUILD_DATE))
        code = cli.main(["build", "--root", str(root), *args])
    seconds = time.perf_counter() - started
    if code == 0:
        shutil.copytree(root / "build", keep)
    else:
        keep.mkdir(parents=True)
    return Built(code, messages.getvalue(), keep, seconds)


class Matrix:
    """Each build of the matrix, made the first time a test asks for it."""

    def __init__(self, tmp: pytest.TempPathFactory) -> None:
        self.tmp = tmp
        self.built: dict[tuple[str, ...], Built] = {}

    def get(self, base: str, flags: str, jobs: str, mode: str) -> Built:
        """A clean build (the first, into an empty cache) and, in the same site, the build after
        :data:`EDIT` that reuses its cache."""
        key = (base, flags, jobs, mode)
        if key not in self.built:
            folder = self.tmp.mktemp(f"{base}-{flags}-jobs{jobs}")
            root = copy_site(folder, BASES[base])
            args = ("--jobs", jobs, *FLAGS[flags])
            self.built[(base, flags, jobs, "clean")] = build(root, folder / "clean", *args)
            edit(root)
            self.built[(base, flags, jobs, "incremental")] = build(root, folder / "incremental", *args)
        return self.built[key]

    def edited(self, base: str, flags: str) -> Built:
        """A clean build of the edited site, with no cache at all."""
        key = (base, flags, "edited")
        if key not in self.built:
            folder = self.tmp.mktemp(f"{base}-{flags}-edited")
            root = copy_site(folder, BASES[base], edited=True)
            self.built[key] = build(root, folder / "out", "--no-cache", *FLAGS[flags])
        return self.built[key]


@pytest.fixture(scope="module")
def matrix(tmp_path_factory: pytest.TempPathFactory) -> Matrix:
    return Matrix(tmp_path_factory)


def combinations(*names: str) -> list[object]:
    """The parameters of the named axes, every combination, with readable ids."""
    axes = {"base": list(BASES), "flags": list(FLAGS), "jobs": list(JOBS), "mode": list(MODES)}
    params: list[tuple[str, ...]] = [()]
    for name in names:
        params = [(*p, value) for p in params for value in axes[name]]
    return [pytest.param(*p, id="-".join(p)) for p in params]


def soup(out: Path, path: str) -> BeautifulSoup:
    return BeautifulSoup((out / path).read_text("utf-8"), "html.parser")


# --- every combination -----------------------------------------------------------------------------


@pytest.mark.parametrize(("base", "flags", "jobs", "mode"), combinations("base", "flags", "jobs", "mode"))
def test_the_build_succeeds_and_every_url_leads_to_a_built_file(
    matrix: Matrix, base: str, flags: str, jobs: str, mode: str
) -> None:
    built = matrix.get(base, flags, jobs, mode)
    assert built.code == 0, built.err
    found = every_url(built.out, BASES[base])
    assert dead_urls(built.out, BASES[base], found) == []
    # Not vacuous: the diff pages' body images and links, the feed, revisions.json and the search
    # results are among the URLs read, each below the base path.
    resolved = {f.resolved for f in found}
    for url in (
        "assets/growing/path-2022.svg",
        "assets/growing/photo.png",
        "articles/retry-basics/#the-budget",
        "articles/hangul-notes/#%ED%82%A4-%EC%A0%80%EC%9E%A5%EC%86%8C",
        "og/growing/cover.svg.png",
    ):
        assert BASES[base] + url in resolved, url
    wheres = {f.where.split(" ")[0] for f in found}
    assert {"articles/growing-note/diff/3/index.html", "feed.xml", "sitemap.xml", "revisions.json"} <= wheres


@pytest.mark.parametrize(("base", "flags", "mode"), combinations("base", "flags", "mode"))
def test_jobs_change_no_byte(matrix: Matrix, base: str, flags: str, mode: str) -> None:
    one, two = (matrix.get(base, flags, jobs, mode) for jobs in JOBS)
    assert one.code == two.code == 0, one.err + two.err
    a, b = tree(one.out), tree(two.out)
    assert sorted(a) == sorted(b)
    assert [path for path in a if a[path] != b[path]] == []


@pytest.mark.parametrize(("base", "flags", "jobs"), combinations("base", "flags", "jobs"))
def test_an_incremental_build_equals_a_clean_build_of_the_edited_site(
    matrix: Matrix, base: str, flags: str, jobs: str
) -> None:
    incremental, clean = matrix.get(base, flags, jobs, "incremental"), matrix.edited(base, flags)
    assert incremental.code == clean.code == 0, incremental.err + clean.err
    a, b = tree(incremental.out), tree(clean.out)
    assert sorted(a) == sorted(b)
    assert [path for path in a if a[path] != b[path]] == []
    # The edit reached every page that shows revision 2.
    before = tree(matrix.get(base, flags, jobs, "clean").out)
    changed = {path for path in a if a[path] != before.get(path)}
    for page in ("revisions/2/index.html", "diff/2/index.html", "diff/3/index.html"):
        assert f"articles/growing-note/{page}" in changed, page
        assert "edited words" in a[f"articles/growing-note/{page}"].decode("utf-8"), page


@pytest.mark.parametrize(("base", "flags"), combinations("base", "flags"))
def test_a_fresh_clone_with_the_cache_restored_loads_only_what_is_never_kept(
    matrix: Matrix, base: str, flags: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A CI run that restores ``.site-builder-cache/`` (actions/cache keeps its files' times)
    into a fresh clone, which has no output folder: no batch is imported again (batch B, which
    shows batch A's fixture, is kept while A is unchanged), and the site is the clean build's."""
    first = copy_site(tmp_path / "first", BASES[base])
    assert build(first, tmp_path / "first-out", *FLAGS[flags]).code == 0
    clone = copy_site(tmp_path / "clone", BASES[base])
    shutil.copytree(first / ".site-builder-cache", clone / ".site-builder-cache")  # times kept
    loaded: list[str] = []
    submit = Workers.submit
    monkeypatch.setattr(
        Workers, "submit", lambda self, path, key: (loaded.append(path.name), submit(self, path, key))
    )

    again = build(clone, tmp_path / "clone-out", *FLAGS[flags])

    assert again.code == 0, again.err
    assert loaded == []
    clean = tree(matrix.get(base, flags, "1", "clean").out)
    rebuilt = tree(again.out)
    assert sorted(rebuilt) == sorted(clean)
    assert [path for path in rebuilt if rebuilt[path] != clean[path]] == []


@pytest.mark.parametrize("flags", list(FLAGS))
def test_below_a_path_the_build_is_the_root_build_with_its_urls_moved(matrix: Matrix, flags: str) -> None:
    sub, root = (matrix.get(base, flags, "1", "clean") for base in ("sub-dir", "root"))
    assert sub.code == root.code == 0, sub.err + root.err
    sub_files, root_files = tree(sub.out), tree(root.out)
    assert differing_beyond_urls(sub_files, root_files, BASES["sub-dir"], BASES["root"]) == []
    # revisions.json keeps the authors' URLs: importers read the same bytes whatever the base URL.
    assert sub_files["revisions.json"] == root_files["revisions.json"]
    moved = {path for path in sub_files if sub_files[path] != root_files.get(path)}
    assert {"index.html", "feed.xml", "articles/growing-note/diff/2/index.html"} <= moved


def test_the_url_walk_finds_what_the_build_of_8fabba2_got_wrong(matrix: Matrix, tmp_path: Path) -> None:
    """Not vacuous without the build's own link check: a diff page whose body URLs miss the base
    path (as before commit 8fabba2) and a fragment to no id are found, and nothing else."""
    built = matrix.get("sub-dir", "published", "1", "clean")
    assert built.code == 0, built.err
    out = tmp_path / "out"
    shutil.copytree(built.out, out)
    page = out / "articles/growing-note/diff/3/index.html"
    text = page.read_text("utf-8")
    broken = text.replace('src="/sub/dir/assets/growing/photo.png"', 'src="/assets/growing/photo.png"')
    broken = broken.replace("/retry-basics/#the-budget", "/retry-basics/#no-budget")
    assert broken.count("#no-budget") == 1
    page.write_text(broken, "utf-8")

    where = "articles/growing-note/diff/3/index.html"
    assert dead_urls(out, BASES["sub-dir"]) == [
        f"{where} <a href>: '/sub/dir/articles/retry-basics/#no-budget': no id 'no-budget' in "
        "articles/retry-basics/index.html",
        f"{where} <img src>: '/assets/growing/photo.png' is outside /sub/dir/",
    ]


# --- drafts and the schedule -------------------------------------------------------------------------


@pytest.mark.parametrize("base", list(BASES))
def test_without_the_flags_nothing_left_out_is_built_or_linked(matrix: Matrix, base: str) -> None:
    built = matrix.get(base, "published", "1", "clean")
    assert built.code == 0, built.err
    assert built.err.splitlines()[-1] == (
        "left out 2 drafts and 1 scheduled revision (due 2099-01-01); --drafts / --future include them"
    )
    for path in LEFT_OUT_PATHS:
        assert not (built.out / path).exists(), path
    leading = [
        f.where for f in every_url(built.out, BASES[base]) if any(p in f.resolved for p in LEFT_OUT_PATHS)
    ]
    assert leading == []
    whole = b"".join(tree(built.out).values())
    assert [word for word in LEFT_OUT_WORDS if word.encode() in whole] == []
    # The latest published revision of the growing note is its third, unmarked.
    latest = soup(built.out, "articles/growing-note/index.html")
    assert latest.select_one(".status") is None
    assert [li["aria-current"] for li in latest.select("#history li[aria-current]")] == ["page"]
    assert len(latest.select("#history li")) == 3


@pytest.mark.parametrize("base", list(BASES))
def test_with_the_flags_drafts_and_scheduled_revisions_are_built_and_marked(
    matrix: Matrix, base: str
) -> None:
    built = matrix.get(base, "drafts-future", "1", "clean")
    assert built.code == 0, built.err
    assert "left out" not in built.err
    for path in LEFT_OUT_PATHS:
        assert (built.out / path / "index.html").is_file(), path
    marks = {
        "articles/draft-note/index.html": ["Draft"],
        "articles/future-note/index.html": ["Scheduled for 2099-01-01"],
        "articles/growing-note/index.html": ["Draft"],  # revision 4, a draft, is the latest
    }
    for path, expected in marks.items():
        assert [m.get_text() for m in soup(built.out, path).select(".status-mark")] == expected, path
    assert soup(built.out, "articles/growing-note/revisions/3/index.html").select(".status-mark") == []
    assert len(soup(built.out, "articles/growing-note/index.html").select("#history li")) == 4


# --- every feature is there ------------------------------------------------------------------------------


@pytest.mark.parametrize("base", list(BASES))
def test_every_feature_shows_in_the_build(matrix: Matrix, base: str) -> None:
    built = matrix.get(base, "drafts-future", "1", "clean")
    assert built.code == 0, built.err
    out, path, url = built.out, base_path_of(BASES[base]), BASES[base]
    # A category written two ways: a warning, and the build goes on.
    assert "hangul-notes: warning: category 'Postgre' looks like 'Postgres'" in built.err
    # The diff pages show the body's images and links below the base path (commit 8fabba2).
    diff = soup(out, "articles/growing-note/diff/3/index.html")
    assert [img["src"] for img in diff.select(".diff img")] == [
        f"{path}assets/growing/path.svg",
        f"{path}assets/growing/path-2022.svg",
        f"{path}assets/growing/photo.png",
    ]
    assert f"{path}articles/retry-basics/#the-budget" in [a["href"] for a in diff.select(".diff a")]
    # Earlier revisions keep a page naming the article canonical.
    old = soup(out, "articles/growing-note/revisions/1/index.html")
    assert old.select_one('link[rel="canonical"]')["href"] == f"{url}articles/growing-note/"
    # The navigation, the changed labels, the languages.
    page = soup(out, "articles/keys-ru/index.html")
    assert [a["href"] for a in page.select("nav.reading-nav a")] == [
        f"{path}articles/{slug}/" for slug in ("retry-basics", "growing-note", "keys-ru", "hangul-notes")
    ]
    assert page.html["lang"] == "ru" and soup(out, "articles/hangul-notes/index.html").html["lang"] == "ko"
    growing = soup(out, "articles/growing-note/index.html")
    assert growing.select_one("#history-heading").get_text() == "Change log"
    assert "Front page" in [a.get_text(strip=True) for a in soup(out, "404.html").select("main a")]
    # Batch B shows batch A's fixture; the mark links to its def in the repository.
    marks = [a["href"] for a in page.select(".proof a")]
    assert marks == ["https://github.com/example/all-features/blob/main/articles/a_2020_en.py#L36"]
    # A transcript: its command after a prompt, its output as text, its mark after it.
    session = soup(out, "articles/retry-basics/index.html").select_one("pre.transcript")
    assert session.select_one(".prompt + kbd").get_text() == "budget --requests 1000 & more"
    assert session.get_text() == "$ budget --requests 1000 & more\nretries allowed: 100 <of 1000>"
    assert session.find_next_sibling()["class"] == ["proof"]
    # A chart: drawn from the fixture's rows, the rows as a table, its mark after it.
    figure = soup(out, "articles/retry-basics/index.html").select_one("figure.chart")
    drawing = figure.select_one(".chart-drawing[role=img]")
    assert drawing["aria-label"] == "Retries allowed grow tenfold with requests: 10, 100, 1000"
    assert "retries allowed" in [t.get_text() for t in drawing.select("svg text")]
    assert [[td.get_text() for td in tr.select("td")] for tr in figure.select("tbody tr")] == [
        ["100", "10"],
        ["1000", "100"],
        ["10000", "1000"],
    ]
    assert figure.figcaption.get_text() == "The budget at three sizes <of traffic> & more"
    assert figure.find_next_sibling()["class"] == ["proof"]
    # Covers: SVG ones drawn as PNGs for social sites, the raster one shared as it is.
    assert (out / "og/growing/cover.svg.png").is_file() and (out / "og/keys/cover.svg.png").is_file()
    # A source's quote: under the source, citing its address, and in revisions.json.
    quoted = soup(out, "articles/retry-basics/index.html").select("li > blockquote")
    assert [(q["cite"], q.get_text()[:37]) for q in quoted] == [
        ("https://www.rfc-editor.org/rfc/rfc9110.html", 'A request method is considered "idemp')
    ]
    basics = next(
        d for d in json.loads((out / "revisions.json").read_text("utf-8")) if d["slug"] == "retry-basics"
    )
    assert [s.get("quote", "")[:12] for s in basics["sources"]] == ["A request me", ""]
    shared = soup(out, "articles/retry-basics/index.html").select_one('meta[property="og:image"]')
    assert shared["content"] == f"{url}assets/basics/cover.png"
    # A correction made the day the article was published: its time orders the two on the page,
    # in the feed and in revisions.json.
    hangul = soup(out, "articles/hangul-notes/index.html")
    assert [t["datetime"] for t in hangul.select("#history time")] == [
        "2022-05-01T21:10:00+09:00",
        "2022-05-01",
    ]
    assert [t.get_text() for t in hangul.select("#history time")] == [
        "2022-05-01 21:10 UTC+09:00",
        "2022-05-01",
    ]
    assert (out / "articles/hangul-notes/revisions/1/index.html").is_file()
    entry = next(
        e
        for e in ET.parse(out / "feed.xml").getroot().iter(f"{ATOM}entry")
        if "hangul" in str(e.findtext(f"{ATOM}id"))
    )
    assert (entry.findtext(f"{ATOM}published"), entry.findtext(f"{ATOM}updated")) == (
        "2022-05-01T00:00:00Z",
        "2022-05-01T21:10:00+09:00",
    )
    data = [d for d in json.loads((out / "revisions.json").read_text("utf-8")) if d["slug"] == "hangul-notes"]
    assert [(d["revision"], d["revised"], d["revisedAt"]) for d in data] == [
        (1, None, None),
        (2, "2022-05-01", "2022-05-01T21:10:00+09:00"),
    ]
    # Every image of an article or revision page has its size, read from its file.
    for page_path in ("articles/growing-note/index.html", "articles/growing-note/revisions/1/index.html"):
        assert all(img.get("width") and img.get("height") for img in soup(out, page_path).select("img"))


# --- what the matrix found, mended ------------------------------------------------------


def test_the_diff_pages_images_have_their_size(matrix: Matrix) -> None:
    built = matrix.get("root", "published", "1", "clean")
    assert built.code == 0, built.err
    images = soup(built.out, "articles/growing-note/diff/3/index.html").select(".diff img")
    assert len(images) == 3
    assert [(img.get("width"), img.get("height")) for img in images] == [
        ("40", "20"),
        ("60", "20"),
        ("30", "10"),
    ]


def test_a_revised_article_may_link_to_its_own_headings(tmp_path: Path) -> None:
    root = copy_site(tmp_path, BASES["root"])
    for name in ("a_2020_en.py", "b_2021_ru.py", "c_2022_ko.py"):
        edit(root, f"articles/{name}", "below](/articles/growing-note/#the-path)", "below](#the-path)")
    built = build(root, tmp_path / "out")
    assert built.code == 0, built.err


def test_a_feed_entrys_fragment_link_resolves_against_xml_base_to_an_id(matrix: Matrix) -> None:
    built = matrix.get("root", "published", "1", "clean")
    assert built.code == 0, built.err
    feed = ET.parse(built.out / "feed.xml").getroot()
    base = feed.get(XML_BASE, "")
    contents = [entry.find(f"{ATOM}content") for entry in feed.iter(f"{ATOM}entry")]
    found = [
        Found("feed.xml entry", url, urljoin(urljoin(base, content.get(XML_BASE, "")), url))
        for content in contents
        if content is not None
        for _, url in element_urls(BeautifulSoup(content.text or "", "html.parser"))
    ]
    assert any(f.url.startswith("#") for f in found)
    assert dead_urls(built.out, BASES["root"], found) == []


def test_an_article_may_link_to_an_earlier_revision_and_a_diff(tmp_path: Path) -> None:
    root = copy_site(tmp_path, BASES["root"])
    linking = (
        "[the history](/articles/growing-note/revisions/1/), [a diff](/articles/growing-note/diff/2/),"
        " [the first start](/articles/growing-note/revisions/1/#start)"
    )
    edit(root, "articles/a_2020_en.py", "[home](/)", f"[home](/), {linking}")
    built = build(root, tmp_path / "out")
    assert built.code == 0, built.err


@pytest.mark.parametrize(
    ("page", "template"),
    [
        ("articles/growing-note/index.html", "article.html"),
        ("/articles/growing-note/revisions/1/", "article.html"),
        ("articles/growing-note/diff/2/index.html", "diff.html"),
        ("/articles/growing-note/diff/12/", "diff.html"),
        ("/articles/diff/", "article.html"),
    ],
)
def test_a_fault_on_a_page_is_looked_for_in_the_template_that_renders_it(page: str, template: str) -> None:
    """A fault the link check finds on a diff page is named at ``diff.html``, not at the
    article's template (where the revert of 8fabba2 was reported)."""
    assert page_template(page) == template
