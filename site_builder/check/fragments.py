"""Links to a ``#fragment``, judged before build against the ids each page will have.

An article page has the ids its headings get (:mod:`site_builder.model.page_ids`,
the renderer's own algorithm), the ids written in its trusted HTML, the ids its
templates write (:data:`~site_builder.model.page_ids.RESERVED_IDS` and what a
site's own template adds literally). Any other page of the site has the ids its
templates write. A link to an id none of them has is a problem at the line of the
helper call that holds it, in ``validate``, the pytest plugin and ``build`` alike.
"""

from __future__ import annotations

import difflib
import posixpath
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

from site_builder.authoring.model import CallSite
from site_builder.check.link_lines import link_site
from site_builder.check.templates import Templates, page_template, template_problems
from site_builder.errors import Problem
from site_builder.model.batches import relative_to_root
from site_builder.model.layout import article_url
from site_builder.model.page_ids import HISTORY_IDS, RESERVED_IDS
from site_builder.settings.project import Settings


@dataclass(frozen=True, slots=True, kw_only=True)
class FragmentLink:
    """A link to a ``#fragment`` of a page of the site, as an author wrote it."""

    where: CallSite
    subject: str
    url: str
    """As written."""
    page: str
    """The site path of the page it leads to (``/articles/x/``)."""
    fragment: str
    """The id it names, decoded."""


def fragment_link(where: CallSite, subject: str, url: str, slug: str) -> FragmentLink | None:
    """The fragment link ``url`` is, written in the article ``slug``; None for any other URL
    (one without a fragment, an external or a relative one, which other rules judge)."""
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return None
    if parts.scheme or parts.netloc or not parts.fragment:
        return None
    if not parts.path:
        page = article_url(slug)
    elif parts.path.startswith("/"):
        decoded = unquote(parts.path)
        page = posixpath.normpath(decoded) + ("/" if decoded.endswith("/") and decoded != "/" else "")
        page = page.removesuffix("index.html")
    else:
        return None
    return FragmentLink(where=where, subject=subject, url=url, page=page, fragment=unquote(parts.fragment))


def fragment_problems(
    links: Iterable[FragmentLink],
    articles: Mapping[str, Iterable[str]],
    pages: frozenset[str],
    templates: Templates,
) -> Iterator[tuple[FragmentLink, str]]:
    """Each link to an id its page will not have, with the message. ``articles`` holds
    each article page's content ids by site path; a link to a page the site does not have
    is left to the link rules."""
    known: dict[str, tuple[set[str], list[str]]] = {}
    for link in links:
        if link.page not in pages or not link.page.endswith(("/", ".html")):
            continue  # no such page (another rule says so), or not HTML (a feed has no ids)
        if link.page not in known:
            known[link.page] = _page_ids(link.page, articles, templates)
        ids, suggested = known[link.page]
        if link.fragment not in ids:
            close = difflib.get_close_matches(link.fragment, suggested, n=1)
            hint = f"; did you mean '#{close[0]}'?" if close else ""
            yield link, f"{link.url!r}: no element with id {link.fragment!r} on {link.page}{hint}"


def _page_ids(
    page: str, articles: Mapping[str, Iterable[str]], templates: Templates
) -> tuple[set[str], list[str]]:
    """Every id of a page, and those worth suggesting: an article's own (its headings',
    its content's), not the ids of its chrome."""
    ids = templates.ids(page)
    if page_template(page) != "article.html":
        return ids, sorted(ids)
    own = set(articles.get(page, ()))
    # The article template writes the history's ids only on the page of an article that has one.
    return (ids - HISTORY_IDS) | (RESERVED_IDS - HISTORY_IDS) | own, sorted(own - HISTORY_IDS)


def page_problems(
    root: Path,
    settings: Settings,
    links: Iterable[FragmentLink],
    articles: Mapping[str, Iterable[str]],
    pages: frozenset[str],
) -> list[Problem]:
    """What rendered pages would show, found before build: links to an id their page will
    not have, and what the site's own templates write wrong literally."""
    templates = Templates(root)
    problems = [
        Problem(
            path=relative_to_root(root, link.where.path),
            line=link_site(link.where, link.url).line,
            subject=link.subject,
            rule="fragment",
            message=message,
        )
        for link, message in fragment_problems(links, articles, pages, templates)
    ]
    return problems + template_problems(templates, pages, root / settings.assets_dir, settings.base_path)
