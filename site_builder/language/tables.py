"""A site's ``[tool.site_builder.labels.LANG]`` tables, checked against the chrome's keys and
each language's plural rule, every problem at its line of ``pyproject.toml``.

A table for a language the package has (``en``, ``ko``, ``ru``) changes some of its
words; a table for any other language adds it, so it must give every label.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence

from site_builder.errors import Problem, did_you_mean
from site_builder.language.english import count
from site_builder.language.labels import BUILT_IN, COUNTS, HISTORY, NAMES, Table, has_labels, supported
from site_builder.language.plurals import LANGUAGE_TAG, base, categories

_SETTINGS = "pyproject.toml"
_HEADER = re.compile(r"\s*\[\s*tool\.site_builder\.labels(?:\.(?P<rest>[^\]]+))?\s*\]")
_KEY = re.compile(r"\s*([\w.\"' -]+?)\s*=")

Finding = tuple[str, str, str]
"""(the language, the key or "", message) of one problem in a labels table."""


def read_labels(
    value: object, language: str, lines: list[str], line_of: Callable[[str], int]
) -> tuple[dict[str, Table], list[Problem]]:
    """The site's labels tables (``value``: what the ``labels`` setting holds) and their
    problems, then whether ``language`` has labels at all. ``line_of`` finds a setting's line."""
    given = {str(lang): table for lang, table in value.items()} if isinstance(value, dict) else {}
    tables: dict[str, Table] = {
        lang: table
        for lang, table in given.items()
        if isinstance(table, dict) and LANGUAGE_TAG.fullmatch(lang)
    }
    complete = {*BUILT_IN, *(lang.lower() for lang in tables)}
    problems = [
        _problem(_line(lines, where, key, line_of("labels")), "settings-labels", message)
        for lang, table in given.items()
        for where, key, message in check_table(lang, table, complete)
    ]
    if not has_labels(language, tables):
        message = language_message("language", language, tables)
        problems.append(_problem(line_of("language"), "settings-language", message))
    return tables, problems


def language_message(what: str, tag: str, tables: Mapping[str, Table]) -> str:
    """Why ``tag`` cannot be used, and how to add it."""
    return (
        f"{what} {tag!r} has no labels; supported: {', '.join(supported(tables))}; "
        f"add a [tool.site_builder.labels.{base(tag)}] table"
    )


def check_table(lang: str, table: object, complete: Collection[str] = BUILT_IN) -> Iterator[Finding]:
    """Every problem of one language's table. A table whose base language is ``complete``
    (the package has it, or the site gives it in full) may give only some labels."""
    if not LANGUAGE_TAG.fullmatch(lang):
        yield lang, "", f"labels.{lang} is not named by a language tag like 'de' or 'pt-BR'"
        return
    if not isinstance(table, dict):
        yield lang, "", f"labels.{lang} must be a table of labels, not {type(table).__name__}"
        return
    for key, value in table.items():
        yield from _entry(lang, str(key), value)
    yield from _missing(lang, table, complete)


def _missing(lang: str, table: Mapping[object, object], complete: Collection[str]) -> Iterator[Finding]:
    """The labels a table lacks, unless it only changes some of a ``complete`` language's."""
    missing = [name for name in NAMES if name not in table and name not in HISTORY]
    partial = lang.lower() in BUILT_IN or (base(lang) != lang.lower() and base(lang) in complete)
    if missing and not partial:
        yield lang, "", f"labels.{lang} lacks {count(len(missing), 'label')}: {', '.join(missing)}"


def _entry(lang: str, key: str, value: object) -> Iterator[Finding]:
    if key not in NAMES:
        hint = did_you_mean(key, NAMES) or f"; the labels are: {', '.join(NAMES)}"
        yield lang, key, f"labels.{lang} has an unknown label {key!r}{hint}"
    elif key not in COUNTS:
        if not isinstance(value, str) or not value.strip():
            yield lang, key, f"labels.{lang}.{key} must be a non-empty string"
    else:
        yield from _count_entry(lang, key, value)


def _count_entry(lang: str, key: str, value: object) -> Iterator[Finding]:
    """A label with a number: a text for each plural category of the language, no other."""
    needed = categories(lang)
    name = f"labels.{lang}.{key}"
    if not isinstance(value, dict):
        example = ", ".join(f'{form} = "…"' for form in needed)
        message = (
            f"{name} holds a number: give a text for each plural form of {lang} "
            f"({', '.join(needed)}), as {key} = {{ {example} }}"
        )
        yield lang, key, message
        return
    yield from ((lang, key, message) for message in _plural_forms(name, lang, needed, value))
    if not all(isinstance(text, str) and text.strip() for text in value.values()):
        yield lang, key, f"{name} must map each plural form to a non-empty string"


def _plural_forms(
    name: str, lang: str, needed: Sequence[str], value: Mapping[object, object]
) -> Iterator[str]:
    """The plural forms a label's table lacks, then those the language does not use."""
    uses = f"{lang} uses {', '.join(needed)} (CLDR)"
    if missing := [form for form in needed if form not in value]:
        yield f"{name} lacks the plural {_forms(missing)} {', '.join(missing)}; {uses}"
    if extra := [str(form) for form in value if form not in needed]:
        forms = f"{_forms(extra)} {', '.join(extra)}"
        yield f"{name} has the plural {forms}, which {lang} does not use; {uses}"


def _forms(names: list[str]) -> str:
    return "form" if len(names) == 1 else "forms"


def _line(lines: list[str], lang: str, key: str, fallback: int) -> int:
    """The line that gives ``key`` of ``lang``'s table, else the table's first line, else
    ``fallback``: ``[tool.site_builder.labels.LANG]`` and its keys, a sub-table
    ``[tool.site_builder.labels.LANG.KEY]``, or ``LANG = …`` / ``LANG.KEY = …`` lines in
    ``[tool.site_builder.labels]``."""
    first, table = 0, None  # table: where in `labels` the lines are ("", "de", "de.minutes")
    for number, text in enumerate(lines, 1):
        table, path = _read(text, table)
        if path is None:
            continue
        parts = path.split(".")
        if parts[0] == lang and key and parts[1:2] == [key]:
            return number
        first = first or (number if parts[0] == lang else 0)
    return first or fallback


def _read(text: str, table: str | None) -> tuple[str | None, str | None]:
    """What one line does, read in ``table`` (None: outside ``labels``): the table the next
    lines are in, and the path in ``labels`` of what the line gives (None: nothing there)."""
    if header := _HEADER.match(text):
        path = _dotted(header.group("rest") or "")
        return path, path
    if text.lstrip().startswith("["):
        return None, None
    if table is not None and (assigned := _KEY.match(text)):
        return table, ".".join(part for part in (table, _dotted(assigned.group(1))) if part)
    return table, None


def _dotted(name: str) -> str:
    """A TOML dotted key without quotes or spaces: ``"de" . minutes`` → ``de.minutes``."""
    return ".".join(part.strip().strip("\"'") for part in name.split("."))


def _problem(line: int, rule: str, message: str) -> Problem:
    return Problem(path=_SETTINGS, line=line, subject="settings", rule=rule, message=message)
