"""Which URLs an article may use, and where a site-relative one points.

Allowed: ``https:``, ``http:``, ``mailto:``, a site-relative path (``/…``) or a
fragment (``#…``). Anything else is a problem, never a silent rewrite. Before
the scheme is read, the URL is cleaned the way a browser cleans it (leading
control characters and spaces dropped, tabs and newlines removed anywhere), so
``java\\tscript:`` or `` javascript:`` cannot slip through.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

_STRIP = "".join(chr(c) for c in range(0x21))
_TAB_OR_NEWLINE = re.compile(r"[\t\n\r]")
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*):")
ALLOWED_SCHEMES = ("https", "http", "mailto")


@dataclass(frozen=True, slots=True)
class UrlVerdict:
    """The verdict on one URL."""

    error: str | None
    """Why the URL is not allowed, or None."""
    local_path: str | None
    """For a site-relative URL: the decoded path without query or fragment."""


def check_url(url: str) -> UrlVerdict:
    """Classify ``url``; a site-relative one comes back with its path to resolve."""
    cleaned = _TAB_OR_NEWLINE.sub("", url.strip(_STRIP))
    if not cleaned:
        return UrlVerdict("the URL is empty", None)
    if cleaned.startswith("#"):
        return UrlVerdict(None, None)
    if cleaned.startswith(("//", "/\\", "\\")):
        return UrlVerdict(f"protocol-relative URL {url!r} is not allowed; write https://", None)
    if cleaned.startswith("/"):
        return UrlVerdict(None, unquote(urlsplit(cleaned).path))
    match = _SCHEME.match(cleaned)
    if match is None:
        return UrlVerdict(f"relative URL {url!r} is not allowed; start it with '/' from the site root", None)
    scheme = match.group(1).lower()
    if scheme not in ALLOWED_SCHEMES:
        return UrlVerdict(
            f"URL scheme {scheme + ':'!r} is not allowed in {url!r}; "
            "use https:, http:, mailto:, /path or #fragment",
            None,
        )
    if scheme != "mailto" and not _host(cleaned):
        return UrlVerdict(f"URL {url!r} has no host", None)
    return UrlVerdict(None, None)


def _host(url: str) -> str | None:
    try:
        return urlsplit(url).hostname
    except ValueError:  # a malformed port or bracketed host
        return None
