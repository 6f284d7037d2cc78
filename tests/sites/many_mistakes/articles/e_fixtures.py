"""Fixture mistakes: each fixture fails in its own way."""

import time

from site_builder import Source, fixture, paragraph, revision, verified_output

A = Source(title="A", url="https://a.example/", note="a")
B = Source(title="B", url="https://b.example/", note="b")


@fixture
def false_check() -> dict:
    return {"retries": 2, "checks": {"retried": True, "onlyOneEffect": False}}


@fixture
def no_checks() -> dict:
    return {"retries": 2}


@fixture
def empty_checks() -> dict:
    return {"retries": 2, "checks": {}}


@fixture
def truthy_check() -> dict:
    return {"checks": {"retried": 1}}


def _divide(a: int, b: int) -> float:
    return a / b


@fixture
def raises() -> dict:
    ratio = _divide(1, 0)
    return {"ratio": ratio, "checks": {"ok": True}}


@fixture
def not_json() -> dict:
    return {"ids": {1, 2}, "checks": {"ok": True}}


@fixture
def not_a_dict() -> list:
    return [1, 2, 3]


@fixture
def hangs() -> dict:
    time.sleep(30)
    return {"checks": {"ok": True}}


@fixture
def drifted() -> dict:
    return {"effects": 2, "statuses": [200, 409], "checks": {"ran": True}}


def plain_function() -> dict:
    return {"checks": {"ok": True}}


revisions = [
    revision(
        slug="fixture-claims",
        title="Claims",
        categories=["Fixtures"],
        excerpt="Printed results the code no longer backs.",
        published="2024-05-01",
        body=[
            paragraph("Enough words to pass the tiny limit of this site."),
            verified_output(drifted, expected={"effects": 1, "statuses": [200, 409]}),
            verified_output(plain_function, expected={"ok": True}),
        ],
        sources=[A, B],
    ),
]
