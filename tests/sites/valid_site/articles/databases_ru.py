"""A Russian article: Cyrillic category, Korean and Cyrillic headings, a fixture, a figure, code."""

from site_builder import Source, code_block, figure, fixture, heading, paragraph, revision, verified_output

PG = Source(title="PostgreSQL: INSERT … ON CONFLICT", url="https://www.postgresql.org/docs/current/sql-insert.html",
            note="вставка «или ничего» & уникальный ключ")
RFC9110 = Source(title="RFC 9110: HTTP Semantics", url="https://www.rfc-editor.org/rfc/rfc9110.html",
                 note="какие методы идемпотентны")

KEY_CODE = '''
def apply(seen: dict[str, int], key: str) -> bool:
    """Record the key; True only the first time."""
    if key in seen:
        return False
    seen[key] = 1
    return True
'''


@fixture
def one_key() -> dict:
    seen: dict[str, int] = {}
    first, second = (key_once(seen, "k1") for _ in range(2))
    return {"rows": len(seen), "checks": {"oneRow": len(seen) == 1, "secondIgnored": first and not second}}


def key_once(seen: dict[str, int], key: str) -> bool:
    if key in seen:
        return False
    seen[key] = 1
    return True


revisions = [
    revision(
        slug="one-key-one-row",
        title="Один ключ — одна строка <БД> & «кавычки»",
        categories=["Базы данных", "HTTP"],
        excerpt="Повтор запроса не создаёт вторую строку: «ключ» & <ограничение>.",
        cover="/assets/db/cover.svg",
        published="2021-03-10",
        lang="ru",
        body=[
            paragraph("Повтор `POST` безопасен, если ключ уникален; подробнее [ниже](#почему-ключ-один)."),
            heading("Почему ключ один"),
            paragraph("Сравните с [корейской заметкой](/articles/hangul-keys/) и [английской](/articles/retry-budget/)."),
            figure("/assets/db/write-path.svg", "Клиент, сервер и журнал «в ряд»", "Путь записи."),
            heading("키가 하나인 이유"),
            code_block(KEY_CODE, language="python"),
            heading("Пример"),
            verified_output(one_key, expected={"rows": 1}),
            heading("Пример"),
            paragraph("Тот же пример ещё раз: заголовок повторяется, а id — нет."),
        ],
        sources=[PG, RFC9110],
    ),
]
