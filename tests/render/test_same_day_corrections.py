"""Same-day corrections (issue 38, item 3): an article published on 2026-12-04 and corrected
twice that day, each correction giving its time (the second with a UTC offset, which puts
it after the first although its clock reads later on another continent).

The tests read what a reader, a feed reader, a search engine and an importer get, from the
site built at the domain's root and below a sub-path on the day itself; then the ways a
correction's time can be missing or out of order, each at the author's line.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from jsonschema import Draft202012Validator

from site_builder.model.moments import after, has_time, is_moment, shown, sort_key, timestamp
from site_builder.render.revisions_json import schema
from tests.support.drafts_site import epoch
from tests.support.sites import MakeSite, RunCli, base_url_at, build_quietly, settings_at, write_site

SLUG = "same-day"
ATOM = "{http://www.w3.org/2005/Atom}"
DAY = "2026-12-04"
MORNING = "2026-12-04T09:15Z"
EVENING_IN_SEOUL = "2026-12-04T23:40+09:00"
"""14:40 UTC: after the morning's correction, on the same written date."""


def batch(number: int, revised: str | None, words: str, *, other: str = "") -> str:
    """A batch module of the article's ``number``-th revision, dated ``revised`` (None: the first)."""
    later = f'revised="{revised}", changes="Correction {number}.",' if revised else ""
    return f'''\
from site_builder import Source, paragraph, revision

SOURCES = [Source(title="A", url="https://a.example/", note="a"),
           Source(title="B", url="https://b.example/", note="b")]

revisions = [revision(
    slug="{SLUG}", title="Same day", categories=["Notes"], excerpt="Corrected twice.",
    published="{DAY}",
    {later}
    body=[paragraph("The note says {words}.")],
    sources=SOURCES){other}]
'''


FILES = {
    "articles/a_first.py": batch(1, None, "forty-one"),
    "articles/b_morning.py": batch(2, MORNING, "forty-two"),
    "articles/c_evening.py": batch(3, EVENING_IN_SEOUL, "forty-three"),
}
OTHER = """\
, revision(
    slug="other-note", title="Other", categories=["Notes"], excerpt="Published that day.",
    published="2026-12-04",
    body=[paragraph("Another note published the same day, with no correction.")],
    sources=SOURCES)"""
"""An article of that day with no time: lists put the corrected one, updated later that day, first."""


@pytest.fixture(scope="module")
def built(base_path: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The three revisions built on their day at each base path; the tests only read the output."""
    files = {**FILES, "articles/a_first.py": batch(1, None, "forty-one", other=OTHER)}
    root = write_site(tmp_path_factory.mktemp("same-day"), files, settings_at(base_path))
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SOURCE_DATE_EPOCH", epoch(DAY, seconds=3600))
        return build_quietly(root)


def soup(out: Path, path: str) -> BeautifulSoup:
    return BeautifulSoup((out / path).read_text("utf-8"), "html.parser")


def test_the_page_shows_the_three_revisions_of_one_day_in_order(built: Path, base_path: str) -> None:
    latest = soup(built, f"articles/{SLUG}/index.html")
    assert "forty-three" in latest.select_one(".article-body").get_text()
    meta = latest.select_one(".meta").get_text(" ", strip=True)
    assert f"Published: {DAY}" in meta and "Updated: 2026-12-04 23:40 UTC+09:00" in meta
    entries = latest.select("#history li")
    assert [li.get_text(" ", strip=True).split(" — ")[0] for li in entries] == [
        "Revision 3 · 2026-12-04 23:40 UTC+09:00",
        "Revision 2 · 2026-12-04 09:15 UTC",
        "Revision 1 · 2026-12-04",
    ]
    # One form of each moment in every machine-read place: RFC 3339, with seconds.
    assert [li.select_one("time")["datetime"] for li in entries] == [
        "2026-12-04T23:40:00+09:00",
        "2026-12-04T09:15:00Z",
        DAY,
    ]
    modified = latest.select_one('meta[property="article:modified_time"]')["content"]
    assert modified == "2026-12-04T23:40:00+09:00"
    first = soup(built, f"articles/{SLUG}/revisions/1/index.html")
    assert "You are reading revision 1 of 2026-12-04, not the latest." in first.get_text(" ", strip=True)
    diff = soup(built, f"articles/{SLUG}/diff/2/index.html").get_text(" ", strip=True)
    assert "Revision 1 of 2026-12-04 compared with revision 2 of 2026-12-04 09:15 UTC" in diff


def test_the_feed_and_sitemap_date_the_correction_after_the_publication(built: Path, base_path: str) -> None:
    url = f"{base_url_at(base_path)}articles/{SLUG}/"
    feed = ET.parse(built / "feed.xml").getroot()
    entries = {e.findtext(f"{ATOM}id"): e for e in feed.iter(f"{ATOM}entry")}
    assert next(iter(entries)) == url  # updated at 14:40 UTC: newer than the other note of that day
    entry = entries[url]
    assert entry.findtext(f"{ATOM}published") == "2026-12-04T00:00:00Z"
    assert entry.findtext(f"{ATOM}updated") == "2026-12-04T23:40:00+09:00"
    assert feed.findtext(f"{ATOM}updated") == "2026-12-04T23:40:00+09:00"
    sitemap = (built / "sitemap.xml").read_text("utf-8")
    assert f"<loc>{url}</loc>\n    <lastmod>2026-12-04T23:40:00+09:00</lastmod>" in sitemap
    cards = soup(built, "index.html").select("li.card")
    assert [card.select_one("a")["href"] for card in cards] == [
        f"{base_path}articles/{SLUG}/",
        f"{base_path}articles/other-note/",
    ]
    assert "Updated: 2026-12-04 23:40 UTC+09:00" in cards[0].get_text(" ", strip=True)


def test_revisions_json_keeps_revised_a_date_and_adds_the_time(built: Path, run_cli: RunCli) -> None:
    data = json.loads((built / "revisions.json").read_text("utf-8"))
    Draft202012Validator(schema(), format_checker=Draft202012Validator.FORMAT_CHECKER).validate(data)
    mine = [d for d in data if d["slug"] == SLUG]
    assert [(d["revision"], d["revises"], d["published"], d["revised"], d["revisedAt"]) for d in mine] == [
        (1, None, DAY, None, None),
        (2, 1, DAY, DAY, "2026-12-04T09:15:00Z"),
        (3, 2, DAY, DAY, "2026-12-04T23:40:00+09:00"),
    ]
    printed = run_cli(["revisions", "--root", str(built.parent)])
    assert printed.code == 0 and json.loads(printed.out) == data


def test_a_correction_timed_later_than_the_build_is_published_by_its_date(
    make_site: MakeSite, run_cli: RunCli, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The date decides the schedule, as ``published``'s does; the time only orders the day's
    revisions. A build at 01:00 UTC on the day publishes the correction timed 09:15; a build on
    the day before leaves it out with the article, scheduled for that day."""
    site = make_site({name: FILES[name] for name in ("articles/a_first.py", "articles/b_morning.py")})
    monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch(DAY, seconds=3600))
    result = run_cli(["build", "--root", str(site)])
    assert result.code == 0, result.err
    assert "forty-two" in (site / "build" / f"articles/{SLUG}/index.html").read_text("utf-8")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch("2026-12-03"))
    result = run_cli(["build", "--root", str(site)])
    assert result.code == 0, result.err
    assert "left out 2 scheduled revisions (the next is due 2026-12-04)" in result.err
    assert not (site / "build" / f"articles/{SLUG}").exists()


ORDER_CASES = {
    "no-time": (
        (DAY, "2026-12-04T18:00Z"),
        2,
        "revised 2026-12-04 is the same day as revision 1 (articles/a_first.py:6); "
        'a correction made that day gives its time too, e.g. revised="2026-12-04T15:30Z"',
    ),
    "time-then-no-time": (
        (MORNING, DAY),
        3,
        "revised 2026-12-04 is the same day as revision 2 (articles/b_morning.py:6); "
        f"a correction made that day gives its time too, later than {MORNING}",
    ),
    "earlier-time": (
        (MORNING, "2026-12-04T18:10+09:00"),
        3,
        "revised 2026-12-04T18:10+09:00 is not after the time of revision 2 (articles/b_morning.py:6), "
        f"{MORNING}; an article's revisions come in date order "
        "(batches are read in file-name order, then list order)",
    ),
    "same-instant": (
        (MORNING, "2026-12-04T18:15+09:00"),
        3,
        "revised 2026-12-04T18:15+09:00 is not after the time of revision 2 (articles/b_morning.py:6), "
        f"{MORNING}; an article's revisions come in date order "
        "(batches are read in file-name order, then list order)",
    ),
}


@pytest.mark.parametrize("case", sorted(ORDER_CASES))
def test_a_same_day_correction_out_of_order_is_a_problem_at_its_revised_line(
    case: str, make_site: MakeSite, run_cli: RunCli
) -> None:
    (second, third), number, message = ORDER_CASES[case]
    files = {
        "articles/a_first.py": batch(1, None, "forty-one"),
        "articles/b_morning.py": batch(2, second, "forty-two"),
        "articles/c_evening.py": batch(3, third, "forty-three"),
    }
    result = run_cli(["validate", "--root", str(make_site(files)), "--format", "json"])
    assert result.code == 1
    problems = [(p["path"], p["line"], p["rule"], p["message"]) for p in json.loads(result.out)]
    path = "articles/b_morning.py" if number == 2 else "articles/c_evening.py"
    assert problems == [(path, 9, "revised-order", message)]


@pytest.mark.parametrize(
    "written",
    [
        "2026-12-04T9:15Z",
        "2026-12-04T09:15",
        "2026-12-04 09:15Z",
        "2026-12-04T24:00Z",
        "2026-12-04T09:15+24:00",
    ],
)
def test_a_time_that_is_not_one_is_a_problem_of_the_field(
    written: str, make_site: MakeSite, run_cli: RunCli
) -> None:
    files = {
        "articles/a_first.py": batch(1, None, "forty-one"),
        "articles/b_morning.py": batch(2, written, "forty-two"),
    }
    result = run_cli(["validate", "--root", str(make_site(files)), "--format", "json"])
    assert result.code == 1
    problems = [(p["path"], p["line"], p["rule"], p["message"]) for p in json.loads(result.out)]
    message = (
        f"revised {written!r} is not an ISO date like 2026-12-01, nor a date and time like 2026-12-01T15:30Z"
    )
    assert problems == [("articles/b_morning.py", 9, "revised", message)]


def test_moments_order_a_day_s_revisions_and_say_when_they_are() -> None:
    assert [is_moment(m) for m in (DAY, MORNING, EVENING_IN_SEOUL, "2026-02-30", "2026-12-04T09:15:60Z")] == [
        True,
        True,
        True,
        False,
        False,
    ]
    assert (has_time(DAY), has_time(MORNING)) == (False, True)
    # A date alone is "that day": a time that day follows it, nothing of that day precedes it.
    assert after(DAY, MORNING) and not after(MORNING, DAY) and not after(DAY, DAY)
    assert after(MORNING, EVENING_IN_SEOUL) and not after(EVENING_IN_SEOUL, MORNING)
    # Times compare as instants: 08:00 in Seoul on the 5th is 23:00 UTC on the 4th.
    assert after("2026-12-05T08:00+09:00", "2026-12-04T23:30Z")
    assert after("2026-12-04", "2026-12-05") and not after("2026-12-05T08:00+09:00", "2026-12-04")
    assert sorted([EVENING_IN_SEOUL, "2026-12-05", MORNING, DAY], key=sort_key) == [
        DAY,
        MORNING,
        EVENING_IN_SEOUL,
        "2026-12-05",
    ]
    assert [timestamp(m) for m in (DAY, MORNING, "2026-12-04T09:15:30-05:00")] == [
        "2026-12-04T00:00:00Z",
        "2026-12-04T09:15:00Z",
        "2026-12-04T09:15:30-05:00",
    ]
    assert [shown(m) for m in (DAY, MORNING, EVENING_IN_SEOUL)] == [
        DAY,
        "2026-12-04 09:15 UTC",
        "2026-12-04 23:40 UTC+09:00",
    ]
    assert shown("2026-12-04T09:15:30-05:00") == "2026-12-04 09:15:30 UTC-05:00"
