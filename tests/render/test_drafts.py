"""Drafts and scheduled revisions (issue 15, item 3; DESIGN.md "Drafts and schedule").

``draft=True``, or a ``published`` date after the build's date (the UTC date of
``SOURCE_DATE_EPOCH`` when set), is validated and its fixtures run, but left out of the
pages, lists, feed, sitemap, search index, ``revisions.json`` and ``revisions`` unless
``--drafts`` / ``--future`` include it, marked. A link from what is published to what is
left out is a problem at the author's line. The two builds the tests read are made at the
domain's root and below ``/sub/dir/`` (``tests/support/sites.BASE_PATHS``).
"""

from __future__ import annotations

import contextlib
import gzip
import io
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from jsonschema import Draft202012Validator

from site_builder import cli
from site_builder.model.schedule import Schedule, Timing, build_date
from site_builder.render.revisions_json import schema
from tests.support.drafts_site import (
    BUILD_DATE,
    DRAFT,
    DRAFT_WORD,
    DUE,
    FILES,
    LATER,
    LATER_WORD,
    MAIN,
    PUBLISHED,
    SOURCES,
    epoch,
)
from tests.support.site_urls import dead_urls
from tests.support.sites import HEADER, SETTINGS, MakeSite, RunCli, base_url_at, settings_at, tree, write_site

ATOM = "{http://www.w3.org/2005/Atom}"
SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
LEFT_OUT = f"left out 1 draft and 1 scheduled revision (due {DUE}); --drafts / --future include them\n"
DRAFT_MARK = '<p class="status" data-pagefind-ignore><strong class="status-mark">Draft</strong></p>'
LATER_MARK = (
    f'<p class="status" data-pagefind-ignore><strong class="status-mark">Scheduled for {DUE}</strong></p>'
)


@pytest.fixture(autouse=True)
def build_day(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch(BUILD_DATE))


@pytest.fixture
def site(make_site: MakeSite) -> Path:
    return make_site(FILES)


def build(run_cli: RunCli, root: Path, *flags: str) -> str:
    result = run_cli(["build", "--root", str(root), *flags])
    assert result.code == 0, result.err
    return result.err


def soup(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text("utf-8"), "html.parser")


def card_links(page: Path) -> list[str]:
    return [str(a["href"]) for a in soup(page).select("li.card h2 a")]


def feed_links(out: Path) -> list[str]:
    feed = ET.parse(out / "feed.xml").getroot()
    return [str(e.find(f"{ATOM}link").get("href")) for e in feed.iter(f"{ATOM}entry")]  # type: ignore[union-attr]


def sitemap_urls(out: Path) -> list[str]:
    return [str(loc.text) for loc in ET.parse(out / "sitemap.xml").getroot().iter(f"{SITEMAP}loc")]


def search_index(out: Path) -> dict[str, str]:
    """Every page Pagefind indexed: its URL → the text it indexed, read from the bundle's fragments."""
    pages = {}
    for fragment in sorted((out / "pagefind").rglob("*.pf_fragment")):
        data = gzip.decompress(fragment.read_bytes())
        entry = json.loads(data[data.index(b"{") :])
        pages[entry["url"]] = entry["content"]
    return pages


def _line(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if needle in line)


def slugs(revisions_json: str) -> list[str]:
    return [item["slug"] for item in json.loads(revisions_json)]


# --- the default build ---------------------------------------------------------------------


def built_at(folder: Path, base_path: str, *flags: str) -> tuple[Path, str]:
    """The site of ``drafts_site`` served below ``base_path``, built with ``flags`` on the tests'
    date: its output and what the build printed."""
    root = write_site(folder, FILES, settings_at(base_path))
    messages = io.StringIO()
    with pytest.MonkeyPatch.context() as patch, contextlib.redirect_stderr(messages):
        patch.setenv("SOURCE_DATE_EPOCH", epoch(BUILD_DATE))
        code = cli.main(["build", "--root", str(root), *flags])
    assert code == 0, messages.getvalue()
    return root / "build", messages.getvalue()


@pytest.fixture(scope="module")
def default_build(base_path: str, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The default build at each base path, once; tests only read it."""
    return built_at(tmp_path_factory.mktemp("default"), base_path)


@pytest.fixture(scope="module")
def drafts_build(base_path: str, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The build with ``--drafts --future`` at each base path, once; tests only read it."""
    return built_at(tmp_path_factory.mktemp("drafts"), base_path, "--drafts", "--future")


def test_the_default_build_leaves_out_the_draft_and_the_scheduled_revision(
    default_build: tuple[Path, str], base_path: str
) -> None:
    out, err = default_build
    url = base_url_at(base_path)

    assert err.splitlines()[0].startswith("built 1 revision, 5 pages in ")
    assert err.endswith(LEFT_OUT)
    assert sorted(p.name for p in (out / "articles").iterdir()) == [PUBLISHED]
    assert card_links(out / "index.html") == [f"{base_path}articles/{PUBLISHED}/"]
    assert card_links(out / "categories/notes/index.html") == [f"{base_path}articles/{PUBLISHED}/"]
    assert sorted(p.name for p in (out / "categories").iterdir()) == ["index.html", "notes"]
    assert [a.get_text() for a in soup(out / "categories/index.html").select("main a")] == ["Notes"]
    assert feed_links(out) == [f"{url}articles/{PUBLISHED}/"]
    assert sitemap_urls(out) == [
        url,
        f"{url}articles/{PUBLISHED}/",
        f"{url}categories/",
        f"{url}categories/notes/",
    ]
    assert slugs((out / "revisions.json").read_text("utf-8")) == [PUBLISHED]
    indexed = search_index(out)  # site-relative: the search box puts results below the base path
    assert list(indexed) == [f"/articles/{PUBLISHED}/"]
    assert not any(word in text for text in indexed.values() for word in (DRAFT_WORD, LATER_WORD))
    whole = b"".join(tree(out).values()).decode("utf-8", "replace")
    assert DRAFT not in whole and LATER not in whole and DRAFT_WORD not in whole
    assert dead_urls(out, url) == []


def test_revisions_leaves_them_out_too_and_says_so(site: Path, run_cli: RunCli) -> None:
    result = run_cli(["revisions", "--root", str(site)])

    assert result.code == 0, result.err
    assert slugs(result.out) == [PUBLISHED]
    assert json.loads(result.out)[0]["draft"] is False
    assert result.err == LEFT_OUT


@pytest.mark.parametrize(
    ("slug", "why"),
    [(DRAFT, "a draft); --drafts includes it"), (LATER, f"scheduled for {DUE}); --future includes it")],
)
def test_revisions_slug_of_a_left_out_revision_says_what_includes_it(
    site: Path, run_cli: RunCli, slug: str, why: str
) -> None:
    result = run_cli(["revisions", "--root", str(site), "--slug", slug])

    assert result.code == 2  # a usage error, as any slug the site does not publish
    assert result.out == ""
    assert result.err == f"site-builder: no revision with slug {slug}; left out: {slug} ({why}\n"


def test_validate_judges_every_revision_and_runs_every_fixture(site: Path, run_cli: RunCli) -> None:
    result = run_cli(["validate", "--root", str(site)])

    assert result.code == 0, result.err
    assert result.err == (
        "ok: 3 revisions valid, 1 fixture passed\n"
        f"a build leaves out 1 draft and 1 scheduled revision (due {DUE}); --drafts / --future include them\n"
    )


def test_a_draft_is_validated_like_any_revision(make_site: MakeSite, run_cli: RunCli) -> None:
    root = make_site({"articles/main.py": MAIN.replace('expected={"value": 42}', 'expected={"value": 41}')})

    result = run_cli(["validate", "--root", str(root), "--format", "json"])

    assert result.code == 1
    assert json.loads(result.out) == [
        {
            "path": "articles/main.py",
            "line": _line(MAIN, "verified_output(answer"),
            "slug": DRAFT,
            "rule": "verified-drift",
            "message": "verified_output of main:answer does not match what it returns: $.value: the article"
            " prints 41, the fixture returns 42",
            "severity": "error",
        }
    ]


def test_draft_must_be_a_bool(make_site: MakeSite, run_cli: RunCli) -> None:
    batch = HEADER + 'revisions = [revision(draft="yes", slug="not-sure", title="T", categories=["N"],\n'
    batch += '    excerpt="E.", published="2020-01-01", body=[paragraph("Enough words for the limit.")],\n'
    root = make_site({"articles/main.py": batch + SOURCES + ")]\n"})

    result = run_cli(["validate", "--root", str(root), "--format", "json"])

    assert result.code == 1
    assert json.loads(result.out) == [
        {
            "path": "articles/main.py",
            "line": 4,
            "slug": "not-sure",
            "rule": "field-type",
            "message": "draft must be True or False, not 'yes'",
            "severity": "error",
        }
    ]


# --- --drafts and --future -------------------------------------------------------------------


def test_drafts_and_future_include_them_marked(drafts_build: tuple[Path, str], base_path: str) -> None:
    out, err = drafts_build
    url = base_url_at(base_path)

    assert err.splitlines() == [err.splitlines()[0]]  # nothing left out, nothing said about it
    assert err.startswith("built 3 revisions, 9 pages in ")
    for slug, mark in ((DRAFT, DRAFT_MARK), (LATER, LATER_MARK)):
        page = (out / f"articles/{slug}/index.html").read_text("utf-8")
        assert page.count(mark) == 1, slug
    published = (out / f"articles/{PUBLISHED}/index.html").read_text("utf-8")
    assert 'class="status' not in published
    index = (out / "index.html").read_text("utf-8")
    assert index.count(DRAFT_MARK) == 1 and index.count(LATER_MARK) == 1
    assert card_links(out / "index.html") == [f"{base_path}articles/{x}/" for x in (LATER, PUBLISHED, DRAFT)]
    assert card_links(out / "categories/drafts-only/index.html") == [f"{base_path}articles/{DRAFT}/"]
    assert sorted(feed_links(out)) == sorted(f"{url}articles/{x}/" for x in (DRAFT, LATER, PUBLISHED))
    assert f"{url}articles/{DRAFT}/" in sitemap_urls(out)
    assert f"{url}categories/later/" in sitemap_urls(out)
    assert dead_urls(out, url) == []
    data = json.loads((out / "revisions.json").read_text("utf-8"))
    assert [(item["slug"], item["draft"]) for item in data] == [
        (LATER, False),
        (PUBLISHED, False),
        (DRAFT, True),
    ]
    # added after every key before it; the history keys (issue 16) follow it
    assert list(data[2])[-6:] == ["draft", "revision", "revises", "changes", "revised", "revisedAt"]
    Draft202012Validator(schema()).validate(data)
    indexed = search_index(out)
    assert sorted(indexed) == sorted(f"/articles/{x}/" for x in (DRAFT, LATER, PUBLISHED))
    assert DRAFT_WORD in indexed[f"/articles/{DRAFT}/"] and LATER_WORD in indexed[f"/articles/{LATER}/"]
    assert "Draft" not in indexed[f"/articles/{DRAFT}/"].split(".", 1)[1]  # the mark is chrome


def test_each_flag_includes_its_own_kind(site: Path, run_cli: RunCli) -> None:
    err = build(run_cli, site, "--drafts")
    assert err.endswith(f"left out 1 scheduled revision (due {DUE}); --future includes it\n")
    assert sorted(p.name for p in (site / "build/articles").iterdir()) == [DRAFT, PUBLISHED]

    err = build(run_cli, site, "--future")
    assert err.endswith("left out 1 draft; --drafts includes it\n")
    assert sorted(p.name for p in (site / "build/articles").iterdir()) == [LATER, PUBLISHED]

    result = run_cli(["revisions", "--root", str(site), "--drafts", "--future", "--indent", "0"])
    assert result.code == 0 and result.err == ""
    assert slugs(result.out) == [LATER, PUBLISHED, DRAFT]


@pytest.mark.parametrize(
    ("lang", "draft", "scheduled"),
    [
        ("en", "Draft", f"Scheduled for {DUE}"),
        ("ru", "Черновик", f"Запланировано на {DUE}"),
        ("ko", "초안", f"{DUE} 게시 예정"),
    ],
)
def test_the_marks_are_in_the_page_language(
    make_site: MakeSite, run_cli: RunCli, lang: str, draft: str, scheduled: str
) -> None:
    batch = (
        HEADER
        + f"""
revisions = [revision(
    slug="both-at-once", title="T", categories=["N"], excerpt="E.", lang="{lang}",
    published="{DUE}", draft=True, body=[paragraph("Enough words for the tiny limit.")],
{SOURCES})]
"""
    )
    root = make_site({"articles/main.py": batch})

    err = build(run_cli, root, "--drafts", "--future")

    assert "left out" not in err
    page = (root / "build/articles/both-at-once/index.html").read_text("utf-8")
    mark = f'<strong class="status-mark">{draft}</strong> <strong class="status-mark">{scheduled}</strong>'
    assert f'<p class="status" data-pagefind-ignore>{mark}</p>' in page


def test_a_draft_scheduled_for_later_needs_both_flags(make_site: MakeSite, run_cli: RunCli) -> None:
    root = make_site({"articles/main.py": MAIN.replace('published="2020-06-10"', f'published="{DUE}"')})

    assert build(run_cli, root, "--drafts").endswith(
        "left out 1 scheduled revision (due 2099-01-01); --future includes it\n"
    )
    assert build(run_cli, root, "--future").endswith("left out 1 draft; --drafts includes it\n")
    assert "left out" not in build(run_cli, root, "--drafts", "--future")


# --- the build's date --------------------------------------------------------------------------


def test_the_build_date_is_the_utc_date_of_source_date_epoch() -> None:
    assert build_date({"SOURCE_DATE_EPOCH": epoch(DUE, -1)}) == "2098-12-31"
    assert build_date({"SOURCE_DATE_EPOCH": epoch(DUE)}) == DUE
    assert build_date({"SOURCE_DATE_EPOCH": " 0 "}) == "1970-01-01"
    import datetime

    assert build_date({}) == datetime.datetime.now(datetime.UTC).date().isoformat()
    assert build_date({"SOURCE_DATE_EPOCH": ""}) == build_date({})


def test_a_revision_is_published_on_its_date(
    site: Path, run_cli: RunCli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch(DUE, -1))
    assert build(run_cli, site).endswith(LEFT_OUT)

    monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch(DUE))
    assert build(run_cli, site).endswith("left out 1 draft; --drafts includes it\n")
    assert not (site / f"build/articles/{LATER}/index.html").read_text("utf-8").count('class="status')


@pytest.mark.parametrize("command", ["build", "validate", "revisions", "serve"])
@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("yesterday", "SOURCE_DATE_EPOCH must be a whole number of seconds, not 'yesterday'"),
        ("-86400", "SOURCE_DATE_EPOCH must be a whole number of seconds, not '-86400'"),
        ("1.5", "SOURCE_DATE_EPOCH must be a whole number of seconds, not '1.5'"),
    ],
)
def test_a_bad_source_date_epoch_is_a_usage_error(
    site: Path, run_cli: RunCli, monkeypatch: pytest.MonkeyPatch, command: str, value: str, message: str
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", value)

    result = run_cli([command, "--root", str(site)])

    assert (result.code, result.out, result.err) == (2, "", f"site-builder: {message}\n")
    assert not (site / "build").exists()


def test_a_source_date_epoch_out_of_range_is_a_usage_error(
    site: Path, run_cli: RunCli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "9" * 20)

    result = run_cli(["build", "--root", str(site)])

    assert result.code == 2
    assert result.err.startswith(f"site-builder: SOURCE_DATE_EPOCH {'9' * 20} is out of range: ")


def test_a_site_publishing_nothing_yet_builds_dated_by_the_build(
    make_site: MakeSite, run_cli: RunCli
) -> None:
    root = make_site(
        {"articles/main.py": MAIN.replace("revisions = [published, draft]", "revisions = [draft]")}
    )

    err = build(run_cli, root)

    assert err.endswith("left out 1 draft; --drafts includes it\n")
    feed = ET.parse(root / "build/feed.xml").getroot()
    assert feed.findtext(f"{ATOM}updated") == f"{BUILD_DATE}T00:00:00Z"
    assert list(feed.iter(f"{ATOM}entry")) == []
    assert card_links(root / "build/index.html") == []
    assert (root / "build/revisions.json").read_text("utf-8") == "[]\n"


# --- serve ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("flags", "said", "statuses"),
    [
        ([], f"built 5 pages; {LEFT_OUT}", {DRAFT: 404, LATER: 404, PUBLISHED: 200}),
        (["--drafts", "--future"], "built 9 pages\n", {DRAFT: 200, LATER: 200, PUBLISHED: 200}),
    ],
    ids=["default", "drafts-future"],
)
def test_serve_leaves_them_out_unless_asked(
    site: Path, flags: list[str], said: str, statuses: dict[str, int]
) -> None:
    from tests.serve.test_serve import SERVING, get, serving, serving_address

    with serving(site, "--port", "0", *flags) as server:
        base = serving_address(server, SERVING).group(1)
        assert server.seen[0] == said
        answers = {slug: get(f"{base}articles/{slug}/") for slug in statuses}
    assert {slug: status for slug, (status, _) in answers.items()} == statuses
    if flags:  # the pages served carry their marks
        assert DRAFT_MARK in answers[DRAFT][1] and LATER_MARK in answers[LATER][1]


# --- the same input, the same bytes ------------------------------------------------------------


@pytest.mark.parametrize("flags", [[], ["--drafts", "--future"]], ids=["default", "drafts-future"])
@pytest.mark.parametrize(
    ("first", "second"), [([], []), (["--jobs", "1"], ["--jobs", "2"])], ids=["twice", "jobs-1-2"]
)
def test_the_same_source_date_epoch_gives_the_same_bytes(
    site: Path, run_cli: RunCli, tmp_path: Path, flags: list[str], first: list[str], second: list[str]
) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    build(run_cli, site, "--no-cache", "--out", str(one), *flags, *first)
    build(run_cli, site, "--no-cache", "--out", str(two), *flags, *second)

    a, b = tree(one), tree(two)
    assert sorted(a) == sorted(b)
    assert [path for path in a if a[path] != b[path]] == []


# --- links to what is left out ---------------------------------------------------------------------

LINKING = MAIN.replace(
    'body=[paragraph("Enough words for the published note, visible to all.")],',
    'body=[paragraph("Enough words for the published note, visible to all."),\n'
    f'          paragraph("See [the draft](/articles/{DRAFT}/), [later](/articles/{LATER}/#main)"\n'
    '                    " and [its category](/categories/drafts-only/).")],',
)


def test_a_link_to_a_left_out_revision_is_a_problem_at_its_line(make_site: MakeSite, run_cli: RunCli) -> None:
    root = make_site({"articles/main.py": LINKING, "articles/later.py": FILES["articles/later.py"]})
    line = _line(LINKING, 'paragraph("See [the draft]')
    at = f"articles/main.py:{line}: {PUBLISHED}:"

    result = run_cli(["build", "--root", str(root)])

    assert result.code == 1
    gone = "which this build leaves out"
    assert result.err.splitlines()[:3] == [
        f"{at} '/articles/{DRAFT}/' links to '{DRAFT}', {gone} (a draft); --drafts includes it",
        f"{at} '/articles/{LATER}/#main' links to '{LATER}', {gone} (scheduled for {DUE});"
        " --future includes it",
        f"{at} '/categories/drafts-only/' links to the page of category 'Drafts only', {gone}"
        " (it lists only left-out revisions); --drafts includes it",
    ]
    assert not (root / "build").exists()
    validated = run_cli(["validate", "--root", str(root), "--format", "json"])
    assert validated.code == 1
    assert [(p["line"], p["rule"]) for p in json.loads(validated.out)] == [(line, "left-out")] * 3


def test_the_flags_that_include_the_target_make_the_link_good(make_site: MakeSite, run_cli: RunCli) -> None:
    root = make_site(
        {"articles/main.py": LINKING.replace("#main", ""), "articles/later.py": FILES["articles/later.py"]}
    )

    assert run_cli(["validate", "--root", str(root), "--drafts", "--future"]).code == 0
    err = build(run_cli, root, "--drafts", "--future")
    assert err.startswith("built 3 revisions")
    result = run_cli(["build", "--root", str(root), "--drafts"])
    assert result.code == 1
    assert f"'/articles/{LATER}/' links to '{LATER}'" in result.err
    assert f"'/articles/{DRAFT}/'" not in result.err


def test_a_left_out_revision_may_link_to_another(make_site: MakeSite, run_cli: RunCli) -> None:
    batch = MAIN.replace(
        f'paragraph("The {DRAFT_WORD} words of the draft, for its author only."),',
        f'paragraph("The {DRAFT_WORD} words of the draft, see [later](/articles/{LATER}/)."),',
    )
    root = make_site({"articles/main.py": batch, "articles/later.py": FILES["articles/later.py"]})

    assert build(run_cli, root).endswith(LEFT_OUT)


NAV = """
[[tool.site_builder.nav]]
section = "Start"
pages = [
    ["published-note", "Published"],
    ["later-note", "Later"],
]
"""


def test_a_navigation_entry_for_a_left_out_revision_is_a_problem_at_its_line(
    site: Path, run_cli: RunCli
) -> None:
    (site / "pyproject.toml").write_text(SETTINGS + NAV, "utf-8")
    line = _line(SETTINGS + NAV, '["later-note"')

    result = run_cli(["build", "--root", str(site)])

    assert result.code == 1
    assert result.err.splitlines()[0] == (
        f"pyproject.toml:{line}: settings: nav lists '{LATER}', which this build leaves out"
        f" (scheduled for {DUE}); --future includes it"
    )
    assert build(run_cli, site, "--future").startswith("built 2 revisions")


def test_new_refuses_the_slug_of_a_draft(site: Path, run_cli: RunCli) -> None:
    result = run_cli(["new", DRAFT, "--root", str(site)])

    assert result.code == 2
    assert (
        result.err
        == f"site-builder: slug '{DRAFT}' is already used in articles/main.py; choose another slug\n"
    )


# --- the schedule's own rules ------------------------------------------------------------------


def test_what_a_schedule_leaves_out() -> None:
    schedule = Schedule(BUILD_DATE)
    assert schedule.missing(Timing(False, BUILD_DATE, ())) == ()
    assert schedule.missing(Timing(False, "2024-01-02", ())) == ("--future",)
    assert schedule.missing(Timing(True, "2024-01-02", ())) == ("--drafts", "--future")
    assert schedule.missing(Timing(False, "not a date", ())) == ()  # a problem already, never "scheduled"
    assert Schedule(BUILD_DATE, drafts=True, future=True).view(Timing(True, "2024-01-02", ())) == (
        True,
        "2024-01-02",
    )
