"""The feed holds the newest ``feed_limit`` revisions; ``revisions.json`` holds every one.

Issue 15 item 6 (Pelican's ``FEED_MAX_ITEMS``; a feed of every full article was 180 MB at
10,000 revisions). Newest first by published date, one day's revisions in site order
(batch module name, then list order); the entries are selected before they are joined,
and an incremental build gives the feed a clean build gives.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.support.sites import HEADER, SETTINGS, MakeSite, RunCli, searchable, tree

ATOM = "{http://www.w3.org/2005/Atom}"


def revision(slug: str, published: str) -> str:
    return f"""revision(
    slug={slug!r}, title="Title {slug}", categories=["Feed"], excerpt="Excerpt.", published={published!r},
    body=[paragraph("Enough words to pass the tiny limit of this test site.")],
    sources=[Source(title="A", url="https://a.example/", note="a"),
             Source(title="B", url="https://b.example/", note="b")],
)"""


def batch(*revisions: tuple[str, str]) -> str:
    return HEADER + "\nrevisions = [\n" + ",\n".join(revision(s, p) for s, p in revisions) + "\n]\n"


# Site order: a.py's list, then b.py's. Newest first, ties in site order:
# rev-2, rev-4 (01-05), rev-6, rev-7 (01-04), rev-3 (01-03), rev-5 (01-02), rev-1 (01-01).
FIRST = [("rev-1", "2024-01-01"), ("rev-2", "2024-01-05"), ("rev-3", "2024-01-03"), ("rev-4", "2024-01-05")]
SECOND = [("rev-5", "2024-01-02"), ("rev-6", "2024-01-04"), ("rev-7", "2024-01-04")]


def feed_slugs(out: Path) -> list[str]:
    feed = ET.parse(out / "feed.xml").getroot()
    return [(e.findtext(f"{ATOM}id") or "").split("/")[-2] for e in feed.findall(f"{ATOM}entry")]


def build(run_cli: RunCli, root: Path, *args: str) -> Path:
    result = run_cli(["build", "--root", str(root), *args])
    assert result.code == 0, result.err
    return Path(args[-1]) if "--out" in args else root / "build"


@pytest.fixture
def site(make_site: MakeSite) -> Path:
    return make_site(
        {"articles/a.py": batch(*FIRST), "articles/b.py": batch(*SECOND)}, SETTINGS + "feed_limit = 3\n"
    )


def test_the_feed_holds_the_newest_feed_limit_revisions_and_revisions_json_all(
    site: Path, run_cli: RunCli
) -> None:
    out = build(run_cli, site)
    feed = ET.parse(out / "feed.xml").getroot()

    assert feed_slugs(out) == [
        "rev-2",
        "rev-4",
        "rev-6",
    ]  # rev-7 shares rev-6's day: site order leaves it out
    assert feed.findtext(f"{ATOM}updated") == "2024-01-05T00:00:00Z"
    slugs = [r["slug"] for r in json.loads((out / "revisions.json").read_text("utf-8"))]
    assert slugs == ["rev-1", "rev-2", "rev-3", "rev-4", "rev-5", "rev-6", "rev-7"]
    assert len(list((out / "articles").iterdir())) == 7  # every article still has its page


def test_the_default_limit_is_fifty(make_site: MakeSite, run_cli: RunCli) -> None:
    many = [(f"post-{n:02}", f"2024-02-{1 + n % 28:02}") for n in range(52)]
    out = build(run_cli, make_site({"articles/a.py": batch(*many)}))

    slugs = feed_slugs(out)
    assert len(slugs) == 50
    newest_first = sorted(many, key=lambda r: r[1], reverse=True)  # stable: ties in site order
    assert slugs == [slug for slug, _ in newest_first[:50]]
    assert len(json.loads((out / "revisions.json").read_text("utf-8"))) == 52


def test_a_new_newest_revision_pushes_the_oldest_out_as_a_clean_build_would(
    site: Path, run_cli: RunCli, tmp_path: Path
) -> None:
    build(run_cli, site)
    (site / "articles/b.py").write_text(batch(*SECOND, ("rev-8", "2024-01-09")), "utf-8")

    out = build(run_cli, site)

    assert feed_slugs(out) == ["rev-8", "rev-2", "rev-4"]
    assert searchable(tree(out)) == searchable(
        tree(build(run_cli, site, "--no-cache", "--out", str(tmp_path / "clean")))
    )


def test_a_changed_limit_rebuilds_the_feed_as_a_clean_build_would(
    site: Path, run_cli: RunCli, tmp_path: Path
) -> None:
    build(run_cli, site)
    settings = site / "pyproject.toml"
    settings.write_text(settings.read_text("utf-8").replace("feed_limit = 3", "feed_limit = 5"), "utf-8")

    out = build(run_cli, site)

    assert feed_slugs(out) == ["rev-2", "rev-4", "rev-6", "rev-7", "rev-3"]
    assert searchable(tree(out)) == searchable(
        tree(build(run_cli, site, "--no-cache", "--out", str(tmp_path / "clean")))
    )


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("feed_limit = 0", "feed_limit must be at least 1, not 0"),
        ("feed_limit = -5", "feed_limit must be at least 1, not -5"),
        ("feed_limit = 2.5", "feed_limit must be int, not float"),
        ("feed_limit = true", "feed_limit must be int, not bool"),
        ('author = ["A", "B"]', "author must be str, not list"),
    ],
)
def test_a_wrong_feed_limit_or_author_is_a_settings_problem_at_its_line(
    make_site: MakeSite, run_cli: RunCli, line: str, message: str
) -> None:
    root = make_site({"articles/a.py": batch(*FIRST)}, SETTINGS + line + "\n")
    number = SETTINGS.count("\n") + 1

    result = run_cli(["validate", "--root", str(root)])

    assert result.code == 1
    assert result.err.splitlines()[0] == f"pyproject.toml:{number}: settings: {message}"
