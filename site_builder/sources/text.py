"""A fetched page as a reader reads it (HTML, PDF or plain text made text), and the one
normalisation both a page and a quote go through before a quote is looked for in a page."""

from __future__ import annotations

import io
import logging
import re
import unicodedata

from bs4 import BeautifulSoup

UNSEEN = ("script", "style", "noscript", "template", "head", "svg", "math")
"""Elements whose text a reader never sees on the page."""

BLOCKS = frozenset(
    {"address", "article", "aside", "blockquote", "br", "caption", "dd", "details", "dialog", "div"}
    | {"dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5"}
    | {"h6", "header", "hr", "li", "main", "nav", "ol", "p", "pre", "section", "summary", "table"}
    | {"tbody", "td", "tfoot", "th", "thead", "tr", "ul"}
)
"""Elements a browser lays out apart from their neighbours: their text is not run into the
text around them (``<p>a</p><p>b</p>`` reads ``a b``; ``<b>H</b>ello`` still reads ``Hello``)."""

_SAME = str.maketrans(
    {
        **dict.fromkeys("\u2018\u2019\u201a\u201b\u2032\u0060\u00b4", "'"),
        **dict.fromkeys("\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb", '"'),
        **dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212", "-"),
        "\u2026": "...",
        **dict.fromkeys("\u00ad\u200b\u200c\u200d\u2060\ufeff", ""),
    }
)
"""Typographic quotes, dashes and the ellipsis as typed on a keyboard; soft hyphens and
zero-width characters dropped: a page set with “curly quotes” backs a quote typed with straight ones."""

_SPACES = re.compile(r"\s+")

_BROKEN_AT_HYPHEN = re.compile(r"(?<=\w)-[^\S\n]*\n\s*(?=\w)")
"""A line that ends in a hyphen inside a word, as plain-text RFCs wrap ``non-`` / ``idempotent``:
read as the one word it is, ``non-idempotent``."""


def normalised(text: str) -> str:
    """``text`` as quotes are matched: NFKC (a no-break space is a space, a ligature its
    letters), typographic quotes and dashes plain, a word wrapped at its hyphen joined again,
    every run of white space one space, case kept."""
    plain = unicodedata.normalize("NFKC", text).translate(_SAME)
    return _SPACES.sub(" ", _BROKEN_AT_HYPHEN.sub("-", plain)).strip()


def page_text(body: bytes, content_type: str) -> str | None:
    """What a reader of the page reads, normalised: the visible text of an HTML page, the
    text of a PDF's pages, or a plain text file's text; None for a PDF that cannot be read."""
    kind = content_type.split(";", 1)[0].strip().lower()
    if kind == "application/pdf" or body.startswith(b"%PDF-"):
        pdf = _pdf_text(body)
        return None if pdf is None else normalised(pdf)
    if kind.startswith("text/") and kind not in ("text/html", "text/xml"):
        return normalised(body.decode(_charset(content_type) or "utf-8", errors="replace"))
    return normalised(_html_text(body, _charset(content_type)))


def _html_text(body: bytes, charset: str | None) -> str:
    """The text an HTML page shows: unseen elements dropped, block elements kept apart."""
    soup = BeautifulSoup(body, "html.parser", from_encoding=charset)
    for unseen in soup.find_all(list(UNSEEN)):
        unseen.decompose()
    for block in soup.find_all(list(BLOCKS)):
        block.insert_before(" ")
        block.insert_after(" ")
    return soup.get_text()


def _pdf_text(body: bytes) -> str | None:
    """The text of every page of a PDF, one after the other; None when it cannot be read."""
    from pypdf import PdfReader
    from pypdf.errors import PyPdfError

    pypdf_log = logging.getLogger("pypdf")
    level = pypdf_log.level
    pypdf_log.setLevel(logging.ERROR)  # what it makes of a damaged file is said once, by us
    try:
        return " ".join(page.extract_text() or "" for page in PdfReader(io.BytesIO(body)).pages)
    except (PyPdfError, ValueError, KeyError, TypeError, OSError):
        return None
    finally:
        pypdf_log.setLevel(level)


def _charset(content_type: str) -> str | None:
    found = re.search(r"charset=[\"']?([\w.:-]+)", content_type, re.IGNORECASE)
    return found.group(1) if found else None
