"""Batch C (2022, Korean): revision 3 of the growing note (a new drawing), and a Korean article
whose category is a close spelling of another (a site-wide warning), corrected the evening of
the day it was published (a same-day correction gives its time, here in Seoul's offset)."""

from a_2020_en import SOURCES

from site_builder import figure, heading, markdown, paragraph, revision, unordered_list

growing = revision(
    slug="growing-note",
    title="A growing note",
    categories=["HTTP", "Postgres"],
    excerpt="It grows, revision by revision: <one> & «two».",
    cover="/assets/growing/cover.svg",
    published="2020-06-18",
    revised="2022-01-10",
    changes="A new drawing with three boxes, and a newword paragraph.",
    body=[
        heading("Start"),
        paragraph("The first words of the note: more. See [the budget](/articles/retry-basics/#the-budget)"
                  " and [the path below](/articles/growing-note/#the-path)."),
        heading("The path"),
        figure("/assets/growing/path-2022.svg", "Client, log and server", "The write path, with the log."),
        markdown("A photo: ![a blue strip](/assets/growing/photo.png), and [the keys](/articles/keys-ru/#почему-ключ-один)."),
        paragraph("A newword paragraph linking [the Korean notes](/articles/hangul-notes/#키-저장소)."),
    ],
    sources=SOURCES,
)

hangul = revision(
    slug="hangul-notes",
    title="멱등성 키 정리",
    categories=["Postgre", "데이터베이스"],
    excerpt="키 하나로 중복 요청을 막습니다.",
    published="2022-05-01",
    lang="ko",
    body=[
        paragraph("같은 요청을 두 번 보내도 결과는 하나여야 합니다."),
        heading("키 저장소"),
        unordered_list(["키를 먼저 저장합니다.", "응답을 재사용합니다."]),
        paragraph("[러시아어 글](/articles/keys-ru/#почему-ключ-один)과 [변경 기록](/articles/growing-note/#history)도 읽어 보세요."),
    ],
    sources=SOURCES,
)

hangul_evening = revision(
    slug="hangul-notes",
    title="멱등성 키 정리",
    categories=["Postgre", "데이터베이스"],
    excerpt="키 하나로 중복 요청을 막습니다.",
    published="2022-05-01",
    revised="2022-05-01T21:10+09:00",
    changes="키의 보관 기간을 덧붙였습니다.",
    lang="ko",
    body=[
        paragraph("같은 요청을 두 번 보내도 결과는 하나여야 합니다."),
        heading("키 저장소"),
        unordered_list(["키를 먼저 저장합니다.", "응답을 재사용합니다.", "키는 하루 동안 보관합니다."]),
        paragraph("[러시아어 글](/articles/keys-ru/#почему-ключ-один)과 [변경 기록](/articles/growing-note/#history)도 읽어 보세요."),
    ],
    sources=SOURCES,
)

revisions = [growing, hangul, hangul_evening]
