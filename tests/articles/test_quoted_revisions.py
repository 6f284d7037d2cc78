"""Tests of the revisions of 5 December 2026 (``articles/revised_2026_12_05_*.py``, issue 36):
each article's sources quote the sentences its claims rest on, and what each change note says
was changed is what changed.

Each keeps the blocks of the revision before it (the third; the spec article's second), replaces
the ones its note names, and gives some of that revision's sources a ``quote`` with nothing else
about them changed. These tests compare the two revisions of each article as the site loads
them, so a note that counts the quoted sources wrongly, a block changed without a word in the
note, or a source whose note changed on the way fails here. Whether the cited pages still
contain the quotes is what ``site-builder check-sources`` asks the web; the matching rules it
uses are tested in ``tests/sources``."""

from __future__ import annotations

from typing import Any

import pytest
from article_batch import _own_site
from bs4 import BeautifulSoup

from site_builder.authoring.body import body_text, sources_html

ARTICLES = {
    "retry-client-one-intent-one-key": (4, 1, "К четырём источникам добавлены цитаты"),
    "retry-server-idempotency-record": (7, 1, "К семи источникам добавлены цитаты"),
    "retry-diagnosis-lost-response": (4, 1, "К четырём источникам добавлены цитаты"),
    "retry-decision-one-question": (3, 1, "세 출처에"),
    "retry-spec-read-as-a-test": (1, 1, "The RFC 9110 source quotes"),
}
"""Slug: the sources the new revision quotes, the blocks it replaces, the note's count of them."""


def revisions_of(slug: str) -> list[Any]:
    return [revision for _, revision in _own_site().revisions() if revision.slug == slug]


def quoting_revision(slug: str) -> tuple[Any, Any]:
    """The revision of 5 December that quotes the sources, and the one before it (later ones,
    such as the charts drawn that evening, follow it)."""
    revisions = revisions_of(slug)
    (at,) = [n for n, revision in enumerate(revisions) if revision.revised == "2026-12-05"]
    return revisions[at - 1], revisions[at]


@pytest.mark.parametrize("slug", sorted(ARTICLES))
def test_the_new_revision_quotes_what_its_note_says_and_changes_nothing_else(slug: str) -> None:
    quoted_count, replaced_count, said = ARTICLES[slug]
    before, after = quoting_revision(slug)
    assert before.revised < after.revised
    assert said in after.changes

    assert all(not source.quote for source in before.sources)
    quoted = [source for source in after.sources if source.quote]
    assert len(quoted) == quoted_count
    # Every source is the earlier revision's, title, address and note as they were.
    assert [(s.title, s.url, s.note) for s in after.sources] == [
        (s.title, s.url, s.note) for s in before.sources
    ]

    assert len(after.body) == len(before.body)
    replaced = [i for i, (old, new) in enumerate(zip(before.body, after.body, strict=True)) if old != new]
    assert len(replaced) == replaced_count


@pytest.mark.parametrize("slug", sorted(ARTICLES))
def test_each_quote_is_shown_under_its_source_as_a_quotation_of_its_address(slug: str) -> None:
    after = revisions_of(slug)[-1]
    page = BeautifulSoup(sources_html(after, "Sources", after.lang), "html.parser")
    shown = [(q.parent.a["href"], q["cite"], q.get_text()) for q in page.find_all("blockquote")]
    assert shown == [(s.url, s.url, s.quote) for s in after.sources if s.quote]


def test_the_rfc_7230_paraphrase_now_has_the_words_that_make_a_key_a_means() -> None:
    # The client and diagnosis articles paraphrased RFC 7230 §6.3.1 without "regardless of the
    # method"; their revisions of 5 December quote the sentence and say those words in the text.
    for slug in ("retry-client-one-intent-one-key", "retry-diagnosis-lost-response"):
        before, after = quoting_revision(slug)
        rfc7230 = next(s for s in after.sources if "rfc7230" in s.url)
        assert "regardless of the method" in rfc7230.quote
        assert "regardless of the method" not in body_text("\n".join(before.body))
        assert "regardless of the method" in body_text("\n".join(after.body))
