"""``site-builder init``: the starter site, written all at once or not at all.

The site builds with no problem as written: settings, one article batch whose fixture
backs what the article prints, the figure it shows, a ``.gitignore`` and a GitHub
Actions workflow that validates pull requests and publishes to GitHub Pages.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from importlib.resources import files
from pathlib import Path

from site_builder import __version__
from site_builder.errors import UsageError
from site_builder.model.schedule import build_date
from site_builder.settings.pyproject import PYPROJECT

LANGUAGES = ("en", "ru", "ko")
"""The languages the starter article is written in."""

_TITLES = {"en": "Verified notes", "ru": "Проверяемые заметки", "ko": "검증된 노트"}

# Written path → packaged text ("{lang}": the chosen language's version).
_FILES = {
    PYPROJECT: "pyproject.toml.in",
    ".gitignore": "gitignore.in",
    ".github/workflows/site.yml": "site.yml.in",
    ".github/workflows/sources.yml": "sources.yml.in",
    "articles/first_article.py": "first_article.{lang}.py.in",
    "assets/first-article/how-a-page-is-made.svg": "how-a-page-is-made.svg",
}


def write_starter(folder: Path, lang: str, requirement: str) -> list[Path]:
    """Write the starter site into ``folder`` (created if missing); the paths written, in order.
    Its workflow installs site-builder with ``requirement`` (see :mod:`.origin`).

    Refuses a folder that already holds a site, and writes nothing when any file it
    would write is already there.
    """
    _refuse_a_site(folder)
    values = {
        "VERSION": __version__,
        "REQUIREMENT": requirement,
        "LANGUAGE": lang,
        "TITLE": _TITLES[lang],
        "TODAY": today(),
    }
    texts = {folder / path: render(packaged.format(lang=lang), values) for path, packaged in _FILES.items()}
    if existing := [path for path in texts if path.exists() or path.is_symlink()]:
        raise UsageError(f"{existing[0]} already exists; nothing was written (init never overwrites a file)")
    for path, text in texts.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("x", encoding="utf-8", newline="\n") as handle:  # "x": never overwrite
            handle.write(text)
    return list(texts)


def _refuse_a_site(folder: Path) -> None:
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"{folder} is a file, not a folder")
    settings = folder / PYPROJECT
    if (folder / "articles").exists():
        raise UsageError(f"{folder} already holds a site: it has an articles/ folder; nothing was written")
    if settings.is_file() and "site_builder" in _tool_tables(settings):
        raise UsageError(
            f"{folder} already holds a site: {settings} has [tool.site_builder]; nothing was written"
        )


def _tool_tables(path: Path) -> dict[str, object]:
    try:
        tool = tomllib.loads(path.read_text("utf-8")).get("tool", {})
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return {}
    return tool if isinstance(tool, dict) else {}


def render(name: str, values: Mapping[str, str]) -> str:
    """The packaged text ``name`` with its ``@@KEY@@`` markers filled in from ``values``."""
    text = (files("site_builder.starter") / "files" / name).read_text("utf-8")
    for key, value in values.items():
        text = text.replace(f"@@{key}@@", value)
    return text


def today() -> str:
    """The build's date: ``SOURCE_DATE_EPOCH``'s (UTC) when it is set, so output can be
    reproduced, today's (UTC) otherwise; a starter article dated so is published at once."""
    return build_date()
