"""Where each page of the built site lives, and what a site-relative URL names.

The one place that knows the site's URL layout, so that validation (does this
link resolve?) and rendering (where is this page written?) always agree.
"""

from __future__ import annotations

import functools
import hashlib
import posixpath
import re
import unicodedata
from collections.abc import Iterable, Iterator
from pathlib import Path
from urllib.parse import quote, unquote

FIXED_FILES = ("index.html", "404.html", "feed.xml", "sitemap.xml", "robots.txt", "revisions.json")
MAX_CATEGORY_BYTES = 200
"""A category page is a folder: its URL name must fit a file name (255 bytes on most systems)."""
ASSETS_URL = "/assets/"
"""Files of the assets folder are served below this URL, whatever the folder is called."""
_NOT_WORD = re.compile(r"[^\w]+")
_SEPARATORS = re.compile(r"[\s_-]+")


def article_url(slug: str) -> str:
    """Site-relative URL of an article page."""
    return f"/articles/{slug}/"


def article_file(slug: str) -> str:
    """The output path of an article page."""
    return f"articles/{slug}/index.html"


def revision_url(slug: str, number: int) -> str:
    """Site-relative URL of an earlier revision's own page (the latest is at :func:`article_url`)."""
    return f"/articles/{slug}/revisions/{number}/"


def diff_url(slug: str, number: int) -> str:
    """Site-relative URL of the page showing what revision ``number`` changed in the one before."""
    return f"/articles/{slug}/diff/{number}/"


def history_urls(slug: str, revisions: int) -> Iterator[str]:
    """The URL of each page an article of ``revisions`` revisions has besides its own: every
    earlier revision's page and every later revision's diff."""
    for number in range(1, revisions + 1):
        if number < revisions:
            yield revision_url(slug, number)
        if number > 1:
            yield diff_url(slug, number)


def under(base_path: str, url: str) -> str:
    """A site-relative URL (``/articles/x/``) as pages write it: below the site's base path
    (``/sub/articles/x/``). A fragment or an absolute URL is left as it is."""
    if base_path == "/" or not url.startswith("/") or url.startswith("//"):
        return url
    return base_path + url[1:]


def site_relative(base_path: str, path: str) -> str | None:
    """A decoded root-relative path as pages write it, as the site-relative path it names;
    None when it lies outside the base path (it would be dead once the site is deployed)."""
    base = unquote(base_path)
    if path.startswith(base):
        return "/" + path[len(base) :]
    return "/" if path == base.rstrip("/") else None


def readable_slug(text: str, fallback: str) -> str:
    """Letters and digits of any script, lower-cased and joined by ``-``."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return _NOT_WORD.sub("-", folded.replace("_", "-")).strip("-") or fallback


@functools.lru_cache(maxsize=4096)
def category_slug(name: str) -> str:
    """A URL name for a category in any script; it can never hold ``/`` or ``..``.

    Letters and digits carry over; when anything else would be lost (``C++``,
    ``C#``, ``..``) a short hash of the name keeps distinct names on distinct
    pages, and the URL of one category never depends on the others.
    """
    slug = readable_slug(name, "category")
    folded = unicodedata.normalize("NFKC", name).casefold()
    if _SEPARATORS.sub("-", folded).strip("-") == slug:
        return slug
    digest = hashlib.sha1(folded.encode("utf-8", "surrogatepass")).hexdigest()[:6]
    return f"{slug}-{digest}"


def category_path(name: str) -> str:
    """Decoded site-relative path of a category page (its folder in the output)."""
    return f"/categories/{category_slug(name)}/"


@functools.lru_cache(maxsize=4096)
def category_url(name: str) -> str:
    """The category page's URL as written in links: non-ASCII letters percent-encoded."""
    return quote(category_path(name))


def page_urls(slugs: Iterable[str], categories: Iterable[str]) -> frozenset[str]:
    """Every page URL of the site, each in its ``/dir/`` form."""
    pages = {"/"} | {"/" + name for name in FIXED_FILES}
    pages |= {"/categories/"} | {article_url(s) for s in slugs} | {category_path(c) for c in categories}
    return frozenset(pages)


def resolves(path: str, pages: frozenset[str], assets: Path) -> bool:
    """Whether a decoded site-relative path names a page or a file under ``assets``."""
    if "\x00" in path or "\\" in path:
        return False
    normal = posixpath.normpath(path) + ("/" if path.endswith("/") and path != "/" else "")
    if normal in pages or normal.removesuffix("index.html") in pages:
        return True
    return asset_file(normal, assets) is not None


def asset_file(path: str, assets: Path) -> Path | None:
    """The file under ``assets`` a decoded site-relative path names (``/assets/a.svg``), or None."""
    normal = posixpath.normpath(path)
    if "\x00" in path or "\\" in path or not normal.startswith(ASSETS_URL):
        return None
    target = (assets / normal[len(ASSETS_URL) :]).resolve()
    return target if target.is_relative_to(assets.resolve()) and target.is_file() else None
