"""Tests for revision 3 of ``retry-server-idempotency-record`` (issue 37, item 5 and the Russian
typography of the article).

Revision 2's source note said that ``changes()`` wraps ``sqlite3_changes()``; the SQLite page
has called it a wrapper around ``sqlite3_changes64()`` since that interface came in 3.37.0. The
tests check that the note, the cited release and the body say which SQLite the text means; that
the number of takeover races in the prose is the fixture's, glued to its word by a non-breaking
space; that the change note lists each item; and the typography of the whole article. Pointing
``MODULE`` and ``REVISION`` at revision 2 (``revised_2026_12``, ``server_revision``) makes them
fail.
"""

from __future__ import annotations

import re
import sys
from types import ModuleType
from typing import Any

import pytest
from article_batch import batch_of, failing_checks, run
from russian_text import PROSE_RULES, text_of

from site_builder.model.batches import MODULE_PREFIX

MODULE = "revised_2026_12_04_server"
REVISION = "server3_revision"
FIXTURES = ("revised_2026_12:server_sqlite_reservation", "revised_2026_12:server_takeover_race")


@pytest.fixture
def batch() -> ModuleType:
    """The batch that publishes revision 3, as the site loader imports it (its verified outputs
    print revision 2's fixtures, which the site loads without a problem)."""
    batch_of(*FIXTURES)
    return sys.modules[MODULE_PREFIX + MODULE]


@pytest.fixture
def article(batch: ModuleType) -> Any:
    return getattr(batch, REVISION)


def source(article: Any, url_part: str) -> Any:
    """The one source of the revision whose address contains ``url_part``."""
    [found] = [s for s in article.sources if url_part in s.url]
    return found


def prose(article: Any) -> str:
    return re.sub(r"<pre>.*?</pre>", " ", "\n".join(article.body), flags=re.S)


# --- item 5: which SQLite changes() wraps ------------------------------------------------


def test_the_changes_note_names_both_wrappers_and_their_versions(article: Any) -> None:
    note = source(article, "lang_corefunc.html#changes").note
    assert "sqlite3_changes64()" in note and "версии\u00a03.37.0" in note
    assert "sqlite3_changes()" in note and "июня 2020\u00a0года" in note


def test_the_release_that_added_changes64_and_the_c_interface_are_cited(article: Any) -> None:
    assert "sqlite3_changes64()" in source(article, "releaselog/3_37_0.html").note
    assert "типа результата" in source(article, "c3ref/changes.html").note
    chronology = source(article, "chronology.html").note
    assert all(
        f"{version}\u00a0— {date}" in chronology
        for version, date in [("3.32.3", "2020-06-18"), ("3.35.0", "2021-03-12"), ("3.37.0", "2021-11-27")]
    )


def test_the_body_says_which_sqlite_the_text_means(article: Any) -> None:
    body = prose(article)
    assert "Речь о SQLite июня 2020\u00a0года (3.32.3)" in body
    assert "<code>sqlite3_changes()</code>" in body and "<code>sqlite3_changes64()</code>" in body
    assert "С\u00a03.37.0" in body


def test_the_2020_form_still_passes_on_this_sqlite(batch: ModuleType) -> None:
    # what the body says makes no difference to the model: changes() read as 0 or 1
    output = run(batch, "server_sqlite_reservation")
    assert failing_checks(output) == set()
    assert output["checks"]["changesFormPassesEveryCheck"] is True


# --- the numbers of the prose -------------------------------------------------------------


def test_the_race_count_is_the_fixtures_and_keeps_its_word(batch: ModuleType, article: Any) -> None:
    runs = run(batch, "server_takeover_race")["takeoverRace"]["runs"]
    body = prose(article)
    assert f"<code>server_takeover_race</code> {runs}\u00a0раз роняет" in body
    assert f"{runs} раз" not in body


# --- the revision and its note -------------------------------------------------------------


def test_it_is_the_third_revision_of_the_article(article: Any) -> None:
    old = batch_of(*FIXTURES).server_revision
    assert (article.slug, article.published, article.lang) == (old.slug, old.published, old.lang)
    assert (old.revised, article.revised) == ("2026-12-01", "2026-12-04")


@pytest.mark.parametrize(
    "item",
    [
        "`sqlite3_changes()`",
        "`sqlite3_changes64()`",
        "3.37.0",
        "10\u00a0раз",
        "версии\u00a03.24.0",
        "§\u00a06.3.1",
        "IETF",
    ],
)
def test_the_changes_note_lists_each_item(article: Any, item: str) -> None:
    assert item in article.changes


# --- Russian typography ----------------------------------------------------------------------


@pytest.mark.parametrize("rule", sorted(PROSE_RULES))
def test_russian_typography(article: Any, rule: str) -> None:
    assert PROSE_RULES[rule].findall(text_of(article)) == []
