"""The width and height of each image the site shows, read from its file.

A page that gives every ``<img>`` its ``width`` and ``height`` keeps its layout while the
images load. They come from the file itself: an SVG's ``width`` and ``height`` (px or
no unit; other absolute units converted) or else its ``viewBox``; any other image
through Pillow, which reads only its header (PNG, JPEG, GIF, WebP and more), with a
JPEG's EXIF orientation applied as browsers apply it. (An image whose size cannot be
read is a problem at the line that shows it: :mod:`site_builder.check.images`.)
"""

from __future__ import annotations

import functools
import html
import re
import warnings
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from typing import TYPE_CHECKING

from site_builder.model.layout import asset_file
from site_builder.model.url_policy import check_url

if TYPE_CHECKING:
    import PIL.Image

Size = tuple[int, int]
"""Width and height in CSS pixels."""

_IMG = re.compile(r"""<img\b(?:[^>"']|"[^"]*"|'[^']*')*>""", re.IGNORECASE)
_SRC = re.compile(r"""\ssrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))""", re.IGNORECASE)
_LENGTH = re.compile(r"\s*([0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?)\s*(px|in|cm|mm|pt|pc|q)?\s*", re.IGNORECASE)
_PX_PER = {"": 1.0, "px": 1.0, "in": 96.0, "cm": 96 / 2.54, "mm": 96 / 25.4, "q": 96 / 101.6}
_PX_PER |= {"pt": 4 / 3, "pc": 16.0}
_ROTATED = frozenset({5, 6, 7, 8})
"""EXIF orientations that turn the picture a quarter: width and height trade places."""


Measured = tuple[tuple[str, int, int], ...]
"""(``src`` as written, width, height) of each image a page shows that could be measured."""


class Assets:
    """The files of one assets folder that image URLs name, each URL looked up once: one
    build's view of the folder (thousands of pages showing one figure resolve it once)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._files: dict[str, Path | None] = {}
        self._sizes: dict[Path, Size | str] = {}
        self._unchanged: dict[Measured, bool] = {}

    def image(self, url: str) -> Path | None:
        """The file under the folder that ``url`` names, or None (see :func:`image_path`)."""
        if url not in self._files:
            self._files[url] = image_path(url, self.folder)
        return self._files[url]

    def size(self, path: Path) -> Size | str:
        """:func:`image_size` of a file, read once in this view of the folder."""
        if path not in self._sizes:
            self._sizes[path] = image_size(path)
        return self._sizes[path]

    def unchanged(self, measured: Measured) -> bool:
        """Whether every image of ``measured`` (``src`` as written, width, height) still has
        that size; each such list answered once (at 10,000 articles showing one figure, a
        rebuild asks it 10,000 times of the same list)."""
        if measured not in self._unchanged:
            self._unchanged[measured] = all(
                (path := self.image(src)) is not None and self.size(path) == (width, height)
                for src, width, height in measured
            )
        return self._unchanged[measured]


def img_tags(page_html: str) -> list[tuple[re.Match[str], str | None]]:
    """Every ``<img>`` tag of ``page_html`` and its ``src`` (decoded), in order."""
    found = []
    for tag in _IMG.finditer(page_html):
        src = _SRC.search(tag.group())
        value = next((group for group in src.groups() if group is not None), "") if src else None
        found.append((tag, None if value is None else html.unescape(value)))
    return found


def image_path(url: str, assets: Path) -> Path | None:
    """The file under ``assets`` a site-relative image URL names, or None (another site's
    image, a page, or nothing)."""
    verdict = check_url(url)
    local = verdict.local_path
    return None if local is None or verdict.error else asset_file(local, assets)


def image_size(path: Path) -> Size | str:
    """The image's width and height, or why they cannot be read."""
    try:
        stamp = path.stat()
    except OSError as exc:
        return f"cannot be read: {exc.strerror or exc}"
    return _size_of(path, stamp.st_mtime_ns, stamp.st_size, stamp.st_ino)


# Many pages show one file (a shared figure, a cover): a build measures it once, and a
# rebuild that checks its kept pages' images reads each file once, not once a page. The
# file's stamp is part of the key, so an edited image is measured again.
@functools.lru_cache(maxsize=4096)
def _size_of(path: Path, _mtime_ns: int, _size: int, _inode: int) -> Size | str:
    try:
        if path.suffix.lower() == ".svg":
            return _svg_size(path)
        return _raster_size(path)
    except OSError as exc:
        return f"cannot be read: {exc.strerror or exc}"


def _svg_size(path: Path) -> Size | str:
    root = _first_element(path)
    if isinstance(root, str):
        return root
    if root.tag not in ("svg", "{http://www.w3.org/2000/svg}svg"):
        return "is not an SVG file: its first element is not <svg>"
    return _svg_pixels(root)


def _first_element(path: Path) -> ElementTree.Element | str:
    """The first element of an XML file, or why it has none."""
    # Only the first element is read; the file is ours to close (iterparse leaves a path it
    # opened open until the iterator is collected).
    root: ElementTree.Element
    with path.open("rb") as file:
        try:
            _, root = next(ElementTree.iterparse(file, events=("start",)))
        except (ElementTree.ParseError, StopIteration) as exc:
            return f"is not a well-formed SVG file: {exc}"
    return root


def _svg_pixels(root: ElementTree.Element) -> Size | str:
    """The size an ``<svg>`` element is shown at, from its width, height and viewBox."""
    width, height = _length(root.get("width")), _length(root.get("height"))
    box = _view_box(root.get("viewBox"))
    if width and height:
        return _pixels(width, height)
    if box and (width or height):  # one of them and the shape: the other follows
        return _pixels(width or height * box[0] / box[1], height or width * box[1] / box[0])
    if box:
        return _pixels(*box)
    return "has no size: give its <svg> width and height, or a viewBox"


def _length(value: str | None) -> float:
    """An absolute length in px; 0 for a missing, relative (``%``, ``em``) or bad one."""
    match = _LENGTH.fullmatch(value or "")
    return float(match.group(1)) * _PX_PER[(match.group(2) or "").lower()] if match else 0.0


def _view_box(value: str | None) -> tuple[float, float] | None:
    parts = re.split(r"[\s,]+", (value or "").strip())
    try:
        width, height = float(parts[2]), float(parts[3])
    except (IndexError, ValueError):
        return None
    return (width, height) if width > 0 and height > 0 else None


def _pixels(width: float, height: float) -> Size:
    return max(1, round(width)), max(1, round(height))


def _raster_size(path: Path) -> Size | str:
    from PIL import Image, UnidentifiedImageError  # only a site with raster images needs it

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)  # only the header is read
            with Image.open(path) as image:
                width, height = image.size
                turned = image.format in ("JPEG", "MPO", "TIFF", "WEBP") and _turned(image)
    except UnidentifiedImageError:
        return "is not an image that can be measured (SVG, PNG, JPEG, GIF, WebP…)"
    except Image.DecompressionBombError:
        return "has more pixels than Pillow opens (a decompression bomb?)"
    except (SyntaxError, ValueError) as exc:  # what Pillow raises for a header it cannot read
        return f"is a broken image: {exc}"
    return (height, width) if turned else (width, height)


def _turned(image: PIL.Image.Image) -> bool:
    return image.getexif().get(0x0112) in _ROTATED
