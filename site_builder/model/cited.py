"""A source as ``check-sources`` asks about it: where it was written, its address and the
passage it quotes, kept with each revision's refs so the command needs no batch again."""

from __future__ import annotations

from typing import NamedTuple

from site_builder.authoring.model import CallSite


class Cited(NamedTuple):
    """One ``Source(...)`` of a revision whose URL validation accepted."""

    where: CallSite
    """The line of its ``Source(``: where every finding about it is reported."""
    url: str
    """The address as the author wrote it."""
    quote: str
    """The passage the page must contain; empty when it quotes nothing."""


def web_address(url: str) -> bool:
    """Whether ``url`` is one ``check-sources`` fetches: http or https."""
    return url.strip().lower().startswith(("http://", "https://"))
