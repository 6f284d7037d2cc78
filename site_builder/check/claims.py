"""Judge fixture outcomes: the checks must all be ``True``, and every
``verified_output`` must be a recursive subset of what its fixture returned.

This is what keeps the text an article prints from drifting away from the code
that backs it.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from site_builder.authoring.model import CallSite
from site_builder.check.fixture_runs import Frame, Outcome
from site_builder.errors import Problem
from site_builder.model.batches import relative_to_root
from site_builder.runtime.pickled import quick_state


def fixture_failure(outcome: Outcome) -> str | None:
    """Why a fixture failed, or None when it passed."""
    if outcome.error is not None:
        return outcome.error
    output = outcome.output
    checks = output.get("checks") if isinstance(output, dict) else None
    if not isinstance(checks, dict):
        return 'returned no "checks": a fixture must return {"checks": {name: True, …}}'
    if not checks:
        return '"checks" is empty; name at least one check that must be True'
    failing = [name for name, value in checks.items() if value is not True]
    if failing:
        shown = ", ".join(f"{name} = {json.dumps(checks[name], ensure_ascii=False)}" for name in failing)
        return f"checks failed: {shown} (each check must be true)"
    return None


def differences(expected: object, actual: object, path: str = "$") -> Iterator[str]:
    """Each place where ``expected`` is not contained in ``actual``."""
    if isinstance(expected, dict):
        yield from _object_differences(expected, actual, path)
    elif isinstance(expected, list):
        yield from _list_differences(expected, actual, path)
    elif type(expected) is not type(actual) or expected != actual:
        # 1, 1.0 and true print differently, so they are different claims.
        printed, returned = _shown_apart(expected, actual)
        yield f"{path}: the article prints {printed}, the fixture returns {returned}"


def _object_differences(expected: dict[object, object], actual: object, path: str) -> Iterator[str]:
    """An object printed: each key it shows, in the fixture's object too, with a value that holds
    what is shown."""
    if not isinstance(actual, dict):
        yield f"{path}: the article prints an object, the fixture returns {_show(actual)}"
        return
    for key, value in expected.items():
        where = f"{path}.{key}"
        if key not in actual:
            yield f"{where}: the article prints {_show(value)}, the fixture returns no such key"
        else:
            yield from differences(value, actual[key], where)


def _list_differences(expected: list[object], actual: object, path: str) -> Iterator[str]:
    """A list printed: the fixture's list as long, item by item holding what is shown."""
    if not isinstance(actual, list) or len(actual) != len(expected):
        yield f"{path}: the article prints {_show(expected)}, the fixture returns {_show(actual)}"
        return
    for index, (want, got) in enumerate(zip(expected, actual, strict=True)):
        yield from differences(want, got, f"{path}[{index}]")


def _show(value: object, start: int = 0) -> str:
    text = json.dumps(value, ensure_ascii=False)
    if len(text) <= 80:
        return text
    head = "…" if start else ""
    return head + text[start : start + 77] + ("…" if start + 77 < len(text) else "")


def _shown_apart(expected: object, actual: object) -> tuple[str, str]:
    """Both values, cut (when long) around where they first differ, so the difference shows."""
    printed, returned = json.dumps(expected, ensure_ascii=False), json.dumps(actual, ensure_ascii=False)
    same = next((n for n, (a, b) in enumerate(zip(printed, returned, strict=False)) if a != b), None)
    if same is None:
        same = min(len(printed), len(returned))
    start = max(0, same - 30) if same > 60 else 0
    return _show(expected, start), _show(actual, start)


def fixture_problems(
    root: Path, fixtures: Mapping[str, CallSite], outcomes: Mapping[str, Outcome]
) -> list[Problem]:
    """One problem per fixture of ``fixtures`` (id → its ``def``) whose outcome is a failure."""
    problems = []
    for fid, where in fixtures.items():
        outcome = outcomes.get(fid)
        failure = None if outcome is None else failure_text(root, outcome)
        if failure is None:
            continue
        problems.append(
            Problem(
                path=relative_to_root(root, where.path),
                line=where.line,
                subject=f"fixture {fid}",
                rule="fixture",
                message=failure,
            )
        )
    return problems


def failure_text(root: Path, outcome: Outcome) -> str | None:
    """Why a fixture failed, with its own frames for an exception; None when it passed."""
    failure = fixture_failure(outcome)
    if failure is not None and outcome.frames:
        failure += " at " + _frames_text(root, outcome.frames)
    return failure


def _frames_text(root: Path, frames: tuple[Frame, ...]) -> str:
    """The fixture's own frames, repeats folded (a RecursionError has a thousand)."""
    shown = [
        f"{relative_to_root(root, frame.path)}:{frame.line} in {frame.function}"
        + (f" (×{n})" if n > 1 else "")
        for frame, n in ((key, len(list(group))) for key, group in itertools.groupby(frames))
    ]
    if len(shown) > 8:
        shown = [*shown[:3], f"… {len(shown) - 6} more …", *shown[-3:]]
    return ", ".join(shown)


@quick_state
@dataclass(frozen=True, slots=True, kw_only=True)
class Claim:
    """A ``verified_output`` or ``transcript`` block: what it prints, and the fixture that must
    return it."""

    where: CallSite
    """Where the block was written."""
    slug: str
    """The revision's slug as written."""
    fixture: str
    """The fixture's id."""
    expected: object
    """What the block prints, as JSON reads it back."""
    sound: bool
    """Well-formed (no flaw of its own): only a sound claim is judged against its fixture."""
    helper: str = "verified_output"
    """The helper that showed it: problems name it."""

    @property
    def subject(self) -> str:
        """The subject of the revision's problems."""
        return self.slug or "revision"


def drift_problems(root: Path, claims: Iterable[Claim], outcomes: Mapping[str, Outcome]) -> Iterator[Problem]:
    """One problem per ``verified_output`` whose claim its passing fixture contradicts."""
    for claim in claims:
        outcome = outcomes.get(claim.fixture)
        if not claim.sound or outcome is None or fixture_failure(outcome) is not None:
            continue
        found = list(differences(claim.expected, outcome.output))
        if found:
            detail = "; ".join(found)
            fid = claim.fixture
            yield Problem(
                path=relative_to_root(root, claim.where.path),
                line=claim.where.line,
                subject=claim.subject,
                rule="verified-drift",
                message=f"{claim.helper} of {fid} does not match what it returns: {detail}",
            )


def claim_report(root: Path, claims: Iterable[Claim], outcome: Outcome) -> list[dict[str, object]]:
    """Every ``verified_output`` of ``claims`` (those backed by one fixture), with whether
    it still holds against that fixture's ``outcome``."""
    found: list[dict[str, object]] = []
    passed = fixture_failure(outcome) is None
    for claim in claims:
        diffs = list(differences(claim.expected, outcome.output)) if passed else []
        status = "not checked" if not passed else "drifted" if diffs else "matches"
        found.append(
            {
                "slug": claim.slug,
                "path": relative_to_root(root, claim.where.path),
                "line": claim.where.line,
                "status": status,
                "differences": diffs,
            }
        )
    return found


def as_json(value: object) -> object:
    """What the article prints, as JSON reads it back: tuples become lists, keys strings."""
    try:
        return json.loads(json.dumps(value, allow_nan=False))
    except (TypeError, ValueError):
        return None


def same_every_time(runs: list[Outcome]) -> Outcome:
    """The first run's outcome, turned into a failure if a later run disagrees with it."""
    first = runs[0]
    for number, later in enumerate(runs[1:], 2):
        before, after = fixture_failure(first), fixture_failure(later)
        if (before is None) != (after is None):
            verdicts = f"run 1 {'passed' if before is None else 'failed'}, run {number} " + (
                "passed" if after is None else f"failed: {after}"
            )
            return dataclasses.replace(first, error=f"is not deterministic: {verdicts}")
        found = list(differences(first.output, later.output)) if before is None else []
        if found:
            detail = (
                "; ".join(found[:5])
                .replace("the article prints", "run 1 returned")
                .replace("the fixture returns", f"run {number} returned")
            )
            return dataclasses.replace(first, error=f"is not deterministic: {detail}")
    return first
