"""A Korean article (lang "ko") sharing a Cyrillic category."""

from site_builder import Source, heading, paragraph, revision, unordered_list

MDN = Source(title="MDN: Idempotent", url="https://developer.mozilla.org/ko/docs/Glossary/Idempotent",
             note="멱등성 용어")
RFC9110 = Source(title="RFC 9110: HTTP Semantics", url="https://www.rfc-editor.org/rfc/rfc9110.html",
                 note="9.2.2절")

revisions = [
    revision(
        slug="hangul-keys",
        title="멱등성 키 정리",
        categories=["Базы данных", "데이터베이스"],
        excerpt="키 하나로 중복 요청을 막습니다.",
        published="2022-05-01",
        lang="ko",
        body=[
            paragraph("같은 요청을 두 번 보내도 결과는 하나여야 합니다."),
            heading("키 저장소"),
            unordered_list(["키를 먼저 저장합니다.", "응답을 재사용합니다."]),
            paragraph("[러시아어 글](/articles/one-key-one-row/#키가-하나인-이유)도 읽어 보세요."),
        ],
        sources=[MDN, RFC9110],
    ),
]
