"""워커의 질문 하나: 다시 넘길까, 언제?

실패한 지시를 앞에 둔 워커의 재시도 결정을 순수 함수 ``decide``로 적는다.
어댑터는 실패를 세 가지 전망(outlook) 중 하나로 번역한다: ``again``(일시적),
``after_fix``(설정 문제), ``never``(지시 자체가 틀림). 네트워크도 시계도 없다:
시간은 마지막 시도 뒤 흐른 초(秒)로 입력에 들어온다.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import FrameType
from typing import Any

from _shown_source import source_of

from site_builder import (
    Source,
    code_block,
    data_table,
    figure,
    fixture,
    heading,
    paragraph,
    revision,
    unordered_list,
    verified_output,
)

# --- 결정 함수 ---------------------------------------------------------------

AGAIN, AFTER_FIX, NEVER = "again", "after_fix", "never"
OUTLOOKS = (AGAIN, AFTER_FIX, NEVER)  # 닫힌 어휘: 이 밖의 값은 모두 '모름'
BACKOFF_S = (30, 120, 600)  # again: 30초, 2분, 10분, 그다음은 사람
RECHECK_S = 600  # after_fix: 10분마다 다시 확인, 횟수는 세지 않는다

REASONS = (
    "first_attempt",
    "outlook_unknown",
    "never_new_instruction",
    "not_declared_idempotent",
    "again_exhausted",
    "again_wait",
    "again_send",
    "after_fix_wait",
    "after_fix_send",
)


@dataclass(frozen=True)
class Decision:
    action: str  # "send" | "wait" | "hold"
    wait: int | None  # 다음에 볼 때까지 남은 초; hold면 None
    reason: str  # 운영자에게 그대로 보이는 사유


def decide(
    state: str,
    outlook: str | None,
    attempts_failed: int,
    declared_idempotent: bool,
    seconds_since_last: int,
) -> Decision:
    if state == "approved":  # 한 번도 보낸 적 없음: 중복될 것이 없다
        return Decision("send", 0, "first_attempt")
    if state != "failed" or attempts_failed < 1:
        raise ValueError(f"no decision for {state!r} after {attempts_failed} failures")
    if outlook not in OUTLOOKS:  # 모르는 것은 재시도로 밀어붙이지 않는다
        return Decision("hold", None, "outlook_unknown")
    if outlook == NEVER:  # 사람이 새 지시를 내야 한다
        return Decision("hold", None, "never_new_instruction")
    if not declared_idempotent:  # 두 번 보내도 하나라는 약속이 없다
        return Decision("hold", None, "not_declared_idempotent")
    if outlook == AFTER_FIX:  # 기다림이지 재시도가 아니다: 횟수를 읽지 않는다
        pause = RECHECK_S
    elif attempts_failed > len(BACKOFF_S):  # again만 횟수로 접는다
        return Decision("hold", None, "again_exhausted")
    else:
        pause = BACKOFF_S[attempts_failed - 1]
    if seconds_since_last < pause:
        return Decision("wait", pause - seconds_since_last, f"{outlook}_wait")
    return Decision("send", 0, f"{outlook}_send")


# 운영자 화면의 사유 설명: '이걸 고쳐라'와 '우리 쪽에서 고칠 것 없음'을 가른다.
REASON_NOTES = {
    "first_attempt": "첫 전송. 확인할 것 없음",
    "again_wait": "고칠 것 없음. 상대가 흔들렸고 워커가 곧 다시 보낸다",
    "again_send": "고칠 것 없음. 사다리에 따라 다시 보냈다",
    "again_exhausted": "사람이 볼 차례. 세 번 다시 보내도 상대가 회복하지 않았다",
    "after_fix_wait": "설정을 고칠 것. 고치면 10분 안에 지시가 그대로 나간다",
    "after_fix_send": "설정이 고쳐졌는지 보려고 지시를 그대로 다시 보냈다",
    "never_new_instruction": "지시를 고칠 것. 이 지시로는 안 되니 새 지시를 내야 한다",
    "not_declared_idempotent": (
        "자동 재시도 안 함. 커넥터가 “두 번 보내도 하나”를 선언하지 않았으니 상대 쪽에 지시가 "
        "생겼는지 확인하고 사람이 보낸다"
    ),
    "outlook_unknown": "어댑터를 고칠 것. 실패의 전망을 밝히지 않았거나 어휘 밖의 값을 보냈다",
}

# --- 결정표와 격자 -------------------------------------------------------------

# (state, outlook, attempts_failed, declared_idempotent, seconds_since_last)
Inputs = tuple[str, str | None, int, bool, int]

TABLE: tuple[Inputs, ...] = (
    ("approved", None, 0, False, 0),
    ("failed", AGAIN, 1, True, 10),
    ("failed", AGAIN, 1, True, 30),
    ("failed", AGAIN, 2, True, 120),
    ("failed", AGAIN, 3, True, 300),
    ("failed", AGAIN, 4, True, 3600),
    ("failed", AFTER_FIX, 1, True, 0),
    ("failed", AFTER_FIX, 40, True, 600),
    ("failed", NEVER, 1, True, 0),
    ("failed", AGAIN, 1, False, 600),
    ("failed", None, 1, True, 600),
    ("failed", "retry", 1, True, 600),
)
INVALID: tuple[Inputs, ...] = (("sent", AGAIN, 1, True, 0), ("failed", AGAIN, 0, True, 0))

GRID_OUTLOOKS = (None, "retry", AGAIN, AFTER_FIX, NEVER)
GRID_SECONDS = (0, 29, 30, 119, 120, 599, 600, 3600)
GRID_FAILURES = range(1, 13)
SCAN_SECONDS = range(7201)


def grid() -> Iterator[Inputs]:
    for declared in (False, True):
        for outlook in GRID_OUTLOOKS:
            for since in GRID_SECONDS:
                yield ("approved", outlook, 0, declared, since)
                for failed in GRID_FAILURES:
                    yield ("failed", outlook, failed, declared, since)


def row_text(inputs: Inputs, decision: Decision) -> str:
    state, outlook, failed, declared, since = inputs
    given = (
        f"{state:<8} {outlook or '-':<9} n={failed:<2} idem={'yes' if declared else 'no':<3} t={since:>4}s"
    )
    done = f"wait {decision.wait}s" if decision.action == "wait" else decision.action
    return f"{given} → {done:<9} {decision.reason}"


def lines_not_run(function: Callable[..., Any], calls: list[Callable[[], object]]) -> list[int]:
    """Lines of ``function`` that none of ``calls`` executed (relative to its ``def``)."""
    code = function.__code__
    ran: set[int] = set()

    def local(frame: FrameType, event: str, arg: object) -> Any:
        if event == "line":
            ran.add(frame.f_lineno)
        return local

    def on_call(frame: FrameType, event: str, arg: object) -> Any:
        return local if frame.f_code is code else None

    previous = sys.gettrace()
    sys.settrace(on_call)
    try:
        for call in calls:
            call()
    finally:
        sys.settrace(previous)
    body = {line for _, _, line in code.co_lines() if line is not None and line != code.co_firstlineno}
    return sorted(line - code.co_firstlineno for line in body - ran)


def first_send(outlook: str, failed: int) -> int | None:
    """The smallest number of seconds after which ``decide`` sends again, found by scanning."""
    for since in SCAN_SECONDS:
        if decide("failed", outlook, failed, True, since).action == "send":
            return since
    return None


def _rejects(inputs: Inputs) -> bool:
    try:
        decide(*inputs)
    except ValueError:
        return True
    return False


@fixture
def decision_table() -> dict[str, object]:
    table = {inputs: decide(*inputs) for inputs in TABLE}
    missed = lines_not_run(
        decide,
        [lambda i=inputs: decide(*i) for inputs in TABLE]
        + [lambda i=inputs: _rejects(i) for inputs in INVALID],
    )
    seen = {inputs: decide(*inputs) for inputs in grid()}
    failed = {i: d for i, d in seen.items() if i[0] == "failed"}

    def varies_with_count(outlook: str | None) -> bool:
        for declared in (False, True):
            for since in GRID_SECONDS:
                if len({failed["failed", outlook, n, declared, since] for n in GRID_FAILURES}) > 1:
                    return True
        return False

    after_fix = [failed["failed", AFTER_FIX, n, True, since] for n in GRID_FAILURES for since in GRID_SECONDS]
    ladder = [first_send(AGAIN, n) for n in (1, 2, 3)]
    beyond = {decide("failed", AGAIN, n, True, since).action for n in range(4, 13) for since in SCAN_SECONDS}
    recheck = sorted({first_send(AFTER_FIX, n) for n in GRID_FAILURES}, key=str)
    unknown = [d for i, d in failed.items() if i[1] not in OUTLOOKS]
    undeclared = [d for i, d in failed.items() if not i[3]]
    approved = [(i, d) for i, d in seen.items() if i[0] == "approved"]
    return {
        "table": [row_text(inputs, decision) for inputs, decision in table.items()],
        "ladderSeconds": ladder,
        "afterFixRecheckSeconds": recheck,
        "gridSize": len(seen),
        "checks": {
            "afterFixNeverFolds": all(d.action != "hold" for d in after_fix)
            and all(
                len({failed["failed", AFTER_FIX, n, True, since] for n in GRID_FAILURES}) == 1
                for since in GRID_SECONDS
            ),
            "afterFixRechecksEvery10Min": recheck == [600],
            "onlyAgainFolds": {o for o in GRID_OUTLOOKS if varies_with_count(o)} == {AGAIN},
            "backoffIs30s2m10mThenStop": ladder == [30, 120, 600] and beyond == {"hold"},
            "firstAttemptIgnoresIdempotency": {i[3] for i, _ in approved} == {False, True}
            and all(d == Decision("send", 0, "first_attempt") for _, d in approved),
            "retryNeedsDeclaredIdempotency": all(d.action != "send" for d in undeclared)
            and any(d.action == "send" for d in failed.values()),
            "unknownNeverRetried": bool(unknown)
            and all(d == Decision("hold", None, "outlook_unknown") for d in unknown),
            "everyReasonExplained": set(REASON_NOTES) == set(REASONS),
            "everyBranchCovered": {d.reason for d in table.values()} == set(REASONS)
            and {d.reason for d in seen.values()} == set(REASONS)
            and all(_rejects(inputs) for inputs in INVALID)
            and missed == [],
        },
    }


def _source_of(*objects: object) -> str:
    return source_of(*objects, gap="\n\n\n")


# --- 출처 ------------------------------------------------------------------

AWS_BACKOFF = Source(
    title="Amazon Builders' Library: Timeouts, retries, and backoff with jitter",
    url="https://aws.amazon.com/builders-library/timeouts-retries-and-backoff-with-jitter/",
    note=(
        "재시도는 “이기적”이라 과부하인 상대에 부하를 더한다는 점, 상한이 있는 지수 백오프와 "
        "재시도 횟수 제한, 동시에 몰리는 재시도를 흩는 지터, 클라이언트 오류는 같은 요청으로 "
        "재시도해도 성공하지 않는다는 점, 부작용이 있는 API는 멱등성을 제공하지 않는 한 재시도가 "
        "안전하지 않다는 점의 근거"
    ),
)
SRE_CASCADING = Source(
    title="Site Reliability Engineering (Google), Chapter 22: Addressing Cascading Failures",
    url="https://sre.google/sre-book/addressing-cascading-failures/",
    note=(
        "재시도 절: 무작위화한 지수 백오프, 요청당 재시도 횟수 제한, 재시도 가능한 오류와 불가능한 "
        "오류의 분리, 영구적인 오류나 잘못된 요청은 결코 성공하지 않으니 재시도하지 말 것"
    ),
)
RFC7231 = Source(
    title="RFC 7231: Hypertext Transfer Protocol (HTTP/1.1): Semantics and Content, §4.2.2",
    url="https://www.rfc-editor.org/rfc/rfc7231.html#section-4.2.2",
    note=(
        "멱등의 정의(같은 요청을 여러 번 보낸 의도된 효과가 한 번 보낸 효과와 같음)와, 그래서 "
        "응답을 읽기 전에 통신이 끊기면 요청을 자동으로 다시 보낼 수 있다는 설명"
    ),
)

# --- 글 --------------------------------------------------------------------

_OPERATOR_ROWS = [
    [
        "`again`",
        "30초, 2분, 10분 뒤 지시를 그대로 다시 보낸다. 세 번 다시 보내도 `again`이면 멈춘다.",
        f"`again_wait`: {REASON_NOTES['again_wait']}. `again_exhausted`: {REASON_NOTES['again_exhausted']}.",
    ],
    [
        "`after_fix`",
        "10분마다 지시를 그대로 다시 보내 본다. 실패 횟수는 읽지 않는다.",
        f"`after_fix_wait`: {REASON_NOTES['after_fix_wait']}.",
    ],
    [
        "`never`",
        "보내지 않는다.",
        f"`never_new_instruction`: {REASON_NOTES['never_new_instruction']}.",
    ],
    [
        "전망 없음, 어휘 밖의 값",
        "보내지 않는다. `again`으로 짐작하지 않는다.",
        f"`outlook_unknown`: {REASON_NOTES['outlook_unknown']}.",
    ],
    [
        "`again`·`after_fix`, 선언 없는 커넥터",
        "첫 전송만 한다. 실패한 지시는 다시 보내지 않는다.",
        f"`not_declared_idempotent`: {REASON_NOTES['not_declared_idempotent']}.",
    ],
]

the_revision = revision(
    slug="retry-decision-one-question",
    title="워커의 질문 하나: 다시 넘길까, 언제?",
    categories=["신뢰성", "백엔드"],
    excerpt=(
        "실패한 지시를 앞에 둔 워커의 재시도 결정을 순수 함수 하나로 적었다. 어댑터는 again, "
        "after_fix, never 중 하나로 답하고, 횟수로 접는 것은 again뿐이며, 실패한 지시를 다시 "
        "보내는 것은 멱등성을 선언한 커넥터에만 허락된다."
    ),
    cover="/assets/retry_decision/cover.svg",
    published="2021-03-15",
    lang="ko",
    body=[
        paragraph(
            "지시 하나가 커넥터를 거쳐 바깥 시스템으로 나갔다가 실패로 돌아왔다. 이때 워커가 물어야 "
            "할 질문은 하나뿐이다. 이 지시를 다시 넘길 것인가, 넘긴다면 언제인가. 흔한 답은 “세 "
            "번까지 재시도”다. 짧고 설정하기도 쉽지만 이 답은 실패의 성격을 묻지 않는다. 네트워크가 "
            "잠깐 끊긴 실패도, API 키가 만료된 실패도, 금액이 음수인 지시도 똑같이 세 번 보내고, "
            "세 번이 지나면 똑같이 포기한다."
        ),
        paragraph(
            "이 글은 그 질문을 순수 함수 하나로 적는다. 입력은 지시의 상태, 어댑터가 밝힌 전망, "
            "실패 횟수, 커넥터의 멱등성 선언, 마지막 시도 뒤 흐른 시간이다. 출력은 지금 보낼지, "
            "얼마나 기다릴지, 그리고 그 이유다. 함수는 네트워크도 시계도 읽지 않으므로 모든 분기를 "
            "표 하나로 확인할 수 있다."
        ),
        heading("어댑터는 세 가지 중 하나로 답한다"),
        paragraph(
            "상대 시스템의 오류를 이해하는 것은 어댑터다. HTTP 503인지, 결제 대행사의 고유 오류 "
            "코드인지는 어댑터만 안다. 워커가 이런 코드를 직접 해석하기 시작하면 커넥터마다 재시도 "
            "규칙이 하나씩 늘어난다. 그래서 어댑터는 실패를 워커의 어휘 세 개 중 하나로 번역해 넘긴다."
        ),
        unordered_list(
            [
                "**`again`**: 일시적인 실패다. 상대에 닿지 못했거나 상대가 잠깐 흔들렸다. 같은 "
                "지시를 시간을 두고 그대로 다시 보내면 된다.",
                "**`after_fix`**: 설정 문제다. 인증서가 만료됐거나 계정 권한이 빠졌거나 수신 주소가 "
                "틀렸다. 지시 자체는 옳으므로 사람이 설정을 고치면 지시는 손대지 않고 그대로 보내면 된다.",
                "**`never`**: 지시 자체가 틀렸다. 없는 계좌, 허용되지 않는 금액, 형식이 어긋난 요청이 "
                "그렇다. 몇 번을 보내도 결과는 같고, 사람이 새 지시를 내야 한다.",
            ]
        ),
        paragraph(
            "Google SRE 책은 연쇄 장애를 다루는 장에서 재시도할 수 있는 오류와 없는 오류를 나누고, "
            "영구적인 오류나 잘못된 요청은 결코 성공하지 않으니 재시도하지 말라고 권한다. AWS "
            "Builders' Library의 글도 HTTP가 클라이언트 오류와 서버 오류를 구분한다는 점을 짚는다. "
            "클라이언트 오류는 같은 요청으로 다시 보내 봐야 나중에도 성공하지 않는다. 세 가지 전망은 "
            "이 구분을 한 칸 더 쪼갠 것이다. “다시 보내도 안 된다”를 사람이 할 일에 따라 둘로 "
            "나눈다. 설정을 고치면 같은 지시가 통하는 경우가 `after_fix`, 지시를 새로 내야 하는 "
            "경우가 `never`다."
        ),
        figure(
            "/assets/retry_decision/decision-flow.svg",
            alt=(
                "결정 흐름도. 승인된 지시는 멱등성을 묻지 않고 바로 보낸다. 실패한 지시는 먼저 "
                "어댑터의 전망을 본다. 전망이 없거나 어휘 밖이면 보류, never면 새 지시가 필요해 "
                "보류, 커넥터가 멱등성을 선언하지 않았으면 보류한다. after_fix는 10분마다 그대로 "
                "다시 보내며 횟수를 세지 않는다. again은 30초, 2분, 10분 뒤 다시 보내고, 그래도 "
                "실패하면 멈추고 사람이 본다."
            ),
            caption=(
                "재시도 결정의 흐름. 횟수로 접히는 것은 again의 사다리(30초 → 2분 → 10분 → 사람)뿐이고, "
                "after_fix는 10분 간격의 기다림이다."
            ),
        ),
        heading("after_fix는 재시도가 아니라 기다림이다"),
        paragraph(
            "흔한 실수는 `after_fix`까지 재시도 횟수에 넣는 것이다. 설정 문제는 사람이 고칠 "
            "때까지 몇 번을 보내도 같은 답이 돌아온다. 그러니 “세 번까지” 규칙은 30초, 2분, 10분 "
            "만에 횟수를 다 쓰고 지시를 실패로 접는다. 담당자가 한 시간 뒤 인증서를 교체해도 접힌 "
            "지시는 움직이지 않는다. 누군가 목록을 뒤져 지시마다 “보내기”를 다시 눌러야 하고, 그 "
            "사이 빠뜨린 지시는 조용히 묻힌다."
        ),
        paragraph(
            "그래서 `after_fix`는 세지 않는다. 워커는 10분마다 지시를 그대로 다시 보내 보고, 설정이 "
            "아직 그대로면 같은 `after_fix`가 돌아올 뿐이다. 실패가 1번째든 40번째든 결정은 같다. "
            "사람이 설정을 고치면 늦어도 10분 안에 지시가 나가고, 아무도 다시 누를 필요가 없다. "
            "10분은 고쳐지지 않은 설정으로 상대를 두드리는 횟수를 낮게 유지하면서, 고친 뒤 기다리는 "
            "시간도 짧게 두는 절충이다."
        ),
        heading("접히는 것은 again뿐이다"),
        paragraph(
            "`again`은 기다리면 나아진다는 전망이지만 그 전망이 언제까지나 맞지는 않는다. 재시도는 "
            "상대가 이미 과부하일 때 부하를 더한다. AWS의 글은 재시도를 “이기적”이라고 부르고, SRE "
            "책은 요청마다 재시도 횟수를 제한하고 무작위화한 지수 백오프를 쓰라고 한다. 이 워커의 "
            "사다리는 30초, 2분, 10분이다. 세 번 다시 보내고도 `again`이 돌아오면 워커는 멈추고 "
            "사람이 상대 쪽을 살펴보게 한다. 네 번째 실패 뒤에도 자동으로 계속 보내는 것은 "
            "“일시적”이라는 진단이 틀렸을 가능성을 외면하는 일이다."
        ),
        paragraph(
            "실제 워커에서는 많은 지시가 같은 순간에 다시 몰리지 않도록 기다림에 지터를 섞는다. 아래 "
            "모델은 표를 결정적으로 만들려고 지터를 뺐다. 간격의 상한과 횟수의 상한은 그대로다."
        ),
        heading("첫 전송은 묻지 않고, 재시도는 선언을 묻는다"),
        paragraph(
            "승인됐지만 아직 한 번도 보내지 않은 지시는 멱등성을 묻지 않고 나간다. 보낸 적이 없으니 "
            "중복될 것도 없다. 실패한 지시를 다시 보내는 일은 다르다. “실패”는 워커가 본 결과일 뿐, "
            "상대가 지시를 받지 않았다는 뜻이 아니다. 응답이 돌아오는 길에 연결이 끊겼다면 상대 "
            "쪽에는 이미 지시가 만들어져 있을 수 있다."
        ),
        paragraph(
            "RFC 7231은 같은 요청을 여러 번 보낸 의도된 효과가 한 번 보낸 효과와 같을 때 그 메서드를 "
            "멱등이라 부르고, 그래서 응답을 읽기 전에 통신이 끊기면 요청을 자동으로 다시 보낼 수 "
            "있다고 설명한다. AWS의 글도 부작용이 있는 API는 멱등성을 제공하지 않는 한 재시도하기에 "
            "안전하지 않다고 본다. 워커에게 이 성질은 HTTP 메서드가 아니라 커넥터의 약속이다. 멱등성 "
            "키를 쓰든 상대 쪽의 자연 키를 쓰든 방법은 커넥터가 고르고, “두 번 보내도 지시는 "
            "하나”라고 선언한 커넥터만 실패한 지시를 다시 받는다. `again`의 재전송도, `after_fix`의 "
            "10분 확인도 이 규칙을 따른다."
        ),
        heading("모르는 것은 재시도로 밀어붙이지 않는다"),
        paragraph(
            "어댑터가 전망을 밝히지 않았거나 어휘에 없는 값을 보냈다면 워커는 그 실패를 `again`으로 "
            "짐작하지 않는다. 어댑터가 `retry`라고 답해도 마찬가지다. 어휘는 닫혀 있고, 비슷해 보이는 "
            "낱말을 해석하는 순간 그 해석이 새 규칙이 된다. 선언하지 않은 커넥터도 같은 원칙을 따른다. "
            "“아마 괜찮겠지” 하고 보낸 재시도가 중복 지시를 만들면 되돌리기 어렵지만, 멈춘 지시는 "
            "사람이 확인하고 보내면 그만이다."
        ),
        paragraph(
            "멈출 때 워커는 이유를 남긴다. 이유는 운영자가 “이걸 고쳐라”와 “우리 쪽에서는 고칠 것이 "
            "없다”를 구별할 수 있을 만큼 구체적이어야 한다. 사유가 모두 “재시도 실패” 하나로 뭉쳐 "
            "있으면 운영자는 실패 목록을 하나씩 열어 로그를 읽는 수밖에 없다."
        ),
        heading("결정 함수"),
        paragraph(
            "아래가 이 글의 모델이 실제로 실행하는 코드다. 글에 보이는 코드는 모듈의 소스를 그대로 "
            "읽어 온 것이라 코드와 어긋날 수 없다. 상태는 `approved`(승인됨, 아직 보내지 않음)와 "
            "`failed` 두 가지이고, 시간은 마지막 시도 뒤 흐른 초다. 상수는 "
            f"`OUTLOOKS = {OUTLOOKS!r}`, `BACKOFF_S = {BACKOFF_S!r}`, `RECHECK_S = {RECHECK_S}`이다."
        ),
        code_block(_source_of(Decision, decide), language="python"),
        paragraph(
            "분기 순서가 곧 우선순위다. 상태를 먼저 보고, 그다음 전망이 어휘 안에 있는지, `never`인지, "
            "커넥터가 선언했는지를 차례로 본다. 이 세 관문을 지나야 기다림이나 재전송이 나온다. "
            "`attempts_failed`를 읽는 분기는 `again`의 사다리뿐이고, `after_fix`는 그 값을 읽지 않는다."
        ),
        heading("분기마다 한 줄: 결정표"),
        paragraph(
            "픽스처 `decision_table`은 아래 표의 각 행을 `decide`에 넣고 결과를 적는다. 열은 상태, "
            "전망, 실패 횟수 `n`, 멱등성 선언 `idem`, 경과 시간 `t`, 결정, 사유 순이다. 표는 모든 "
            "사유를 한 번 이상 지나고, 픽스처는 `sys.settrace`로 `decide`의 실행 가능한 줄이 모두 "
            "실행됐는지도 센다. 표가 건드리지 않는 분기가 생기면 검사가 거짓이 된다."
        ),
        verified_output(
            decision_table,
            expected={
                "table": [
                    "approved -         n=0  idem=no  t=   0s → send      first_attempt",
                    "failed   again     n=1  idem=yes t=  10s → wait 20s  again_wait",
                    "failed   again     n=1  idem=yes t=  30s → send      again_send",
                    "failed   again     n=2  idem=yes t= 120s → send      again_send",
                    "failed   again     n=3  idem=yes t= 300s → wait 300s again_wait",
                    "failed   again     n=4  idem=yes t=3600s → hold      again_exhausted",
                    "failed   after_fix n=1  idem=yes t=   0s → wait 600s after_fix_wait",
                    "failed   after_fix n=40 idem=yes t= 600s → send      after_fix_send",
                    "failed   never     n=1  idem=yes t=   0s → hold      never_new_instruction",
                    "failed   again     n=1  idem=no  t= 600s → hold      not_declared_idempotent",
                    "failed   -         n=1  idem=yes t= 600s → hold      outlook_unknown",
                    "failed   retry     n=1  idem=yes t= 600s → hold      outlook_unknown",
                ],
            },
        ),
        paragraph(
            "표 열두 줄로 성질을 증명할 수는 없다. 그래서 픽스처는 더 넓은 격자(전망 5가지 × 실패 "
            "횟수 0~12 × 선언 여부 × 경과 시간 8가지)를 돌려 성질을 함수의 행동에서 직접 계산한다. "
            "사다리도 상수에서 읽지 않는다. 실패 횟수마다 경과 시간을 0초부터 1초씩 늘려 가며 처음 "
            "`send`가 나오는 시점을 찾는다."
        ),
        verified_output(
            decision_table,
            expected={
                "ladderSeconds": [30, 120, 600],
                "afterFixRecheckSeconds": [600],
                "gridSize": 1040,
                "checks": {
                    "afterFixNeverFolds": True,
                    "afterFixRechecksEvery10Min": True,
                    "onlyAgainFolds": True,
                    "backoffIs30s2m10mThenStop": True,
                    "firstAttemptIgnoresIdempotency": True,
                    "retryNeedsDeclaredIdempotency": True,
                    "unknownNeverRetried": True,
                    "everyReasonExplained": True,
                    "everyBranchCovered": True,
                },
            },
        ),
        paragraph(
            "글 옆의 테스트는 이 모듈을 직접 망가뜨려 본다. `after_fix`를 횟수로 접거나, 선언하지 "
            "않은 커넥터의 지시를 다시 보내거나, 사다리를 바꾸거나, 모르는 전망을 `again`으로 "
            "취급하면 해당 검사가 거짓으로 바뀌고 픽스처가 실패한다. 이 글의 숫자가 코드와 어긋나면 "
            "사이트가 빌드되지 않는다."
        ),
        heading("운영자가 보는 것"),
        paragraph(
            "결정의 사유는 로그에만 남기지 않고 운영 화면에 그대로 보여 준다. 사유마다 붙는 설명은 "
            "누가 무엇을 해야 하는지를 말한다."
        ),
        data_table(
            "전망별로 워커가 하는 일과 운영자가 보는 사유",
            ["전망", "워커가 하는 일", "운영자가 보는 사유"],
            _OPERATOR_ROWS,
        ),
        paragraph(
            "이렇게 나누면 멈춘 지시의 목록이 담당자별로 갈린다. `again_wait`는 지켜보기만 하면 되고, "
            "`after_fix_wait`는 설정 담당자에게, `never_new_instruction`은 지시를 낸 사람에게, "
            "`outlook_unknown`은 어댑터를 만든 사람에게 간다. 재시도 정책의 목적은 실패를 숨기는 것이 "
            "아니라, 사람이 손댈 실패만 사람 앞에 남기는 데 있다."
        ),
    ],
    sources=[AWS_BACKOFF, SRE_CASCADING, RFC7231],
)

revisions = [the_revision]
