"""Corrections of 2026-12-01: revision 2 of ``retry-spec-read-as-a-test`` (the ``spec_`` part).

Revision 1 (``articles/retry_spec.py``) counted "297 of 550 configurations satisfy every
clause as written" from schedules alone, while its own third contradiction says the failure
clause breaks every configuration; and its check for that contradiction counted a list built
with one scenario per configuration, true by construction. Here the spec is *run* as written
(literal doubling, at most ``maxRetries`` retries, the outcome the operation had) for every
configuration and every number of leading failures, and each run is judged clause by clause
(``spec_contradictions``). The resolved handler is revision 1's model, imported unchanged and
wrapped (``spec_resolved_handler``); the delay chart is drawn from the model
(``spec_chart_svg``, checked against the committed asset by the article's tests) and its
crossing points are a fixture of their own (``spec_delay_chart``).

Every name defined here starts with ``spec_``/``SPEC_``: the corrections batch is assembled
from several parts. To redraw the chart after a model change, from the site root (with
site_builder importable)::

    cd articles && python -c "import revised_2026_12 as m, pathlib; \\
        pathlib.Path('../' + m.SPEC_CHART_ASSET).write_text(m.spec_chart_svg(), 'utf-8')"
"""

from __future__ import annotations

import inspect
import textwrap
from collections.abc import Callable
from itertools import accumulate, pairwise

import retry_spec as spec_v1

from site_builder import (
    code_block,
    data_table,
    figure,
    fixture,
    heading,
    ordered_list,
    paragraph,
    revision,
    unordered_list,
    verified_output,
)

# --- The spec as written, run -------------------------------------------------

SPEC_DELAY_CLAUSES = (
    "doublingFromInitialDelay",
    "delayWithinMaxDelay",
    "totalDelayWithinBudget",
    "delayPositiveAfterFirstAttempt",
)
SPEC_FAILURE_CLAUSE = "lastAttemptMeansFailed"


def spec_run_as_written(
    config: spec_v1.RetryConfig, operation: Callable[[int], bool]
) -> tuple[int, bool, list[int]]:
    """The handler the spec describes, read literally: (attemptCount, succeeded, delays)."""
    schedule = spec_v1.literal_delays(config)
    delays: list[int] = []
    attempt = 1
    while True:
        succeeded = operation(attempt)
        if succeeded or attempt == config.max_retries + 1:
            return attempt, succeeded, delays
        delays.append(schedule[attempt - 1])  # the delay before attempt + 1
        attempt += 1


def spec_clauses_kept(
    config: spec_v1.RetryConfig, attempt_count: int, succeeded: bool, delays: list[int]
) -> dict[str, bool]:
    """Each clause of the spec as an assertion about one run."""
    return {
        "doublingFromInitialDelay": delays[:1] in ([], [config.initial_delay_ms])
        and all(b == 2 * a for a, b in pairwise(delays)),
        "delayWithinMaxDelay": all(d <= config.max_delay_ms for d in delays),
        "totalDelayWithinBudget": sum(delays) <= spec_v1.BUDGET_MS,
        "delayPositiveAfterFirstAttempt": all(d > 0 for d in delays),
        "lastAttemptMeansFailed": attempt_count != config.max_retries + 1 or not succeeded,
    }


def spec_one_run(config: spec_v1.RetryConfig, failures: int) -> dict[str, object]:
    """One run on an operation that fails its first ``failures`` attempts, and its verdicts."""
    attempt_count, succeeded, delays = spec_run_as_written(config, spec_v1.failing_times(failures))
    last = config.max_retries + 1
    return {
        "clauses": spec_clauses_kept(config, attempt_count, succeeded, delays),
        "succeeded": succeeded,
        "onLastAttempt": attempt_count == last,
        # Not a clause: the run is checked against the operation it ran, so a runner that
        # stops early or misreports an outcome cannot quietly produce the counts below.
        "followsOperation": attempt_count == min(failures + 1, last)
        and succeeded == (failures < attempt_count)
        and len(delays) == attempt_count - 1,
    }


def spec_config_verdict(config: spec_v1.RetryConfig) -> dict[str, object]:
    """Every run of one configuration, for 0 … maxRetries + 1 leading failures, summed up."""
    runs = [spec_one_run(config, failures) for failures in range(config.max_retries + 2)]
    return {
        "runs": len(runs),
        "broken": {name for run in runs for name, kept in run["clauses"].items() if not kept},
        "runsNotFollowingOperation": sum(not run["followsOperation"] for run in runs),
        "finalSuccess": any(run["succeeded"] and run["onLastAttempt"] for run in runs),
        "successAllowed": any(run["succeeded"] and run["clauses"][SPEC_FAILURE_CLAUSE] for run in runs),
    }


def spec_report() -> dict[str, object]:
    """What running the spec as written over the grid shows."""
    configs = spec_v1.grid()
    verdicts = [(config, spec_config_verdict(config)) for config in configs]

    def where(test: Callable[[spec_v1.RetryConfig, dict[str, object]], bool]) -> list[spec_v1.RetryConfig]:
        return [config for config, verdict in verdicts if test(config, verdict)]

    over_cap = where(lambda c, v: "delayWithinMaxDelay" in v["broken"])
    closed_form = [
        c
        for c in configs
        if c.max_retries >= 1 and c.initial_delay_ms * 2 ** (c.max_retries - 1) > c.max_delay_ms
    ]
    over_budget = where(lambda c, v: "totalDelayWithinBudget" in v["broken"])
    delay_clauses_hold = where(lambda c, v: not set(SPEC_DELAY_CLAUSES) & v["broken"])
    every_clause_holds = where(lambda c, v: not v["broken"])
    final_success = where(lambda c, v: v["finalSuccess"])
    fail_clause_broken = where(lambda c, v: SPEC_FAILURE_CLAUSE in v["broken"])
    no_success_allowed = where(lambda c, v: not v["successAllowed"])
    zero_retries = [c for c in configs if c.max_retries == 0]
    capped_over = [c for c in configs if spec_v1.capped_total(c) > spec_v1.BUDGET_MS]
    ten = [c for c in configs if c.max_retries == spec_v1.RETRY_LIMIT]
    example = spec_v1.describe(spec_v1.COUNTEREXAMPLE)
    revision_1 = spec_v1.spec_report()["satisfyEveryClause"]  # what the first revision printed
    return {
        "configs": len(configs),
        "runs": sum(verdict["runs"] for _, verdict in verdicts),
        "doublingExceedsCap": len(over_cap),
        "literalOverBudget": len(over_budget),
        "cappedOverBudget": len(capped_over),
        "satisfyDelayClauses": len(delay_clauses_hold),
        "delayClausesCollide": len(configs) - len(delay_clauses_hold),
        "configsWithFinalSuccess": len(final_success),
        "failClauseBroken": len(fail_clause_broken),
        "satisfyEveryClause": len(every_clause_holds),
        "revision1SatisfyEveryClause": revision_1,
        "zeroRetryConfigs": len(zero_retries),
        "noSuccessAllowed": len(no_success_allowed),
        "tenRetryConfigs": len(ten),
        "tenRetryCappedOverBudget": len([c for c in ten if c in capped_over]),
        "counterexample": example,
        "capIsNotEnough": spec_v1.describe(spec_v1.CAP_NOT_ENOUGH),
        "checks": {
            "everyRunFollowsItsOperation": all(v["runsNotFollowingOperation"] == 0 for _, v in verdicts),
            "conflictCountMatchesClosedForm": over_cap == closed_form,
            "counterexampleDoublingExceedsCap": example["firstRetryOverCap"] is not None,
            "counterexampleLiteralOverBudget": spec_v1.COUNTEREXAMPLE in over_budget,
            "counterexampleCappedWithinBudget": spec_v1.COUNTEREXAMPLE not in capped_over,
            "capAloneCanExceedBudget": spec_v1.CAP_NOT_ENOUGH in capped_over,
            "tenRetriesCanExceedBudget": any(c in capped_over for c in ten),
            "delayClausesHoldForSomeConfigs": 0 < len(delay_clauses_hold) < len(configs),
            "finalSuccessInEveryConfig": final_success == configs,
            "failClauseBrokenInEveryConfig": fail_clause_broken == configs,
            "noConfigSatisfiesEveryClause": every_clause_holds == [],
            "revision1CountedDelayClausesOnly": revision_1 == len(delay_clauses_hold),
            "noSuccessAllowedExactlyWithoutRetries": no_success_allowed == zero_retries != [],
        },
    }


@fixture
def spec_contradictions() -> dict[str, object]:
    return spec_report()


# --- The resolved handler: revision 1's model, one check added ----------------


def spec_handler_report() -> dict[str, object]:
    """Revision 1's invariant runs, plus where the handler reaches attempt maxRetries + 1."""
    report = spec_v1.handler_report()
    uncut = len(spec_v1.grid()) - report["configsCutByBudget"]
    report["configsNotCutByBudget"] = uncut
    example = spec_v1.CAP_NOT_ENOUGH
    _, always_failing = spec_v1.run_once(example, example.max_retries + 1, jitter=False)
    report["attemptsInExample"] = always_failing.events[-1]["attempt"]
    checks = report["checks"]
    # Computed from the runs: a plain and a jittered run reach the last attempt and succeed in
    # each configuration whose plan keeps every retry, and in no other.
    checks["finalSuccessTwicePerUncutConfig"] = report["successOnAttemptMaxRetriesPlusOne"] == 2 * uncut
    checks["exampleStopsAtItsPlan"] = report["attemptsInExample"] == len(report["example"]["planMs"]) + 1
    return report


@fixture
def spec_resolved_handler() -> dict[str, object]:
    return spec_handler_report()


# --- The chart: its data from the model, its SVG drawn from that data -----------

SPEC_CHART_ASSET = "assets/retry_spec/delay-schedules-2026-12.svg"


def spec_first_over(values: list[int], limit: int) -> int | None:
    """The first retry (1-based) whose value is over ``limit``."""
    return next((k for k, value in enumerate(values, start=1) if value > limit), None)


def spec_chart_data() -> dict[str, object]:
    """The three schedules of CAP_NOT_ENOUGH, per retry and cumulative, and where each crosses a limit."""
    config = spec_v1.CAP_NOT_ENOUGH
    literal = spec_v1.literal_delays(config)
    capped = [spec_v1.nominal_delay(config, k) for k in range(1, config.max_retries + 1)]
    resolved = spec_v1.plan_delays(config)
    kept = len(resolved)
    next_end = sum(resolved) + capped[kept] if kept < len(capped) else None
    return {
        "config": config.as_json(),
        "literalMs": literal,
        "cappedMs": capped,
        "resolvedMs": resolved,
        "literalOverCapAt": spec_first_over(literal, config.max_delay_ms),
        "literalOverBudgetAt": spec_first_over(list(accumulate(literal)), spec_v1.BUDGET_MS),
        "cappedOverBudgetAt": spec_first_over(list(accumulate(capped)), spec_v1.BUDGET_MS),
        "resolvedRetries": kept,
        "resolvedTotalMs": sum(resolved),
        "cappedAtMaxDelayFrom": next(
            (k for k, d in enumerate(capped, start=1) if d == config.max_delay_ms), None
        ),
        "cappedTotalMs": sum(capped),
        "nextRetryWouldEndMs": next_end,
        "checks": {
            "cappedNeverOverMaxDelay": all(d <= config.max_delay_ms for d in capped),
            "resolvedIsCappedPrefix": resolved == capped[:kept],
            "resolvedWithinBudget": sum(resolved) <= spec_v1.BUDGET_MS,
            "resolvedStopsOnlyWhenNextOverflows": next_end is None or next_end > spec_v1.BUDGET_MS,
        },
    }


@fixture
def spec_delay_chart() -> dict[str, object]:
    return spec_chart_data()


SPEC_SVG_STYLE = """\
  <style>
    .bg { fill: #ffffff; }
    .halo { stroke: #ffffff; stroke-width: 4px; paint-order: stroke; stroke-linejoin: round; }
    .ink { fill: #1f2328; }
    .muted { fill: #57606a; }
    .axis { stroke: #1f2328; stroke-width: 1.2; }
    .grid { stroke: #d0d7de; stroke-width: 1; }
    .over { fill: #cf222e; fill-opacity: 0.07; }
    .limit { stroke: #cf222e; stroke-width: 2; stroke-dasharray: 8 4; }
    .limit-ink { fill: #cf222e; }
    .lit { fill: url(#spec-hatch); stroke: #bc4c00; stroke-width: 1.5; }
    .lit-hatch { stroke: #bc4c00; stroke-width: 2; }
    .lit-ink { fill: #bc4c00; }
    .cap { fill: #0969da; fill-opacity: 0.22; stroke: #0969da; stroke-width: 2; }
    .cap-ink { fill: #0969da; }
    .res { fill: #1a7f37; stroke: #1a7f37; stroke-width: 1.5; }
    .res-ink { fill: #1a7f37; }
    .cut { stroke: #ffffff; stroke-width: 3; }
    text { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; font-size: 12px; }
    @media (prefers-color-scheme: dark) {
      .bg { fill: #0d1117; }
      .halo { stroke: #0d1117; }
      .ink { fill: #e6edf3; }
      .muted { fill: #9da7b3; }
      .axis { stroke: #e6edf3; }
      .grid { stroke: #30363d; }
      .over { fill: #ff7b72; fill-opacity: 0.12; }
      .limit { stroke: #ff7b72; }
      .limit-ink { fill: #ff7b72; }
      .lit { stroke: #f0883e; }
      .lit-hatch { stroke: #f0883e; }
      .lit-ink { fill: #f0883e; }
      .cap { fill: #58a6ff; fill-opacity: 0.28; stroke: #58a6ff; }
      .cap-ink { fill: #58a6ff; }
      .res { fill: #3fb950; stroke: #3fb950; }
      .res-ink { fill: #3fb950; }
      .cut { stroke: #0d1117; }
    }
  </style>
  <defs>
    <pattern id="spec-hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
      <line class="lit-hatch" x1="0" y1="0" x2="0" y2="6"/>
    </pattern>
  </defs>"""

# Geometry: ten groups of three bars, resolved | capped | literal, in two panels.
SPEC_X0, SPEC_X1, SPEC_BAR, SPEC_PITCH = 76, 736, 16, 19
SPEC_SERIES = (("resolved", "res", -SPEC_PITCH), ("capped", "cap", 0), ("literal", "lit", SPEC_PITCH))
SPEC_PANELS = (
    # (key, title, top, axis max in s, tick step in s, limit name)
    ("perRetry", "Delay before each retry (s)", 142, 10, 2, "maxDelay"),
    ("cumulative", "Cumulative delay after each retry (s)", 410, 60, 10, "budget"),
)
SPEC_PANEL_HEIGHT = 190


def spec_num(value: float) -> str:
    """A coordinate, short and stable."""
    return f"{value:.1f}".removesuffix(".0")


def spec_s(ms: int) -> str:
    """Milliseconds as seconds for a label: 5000 → '5', 1023000 → '1,023'."""
    return f"{ms / 1000:,g}"


def spec_group_x(retry: int, count: int) -> float:
    """The centre of retry ``retry``'s group of bars."""
    pitch = (SPEC_X1 - SPEC_X0) / count
    return SPEC_X0 + pitch * (retry - 0.5)


def spec_axis(top: int, title: str, axis_s: int, step_s: int, retries: int) -> list[str]:
    """A panel's title, grid lines, tick labels and axes."""
    bottom = top + SPEC_PANEL_HEIGHT
    lines = [f'  <text class="ink" x="{SPEC_X0}" y="{top - 22}" font-weight="600">{title}</text>']
    for tick in range(0, axis_s + 1, step_s):
        y = spec_num(bottom - tick / axis_s * SPEC_PANEL_HEIGHT)
        lines.append(f'  <line class="grid" x1="{SPEC_X0}" y1="{y}" x2="{SPEC_X1}" y2="{y}"/>')
        lines.append(
            f'  <text class="muted" x="{SPEC_X0 - 8}" y="{spec_num(float(y) + 4)}" '
            f'text-anchor="end">{tick}</text>'
        )
    lines.append(f'  <line class="axis" x1="{SPEC_X0}" y1="{bottom}" x2="{SPEC_X1}" y2="{bottom}"/>')
    lines.append(f'  <line class="axis" x1="{SPEC_X0}" y1="{top}" x2="{SPEC_X0}" y2="{bottom}"/>')
    for retry in range(1, retries + 1):
        x = spec_num(spec_group_x(retry, retries))
        lines.append(f'  <text class="muted" x="{x}" y="{bottom + 16}" text-anchor="middle">{retry}</text>')
    lines.append(f'  <text class="muted" x="{SPEC_X1 + 4}" y="{bottom + 30}" text-anchor="end">retry</text>')
    return lines


def spec_limit(top: int, axis_s: int, limit_ms: int, label: str) -> tuple[list[str], list[str]]:
    """The shaded region over a limit (drawn under the bars) and its dashed line and label (over them)."""
    y = spec_num(top + SPEC_PANEL_HEIGHT - limit_ms / 1000 / axis_s * SPEC_PANEL_HEIGHT)
    under = [
        f'  <rect class="over" x="{SPEC_X0}" y="{top}" width="{SPEC_X1 - SPEC_X0}" '
        f'height="{spec_num(float(y) - top)}"/>'
    ]
    over = [
        f'  <line class="limit" x1="{SPEC_X0}" y1="{y}" x2="{SPEC_X1}" y2="{y}"/>',
        f'  <text class="limit-ink halo" x="{SPEC_X0 + 6}" y="{spec_num(float(y) - 7)}" font-weight="600">'
        f"{label} {spec_s(limit_ms)} s</text>",
    ]
    return under, over


def spec_bar(series: str, css: str, retry: int, x: float, value_ms: int, top: int, axis_s: int) -> list[str]:
    """One bar; a value over the axis is cut at the top, marked and labelled with its value."""
    bottom = top + SPEC_PANEL_HEIGHT
    height = min(value_ms / 1000 / axis_s, 1.0) * SPEC_PANEL_HEIGHT
    left = spec_num(x - SPEC_BAR / 2)
    lines = [
        f'  <rect class="{css}" data-series="{series}" data-retry="{retry}" data-ms="{value_ms}" '
        f'x="{left}" y="{spec_num(bottom - height)}" width="{SPEC_BAR}" height="{spec_num(height)}"/>'
    ]
    if value_ms > axis_s * 1000:  # off the chart: a break mark and the real value above
        for dy in (10, 16):
            lines.append(
                f'  <line class="cut" x1="{spec_num(x - SPEC_BAR / 2 - 2)}" y1="{top + dy + 3}" '
                f'x2="{spec_num(x + SPEC_BAR / 2 + 2)}" y2="{top + dy - 3}"/>'
            )
        lines.append(
            f'  <text class="{css}-ink" x="{spec_num(x)}" y="{top - 5}" text-anchor="middle" '
            f'font-size="10">{spec_s(value_ms)}</text>'
        )
    return lines


def spec_dropped(retry: int, x: float, top: int) -> list[str]:
    """The mark for a retry the resolved plan drops."""
    y = top + SPEC_PANEL_HEIGHT - 6
    return [
        f'  <text class="res-ink halo" data-series="resolved" data-retry="{retry}" data-dropped="true" '
        f'x="{spec_num(x)}" y="{y}" text-anchor="middle" font-size="15" font-weight="700">×</text>'
    ]


def spec_panel(
    values: dict[str, list[int]], panel: tuple[str, str, int, int, int, str], limit_ms: int
) -> list[str]:
    """One panel: axes, the region over the limit, three bars per retry, the limit line on top."""
    _, title, top, axis_s, step_s, limit_name = panel
    retries = len(values["literal"])
    under, over = spec_limit(top, axis_s, limit_ms, limit_name)
    lines = spec_axis(top, title, axis_s, step_s, retries) + under
    for retry in range(1, retries + 1):
        centre = spec_group_x(retry, retries)
        for series, css, offset in SPEC_SERIES:
            shown = values[series]
            if retry <= len(shown):
                lines += spec_bar(series, css, retry, centre + offset, shown[retry - 1], top, axis_s)
            else:
                lines += spec_dropped(retry, centre + offset, top)
    return lines + over


def spec_end_labels(data: dict[str, object]) -> list[str]:
    """Totals written beside the last bar of the resolved and the capped schedule (cumulative panel)."""
    _, _, top, axis_s, _, _ = SPEC_PANELS[1]
    retries = len(data["cappedMs"])

    def y_of(ms: int) -> float:
        return top + SPEC_PANEL_HEIGHT - ms / 1000 / axis_s * SPEC_PANEL_HEIGHT

    kept = data["resolvedRetries"]
    res_x = spec_group_x(kept, retries) - SPEC_PITCH
    cap_x = spec_group_x(retries, retries)
    # The resolved total sits just under the budget line: its label goes just over it.
    res_y = min(y_of(data["resolvedTotalMs"]), y_of(spec_v1.BUDGET_MS))
    cap_y = y_of(data["cappedTotalMs"])
    return [
        f'  <text class="res-ink halo" x="{spec_num(res_x)}" y="{spec_num(res_y - 22)}" text-anchor="middle" '
        f'font-weight="700">{spec_s(data["resolvedTotalMs"])} s</text>',
        f'  <text class="res-ink halo" x="{spec_num(res_x)}" y="{spec_num(res_y - 8)}" text-anchor="middle" '
        'font-weight="700">stop</text>',
        f'  <text class="cap-ink halo" x="{spec_num(cap_x + SPEC_BAR / 2)}" y="{spec_num(cap_y - 6)}" '
        f'text-anchor="end" font-weight="700">{spec_s(data["cappedTotalMs"])} s</text>',
    ]


def spec_legend(y: int) -> list[str]:
    """Two rows: the three series in the bars' order; the limit, a dropped retry, a cut bar."""
    series = (
        ("res", "resolved: capped + budget"),
        ("cap", "capped at maxDelay"),
        ("lit", "literal doubling"),
    )
    lines: list[str] = []
    for n, (css, label) in enumerate(series):
        x = SPEC_X0 + 210 * n
        lines.append(f'  <rect class="{css}" x="{x}" y="{y - 11}" width="14" height="14"/>')
        lines.append(f'  <text class="ink" x="{x + 20}" y="{y}">{label}</text>')
    y2, x = y + 24, SPEC_X0
    lines += [
        f'  <line class="limit" x1="{x}" y1="{y2 - 4}" x2="{x + 30}" y2="{y2 - 4}"/>',
        f'  <text class="ink" x="{x + 36}" y="{y2}">limit; shaded: over it</text>',
        f'  <text class="res-ink" x="{x + 210 + 7}" y="{y2 + 1}" font-size="15" font-weight="700" '
        'text-anchor="middle">×</text>',
        f'  <text class="ink" x="{x + 230}" y="{y2}">retry dropped</text>',
        f'  <rect class="lit" x="{x + 420}" y="{y2 - 11}" width="14" height="14"/>',
        f'  <line class="cut" x1="{x + 418}" y1="{y2 - 1}" x2="{x + 436}" y2="{y2 - 7}"/>',
        f'  <text class="ink" x="{x + 440}" y="{y2}">cut: over the axis, value above</text>',
    ]
    return lines


def spec_chart_text(data: dict[str, object]) -> dict[str, str]:
    """Title, description (also the figure's alt text) and caption, from the chart data."""
    c = data["config"]
    setting = (
        f"initialDelay {spec_s(c['initialDelayMs'])} s, maxDelay {spec_s(c['maxDelayMs'])} s, "
        f"maxRetries {c['maxRetries']}"
    )
    kept, retries = data["resolvedRetries"], len(data["cappedMs"])
    off_chart = spec_first_over(data["literalMs"], SPEC_PANELS[0][3] * 1000)
    desc = (
        f"Bar charts for {setting}, three bars per retry: resolved (solid), capped (outlined) and literal "
        f"doubling (hatched). Top: the delay before each retry. Literal doubling passes the maxDelay line at "
        f"retry {data['literalOverCapAt']} and is cut off at the top of the chart from retry "
        f"{off_chart}; the capped bars reach the maxDelay line from retry {data['cappedAtMaxDelayFrom']} "
        f"to retry {retries} and never pass it; the resolved bars match the capped ones and stop after "
        f"retry {kept}. Bottom: the cumulative delay. Literal doubling passes the budget line at retry "
        f"{data['literalOverBudgetAt']}, the capped schedule at retry {data['cappedOverBudgetAt']} and "
        f"ends at {spec_s(data['cappedTotalMs'])} s; the resolved schedule "
        f"ends at {spec_s(data['resolvedTotalMs'])} s, under the line."
    )
    caption = (
        f"The same configuration three ways: literal doubling breaks the cap at retry "
        f"{data['literalOverCapAt']} and the budget at retry {data['literalOverBudgetAt']}; capping alone "
        f"breaks the budget at retry {data['cappedOverBudgetAt']}; the budget-clamped plan stops after "
        f"retry {kept} at {spec_s(data['resolvedTotalMs'])} s."
    )
    title = f"Delay schedules for {setting}: literal doubling, capped, budget-clamped"
    return {"setting": setting, "title": title, "desc": desc, "caption": caption}


def spec_footnote(data: dict[str, object]) -> str:
    """Which retries the resolved plan drops, and why."""
    kept, retries = data["resolvedRetries"], len(data["cappedMs"])
    if kept == retries:
        return "The resolved plan keeps every retry."
    dropped = f"retries {kept + 1}–{retries}" if kept + 1 < retries else f"retry {retries}"
    return (
        f"The resolved plan drops {dropped}: the next {spec_s(data['cappedMs'][kept])} s delay would end "
        f"at {spec_s(data['nextRetryWouldEndMs'])} s, over the budget."
    )


def spec_chart_svg() -> str:
    """The delay chart, drawn from ``spec_chart_data()``: the text of SPEC_CHART_ASSET."""
    data = spec_chart_data()
    text = spec_chart_text(data)
    config = spec_v1.CAP_NOT_ENOUGH
    per_retry = {"literal": data["literalMs"], "capped": data["cappedMs"], "resolved": data["resolvedMs"]}
    cumulative = {name: list(accumulate(values)) for name, values in per_retry.items()}
    width, height = 760, 672
    lines = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
        f'height="{height}" role="img" aria-labelledby="t d">',
        f'  <title id="t">{text["title"]}</title>',
        f'  <desc id="d">{text["desc"]}</desc>',
        SPEC_SVG_STYLE,
        f'  <rect class="bg" x="0" y="0" width="{width}" height="{height}" rx="8"/>',
        f'  <text class="ink" x="24" y="32" font-size="15" font-weight="700">One configuration, three '
        f"schedules: {text['setting']}</text>",
        *spec_legend(62),
        *spec_panel(per_retry, SPEC_PANELS[0], config.max_delay_ms),
        *spec_panel(cumulative, SPEC_PANELS[1], spec_v1.BUDGET_MS),
        *spec_end_labels(data),
        f'  <text class="muted" x="{SPEC_X0}" y="{height - 16}">{spec_footnote(data)}</text>',
        "</svg>",
    ]
    return "\n".join(lines) + "\n"


# --- Numbers the prose quotes, computed from the same code the fixtures run ------

SPEC_REPORT = spec_report()
SPEC_HANDLER = spec_handler_report()
SPEC_CHART = spec_chart_data()
SPEC_CHART_TEXT = spec_chart_text(SPEC_CHART)
SPEC_LITERAL = SPEC_REPORT["counterexample"]
SPEC_CAPPED = SPEC_REPORT["capIsNotEnough"]
SPEC_EXAMPLE = SPEC_HANDLER["example"]

SPEC_CHANGES = (
    f"Revision 1 said that {SPEC_REPORT['revision1SatisfyEveryClause']} of the {SPEC_REPORT['configs']} "
    "configurations satisfy every clause as written, although its own third contradiction shows that the "
    f"failure clause breaks every one of them: {SPEC_REPORT['revision1SatisfyEveryClause']} counts the delay "
    "clauses alone, and with the failure clause none is left. The counts now come from runs of the spec as "
    "written, the failure-clause check can fail, and the delay chart is redrawn so that the capped schedule "
    "no longer disappears under the `maxDelay` line."
)


def spec_source_of(*objects: object) -> str:
    """The source of the model's functions, as the article shows them."""
    return "\n\n".join(textwrap.dedent(inspect.getsource(obj)).strip() for obj in objects)


def spec_ms(value: int) -> str:
    return f"{value:,}"


def spec_duration(ms: int) -> str:
    """A grid value as a reader would say it: 10 → '10 ms', 500 → '500 ms', 5000 → '5 s'."""
    return f"{ms:,} ms" if ms < 1000 else f"{spec_s(ms)} s"


def spec_schedule_rows(config: spec_v1.RetryConfig) -> list[list[str]]:
    """The table's rows: literal, capped and resolved delay per retry, and the resolved total."""
    literal, plan = spec_v1.literal_delays(config), spec_v1.plan_delays(config)
    rows, cumulative = [], 0
    for retry in range(1, config.max_retries + 1):
        capped = spec_v1.nominal_delay(config, retry)
        if retry <= len(plan):
            cumulative += plan[retry - 1]
            taken, total = spec_ms(plan[retry - 1]), spec_ms(cumulative)
        else:
            taken, total = "dropped", "—"
        rows.append([str(retry), spec_ms(literal[retry - 1]), spec_ms(capped), taken, total])
    return rows


def spec_list(values: list[int]) -> str:
    """'100, 200 and 400 ms'."""
    shown = [spec_ms(v) for v in values]
    return f"{', '.join(shown[:-1])} and {shown[-1]} ms"


SPEC_OVER_CAP_AT = SPEC_LITERAL["firstRetryOverCap"]
SPEC_UNDER_CAP = SPEC_LITERAL["literalDelaysMs"][: SPEC_OVER_CAP_AT - 1]
SPEC_FIRST_OVER_CAP_MS = SPEC_LITERAL["literalDelaysMs"][SPEC_OVER_CAP_AT - 1]
SPEC_CX, SPEC_CAP_CONFIG = spec_v1.COUNTEREXAMPLE, spec_v1.CAP_NOT_ENOUGH
SPEC_LAST_ATTEMPT = SPEC_CAP_CONFIG.max_retries + 1

spec_revision = revision(
    slug="retry-spec-read-as-a-test",
    title="Reading a retry spec as a test",
    categories=["Reliability", "Testing"],
    excerpt=(
        "A retry-handler spec is a list of assertions. Run them over every configuration in a small "
        "grid before writing the handler, and three of them collide: doubling against the cap, ten "
        "retries against a 30-second total, and a failure clause that forbids success on the last "
        "attempt. Then choose an order of precedence and check the handler against it."
    ),
    cover="/assets/retry_spec/cover.svg",
    published="2022-09-20",
    revised="2026-12-01",
    changes=SPEC_CHANGES,
    lang="en",
    body=[
        paragraph(
            "Here is a spec for a retry handler, as it might arrive in a ticket. Every line reads "
            "like an assertion, so before writing the handler, run the spec itself over a grid of "
            "inputs. A spec that fails its own tests cannot be rescued by careful code, only by a "
            "decision."
        ),
        unordered_list(
            [
                "`0 ≤ maxRetries ≤ 10`, `initialDelay > 0`, `maxDelay ≥ initialDelay`.",
                "Each delay is double the previous one; the first is `initialDelay`.",
                "Each delay is `≤ maxDelay`.",
                "`totalDelay == sum(delays) ≤ 30 s`.",
                "If `attempt > 1`, the delay before it is positive.",
                "If `attemptCount == maxRetries + 1`, the operation failed.",
                "The handler emits `RetryAttempted`, `OperationSucceeded` and `OperationFailed`.",
            ]
        ),
        paragraph(
            "Attempt 1 is the original call; attempt *k* + 1 is retry *k* and waits "
            "delay *k*. So `maxRetries = 10` allows eleven attempts and ten delays. gRPC's retry "
            "design draws the same line from the other side: its `maxAttempts` counts the original "
            "request."
        ),
        heading("Enumerate the configurations"),
        paragraph(
            "The configuration space is small enough to enumerate. The grid takes `maxRetries` from "
            f"0 to {spec_v1.RETRY_LIMIT}, `initialDelay` from {spec_duration(spec_v1.INITIAL_DELAYS_MS[0])} "
            f"to {spec_duration(spec_v1.INITIAL_DELAYS_MS[-1])} and `maxDelay` from "
            f"{spec_duration(spec_v1.MAX_DELAYS_MS[0])} to {spec_duration(spec_v1.MAX_DELAYS_MS[-1])}, and "
            "keeps only combinations that satisfy the first clause: "
            f"{SPEC_REPORT['configs']} configurations. The doubling clause leaves no freedom: once the "
            "first delay is fixed, so is every later one. "
            "The fixture runs the spec as written on each configuration (literal doubling, at most "
            "`maxRetries` retries, and the outcome the operation had), once for every number of leading "
            f"failures from 0 to `maxRetries + 1`: {spec_ms(SPEC_REPORT['runs'])} runs. Each run is then "
            "tested against every clause (`spec_v1` is the first revision's model, unchanged):"
        ),
        code_block(
            spec_source_of(spec_v1.literal_delays, spec_run_as_written, spec_clauses_kept), language="python"
        ),
        paragraph(
            "Each run is also checked against the operation it ran (`everyRunFollowsItsOperation`): it "
            "stops at the first success or the last allowed attempt and reports what the operation returned, "
            "so no count below can come from scenarios built to agree with it."
        ),
        heading("Contradiction 1: doubling meets the cap"),
        paragraph(
            f"Take `initialDelay = {spec_duration(SPEC_CX.initial_delay_ms)}`, "
            f"`maxDelay = {spec_duration(SPEC_CX.max_delay_ms)}`, "
            f"`maxRetries = {SPEC_CX.max_retries}`. Doubling gives {spec_list(SPEC_UNDER_CAP)}, "
            f"and then retry {SPEC_OVER_CAP_AT} must wait {spec_ms(SPEC_FIRST_OVER_CAP_MS)} ms, above the "
            "cap. No schedule satisfies both: doubling has already chosen every value, and the cap forbids "
            "one. This happens whenever `initialDelay · 2^(maxRetries − 1) > maxDelay`; the fixture counts "
            "the configurations in which some run breaks the cap and checks that count against the closed "
            "form."
        ),
        heading("Contradiction 2: ten retries against 30 seconds"),
        paragraph(
            "Doubled literally, the same configuration waits "
            f"{spec_s(SPEC_LITERAL['literalTotalMs'])} s in total. Obeying the cap instead brings it "
            f"to {spec_s(SPEC_LITERAL['cappedTotalMs'])} s, under budget, but the cap does not "
            "rescue every configuration. With "
            f"`initialDelay = {spec_duration(SPEC_CAP_CONFIG.initial_delay_ms)}`, "
            f"`maxDelay = {spec_duration(SPEC_CAP_CONFIG.max_delay_ms)}` and ten retries, the capped delays "
            f"add up to {spec_s(SPEC_CAPPED['cappedTotalMs'])} s. Even capped, "
            f"{SPEC_REPORT['tenRetryCappedOverBudget']} of the grid's "
            f"{SPEC_REPORT['tenRetryConfigs']} ten-retry configurations exceed 30 s. The budget is a "
            "third, independent constraint, and it has to be "
            "ranked against the other two."
        ),
        verified_output(
            spec_contradictions,
            expected={
                "configs": 550,
                "runs": 3850,
                "doublingExceedsCap": 244,
                "literalOverBudget": 175,
                "cappedOverBudget": 104,
                "tenRetryConfigs": 50,
                "tenRetryCappedOverBudget": 26,
                "counterexample": {
                    "config": {"maxRetries": 10, "initialDelayMs": 100, "maxDelayMs": 5000},
                    "literalDelaysMs": [100, 200, 400, 800, 1600, 3200, 6400, 12800, 25600, 51200],
                    "firstRetryOverCap": 7,
                    "literalTotalMs": 102300,
                    "cappedTotalMs": 26300,
                },
                "capIsNotEnough": {
                    "config": {"maxRetries": 10, "initialDelayMs": 1000, "maxDelayMs": 5000},
                    "cappedTotalMs": 42000,
                },
            },
        ),
        heading("Contradiction 3: the failure clause"),
        paragraph(
            "“If `attemptCount == maxRetries + 1` the operation failed” means to say that the handler "
            "gives up after its last retry. As an assertion it says that the final attempt never "
            f"succeeds. In every one of the {SPEC_REPORT['configsWithFinalSuccess']} "
            "configurations, some run fails `maxRetries` times and then succeeds; the handler reports "
            "`OperationSucceeded` with `attemptCount == maxRetries + 1`, and the clause calls that a "
            "failure. With `maxRetries = 0` "
            f"({SPEC_REPORT['zeroRetryConfigs']} of the configurations) the first attempt is also the "
            "last, so the clause leaves no room for success at all: an operation that "
            "succeeds on the first call has “failed”. A handler can keep this clause only by reporting a "
            "success as a failure. What matters is how the last attempt ended, not its number."
        ),
        paragraph(
            f"So the spec as written holds in none of the {SPEC_REPORT['configs']} configurations. "
            f"The delay clauses alone hold together in {SPEC_REPORT['satisfyDelayClauses']}; "
            f"the failure clause is broken in all {SPEC_REPORT['failClauseBroken']}, "
            f"and those {SPEC_REPORT['satisfyDelayClauses']} are no exception."
        ),
        verified_output(
            spec_contradictions,
            expected={
                "satisfyDelayClauses": 297,
                "delayClausesCollide": 253,
                "configsWithFinalSuccess": 550,
                "failClauseBroken": 550,
                "satisfyEveryClause": 0,
                "revision1SatisfyEveryClause": 297,
                "zeroRetryConfigs": 50,
                "noSuccessAllowed": 50,
                "checks": {
                    "everyRunFollowsItsOperation": True,
                    "conflictCountMatchesClosedForm": True,
                    "counterexampleDoublingExceedsCap": True,
                    "counterexampleLiteralOverBudget": True,
                    "counterexampleCappedWithinBudget": True,
                    "capAloneCanExceedBudget": True,
                    "tenRetriesCanExceedBudget": True,
                    "delayClausesHoldForSomeConfigs": True,
                    "finalSuccessInEveryConfig": True,
                    "failClauseBrokenInEveryConfig": True,
                    "noConfigSatisfiesEveryClause": True,
                    "revision1CountedDelayClausesOnly": True,
                    "noSuccessAllowedExactlyWithoutRetries": True,
                },
            },
        ),
        heading("A resolution is an order of precedence"),
        paragraph(
            "Contradictions are settled by deciding which clause wins. The handler below uses this "
            "order, strongest first:"
        ),
        ordered_list(
            [
                "**The total budget**, the promise the caller plans around. A retry whose whole delay "
                "does not fit in what is left is dropped, with every later one; `maxRetries` becomes "
                "an upper bound.",
                "**The cap**: every delay is `≤ maxDelay`.",
                "**Doubling below the cap**: delay *k* is `min(initialDelay · 2^(k−1), maxDelay)`, "
                "the capped exponential backoff of the AWS articles and gRPC.",
                "**Positive delays**, which follow from the rules above and `initialDelay > 0`.",
                "**Failure** only when the last allowed attempt fails; allowed attempts = 1 + planned "
                "retries ≤ `maxRetries + 1`.",
            ]
        ),
        paragraph(
            "Shortening the last delay to land exactly on 30 s would add a retry after a short wait "
            "just where backoff should be longest, with a delay that is neither double nor the cap. "
            "Jitter is optional: with a seeded `random.Random`, each delay is drawn between 1 ms and "
            "its planned ceiling. That is AWS's full jitter with the lower bound moved from 0 (where "
            "gRPC starts too) to 1 ms, for the positive-delay clause. The budget is checked against "
            "the ceilings, so jitter can only shorten the total."
        ),
        heading("The handler"),
        paragraph(
            "Time is simulated: the clock moves only when the handler sleeps, and the operation is "
            "a function of the attempt number. This is the code the fixtures run:"
        ),
        code_block(
            spec_source_of(
                spec_v1.nominal_delay,
                spec_v1.fits_budget,
                spec_v1.plan_delays,
                spec_v1.delay_for_attempt,
                spec_v1.RetryHandler,
            ),
            language="python",
        ),
        paragraph(
            f"Where the cap alone was not enough, the plan keeps {SPEC_CHART['resolvedRetries']} of the "
            f"{spec_v1.CAP_NOT_ENOUGH.max_retries} retries, {spec_s(SPEC_CHART['resolvedTotalMs'])} s in "
            f"total; the next would end at {spec_s(SPEC_CHART['nextRetryWouldEndMs'])} s."
        ),
        data_table(
            "Delay before each retry (ms): "
            f"initialDelay = {spec_duration(SPEC_CAP_CONFIG.initial_delay_ms)}, "
            f"maxDelay = {spec_duration(SPEC_CAP_CONFIG.max_delay_ms)}, "
            f"maxRetries = {SPEC_CAP_CONFIG.max_retries}",
            ["Retry", "Literal doubling", "Capped", "Resolved", "Resolved total"],
            spec_schedule_rows(spec_v1.CAP_NOT_ENOUGH),
        ),
        figure(
            "/" + SPEC_CHART_ASSET,
            alt=SPEC_CHART_TEXT["desc"],
            caption=SPEC_CHART_TEXT["caption"],
        ),
        paragraph(
            "The chart draws the three schedules side by side, retry by retry, from the same functions; "
            "where it says a line is crossed, the fixture computed it:"
        ),
        verified_output(
            spec_delay_chart,
            expected={
                "literalOverCapAt": 4,
                "literalOverBudgetAt": 5,
                "cappedOverBudgetAt": 8,
                "resolvedRetries": 7,
                "resolvedTotalMs": 27000,
                "cappedTotalMs": 42000,
                "nextRetryWouldEndMs": 32000,
            },
        ),
        heading("The spec, restated as invariants"),
        paragraph(
            "The second fixture runs the handler on every configuration, for every number of "
            "leading failures from 0 to `maxRetries + 1`, once without jitter and once with a seeded "
            "generator. Each run is checked against these invariants:"
        ),
        unordered_list(
            [
                "the configuration satisfies the first clause;",
                "events are *k* × `RetryAttempted` (attempts 2 … *k* + 1), then one "
                "`OperationSucceeded` or `OperationFailed` for attempt *k* + 1, with *k* ≤ `maxRetries`;",
                "every delay is positive and `≤ maxDelay`;",
                "without jitter, delays start at `initialDelay` and go `min(2 × previous, maxDelay)`; "
                "with jitter, each lies within its ceiling and a seed always gives the same run;",
                "the simulated clock equals the sum of the delays, and that sum is `≤ 30 s`;",
                "the budget drops a retry only when the next capped delay would overflow it;",
                "the first successful allowed attempt is reported as a success; `OperationFailed` "
                "comes only after the last allowed attempt failed, and always then.",
            ]
        ),
        verified_output(
            spec_resolved_handler,
            expected={
                "runs": 7700,
                "outcomes": {"OperationSucceeded": 5960, "OperationFailed": 1740},
                "configsCutByBudget": 104,
                "configsNotCutByBudget": 446,
                "successOnAttemptMaxRetriesPlusOne": 892,
                "checks": {
                    **dict.fromkeys(spec_v1.INVARIANTS, True),
                    "finalSuccessTwicePerUncutConfig": True,
                    "exampleStopsAtItsPlan": True,
                },
            },
        ),
        paragraph(
            "`successOnAttemptMaxRetriesPlusOne` counts runs where the handler rightly breaks the "
            "literal failure clause: one plain and one jittered run in each of the "
            f"{SPEC_HANDLER['configsNotCutByBudget']} configurations the budget does not cut, which the "
            "fixture checks. Below, an operation that never succeeds: `OperationFailed` on attempt "
            f"{SPEC_HANDLER['attemptsInExample']}, not {SPEC_LAST_ATTEMPT}, because the budget ran out first."
        ),
        verified_output(
            spec_resolved_handler,
            expected={
                "attemptsInExample": 8,
                "example": {
                    "plannedTotalMs": 27000,
                    "alwaysFailing": [
                        "RetryAttempted #2 after 1000 ms",
                        "RetryAttempted #3 after 2000 ms",
                        "RetryAttempted #4 after 4000 ms",
                        "RetryAttempted #5 after 5000 ms",
                        "RetryAttempted #6 after 5000 ms",
                        "RetryAttempted #7 after 5000 ms",
                        "RetryAttempted #8 after 5000 ms",
                        "OperationFailed #8",
                    ],
                    "jitteredTotalMs": 9794,
                },
            },
        ),
        heading("Do the checks bite?"),
        paragraph(
            "A check that cannot fail proves nothing, so the tests beside this article monkeypatch "
            "the model and rerun the fixtures:"
        ),
        unordered_list(
            [
                "no cap in `nominal_delay`: `delayWithinMaxDelay` and `delaysDoubleUntilCap` fail, "
                "and the capped over-budget count rises to the literal one;",
                "a `fits_budget` that always agrees: `totalDelayWithinBudget` fails;",
                "`attempts_allowed` one short: the handler gives up an attempt early, and both "
                "outcome checks fail, with `finalSuccessTwicePerUncutConfig`;",
                "a zero delay before attempt 2: `delayPositiveAfterFirstAttempt` fails;",
                "a spec runner that stops one attempt early, as if `maxRetries` counted attempts: "
                "`everyRunFollowsItsOperation`, `finalSuccessInEveryConfig` and "
                "`failClauseBrokenInEveryConfig` fail. The first revision of this article counted a list "
                "built with one scenario per configuration, and its check stayed true when the handler made "
                "the same mistake;",
                "a runner that obeys the failure clause, reporting a last-attempt success as a failure: "
                "`everyRunFollowsItsOperation` and `noConfigSatisfiesEveryClause` fail.",
            ]
        ),
        heading("Send the answers back to the spec"),
        paragraph(
            f"Read as written, the spec holds in none of the {SPEC_REPORT['configs']} configurations. "
            f"Its delay clauses collide in {SPEC_REPORT['delayClausesCollide']} of them, and there the "
            "spec's owner can rank the clauses, as above, or reject those configurations at load time. The "
            "failure clause has no "
            "such way out, since it fails in every configuration: it has to be reworded, for instance as "
            "“`OperationFailed` if and only if the last allowed attempt failed”. Leaving either choice to "
            "whoever writes the loop is the only wrong answer. The question returns with the next input: "
            "an HTTP `Retry-After` may ask for more than `maxDelay` or than the budget has left (gRPC's "
            "pushback, for one, never adds attempts beyond `maxAttempts`). Decide before the first 503, "
            "and write the decision down as a check."
        ),
    ],
    sources=[spec_v1.AWS_BUILDERS, spec_v1.AWS_JITTER, spec_v1.GRPC_A6, spec_v1.RFC9110_RETRY_AFTER],
)

revisions = [spec_revision]
