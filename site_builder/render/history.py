"""What an article page shows of its article's history, as values for the templates.

An article with more than one revision has its latest at its own URL, with the
list of every revision (newest first: number, date, what changed and a link to
the diff); each earlier revision keeps a page of its own, naming the latest as
canonical. The pages themselves are rendered by :mod:`.pages` and
:mod:`.history_pages`.
"""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup

from site_builder.model.layout import article_url, diff_url, revision_url


@dataclass(frozen=True, slots=True, kw_only=True)
class Version:
    """One revision of an article, as its history lists it."""

    number: int
    """1-based, in date order."""
    date: str
    """The date it took effect (the first revision's ``published``, a later one's ``revised``)."""
    changes: Markup
    """A later revision's note of what changed (HTML); empty for the first."""
    url: str
    """Its page: the article's URL for the latest, its own for an earlier one."""
    diff: str
    """The page of what it changed in the one before; "" for the first."""


@dataclass(frozen=True, slots=True)
class History:
    """An article's revisions, and which of them a page shows."""

    versions: tuple[Version, ...]
    """Newest first."""
    shown: int
    """The number of the revision the page shows."""

    @property
    def latest(self) -> Version:
        """The newest revision."""
        return self.versions[0]

    @property
    def current(self) -> Version:
        """The revision the page shows."""
        return next(v for v in self.versions if v.number == self.shown)

    @property
    def url(self) -> str:
        """The page's own URL."""
        return self.current.url

    @property
    def is_latest(self) -> bool:
        """Whether the page shows the latest revision."""
        return self.shown == self.latest.number

    def showing(self, number: int) -> History:
        """The same history, for the page of revision ``number``."""
        return History(self.versions, number)


def history_of(slug: str, revisions: list[tuple[str, str]]) -> History:
    """The history of ``slug`` from each revision's (date, changes HTML), oldest first; for the
    latest revision's page."""
    latest = len(revisions)
    versions = tuple(
        Version(
            number=n,
            date=date,
            changes=Markup(changes),  # rendered from inline Markdown with raw HTML disabled
            url=article_url(slug) if n == latest else revision_url(slug, n),
            diff=diff_url(slug, n) if n > 1 else "",
        )
        for n, (date, changes) in reversed(list(enumerate(revisions, 1)))
    )
    return History(versions, latest)
