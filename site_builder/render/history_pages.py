"""The pages of an article with more than one revision, rendered once every batch is in:
its latest revision at the article's URL with the history, each earlier revision at its
own URL, and one page per later revision showing what it changed, word by word.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

import jinja2
from markupsafe import Markup

from site_builder.language.labels import Chrome
from site_builder.model.layout import article_url, diff_url
from site_builder.model.page_ids import RESERVED_IDS, content_ids
from site_builder.render.diff import diff_revisions
from site_builder.render.history import History, Version, history_of
from site_builder.render.images import with_sizes
from site_builder.render.items import CategoryLink, Item
from site_builder.render.pages import article_page, render_page
from site_builder.render.scroll_regions import focusable_regions
from site_builder.render.sub_path import move_under
from site_builder.settings.project import Settings


@dataclass(frozen=True, slots=True, kw_only=True)
class Compared:
    """What a diff page shows: two consecutive revisions and what changed between them."""

    title: str
    """The article's title in the newer revision."""
    article_url: str
    old: Version
    new: Version
    html: Markup
    """The body of the newer revision with the words it added in ``<ins>`` and removed in ``<del>``."""
    added: int
    removed: int


def article_history(items: Sequence[Item]) -> History:
    """The history of one article from its revisions' items, oldest first (numbered from 1)."""
    first = items[0]
    return history_of(first.slug, [(item.date, item.changes if n else "") for n, item in enumerate(items)])


def render_history(
    env: jinja2.Environment, settings: Settings, items: Sequence[Item], categories: Collection[str]
) -> dict[str, str]:
    """Every page of one article whose revisions are ``items`` (oldest first, whole: with
    their content and proofs): output path → HTML. ``categories`` are the URLs of the site's
    category pages: an earlier revision's category the site no longer has is shown unlinked."""
    chrome = Chrome(settings.labels)
    history = article_history(items)
    pages: dict[str, str] = {}
    for number, item in enumerate(items, 1):
        if number < len(items):
            item = _linked_where_listed(item, categories)
        shown = history.showing(number)
        pages[_path(shown.url)] = article_page(env, settings, item, chrome, shown)
        if number > 1:
            pages[_path(diff_url(item.slug, number))] = _diff_page(
                env, settings, chrome, history, items, number
            )
    return pages


def _diff_page(
    env: jinja2.Environment,
    settings: Settings,
    chrome: Chrome,
    history: History,
    items: Sequence[Item],
    number: int,
) -> str:
    old, new = items[number - 2], items[number - 1]
    old_page, new_page = history.showing(number - 1).url, history.showing(number).url
    on_new_page = _page_ids(new)
    changed = diff_revisions(
        _fragments_on(old.content_html, lambda name: new_page if name in on_new_page else old_page),
        _fragments_on(new.content_html, lambda _name: new_page),
    )
    versions = {v.number: v for v in history.versions}
    sizes = (*new.images, *old.images)  # the first size of a src is the one used
    compared = Compared(
        title=new.title,
        article_url=article_url(new.slug),
        old=versions[number - 1],
        new=versions[number],
        # code and tables scroll: keyboard reachable; the body's own URLs, like the article page's,
        # lie under the site's base path
        html=Markup(focusable_regions(move_under(with_sizes(str(changed.html), sizes), settings.base_path))),
        added=changed.words_added,
        removed=changed.words_removed,
    )
    return render_page(
        env, "diff.html", settings, diff_url(new.slug, number), chrome, lang=new.lang, diff=compared
    )


_SAME_PAGE = re.compile(r'(\shref=")#([^"]*)"')
"""A link to a ``#fragment`` of the page it is on (the helpers double-quote every attribute)."""


def _fragments_on(content_html: str, page: Callable[[str], str]) -> str:
    """``content_html`` with each link to a ``#fragment`` of its own page pointed at the page
    ``page(fragment)`` (a site-relative URL) instead: a diff page drops the ids the links name."""
    return _SAME_PAGE.sub(lambda m: f'{m.group(1)}{page(m.group(2))}#{m.group(2)}"', content_html)


def _page_ids(item: Item) -> frozenset[str]:
    """The ids the page of revision ``item`` has for a ``#fragment`` to name: those validation
    knows it by (:func:`~site_builder.check.fragments.content_ids`) and the template's own."""
    return frozenset(content_ids(item.content_html, item.fixtures)) | RESERVED_IDS


def _linked_where_listed(item: Item, categories: Collection[str]) -> Item:
    links = tuple(c if c.url in categories else CategoryLink(c.name, "") for c in item.categories)
    return item if links == item.categories else dataclasses.replace(item, categories=links)


def _path(url: str) -> str:
    return url.lstrip("/") + "index.html"
