"""Tests of the third revision of ``retry-client-one-intent-one-key``
(``articles/revised_2026_12_04_client.py``, issue 37).

The second revision made two mistakes of its own: its RFC 7230 note said RFC 9112 alone
replaced RFC 7230 with the same rule, and its prose said the first revision's check
``phasesAddUpToBudget`` could not fail. These tests hold the latest revision (``LATEST``)
to the sources and to the first revision's model: they run that model themselves, with a
fresh timer per attempt, and compare the prose and the new fixture with the run. Pointed
at the second revision (``LATEST = SECOND``), the tests of both items fail.
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

FIXTURE = "revised_2026_12_04_client:client_first_revision_timer"
SECOND = ("revised_2026_12:client_budget", "client_revision")
THIRD = (FIXTURE, "client3_revision")
LATEST = THIRD
"""Which revision the tests of the corrected items read: a fixture of its batch and its name."""
OLD_FIXTURE = "retry_2020_06:intent_budget"


@pytest.fixture(scope="module")
def batch() -> ModuleType:
    """The third revision's batch as the site loader imports it."""
    return batch_of(FIXTURE)


@pytest.fixture(scope="module")
def old() -> ModuleType:
    """The first revision's batch, as the site loader imports it."""
    return batch_of(OLD_FIXTURE)


@pytest.fixture(scope="module")
def latest() -> Any:
    """The revision the corrected items are checked on."""
    fid, name = LATEST
    return getattr(batch_of(fid), name)


def _texts(revision: Any) -> Iterator[tuple[str, str]]:
    """Every reader-facing text of a revision, without code and JSON blocks."""
    yield "title", revision.title
    yield "excerpt", revision.excerpt
    yield "changes", revision.changes
    for n, part in enumerate(revision.body):
        yield f"body[{n}]", re.sub(r"<pre>.*?</pre>", " ", str(part), flags=re.S)
    for source in revision.sources:
        yield source.url, f"{source.title} {source.note}"


def _body(revision: Any) -> str:
    return body_text("\n".join(revision.body))


def _paragraphs(revision: Any) -> list[str]:
    """The body's prose, one string per part, tags removed and spaces kept as written
    (``body_text`` folds a non-breaking space into an ordinary one)."""
    return [
        html.unescape(re.sub(r"<[^>]+>", "", text))
        for where, text in _texts(revision)
        if where.startswith("body")
    ]


def _fresh_timer_run(old: ModuleType, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """The first revision's own fixture, its model given a fresh timer per attempt."""
    monkeypatch.setattr(old.Client, "deadline_for_attempt", lambda self, intent: self.now_ms + old.BUDGET_MS)
    output = old.simulate_intent()
    assert isinstance(output, dict)
    return output


def test_the_fixture_is_the_one_the_site_runs(batch: ModuleType) -> None:
    assert fixture_id(batch.client_first_revision_timer) == FIXTURE
    assert failing_checks(run(batch, "client_first_revision_timer")) == set()


# --- Item 2: the first revision's phasesAddUpToBudget could fail -------------


def test_the_first_revisions_check_fails_under_a_fresh_timer(
    old: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The editor's probe, run here on the first revision's model: 10,900 ms, both checks false."""
    output = _fresh_timer_run(old, monkeypatch)
    assert sum(phase["ms"] for phase in output["phases"]) == 10_900
    assert output["checks"]["phasesAddUpToBudget"] is False
    assert output["checks"]["deadlineNeverExtended"] is False


def test_the_text_on_the_first_revisions_check_is_what_its_model_does(
    latest: Any, old: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The latest revision does not claim the check could not fail (it may quote the second
    revision saying so), and it prints the total the mutated first-revision model reaches."""
    text = "\n".join(_paragraphs(latest))
    sentences = [s for p in _paragraphs(latest) for s in re.split(r"(?<=[.!?])\s+", p)]
    claims = [s for s in sentences if "провалиться не могла" in s]
    assert claims, "the text says what the second revision claimed"
    assert all(s.startswith("Вторая редакция") for s in claims), claims
    total = sum(phase["ms"] for phase in _fresh_timer_run(old, monkeypatch)["phases"])
    assert f"{total:,}".replace(",", "\u00a0") + "\u00a0мс" in text
    assert "лишней, а не непроверяемой" in text


def test_the_new_fixture_runs_the_first_revisions_model(
    batch: ModuleType, old: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    shown = run(batch, "client_first_revision_timer")["runs"]
    assert shown["asPublished"]["firstRevisionChecks"] == {
        "deadlineNeverExtended": True,
        "phasesAddUpToBudget": True,
    }
    direct = _fresh_timer_run(old, monkeypatch)
    fresh = shown["freshTimerPerAttempt"]
    assert fresh["phasesTotalMs"] == sum(phase["ms"] for phase in direct["phases"])
    assert fresh["attempts"] == direct["attempts"]
    assert fresh["firstRevisionChecks"] == {
        name: direct["checks"][name] for name in ("deadlineNeverExtended", "phasesAddUpToBudget")
    }


def test_the_fixture_leaves_the_first_revision_as_published(batch: ModuleType, old: ModuleType) -> None:
    """The fixture runs the first revision's code with a rebound model name; the first
    revision's own fixture still sees its own model afterwards."""
    run(batch, "client_first_revision_timer")
    assert failing_checks(old.simulate_intent()) == set()
    assert failing_checks(batch.client_v1.simulate_intent()) == set()


def test_a_first_revision_model_that_keeps_its_deadline_makes_the_fixture_fail(
    batch: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    """If the mutation did nothing, the fixture's claim would be false and it says so."""
    monkeypatch.setattr(
        batch.FreshTimerPerAttempt, "deadline_for_attempt", lambda self, intent: intent.deadline_ms
    )
    output = batch.first_revision_timer_run()
    assert {"freshTimerFailsPhasesAddUpToBudget", "freshTimerFailsDeadlineNeverExtended"} <= failing_checks(
        output
    )


def test_the_changes_note_names_the_second_revisions_statement(latest: Any) -> None:
    assert "провалиться не могла" in latest.changes
    assert "таймером на каждую попытку" in latest.changes


# --- Item 1: RFC 7230 was replaced by RFC 9110 and RFC 9112 together --------


def test_the_rfc_note_does_not_say_rfc_9112_alone_replaced_rfc_7230(latest: Any) -> None:
    replaced = [
        (where, text)
        for where, text in _texts(latest)
        if where != "changes"  # the note quotes the second revision's claim to correct it
        and "RFC\u00a07230" in text
        and "RFC\u00a09112" in text
        and "замен" in text
    ]
    assert replaced
    for where, text in replaced:
        assert "RFC\u00a09110" in text, where
        assert "то же требование" not in text, where


def test_rfc_9110_is_cited_for_the_softened_client_rule(latest: Any) -> None:
    rfc9110 = [s for s in latest.sources if s.url.endswith("rfc9110.html#section-9.2.2")]
    assert len(rfc9110) == 1
    assert "MUST NOT" in rfc9110[0].note and "SHOULD NOT" in rfc9110[0].note
    body = "\n".join(_paragraphs(latest))
    assert "RFC\u00a09110 (§\u00a09.2.2)" in body and "SHOULD NOT" in body


# --- Item 3: Russian typography ---------------------------------------------


@pytest.mark.parametrize(
    ("rule", "pattern"),
    [
        ("space before a dash", r"[^\S\u00a0]—"),
        ("space inside a digit group", r"\d[^\S\u00a0]\d{3}\b"),
        ("space between a number and its unit", r"\d[^\S\u00a0](мс|с|₽|секунд\w*)(?!\w)"),
        ("space between a number and its word", r"\d[^\S\u00a0](раз|попыт|нажат|ключ|действ|выполнен)"),
        ("space in an RFC number", r"RFC[^\S\u00a0]\d"),
        ("§ without a non-breaking space", r"§(?!\u00a0)"),
        ("an ordinal in digits", r"\d-(й|я|е|го|му)\b"),
        ("a small count in digits", r"(?<![\d\u00a0])[1-9]\u00a0(раз|попыт|нажат|ключ|действ|выполнен)"),
    ],
)
def test_russian_typography(latest: Any, rule: str, pattern: str) -> None:
    wrong = [(where, m.group()) for where, text in _texts(latest) for m in re.finditer(pattern, text)]
    assert not wrong, f"{rule}: {wrong}"


def test_the_table_column_speaks_of_one_attempt_in_words(batch: ModuleType) -> None:
    rows = batch.client3_table_rows(batch.client3_shown_table["runs"])
    assert rows[0][3] == "`201`: одна\u00a0попытка, закрыто успехом"
    assert rows[1][3] == "тайм-аут\u00a0→ `201`: пауза 250\u00a0мс, две\u00a0попытки, закрыто успехом"


def test_the_budget_text_names_the_attempt_in_words(batch: ModuleType) -> None:
    assert "после второй попытки клиент останавливается" in batch.client3_budget_text(
        batch.client3_shown_budget
    )
    after = batch.client3_identity_after(batch.client3_shown_identity)
    assert "выполняет операцию один\u00a0раз" in after
    assert "всем четырём\u00a0действиям" in after


def test_body_is_within_the_limits(batch: ModuleType) -> None:
    assert 5000 <= len(_body(batch.client3_revision)) <= 15000
    assert len(batch.client3_revision.sources) >= 2
