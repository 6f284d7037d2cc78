"""How a key of ``[tool.site_builder]`` is declared and read (as MkDocs' ``config_options``).

Each field of ``Settings`` is made by one call here (``text``, ``count``, ``seconds``,
``relative_folder``, ``setting``) that gives the key its default, the TOML types it takes and the
checks its value must pass; ``read_table`` reads a table by those options alone, so a key
added to ``Settings`` is known, typed, checked and suggested for its misspellings at once.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass, field, fields
from functools import partial
from typing import Any, TypeVar, cast

from site_builder.errors import Problem, did_you_mean
from site_builder.settings.checks import Check, inside_root, positive_seconds, xml_chars
from site_builder.settings.pyproject import line_of, problem

T = TypeVar("T")

_OPTION = "site_builder.option"
"""The key of a field's metadata holding its :class:`Option`."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Reading:
    """What a structured key's reader may consult besides its own value."""

    lines: list[str]
    """The lines of ``pyproject.toml``, for each problem's line."""
    values: Mapping[str, object]
    """Every key's value as the table gives it, its default where missing or wrong (a structured
    key's as given, not read)."""


Read = Callable[[Any, Reading], tuple[object, list[Problem]]]
"""Reads a structured key's value (None when it is missing or not of its TOML type, which is
a problem already): the value kept, and its problems."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Option:
    """One key of ``[tool.site_builder]``: what it takes and how it is read."""

    default: object
    """The value when the key is missing or wrong."""
    types: tuple[type, ...]
    """The TOML types it takes, named in this order by its type problem (never ``true``/``false``)."""
    checks: tuple[Check, ...] = ()
    """In order: the first message given is the key's problem, and the key keeps its default."""
    required: bool = False
    """A table without it is a problem."""
    read: Read | None = None
    """For a structured value (the nav tables, the labels), read by this instead of ``checks``,
    after every other key and with their values (the labels say what ``language`` may name)."""

    def takes(self, value: object) -> bool:
        """Whether ``value`` is of a type this key takes (a TOML boolean never is)."""
        return isinstance(value, self.types) and not isinstance(value, bool)

    def fault(self, key: str, value: object) -> str | None:
        """The first check's message about ``value``, or None when it passes them all."""
        return next((message for check in self.checks if (message := check(key, value))), None)


def setting(
    default: T,
    *checks: Check,
    types: tuple[type, ...] = (),
    required: bool = False,
    read: Read | None = None,
) -> T:
    """A field of ``Settings`` whose key takes ``types`` (the default's type unless given).

    Typed as its default, so that ``key: str = setting("")`` reads as a plain default to mypy;
    it is a ``dataclasses.Field`` carrying the key's :class:`Option`.
    """
    option = Option(
        default=default,
        types=types or (type(default),),
        checks=checks,
        required=required,
        read=read,
    )
    metadata = {_OPTION: option}
    if isinstance(default, dict):  # a copy for each Settings, never one table shared
        return cast(T, field(default_factory=partial(dict, default), metadata=metadata))
    return field(default=default, metadata=metadata)


def text(default: str = "", *checks: Check, required: bool = False) -> str:
    """A string key: it goes into pages, feeds and sitemaps, so XML 1.0 must be able to carry it."""
    return setting(default, xml_chars, *checks, required=required)


def relative_folder(default: str) -> str:
    """A folder, relative to the site root and inside it."""
    return text(default, inside_root)


def count(default: int, *checks: Check) -> int:
    """A whole number."""
    return setting(default, *checks)


def seconds(default: float) -> float:
    """A time limit in seconds, more than 0 (an integer is taken too)."""
    return setting(default, positive_seconds, types=(int, float))


def options_of(cls: type) -> dict[str, Option]:
    """Each field of the dataclass ``cls`` by name, with its option, in the order declared."""
    found: dict[str, Option] = {}
    for each in fields(cls):
        option = each.metadata.get(_OPTION)
        if not isinstance(option, Option):
            raise TypeError(f"{cls.__name__}.{each.name} is not declared by an option of {__name__}")
        found[each.name] = option
    return found


def read_table(
    table: Mapping[str, object], lines: list[str], options: Mapping[str, Option]
) -> tuple[dict[str, object], list[Problem]]:
    """The values of ``table`` that are right, and a problem for each key that is not, for each
    required key missing, then for what the structured keys' readers find."""
    values: dict[str, object] = {}
    problems: list[Problem] = []
    for key, value in table.items():
        kept, found = _read_key(key, value, lines, options)
        problems += found
        if kept is not MISSING:
            values[key] = kept
    problems += _missing(table, lines, options)
    reading = Reading(
        lines=lines, values={key: values.get(key, each.default) for key, each in options.items()}
    )
    for key, option in options.items():
        if option.read is not None:
            values[key], found = option.read(values.get(key), reading)
            problems += found
    return values, problems


def _missing(table: Mapping[str, object], lines: list[str], options: Mapping[str, Option]) -> list[Problem]:
    """A problem at the table's header for each required key it lacks."""
    line = line_of(lines, "")
    return [
        problem(line, "settings-required", f"missing required key {key!r}")
        for key, option in options.items()
        if option.required and key not in table
    ]


def _read_key(
    key: str, value: object, lines: list[str], options: Mapping[str, Option]
) -> tuple[object, list[Problem]]:
    """The value kept for one key of the table (``MISSING``: its default), and its problem."""
    line = line_of(lines, key)
    option = options.get(key)
    if option is None:
        return MISSING, [
            problem(line, "settings-unknown", f"unknown key {key!r}{did_you_mean(key, options)}")
        ]
    if not option.takes(value):
        names = " or ".join(kind.__name__ for kind in option.types)
        message = f"{key} must be {names}, not {type(value).__name__}"
        return MISSING, [problem(line, "settings-type", message)]
    if option.read is None and (fault := option.fault(key, value)):  # else its reader checks it
        return MISSING, [problem(line, "settings-value", fault)]
    return value, []
