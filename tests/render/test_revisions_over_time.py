"""Revisions over time (issue 16): one article revised by two later batches.

The site below is the acceptance site of the issue: one article in three batches
(three revisions). The tests read what a reader, a feed reader, a search engine and an
importer get, from the site built at the domain's root and below ``/sub/dir/``
(``tests/support/sites.BASE_PATHS``), and then break each rule that ties revisions together, one at a
time, reading the exact problem line.
"""

from __future__ import annotations

import json
import textwrap
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from bs4 import BeautifulSoup
from jsonschema import Draft202012Validator

from site_builder.language.labels import HISTORY, built_in
from site_builder.render.revisions_json import schema
from tests.render.test_drafts import feed_links, search_index, sitemap_urls
from tests.support.site_urls import dead_urls
from tests.support.sites import (
    SETTINGS,
    MakeSite,
    RunCli,
    base_url_at,
    build_quietly,
    searchable,
    settings_at,
    tree,
    write_site,
)

SLUG = "growing-note"
ATOM = "{http://www.w3.org/2005/Atom}"
SHOWN = (
    f'figure("/assets/path.svg", "Client and server", "The path."), '
    f'paragraph("Back to [the start](/articles/{SLUG}/#start).")'
)
"""The end of every revision's body: an image and a link, the same in each (so no diff marks
them), which the revision and diff pages show below the base path."""
SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"/>\n'

FIRST = f'''\
from site_builder import Source, figure, fixture, heading, paragraph, revision, verified_output

SOURCES = [Source(title="A", url="https://a.example/", note="a"),
           Source(title="B", url="https://b.example/", note="b")]


@fixture
def answer() -> dict:
    return {{"value": 41, "checks": {{"isNumber": True}}}}


revisions = [revision(
    slug="{SLUG}", title="Growing note", categories=["Notes"], excerpt="It grows.",
    published="2020-06-18",
    body=[heading("Start"), paragraph("The first words of the note & oldword."),
          verified_output(answer, expected={{"value": 41}}), {SHOWN}],
    sources=SOURCES)]
'''

SECOND = f'''\
from site_builder import figure, fixture, heading, paragraph, revision, verified_output

from a_2020 import SOURCES


@fixture
def answer() -> dict:
    return {{"value": 42, "checks": {{"isNumber": True}}}}


revisions = [revision(
    slug="{SLUG}", title="Growing note", categories=["Notes"], excerpt="It grows.",
    published="2020-06-18",
    revised="2021-03-01",
    changes="The answer was **41**; it is 42.",
    body=[heading("Start"), paragraph("The first words of the note & more."),
          verified_output(answer, expected={{"value": 42}}), {SHOWN}],
    sources=SOURCES)]
'''

THIRD = f'''\
from site_builder import figure, heading, paragraph, revision

from a_2020 import SOURCES

revisions = [revision(
    slug="{SLUG}", title="Growing note", categories=["Notes"], excerpt="It grows.",
    published="2020-06-18",
    revised="2022-01-10",
    changes="A second paragraph, with the newword.",
    body=[heading("Start"), paragraph("The first words of the note <and> more."),
          paragraph("A newword paragraph."), {SHOWN}],
    sources=SOURCES)]
'''

FILES = {"articles/a_2020.py": FIRST, "articles/b_2021.py": SECOND, "articles/c_2022.py": THIRD}
PAGES = {
    "latest": f"articles/{SLUG}/index.html",
    "revision 1": f"articles/{SLUG}/revisions/1/index.html",
    "revision 2": f"articles/{SLUG}/revisions/2/index.html",
    "diff 2": f"articles/{SLUG}/diff/2/index.html",
    "diff 3": f"articles/{SLUG}/diff/3/index.html",
}


def page(out: Path, name: str) -> BeautifulSoup:
    return BeautifulSoup((out / PAGES[name]).read_text("utf-8"), "html.parser")


def build(run_cli: RunCli, site: Path, *args: str) -> Path:
    result = run_cli(["build", "--root", str(site), *args])
    assert result.code == 0, result.err
    return site / "build"


@pytest.fixture
def make_site(make_site: MakeSite) -> MakeSite:
    """conftest's ``make_site``, with the image every revision shows."""

    def make(files: dict[str, str], *args: Any, **kwargs: Any) -> Path:
        return make_site({"assets/path.svg": SVG, **files}, *args, **kwargs)

    return make


@pytest.fixture(scope="module")
def built(base_path: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The three revisions built once at each base path; the tests only read the output."""
    root = write_site(
        tmp_path_factory.mktemp("revised"), {**FILES, "assets/path.svg": SVG}, settings_at(base_path)
    )
    return build_quietly(root)


def test_the_latest_page_shows_the_history_newest_first(built: Path, base_path: str) -> None:
    latest = page(built, "latest")
    assert "A newword paragraph." in latest.select_one(".article-body").get_text()
    meta = latest.select_one(".meta").get_text(" ", strip=True)
    assert "Published: 2020-06-18" in meta and "Updated: 2022-01-10" in meta
    entries = latest.select("#history li")
    assert [li.get_text(" ", strip=True).split(" · ")[0] for li in entries] == [
        "Revision 3",
        "Revision 2",
        "Revision 1",
    ]
    assert [li.select_one("time")["datetime"] for li in entries] == ["2022-01-10", "2021-03-01", "2020-06-18"]
    assert "The answer was 41 ; it is 42." in entries[1].get_text(" ", strip=True)
    assert [a["href"] for li in entries for a in li.select("a")] == [
        f"{base_path}articles/{SLUG}/diff/3/",
        f"{base_path}articles/{SLUG}/revisions/2/",
        f"{base_path}articles/{SLUG}/diff/2/",
        f"{base_path}articles/{SLUG}/revisions/1/",
    ]
    assert entries[0]["aria-current"] == "page"


def test_earlier_revisions_stay_readable_and_name_the_latest_canonical(built: Path, base_path: str) -> None:
    for number, words in ((1, "oldword"), (2, "42")):
        old = page(built, f"revision {number}")
        assert words in old.select_one(".article-body").get_text()
        assert old.select_one('link[rel="canonical"]')["href"] == f"{base_url_at(base_path)}articles/{SLUG}/"
        notice = old.select_one(".revision-notice")
        assert notice is not None and f"revision {number} of" in notice.get_text()
        assert notice.select_one("a")["href"] == f"{base_path}articles/{SLUG}/"
        assert (
            old.select_one("#history li[aria-current]")
            .get_text(" ", strip=True)
            .startswith(f"Revision {number}")
        )
    assert page(built, "latest").select_one(".revision-notice") is None


@pytest.mark.parametrize(
    ("name", "updated"),
    [("revision 1", None), ("revision 2", "2021-03-01"), ("latest", "2022-01-10")],
)
def test_each_revision_s_page_is_dated_by_its_text(built: Path, name: str, updated: str | None) -> None:
    """A page's "Updated" is when the text it shows took effect, as its ``article:modified_time``
    says; revision 1's text is the one published, so it shows no "Updated" at all."""
    shown = page(built, name)
    meta = shown.select_one(".meta").get_text(" ", strip=True)
    modified = shown.select_one('meta[property="article:modified_time"]')["content"]
    assert "Published: 2020-06-18" in meta
    if updated is None:
        assert "Updated" not in meta
        assert modified == "2020-06-18"
    else:
        assert f"Updated: {updated}" in meta
        assert modified == updated


def test_diff_pages_mark_words_with_ins_and_del(built: Path) -> None:
    second = page(built, "diff 2")
    assert [d.get_text() for d in second.select(".diff del")] == ["oldword", "41"]
    assert [i.get_text() for i in second.select(".diff ins")] == ["more", "42"]
    third = page(built, "diff 3")
    assert [d.get_text() for d in third.select(".diff p del")] == ["&"]
    assert [i.get_text() for i in third.select(".diff p ins")] == ["<and>"]
    assert "A newword paragraph." in [i.get_text() for i in third.select(".diff ins")]
    assert "Revision 2 of 2021-03-01 compared with revision 3 of 2022-01-10" in third.get_text()


def test_revision_and_diff_pages_show_the_bodys_urls_below_the_base_path(built: Path, base_path: str) -> None:
    """The image and the link every revision ends with, on each page that shows a body (the diff
    pages did not move them below the path before commit 8fabba2); every URL leads somewhere."""
    for name in PAGES:
        body = page(built, name).select_one(".diff" if name.startswith("diff") else ".article-body")
        assert [img["src"] for img in body.select("img")] == [f"{base_path}assets/path.svg"], name
        assert f"{base_path}articles/{SLUG}/#start" in [a["href"] for a in body.select("a")], name
    assert dead_urls(built, base_url_at(base_path)) == []


def test_lists_feed_and_sitemap_show_one_entry_dated_by_the_latest(built: Path, base_path: str) -> None:
    url = f"{base_url_at(base_path)}articles/{SLUG}/"
    index = BeautifulSoup((built / "index.html").read_text("utf-8"), "html.parser")
    cards = index.select("li.card")
    assert len(cards) == 1 and cards[0].select_one("time")["datetime"] == "2022-01-10"
    assert feed_links(built) == [url]
    entry = next(ET.parse(built / "feed.xml").getroot().iter(f"{ATOM}entry"))
    assert entry.findtext(f"{ATOM}published") == "2020-06-18T00:00:00Z"
    assert entry.findtext(f"{ATOM}updated") == "2022-01-10T00:00:00Z"
    assert "newword" in (entry.findtext(f"{ATOM}content") or "")
    urls = sitemap_urls(built)
    assert url in urls
    assert not [u for u in urls if "/revisions/" in u or "/diff/" in u]
    sitemap = (built / "sitemap.xml").read_text("utf-8")
    assert f"<loc>{url}</loc>\n    <lastmod>2022-01-10</lastmod>" in sitemap


def test_search_indexes_the_latest_revision_only(built: Path) -> None:
    # Pagefind's results are site-relative: its UI puts them below the base path (baseUrl).
    indexed = search_index(built)
    assert sorted(indexed) == [f"/articles/{SLUG}/"]
    assert "newword" in indexed[f"/articles/{SLUG}/"]
    assert "oldword" not in indexed[f"/articles/{SLUG}/"]


def test_revisions_json_numbers_every_revision(built: Path, make_site: MakeSite, run_cli: RunCli) -> None:
    data = json.loads((built / "revisions.json").read_text("utf-8"))
    Draft202012Validator(schema()).validate(data)
    assert [(d["revision"], d["revises"], d["revised"]) for d in data] == [
        (1, None, None),
        (2, 1, "2021-03-01"),
        (3, 2, "2022-01-10"),
    ]
    assert data[0]["changes"] is None
    assert data[1]["changes"] == "The answer was <strong>41</strong>; it is 42."
    assert {d["published"] for d in data} == {"2020-06-18"}
    assert list(data[0])[-5:] == ["revision", "revises", "changes", "revised", "revisedAt"]
    site = built.parent
    printed = run_cli(["revisions", "--root", str(site)])
    assert json.loads(printed.out) == data
    latest = run_cli(["revisions", "--root", str(site), "--latest", "--indent", "0"])
    assert [(d["revision"], d["batch"]) for d in json.loads(latest.out)] == [(3, "c_2022")]


def test_a_revising_batch_added_later_gives_what_a_clean_build_gives(
    make_site: MakeSite, run_cli: RunCli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    grown = make_site({k: v for k, v in FILES.items() if "c_2022" not in k}, name="grown")
    build(run_cli, grown)
    (grown / "articles/c_2022.py").write_text(THIRD, "utf-8")
    build(run_cli, grown)
    clean = make_site(FILES, name="clean")
    build(run_cli, clean, "--no-cache", "--jobs", "1")
    assert _tree(grown / "build") == _tree(clean / "build")
    build(run_cli, clean, "--no-cache", "--jobs", "2")
    assert _tree(grown / "build") == _tree(clean / "build")
    (grown / "articles/c_2022.py").unlink()  # the revision withdrawn: back to two
    build(run_cli, grown)
    assert not (grown / "build" / PAGES["revision 2"]).exists()
    two = make_site({k: v for k, v in FILES.items() if "c_2022" not in k}, name="two")
    build(run_cli, two, "--no-cache")
    assert _tree(grown / "build") == _tree(two / "build")
    (grown / "articles/b_2021.py").unlink()  # no later revision at all: the first one alone again
    build(run_cli, grown)
    one = make_site({"articles/a_2020.py": FIRST}, name="one")
    build(run_cli, one, "--no-cache")
    assert _tree(grown / "build") == _tree(one / "build")
    assert not (grown / "build" / PAGES["revision 1"]).exists()


OTHER = """\
from site_builder import Source, paragraph, revision

SOURCES = [Source(title="C", url="https://c.example/", note="c"),
           Source(title="D", url="https://d.example/", note="d")]

revisions = [revision(
    slug="other-note", title="Other note", categories=["Notes"], excerpt="Another.",
    published="2021-01-01", body=[paragraph("Words of another note, EDIT.")], sources=SOURCES)]
"""


def test_the_batch_of_a_revised_article_is_kept_once_the_kernel_renders_its_page(
    make_site: MakeSite, run_cli: RunCli, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The first revision's page is the kernel's once a build has seen the article revised: its
    batch is not loaded again for an edit elsewhere (it was, on every build, before the hint)."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    log = tmp_path / "imports.log"
    logged = FIRST.replace("revisions = [", f"open({str(log)!r}, 'a').write('a_2020\\n')\nrevisions = [", 1)
    site = make_site(
        {**FILES, "articles/a_2020.py": logged, "articles/d_other.py": OTHER.replace("EDIT", "0")}
    )
    for n in range(4):
        (site / "articles/d_other.py").write_text(OTHER.replace("EDIT", str(n)), "utf-8")
        build(run_cli, site)
    # b_2021 and c_2022 import a_2020 too; what counts is that nobody does after the second build.
    loads = log.read_text("utf-8").count("a_2020")
    build(run_cli, site)  # nothing changed
    (site / "articles/d_other.py").write_text(OTHER.replace("EDIT", "edited"), "utf-8")
    build(run_cli, site)
    assert log.read_text("utf-8").count("a_2020") == loads
    clean = make_site(
        {**FILES, "articles/a_2020.py": logged, "articles/d_other.py": OTHER.replace("EDIT", "edited")},
        name="clean",
    )
    build(run_cli, clean, "--no-cache")
    assert _tree(site / "build") == _tree(clean / "build")


def _tree(folder: Path) -> dict[str, bytes]:
    """The site in ``folder``, its search index as what a reader finds."""
    return searchable(tree(folder))


# --- each rule, broken once ------------------------------------------------------------------


def _broken(make_site: MakeSite, second: str) -> Path:
    return make_site({"articles/a_2020.py": FIRST, "articles/b_2021.py": second})


def _line(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if needle in line)


CASES = {
    "revised-without-changes": (
        lambda s: s.replace('    changes="The answer was **41**; it is 42.",\n', ""),
        'revised="2021-03-01"',
        "changes",
        f"revision 2 of '{SLUG}' needs changes= saying what changed and why",
    ),
    "changes-without-revised": (
        lambda s: s.replace('    revised="2021-03-01",\n', ""),
        "changes=",
        "revised",
        f"revision 2 of '{SLUG}' needs revised= with its date",
    ),
    "same-date": (
        lambda s: s.replace('revised="2021-03-01"', 'revised="2020-06-18"'),
        'revised="2020-06-18"',
        "revised-order",
        "revised 2020-06-18 is the same day as revision 1 (articles/a_2020.py:12); "
        'a correction made that day gives its time too, e.g. revised="2020-06-18T15:30Z"',
    ),
    "earlier-date": (
        lambda s: s.replace('revised="2021-03-01"', 'revised="2019-01-01"'),
        'revised="2019-01-01"',
        "revised-order",
        "revised 2019-01-01 is not after the date of revision 1 (articles/a_2020.py:12), 2020-06-18; "
        "an article's revisions come in date order (batches are read in file-name order, then list order)",
    ),
    "other-published": (
        lambda s: s.replace('published="2020-06-18",\n    revised', 'published="2020-06-19",\n    revised'),
        'published="2020-06-19"',
        "published",
        "published '2020-06-19' differs from revision 1's '2020-06-18' (articles/a_2020.py:12); "
        "a later revision keeps the article's first date and gives its own as revised=",
    ),
    "body-unchanged": (
        lambda s: s.replace("note & more.", "note & oldword.").replace("42", "41"),
        "body=",
        "revision-body",
        "body is the same as revision 1's (articles/a_2020.py:12); a revision must change the text",
    ),
    "no-revised-no-changes": (
        lambda s: s.replace('    revised="2021-03-01",\n', "").replace(
            '    changes="The answer was **41**; it is 42.",\n', ""
        ),
        "slug=",
        "slug-unique",
        f"slug '{SLUG}' is already used at articles/a_2020.py:13; a later revision of that article "
        "gives revised= (its date) and changes= (what changed and why)",
    ),
    "revised-not-a-date": (
        lambda s: s.replace('revised="2021-03-01"', 'revised="March 2021"'),
        'revised="March 2021"',
        "revised",
        "revised 'March 2021' is not an ISO date like 2026-12-01, nor a date and time like 2026-12-01T15:30Z",
    ),
    "changes-empty": (
        lambda s: s.replace('changes="The answer was **41**; it is 42."', 'changes="  "'),
        'changes="  "',
        "changes",
        "changes must say what this revision changed and why; it is empty",
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_each_history_rule_is_a_problem_at_the_authors_line(
    case: str, make_site: MakeSite, run_cli: RunCli
) -> None:
    edit, needle, rule, message = CASES[case]
    second = edit(SECOND)
    assert second != SECOND
    site = _broken(make_site, second)
    result = run_cli(["validate", "--root", str(site), "--format", "json"])
    assert result.code == 1
    problems = [(p["path"], p["line"], p["rule"], p["message"]) for p in json.loads(result.out)]
    assert problems == [("articles/b_2021.py", _line(second, needle), rule, message)]


def test_a_revision_whose_module_sorts_before_the_original_says_so_and_how_to_name_it(
    make_site: MakeSite, run_cli: RunCli
) -> None:
    """The batches load in file-name order: ``a_2019.py`` (the revision) before ``a_2020.py``
    (the article). One problem, about the order, at the revision's ``revised=``; the name it
    suggests then validates."""
    site = make_site({"articles/a_2020.py": FIRST, "articles/a_2019.py": SECOND})
    result = run_cli(["validate", "--root", str(site)])
    assert result.code == 1
    assert result.err.splitlines() == [
        f"articles/a_2019.py:{_line(SECOND, 'revised=')}: {SLUG}: this revision of '{SLUG}' is loaded "
        "before the article's first revision (articles/a_2020.py:12): batches load in the order of "
        "their file names, and a_2019.py sorts before a_2020.py; give this module a name that sorts "
        "after it, e.g. a_2020_2021_03_01.py",
        "1 problem found",
    ]
    (site / "articles" / "a_2019.py").rename(site / "articles" / "a_2020_2021_03_01.py")
    assert run_cli(["validate", "--root", str(site)]).code == 0


ONE_MODULE = f'''\
from site_builder import Source, paragraph, revision

SOURCES = [Source(title="A", url="https://a.example/", note="a"),
           Source(title="B", url="https://b.example/", note="b")]

LATER = revision(
    slug="{SLUG}", title="Growing note", categories=["Notes"], excerpt="It grows.",
    published="2020-06-18",
    revised="2021-03-01",
    changes="More words.",
    body=[paragraph("The first words of the note & more.")],
    sources=SOURCES)
FIRST = revision(
    slug="{SLUG}", title="Growing note", categories=["Notes"], excerpt="It grows.",
    published="2020-06-18",
    body=[paragraph("The first words of the note.")],
    sources=SOURCES)

revisions = [LATER, FIRST]
'''


def test_a_revision_listed_before_the_original_in_one_module_says_so(
    make_site: MakeSite, run_cli: RunCli
) -> None:
    site = make_site({"articles/a_2020.py": ONE_MODULE})
    result = run_cli(["validate", "--root", str(site)])
    assert result.err.splitlines() == [
        f"articles/a_2020.py:{_line(ONE_MODULE, 'revised=')}: {SLUG}: this revision of '{SLUG}' comes "
        f"before the article's first revision (articles/a_2020.py:{_line(ONE_MODULE, 'FIRST =')}) in the "
        "module's revisions list; list it after that one",
        "1 problem found",
    ]
    (site / "articles" / "a_2020.py").write_text(
        ONE_MODULE.replace("[LATER, FIRST]", "[FIRST, LATER]"), "utf-8"
    )
    assert run_cli(["validate", "--root", str(site)]).code == 0


def test_a_first_revision_cannot_say_it_revises(make_site: MakeSite, run_cli: RunCli) -> None:
    alone = SECOND.replace("from a_2020 import SOURCES", "from site_builder import Source\n" + _SOURCES)
    site = make_site({"articles/b_2021.py": alone})
    result = run_cli(["validate", "--root", str(site)])
    assert result.code == 1
    line = _line(alone, 'revised="2021-03-01"')
    assert result.err.splitlines()[0] == (
        f"articles/b_2021.py:{line}: {SLUG}: no earlier revision publishes '{SLUG}': "
        "an article's first revision has no revised= or changes="
    )


_SOURCES = textwrap.dedent(
    """\
    SOURCES = [Source(title="A", url="https://a.example/", note="a"),
               Source(title="B", url="https://b.example/", note="b")]
    """
)


def test_a_language_the_site_adds_needs_the_history_words_once_it_revises(
    make_site: MakeSite, run_cli: RunCli
) -> None:
    words = {k: v for k, v in built_in("en").items() if k not in HISTORY}
    table = "\n".join(
        f"{k} = {json.dumps(v)}" if isinstance(v, str) else _count_toml(k, v) for k, v in words.items()
    )
    settings = SETTINGS + f"\n[tool.site_builder.labels.de]\n{table}\n"
    german = {
        name: text.replace('title="Growing note",', 'title="Growing note", lang="de",')
        for name, text in FILES.items()
    }
    site = make_site({k: v for k, v in german.items() if "c_2022" not in k}, settings)
    assert run_cli(["validate", "--root", str(site)]).code == 1
    first_only = make_site({"articles/a_2020.py": german["articles/a_2020.py"]}, settings, name="first")
    assert run_cli(["validate", "--root", str(first_only)]).code == 0  # no history: no history words needed
    result = run_cli(["validate", "--root", str(site), "--format", "json"])
    problems = [(p["path"], p["line"], p["rule"], p["message"]) for p in json.loads(result.out)]
    second = german["articles/b_2021.py"]
    assert problems == [
        (
            "articles/b_2021.py",
            _line(second, "changes="),
            "labels",
            f"'{SLUG}' has a later revision in 'de': its pages need the labels {', '.join(HISTORY)}, "
            "which [tool.site_builder.labels.de] does not give",
        )
    ]


def _count_toml(key: str, forms: object) -> str:
    assert isinstance(forms, dict)
    return f"{key} = {{ " + ", ".join(f"{form} = {json.dumps(text)}" for form, text in forms.items()) + " }"


def test_each_revision_is_checked_against_its_own_batchs_fixture(
    make_site: MakeSite, run_cli: RunCli
) -> None:
    """Revision 1 prints 41 from its fixture, revision 2 prints 42 from its own: printing the
    first's number in the second is a drift at the second's line, whatever the first says."""
    stale = SECOND.replace('expected={"value": 42}', 'expected={"value": 41}')
    assert stale != SECOND
    site = _broken(make_site, stale)
    result = run_cli(["validate", "--root", str(site), "--format", "json"])
    problems = [(p["path"], p["line"], p["rule"]) for p in json.loads(result.out)]
    assert problems == [("articles/b_2021.py", _line(stale, "verified_output("), "verified-drift")]


def test_a_category_only_an_earlier_revision_had_is_shown_unlinked(
    make_site: MakeSite, run_cli: RunCli
) -> None:
    moved = THIRD.replace('categories=["Notes"]', 'categories=["Other"]')
    out = build(run_cli, make_site({**FILES, "articles/c_2022.py": moved}))
    assert not (out / "categories/notes").exists() and (out / "categories/other/index.html").is_file()
    tags = page(out, "revision 1").select_one(".tags")
    assert [(t.name, t.get("href")) for t in tags.select(".tag")] == [("span", None)]
    assert [(t.name, t.get("href")) for t in page(out, "latest").select(".tags .tag")] == [
        ("a", "/categories/other/")
    ]
    linking = SECOND.replace("note & more.", "note & [more](/categories/notes/).")
    site = make_site({**FILES, "articles/b_2021.py": linking, "articles/c_2022.py": moved}, name="linking")
    result = run_cli(["validate", "--root", str(site), "--format", "json"])
    assert [(p["line"], p["rule"]) for p in json.loads(result.out)] == [
        (_line(linking, "[more]"), "url-target")
    ]


def test_a_link_to_the_history_needs_an_article_with_one(make_site: MakeSite, run_cli: RunCli) -> None:
    linking = OTHER.replace("EDIT.", f"[history](/articles/{SLUG}/#history).")
    site = make_site({**FILES, "articles/d_other.py": linking})
    assert run_cli(["validate", "--root", str(site)]).code == 0
    build(run_cli, site)
    alone = make_site({"articles/a_2020.py": FIRST, "articles/d_other.py": linking}, name="alone")
    result = run_cli(["validate", "--root", str(alone), "--format", "json"])
    assert [(p["path"], p["line"], p["rule"]) for p in json.loads(result.out)] == [
        ("articles/d_other.py", _line(linking, "[history]"), "fragment")
    ]


def test_a_later_batch_is_built_again_when_a_batch_it_imports_changes(
    make_site: MakeSite, run_cli: RunCli, monkeypatch: pytest.MonkeyPatch
) -> None:
    """b_2021 and c_2022 print SOURCES from a_2020: an edit there reaches their pages."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    site = make_site(FILES)
    build(run_cli, site)
    edited = FIRST.replace('note="a"', 'note="a, edited"')
    (site / "articles/a_2020.py").write_text(edited, "utf-8")
    build(run_cli, site)
    assert "a, edited" in (site / "build" / PAGES["latest"]).read_text("utf-8")
    clean = make_site({**FILES, "articles/a_2020.py": edited}, name="clean")
    build(run_cli, clean, "--no-cache")
    assert _tree(site / "build") == _tree(clean / "build")


def test_an_article_may_link_to_an_earlier_revision_and_a_diff_the_build_has(
    make_site: MakeSite, run_cli: RunCli
) -> None:
    """Links to a revision's page and a diff page are links to pages of the site, and to pages
    a build leaves out once the revision they need is a draft: a problem at the link's line."""
    linking = OTHER.replace(
        "EDIT.", f"[the first](/articles/{SLUG}/revisions/1/), [what 3 changed](/articles/{SLUG}/diff/3/)."
    )
    site = make_site({**FILES, "articles/d_other.py": linking})
    assert run_cli(["validate", "--root", str(site)]).code == 0
    build(run_cli, site)
    unknown = make_site(
        {**FILES, "articles/d_other.py": linking.replace("/diff/3/", "/diff/4/")}, name="unknown"
    )
    result = run_cli(["validate", "--root", str(unknown), "--format", "json"])
    assert [(p["line"], p["rule"]) for p in json.loads(result.out)] == [
        (_line(linking, "[the first]"), "url-target")
    ]

    drafted = make_site(
        {
            **FILES,
            "articles/c_2022.py": THIRD.replace("    sources=SOURCES)]", "    draft=True, sources=SOURCES)]"),
            "articles/d_other.py": linking,
        },
        name="drafted",
    )
    result = run_cli(["build", "--root", str(drafted)])
    assert result.code == 1
    at = f"articles/d_other.py:{_line(linking, '[the first]')}: other-note:"
    assert result.err.splitlines()[:1] == [
        f"{at} '/articles/{SLUG}/diff/3/' links to the page of a revision of '{SLUG}' (a draft), which this"
        " build leaves out; --drafts includes it"
    ]
    build(run_cli, drafted, "--drafts")
