"""The correction of 4 December 2026: the third revision of retry-decision-one-question.

An editor read the second revision (``revised_2026_12``, dated 2026-12-01) and found that
its operator note and its text promised a fix within 24 hours would be sent within
10 minutes, while the model expires an approval whose fix comes after the last recheck
(23 h 50 min); its check ``fixWithin24hSentWithin10Min`` ran one fix, at 2 h 5 min. This
revision states the rule the model follows, computed by ``decision_fix_window``, which
runs a fix at both edges of every recheck interval of the 24-hour window, first and last
second included; it also writes small counts with Korean native counters and says what
“30초, 2분, 10분” add up to. The model, its fixtures and the second revision are imported,
not copied: the second revision stays as it was published.
"""

from __future__ import annotations

from typing import Any

import retry_decision as decision_v1
from revised_2026_12 import (
    _DECISION_AGAIN_SENDS,
    _DECISION_DECLARED_MAX,
    _DECISION_LADDER,
    _DECISION_LAST_STEP,
    _DECISION_LATE_FIX,
    _DECISION_MAX_AGE,
    _DECISION_NAIVE,
    _DECISION_RECHECK,
    _DECISION_UNDECLARED_MAX,
    DECISION_BACKOFF_S,
    DECISION_FIX_EARLY_S,
    DECISION_GRID_AGES,
    DECISION_GRID_FAILURES,
    DECISION_GRID_OUTLOOKS,
    DECISION_GRID_SECONDS,
    DECISION_MAX_AGE_S,
    DECISION_OUTLOOKS,
    DECISION_REASON_NOTES,
    DECISION_RECHECK_S,
    DECISION_STRIPE_KEYS,
    DECISION_TABLE,
    Decision,
    DecisionRecord,
    DecisionRun,
    DecisionStore,
    _decision_life,
    decision_crashes,
    decision_duration,
    decision_fixed_at,
    decision_lifetimes,
    decision_of,
    decision_recover,
    decision_run,
    decision_send,
    decision_source_of,
    decision_table,
    decision_times,
)

from site_builder import (
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

# --- 수정 창: 승인 뒤 24시간 안의 어느 초에 고쳐도 ------------------------------


def decision_fix_window_seconds() -> tuple[int, ...]:
    """승인 뒤 24시간 창에서 돌릴 수정 시각: 첫 초(0)와 마지막 초(86,399), 그리고 확인
    간격 (k·600, (k+1)·600]마다 그 양 끝. 워커가 상대의 답을 읽는 것은 보내는 순간뿐이고
    그 순간이 모두 600의 배수라면(검사 ``sendsOnlyAtRecheckInstants``), 한 간격 안의 수정은
    모두 같은 실행을 낳으니 양 끝이 간격 전체를 대신한다."""
    last = DECISION_MAX_AGE_S - 1
    edges = {0, last}
    for start in range(0, DECISION_MAX_AGE_S, DECISION_RECHECK_S):
        edges.update({start + 1, min(start + DECISION_RECHECK_S, last)})
    return tuple(sorted(edges))


def decision_fix_window_runs() -> dict[int, DecisionRun]:
    """창의 각 수정 시각에 한 번씩: 멱등성을 선언한 커넥터, 상대는 고쳐지기 전까지 after_fix."""
    return {fix: decision_run(decision_fixed_at(fix), True) for fix in decision_fix_window_seconds()}


def decision_fix_window() -> dict[str, Any]:
    runs = decision_fix_window_runs()
    sent = {fix: run for fix, run in runs.items() if run.end == "done"}
    expired = {fix: run for fix, run in runs.items() if run.end == "expired"}
    last_sent_fix = max(sent, default=-1)
    delays = [run.received_at[-1] - fix for fix, run in sent.items()] or [0]
    first, last = min(runs), max(runs)
    return {
        "fixesRun": len(runs),
        "firstSecond": first,
        "lastSecond": last,
        "lastFixSentAt": last_sent_fix,
        "longestWaitAfterFix": max(delays),
        "edges": {
            str(fix): {"end": runs[fix].end, "sends": len(runs[fix].received_at)}
            for fix in sorted({first, last_sent_fix, last_sent_fix + 1, last} & runs.keys())
        },
        "checks": {
            "windowFromFirstToLastSecond": (first, last) == (0, DECISION_MAX_AGE_S - 1),
            "sendsOnlyAtRecheckInstants": all(
                t % DECISION_RECHECK_S == 0 for run in runs.values() for t in run.received_at
            ),
            "everyFixUpToLastRecheckSentWithin10Min": all(fix in sent for fix in runs if fix <= last_sent_fix)
            and max(delays) <= DECISION_RECHECK_S,
            "everyLaterFixExpiresUnsent": all(fix in expired for fix in runs if fix > last_sent_fix)
            and all(run.received_at[-1] < fix for fix, run in expired.items()),
            "lastFixSentIsTheLastRecheck": last_sent_fix == max(_decision_life("neverFixed").received_at),
        },
    }


@fixture
def decision_fix_window_edges() -> dict[str, Any]:
    return decision_fix_window()


# --- 글에 쓰는 수: 작은 수는 고유어로 --------------------------------------------

DECISION3_NATIVE = {
    1: "한",
    2: "두",
    3: "세",
    4: "네",
    5: "다섯",
    6: "여섯",
    7: "일곱",
    8: "여덟",
    9: "아홉",
    10: "열",
}
DECISION3_ORDINAL = {**DECISION3_NATIVE, 1: "첫", 20: "스무", 40: "마흔"}


def decision3_times(n: int) -> str:
    """횟수: 3 -> '세 번', 144 -> '144번'."""
    return f"{DECISION3_NATIVE[n]} 번" if n in DECISION3_NATIVE else f"{n}번"


def decision3_nth(n: int) -> str:
    """차례: 1 -> '첫 번째', 4 -> '네 번째', 40 -> '마흔 번째'."""
    return f"{DECISION3_ORDINAL[n]} 번째" if n in DECISION3_ORDINAL else f"{n}번째"


_DECISION3_WINDOW = decision_fix_window()
_DECISION3_LAST_FIX = decision_duration(_DECISION3_WINDOW["lastFixSentAt"])
_DECISION3_LADDER_TOTAL = decision_duration(_decision_life("again").end_at)

DECISION3_REASON_NOTES = {
    **DECISION_REASON_NOTES,
    "again_exhausted": (
        f"사람이 볼 차례. 첫 전송을 포함해 {decision3_times(_DECISION_AGAIN_SENDS)} 보내도 상대가 회복하지 "
        "않았다"
    ),
    "after_fix_wait": (
        f"설정을 고칠 것. 승인 뒤 {_DECISION3_LAST_FIX}까지 고치면 {_DECISION_RECHECK} 안에 지시가 그대로 "
        f"나간다. 그보다 늦으면 다음 확인이 {_DECISION_MAX_AGE}에 닿아 지시는 나가지 않고 `expired`로 "
        "멈춘다"
    ),
}


DECISION3_OPERATOR_ROWS = [
    [
        f"승인 뒤 {_DECISION_MAX_AGE} 이상(전망과 관계없이)",
        "보내지 않는다. 한 번도 보내지 않은 지시도 마찬가지다.",
        f"`expired`: {DECISION3_REASON_NOTES['expired']}.",
    ],
    [
        "`again`",
        f"{_DECISION_LADDER} 뒤 지시를 그대로 다시 보낸다. 첫 전송을 포함해 "
        f"{decision3_times(_DECISION_AGAIN_SENDS)} 보내고도 `again`이면 멈춘다.",
        f"`again_wait`: {DECISION3_REASON_NOTES['again_wait']}. "
        f"`again_exhausted`: {DECISION3_REASON_NOTES['again_exhausted']}.",
    ],
    [
        "`after_fix`",
        f"{_DECISION_RECHECK}마다 지시를 그대로 다시 보내 본다. 실패 횟수는 읽지 않고, 승인 뒤 "
        f"{_DECISION_MAX_AGE}이 되면 멈춘다.",
        f"`after_fix_wait`: {DECISION3_REASON_NOTES['after_fix_wait']}.",
    ],
    [
        "`never`",
        "보내지 않는다.",
        f"`never_new_instruction`: {DECISION3_REASON_NOTES['never_new_instruction']}.",
    ],
    [
        "전망 없음, 어휘 밖의 값",
        "보내지 않는다. `again`으로 짐작하지 않는다.",
        f"`outlook_unknown`: {DECISION3_REASON_NOTES['outlook_unknown']}.",
    ],
    [
        "`again`·`after_fix`, 선언 없는 커넥터",
        "첫 전송만 한다. 실패한 지시는 다시 보내지 않는다.",
        f"`not_declared_idempotent`: {DECISION3_REASON_NOTES['not_declared_idempotent']}.",
    ],
]

DECISION3_CHANGES = (
    "둘째 판의 운영 화면 설명(`after_fix_wait`)과 본문은 승인 뒤 24시간 안에 설정을 고치면 10분 안에 "
    f"지시가 나간다고 했지만, 마지막 확인 전송은 승인 뒤 {_DECISION3_LAST_FIX}에 있어 그 뒤에 고친 "
    f"설정(예: {decision_duration(_DECISION3_WINDOW['lastFixSentAt'] + 1)}에 고친 것)은 확인되지 않고 "
    "지시가 `expired`로 끝난다. 설명과 본문을 모델이 따르는 규칙으로 고쳤다. 둘째 판의 검사 "
    "`fixWithin24hSentWithin10Min`은 이름과 달리 2시간 5분의 수정 하나만 돌렸다. 그 자리에 24시간 "
    "창의 첫 초와 마지막 초, 그리고 10분 간격마다 양 끝을 모두 돌리는 픽스처 "
    "`decision_fix_window_edges`를 두었다. “30초, 2분, 10분 만에”는 전체 경과 시간으로 읽혀서 그 "
    f"기다림이 승인 뒤 {_DECISION3_LADDER_TOTAL} 만에 끝난다고 밝혔고, 작은 횟수와 차례는 “한 번”, "
    "“네 번째”처럼 고유어로 적었다."
)

# --- 글 --------------------------------------------------------------------


decision3_revision = revision(
    slug="retry-decision-one-question",
    title="워커의 질문 하나: 다시 넘길까, 언제?",
    categories=["신뢰성", "백엔드"],
    excerpt=(
        "실패한 지시를 앞에 둔 워커의 재시도 결정을 순수 함수 하나로 적었다. 어댑터는 again, "
        "after_fix, never 중 하나로 답하고, 횟수로 접는 것은 again뿐이며, 실패한 지시를 다시 "
        "보내는 것은 멱등성을 선언한 커넥터에만 허락된다. 승인에는 수명이 있고, “보냈다”는 "
        "보내기 전에 적는다."
    ),
    cover="/assets/retry_decision/cover.svg",
    published="2021-03-15",
    revised="2026-12-04",
    changes=DECISION3_CHANGES,
    lang="ko",
    body=[
        paragraph(
            "지시 하나가 커넥터를 거쳐 바깥 시스템으로 나갔다가 실패로 돌아왔다. 이때 워커가 물어야 "
            "할 질문은 하나뿐이다. 이 지시를 다시 넘길 것인가, 넘긴다면 언제인가. 흔한 답은 “세 "
            "번까지 재시도”다. 짧고 설정하기도 쉽지만 이 답은 실패의 성격을 묻지 않는다. 네트워크가 "
            "잠깐 끊긴 실패도, API 키가 만료된 실패도, 금액이 음수인 지시도 똑같이 세 번 다시 "
            "보내고, 그다음에는 똑같이 포기한다."
        ),
        paragraph(
            "이 글은 그 질문을 순수 함수 하나로 적는다. 입력은 지시의 상태, 어댑터가 밝힌 전망, "
            "실패 횟수, 커넥터의 멱등성 선언, 마지막 시도 뒤 흐른 시간, 그리고 승인 뒤 흐른 시간이다. "
            "출력은 지금 보낼지, 얼마나 기다릴지, 그리고 그 이유다. 함수는 네트워크도 시계도 읽지 "
            "않으므로 모든 분기를 표 하나로 확인할 수 있다. 함수 바깥의 일, 곧 워커가 무엇을 언제 "
            "기록하는지와 시간이 흐르며 지시가 어떻게 끝나는지는 작은 모델로 따로 돌려 본다."
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
            "/assets/retry_decision/decision-flow-2026-12.svg",
            alt=(
                f"결정 흐름도. 어떤 지시든 승인 뒤 {_DECISION_MAX_AGE}이 지났으면 보내지 않고 expired로 "
                "멈춰 승인자에게 다시 묻는다. 승인됐지만 보낸 기록이 없는 지시는 멱등성을 묻지 않고 "
                "보낸다. 실패한 지시는 먼저 어댑터의 전망을 본다. 전망이 없거나 어휘 밖이면 보류, "
                "never면 새 지시가 필요해 보류, 커넥터가 멱등성을 선언하지 않았으면 보류한다. "
                f"after_fix는 {_DECISION_RECHECK}마다 그대로 다시 보내며 횟수를 세지 않지만 승인 뒤 "
                f"{_DECISION_MAX_AGE}에서 끝난다. again은 {_DECISION_LADDER} 뒤 다시 보내 첫 전송을 "
                f"포함해 {decision3_times(_DECISION_AGAIN_SENDS)} 보내고, 그래도 실패하면 멈추고 사람이 본다."
            ),
            caption=(
                f"재시도 결정의 흐름. 맨 앞의 관문은 승인의 나이다. 횟수로 접히는 것은 again의 "
                f"사다리({_DECISION_LADDER} 뒤 사람)뿐이고, after_fix는 {_DECISION_RECHECK} 간격의 "
                "기다림이다."
            ),
        ),
        heading("after_fix는 재시도가 아니라 기다림이다"),
        paragraph(
            "흔한 실수는 `after_fix`까지 재시도 횟수에 넣는 것이다. 설정 문제는 사람이 고칠 "
            "때까지 몇 번을 보내도 같은 답이 돌아온다. 그러니 “세 번까지” 규칙은 "
            f"{_DECISION_LADDER}을 기다려 다시 보내다가 승인 뒤 {_DECISION3_LADDER_TOTAL} 만에 "
            "지시를 실패로 접는다. 담당자가 한 시간 뒤 인증서를 교체해도 접힌 "
            "지시는 움직이지 않는다. 누군가 목록을 뒤져 지시마다 “보내기”를 다시 눌러야 하고, 그 "
            "사이 빠뜨린 지시는 조용히 묻힌다."
        ),
        paragraph(
            f"그래서 `after_fix`는 세지 않는다. 워커는 {_DECISION_RECHECK}마다 지시를 그대로 다시 보내 "
            "보고, 설정이 아직 그대로면 같은 `after_fix`가 돌아올 뿐이다. 실패가 "
            f"{decision3_nth(1)}든 {decision3_nth(40)}든 "
            f"결정은 같다. 승인 뒤 {_DECISION3_LAST_FIX}까지 사람이 설정을 고치면 늦어도 {_DECISION_RECHECK} "
            "안에 지시가 나가고, 아무도 다시 누를 필요가 없다. 그보다 늦으면 지시는 나가지 않는다(아래). "
            f" {_DECISION_RECHECK}은 고쳐지지 않은 설정으로 상대를 두드리는 "
            "횟수를 낮게 유지하면서, 고친 뒤 기다리는 시간도 짧게 두는 절충이다. 다만 세지 않는다고 "
            "끝이 없어서는 안 된다."
        ),
        heading("기다림에도 끝이 있다: 승인의 수명"),
        paragraph(
            "이 글이 처음 실렸을 때 `after_fix`의 기다림에는 끝이 없었다. 설정이 "
            f"{_DECISION_LATE_FIX} 뒤에야 고쳐지면, 그만큼 전에 승인된 지시가 설정을 고친 바로 그 "
            "순간 나갔다. 그사이 주문은 취소됐을 수 있고, 금액은 바뀌었을 수 있고, 승인한 사람은 그 "
            "지시를 잊었을 수 있다. 승인은 승인한 때의 판단이지, 아무 때나 써도 되는 허가가 아니다."
        ),
        paragraph(
            "그래서 고친 결정 함수는 승인 뒤 흐른 초 `age_s`를 하나 더 받는다. 그 값이 "
            f"`DECISION_MAX_AGE_S`({_DECISION_MAX_AGE}) 이상이면 전망이 무엇이든 보내지 않고 `hold`로 "
            "멈추며, 사유는 `expired`다. 워커는 그 지시를 포기하고, 운영 화면은 승인자에게 다시 "
            "물으라고 적는다. 이 검사는 상태 검사 바로 다음, 다른 모든 관문보다 앞에 있어서 첫 "
            "전송에도 적용된다. 워커가 며칠 멈춰 있다가 다시 떠도, 그동안 쌓인 승인된 지시 가운데 "
            "낡은 것은 나가지 않는다."
        ),
        paragraph(
            f"{_DECISION_MAX_AGE}은 이 글이 고른 값이지만, 수명을 짧게 잡을 이유가 하나 더 있다. 실패한 "
            "지시를 다시 보내도 되는 것은 커넥터가 “두 번 보내도 하나”를 약속했기 때문인데, 그 약속을 "
            "멱등성 키로 지키는 상대도 키를 영원히 기억하지는 않는다. Stripe는 키가 적어도 24시간이 "
            "지나면 자동으로 지워질 수 있고, 원래 요청이 지워진 뒤 같은 키로 온 요청은 새 요청이 된다고 "
            f"밝힌다. 모든 전송이 승인 뒤 {_DECISION_MAX_AGE} 안에 일어나면 어떤 재전송도 첫 전송 뒤 "
            f"{_DECISION_MAX_AGE}이 지나지 않았으니, 키를 그만큼 기억하는 상대에게는 약속이 아직 살아 "
            "있다. 커넥터마다 상대가 키를 기억하는 기간이 다르면 수명은 그중 가장 짧은 것을 넘지 않아야 "
            "한다."
        ),
        paragraph(
            "픽스처 `decision_lifetimes`는 시계를 움직이며 승인된 지시 하나를 끝까지 돌린다. 결정 "
            "함수가 `wait`라고 하면 그만큼 시계를 넘기고, `send`라고 하면 상대에게 보내고, `hold`면 "
            "멈춘다. 상대가 끝까지 `after_fix`로 답하면 지시는 첫 전송을 포함해 "
            f"{len(_decision_life('neverFixed').received_at)}번 나가고, 마지막 전송은 승인 뒤 "
            f"{decision_duration(_decision_life('neverFixed').received_at[-1])}, 워커가 `expired`로 "
            f"멈추는 것은 {decision_duration(_decision_life('neverFixed').end_at)}이다. 승인 뒤 "
            f"{decision_duration(DECISION_FIX_EARLY_S)}에 설정을 고치면 지시는 "
            f"{decision_duration(_decision_life('fixedEarly').received_at[-1])}에 나간다. "
            f"{_DECISION_LATE_FIX} 뒤에 고치면 지시는 나가지 않고, 그 시각에 처음 뜬 워커도 이 지시를 "
            "보내지 않는다. 처음 실린 결정 함수로 같은 실행을 돌리면 지시는 승인 뒤 "
            f"{decision_duration(_decision_life('fixedLateFirstRevision').received_at[-1])}에 나간다."
        ),
        verified_output(
            decision_lifetimes,
            expected={
                "fixedAt": {"fixedEarly": 7500, "fixedLate": 1814400},
                "runs": {
                    "neverFixed": {"sends": 144, "end": "expired", "endAt": 86400, "lastSentAt": 85800},
                    "fixedEarly": {"sends": 14, "end": "done", "endAt": 7800, "lastSentAt": 7800},
                    "fixedLate": {"sends": 144, "end": "expired", "endAt": 86400, "lastSentAt": 85800},
                    "workerDownLate": {"sends": 0, "end": "expired", "endAt": 1814400},
                    "fixedLateFirstRevision": {
                        "sends": 3025,
                        "end": "done",
                        "endAt": 1814400,
                        "lastSentAt": 1814400,
                    },
                },
                "checks": {
                    "afterFixStopsWithin24h": True,
                    "staleApprovalNeverSent": True,
                    "firstRevisionSentStaleApproval": True,
                },
            },
        ),
        paragraph(
            f"{decision_duration(DECISION_FIX_EARLY_S)}의 수정은 24시간 창의 한 점일 뿐이다. 마지막 확인은 "
            f"승인 뒤 {_DECISION3_LAST_FIX}이고, 그 뒤의 수정을 볼 다음 확인은 수명이 끝나는 "
            f"{_DECISION_MAX_AGE}이다. 픽스처 "
            "`decision_fix_window_edges`는 창의 첫 초와 마지막 초, 확인 간격마다 양 끝, 모두 "
            f"{_DECISION3_WINDOW['fixesRun']}개 시각에 고쳐 본다. 워커는 보내는 순간에만 답을 "
            "읽고 그 순간이 모두 간격의 배수라(`sendsOnlyAtRecheckInstants`) 한 간격 안의 수정은 "
            "같은 실행이 된다."
        ),
        verified_output(
            decision_fix_window_edges,
            expected={
                "fixesRun": 289,
                "firstSecond": 0,
                "lastSecond": 86399,
                "lastFixSentAt": 85800,
                "longestWaitAfterFix": 599,
                "edges": {
                    "0": {"end": "done", "sends": 1},
                    "85800": {"end": "done", "sends": 144},
                    "85801": {"end": "expired", "sends": 144},
                    "86399": {"end": "expired", "sends": 144},
                },
                "checks": {
                    "windowFromFirstToLastSecond": True,
                    "sendsOnlyAtRecheckInstants": True,
                    "everyFixUpToLastRecheckSentWithin10Min": True,
                    "everyLaterFixExpiresUnsent": True,
                    "lastFixSentIsTheLastRecheck": True,
                },
            },
        ),
        heading("접히는 것은 again뿐이다"),
        paragraph(
            "`again`은 기다리면 나아진다는 전망이지만 그 전망이 언제까지나 맞지는 않는다. 재시도는 "
            "상대가 이미 과부하일 때 부하를 더한다. AWS의 글은 재시도를 “이기적”이라고 부르고, SRE "
            "책은 요청마다 재시도 횟수를 제한하고 무작위화한 지수 백오프를 쓰라고 한다. 이 워커의 "
            f"사다리는 {_DECISION_LADDER}이다. 기다림마다 한 번씩 다시 보내므로 `again`만 돌아오는 "
            f"지시는 첫 전송을 포함해 {decision3_times(_DECISION_AGAIN_SENDS)}, 승인 뒤 "
            f"{decision_times(_decision_life('again').received_at)}에 나간다. "
            f"{decision3_nth(_DECISION_AGAIN_SENDS)} 실패가 "
            "돌아오면 워커는 멈추고 사람이 상대 쪽을 살펴보게 한다. 그 뒤에도 자동으로 계속 "
            "보내는 것은 “일시적”이라는 진단이 틀렸을 가능성을 외면하는 일이다."
        ),
        paragraph(
            "“세 번까지 재시도”의 세 번이 무엇을 세는지는 밝혀 두어야 한다. 보낸 횟수와 다시 보낸 "
            "횟수는 한 번 차이가 난다. 재시도 예산을 보낸 횟수로 세는 구현도 흔하다. 그렇게 세어 세 "
            "번 보낸 뒤 멈추면(`attempts_spent`) 같은 실행에서 지시는 "
            f"{decision3_times(len(_decision_life('sendBudget3').received_at))}, 마지막으로 "
            f"{decision_duration(_decision_life('sendBudget3').received_at[-1])}에 나가고 사다리의 "
            f"마지막 칸인 {_DECISION_LAST_STEP}은 한 번도 쓰이지 않는다. 이 글의 워커는 실패한 전송을 "
            "센다. `attempts_failed`가 사다리의 칸 수를 넘으면 멈추므로 전송은 칸 수보다 하나 많다. "
            "이 글은 마지막 칸을 남기는 쪽을 골랐다. 앞의 두 칸은 잠깐의 흔들림을, 마지막 칸은 배포나 "
            "재시작처럼 조금 긴 중단을 넘기려는 것이다. 보낸 횟수를 세 번으로 맞추려면 사다리에서 "
            "마지막 칸을 빼면 된다. 어느 쪽이든 운영 화면의 사유는 모두 몇 번 보냈는지를 적는다."
        ),
        verified_output(
            decision_lifetimes,
            expected={
                "againSentAt": [0, 30, 150, 750],
                "againEnd": "again_exhausted",
                "sendBudget3SentAt": [0, 30, 150],
                "sendBudget3End": "attempts_spent",
                "checks": {"againSendsFourTimesThenStops": True},
            },
        ),
        paragraph(
            "실제 워커에서는 많은 지시가 같은 순간에 다시 몰리지 않도록 기다림에 지터를 섞는다. 아래 "
            "모델은 표를 결정론적으로 만들려고 지터를 뺐다. 간격의 상한과 횟수의 상한은 그대로다."
        ),
        heading("첫 전송은 묻지 않고, 재시도는 선언을 묻는다"),
        paragraph(
            "승인됐지만 아직 한 번도 보내지 않은 지시는 멱등성을 묻지 않고 나간다. 보낸 적이 없으니 "
            "중복될 것도 없다. 다만 이 말은 워커의 기록이 “보낸 적 없음”이라고 할 때 그것이 사실이어야 "
            "맞는다. 그 조건은 다음 절에서 따진다. 실패한 지시를 다시 보내는 일은 다르다. “실패”는 "
            "워커가 본 결과일 뿐, 상대가 지시를 받지 않았다는 뜻이 아니다. 응답이 돌아오는 길에 연결이 "
            "끊겼다면 상대 쪽에는 이미 지시가 만들어져 있을 수 있다."
        ),
        paragraph(
            "RFC 7231은 같은 요청을 여러 번 보낸 의도된 효과가 한 번 보낸 효과와 같을 때 그 메서드를 "
            "멱등이라 부르고, 그래서 응답을 읽기 전에 통신이 끊기면 요청을 자동으로 다시 보낼 수 "
            "있다고 설명한다. AWS의 글도 부작용이 있는 API는 멱등성을 제공하지 않는 한 재시도하기에 "
            "안전하지 않다고 본다. 워커에게 이 성질은 HTTP 메서드가 아니라 커넥터의 약속이다. 멱등성 "
            "키를 쓰든 상대 쪽의 자연 키를 쓰든 방법은 커넥터가 고르고, “두 번 보내도 지시는 "
            "하나”라고 선언한 커넥터만 실패한 지시를 다시 받는다. `again`의 재전송도, `after_fix`의 "
            f"{_DECISION_RECHECK} 확인도 이 규칙을 따른다."
        ),
        heading("“보냈다”는 보내기 전에 적는다"),
        paragraph(
            "워커가 지시를 먼저 보내고, 답이 온 뒤에야 기록을 바꾼다고 하자. 상대가 지시를 받은 직후, "
            "기록을 바꾸기 전에 프로세스가 죽으면 기록에는 여전히 `approved`가 남는다. 다시 뜬 워커는 "
            "그 기록을 믿고 멱등성을 묻지 않은 채 “첫” 전송을 또 한다. 선언이 없는 커넥터라면 상대 "
            "쪽에 지시가 두 개 생긴다. 결정 함수는 틀리지 않았다. 틀린 것은 함수에 들어간 기록이다."
        ),
        paragraph(
            "그래서 “보냈다”는 기록은 전송보다 먼저, 늦어도 전송과 함께 남아야 한다. “함께”는 전송이 "
            "곧 워커의 데이터베이스에 쓰는 일일 때만 가능하다. 상대가 가져갈 보낼 편지함(outbox)의 "
            "행을 상태 변경과 같은 트랜잭션에 쓰는 경우가 그렇다. 바깥 시스템을 부르는 호출은 워커의 "
            "트랜잭션에 묶을 수 없으니 순서로 지킨다. 아래 워커는 먼저 `sending`을 적고, 그다음 보내고, "
            "마지막에 결과를 적는다. 다시 뜬 워커가 결과 없는 `sending`을 보면 그 전송은 상대에 "
            "닿았는지 모르는 전송이므로 응답을 잃은 `again` 실패로 센다. 그러면 지시는 첫 전송이 아니라 "
            "재전송의 길로 들어가 멱등성 선언을 묻는 관문을 지난다."
        ),
        code_block(
            decision_source_of(DecisionRecord, DecisionStore, decision_send, decision_recover),
            language="python",
        ),
        paragraph(
            "픽스처 `decision_crashes`는 첫 전송의 각 단계 뒤에서 프로세스를 한 번 죽이고, 같은 "
            "순간에 워커를 다시 띄워 지시가 끝날 때까지 돌린다. 상대는 언제나 성공으로 답한다. 열은 "
            "프로세스가 죽은 단계(`-`는 죽지 않음), 멱등성 선언, 상대가 지시를 받은 횟수, 끝이다."
        ),
        verified_output(
            decision_crashes,
            expected={
                "order": ["record_sending", "dispatch", "record_result"],
                "runs": [
                    "-              idem=no  → received 1, done",
                    "record_sending idem=no  → received 0, hold not_declared_idempotent",
                    "dispatch       idem=no  → received 1, hold not_declared_idempotent",
                    "record_result  idem=no  → received 1, done",
                    "-              idem=yes → received 1, done",
                    "record_sending idem=yes → received 1, done",
                    "dispatch       idem=yes → received 2, done",
                    "record_result  idem=yes → received 1, done",
                ],
            },
        ),
        paragraph(
            "선언 없는 커넥터에서 상대가 받은 횟수는 어느 단계에서 죽어도 "
            f"{decision3_times(_DECISION_UNDECLARED_MAX)}을 넘지 않는다. 대가는 있다. `sending`을 적고 "
            "보내기 전에 죽으면 상대는 아무것도 받지 않았는데도 "
            "워커는 그것을 알 수 없어 멈추고, 사람이 상대 쪽을 "
            "확인한 뒤 보낸다. 선언한 커넥터는 전송 직후에 죽으면 지시를 "
            f"{decision3_times(_DECISION_DECLARED_MAX)} 받지만, 선언대로 그 둘은 지시 하나다. 같은 "
            "픽스처가 순서를 뒤집어, 보내고 나서 적는 워커를 전송 직후에 죽이면 선언 없는 커넥터가 지시를 "
            f"{decision3_times(len(_DECISION_NAIVE.received_at))} 받는다. 검사 "
            "`firstAttemptOnlyWhenNothingReceived`는 모든 실행에서 "
            "`first_attempt` 결정이 상대가 아무것도 받지 않았을 때만 나왔는지를 센다. "
            "뒤집힌 순서에서는 그 결정이 상대가 이미 지시를 받은 뒤에 한 번 더 나온다."
        ),
        verified_output(
            decision_crashes,
            expected={
                "dispatchFirst": "dispatch       idem=no  → received 2, done",
                "checks": {
                    "firstAttemptOnlyWhenNothingReceived": True,
                    "undeclaredReceivedAtMostOnce": True,
                    "declaredAlwaysDelivered": True,
                    "dispatchFirstWouldDuplicate": True,
                },
            },
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
            "읽어 온 것이라 코드와 어긋날 수 없다. 상태는 `approved`(승인됨, 보낸 기록 없음)와 "
            "`failed` 두 가지다. 기록에 남은 `sending`은 `decision_recover`가 먼저 실패로 바꾸고, 결정 "
            "함수는 그 상태를 받으면 예외를 던진다. 시간도 두 가지다. `seconds_since_last`는 마지막 "
            "시도 뒤 흐른 초, `age_s`는 승인 뒤 흐른 초다. 상수는 "
            f"`DECISION_OUTLOOKS = {DECISION_OUTLOOKS!r}`, `DECISION_BACKOFF_S = {DECISION_BACKOFF_S!r}`, "
            f"`DECISION_RECHECK_S = {DECISION_RECHECK_S}`, `DECISION_MAX_AGE_S = {DECISION_MAX_AGE_S}`이다."
        ),
        code_block(decision_source_of(Decision, decision_of), language="python"),
        paragraph(
            "분기 순서가 곧 우선순위다. 상태를 먼저 보고, 그다음 승인의 나이를, 그다음 전망이 어휘 안에 "
            "있는지, `never`인지, 커넥터가 선언했는지를 차례로 본다. 이 관문들을 지나야 기다림이나 "
            "재전송이 나온다. `attempts_failed`를 읽는 분기는 `again`의 사다리뿐이고, `after_fix`는 그 "
            "값을 읽지 않는다. `after_fix`를 끝내는 것은 횟수가 아니라 승인의 나이다."
        ),
        heading("분기마다 한 줄: 결정표"),
        paragraph(
            "픽스처 `decision_table`은 아래 표의 각 행을 `decision_of`에 넣고 결과를 적는다. 열은 상태, "
            "전망, 실패 횟수 `n`, 멱등성 선언 `idem`, 마지막 시도 뒤 흐른 시간 `t`, 승인 뒤 흐른 시간 "
            "`age`, 결정, 사유 순이다. 표는 모든 사유를 한 번 이상 지나고, 픽스처는 `sys.settrace`로 "
            "`decision_of`의 실행 가능한 줄이 모두 실행됐는지도 센다. 표가 건드리지 않는 분기가 생기면 "
            "검사가 거짓이 된다."
        ),
        verified_output(
            decision_table,
            expected={
                "table": [
                    "approved -         n=0   idem=no  t=   0s age=0s    → send      first_attempt",
                    "approved -         n=0   idem=yes t=   0s age=21d   → hold      expired",
                    "failed   again     n=1   idem=yes t=  10s age=10s   → wait 20s  again_wait",
                    "failed   again     n=1   idem=yes t=  30s age=30s   → send      again_send",
                    "failed   again     n=2   idem=yes t= 120s age=2m30s → send      again_send",
                    "failed   again     n=3   idem=yes t= 300s age=7m30s → wait 300s again_wait",
                    "failed   again     n=4   idem=yes t=3600s age=1h    → hold      again_exhausted",
                    "failed   after_fix n=1   idem=yes t=   0s age=0s    → wait 600s after_fix_wait",
                    "failed   after_fix n=40  idem=yes t= 600s age=6h40m → send      after_fix_send",
                    "failed   after_fix n=144 idem=yes t= 600s age=24h   → hold      expired",
                    "failed   never     n=1   idem=yes t=   0s age=0s    → hold      never_new_instruction",
                    "failed   again     n=1   idem=no  t= 600s age=10m   → hold      not_declared_idempotent",
                    "failed   -         n=1   idem=yes t= 600s age=10m   → hold      outlook_unknown",
                    "failed   retry     n=1   idem=yes t= 600s age=10m   → hold      outlook_unknown",
                ],
            },
        ),
        paragraph(
            f"표 {len(DECISION_TABLE)}줄로 성질을 증명할 수는 없다. 그래서 픽스처는 더 넓은 격자(전망 "
            f"{len(DECISION_GRID_OUTLOOKS)}가지 × 실패 횟수 0~{max(DECISION_GRID_FAILURES)} × 선언 여부 × "
            f"경과 시간 {len(DECISION_GRID_SECONDS)}가지 × 승인 뒤 시간 {len(DECISION_GRID_AGES)}가지)를 "
            "돌려 성질을 함수의 행동에서 직접 계산한다. 사다리도 상수에서 읽지 않는다. 실패 횟수마다 "
            "경과 시간을 0초부터 1초씩 늘려 가며 처음 `send`가 나오는 시점을 찾는다."
        ),
        verified_output(
            decision_table,
            expected={
                "ladderSeconds": [30, 120, 600],
                "afterFixRecheckSeconds": [600],
                "gridSize": 4160,
                "checks": {
                    "afterFixNeverFolds": True,
                    "onlyAgainFolds": True,
                    "firstAttemptIgnoresIdempotency": True,
                    "retryNeedsDeclaredIdempotency": True,
                    "unknownNeverRetried": True,
                    "staleApprovalAlwaysExpires": True,
                    "afterFixRechecksEvery10Min": True,
                    "backoffIs30s2m10mThenStop": True,
                    "everyReasonExplained": True,
                    "everyBranchCovered": True,
                },
            },
        ),
        paragraph(
            "글 옆의 테스트는 이 모듈을 직접 망가뜨려 본다. `after_fix`를 횟수로 접거나, 선언하지 "
            "않은 커넥터의 지시를 다시 보내거나, 사다리를 바꾸거나, 모르는 전망을 `again`으로 "
            "취급하거나, 승인의 나이를 읽지 않거나(처음 실린 함수가 그렇다), “보냈다”를 전송 뒤에 "
            "적거나, 결과 없는 `sending`을 보낸 적 없는 것으로 읽으면 해당 검사가 거짓으로 바뀌고 "
            "픽스처가 실패한다. 이 글의 숫자가 코드와 어긋나면 사이트가 빌드되지 않는다."
        ),
        heading("운영자가 보는 것"),
        paragraph(
            "결정의 사유는 로그에만 남기지 않고 운영 화면에 그대로 보여 준다. 사유마다 붙는 설명은 "
            "누가 무엇을 해야 하는지를 말한다."
        ),
        data_table(
            "전망별로 워커가 하는 일과 운영자가 보는 사유",
            ["전망", "워커가 하는 일", "운영자가 보는 사유"],
            DECISION3_OPERATOR_ROWS,
        ),
        paragraph(
            "이렇게 나누면 멈춘 지시의 목록이 담당자별로 갈린다. `again_wait`는 지켜보기만 하면 되고, "
            "`after_fix_wait`는 설정 담당자에게, `never_new_instruction`은 지시를 낸 사람에게, "
            "`expired`는 승인한 사람에게, `outlook_unknown`은 어댑터를 만든 사람에게 간다. 재시도 "
            "정책의 목적은 실패를 숨기는 것이 아니라, 사람이 손댈 실패만 사람 앞에 남기는 데 있다."
        ),
    ],
    sources=[decision_v1.AWS_BACKOFF, decision_v1.SRE_CASCADING, decision_v1.RFC7231, DECISION_STRIPE_KEYS],
)

revisions = [decision3_revision]
