"""Every URL a built site writes, resolved the way its reader resolves it, and checked against
the files the build wrote below the site's base path.

The readers: a browser reading a page (every URL-valued attribute, the JSON-LD), a feed reader
(the Atom feed's links and its entries' HTML, under ``xml:base``), a crawler (the sitemap,
robots.txt), an importer (``revisions.json``: ``contentHtml`` keeps the author's site-relative
URLs by design, so they resolve against the site root, the base URL) and the search box (each
bundle the script names, and each result URL, which Pagefind's UI puts under the base path).

A URL is internal when it is site-relative or absolute on the base URL's host; an internal URL
must lie below the base path, name a file of the build (a folder: its ``index.html``) and,
with a ``#fragment``, an element with that id in that file. Shared by
``tests/render/test_sub_path.py``, ``tests/whole_site/test_all_features.py``,
``tests/whole_site/test_own_site.py`` and the suites that build a site at each base path.
"""

from __future__ import annotations

import gzip
import html
import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote, unquote, urljoin, urlsplit

from bs4 import BeautifulSoup, Tag

from site_builder.model.layout import site_relative
from site_builder.settings.project import Settings

ATOM = "{http://www.w3.org/2005/Atom}"
SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
XML_BASE = "{http://www.w3.org/XML/1998/namespace}base"

URL_ATTRIBUTES = frozenset({"href", "src", "action", "formaction", "poster", "cite", "data", "background"})
"""Attributes whose value is one URL."""
SRCSET_ATTRIBUTES = frozenset({"srcset", "imagesrcset"})
"""Attributes whose value is a list of URLs, each with a size."""
_IDS = re.compile(r"""\sid\s*=\s*["']([^"']*)["']""")


@dataclass(frozen=True)
class Found:
    """A URL written in the site: where, and what it resolves to when read there."""

    where: str
    url: str
    resolved: str


def base_path_of(base_url: str) -> str:
    """The path every URL of a site served from ``base_url`` starts with (``/sub/dir/``)."""
    return Settings(title="T", base_url=base_url).base_path


def served_url(base_url: str, path: str) -> str:
    """The address a file of the output is served at (a folder's ``index.html``: the folder)."""
    return urljoin(base_url, quote(path.removesuffix("index.html")))


# --- the URLs of each kind of file ---------------------------------------------------------------


def attribute_urls(tag: str, name: str, value: object, attrs: dict[str, object]) -> list[str]:
    """The URLs an attribute holds: one, a srcset's list, or a meta tag's URL ``content``."""
    text = " ".join(value) if isinstance(value, list) else str(value)
    if name in URL_ATTRIBUTES:
        return [text.strip()]
    if name in SRCSET_ATTRIBUTES:
        return [part.split()[0] for part in text.split(",") if part.strip()]
    if tag == "meta" and name == "content" and re.match(r"(https?:)?/", text):
        return [text]
    return []


def element_urls(tree: BeautifulSoup | Tag) -> Iterator[tuple[str, str]]:
    """(``<tag attribute>``, URL) of every URL-valued attribute below ``tree``."""
    for element in tree.find_all(True):
        for name, value in element.attrs.items():
            for url in attribute_urls(element.name, name, value, element.attrs):
                yield f"<{element.name} {name}>", url


def json_strings(value: object) -> Iterator[str]:
    """Every string inside a JSON value."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from json_strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from json_strings(item)


def html_urls(out: Path, base_url: str) -> list[Found]:
    """Every URL-valued attribute of every element of every built HTML page, and every URL of
    its JSON-LD, resolved against the page's own address."""
    found = []
    for page in sorted(out.rglob("*.html")):
        path = page.relative_to(out).as_posix()
        served = served_url(base_url, path)
        tree = BeautifulSoup(page.read_text("utf-8"), "html.parser")
        for where, url in element_urls(tree):
            found.append(Found(f"{path} {where}", url, urljoin(served, url)))
        for script in tree.find_all("script", type="application/ld+json"):
            for text in json_strings(json.loads(script.string or "null")):
                if re.match(r"https?://", text):
                    found.append(Found(f"{path} JSON-LD", text, text))
    return found


def feed_urls(out: Path) -> list[Found]:
    """The feed's id and links, and every URL of its entries' HTML, resolved as a feed reader
    does (RFC 4287 section 2): against the ``xml:base`` of the entry's content, else of the feed."""
    feed = ET.parse(out / "feed.xml").getroot()
    base = feed.get(XML_BASE, "")
    found = [Found("feed.xml <id>", feed.findtext(f"{ATOM}id", ""), feed.findtext(f"{ATOM}id", ""))]
    found += [
        Found("feed.xml <link>", link.get("href", ""), link.get("href", ""))
        for link in feed.iter(f"{ATOM}link")
    ]
    for entry in feed.iter(f"{ATOM}entry"):
        page = entry.findtext(f"{ATOM}id", "")
        found.append(Found("feed.xml <entry id>", page, page))
        element = entry.find(f"{ATOM}content")
        assert element is not None, f"feed entry {page} has no content"
        content = BeautifulSoup(element.text or "", "html.parser")
        for where, url in element_urls(content):
            resolved = urljoin(urljoin(base, element.get(XML_BASE, "")), url)
            found.append(Found(f"feed.xml entry {page} {where}", url, resolved))
    return found


def sitemap_urls(out: Path) -> list[Found]:
    """Every ``<loc>`` of the sitemap."""
    locations = ET.parse(out / "sitemap.xml").getroot().iter(f"{SITEMAP}loc")
    return [Found("sitemap.xml <loc>", loc.text or "", loc.text or "") for loc in locations]


def robots_urls(out: Path, base_url: str) -> list[Found]:
    """The ``Allow`` path and the ``Sitemap`` of robots.txt."""
    found = []
    for line in (out / "robots.txt").read_text("utf-8").splitlines():
        name, _, value = line.partition(": ")
        if name in ("Allow", "Sitemap"):
            found.append(Found(f"robots.txt {name}", value, urljoin(base_url, value)))
    return found


def revisions_urls(out: Path, base_url: str) -> list[Found]:
    """The cover and every URL of ``contentHtml`` and ``changes`` of each revision, site-relative
    ones against the site root (the base URL), a ``#fragment`` alone against the revision's
    own page (the article's for its latest revision, ``revisions/N/`` for an earlier one)."""
    data = json.loads((out / "revisions.json").read_text("utf-8"))
    latest = {item["slug"]: item["revision"] for item in data}
    found = []
    for item in data:
        slug, number = item["slug"], item["revision"]
        own = f"articles/{slug}/" if number == latest[slug] else f"articles/{slug}/revisions/{number}/"
        where = f"revisions.json {slug} revision {number}"
        if item["cover"]:
            found.append(Found(f"{where} cover", item["cover"], site_url(base_url, item["cover"])))
        for key in ("contentHtml", "changes"):
            for tag, url in element_urls(BeautifulSoup(item[key] or "", "html.parser")):
                resolved = (
                    urljoin(served_url(base_url, own), url)
                    if url.startswith("#")
                    else site_url(base_url, url)
                )
                found.append(Found(f"{where} {key} {tag}", url, resolved))
    return found


def site_url(base_url: str, url: str) -> str:
    """A URL as an author writes it (``/assets/a.svg``) resolved against the site root."""
    return (
        urljoin(base_url, url.removeprefix("/")) if url.startswith("/") and not url.startswith("//") else url
    )


def search_urls(out: Path, base_url: str) -> list[Found]:
    """Each bundle the search script loads (its ``pagefind-entry.json``), and each result URL
    of every bundle, which the UI puts under the base path (its ``baseUrl``)."""
    script = (out / "pagefind/site-search.js").read_text("utf-8")
    listed = re.search(r"var bundles = (\[.*?\]);", script)
    assert listed, "pagefind/site-search.js names no bundles"
    found = [
        Found("pagefind/site-search.js bundle", bundle, urljoin(base_url, bundle + "pagefind-entry.json"))
        for bundle in json.loads(listed.group(1))
    ]
    for fragment in sorted((out / "pagefind").rglob("*.pf_fragment")):
        data = gzip.decompress(fragment.read_bytes())
        url = json.loads(data[data.index(b"{") :])["url"]
        found.append(Found(f"{fragment.relative_to(out).as_posix()} url", url, site_url(base_url, url)))
    return found


def every_url(out: Path, base_url: str) -> list[Found]:
    """Every URL of the pages, the feed, the sitemap, robots.txt, revisions.json and the search."""
    return (
        html_urls(out, base_url)
        + feed_urls(out)
        + sitemap_urls(out)
        + robots_urls(out, base_url)
        + revisions_urls(out, base_url)
        + search_urls(out, base_url)
    )


# --- where they lead ---------------------------------------------------------------------------------


@dataclass
class Targets:
    """The files of one build, served from ``base_url``: what an internal URL may lead to."""

    out: Path
    base_url: str
    ids: dict[str, frozenset[str]] = field(default_factory=dict)
    """The ids of each file a fragment named, read once."""

    @property
    def host(self) -> str | None:
        return urlsplit(self.base_url).hostname

    def internal(self, resolved: str) -> bool:
        """Whether a resolved URL is the site's own (on its host; mailto: and others are not)."""
        parts = urlsplit(resolved)
        return parts.scheme in ("http", "https") and parts.hostname == self.host

    def file(self, path: str) -> str | None:
        """The output file a path of the site's host names, or None (outside the base path, or
        no such file)."""
        relative = site_relative(base_path_of(self.base_url), unquote(path))
        if relative is None:
            return None
        name = relative.lstrip("/")
        for candidate in (name, name.rstrip("/") + "/index.html" if name else "index.html"):
            if candidate and (self.out / candidate).is_file():
                return candidate
        return None

    def ids_of(self, name: str) -> frozenset[str]:
        if name not in self.ids:
            text = (self.out / name).read_text("utf-8", "replace")
            self.ids[name] = frozenset(html.unescape(found) for found in _IDS.findall(text))
        return self.ids[name]

    def problem(self, found: Found) -> str | None:
        """Why ``found`` leads nowhere, or None when it leads to a file (and its fragment to an id)."""
        if not self.internal(found.resolved):
            return None
        parts = urlsplit(found.resolved)
        if site_relative(base_path_of(self.base_url), unquote(parts.path)) is None:
            return f"{found.where}: {found.url!r} is outside {base_path_of(self.base_url)}"
        name = self.file(parts.path)
        if name is None:
            return f"{found.where}: {found.url!r} ({found.resolved}) names no file of the build"
        fragment = unquote(parts.fragment)
        if fragment and fragment not in self.ids_of(name):
            return f"{found.where}: {found.url!r}: no id {fragment!r} in {name}"
        return None


def dead_urls(out: Path, base_url: str, found: list[Found] | None = None) -> list[str]:
    """Every internal URL of the build in ``out`` (by default: :func:`every_url`) that leaves the
    base path, names no built file or a missing id."""
    targets = Targets(out, base_url)
    problems = (targets.problem(f) for f in (every_url(out, base_url) if found is None else found))
    return [p for p in problems if p is not None]


# --- a build at the root and one below a path ----------------------------------------------------------


def moves(sub_url: str, root_url: str) -> list[tuple[str, str]]:
    """What differs between a build served from ``sub_url`` and one from ``root_url`` (the same
    host's root), spelled in the sub-path build's way and in the root build's."""
    sub_path = base_path_of(sub_url)
    return [
        (sub_url, root_url),  # canonical links, feed ids and links, sitemap, JSON-LD
        (f'"{sub_path}', '"/'),  # attributes of pages
        (f"&quot;{sub_path}", "&quot;/"),  # attributes inside the feed's escaped HTML
        (f"Allow: {sub_path}", "Allow: /"),  # robots.txt
    ]


def differing_beyond_urls(
    sub: dict[str, bytes], root: dict[str, bytes], sub_url: str, root_url: str
) -> list[str]:
    """The files of two builds that differ beyond where their URLs point (the search index, which
    holds the pages' text, left aside); the file lists must be the same."""
    sub = {path: data for path, data in sub.items() if not path.startswith("pagefind/")}
    root = {path: data for path, data in root.items() if not path.startswith("pagefind/")}
    assert sub.keys() == root.keys(), sorted(sub.keys() ^ root.keys())
    differing = []
    for path, data in sub.items():
        text = data.decode("utf-8", "surrogateescape")
        for old, new in moves(sub_url, root_url):
            text = text.replace(old, new)
        if text.encode("utf-8", "surrogateescape") != root[path]:
            differing.append(path)
    return differing
