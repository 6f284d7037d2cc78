"""What the tests of the third revisions (issue 37) call a Russian typography mistake, and the
text of a revision a reader reads, where they look for one."""

from __future__ import annotations

import re
from typing import Any

PROSE_RULES = {
    "a breakable space before an em dash": re.compile(r"[^\S\u00a0]—"),
    "a breakable space inside a digit group": re.compile(r"\d[^\S\u00a0]\d{3}\b"),
    # a number not glued to a name before it (as in «RFC 7231 выделяет»), then its word
    "a breakable space between a number and its word": re.compile(
        r"(?<![\w\u00a0.])\d+(?:\.\d+)*[^\S\u00a0][а-яё]", re.I
    ),
    "a breakable space between a word and its number": re.compile(r"(версии|Попытка|RFC)[^\S\u00a0]\d"),
    "no space after the section sign": re.compile(r"§[^\u00a0]"),
    "a small ordinal in digits": re.compile(r"\d-(й|я|е|го|м)\b"),
    "one spelled as a digit": re.compile(r"\b1[^\S\u00a0]раз\b"),
}


def text_of(article: Any) -> str:
    """What a reader reads: body without code blocks, titles and notes of sources, the note; the
    pieces apart, so that the end of one and the start of the next never read as one phrase."""
    body = re.sub(r"<pre>.*?</pre>", " ¶ ", "\n".join(article.body), flags=re.S)
    sources = [f"{source.title} ¶ {source.note}" for source in article.sources]
    return " ¶ ".join([article.title, article.excerpt, body, *sources, article.changes])
