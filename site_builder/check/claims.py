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
from pathlib import Path

from site_builder.authoring.model import Block, CallSite, Fixture
from site_builder.check.fixture_runs import Frame, Outcome
from site_builder.check.load import Site, fixture_id, relative_to_root
from site_builder.errors import Problem


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
        if not isinstance(actual, dict):
            yield f"{path}: the article prints an object, the fixture returns {_show(actual)}"
            return
        for key, value in expected.items():
            where = f"{path}.{key}"
            if key not in actual:
                yield f"{where}: the article prints {_show(value)}, the fixture returns no such key"
            else:
                yield from differences(value, actual[key], where)
    elif isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            yield f"{path}: the article prints {_show(expected)}, the fixture returns {_show(actual)}"
            return
        for index, (want, got) in enumerate(zip(expected, actual, strict=True)):
            yield from differences(want, got, f"{path}[{index}]")
    elif type(expected) is not type(actual) or expected != actual:
        # 1, 1.0 and true print differently, so they are different claims.
        yield f"{path}: the article prints {_show(expected)}, the fixture returns {_show(actual)}"


def _show(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 80 else text[:77] + "…"


def outcome_problems(site: Site, outcomes: Mapping[str, Outcome]) -> list[Problem]:
    """Failed fixtures, and ``verified_output`` blocks their fixture contradicts."""
    problems = fixture_problems(site.root, site.fixtures(), outcomes)
    problems.extend(drift_problems(site.root, site_claims(site), outcomes))
    return problems


def fixture_problems(
    root: Path, fixtures: Mapping[str, Fixture], outcomes: Mapping[str, Outcome]
) -> list[Problem]:
    """One problem per fixture of ``fixtures`` whose outcome is a failure."""
    problems = []
    for fid, fx in fixtures.items():
        outcome = outcomes.get(fid)
        failure = None if outcome is None else failure_text(root, outcome)
        if failure is None:
            continue
        problems.append(
            Problem(
                path=relative_to_root(root, fx.site.path),
                line=fx.site.line,
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


Claim = tuple[CallSite, str, str, object]
"""A well-formed ``verified_output``: (where, subject, fixture id, what it prints as JSON)."""


def site_claims(site: Site) -> list[Claim]:
    """Every well-formed ``verified_output`` of the site, in site order."""
    return [
        (
            block.site,
            rev.slug or "revision",
            fixture_id(block.verified.fixture),
            as_json(block.verified.expected),
        )
        for _, rev in site.revisions()
        for block in rev.body
        if isinstance(block, Block) and block.verified is not None and not block.flaws
    ]


def drift_problems(root: Path, claims: Iterable[Claim], outcomes: Mapping[str, Outcome]) -> Iterator[Problem]:
    """One problem per ``verified_output`` whose claim its passing fixture contradicts."""
    for where, subject, fid, expected in claims:
        outcome = outcomes.get(fid)
        if outcome is None or fixture_failure(outcome) is not None:
            continue
        found = list(differences(expected, outcome.output))
        if found:
            detail = "; ".join(found)
            yield Problem(
                path=relative_to_root(root, where.path),
                line=where.line,
                subject=subject,
                rule="verified-drift",
                message=f"verified_output of {fid} does not match what it returns: {detail}",
            )


def claims(site: Site, fid: str, outcome: Outcome) -> list[dict[str, object]]:
    """Every ``verified_output`` backed by ``fid``, with whether it still holds."""
    found: list[dict[str, object]] = []
    passed = fixture_failure(outcome) is None
    for _, rev in site.revisions():
        for block in rev.body:
            if isinstance(block, Block) and block.verified and fixture_id(block.verified.fixture) == fid:
                diffs = list(differences(as_json(block.verified.expected), outcome.output)) if passed else []
                status = "not checked" if not passed else "drifted" if diffs else "matches"
                found.append(
                    {
                        "slug": rev.slug,
                        "path": relative_to_root(site.root, block.site.path),
                        "line": block.site.line,
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
