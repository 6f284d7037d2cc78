"""Shared and indexed well: what an article page tells social sites and search engines.

Issue 15 item 6. Each article page carries OpenGraph and Twitter card tags and a JSON-LD
``Article``; an SVG cover is drawn as a 1200 × 630 PNG (social sites take no SVG), once per
distinct cover; the ``author`` setting names the author of the feed and the pages. The
tests parse the built pages as a crawler would and read the PNGs back; the site they read is
built at the domain's root and below ``/sub/dir/`` (``tests/support/sites.BASE_PATHS``).
"""

from __future__ import annotations

import json
import shutil
import struct
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from bs4 import BeautifulSoup, Tag

from site_builder.pipeline.cache.store import CACHE_DIR
from site_builder.pipeline.sitewide import covers
from site_builder.render.cover_png import draw_png, font_stamp, png_path
from site_builder.render.sharing import og_locale
from tests.support.site_urls import dead_urls
from tests.support.sites import (
    HEADER,
    SETTINGS,
    RunCli,
    base_url_at,
    build_quietly,
    searchable,
    settings_at,
    tree,
)

ATOM = "{http://www.w3.org/2005/Atom}"
HOSTILE = "</script><b>\"&'"
AUTHOR = 'Ada "A." <Lovelace> & Co'

WIDE_SVG = """\
<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630">
  <rect width="1200" height="630" fill="#f6f8fa"/>
  <text x="80" y="200" font-size="64" font-family="sans-serif">다시 넘길까, 언제? Повтор</text>
</svg>
"""
TALL_SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="90" height="160">'
    '<rect width="90" height="160" fill="#36c"/></svg>\n'
)


def batch(*revisions: str) -> str:
    return HEADER + "\nrevisions = [\n" + ",\n".join(revisions) + "\n]\n"


def revision(slug: str, published: str, **fields: str) -> str:
    extra = "".join(f"    {name}={value!r},\n" for name, value in fields.items())
    return f"""revision(
    slug={slug!r}, title=f"Title of {slug}", categories=["Sharing"], excerpt="Excerpt of {slug}.",
    published={published!r},
{extra}    body=[paragraph("Enough words to pass the tiny limit of this test site.")],
    sources=[Source(title="A", url="https://a.example/", note="a"),
             Source(title="B", url="https://b.example/", note="b")],
)"""


def hostile_revision() -> str:
    return f"""revision(
    slug="hostile", title={HOSTILE!r}, categories=["Sharing"], excerpt={"Excerpt " + HOSTILE!r},
    published="2024-03-04", lang="ru", cover="/assets/covers/wide.svg",
    body=[paragraph("Enough words to pass the tiny limit of this test site.")],
    sources=[Source(title="A", url="https://a.example/", note="a"),
             Source(title="B", url="https://b.example/", note="b")],
)"""


SITE_BATCH = batch(
    hostile_revision(),
    revision("tall-cover", "2024-03-03", lang="ko", cover="/assets/covers/tall.svg"),
    revision("shared-cover", "2024-03-02", lang="en", cover="/assets/covers/wide.svg"),
    # A region of a language the site has labels for (pt would need a [tool.site_builder.labels.pt]).
    revision("photo-cover", "2024-03-01", lang="en-GB", cover="/assets/covers/photo.png"),
    revision("no-cover", "2024-02-29", lang="en"),
)


def write_site(root: Path, settings: str = SETTINGS, articles: str = SITE_BATCH) -> Path:
    (root / "articles").mkdir(parents=True)
    (root / "assets/covers").mkdir(parents=True)
    (root / "pyproject.toml").write_text(settings, "utf-8")
    (root / "articles/sharing.py").write_text(articles, "utf-8")
    (root / "assets/covers/wide.svg").write_text(WIDE_SVG, "utf-8")
    (root / "assets/covers/tall.svg").write_text(TALL_SVG, "utf-8")
    (root / "assets/covers/photo.png").write_bytes(draw_png(TALL_SVG.encode()))
    return root


@pytest.fixture(scope="module")
def built(base_path: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sharing site with an ``author`` set, built once at each base path; tests only read it."""
    settings = settings_at(base_path) + f"author = {json.dumps(AUTHOR)}\n"
    return build_quietly(write_site(tmp_path_factory.mktemp("sharing") / "site", settings))


@pytest.fixture(scope="module")
def base(base_path: str) -> str:
    """The base URL :func:`built` is served from: every URL shared lies below it."""
    return base_url_at(base_path)


def head(out: Path, slug: str) -> Tag:
    page = BeautifulSoup((out / "articles" / slug / "index.html").read_text("utf-8"), "html.parser")
    found = page.find("head")
    assert isinstance(found, Tag)
    return found


def meta_tags(head: Tag) -> list[tuple[str, str, str]]:
    """(attribute, name, content) of each OpenGraph, article and Twitter ``<meta>``, in order."""
    found = []
    for tag in head.find_all("meta"):
        attribute = "property" if tag.has_attr("property") else "name"
        name = str(tag.get(attribute, ""))
        if name.startswith(("og:", "article:", "twitter:")):
            found.append((attribute, name, str(tag["content"])))
    return found


def json_ld(head: Tag) -> object:
    scripts = head.find_all("script", type="application/ld+json")
    assert len(scripts) == 1
    return json.loads(scripts[0].string or "")


def png_header(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


# --- the tags of an article page -------------------------------------------------------


def test_an_article_with_an_svg_cover_carries_every_tag_with_its_exact_value(built: Path, base: str) -> None:
    url = f"{base}articles/hostile/"
    image = f"{base}og/covers/wide.svg.png"

    assert meta_tags(head(built, "hostile")) == [
        ("property", "og:type", "article"),
        ("property", "og:title", HOSTILE),
        ("property", "og:description", f"Excerpt {HOSTILE}"),
        ("property", "og:url", url),
        ("property", "og:site_name", "Test site"),
        ("property", "og:locale", "ru_RU"),
        ("property", "article:published_time", "2024-03-04"),
        ("property", "article:modified_time", "2024-03-04"),
        ("property", "og:image", image),
        ("property", "og:image:type", "image/png"),
        ("property", "og:image:width", "1200"),
        ("property", "og:image:height", "630"),
        ("property", "og:image:alt", HOSTILE),
        ("name", "twitter:card", "summary_large_image"),
        ("name", "twitter:title", HOSTILE),
        ("name", "twitter:description", f"Excerpt {HOSTILE}"),
    ]


def test_the_json_ld_is_an_article_with_exact_fields(built: Path, base: str) -> None:
    url = f"{base}articles/hostile/"

    assert json_ld(head(built, "hostile")) == {
        "@context": "https://schema.org",
        "@type": "Article",
        "headline": HOSTILE,
        "description": f"Excerpt {HOSTILE}",
        "inLanguage": "ru",
        "datePublished": "2024-03-04",
        "dateModified": "2024-03-04",
        "author": {"@type": "Person", "name": AUTHOR},
        "url": url,
        "mainEntityOfPage": {"@type": "WebPage", "@id": url},
        "image": f"{base}og/covers/wide.svg.png",
    }


def test_a_hostile_title_stays_text_in_every_tag_and_never_ends_the_script(built: Path) -> None:
    page = (built / "articles/hostile/index.html").read_text("utf-8")
    start = page.index('<script type="application/ld+json">')
    script = page[start : page.index("</script>", start)]
    found = head(built, "hostile")

    assert not found.find_all("b")  # the title's <b> never became an element
    assert [t.name for t in found.find_all("script")] == ["script"]  # one script, closed where it should be
    assert "<" not in script.removeprefix('<script type="application/ld+json">')
    assert "\\u003c/script\\u003e\\u003cb\\u003e\\\"\\u0026'" in script
    assert found.title is not None and found.title.string == f"{HOSTILE} — Test site"
    escaped = "&lt;/script&gt;&lt;b&gt;&#34;&amp;&#39;"  # as every attribute of the theme is written
    for attribute, name in (
        ("property", "og:title"),
        ("property", "og:image:alt"),
        ("name", "twitter:title"),
    ):
        assert f'<meta {attribute}="{name}" content="{escaped}">' in page, name


def test_the_og_image_is_a_png_of_the_declared_size_in_the_output(built: Path, base: str) -> None:
    for slug in ("hostile", "tall-cover"):
        tags = {name: content for _, name, content in meta_tags(head(built, slug))}
        assert tags["og:image"].startswith(base)  # deployed below the base path
        png = built / tags["og:image"].removeprefix(base)
        assert png_header(png) == (int(tags["og:image:width"]), int(tags["og:image:height"])) == (1200, 630)
    assert dead_urls(built, base) == []  # every URL shared, the JSON-LD's too, leads to a built file


def test_articles_sharing_a_cover_share_one_png(built: Path) -> None:
    images = {
        slug: dict((n, c) for _, n, c in meta_tags(head(built, slug)))["og:image"]
        for slug in ("hostile", "shared-cover", "tall-cover")
    }

    assert images["hostile"] == images["shared-cover"] != images["tall-cover"]
    assert sorted(p.relative_to(built).as_posix() for p in (built / "og").rglob("*") if p.is_file()) == [
        "og/covers/tall.svg.png",
        "og/covers/wide.svg.png",
    ]


def test_a_png_cover_is_used_as_it_is_and_no_cover_means_a_summary_card(built: Path, base: str) -> None:
    photo = dict((n, c) for _, n, c in meta_tags(head(built, "photo-cover")))
    plain = dict((n, c) for _, n, c in meta_tags(head(built, "no-cover")))

    assert photo["og:image"] == f"{base}assets/covers/photo.png"
    assert (photo["og:image:alt"], photo["twitter:card"]) == ("Title of photo-cover", "summary_large_image")
    assert "og:image:width" not in photo and "og:image:type" not in photo  # not read from the file
    assert photo["og:locale"] == "en_GB"
    assert plain["twitter:card"] == "summary"
    assert not [name for name in plain if name.startswith("og:image")]
    assert "image" not in json_ld(head(built, "no-cover"))  # type: ignore[operator]


def test_the_author_setting_names_the_author_everywhere(built: Path) -> None:
    feed = ET.parse(built / "feed.xml").getroot()

    assert feed.findtext(f"{ATOM}author/{ATOM}name") == AUTHOR
    for page in ("index.html", "404.html", "articles/no-cover/index.html"):
        html = BeautifulSoup((built / page).read_text("utf-8"), "html.parser")
        assert [m["content"] for m in html.find_all("meta", attrs={"name": "author"})] == [AUTHOR], page


def test_without_an_author_the_site_title_is_the_author_as_an_organisation(
    tmp_path: Path, run_cli: RunCli
) -> None:
    out = build_quietly(write_site(tmp_path / "site", articles=batch(revision("no-cover", "2024-02-29"))))
    found = head(out, "no-cover")

    assert json_ld(found)["author"] == {"@type": "Organization", "name": "Test site"}  # type: ignore[index]
    assert [m["content"] for m in found.find_all("meta", attrs={"name": "author"})] == ["Test site"]
    feed = ET.parse(out / "feed.xml").getroot()
    assert feed.findtext(f"{ATOM}author/{ATOM}name") == "Test site"


@pytest.mark.parametrize(
    ("lang", "locale"),
    [
        ("ru", "ru_RU"),
        ("en", "en_US"),
        ("ko", "ko_KR"),
        ("pt-BR", "pt_BR"),
        ("en-gb", "en_GB"),
        ("zh-Hant-TW", "zh_TW"),
        ("sr-Latn", None),
        ("xx", None),
    ],
)
def test_og_locale_is_language_and_territory(lang: str, locale: str | None) -> None:
    assert og_locale(lang) == locale


@pytest.mark.parametrize(
    ("cover", "png"),
    [
        ("/assets/a/cover.svg", "og/a/cover.svg.png"),
        ("/assets/a/Cover.SVG?v=2#top", "og/a/Cover.SVG.png"),
        ("/assets/%D0%BA/b.svg", "og/к/b.svg.png"),
        ("/assets/a/../b.svg", "og/b.svg.png"),
        ("/assets/../b.svg", None),
        ("/assets/a/cover.png", None),
        ("https://cdn.example/cover.svg", None),
        ("/articles/x.svg", None),
        (None, None),
    ],
)
def test_which_covers_are_drawn_and_where_the_png_goes(cover: str | None, png: str | None) -> None:
    assert png_path(cover) == png


# --- the PNG: text, bytes, cost ---------------------------------------------------------


def text_svg(text: str) -> bytes:
    return WIDE_SVG.replace("다시 넘길까, 언제? Повтор", text).encode()


def has_cjk_font() -> bool:
    return any("CJK" in p.name for p in Path("/usr/share/fonts").rglob("*.tt[cf]")) or any(
        "CJK" in p.name for p in Path("/usr/share/fonts").rglob("*.otf")
    )


@pytest.mark.parametrize("text", ["Повтор", "Retry", "다시 넘길까"])
def test_text_in_a_cover_is_drawn_with_real_glyphs(text: str) -> None:
    """Characters no font has are drawn as identical boxes, or not at all: the same letters in
    another order then give the same picture. Real glyphs do not."""
    if not text.isascii() and "다" in text and not has_cjk_font():
        pytest.skip("no CJK font installed (.ci/run installs fonts-noto-cjk)")
    drawn = draw_png(text_svg(text))

    assert drawn != draw_png(text_svg(text[::-1]))
    assert drawn != draw_png(text_svg(""))


def test_this_sites_korean_and_russian_covers_draw_their_text() -> None:
    if not has_cjk_font():
        pytest.skip("no CJK font installed (.ci/run installs fonts-noto-cjk)")
    assets = Path(__file__).parents[2] / "assets"
    for cover, words in (
        ("retry_decision/cover.svg", "다시 넘길까, 언제?"),
        ("retry/client-intent-cover.svg", "Одно намерение — один ключ"),
    ):
        svg = (assets / cover).read_bytes()
        assert words.encode() in svg
        assert draw_png(svg) != draw_png(svg.replace(words.encode(), words[::-1].encode())), cover


def test_two_clean_builds_write_the_same_png_bytes(tmp_path: Path) -> None:
    first = build_quietly(write_site(tmp_path / "one"), "--no-cache")
    second = build_quietly(write_site(tmp_path / "two"), "--no-cache")

    for name in ("og/covers/wide.svg.png", "og/covers/tall.svg.png"):
        assert (first / name).read_bytes() == (second / name).read_bytes(), name
    assert draw_png(WIDE_SVG.encode()) == (first / "og/covers/wide.svg.png").read_bytes()


@pytest.fixture
def drawings(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """Every SVG the build draws, in order."""
    drawn: list[bytes] = []

    def counted(svg: bytes) -> bytes:
        drawn.append(svg)
        return draw_png(svg)

    monkeypatch.setattr(covers, "draw_png", counted)
    covers._drawn_here.cache_clear()  # what an earlier test drew in this process is not this one's
    return drawn


def test_each_distinct_cover_is_drawn_once_and_then_kept_by_the_cache(
    tmp_path: Path, drawings: list[bytes], run_cli: RunCli
) -> None:
    many = [revision(f"article-{n:03}", "2024-01-01", cover="/assets/covers/wide.svg") for n in range(30)]
    root = write_site(
        tmp_path / "site",
        articles=batch(*many, revision("tall", "2024-01-02", cover="/assets/covers/tall.svg")),
    )

    build_quietly(root)
    assert sorted(drawings) == sorted([WIDE_SVG.encode(), TALL_SVG.encode()])

    drawings.clear()
    (root / "articles/sharing.py").write_text(
        batch(*many[:20], revision("new", "2024-02-02", cover="/assets/covers/tall.svg")), "utf-8"
    )
    build_quietly(root)
    assert drawings == []  # the output and the cache hold both drawings

    shutil.rmtree(root / "build")
    build_quietly(root)
    assert drawings == []  # the cache alone holds them

    (root / "assets/covers/tall.svg").write_text(TALL_SVG.replace("#36c", "#c63"), "utf-8")
    build_quietly(root)
    assert drawings == [TALL_SVG.replace("#36c", "#c63").encode()]
    kept = sorted(p.name for p in (root / CACHE_DIR / "og").iterdir())
    assert kept == sorted(covers.drawing_key(svg, font_stamp()) for svg in (WIDE_SVG.encode(), drawings[0]))


def test_a_process_that_builds_again_does_not_draw_a_cover_again(
    tmp_path: Path, drawings: list[bytes], run_cli: RunCli
) -> None:
    root = write_site(tmp_path / "site")
    first = build_quietly(root, "--no-cache", "--out", str(tmp_path / "first"))
    assert sorted(drawings) == sorted([WIDE_SVG.encode(), TALL_SVG.encode()])

    drawings.clear()
    again = build_quietly(root, "--no-cache", "--out", str(tmp_path / "again"))
    assert drawings == []  # no cache folder: the process remembers what it drew
    assert tree(again) == tree(first)

    (root / "assets/covers/wide.svg").write_text(WIDE_SVG.replace("#f6f8fa", "#fafafa"), "utf-8")
    build_quietly(root, "--no-cache", "--out", str(tmp_path / "edited"))
    assert drawings == [WIDE_SVG.replace("#f6f8fa", "#fafafa").encode()]


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(
            lambda root: (root / "assets/covers/tall.svg").write_text(TALL_SVG.replace("160", "90"), "utf-8"),
            id="a cover edited",
        ),
        pytest.param(
            lambda root: (
                (root / "assets/covers/wide.svg").unlink()
                or (root / "articles/sharing.py").write_text(
                    batch(revision("no-cover", "2024-02-29")), "utf-8"
                )
            ),
            id="every svg cover gone",
        ),
        pytest.param(
            lambda root: [p.write_bytes(b"not a pickle") for p in (root / CACHE_DIR / "og").iterdir()],
            id="a damaged cover cache",
        ),
        pytest.param(
            lambda root: (root / "build/og/covers/wide.svg.png").write_bytes(b"edited"),
            id="a png edited in the output",
        ),
    ],
)
def test_after_a_cover_change_the_next_build_equals_a_clean_build(change, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    root = write_site(tmp_path / "site")
    build_quietly(root)
    change(root)

    out = build_quietly(root)

    assert searchable(tree(out)) == searchable(
        tree(build_quietly(root, "--no-cache", "--out", str(tmp_path / "clean")))
    )


def test_a_cover_that_cannot_be_drawn_is_a_problem_at_its_line(tmp_path: Path, run_cli: RunCli) -> None:
    root = write_site(tmp_path / "site")
    (root / "assets/covers/tall.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="60" height="630">\n<rect x="1" x="2"/>\n</svg>\n',
        "utf-8",
    )

    result = run_cli(["build", "--root", str(root)])

    assert result.code == 1
    assert result.err.splitlines()[0] == (
        "assets/covers/tall.svg:2: tall-cover: the cover cannot be drawn as a PNG for social sites: "
        "attribute 'x' at 2:13 is already defined"
    )
    assert not (root / "build").exists()


def test_many_new_covers_are_drawn_in_worker_processes_into_the_same_bytes(
    tmp_path: Path, drawings: list[bytes], run_cli: RunCli
) -> None:
    count = covers.POOL_FROM + 2
    articles = [
        revision(f"article-{n:02}", "2024-01-01", cover=f"/assets/covers/c{n:02}.svg") for n in range(count)
    ]
    root = write_site(tmp_path / "site", articles=batch(*articles))
    for n in range(count):
        (root / f"assets/covers/c{n:02}.svg").write_text(WIDE_SVG.replace("Повтор", f"№ {n}"), "utf-8")

    alone = build_quietly(root, "--no-cache", "--jobs", "1", "--out", str(tmp_path / "alone"))
    assert len(drawings) == count  # in the build's own process
    drawings.clear()
    pooled = build_quietly(root, "--no-cache", "--jobs", "2", "--out", str(tmp_path / "pooled"))

    assert drawings == []  # every one in a worker process
    assert tree(pooled / "og") == tree(alone / "og")
    assert len(tree(pooled / "og")) == count

    broken = '<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630">\n<g>\n'  # its size reads
    (root / "assets/covers/c03.svg").write_text(broken, "utf-8")
    result = run_cli(["build", "--root", str(root), "--jobs", "2"])
    assert result.code == 1
    assert result.err.splitlines()[0] == (
        "assets/covers/c03.svg:1: article-03: the cover cannot be drawn as a PNG for social sites: "
        "the root node was opened but never closed"
    )


def test_a_cover_of_another_shape_is_fitted_and_centred_on_white() -> None:
    import resvg_py

    narrow = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="60" height="630">'
        '<rect width="60" height="630" fill="#36c"/></svg>'
    )
    expected = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630">'
        '<rect x="570" width="60" height="630" fill="#36c"/></svg>'
    )

    assert draw_png(narrow.encode()) == resvg_py.svg_to_bytes(svg_string=expected, background="#ffffff")


@pytest.mark.parametrize(
    ("root", "drawn_as"),
    [
        (
            '<svg xmlns="http://www.w3.org/2000/svg" width="320" height="120">',
            '<svg width="1200" height="630" viewBox="0 0 320 120" preserveAspectRatio="xMidYMid meet"'
            ' xmlns="http://www.w3.org/2000/svg">',
        ),
        (
            "<svg\n  xmlns='http://www.w3.org/2000/svg'\n  viewBox='0 0 16 9' "
            'width="16px" preserveAspectRatio="none">',
            '<svg width="1200" height="630" viewBox="0 0 16 9" preserveAspectRatio="xMidYMid meet"'
            "\n  xmlns='http://www.w3.org/2000/svg'>",
        ),
        ('<svg xmlns="http://www.w3.org/2000/svg" width="100%" height="100%">', None),
        ('<svg xmlns="http://www.w3.org/2000/svg" width="10cm" height="5cm">', None),
        ('<svg:svg xmlns:svg="http://www.w3.org/2000/svg" width="1" height="1">', None),
    ],
)
def test_the_root_is_resized_in_place_when_its_size_can_be_read(root: str, drawn_as: str | None) -> None:
    from site_builder.render.cover_png import _letterboxed

    body = '<rect width="1" height="1"/></svg>\n'
    assert _letterboxed('<?xml version="1.0"?>\n' + root + body) == (
        None if drawn_as is None else '<?xml version="1.0"?>\n' + drawn_as + body
    )
    assert png_header_of(draw_png((root + body).replace("svg:svg", "svg").encode())) == (1200, 630)


def png_header_of(data: bytes) -> tuple[int, int]:
    width, height = struct.unpack(">II", data[16:24])
    return width, height
