"""Batch B (2021, Russian): revision 2 of the growing note, and a Russian article whose verified
output is batch A's fixture."""

from a_2020_en import SOURCES, budget

from site_builder import Source, figure, fixture, heading, markdown, paragraph, revision, verified_output


@fixture
def answer() -> dict:
    return {"value": 42, "checks": {"isNumber": True}}


growing = revision(
    slug="growing-note",
    title="A growing note",
    categories=["HTTP", "Postgres"],
    excerpt="It grows, revision by revision: <one> & «two».",
    cover="/assets/growing/cover.svg",
    published="2020-06-18",
    revised="2021-03-01",
    changes="The answer was **41**; it is 42.",
    body=[
        heading("Start"),
        paragraph("The first words of the note: newer words. See [the budget](/articles/retry-basics/#the-budget)"
                  " and [the path below](/articles/growing-note/#the-path)."),
        heading("The path"),
        figure("/assets/growing/path.svg", "Client and server", "The write path, again."),
        markdown("A photo: ![a blue strip](/assets/growing/photo.png), and [the keys](/articles/keys-ru/#почему-ключ-один)."),
        verified_output(answer, expected={"value": 42}),
    ],
    sources=SOURCES,
)

keys = revision(
    slug="keys-ru",
    title="Один ключ — одна строка",
    categories=["Базы данных", "HTTP"],
    excerpt="Повтор запроса не создаёт вторую строку.",
    cover="/assets/keys/cover.svg",
    published="2021-03-10",
    lang="ru",
    body=[
        paragraph("Повтор безопасен, если ключ уникален; подробнее [ниже](#почему-ключ-один)."),
        heading("Почему ключ один"),
        paragraph("Сравните с [корейской заметкой](/articles/hangul-notes/#키-저장소) и"
                  " [растущей](/articles/growing-note/#the-path)."),
        verified_output(budget, expected={"retries": 10}),
    ],
    sources=[
        Source(title="PostgreSQL: INSERT … ON CONFLICT", url="https://www.postgresql.org/docs/current/sql-insert.html",
               note="вставка «или ничего»"),
        *SOURCES,
    ],
)

revisions = [growing, keys]
