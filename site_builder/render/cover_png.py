"""The PNG that social sites show for an article whose cover is an SVG (they take no SVG).

Drawn by resvg (the ``resvg-py`` wheel: no system library, fonts found the way resvg
finds them) at the size social sites ask for, 1200 × 630: the SVG fitted inside with
its aspect ratio kept, centred on white, as it shows on the site's light pages. The
page that names the PNG needs only the cover's URL: the PNG's path and size never
depend on the SVG's content, so a page is never out of date when a cover is edited.
"""

from __future__ import annotations

import base64
import contextlib
import functools
import hashlib
import os
import posixpath
import re
import struct
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from site_builder.model.layout import ASSETS_URL
from site_builder.model.url_policy import check_url

WIDTH, HEIGHT = 1200, 630
"""The size of every drawn cover: what Facebook, X and LinkedIn ask for (1.91 : 1)."""
OUTPUT_FOLDER = "og"
"""Where the drawn covers go in the output: ``og/`` + the SVG's path below the assets + ``.png``."""
DRAWING = "1"
"""Changes whenever :func:`draw_png` draws differently: part of every drawn cover's key."""
_BACKGROUND = "#ffffff"
_DPI = 96.0
"""CSS's inch: ``width="10cm"`` is 378 pixels, as in a browser (resvg_py's default makes it 0)."""
_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_AT_LINE = re.compile(r"\bat (\d+):\d+")
_ROOT = re.compile(r"<svg(\s(?:[^>\"']|\"[^\"]*\"|'[^']*')*?)(/?)>")
_ATTRIBUTE = re.compile(r"\s+([\w:.-]+)\s*=\s*(\"[^\"]*\"|'[^']*')")
_LENGTH = re.compile(r"\s*([0-9]*\.?[0-9]+)\s*(?:px)?\s*")
_SIZED = frozenset({"width", "height", "viewBox", "preserveAspectRatio"})
"""The root's attributes that :func:`_letterboxed` sets."""


def png_path(cover: str | None) -> str | None:
    """The output path of the PNG drawn from ``cover``: for an SVG below ``/assets/``
    (``/assets/a/cover.svg`` → ``og/a/cover.svg.png``); None for any other cover."""
    path = check_url(cover).local_path if cover else None
    if path is None or "\x00" in path or "\\" in path:
        return None
    path = posixpath.normpath(path)  # as validation resolved it: never outside the folders
    if not path.startswith(ASSETS_URL) or not path.lower().endswith(".svg"):
        return None
    return f"{OUTPUT_FOLDER}/{path[len(ASSETS_URL) :]}.png"


def svg_source(png: str) -> str:
    """The SVG's path below the assets folder that ``png`` (a :func:`png_path`) is drawn from."""
    return png[len(OUTPUT_FOLDER) + 1 : -len(".png")]


def draw_png(svg: bytes) -> bytes:
    """``svg`` drawn as a 1200 × 630 PNG; the same bytes for the same SVG, fonts and resvg.

    Raises ValueError with resvg's message when the SVG cannot be drawn.
    """
    import resvg_py  # a native module: loaded only by a build that draws a cover

    text = svg.decode("utf-8-sig")
    # Relative references resolve in an empty folder: like a browser showing an SVG as an
    # image, the drawing never reads other files (nor the current folder).
    with tempfile.TemporaryDirectory(prefix="site-builder-cover-") as nowhere:
        options: dict[str, Any] = {"resources_dir": nowhere, "dpi": _DPI}
        boxed = _letterboxed(text)
        if boxed is not None:  # one pass: the root itself fitted into the full size
            with contextlib.suppress(ValueError):  # then the SVG as written says what is wrong
                drawn = bytes(resvg_py.svg_to_bytes(svg_string=boxed, background=_BACKGROUND, **options))
                if png_size(drawn) == (WIDTH, HEIGHT):
                    return drawn
        fitted = bytes(
            resvg_py.svg_to_bytes(
                svg_string=text, width=WIDTH, height=HEIGHT, background=_BACKGROUND, **options
            )
        )
        width, height = png_size(fitted)
        if (width, height) == (WIDTH, HEIGHT):
            return fitted
        # Two passes (three times the work): drawn at its own aspect ratio, then centred.
        return bytes(resvg_py.svg_to_bytes(svg_string=_centred(fitted, width, height), **options))


def _letterboxed(text: str) -> str | None:
    """``text`` with its root element set to the full size, its drawing fitted inside and
    centred; None when the root's size cannot be read from its attributes."""
    root = _ROOT.search(text)
    if root is None or _ATTRIBUTE.sub("", root.group(1)).strip():
        return None
    attributes = {name: value[1:-1] for name, value in _ATTRIBUTE.findall(root.group(1))}
    view_box = attributes.get("viewBox")
    if view_box is None:
        width, height = (_LENGTH.fullmatch(attributes.get(name, "")) for name in ("width", "height"))
        if width is None or height is None:
            return None
        view_box = f"0 0 {width.group(1)} {height.group(1)}"
    kept = "".join(
        found.group(0) for found in _ATTRIBUTE.finditer(root.group(1)) if found.group(1) not in _SIZED
    )
    size = f'width="{WIDTH}" height="{HEIGHT}" viewBox="{view_box}" preserveAspectRatio="xMidYMid meet"'
    return f"{text[: root.start()]}<svg {size}{kept}{root.group(2)}>{text[root.end() :]}"


def _centred(png: bytes, width: int, height: int) -> str:
    """An SVG of the full size holding ``png`` in its middle, on white, at whole pixels."""
    x, y = (WIDTH - width) // 2, (HEIGHT - height) // 2
    data = base64.b64encode(png).decode("ascii")
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}">'
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="{_BACKGROUND}"/>'
        f'<image x="{x}" y="{y}" width="{width}" height="{height}" href="data:image/png;base64,{data}"/>'
        "</svg>"
    )


def png_size(data: bytes) -> tuple[int, int]:
    """(width, height) from a PNG's header."""
    if data[:8] != _PNG_SIGNATURE or data[12:16] != b"IHDR":
        raise ValueError("not a PNG")
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def error_line(message: str) -> int:
    """The SVG's line a resvg message names (``… at 3:7``), else 1."""
    found = _AT_LINE.search(message)
    return int(found.group(1)) if found else 1


def drawing_key(svg: bytes, fonts: str) -> str:
    """What a drawn cover is known by: the SVG's bytes, the fonts it may use, the drawing."""
    digest = hashlib.sha256(f"{DRAWING}\0{_resvg_version()}\0".encode())
    if b"<text" in svg:  # only text depends on the fonts installed
        digest.update(fonts.encode() + b"\0")
    digest.update(svg)
    return digest.hexdigest()


@functools.cache
def _resvg_version() -> str:
    """resvg's version, looked up once: a process cannot load another (finding a
    distribution's metadata walks every folder of ``sys.path``)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("resvg-py")
    except PackageNotFoundError:
        return "none"


def font_stamp() -> str:
    """A hash of the names, sizes and times of the font files where resvg looks for them:
    a font installed or removed draws a cover's text anew."""
    digest = hashlib.sha256()
    for path in sorted(_font_files()):
        try:
            found = os.stat(path)
        except OSError:
            continue
        digest.update(f"{path}\0{found.st_size}\0{found.st_mtime_ns}\0".encode())
    return digest.hexdigest()


def _font_files() -> Iterator[str]:
    for folder in _font_folders():
        for directory, _folders, names in os.walk(folder):
            yield from (os.path.join(directory, name) for name in names)


def _font_folders() -> list[Path]:
    """The folders resvg's font database reads on this system."""
    home = Path.home()
    if sys.platform == "win32":
        windows = Path(os.environ.get("SYSTEMROOT", r"C:\Windows"))
        local = Path(os.environ.get("LOCALAPPDATA", home / "AppData" / "Local"))
        return [windows / "Fonts", local / "Microsoft" / "Windows" / "Fonts"]
    if sys.platform == "darwin":
        return [Path("/Library/Fonts"), Path("/System/Library/Fonts"), home / "Library" / "Fonts"]
    return [
        Path("/usr/share/fonts"),
        Path("/usr/local/share/fonts"),
        home / ".fonts",
        home / ".local" / "share" / "fonts",
    ]
