"""A small site with one published revision, one draft and one scheduled revision, for the
tests of drafts and schedules (tests/render/test_drafts.py) and of the cache
(tests/pipeline/test_incremental.py)."""

from __future__ import annotations

import datetime

from tests.support.sites import HEADER

PUBLISHED, DRAFT, LATER = "published-note", "draft-note", "later-note"
DUE = "2099-01-01"
"""The scheduled revision's date."""
DRAFT_WORD, LATER_WORD = "zanzibarquux", "quuxplorer"
"""Words only the draft's and the scheduled revision's pages hold (for the search index)."""

SOURCES = """\
    sources=[Source(title="A", url="https://a.example/", note="a"),
             Source(title="B", url="https://b.example/", note="b")],
"""

MAIN = (
    HEADER
    + f'''

@fixture
def answer() -> dict:
    return {{"value": 42, "checks": {{"isAnswer": True}}}}


published = revision(
    slug="{PUBLISHED}", title="Published", categories=["Notes"], excerpt="Out now.",
    published="2020-06-18",
    body=[paragraph("Enough words for the published note, visible to all.")],
{SOURCES})
draft = revision(
    slug="{DRAFT}", title="Draft", categories=["Notes", "Drafts only"], excerpt="Not yet.",
    published="2020-06-10", draft=True,
    body=[paragraph("The {DRAFT_WORD} words of the draft, for its author only."),
          verified_output(answer, expected={{"value": 42}})],
{SOURCES})
revisions = [published, draft]
'''
)

LATER_BATCH = (
    HEADER
    + f'''
revisions = [revision(
    slug="{LATER}", title="Later", categories=["Later"], excerpt="Soon.",
    published="{DUE}",
    body=[paragraph("The {LATER_WORD} words of the scheduled note, due later.")],
{SOURCES})]
'''
)

FILES = {"articles/main.py": MAIN, "articles/later.py": LATER_BATCH}


def epoch(date: str, seconds: int = 0) -> str:
    """``SOURCE_DATE_EPOCH`` for midnight UTC of ``date``, plus ``seconds``."""
    midnight = datetime.datetime.fromisoformat(date).replace(tzinfo=datetime.UTC)
    return str(int(midnight.timestamp()) + seconds)


BUILD_DATE = "2024-01-01"
"""The date the tests build on, unless a test moves it."""
