"""The machine-read files of the site: Atom feed, sitemap and robots.txt.

Built with ElementTree so that any text is escaped into well-formed XML; every
date comes from the articles (or the build's date for a site that publishes none).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence

from site_builder.authoring.escaping import NOT_XML
from site_builder.model.layout import category_url
from site_builder.model.moments import machine_form, sort_key, timestamp
from site_builder.model.schedule import build_date
from site_builder.render.items import Item
from site_builder.render.sharing import author_name
from site_builder.render.sub_path import move_under
from site_builder.settings.project import Settings

ATOM = "http://www.w3.org/2005/Atom"
SITEMAP = "http://www.sitemaps.org/schemas/sitemap/0.9"


def _text(value: str) -> str:
    # Validation reports these first; stripping here keeps the file well-formed regardless.
    return NOT_XML.sub("", value)


def _sub(parent: ET.Element, tag: str, text: str | None = None, **attrs: str) -> ET.Element:
    element = ET.SubElement(parent, tag, {k: _text(v) for k, v in attrs.items()})
    if text is not None:
        element.text = _text(text)
    return element


def _absolute(settings: Settings, url: str) -> str:
    return settings.base_url.rstrip("/") + url


def site_date(items: Sequence[Item], today: str = "") -> str:
    """The newest article date, or the build's date (``today``; by default SOURCE_DATE_EPOCH's
    or today's, in UTC) for a site that publishes no article."""
    if items:
        return max((item.latest_date for item in items), key=sort_key)
    return today or build_date()


def feed_order(items: Sequence[Item], limit: int | None = None) -> list[int]:
    """The positions of ``items`` in the feed: newest first, one day's in site order; only
    the first ``limit`` of them when given (the ``feed_limit`` setting)."""
    return sorted(range(len(items)), key=lambda n: sort_key(items[n].latest_date), reverse=True)[:limit]


def feed_head(settings: Settings, items: Sequence[Item], *, today: str = "") -> bytes:
    """The feed up to its first entry."""
    # xml:base lets readers resolve the site-relative links inside the content.
    attrs = {"xmlns": ATOM, "xml:lang": settings.language, "xml:base": _absolute(settings, "/")}
    feed = ET.Element("feed", attrs)
    _sub(feed, "title", settings.title)
    if settings.description:
        _sub(feed, "subtitle", settings.description)
    _sub(feed, "id", _absolute(settings, "/"))
    _sub(feed, "link", rel="self", href=_absolute(settings, "/feed.xml"))
    _sub(feed, "link", rel="alternate", href=_absolute(settings, "/"))
    _sub(feed, "updated", timestamp(site_date(items, today)))
    _sub(_sub(feed, "author"), "name", author_name(settings))
    _sub(feed, "generator", "site_builder")
    head = _document(feed).encode("utf-8")
    return head if not items else head.removesuffix(b"</feed>\n")


def write_atom_feed(
    settings: Settings,
    items: Sequence[Item],
    entry: Callable[[int], object],
    write: Callable[[bytes], object],
    *,
    today: str = "",
) -> None:
    """An Atom (RFC 4287) feed of the newest ``feed_limit`` revisions, newest first, streamed to ``write``;
    ``entry(n)`` writes the ``n``-th item's :func:`feed_entry`, already rendered and encoded
    (a large site's feed is larger than its other files together, so it is never held whole)."""
    write(feed_head(settings, items, today=today))
    if not items:
        return
    # What ET.indent would give the whole tree: each entry on its own, then spliced in.
    for position, n in enumerate(feed_order(items, settings.feed_limit)):
        write(b"  " if position == 0 else b"\n  ")
        entry(n)
    write(b"\n</feed>\n")


def feed_entry(settings: Settings, item: Item) -> str:
    """One revision's ``<entry>``, indented as the feed holds it (rendered with its batch)."""
    entry = ET.Element("entry", {"xml:lang": _text(item.lang)})
    _sub(entry, "title", item.title)
    _sub(entry, "id", _absolute(settings, item.url))
    _sub(entry, "link", rel="alternate", href=_absolute(settings, item.url))
    _sub(entry, "published", timestamp(item.published))
    _sub(entry, "updated", timestamp(item.latest_date))
    for link in item.categories:
        _sub(entry, "category", term=link.name)
    _sub(entry, "summary", item.excerpt)
    # A root-relative link resolves against the host alone, a #fragment against the entry's
    # own page: the content's xml:base (RFC 4287 2), not the feed's, which is the home page.
    content = move_under(item.content_html, settings.base_path)
    _sub(entry, "content", content, type="html", **{"xml:base": _absolute(settings, item.url)})
    ET.indent(entry, level=1)
    return ET.tostring(entry, encoding="unicode")


def sitemap(settings: Settings, items: Sequence[Item], *, today: str = "") -> str:
    """A sitemap of the index, every article and every category page."""
    urlset = ET.Element("urlset", {"xmlns": SITEMAP})
    dates: dict[str, str] = {"/": site_date(items, today), "/categories/": site_date(items, today)}
    for item in items:
        dates[item.url] = item.latest_date
        for link in item.categories:
            known = dates.get(category_url(link.name), item.latest_date)
            dates[category_url(link.name)] = max(known, item.latest_date, key=sort_key)
    for url, date in sorted(dates.items()):
        entry = _sub(urlset, "url")
        _sub(entry, "loc", _absolute(settings, url))
        _sub(entry, "lastmod", machine_form(date))
    return _document(urlset)


def robots(settings: Settings) -> str:
    """Allow everything and point crawlers at the sitemap."""
    return f"User-agent: *\nAllow: {settings.base_path}\n\nSitemap: {_absolute(settings, '/sitemap.xml')}\n"


def _document(root: ET.Element) -> str:
    ET.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
