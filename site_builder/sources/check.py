"""The sources of the latest revisions checked: each address asked once (or not at all while
its kept answer is young), then what it answered judged at every ``Source(`` that cites it."""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from urllib.parse import urldefrag

from site_builder.errors import Problem
from site_builder.model.batches import problem_at
from site_builder.model.cited import Cited
from site_builder.sources.client import Answer, Client
from site_builder.sources.store import Answers, Kept
from site_builder.sources.text import normalised, page_text

DAY = 86400.0
ASKING = 8
"""Addresses asked at once (each host is also held to the client's own limit)."""


@dataclass(frozen=True, slots=True)
class Citation:
    """A source as one revision cites it."""

    slug: str
    cited: Cited


@dataclass(frozen=True, slots=True, kw_only=True)
class Look:
    """What one address came to: its kept answer, or why it has none."""

    kept: Kept | None = None
    failure: str = ""
    requests: int = 0
    """Requests this run sent for it (0: the kept answer was young enough)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Checked:
    """The findings of a run, and what it cost."""

    problems: tuple[Problem, ...]
    citations: int
    addresses: int
    asked: int
    """Addresses this run asked their servers about."""
    requests: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Asking:
    """How a run asks: the client, the kept answers, how old one may be, and the time now."""

    client: Client
    answers: Answers
    max_age_days: int
    now: float


def check_sources(root: Path, citations: Sequence[Citation], asking: Asking) -> Checked:
    """Every finding about ``citations``, sorted by file and line. Each page is asked about once,
    whatever ``#fragment`` its citations add (a server never sees one)."""
    by_url: dict[str, list[Citation]] = {}
    for citation in citations:
        by_url.setdefault(urldefrag(citation.cited.url).url, []).append(citation)
    wanted = {url: any(c.cited.quote.strip() for c in cites) for url, cites in by_url.items()}
    with ThreadPoolExecutor(ASKING, thread_name_prefix="check-sources") as pool:
        looks = dict(zip(by_url, pool.map(lambda url: _look(url, wanted[url], asking), by_url), strict=True))
    problems = [p for url, cites in by_url.items() for c in cites for p in _findings(root, c, looks[url])]
    return Checked(
        problems=tuple(sorted(problems, key=Problem.sort_key)),
        citations=len(citations),
        addresses=len(by_url),
        asked=sum(1 for look in looks.values() if look.requests),
        requests=sum(look.requests for look in looks.values()),
    )


def _look(url: str, wants_text: bool, asking: Asking) -> Look:
    """The answer of ``url``: the kept one while it is young (and holds the text a quote needs),
    else the server's, asked only whether the page changed when a kept one can say so."""
    kept = _usable(asking.answers.get(url), wants_text)
    if kept is not None and asking.now - kept.fetched < asking.max_age_days * DAY:
        return Look(kept=kept)
    answer = asking.client.get(url, _validators(kept))
    if answer.failure:
        return Look(failure=answer.failure, requests=answer.requests)
    if answer.status == 304:
        if kept is None or not _validators(kept):
            failure = "answers 304 Not Modified to a request for the page"
            return Look(failure=failure, requests=answer.requests)
        fresh = replace(kept, fetched=asking.now, moved=answer.moved)
    else:
        fresh = _kept(url, answer, wants_text, asking.now)
    asking.answers.put(fresh)
    return Look(kept=fresh, requests=answer.requests)


def _usable(kept: Kept | None, wants_text: bool) -> Kept | None:
    """``kept``, unless a quote needs the page's text and it holds none (the quote was added
    since): then the page is asked for whole."""
    if kept is not None and wants_text and kept.text is None and not kept.unreadable:
        return None
    return kept


def _validators(kept: Kept | None) -> dict[str, str]:
    """The headers that ask a server whether the page ``kept`` holds has changed."""
    if kept is None:
        return {}
    asked = {"If-None-Match": kept.etag, "If-Modified-Since": kept.last_modified}
    return {name: value for name, value in asked.items() if value}


def _kept(url: str, answer: Answer, wants_text: bool, now: float) -> Kept:
    """What is kept of a page a server sent: its text only when a quote needs it."""
    text = page_text(answer.body, answer.content_type) if wants_text else None
    return Kept(
        url=url,
        fetched=now,
        moved=answer.moved,
        etag=answer.etag,
        last_modified=answer.last_modified,
        text=text,
        unreadable=wants_text and text is None,
    )


def _findings(root: Path, citation: Citation, look: Look) -> list[Problem]:
    """What is wrong with one citation, given what its address came to."""
    cited = citation.cited

    def at(rule: str, message: str) -> Problem:
        return problem_at(root, cited.where, citation.slug, rule, message)

    if look.kept is None:
        return [at("source-unreachable", f"source {cited.url} {look.failure}")]
    found = []
    if look.kept.moved:
        moved = f"source {cited.url} has moved for good (permanent redirect) to {look.kept.moved}: cite that"
        found.append(replace(at("source-moved", moved), severity="warning"))
    quote, text = normalised(cited.quote), look.kept.text or ""
    if quote and look.kept.unreadable:
        unread = f"source {cited.url} is a PDF whose text cannot be read to find the quote"
        found.append(at("source-quote", unread))
    elif quote and quote not in text:
        missing = f"source {cited.url} does not contain the quote{_nearest(quote, text)}"
        found.append(at("source-quote", missing))
    return found


def _nearest(quote: str, text: str) -> str:
    """``; the longest part of it on the page: "..."`` naming the longest run of the quote's
    words the page holds, when it is a third of them and three words or more (a hint at what
    changed); else empty."""
    words = quote.split(" ")
    best: list[str] = []
    for start in range(len(words)):
        end = start + len(best) + 1  # only a run longer than the best so far is worth a look
        while end <= len(words) and " ".join(words[start:end]) in text:
            best, end = words[start:end], end + 1
    enough = len(best) >= max(3, len(words) // 3)
    return f'; the longest part of it on the page: "{" ".join(best)}"' if enough else ""
