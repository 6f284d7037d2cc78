"""The ordered navigation (``[[tool.site_builder.nav]]``): a sidebar in reading order,
previous/next links, the home page in that order, and a problem for every wrong entry."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from site_builder import cli

SITE = Path(__file__).parents[1] / "sites" / "valid_site"
NAV = """
[[tool.site_builder.nav]]
section = "Первые шаги"
pages = [
    ["retry-budget", "Бюджет повторов"],
    ["one-key-one-row", "Один ключ — одна строка"],
]

[[tool.site_builder.nav]]
section = "Справочник"
pages = [["hangul-keys", "Ключи на хангыле"]]
"""


def site_with(tmp_path: Path, nav: str) -> Path:
    site = tmp_path / "site"
    shutil.copytree(SITE, site)
    with (site / "pyproject.toml").open("a", encoding="utf-8") as settings:
        settings.write(nav)
    return site


def page(site: Path, slug: str) -> BeautifulSoup:
    html = (site / "build" / "articles" / slug / "index.html").read_text("utf-8")
    return BeautifulSoup(html, "html.parser")


def test_article_pages_show_the_sidebar_in_reading_order_and_their_neighbours(tmp_path: Path) -> None:
    site = site_with(tmp_path, NAV)
    assert cli.main(["build", "--root", str(site), "--jobs", "1"]) == 0
    middle = page(site, "one-key-one-row")
    sidebar = middle.select_one("nav.reading-nav")
    assert sidebar is not None
    assert [h.get_text() for h in sidebar.select("h2")] == ["Первые шаги", "Справочник"]
    assert [(a["href"], a.get_text()) for a in sidebar.select("a")] == [
        ("/articles/retry-budget/", "Бюджет повторов"),
        ("/articles/one-key-one-row/", "Один ключ — одна строка"),
        ("/articles/hangul-keys/", "Ключи на хангыле"),
    ]
    assert [a["href"] for a in sidebar.select('a[aria-current="page"]')] == ["/articles/one-key-one-row/"]
    assert middle.select_one('a[rel="prev"]')["href"] == "/articles/retry-budget/"
    assert middle.select_one('a[rel="next"]')["href"] == "/articles/hangul-keys/"
    first, last = page(site, "retry-budget"), page(site, "hangul-keys")
    assert first.select_one('a[rel="prev"]') is None and first.select_one('a[rel="next"]') is not None
    assert last.select_one('a[rel="next"]') is None and last.select_one('a[rel="prev"]') is not None
    # The sidebar is chrome: search indexes the article, not the navigation.
    assert sidebar.find_parent(attrs={"data-pagefind-body": True}) is None


def test_the_home_page_lists_the_navigation_in_reading_order(tmp_path: Path) -> None:
    site = site_with(tmp_path, NAV)
    assert cli.main(["build", "--root", str(site), "--jobs", "1"]) == 0
    home = BeautifulSoup((site / "build" / "index.html").read_text("utf-8"), "html.parser")
    assert [a["href"] for a in home.select(".card-title a")] == [
        "/articles/retry-budget/",
        "/articles/one-key-one-row/",
        "/articles/hangul-keys/",
    ]


def test_without_navigation_no_page_has_a_sidebar(tmp_path: Path) -> None:
    site = site_with(tmp_path, "")
    assert cli.main(["build", "--root", str(site), "--jobs", "1"]) == 0
    for slug in ("retry-budget", "one-key-one-row", "hangul-keys"):
        assert page(site, slug).select("nav.reading-nav, nav.pager") == []


@pytest.mark.parametrize(
    ("nav", "line"),
    [
        pytest.param(
            '\n[[tool.site_builder.nav]]\nsection = "A"\npages = [\n    ["retry-budget", "R"],\n'
            '    ["no-such-page", "N"],\n]\n',
            "pyproject.toml:13: settings: nav lists 'no-such-page', which is not the slug of an article",
            id="unknown-slug",
        ),
        pytest.param(
            '\n[[tool.site_builder.nav]]\nsection = "A"\npages = [["retry-budget", "R"]]\n'
            '\n[[tool.site_builder.nav]]\nsection = "B"\npages = [["retry-budget", "again"]]\n',
            "pyproject.toml:15: settings: nav lists 'retry-budget' twice",
            id="listed-twice",
        ),
        pytest.param(
            '\n[[tool.site_builder.nav]]\nsection = "A"\npages = ["retry-budget"]\n',
            'pyproject.toml:11: settings: a nav page is a pair ["slug", "link text"], not \'retry-budget\'',
            id="not-a-pair",
        ),
        pytest.param(
            "\n[[tool.site_builder.nav]]\npages = []\n",
            "pyproject.toml:9: settings: each [[tool.site_builder.nav]] needs exactly a 'section' title "
            "and a 'pages' list",
            id="no-section",
        ),
        pytest.param(
            '\n[[tool.site_builder.nav]]\ntitle = "A"\npages = []\n',
            "pyproject.toml:10: settings: unknown key 'title' in [[tool.site_builder.nav]]; it takes a "
            "'section' title and a 'pages' list",
            id="unknown-key",
        ),
        pytest.param(
            '\n[[tool.site_builder.nav]]\nsection = "A"\npage = []\n',
            "pyproject.toml:11: settings: unknown key 'page' in [[tool.site_builder.nav]]; "
            "did you mean 'pages'?",
            id="misspelt-key",
        ),
    ],
)
def test_a_wrong_navigation_entry_is_a_problem_at_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], nav: str, line: str
) -> None:
    site = site_with(tmp_path, nav)
    assert cli.main(["validate", "--root", str(site)]) == 1
    assert capsys.readouterr().err.splitlines()[0] == line
