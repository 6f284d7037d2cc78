"""Frozen, slotted dataclasses the cache holds by the thousand, unpickled without ``fields()``.

A slotted dataclass is pickled as the list of its field values. What the standard
library gives it to read that list back calls :func:`dataclasses.fields` for every
object, and a rebuild at 10,000 articles reads some 75,000 such objects from the
kept batch summaries. :func:`quick_state` gives a class the same state, in the same
order, read and written against the field names worked out once.
"""

from __future__ import annotations

import dataclasses
from typing import TypeVar

T = TypeVar("T")

_set = object.__setattr__  # a frozen dataclass refuses its own __setattr__


def quick_state(cls: type[T]) -> type[T]:
    """Give the frozen, slotted dataclass ``cls`` a ``__getstate__`` and ``__setstate__``
    that name its fields from a tuple made here. A state of another length (an entry an
    older version wrote, with fewer or more fields) raises ValueError: a cache miss."""
    if not (dataclasses.is_dataclass(cls) and "__slots__" in cls.__dict__):
        raise TypeError(f"{cls.__qualname__} is not a slotted dataclass")
    names = tuple(field.name for field in dataclasses.fields(cls))

    def get_state(self: object) -> list[object]:
        return [getattr(self, name) for name in names]

    def set_state(self: object, state: list[object]) -> None:
        for name, value in zip(names, state, strict=True):
            _set(self, name, value)

    cls.__getstate__ = get_state  # type: ignore[method-assign]
    cls.__setstate__ = set_state  # type: ignore[attr-defined]
    return cls
