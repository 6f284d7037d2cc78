"""Tests of the third revision of ``retry-decision-one-question``
(``articles/revised_2026_12_04_decision.py``, issue 37).

The second revision told operators that a configuration fixed within 24 hours of the
approval is sent within 10 minutes, and showed a check, ``fixWithin24hSentWithin10Min``,
that ran one fix, at 2 h 5 min. These tests run the model themselves at the edges of the
window and hold the latest revision's words and shown checks to those runs. Pointed at the
second revision (``LATEST = SECOND``), the tests of that item fail.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest
from article_batch import batch_of, failing_checks, run

from site_builder.authoring.body import body_text
from site_builder.model.batches import fixture_id

FIXTURE = "revised_2026_12_04_decision:decision_fix_window_edges"
SECOND = ("revised_2026_12:decision_lifetimes", "decision_revision")
THIRD = (FIXTURE, "decision3_revision")
LATEST = THIRD
"""Which revision the tests read: a fixture of its batch and the revision's name."""
MODEL = "revised_2026_12:decision_lifetimes"
DAY = 24 * 60 * 60
UNITS = {"일": 86400, "시간": 3600, "분": 60, "초": 1}


@pytest.fixture(scope="module")
def batch() -> ModuleType:
    """The third revision's batch as the site loader imports it."""
    return batch_of(FIXTURE)


@pytest.fixture(scope="module")
def model() -> ModuleType:
    """The batch holding the decision model (the second revision's), as the loader imports it."""
    return batch_of(MODEL)


@pytest.fixture(scope="module")
def latest() -> Any:
    fid, name = LATEST
    return getattr(batch_of(fid), name)


def seconds(words: str) -> int:
    """'23시간 50분' -> 85800: a duration as the article writes it."""
    found = re.findall(r"(\d+)(일|시간|분|초)", words)
    assert found and "".join(n + u for n, u in found) == words.replace(" ", ""), words
    return sum(int(n) * UNITS[u] for n, u in found)


def text_of(revision: Any) -> str:
    """The reader's text of the revision: body (tables included) and change note."""
    return body_text("\n".join(str(part) for part in revision.body)) + " " + (revision.changes or "")


def shown(revision: Any) -> Iterator[tuple[str, dict[str, Any]]]:
    """(fixture id, expected) of every ``verified_output`` of the revision."""
    for part in revision.body:
        verified = getattr(part, "verified", None)
        if verified is not None:
            yield fixture_id(verified.fixture), verified.expected


def fix_run(model: ModuleType, fix: int) -> Any:
    return model.decision_run(model.decision_fixed_at(fix), True)


# --- item 3: a fix within the window, as the operator is told -----------------


def test_what_the_operator_is_told_about_a_fix_holds_at_both_edges_of_the_window(
    latest: Any, model: ModuleType
) -> None:
    """The operator note of ``after_fix_wait`` names the last moment a fix is still sent
    within the recheck; every fix up to that moment (first second, the moment itself) is
    sent that soon, and the first second after it and the window's last second are not:
    what the note says of them (``expired``) is what the run ends with."""
    markup = html.unescape("\n".join(str(part) for part in latest.body))
    (note,) = re.findall(r"<code>after_fix_wait</code>: (.*?)\.?</td>", markup)
    claim = re.search(r"승인 뒤 (.+?)(안에|까지) 고치면 (.+?) 안에 지시가", note)
    assert claim, note
    limit, word, within = seconds(claim[1]), claim[2], seconds(claim[3])
    last = limit if word == "까지" else limit - 1  # "안에": before the limit; "까지": up to it
    for fix in sorted({0, last // 2, last}):
        run_ = fix_run(model, fix)
        assert run_.end == "done" and run_.received_at[-1] - fix <= within, (note, fix, run_.end)
    later = [fix for fix in (last + 1, DAY - 1) if fix < DAY]
    assert later, "the note covers the whole window: its last second must then be sent"
    for fix in later:
        assert fix_run(model, fix).end == "expired", (fix, note)
    assert "expired" in note, "the note does not say what a later fix gets"


def test_a_shown_check_about_when_a_fix_is_sent_ran_the_first_and_last_second(
    latest: Any, batch: ModuleType, model: ModuleType
) -> None:
    """A shown check whose name speaks of a fix being sent ran the window from its first
    second to its last, not one fix inside it."""
    named = [
        (fid, name)
        for fid, expected in shown(latest)
        if isinstance(expected, dict)
        for name in expected.get("checks", {})
        if re.match(r"(every)?[Ff]ix", name)
    ]
    assert named, "the revision shows no check about a fix"
    modules = {"revised_2026_12": model, "revised_2026_12_04_decision": batch}
    for fid, name in named:
        module, function = fid.split(":")
        output = run(modules[module], function)
        assert (output.get("firstSecond"), output.get("lastSecond")) == (0, DAY - 1), (fid, name)


def test_the_window_fixture_fails_when_it_runs_one_point_or_the_model_sends_later(
    batch: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each check of the window fixture can fail: run at one point (as the second revision's
    check did), the window check is false; a worker that lets a fix wait past its recheck
    breaks the within-10-minutes check."""
    assert failing_checks(run(batch, "decision_fix_window_edges")) == set()
    monkeypatch.setattr(batch, "decision_fix_window_seconds", lambda: (2 * 3600 + 5 * 60,))
    assert "windowFromFirstToLastSecond" in failing_checks(batch.decision_fix_window())
    monkeypatch.undo()
    slow = batch.decision_fixed_at

    def late_by_a_recheck(fix: int) -> Any:
        return slow(fix + 600)

    monkeypatch.setattr(batch, "decision_fixed_at", late_by_a_recheck)
    assert "everyFixUpToLastRecheckSentWithin10Min" in failing_checks(batch.decision_fix_window())


def test_the_change_note_names_the_second_revisions_check_and_the_last_fix(latest: Any) -> None:
    note = latest.changes or ""
    assert "fixWithin24hSentWithin10Min" in note
    assert "23시간 50분" in note and "decision_fix_window_edges" in note


def test_the_fixture_is_the_one_the_site_runs(batch: ModuleType) -> None:
    assert fixture_id(batch.decision_fix_window_edges) == FIXTURE


# --- Korean: small counts in native words, the ladder not read as a total --------


def test_small_counts_and_ordinals_are_native_words(latest: Any) -> None:
    text = text_of(latest)
    digits = re.findall(r"(?<![\d.,])([1-9]|10)\s?번(째)?", text)
    assert digits == [], digits
    assert "한 번을 넘지 않는다" in text and "네 번째 실패" in text


def test_the_ladder_is_not_read_as_a_total_time(latest: Any, model: ModuleType) -> None:
    """“30초, 2분, 10분 만에” read as the whole wait; the text gives the total the run takes."""
    text = body_text("\n".join(str(part) for part in latest.body))  # the change note quotes the old words
    assert "10분 만에" not in text
    total = model.decision_duration(model.decision_run(model.decision_always("again"), True).end_at)
    assert total == "12분 30초"
    assert f"{total} 만에" in text
