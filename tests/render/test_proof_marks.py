"""Readers see the proof: a mark after each ``verified_output`` block, and a list of the article's
fixtures that counts what it lists (issue 15, item 4).

The mark is page chrome: ``contentHtml`` (``revisions`` and ``revisions.json``) keeps the helpers'
markup exactly. Without ``repo_url`` a mark links to its fixture's entry in the list; with it, to
the fixture's ``def`` line in the repository (``repo_url`` + ``source_uri`` + path + ``#L<line>``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from site_builder import cli
from site_builder.render.proofs import Proof, fixture_entries, source_url
from site_builder.settings.project import Settings
from tests.support.own_site import OwnSite
from tests.support.sites import RunCli

BATCH = """\
from site_builder import Source, fixture, heading, paragraph, revision, verified_output


@fixture
def alpha() -> dict:
    return {"value": 1, "checks": {"isOne": True}}


@fixture
def beta() -> dict:
    return {"value": 2, "checks": {"isTwo": True}}


def body() -> list:
    return [
        paragraph("First alpha:"),
        verified_output(alpha, expected={"value": 1}),
        heading("Fixture alpha"),
        verified_output(alpha, expected={"value": 1}),
        heading("Fixtures"),
        verified_output(beta, expected={"value": 2}),
    ]


SOURCES = [
    Source(title="First", url="https://example.org/first", note="one"),
    Source(title="Second", url="https://example.org/second", note="two"),
]
revisions = [
    revision(
        slug=f"proof-{lang}",
        title=f"Proof {lang}",
        categories=["Proofs"],
        excerpt="Two outputs of alpha, one of beta.",
        published=f"2024-01-0{day}",
        lang=lang,
        body=body(),
        sources=SOURCES,
    )
    for day, lang in enumerate(("en", "ru", "ko"), 1)
]
"""
ALPHA_LINE, BETA_LINE = 5, 10
"""The lines of the fixtures' ``def`` in :data:`BATCH`."""
LANGS = ("en", "ru", "ko")
REPO = "https://github.com/me/site"


def make_site(root: Path, settings: str = "") -> Path:
    """Write the site into ``root`` with extra ``settings`` lines; returns ``root``."""
    (root / "articles").mkdir(parents=True)
    (root / "articles/proofs.py").write_text(BATCH, "utf-8")
    (root / "pyproject.toml").write_text(
        '[tool.site_builder]\ntitle = "Proofs"\nbase_url = "https://example.org/"\n'
        f"min_body_chars = 20\n{settings}",
        "utf-8",
    )
    return root


def json_block(value: int) -> str:
    """A ``verified_output(fx, expected={"value": N})`` as the helper writes it."""
    return f'<pre><code class="language-json">{{\n  &quot;value&quot;: {value}\n}}</code></pre>'


SOURCES_HTML = {
    "en": "<h2>Sources</h2>",
    "ru": "<h2>Проверяемые источники</h2>",
    "ko": "<h2>출처</h2>",
}
LIST_HTML = (
    '<ul><li><a href="https://example.org/first" target="_blank" rel="noopener noreferrer">First</a>'
    '{space}— one</li><li><a href="https://example.org/second" target="_blank" rel="noopener noreferrer">'
    "Second</a>{space}— two</li></ul>"
)
"""The sources list; ``{space}``: the space before the dash (:func:`list_html`)."""


def list_html(lang: str) -> str:
    """The sources list of a revision in ``lang``: a non-breaking space before the dash in Russian."""
    return LIST_HTML.format(space="\u00a0" if lang == "ru" else " ")


MARK_WORDS = {
    "en": ("verified by fixture ", ""),
    "ru": ("проверено фикстурой ", ""),
    "ko": ("검증한 픽스처: ", ""),
}
NEW_TAB = ' target="_blank" rel="noopener noreferrer"'


def content_html(lang: str) -> str:
    """The contract's ``contentHtml`` of each revision: the helpers' markup, no mark."""
    body = [
        "<p>First alpha:</p>",
        json_block(1),
        "<h2>Fixture alpha</h2>",
        json_block(1),
        "<h2>Fixtures</h2>",
        json_block(2),
    ]
    return "\n".join(body) + "\n" + SOURCES_HTML[lang] + "\n" + list_html(lang)


def expected_mark(lang: str, name: str, href: str) -> str:
    before, after = MARK_WORDS[lang]
    new_tab = NEW_TAB if href.startswith("https:") else ""
    return (
        f'<p class="proof" data-pagefind-ignore><a href="{href}"{new_tab}>'
        f"{before}<code>{name}</code>{after}</a></p>"
    )


def links(repo: bool) -> dict[str, str]:
    """Where each fixture's marks link."""
    if repo:
        return {
            "alpha": f"{REPO}/blob/main/articles/proofs.py#L{ALPHA_LINE}",
            "beta": f"{REPO}/blob/main/articles/proofs.py#L{BETA_LINE}",
        }
    return {"alpha": "#fixture-alpha", "beta": "#fixture-beta"}


def article_body(page: str) -> str:
    found = re.search(r'<div class="article-body">\n(.*?)\n  </div>\n</article>', page, re.DOTALL)
    assert found, "no article body on the page"
    return found.group(1)


def box(page: str) -> str:
    found = re.search(r'<aside class="verified".*?</aside>', page, re.DOTALL)
    assert found, "no box of fixtures on the page"
    return re.sub(r"\n\s*", "", found.group(0))


@pytest.fixture(scope="module", params=[False, True], ids=["no-repo_url", "repo_url"])
def built(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[bool, Path]:
    """The site built once without ``repo_url`` and once with it."""
    repo = bool(request.param)
    root = make_site(tmp_path_factory.mktemp("proof"), f'repo_url = "{REPO}"\n' if repo else "")
    assert cli.main(["build", "--root", str(root), "--no-cache"]) == 0
    return repo, root


def page(root: Path, lang: str) -> str:
    return (root / f"build/articles/proof-{lang}/index.html").read_text("utf-8")


@pytest.mark.parametrize("lang", LANGS)
def test_a_mark_follows_each_verified_block_and_nothing_else(built: tuple[bool, Path], lang: str) -> None:
    repo, root = built
    body = article_body(page(root, lang))
    to = links(repo)

    marks = re.findall(r'<p class="proof".*?</p>', body)
    after_blocks = re.findall(r"</code></pre>\n(.*)", body)

    alpha, beta = expected_mark(lang, "alpha", to["alpha"]), expected_mark(lang, "beta", to["beta"])
    assert marks == [alpha, alpha, beta]
    assert after_blocks == [alpha, alpha, beta]


def test_the_exact_marks_in_english(built: tuple[bool, Path]) -> None:
    repo, root = built
    body = article_body(page(root, "en"))
    if repo:
        href = "https://github.com/me/site/blob/main/articles/proofs.py#L10"
        beta = (
            f'<p class="proof" data-pagefind-ignore><a href="{href}" target="_blank" '
            'rel="noopener noreferrer">verified by fixture <code>beta</code></a></p>'
        )
    else:
        beta = (
            '<p class="proof" data-pagefind-ignore><a href="#fixture-beta">verified by fixture '
            "<code>beta</code></a></p>"
        )
    assert body.count(beta) == 1
    assert body.endswith(f'</code></pre>\n{beta}\n<h2 id="sources">Sources</h2>\n{list_html("en")}')


def test_headings_never_take_the_ids_of_the_fixtures_list(built: tuple[bool, Path]) -> None:
    _, root = built
    text = page(root, "en")
    assert '<h2 id="fixture-alpha-2">Fixture alpha</h2>' in text
    assert '<h2 id="fixtures-2">Fixtures</h2>' in text
    ids = re.findall(r'\sid="([^"]*)"', text)
    assert len(ids) == len(set(ids)), ids
    assert {"fixtures", "fixture-alpha", "fixture-beta"} <= set(ids)


@pytest.mark.parametrize("lang", LANGS)
def test_content_html_keeps_the_helpers_markup(built: tuple[bool, Path], lang: str, run_cli: RunCli) -> None:
    _, root = built
    result = run_cli(["revisions", "--root", str(root)])
    assert result.code == 0, result.err
    printed = {r["slug"]: r for r in json.loads(result.out)}
    published = {r["slug"]: r for r in json.loads((root / "build/revisions.json").read_text("utf-8"))}

    assert printed[f"proof-{lang}"]["contentHtml"] == content_html(lang)
    assert published[f"proof-{lang}"]["contentHtml"] == content_html(lang)
    assert printed[f"proof-{lang}"]["fixtures"] == ["proofs:alpha", "proofs:beta"]


BOX_WORDS = {
    "en": ("Fixtures that verify results: {n}", "verified results: {n}"),
    "ru": ("Фикстуры, проверяющие результаты: {n}", "проверенных результатов: {n}"),
    "ko": ("결과를 검증하는 픽스처: {n}개", "검증한 결과: {n}개"),
}


@pytest.mark.parametrize("lang", LANGS)
def test_the_box_lists_each_fixture_once_and_counts_what_it_lists(
    built: tuple[bool, Path], lang: str
) -> None:
    repo, root = built
    heading, results = BOX_WORDS[lang]
    to = links(repo)

    def name(fixture: str) -> str:
        code = f"<code>{fixture}</code>"
        return f'<a href="{to[fixture]}"{NEW_TAB}>{code}</a>' if repo else code

    assert box(page(root, lang)) == (
        '<aside class="verified" id="fixtures" aria-labelledby="verified-heading" data-pagefind-ignore>'
        f'<h2 id="verified-heading">{heading.format(n=2)}</h2>'
        f'<ul><li id="fixture-alpha">{name("alpha")} — {results.format(n=2)}</li>'
        f'<li id="fixture-beta">{name("beta")} — {results.format(n=1)}</li></ul>'
        "</aside>"
    )


def test_on_this_repository_s_site_every_box_counts_its_entries_and_its_marks(
    own_site_at_root: OwnSite,
) -> None:
    pages = sorted((own_site_at_root.out / "articles").glob("*/index.html"))
    assert len(pages) == 5
    for path in pages:
        text = path.read_text("utf-8")
        aside = box(text)
        count = re.search(r'<h2 id="verified-heading">\D*(\d+)\D*</h2>', aside)
        assert count, f"{path}: the box has no count: {aside}"
        entries = re.findall(r'<li id="(fixture-[^"]+)">.*?(\d+)\D*</li>', aside)
        marks = re.findall(r'<p class="proof" data-pagefind-ignore><a href="#([^"]+)">', text)
        assert int(count.group(1)) == len(entries) > 0, f"{path}: {aside}"
        assert sum(int(n) for _, n in entries) == len(marks), f"{path}: {aside}"
        assert sorted(set(marks)) == sorted(anchor for anchor, _ in entries), path


# --- the parts, one by one


@pytest.mark.parametrize(
    ("repo_url", "source_uri", "expected"),
    [
        pytest.param("", "blob/main/", "", id="no repo_url"),
        pytest.param(REPO, "blob/main/", f"{REPO}/blob/main/articles/retry.py#L42", id="default"),
        pytest.param(REPO + "/", "blob/main", f"{REPO}/blob/main/articles/retry.py#L42", id="slashes"),
        pytest.param(
            REPO, "blob/main/docs/", f"{REPO}/blob/main/docs/articles/retry.py#L42", id="site in a subfolder"
        ),
        pytest.param(
            "https://gitlab.com/me/site",
            "-/blob/trunk/",
            "https://gitlab.com/me/site/-/blob/trunk/articles/retry.py#L42",
            id="gitlab",
        ),
        pytest.param(REPO, "", f"{REPO}/articles/retry.py#L42", id="empty source_uri"),
    ],
)
def test_source_url(repo_url: str, source_uri: str, expected: str) -> None:
    settings = Settings(title="t", base_url="https://example.org/", repo_url=repo_url, source_uri=source_uri)
    assert source_url(settings, "articles/retry.py", 42) == expected


def test_source_url_encodes_the_path() -> None:
    settings = Settings(repo_url=REPO)
    assert source_url(settings, "articles/заметки и код.py", 7) == (
        f"{REPO}/blob/main/articles/%D0%B7%D0%B0%D0%BC%D0%B5%D1%82%D0%BA%D0%B8%20%D0%B8%20%D0%BA%D0%BE%D0%B4.py#L7"
    )


def test_two_fixtures_of_one_name_are_told_apart() -> None:
    proofs = [
        Proof(10, "first:answer", "articles/first.py", 4),
        Proof(20, "second:answer", "articles/second.py", 9),
        Proof(30, "first:answer", "articles/first.py", 4),
        Proof(40, "first:other", "articles/first.py", 12),
    ]
    entries = fixture_entries(Settings(), proofs)
    assert [(e.fixture, e.name, e.anchor, e.results, e.href) for e in entries.values()] == [
        ("first:answer", "first:answer", "fixture-first-answer", 2, "#fixture-first-answer"),
        ("second:answer", "second:answer", "fixture-second-answer", 1, "#fixture-second-answer"),
        ("first:other", "other", "fixture-other", 1, "#fixture-other"),
    ]


OWNER = """\
from site_builder import Source, fixture, paragraph, revision, verified_output


@fixture
def shared() -> dict:
    return {"value": 3, "checks": {"isThree": True}}


SOURCES = [
    Source(title="First", url="https://example.org/first", note="one"),
    Source(title="Second", url="https://example.org/second", note="two"),
]
revisions = [
    revision(
        slug="owner",
        title="Owner",
        categories=["Proofs"],
        excerpt="Defines the fixture.",
        published="2024-02-01",
        body=[paragraph("Three, from here:"), verified_output(shared, expected={"value": 3})],
        sources=SOURCES,
    )
]
"""
BORROWER = """\
from owner import SOURCES, shared
from site_builder import paragraph, revision, verified_output

revisions = [
    revision(
        slug="borrower",
        title="Borrower",
        categories=["Proofs"],
        excerpt="Uses the fixture of another batch.",
        published="2024-02-02",
        body=[paragraph("Three, from there:"), verified_output(shared, expected={"value": 3})],
        sources=SOURCES,
    )
]
"""


def test_a_page_using_another_batch_s_fixture_follows_its_def(tmp_path: Path, run_cli: RunCli) -> None:
    """A batch's cache key covers its own module only: a page showing another batch's fixture
    is rendered again on every build, so its link never points at a line the def has left."""
    root = make_site(tmp_path / "site", f'repo_url = "{REPO}"\n')
    (root / "articles/owner.py").write_text(OWNER, "utf-8")
    (root / "articles/borrower.py").write_text(BORROWER, "utf-8")
    page = root / "build/articles/borrower/index.html"
    assert run_cli(["build", "--root", str(root)]).code == 0
    assert f"{REPO}/blob/main/articles/owner.py#L5" in page.read_text("utf-8")

    owner = root / "articles/owner.py"
    owner.write_text(OWNER.replace("@fixture\n", "# two lines\n# down\n@fixture\n"), "utf-8")
    result = run_cli(["build", "--root", str(root)])

    assert result.code == 0, result.err
    text = page.read_text("utf-8")
    assert f"{REPO}/blob/main/articles/owner.py#L7" in text and "owner.py#L5" not in text
    clean = tmp_path / "clean"
    assert run_cli(["build", "--root", str(root), "--out", str(clean), "--no-cache"]).code == 0
    assert text == (clean / "articles/borrower/index.html").read_text("utf-8")
