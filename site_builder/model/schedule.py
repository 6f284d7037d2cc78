"""Drafts and scheduled revisions: which revisions a build publishes, and how it marks them.

A revision is left out of the site when it is a draft (``draft=True``) or *scheduled*:
its ``published`` date is after the build's date. ``--drafts`` and ``--future`` include
them, marked on their page. The build's date is the UTC date of ``SOURCE_DATE_EPOCH``
when it is set, today's UTC date otherwise: UTC because the same ``SOURCE_DATE_EPOCH``
must give the same site on a laptop in Seoul and a CI runner in UTC. Every revision is
validated and its fixtures run whatever the schedule; only what is published depends on it.
"""

from __future__ import annotations

import datetime
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import NamedTuple

from site_builder.errors import UsageError
from site_builder.language.english import agree, count

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")

View = tuple[bool, str]
"""How an included revision is marked: (it is a draft, the date it is scheduled for or "")."""


class Timing(NamedTuple):
    """What decides whether a build publishes a revision."""

    draft: bool
    published: str
    """The date it takes effect as written: ``published``, or a later revision's ``revised``
    without its time of day (an ISO date once validated)."""
    categories: tuple[str, ...]
    """Its categories: a category page only left-out revisions list is left out too."""


def build_date(environ: Mapping[str, str] = os.environ) -> str:
    """The build's date (ISO): ``SOURCE_DATE_EPOCH``'s UTC date when set, today's UTC date otherwise."""
    epoch = environ.get("SOURCE_DATE_EPOCH", "").strip()
    if not epoch:
        return datetime.datetime.now(datetime.UTC).date().isoformat()
    if not epoch.isdigit():
        raise UsageError(f"SOURCE_DATE_EPOCH must be a whole number of seconds, not {epoch!r}")
    try:
        return datetime.datetime.fromtimestamp(int(epoch), tz=datetime.UTC).date().isoformat()
    except (OverflowError, OSError, ValueError) as exc:
        raise UsageError(f"SOURCE_DATE_EPOCH {epoch} is out of range: {exc}") from exc


def is_scheduled(published: str, today: str) -> bool:
    """Whether a ``published`` date (an ISO date; anything else is a problem already) is after ``today``."""
    return bool(_DATE.fullmatch(published)) and published > today


@dataclass(frozen=True, slots=True)
class Schedule:
    """One command's date and flags: what it publishes."""

    today: str
    """The build's date, ISO (see :func:`build_date`)."""
    drafts: bool = False
    """``--drafts``: include drafts."""
    future: bool = False
    """``--future``: include revisions scheduled after ``today``."""

    @classmethod
    def now(cls, *, drafts: bool = False, future: bool = False) -> Schedule:
        """The schedule of a command run now (``SOURCE_DATE_EPOCH`` when set)."""
        return cls(build_date(), drafts, future)

    def missing(self, timing: Timing) -> tuple[str, ...]:
        """The flags that would include a revision this schedule leaves out; () when it is published."""
        flags: tuple[str, ...] = ("--drafts",) if timing.draft and not self.drafts else ()
        if is_scheduled(timing.published, self.today) and not self.future:
            flags += ("--future",)
        return flags

    def why(self, timing: Timing) -> str:
        """What a revision is: ``a draft``, ``scheduled for 2099-01-01``, or ``a draft scheduled for …``."""
        later = f"scheduled for {timing.published}" if is_scheduled(timing.published, self.today) else ""
        return " ".join(filter(None, ("a draft" if timing.draft else "", later)))

    def view(self, timing: Timing) -> View | None:
        """How the revision is marked, or None when it is left out."""
        if self.missing(timing):
            return None
        return timing.draft, timing.published if is_scheduled(timing.published, self.today) else ""


def views(schedule: Schedule | None, timings: Iterable[Timing]) -> tuple[View | None, ...]:
    """Each revision's :meth:`Schedule.view`; with no schedule (``verify``), all of them, unmarked."""
    if schedule is None:
        return tuple((False, "") for _ in timings)
    return tuple(schedule.view(timing) for timing in timings)


def including(flags: Iterable[str], n: int) -> str:
    """``--drafts includes it``, ``--drafts / --future include them``: the flags that would
    include ``n`` left-out revisions."""
    named = tuple(flags)
    verb = "includes" if len(named) == 1 else "include"
    return f"{' / '.join(named)} {verb} {agree(n, 'it', 'them')}"


def counted(n: int, one: str, many: str) -> str:
    """``1 draft``, ``2 drafts``: every count of this module's messages goes through here."""
    return count(n, one, many)


@dataclass(frozen=True, slots=True)
class Omitted:
    """What a build left out, for its report."""

    drafts: int = 0
    """Drafts left out (a draft needs ``--drafts`` whatever its date)."""
    scheduled: int = 0
    """Other revisions left out for their date."""
    due: str = ""
    """The earliest date among those scheduled."""
    flags: tuple[str, ...] = ()
    """The flags that would include every one of them."""

    @classmethod
    def of(cls, schedule: Schedule, timings: Iterable[Timing]) -> Omitted:
        """What ``schedule`` leaves out of revisions with these timings."""
        drafts = scheduled = 0
        due, flags = "", set[str]()
        for timing in timings:
            missing = schedule.missing(timing)
            flags.update(missing)
            if "--drafts" in missing:
                drafts += 1
            elif missing:
                scheduled += 1
                due = min(due or timing.published, timing.published)
        return cls(drafts, scheduled, due, tuple(sorted(flags)))

    def message(self, lead: str = "left out") -> str | None:
        """``left out 1 draft and 2 scheduled revisions (the next is due 2099-01-01); --drafts /
        --future include them``, or None when nothing was left out."""
        parts = [counted(self.drafts, "draft", "drafts")] if self.drafts else []
        if self.scheduled:
            when = f"due {self.due}" if self.scheduled == 1 else f"the next is due {self.due}"
            parts.append(counted(self.scheduled, "scheduled revision", "scheduled revisions") + f" ({when})")
        if not parts:
            return None
        return f"{lead} {' and '.join(parts)}; {including(self.flags, self.drafts + self.scheduled)}"


@dataclass(frozen=True, slots=True)
class Window:
    """The build dates (``since`` <= date < ``until``) and flags for which a site's output
    stays the same: the next build answers "nothing changed" only inside it."""

    drafts: bool
    future: bool
    since: str
    """The earliest such date ("": any earlier date)."""
    until: str
    """The first date that changes the output ("": none does)."""

    @classmethod
    def of(cls, schedule: Schedule, timings: Iterable[Timing], *, published: bool) -> Window:
        """The window of a build under ``schedule`` of revisions with these ``timings``; with
        nothing ``published``, the feed and sitemap show the build's date itself."""
        today = schedule.today
        dates = [t.published for t in timings if _DATE.fullmatch(t.published)]
        since = max((d for d in dates if d <= today), default="")
        until = min((d for d in dates if d > today), default="")
        if not published:
            since = today
            until = min(until or _MAX, _next_day(today))
        return cls(schedule.drafts, schedule.future, since, until)

    def holds(self, schedule: Schedule) -> bool:
        """Whether a build under ``schedule`` gives the output this window was made for."""
        if (self.drafts, self.future) != (schedule.drafts, schedule.future):
            return False
        return self.since <= schedule.today and (not self.until or schedule.today < self.until)


_MAX = "9999-12-31"


def _next_day(date: str) -> str:
    """The day after ``date`` (ISO); the last date Python knows has no next day."""
    if date >= _MAX:
        return _MAX
    return (datetime.date.fromisoformat(date) + datetime.timedelta(days=1)).isoformat()
