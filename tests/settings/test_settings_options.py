"""Each key of ``[tool.site_builder]`` is declared once, as a field of ``Settings`` made by an
option (``settings.options``): its type, default and checks there and nowhere else, read by
code that names no key."""

from __future__ import annotations

from dataclasses import dataclass, fields
from pathlib import Path

import pytest

from site_builder.settings.checks import not_negative
from site_builder.settings.options import Option, options_of, read_table, setting, text
from site_builder.settings.project import Settings, load_settings

REQUIRED = '[tool.site_builder]\ntitle = "T"\nbase_url = "https://example.org/"\n'


def test_every_field_of_settings_is_one_option_and_every_option_a_field() -> None:
    options = options_of(Settings)
    assert list(options) == [each.name for each in fields(Settings)]
    defaults = Settings()
    for name, option in options.items():
        assert option.default == getattr(defaults, name), name


def test_a_field_added_without_an_option_is_refused() -> None:
    """So a key cannot be added to ``Settings`` in one place and its checks in another:
    ``settings.project`` reads its options when imported, and this is what it would raise."""

    @dataclass(frozen=True, slots=True, kw_only=True)
    class Grown:
        title: str = text("")
        theme: str = "dark"

    with pytest.raises(TypeError, match=r"Grown\.theme is not declared by an option"):
        options_of(Grown)


@pytest.mark.parametrize("option", options_of(Settings).items(), ids=lambda item: item[0])
def test_every_key_is_read_by_its_option_alone(tmp_path: Path, option: tuple[str, Option]) -> None:
    """``true`` is no key's type: each key's one problem names the types its option takes."""
    key, declared = option
    text = REQUIRED.replace(f"{key} = ", f"# {key} = ") + f"{key} = true\n"
    (tmp_path / "pyproject.toml").write_text(text, "utf-8")
    names = " or ".join(kind.__name__ for kind in declared.types)
    assert [str(p) for p in load_settings(tmp_path)[1]] == [
        f"pyproject.toml:4: settings: {key} must be {names}, not bool"
    ]


def test_a_table_is_read_by_its_options_whatever_their_keys() -> None:
    """A key declared on any dataclass is known, typed, checked and required with no other code."""

    @dataclass(frozen=True, slots=True, kw_only=True)
    class Small:
        name: str = text("", required=True)
        size: int = setting(1, not_negative)
        sizes: dict[str, int] = setting({})  # noqa: RUF009 (a Field: its own dict)

    lines = ["[tool.site_builder]", "size = -1", "sise = 2", "sizes = {}"]
    table: dict[str, object] = {"size": -1, "sise": 2, "sizes": {}}
    values, problems = read_table(table, lines, options_of(Small))
    assert values == {"sizes": {}}
    assert sorted(str(p) for p in problems) == [
        "pyproject.toml:1: settings: missing required key 'name'",
        "pyproject.toml:2: settings: size must not be negative, not -1",
        "pyproject.toml:3: settings: unknown key 'sise'; did you mean 'size'?",
    ]
    assert Small().sizes is not Small().sizes  # each its own table, as a field's default_factory
