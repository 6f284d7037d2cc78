"""``width`` and ``height`` on every image the site shows (body figures, covers, cards), read
from the image files; ``contentHtml`` keeps the contract's ``figure`` markup exactly; an
image whose size cannot be read is a problem at the line that shows it; a cached build
renders a page again when an image it shows changes size. The built sites are served at the
domain's root and below ``/sub/dir/`` (``tests/support/sites.BASE_PATHS``)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from PIL import Image

from site_builder.model.images import image_size
from site_builder.render.images import with_sizes
from tests.support.sites import HEADER, SETTINGS, MakeSite, RunCli, settings_at

SVG = '<svg xmlns="http://www.w3.org/2000/svg" {}/>'


@pytest.mark.parametrize(
    ("attributes", "expected"),
    [
        ('width="40" height="20"', (40, 20)),
        ('width="40px" height="20.4px"', (40, 20)),
        ('width="1in" height="72pt"', (96, 96)),
        ('width="2.54cm" height="25.4mm"', (96, 96)),
        ('viewBox="0 0 1200 630"', (1200, 630)),
        ('viewBox="0,0,300.6,150"', (301, 150)),
        ('width="100%" height="100%" viewBox="0 0 40 30"', (40, 30)),
        ('width="80" viewBox="0 0 40 30"', (80, 60)),
        ('height="60" viewBox="0 0 40 30"', (80, 60)),
        ('width="0.2" height="0.2"', (1, 1)),
        ('width="10em" height="10em"', "has no size: give its <svg> width and height, or a viewBox"),
        ("", "has no size: give its <svg> width and height, or a viewBox"),
        ('viewBox="0 0 0 10"', "has no size: give its <svg> width and height, or a viewBox"),
    ],
)
def test_an_svg_size_comes_from_width_and_height_or_the_view_box(
    tmp_path: Path, attributes: str, expected: object
) -> None:
    path = tmp_path / "a.svg"
    path.write_text(SVG.format(attributes), "utf-8")
    assert image_size(path) == expected


def test_a_file_that_is_not_an_svg_says_so(tmp_path: Path) -> None:
    (tmp_path / "html.svg").write_text('<html width="1" height="1"/>', "utf-8")
    (tmp_path / "broken.svg").write_text("<svg", "utf-8")
    assert image_size(tmp_path / "html.svg") == "is not an SVG file: its first element is not <svg>"
    assert str(image_size(tmp_path / "broken.svg")).startswith("is not a well-formed SVG file: ")


@pytest.mark.parametrize("image_format", ["PNG", "JPEG", "GIF", "WEBP"])
def test_a_raster_size_comes_from_its_header(tmp_path: Path, image_format: str) -> None:
    path = tmp_path / f"a.{image_format.lower()}"
    Image.new("RGB", (37, 11)).save(path, image_format)
    assert image_size(path) == (37, 11)


def test_a_turned_jpeg_is_measured_as_browsers_show_it(tmp_path: Path) -> None:
    """EXIF orientation 6 (turned a quarter): browsers show it 11 wide and 37 high."""
    path = tmp_path / "turned.jpg"
    exif = Image.Exif()
    exif[0x0112] = 6
    Image.new("RGB", (37, 11)).save(path, "JPEG", exif=exif)
    assert image_size(path) == (11, 37)


def test_a_file_that_is_no_image_says_so(tmp_path: Path) -> None:
    path = tmp_path / "notes.png"
    path.write_text("not a picture", "utf-8")
    assert image_size(path) == "is not an image that can be measured (SVG, PNG, JPEG, GIF, WebP…)"


SIZES = (("/assets/a.svg", 40, 20), ("/assets/b c.png", 3, 4))


@pytest.mark.parametrize(
    ("html", "expected"),
    [
        pytest.param(
            '<figure><img src="/assets/a.svg" alt="A" loading="lazy" /><figcaption>C</figcaption></figure>',
            '<figure><img src="/assets/a.svg" alt="A" loading="lazy" width="40" height="20" />'
            "<figcaption>C</figcaption></figure>",
            id="figure",
        ),
        pytest.param(
            "<p><img src='/assets/b c.png' alt=\"x > y\"></p>",
            '<p><img src=\'/assets/b c.png\' alt="x > y" width="3" height="4"></p>',
            id="hand-written-markup",
        ),
        pytest.param(
            '<img src="/assets/a.svg" alt="A" width="9">',
            '<img src="/assets/a.svg" alt="A" width="9">',
            id="a-size-given-by-hand-stays",
        ),
        pytest.param(
            '<img alt="width=1" src="/assets/a.svg">',
            '<img alt="width=1" src="/assets/a.svg" width="40" height="20">',
            id="a-size-in-an-attribute-value-is-text",
        ),
        pytest.param(
            '<img src="https://example.org/a.svg" alt="A"><code>&lt;img src="/assets/a.svg"&gt;</code>',
            '<img src="https://example.org/a.svg" alt="A"><code>&lt;img src="/assets/a.svg"&gt;</code>',
            id="not-measured-or-not-a-tag",
        ),
    ],
)
def test_with_sizes_adds_width_and_height_to_each_measured_img(html: str, expected: str) -> None:
    assert with_sizes(html, SIZES) == expected


BATCH = (
    HEADER
    + """
revisions = [
    revision(slug="drawn", title="Drawn", categories=["C"], excerpt="E.", cover="/assets/cover.svg",
             published="2024-01-02",
             body=[paragraph("Enough words for the tiny limit of this site."),
                   figure("/assets/fig.svg", "A drawing", "The drawing."),
                   markdown("And ![a photo](/assets/photo.png) inline.")],
             sources=[Source(title="A", url="https://example.org/a", note="a"),
                      Source(title="B", url="https://example.org/b", note="b")]),
]
"""
)


def drawn_site(make_site: MakeSite, settings: str = SETTINGS) -> Path:
    root = make_site(
        {
            "articles/drawn.py": BATCH,
            "assets/cover.svg": SVG.format('viewBox="0 0 1200 630"'),
            "assets/fig.svg": SVG.format('width="40" height="20"'),
        },
        settings=settings,
    )
    Image.new("RGB", (30, 10)).save(root / "assets/photo.png")
    return root


def imgs(html: str) -> list[str]:
    return re.findall(r"<img [^>]*>", html)


def test_every_image_on_the_pages_has_its_size_and_content_html_keeps_the_contract(
    make_site: MakeSite, run_cli: RunCli, base_path: str
) -> None:
    root = drawn_site(make_site, settings_at(base_path))

    result = run_cli(["build", "--root", str(root)])

    assert result.code == 0, result.err
    assert imgs((root / "build/articles/drawn/index.html").read_text("utf-8")) == [
        f'<img class="cover" src="{base_path}assets/cover.svg" alt="Drawn" width="1200" height="630">',
        f'<img src="{base_path}assets/fig.svg" alt="A drawing" loading="lazy" width="40" height="20" />',
        f'<img src="{base_path}assets/photo.png" alt="a photo" width="30" height="10" />',
    ]
    for page in ("index.html", "categories/c/index.html"):
        assert imgs((root / "build" / page).read_text("utf-8")) == [
            f'<img class="card-cover" src="{base_path}assets/cover.svg" alt="Drawn" loading="lazy" '
            'width="1200" height="630">'
        ]
    (data,) = json.loads((root / "build/revisions.json").read_text("utf-8"))
    assert imgs(data["contentHtml"]) == [  # the author's URLs, whatever the base path
        '<img src="/assets/fig.svg" alt="A drawing" loading="lazy" />',
        '<img src="/assets/photo.png" alt="a photo" />',
    ]


@pytest.mark.parametrize(
    ("asset", "text", "problem"),
    [
        (
            "fig.svg",
            SVG.format(""),
            "articles/drawn.py:9: drawn: image '/assets/fig.svg' has no size: give its <svg> width and "
            "height, or a viewBox; pages give every image its width and height",
        ),
        (
            "photo.png",
            "not a picture",
            "articles/drawn.py:10: drawn: image '/assets/photo.png' is not an image that can be measured "
            "(SVG, PNG, JPEG, GIF, WebP…); pages give every image its width and height",
        ),
        (
            "cover.svg",
            "<svg",
            "articles/drawn.py:6: drawn: image '/assets/cover.svg' is not a well-formed SVG file: "
            "unclosed token: line 1, column 0; pages give every image its width and height",
        ),
    ],
)
def test_an_image_whose_size_cannot_be_read_is_a_problem_where_it_is_shown(
    make_site: MakeSite, run_cli: RunCli, asset: str, text: str, problem: str
) -> None:
    root = drawn_site(make_site)
    (root / "assets" / asset).write_text(text, "utf-8")

    result = run_cli(["validate", "--root", str(root)])

    assert result.code == 1
    assert result.err.splitlines() == [problem, "1 problem found"]
    assert run_cli(["build", "--root", str(root)]).code == 1


def test_a_cached_build_renders_pages_again_when_an_image_changes_size(
    make_site: MakeSite, run_cli: RunCli, base_path: str
) -> None:
    root = drawn_site(make_site, settings_at(base_path))
    assert run_cli(["build", "--root", str(root)]).code == 0

    (root / "assets/fig.svg").write_text(SVG.format('width="80" height="30"'), "utf-8")
    (root / "assets/cover.svg").write_text(SVG.format('viewBox="0 0 1000 500"'), "utf-8")
    cached = run_cli(["build", "--root", str(root)])

    assert cached.code == 0, cached.err
    article = imgs((root / "build/articles/drawn/index.html").read_text("utf-8"))
    assert article[:2] == [
        f'<img class="cover" src="{base_path}assets/cover.svg" alt="Drawn" width="1000" height="500">',
        f'<img src="{base_path}assets/fig.svg" alt="A drawing" loading="lazy" width="80" height="30" />',
    ]
    assert 'width="1000" height="500"' in (root / "build/index.html").read_text("utf-8")
    assert run_cli(["build", "--root", str(root), "--no-cache", "--out", str(root / "clean")]).code == 0
    for path in (root / "clean").rglob("*.html"):
        assert path.read_bytes() == (root / "build" / path.relative_to(root / "clean")).read_bytes(), path
