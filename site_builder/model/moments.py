"""When a revision takes effect: a date, or a date and time for a correction made the day
of the revision it corrects.

``published`` is an ISO date (``2026-12-04``). ``revised`` is one too, or a date and time
with its offset from UTC (``2026-12-04T15:30Z``, ``2026-12-04T23:30:15+09:00``), so that
an article corrected within hours of its publication is still an ordered history. The
date as written decides the schedule, as ``published``'s does; the time only orders a
day's revisions, and is shown to readers beside the date.
"""

from __future__ import annotations

import datetime
import re

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_TIMED = re.compile(r"(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(:\d{2})?(Z|[+-]\d{2}:\d{2})")

EXAMPLE_TIME = "T15:30Z"
"""The time a message suggests adding to a date."""


def is_date(text: str) -> bool:
    """Whether ``text`` is an ISO date of the calendar (``2026-12-04``)."""
    if not _DATE.fullmatch(text):
        return False
    try:
        datetime.date.fromisoformat(text)
    except ValueError:
        return False
    return True


def is_moment(text: str) -> bool:
    """Whether ``text`` is an ISO date, or a date and a time with its UTC offset."""
    return is_date(text) or _instant(text) is not None


def has_time(text: str) -> bool:
    """Whether ``text`` gives a time of day (a valid moment with one)."""
    return _instant(text) is not None


def day(text: str) -> str:
    """The date of a moment as written (``2026-12-04T23:30+09:00`` → ``2026-12-04``)."""
    return text[:10]


def after(earlier: str, later: str) -> bool:
    """Whether ``later`` is unambiguously after ``earlier`` (both valid moments): two times
    compare as instants; otherwise the dates decide, and one day's date is followed only by
    a time that day (a date alone says "that day", not when in it)."""
    first, second = _instant(earlier), _instant(later)
    if first is not None and second is not None:
        return second > first
    if day(later) != day(earlier):
        return day(later) > day(earlier)
    return first is None and second is not None


def machine_form(text: str) -> str:
    """A moment as sitemaps, page metadata and ``<time datetime>`` take it: a date as it is,
    a date and time in RFC 3339 with seconds (:func:`timestamp`)."""
    return timestamp(text) if has_time(text) else text


def sort_key(text: str) -> tuple[str, str]:
    """Orders moments of different articles: by date as written, then a date alone before
    that day's times, times by their instant (UTC)."""
    instant = _instant(text)
    return day(text), "" if instant is None else instant.isoformat()


def timestamp(text: str) -> str:
    """RFC 3339 with seconds, as Atom and sitemaps take it: a date is its midnight in UTC,
    a time keeps its offset (``2026-12-04T15:30Z`` → ``2026-12-04T15:30:00Z``)."""
    match = _TIMED.fullmatch(text)
    if match is None:
        return f"{text}T00:00:00Z"
    date, minutes, seconds, offset = match.groups()
    return f"{date}T{minutes}{seconds or ':00'}{offset}"


def shown(text: str) -> str:
    """A moment as readers see it: ``2026-12-04``, ``2026-12-04 15:30 UTC``,
    ``2026-12-04 23:30 UTC+09:00`` (seconds only when not ``:00``)."""
    match = _TIMED.fullmatch(text)
    if match is None:
        return text
    date, minutes, seconds, offset = match.groups()
    zone = "UTC" if offset == "Z" else f"UTC{offset}"
    return f"{date} {minutes}{'' if seconds in (None, ':00') else seconds} {zone}"


def _instant(text: str) -> datetime.datetime | None:
    """The UTC instant of a date and time; None for a date alone or anything invalid."""
    if _TIMED.fullmatch(text) is None:
        return None
    try:
        moment = datetime.datetime.fromisoformat(timestamp(text).replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment.astimezone(datetime.UTC)
