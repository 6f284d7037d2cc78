"""The state of a slotted dataclass the cache keeps: one value per field, or a miss."""

from __future__ import annotations

import dataclasses

import pytest

from site_builder.runtime.pickled import quick_state


def test_a_class_that_is_not_a_slotted_dataclass_is_refused() -> None:
    @dataclasses.dataclass(frozen=True)
    class Plain:
        value: int

    with pytest.raises(TypeError, match="not a slotted dataclass"):
        quick_state(Plain)


def test_a_state_of_another_length_is_refused() -> None:
    @quick_state
    @dataclasses.dataclass(frozen=True, slots=True)
    class Pair:
        left: int
        right: str

    pair = object.__new__(Pair)
    pair.__setstate__([1, "a"])  # type: ignore[attr-defined]
    assert (pair.left, pair.right) == (1, "a")
    assert pair.__getstate__() == [1, "a"]  # type: ignore[attr-defined]
    for wrong in ([1], [1, "a", None]):
        with pytest.raises(ValueError, match="zip"):
            object.__new__(Pair).__setstate__(wrong)  # type: ignore[attr-defined]
