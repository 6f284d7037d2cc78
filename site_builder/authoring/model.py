"""The values an article batch is made of: revisions, sources, blocks, fixtures.

Nothing here raises for an author's mistake. Constructors record what is wrong
as :class:`Flaw` values at the place the author wrote the call, and validation
turns them into problems later, so one mistake never hides another.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from types import FrameType

from markupsafe import Markup

from site_builder.authoring.arguments import Keywords

_PACKAGE = __name__.partition(".")[0]


@dataclass(frozen=True, slots=True)
class CallSite:
    """Where an author wrote a call: the place every problem points to."""

    path: str
    """Absolute path of the file, as Python compiled it."""
    line: int
    """1-based line where the call starts."""

    def __reduce__(self) -> tuple[type[CallSite], tuple[str, int]]:
        # A summary in the cache holds thousands: rebuilt from a tuple, not a state dict.
        return (CallSite, (self.path, self.line))


def call_site() -> CallSite:
    """Return the nearest caller outside this package (the author's line)."""
    frame = author_frame()
    return CallSite(frame.f_code.co_filename, frame.f_lineno)


def author_frame() -> FrameType:
    """The frame of the nearest caller outside this package: the author's call."""
    frame = sys._getframe(1)
    while frame.f_back is not None and _in_package(frame.f_globals.get("__name__")):
        frame = frame.f_back
    return frame


def _in_package(module: object) -> bool:
    return isinstance(module, str) and (module == _PACKAGE or module.startswith(_PACKAGE + "."))


@dataclass(frozen=True, slots=True)
class Flaw:
    """A mistake found while a value was built, before the site is known."""

    site: CallSite
    """Where the author wrote the faulty call."""
    rule: str
    """Short stable rule name."""
    message: str
    """What is wrong, with the value and the limit."""
    field: str = ""
    """The revision field at fault, so later rules do not report it twice."""


@dataclass(frozen=True, slots=True, kw_only=True, init=False)
class Source:
    """A reference a revision cites; listed after the body.

    Every field has a default and a keyword it does not have is kept, not refused, so that
    a forgotten or misspelt field is a validation problem at this line rather than a
    TypeError that stops the whole batch from importing."""

    title: str
    """Shown as the link text."""
    url: str
    """https/http (or another allowed URL); checked by validation, not here."""
    note: str
    """What this source supports, shown after the link."""
    quote: str = ""
    """A passage of the cited page that backs the claim, shown under the source as a
    quotation; empty when nothing is quoted."""
    site: CallSite = field(compare=False, repr=False)
    """Where the source was written."""
    unknown: tuple[str, ...] = field(default=(), compare=False, repr=False)
    """The keywords given that a source does not have, sorted."""

    def __init__(
        self, *, title: str = "", url: str = "", note: str = "", quote: str = "", **unknown: object
    ) -> None:
        object.__setattr__(self, "title", title)
        object.__setattr__(self, "url", url)
        object.__setattr__(self, "note", note)
        object.__setattr__(self, "quote", quote)
        object.__setattr__(self, "site", call_site())
        object.__setattr__(self, "unknown", tuple(sorted(unknown)))


@dataclass(frozen=True, slots=True, kw_only=True)
class Fixture:
    """A zero-argument function whose result backs what an article prints."""

    function: Callable[[], object]
    """The author's function, called in a worker process."""
    name: str
    """The function's name: the part of the id after the colon."""
    module: str
    """The Python module that defined it; the loader maps it to a batch name."""
    site: CallSite
    """The line of its ``def``."""
    flaws: tuple[Flaw, ...] = ()
    """Mistakes in the definition itself (it takes arguments, say)."""

    def __call__(self) -> object:
        return self.function()

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # Sent between processes without its function: a batch is loaded, and its
        # fixtures run, in the worker that imported it; the rest is plain data.
        return (_detached_fixture, (self.name, self.module, self.site, self.flaws))


def _detached_fixture(name: str, module: str, site: CallSite, flaws: tuple[Flaw, ...]) -> Fixture:
    return Fixture(function=_not_here, name=name, module=module, site=site, flaws=flaws)


def _not_here() -> object:
    raise RuntimeError("this fixture was loaded in another process and runs there")


@dataclass(frozen=True, slots=True, kw_only=True)
class Verified:
    """What a ``verified_output`` or ``transcript`` block claims a fixture returns (a ``chart``'s
    claims nothing but that its fixture runs and passes: its rows are judged as they are drawn)."""

    fixture: Fixture
    """The fixture that must return it."""
    expected: object
    """A JSON value that must be a recursive subset of the fixture's output."""
    helper: str = "verified_output"
    """The helper that showed it (``verified_output``, ``transcript``, ``chart``): problems name it."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Chart:
    """What a ``chart`` block draws once its fixture has run."""

    spec: dict[str, object]
    """The Vega-Lite specification, without ``data``."""
    key: str
    """The key of the fixture's output that holds the rows."""
    alt: str
    """What the chart shows, in words: its accessible name."""
    caption: str
    """The figure's caption, rendered: the table of its rows is named by it too."""


class Block(Markup):
    """HTML made by a helper, remembering what validation needs to know."""

    site: CallSite
    """Where the helper was called."""
    urls: tuple[str, ...]
    """Every link and image URL inside, to be checked against the site."""
    flaws: tuple[Flaw, ...]
    """Mistakes found when the helper was called."""
    verified: Verified | None
    """Set on ``verified_output``, ``transcript`` and ``chart`` blocks."""
    chart: Chart | None
    """Set on ``chart`` blocks."""

    @classmethod
    def make(
        cls,
        html: str,
        site: CallSite,
        *,
        urls: tuple[str, ...] = (),
        flaws: tuple[Flaw, ...] = (),
        verified: Verified | None = None,
        chart: Chart | None = None,
    ) -> Block:
        """Wrap ``html`` (already safe) with its facts."""
        block = cls(html)
        block.site, block.urls, block.flaws, block.verified, block.chart = site, urls, flaws, verified, chart
        return block


@dataclass(frozen=True, slots=True, kw_only=True)
class Revision:
    """One published version of an article, as the author wrote it."""

    slug: str
    """URL name: ``[a-z0-9-]``, 3 to 120 characters, unique in the site."""
    title: str
    """Plain text title."""
    categories: tuple[str, ...]
    """At least one; each gets a page."""
    excerpt: str
    """Plain text summary for lists and feeds."""
    cover: str | None
    """Site-relative path of the cover image, or None."""
    published: str
    """ISO date ``YYYY-MM-DD``."""
    lang: str | None
    """Language tag; None means the site's language."""
    body: tuple[Markup, ...]
    """Helper blocks and trusted HTML, joined by newlines."""
    sources: tuple[Source, ...]
    """What the text relies on."""
    reading_minutes: int | None
    """The author's figure, or None to compute it from the body."""
    site: CallSite
    """Where ``revision(...)`` was called."""
    flaws: tuple[Flaw, ...] = ()
    """Wrong types, missing fields and unknown fields found at the call."""
    draft: bool = False
    """Left out of the site unless the build includes drafts (``--drafts``)."""
    lines: Keywords = field(default_factory=Keywords, compare=False, repr=False)
    """Where each keyword the author passed was written."""
    revised: str | None = None
    """A later revision's own date (ISO); None for an article's first revision."""
    changes: str | None = None
    """A later revision's note of what changed and why, as written (inline Markdown)."""
    changes_html: str = ""
    """That note rendered (inline Markdown, raw HTML disabled)."""
    changes_urls: tuple[str, ...] = ()
    """The links inside that note, checked like the body's."""
    source_numbers: tuple[int, ...] = ()
    """Each of ``sources``' place in the list as written (an item that is not a ``Source`` is
    left out of ``sources``, not of the count); empty when they are 1, 2, 3…"""

    def numbered_sources(self) -> Iterator[tuple[int, Source]]:
        """Each source with its place in the list the author wrote, as problems name it."""
        return zip(self.source_numbers or range(1, len(self.sources) + 1), self.sources, strict=True)

    @property
    def later(self) -> bool:
        """Whether it declares itself a later revision of its article (``revised=`` or ``changes=``)."""
        return self.revised is not None or self.changes is not None

    @property
    def date(self) -> str:
        """The date this revision takes effect: ``revised`` for a later one, else ``published``."""
        return self.revised if self.revised is not None else self.published

    def at(self, name: str) -> CallSite:
        """Where the field ``name`` was written; the ``revision(`` line when it was not passed."""
        return field_site(self.site, self.lines, name)


def field_site(site: CallSite, keywords: Keywords, name: str) -> CallSite:
    """The line of keyword ``name`` of the call at ``site``, or ``site`` itself."""
    line = keywords.line(name) if name else None
    return site if line is None else CallSite(site.path, line)
