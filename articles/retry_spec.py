"""Reading a retry-handler spec as a test.

The spec's clauses are run as assertions over a grid of configurations before
any handler exists (``spec_contradictions``), then a handler that follows an
explicit order of precedence is run over the same grid and checked against the
restated clauses (``resolved_handler``). Nothing sleeps and nothing touches the
network: time is a simulated clock in integer milliseconds, the operation is a
function of the attempt number, and jitter comes from a seeded ``random.Random``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import pairwise

from _shown_source import source_of

from site_builder import (
    Source,
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

# --- The spec's numbers and the grid ---------------------------------------

BUDGET_MS = 30_000  # totalDelay ≤ 30 s
RETRY_LIMIT = 10  # 0 ≤ maxRetries ≤ 10
INITIAL_DELAYS_MS = (10, 50, 100, 200, 500, 1000, 2000, 5000)
MAX_DELAYS_MS = (500, 1000, 2000, 5000, 10_000, 20_000, 30_000)


@dataclass(frozen=True)
class RetryConfig:
    max_retries: int
    initial_delay_ms: int
    max_delay_ms: int

    def is_valid(self) -> bool:
        return (
            0 <= self.max_retries <= RETRY_LIMIT
            and self.initial_delay_ms > 0
            and self.max_delay_ms >= self.initial_delay_ms
        )

    def as_json(self) -> dict[str, int]:
        return {
            "maxRetries": self.max_retries,
            "initialDelayMs": self.initial_delay_ms,
            "maxDelayMs": self.max_delay_ms,
        }


def grid() -> list[RetryConfig]:
    """Every valid configuration built from the grid's values."""
    configs = [
        RetryConfig(retries, initial, cap)
        for retries in range(RETRY_LIMIT + 1)
        for initial in INITIAL_DELAYS_MS
        for cap in MAX_DELAYS_MS
    ]
    return [config for config in configs if config.is_valid()]


COUNTEREXAMPLE = RetryConfig(max_retries=10, initial_delay_ms=100, max_delay_ms=5000)
CAP_NOT_ENOUGH = RetryConfig(max_retries=10, initial_delay_ms=1000, max_delay_ms=5000)


# --- The spec read literally -----------------------------------------------


def literal_delays(config: RetryConfig) -> list[int]:
    """Delay k (before attempt k + 1) as 'each delay double the previous one' forces it."""
    return [config.initial_delay_ms * 2 ** (k - 1) for k in range(1, config.max_retries + 1)]


# --- The resolution: budget, then cap, then doubling ------------------------


def nominal_delay(config: RetryConfig, retry: int) -> int:
    """Capped doubling: the ceiling for retry number `retry` (1-based)."""
    return min(config.initial_delay_ms * 2 ** (retry - 1), config.max_delay_ms)


def fits_budget(spent_ms: int, delay_ms: int) -> bool:
    return spent_ms + delay_ms <= BUDGET_MS


def plan_delays(config: RetryConfig) -> list[int]:
    """Capped delays while they fit the budget; maxRetries is only an upper bound."""
    plan: list[int] = []
    for retry in range(1, config.max_retries + 1):
        delay = nominal_delay(config, retry)
        if not fits_budget(sum(plan), delay):
            break  # ceilings never shrink, so no later retry fits either
        plan.append(delay)
    return plan


def delay_for_attempt(plan: list[int], attempt: int, rng: random.Random | None) -> int:
    ceiling = plan[attempt - 2]  # attempt 2 is retry 1
    return ceiling if rng is None else rng.randint(1, ceiling)  # jitter never reaches 0


@dataclass
class SimulatedClock:
    now_ms: int = 0

    def sleep(self, ms: int) -> None:
        if ms < 0:
            raise ValueError("negative sleep")
        self.now_ms += ms


@dataclass
class RetryHandler:
    config: RetryConfig
    clock: SimulatedClock = field(default_factory=SimulatedClock)
    rng: random.Random | None = None
    events: list[dict[str, object]] = field(default_factory=list)

    def attempts_allowed(self, plan: list[int]) -> int:
        return len(plan) + 1  # the original call plus every planned retry

    def run(self, operation: Callable[[int], bool]) -> bool:
        plan = plan_delays(self.config)
        allowed = self.attempts_allowed(plan)
        attempt = 1
        while True:
            if operation(attempt):
                self.events.append({"event": "OperationSucceeded", "attempt": attempt})
                return True
            if attempt >= allowed:
                self.events.append({"event": "OperationFailed", "attempt": attempt})
                return False
            attempt += 1
            delay = delay_for_attempt(plan, attempt, self.rng)
            self.clock.sleep(delay)
            self.events.append({"event": "RetryAttempted", "attempt": attempt, "delayMs": delay})


def failing_times(failures: int) -> Callable[[int], bool]:
    """An operation whose first `failures` attempts fail and the rest succeed."""
    return lambda attempt: attempt > failures


def jitter_rng(config: RetryConfig, failures: int) -> random.Random:
    # A str seed is hashed with SHA-512: the same sequence in every process.
    return random.Random(f"{config.max_retries}/{config.initial_delay_ms}/{config.max_delay_ms}/{failures}")


# --- Fixture 1: the spec as a test, before any handler ----------------------


def capped_total(config: RetryConfig) -> int:
    """The total if the cap wins over doubling and the budget is ignored."""
    return sum(nominal_delay(config, k) for k in range(1, config.max_retries + 1))


def describe(config: RetryConfig) -> dict[str, object]:
    literal = literal_delays(config)
    over_cap = [k for k, delay in enumerate(literal, start=1) if delay > config.max_delay_ms]
    return {
        "config": config.as_json(),
        "literalDelaysMs": literal,
        "firstRetryOverCap": over_cap[0] if over_cap else None,
        "literalTotalMs": sum(literal),
        "cappedTotalMs": capped_total(config),
    }


def spec_report() -> dict[str, object]:
    configs = grid()
    conflicts = [c for c in configs if any(d > c.max_delay_ms for d in literal_delays(c))]
    closed_form = [
        c
        for c in configs
        if c.max_retries >= 1 and c.initial_delay_ms * 2 ** (c.max_retries - 1) > c.max_delay_ms
    ]
    literal_over = [c for c in configs if sum(literal_delays(c)) > BUDGET_MS]
    capped_over = [c for c in configs if capped_total(c) > BUDGET_MS]
    as_written = [c for c in configs if c not in conflicts and c not in literal_over]
    ten = [c for c in configs if c.max_retries == RETRY_LIMIT]
    # Scenarios: the operation fails its first f attempts, f = 0 … maxRetries + 1.
    scenarios = [(c, f) for c in configs for f in range(c.max_retries + 2)]
    last_attempt_wins = [(c, f) for c, f in scenarios if f == c.max_retries]  # attempt n+1 succeeds
    example, cap_example = describe(COUNTEREXAMPLE), describe(CAP_NOT_ENOUGH)
    return {
        "configs": len(configs),
        "doublingExceedsCap": len(conflicts),
        "literalOverBudget": len(literal_over),
        "cappedOverBudget": len(capped_over),
        "satisfyEveryClause": len(as_written),
        "tenRetryConfigs": len(ten),
        "tenRetryCappedOverBudget": len([c for c in ten if c in capped_over]),
        "scenarios": len(scenarios),
        "successOnAttemptMaxRetriesPlusOne": len(last_attempt_wins),
        "counterexample": example,
        "capIsNotEnough": cap_example,
        "checks": {
            "conflictCountMatchesClosedForm": conflicts == closed_form,
            "counterexampleDoublingExceedsCap": example["firstRetryOverCap"] is not None,
            "counterexampleLiteralOverBudget": sum(literal_delays(COUNTEREXAMPLE)) > BUDGET_MS,
            "counterexampleCappedWithinBudget": capped_total(COUNTEREXAMPLE) <= BUDGET_MS,
            "capAloneCanExceedBudget": capped_total(CAP_NOT_ENOUGH) > BUDGET_MS,
            "tenRetriesCanExceedBudget": any(c in capped_over for c in ten),
            "specSatisfiableForSomeConfigs": 0 < len(as_written) < len(configs),
            "failClauseContradictsFinalSuccess": len(last_attempt_wins) == len(configs),
        },
    }


@fixture
def spec_contradictions() -> dict[str, object]:
    return spec_report()


# --- Fixture 2: the resolved handler over the same grid ---------------------


def run_once(config: RetryConfig, failures: int, jitter: bool) -> tuple[bool, RetryHandler]:
    handler = RetryHandler(config, rng=jitter_rng(config, failures) if jitter else None)
    return handler.run(failing_times(failures)), handler


def violations(config: RetryConfig, failures: int, jitter: bool) -> set[str]:
    """Names of the restated clauses one run breaks."""
    succeeded, handler = run_once(config, failures, jitter)
    events = handler.events
    retries = [e for e in events if e["event"] == "RetryAttempted"]
    delays = [e["delayMs"] for e in retries]
    terminal = events[-1] if events else {}
    attempt_count = terminal.get("attempt")
    plan = plan_delays(config)
    allowed = len(plan) + 1
    capped_next = min(config.initial_delay_ms * 2 ** len(plan), config.max_delay_ms)
    broken: set[str] = set()

    def require(name: str, holds: bool) -> None:
        if not holds:
            broken.add(name)

    require("configValid", config.is_valid())
    require(
        "eventsAreRetriesThenOneOutcome",
        events[:-1] == retries
        and terminal.get("event") == ("OperationSucceeded" if succeeded else "OperationFailed")
        and [e["attempt"] for e in events] == [*range(2, len(retries) + 2), len(retries) + 1],
    )
    require("retriesAtMostMaxRetries", len(retries) <= config.max_retries)
    require("delayPositiveAfterFirstAttempt", all(d > 0 for d in delays))
    require("delayWithinMaxDelay", all(d <= config.max_delay_ms for d in delays))
    require("totalDelayIsSumOfDelays", handler.clock.now_ms == sum(delays))
    require("totalDelayWithinBudget", sum(delays) <= BUDGET_MS)
    if jitter:
        require("jitterWithinCeiling", all(1 <= d <= c for d, c in zip(delays, plan, strict=False)))
        require("jitterReproducible", run_once(config, failures, jitter)[1].events == events)
    else:
        require(
            "delaysDoubleUntilCap",
            all(b == min(2 * a, config.max_delay_ms) for a, b in pairwise(delays))
            and delays[:1] in ([], [config.initial_delay_ms]),
        )
    require(
        "budgetCutsOnlyWhenNeeded", len(plan) == config.max_retries or sum(plan) + capped_next > BUDGET_MS
    )
    require("succeedsIfAnAllowedAttemptSucceeds", failures >= allowed or attempt_count == failures + 1)
    require("failsOnlyAfterLastAllowedAttempt", succeeded or attempt_count == allowed <= failures)
    last_attempt_failed = attempt_count == config.max_retries + 1 and failures >= attempt_count
    require("lastAttemptFailureReportedAsFailed", not last_attempt_failed or not succeeded)
    return broken


INVARIANTS = (
    "configValid",
    "eventsAreRetriesThenOneOutcome",
    "retriesAtMostMaxRetries",
    "delayPositiveAfterFirstAttempt",
    "delayWithinMaxDelay",
    "delaysDoubleUntilCap",
    "jitterWithinCeiling",
    "jitterReproducible",
    "totalDelayIsSumOfDelays",
    "totalDelayWithinBudget",
    "budgetCutsOnlyWhenNeeded",
    "succeedsIfAnAllowedAttemptSucceeds",
    "failsOnlyAfterLastAllowedAttempt",
    "lastAttemptFailureReportedAsFailed",
)


def trace(handler: RetryHandler) -> list[str]:
    return [
        f"{e['event']} #{e['attempt']}" + (f" after {e['delayMs']} ms" if "delayMs" in e else "")
        for e in handler.events
    ]


def handler_report() -> dict[str, object]:
    broken_runs = dict.fromkeys(INVARIANTS, 0)
    outcomes = {"OperationSucceeded": 0, "OperationFailed": 0}
    final_successes = runs = 0
    for config in grid():
        for failures in range(config.max_retries + 2):
            for jitter in (False, True):
                runs += 1
                for name in violations(config, failures, jitter):
                    broken_runs[name] += 1
                succeeded, handler = run_once(config, failures, jitter)
                outcomes["OperationSucceeded" if succeeded else "OperationFailed"] += 1
                attempt_count = handler.events[-1]["attempt"]
                final_successes += succeeded and attempt_count == config.max_retries + 1
    plan = plan_delays(CAP_NOT_ENOUGH)
    _, always_failing = run_once(CAP_NOT_ENOUGH, CAP_NOT_ENOUGH.max_retries + 1, jitter=False)
    _, jittered = run_once(CAP_NOT_ENOUGH, CAP_NOT_ENOUGH.max_retries + 1, jitter=True)
    jittered_delays = [e["delayMs"] for e in jittered.events if "delayMs" in e]
    return {
        "runs": runs,
        "outcomes": outcomes,
        "configsCutByBudget": sum(len(plan_delays(c)) < c.max_retries for c in grid()),
        "successOnAttemptMaxRetriesPlusOne": final_successes,
        "brokenRuns": broken_runs,
        "example": {
            "config": CAP_NOT_ENOUGH.as_json(),
            "planMs": plan,
            "plannedTotalMs": sum(plan),
            "alwaysFailing": trace(always_failing),
            "jitteredDelaysMs": jittered_delays,
            "jitteredTotalMs": jittered.clock.now_ms,
        },
        "checks": {name: count == 0 for name, count in broken_runs.items()},
    }


@fixture
def resolved_handler() -> dict[str, object]:
    return handler_report()


# --- Numbers the prose and the table quote, computed from the same code -----

SPEC = spec_report()
TABLE_PLAN = plan_delays(CAP_NOT_ENOUGH)


def _source_of(*objects: object) -> str:
    return source_of(*objects)


def _ms(value: int) -> str:
    return f"{value:,}"


def _schedule_rows(config: RetryConfig) -> list[list[str]]:
    literal, plan = literal_delays(config), plan_delays(config)
    rows, cumulative = [], 0
    for retry in range(1, config.max_retries + 1):
        capped = nominal_delay(config, retry)
        if retry <= len(plan):
            cumulative += plan[retry - 1]
            taken, total = _ms(plan[retry - 1]), _ms(cumulative)
        else:
            taken, total = "dropped", "—"
        rows.append([str(retry), _ms(literal[retry - 1]), _ms(capped), taken, total])
    return rows


# --- Sources ---------------------------------------------------------------

AWS_BUILDERS = Source(
    title="Amazon Builders' Library: Timeouts, retries, and backoff with jitter",
    url="https://aws.amazon.com/builders-library/timeouts-retries-and-backoff-with-jitter/",
    note=(
        "retries add load to a system that may already be overloaded, so they need limits; "
        "capped exponential backoff and jitter as the standard way to space them"
    ),
)
AWS_JITTER = Source(
    title="AWS Architecture Blog: Exponential Backoff And Jitter",
    url="https://aws.amazon.com/blogs/architecture/exponential-backoff-and-jitter/",
    note=(
        "the capped schedule min(cap, base · 2^attempt) and full jitter, a delay drawn uniformly "
        "between 0 and that ceiling, which spreads out competing clients"
    ),
)
GRPC_A6 = Source(
    title="gRPC proposal A6: gRPC Retry Design",
    url="https://github.com/grpc/proposal/blob/master/A6-client-retries.md",
    note=(
        "maxAttempts includes the original request; the call deadline applies across all attempts; "
        "the n-th retry waits random(0, min(initialBackoff · multiplier^(n−1), maxBackoff)); "
        "server pushback never adds attempts beyond maxAttempts"
    ),
)
RFC9110_RETRY_AFTER = Source(
    title="RFC 9110: HTTP Semantics, §10.2.3 Retry-After",
    url="https://www.rfc-editor.org/rfc/rfc9110.html#name-retry-after",
    note=(
        "a server may say how long the client ought to wait, as an HTTP-date or a number of seconds, "
        "e.g. with 503 — an input that can ask for more than maxDelay or the remaining budget"
    ),
)

# --- The article -----------------------------------------------------------

_literal = SPEC["counterexample"]
_cap = SPEC["capIsNotEnough"]
assert isinstance(_literal, dict) and isinstance(_cap, dict)

the_revision = revision(
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
            "0 to 10, `initialDelay` from 10 ms to 5 s and `maxDelay` from 0.5 s to 30 s, and keeps "
            f"only combinations that satisfy the first clause: {SPEC['configs']} configurations. The "
            "doubling clause leaves no freedom: once the first delay is fixed, so is every later one. "
            "The fixture computes that schedule for each configuration and tests the other clauses "
            "against it:"
        ),
        code_block(_source_of(literal_delays), language="python"),
        heading("Contradiction 1: doubling meets the cap"),
        paragraph(
            "Take `initialDelay = 100 ms`, `maxDelay = 5 s`, `maxRetries = 10`. Doubling gives 100, "
            f"200, 400, 800, 1,600 and 3,200 ms, and then retry {_literal['firstRetryOverCap']} must "
            "wait 6,400 ms, above the cap. No schedule satisfies both: doubling has already chosen "
            "every value, and the cap forbids one. This happens whenever "
            "`initialDelay · 2^(maxRetries − 1) > maxDelay`; the fixture counts such configurations "
            "by enumeration and checks the count against that closed form."
        ),
        heading("Contradiction 2: ten retries against 30 seconds"),
        paragraph(
            "Doubled literally, the same configuration waits "
            f"{_literal['literalTotalMs'] / 1000:g} s in total. Obeying the cap instead brings it "
            f"to {_literal['cappedTotalMs'] / 1000:g} s, under budget, but the cap does not "
            "rescue every configuration. With `initialDelay = 1 s`, `maxDelay = 5 s` and ten retries, "
            f"the capped delays add up to {_cap['cappedTotalMs'] / 1000:g} s. Even capped, "
            f"{SPEC['tenRetryCappedOverBudget']} of the grid's {SPEC['tenRetryConfigs']} ten-retry "
            "configurations exceed 30 s. The budget is a third, independent constraint, and it has "
            "to be ranked against the other two."
        ),
        verified_output(
            spec_contradictions,
            expected={
                "configs": 550,
                "doublingExceedsCap": 244,
                "literalOverBudget": 175,
                "cappedOverBudget": 104,
                "satisfyEveryClause": 297,
                "tenRetryConfigs": 50,
                "tenRetryCappedOverBudget": 26,
                "counterexample": {
                    "config": {"maxRetries": 10, "initialDelayMs": 100, "maxDelayMs": 5000},
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
            "succeeds. In every configuration the operation may fail `maxRetries` times and then "
            "succeed; a correct handler reports `OperationSucceeded` with `attemptCount == "
            "maxRetries + 1`, and the clause calls that a failure. What matters is how the last "
            "attempt ended, not its number."
        ),
        verified_output(
            spec_contradictions,
            expected={
                "scenarios": 3850,
                "successOnAttemptMaxRetriesPlusOne": 550,
                "checks": {
                    "conflictCountMatchesClosedForm": True,
                    "counterexampleDoublingExceedsCap": True,
                    "counterexampleLiteralOverBudget": True,
                    "counterexampleCappedWithinBudget": True,
                    "capAloneCanExceedBudget": True,
                    "tenRetriesCanExceedBudget": True,
                    "specSatisfiableForSomeConfigs": True,
                    "failClauseContradictsFinalSuccess": True,
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
            _source_of(
                nominal_delay,
                fits_budget,
                plan_delays,
                delay_for_attempt,
                RetryHandler,
            ),
            language="python",
        ),
        paragraph(
            "Where the cap alone was not enough, the plan keeps "
            f"{len(TABLE_PLAN)} of the ten retries, {sum(TABLE_PLAN) / 1000:g} s in total; the next "
            f"would end at {(sum(TABLE_PLAN) + CAP_NOT_ENOUGH.max_delay_ms) / 1000:g} s."
        ),
        data_table(
            "Delay before each retry (ms): initialDelay = 1 s, maxDelay = 5 s, maxRetries = 10",
            ["Retry", "Literal doubling", "Capped", "Resolved", "Resolved total"],
            _schedule_rows(CAP_NOT_ENOUGH),
        ),
        figure(
            "/assets/retry_spec/delay-schedules.svg",
            alt=(
                "Two charts for initialDelay 1 s, maxDelay 5 s, maxRetries 10. Left: delay before "
                "each retry. Literal doubling reaches 8 s at retry 4 and leaves the chart; the capped "
                "schedule stays at 5 s from retry 4 to retry 10; the resolved schedule follows the "
                "capped one and stops after retry 7. Right: cumulative delay. Literal doubling passes "
                "the 30 s budget line at retry 5, the capped schedule at retry 8 and ends at 42 s, "
                "the resolved schedule ends at 27 s, under the line."
            ),
            caption=(
                "The same configuration three ways: literal doubling breaks the cap at retry 4 and the "
                "budget at retry 5; capping alone breaks the budget at retry 8; the budget-clamped plan "
                "stops after retry 7 at 27 s."
            ),
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
            resolved_handler,
            expected={
                "runs": 7700,
                "outcomes": {"OperationSucceeded": 5960, "OperationFailed": 1740},
                "configsCutByBudget": 104,
                "successOnAttemptMaxRetriesPlusOne": 892,
                "checks": {name: True for name in INVARIANTS},
            },
        ),
        paragraph(
            "`successOnAttemptMaxRetriesPlusOne` counts runs where the handler rightly breaks the "
            "literal failure clause: two per configuration the budget does not cut. Below, an "
            "operation that never succeeds: `OperationFailed` on attempt 8, not 11, because the "
            "budget ran out first."
        ),
        verified_output(
            resolved_handler,
            expected={
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
            "the batch's own functions and rerun the fixtures:"
        ),
        unordered_list(
            [
                "no cap in `nominal_delay`: `delayWithinMaxDelay` and `delaysDoubleUntilCap` fail, "
                "and the capped over-budget count rises to the literal one;",
                "a `fits_budget` that always agrees: `totalDelayWithinBudget` fails;",
                "`attempts_allowed` one short: the handler gives up an attempt early, and both "
                "outcome checks fail;",
                "a zero delay before attempt 2: `delayPositiveAfterFirstAttempt` fails.",
            ]
        ),
        heading("Send the answers back to the spec"),
        paragraph(
            f"Only {SPEC['satisfyEveryClause']} of the {SPEC['configs']} configurations satisfy every "
            "clause as written. The spec's owner can add an order of precedence, or reject the other "
            "configurations at load time; leaving the choice to whoever writes the loop is the only "
            "wrong answer. The question returns with the next input: an HTTP `Retry-After` may ask "
            "for more than `maxDelay` or than the budget has left (gRPC's pushback, for one, never "
            "adds attempts beyond `maxAttempts`). Decide before the first 503, and write the "
            "decision down as a check."
        ),
    ],
    sources=[AWS_BUILDERS, AWS_JITTER, GRPC_A6, RFC9110_RETRY_AFTER],
)

revisions = [the_revision]
