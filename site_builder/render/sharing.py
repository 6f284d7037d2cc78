"""What an article page tells social sites and search engines about itself: OpenGraph and
Twitter card ``<meta>`` tags and a JSON-LD ``Article``, from one revision and the settings.

The values are plain text: the template escapes them into attributes, and the JSON-LD is
serialised here so that no text can end its ``<script>`` element.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from urllib.parse import quote, urlsplit

from markupsafe import Markup

from site_builder.model.moments import machine_form
from site_builder.render.cover_png import HEIGHT, WIDTH, png_path
from site_builder.render.items import Item
from site_builder.settings.project import Settings

# OpenGraph wants a locale as language_TERRITORY; for a bare language, its most likely
# territory (CLDR's likely subtags).
_LIKELY_TERRITORY = {
    "ar": "SA", "cs": "CZ", "da": "DK", "de": "DE", "el": "GR", "en": "US", "es": "ES",
    "fi": "FI", "fr": "FR", "he": "IL", "hi": "IN", "hu": "HU", "id": "ID", "it": "IT",
    "ja": "JP", "ko": "KR", "nb": "NO", "nl": "NL", "pl": "PL", "pt": "BR", "ro": "RO",
    "ru": "RU", "sv": "SE", "th": "TH", "tr": "TR", "uk": "UA", "vi": "VN", "zh": "CN",
}  # fmt: skip
_RASTER = (".png", ".jpg", ".jpeg", ".gif", ".webp")
"""Covers social sites take as they are."""
_JSON_IN_HTML = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026"})


@dataclass(frozen=True, slots=True)
class Image:
    """The picture a shared link shows."""

    url: str
    """Absolute."""
    width: int | None = None
    """Pixels, when known without reading the file."""
    height: int | None = None
    type: str | None = None
    """Its media type, when known."""


@dataclass(frozen=True, slots=True)
class Sharing:
    """What an article page's ``<head>`` says to social sites and search engines."""

    meta: tuple[tuple[str, str, str], ...]
    """``(attribute, name, content)`` of each ``<meta>``: ``property`` for OpenGraph, ``name`` for Twitter."""
    json_ld: Markup
    """The JSON-LD ``Article``, safe to put between ``<script>`` tags as it is."""


def absolute(settings: Settings, url: str) -> str:
    """A site-relative URL as an absolute one, below the base URL's path."""
    return settings.base_url.rstrip("/") + url


def author_name(settings: Settings) -> str:
    """The name pages and the feed give as the author: ``author``, or the site title."""
    return settings.author.strip() or settings.title


def modified_date(item: Item) -> str:
    """When the revision shown took effect: a later revision's ``revised`` date (RFC 3339 with
    its time, when it has one), else the article's ``published`` date (a revision is never
    edited after it is published)."""
    return machine_form(item.date)


def og_locale(lang: str) -> str | None:
    """``ru`` → ``ru_RU``, ``pt-BR`` → ``pt_BR``; None for a language whose territory is unknown."""
    language, *rest = lang.split("-")
    territory = next((part for part in rest if len(part) == 2 and part.isalpha()), None)
    territory = territory or _LIKELY_TERRITORY.get(language.lower())
    return f"{language.lower()}_{territory.upper()}" if territory else None


def share_image(settings: Settings, cover: str | None) -> Image | None:
    """The cover as social sites can take it: the PNG drawn from an SVG, a PNG, JPEG, GIF or
    WebP as it is; None for anything else."""
    drawn = png_path(cover)
    if drawn is not None:
        return Image(absolute(settings, "/" + quote(drawn)), WIDTH, HEIGHT, "image/png")
    if cover is None or not urlsplit(cover).path.lower().endswith(_RASTER):
        return None
    return Image(absolute(settings, cover) if cover.startswith("/") else cover)


def sharing(settings: Settings, item: Item) -> Sharing:
    """The OpenGraph and Twitter tags and the JSON-LD of ``item``'s page."""
    url = absolute(settings, item.url)
    image = share_image(settings, item.cover)
    meta = [
        ("property", "og:type", "article"),
        ("property", "og:title", item.title),
        ("property", "og:description", item.excerpt),
        ("property", "og:url", url),
        ("property", "og:site_name", settings.title),
    ]
    if (locale := og_locale(item.lang)) is not None:
        meta.append(("property", "og:locale", locale))
    meta += [
        ("property", "article:published_time", item.published),
        ("property", "article:modified_time", modified_date(item)),
    ]
    meta += _image_tags(image, item.title)
    meta += [
        ("name", "twitter:card", "summary" if image is None else "summary_large_image"),
        ("name", "twitter:title", item.title),
        ("name", "twitter:description", item.excerpt),
    ]
    return Sharing(tuple(meta), json_ld(settings, item, url, image))


def _image_tags(image: Image | None, alt: str) -> list[tuple[str, str, str]]:
    if image is None:
        return []
    tags = [("property", "og:image", image.url)]
    if image.type is not None:
        tags.append(("property", "og:image:type", image.type))
    if image.width is not None and image.height is not None:
        tags += [("property", "og:image:width", str(image.width))]
        tags += [("property", "og:image:height", str(image.height))]
    tags.append(("property", "og:image:alt", alt))
    return tags


def json_ld(settings: Settings, item: Item, url: str, image: Image | None) -> Markup:
    """A schema.org ``Article``, its keys in a fixed order; ``<``, ``>`` and ``&`` escaped
    inside its strings, so that nothing in it can end the ``<script>`` element."""
    # A named author is a person; without one, the site itself is.
    kind = "Person" if settings.author.strip() else "Organization"
    data: dict[str, object] = {
        "@context": "https://schema.org",
        "@type": "Article",
        "headline": item.title,
        "description": item.excerpt,
        "inLanguage": item.lang,
        "datePublished": item.published,
        "dateModified": modified_date(item),
        "author": {"@type": kind, "name": author_name(settings)},
        "url": url,
        "mainEntityOfPage": {"@type": "WebPage", "@id": url},
    }
    if image is not None:
        data["image"] = image.url
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return Markup(text.translate(_JSON_IN_HTML))
