"""The site's settings: ``[tool.site_builder]`` in ``pyproject.toml``.

Every key is checked: an unknown key, a wrong type or a missing required key is
a problem with its line, like any other. Bad values fall back to their default
so that the articles are still checked in the same run.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit

from site_builder.errors import Problem, UsageError, closest
from site_builder.language.labels import Table
from site_builder.language.plurals import LANGUAGE_TAG as LANGUAGE_TAG
from site_builder.language.plurals import base
from site_builder.language.tables import read_labels
from site_builder.settings.checks import (
    at_least_one,
    filled,
    http_url,
    labels_by_language,
    language_tag,
    not_negative,
    path_under_repo,
)
from site_builder.settings.nav import NavSection, read_nav
from site_builder.settings.options import (
    Reading,
    count,
    options_of,
    read_table,
    relative_folder,
    seconds,
    setting,
    text,
)
from site_builder.settings.pyproject import PYPROJECT, TABLE, line_of, problem

_SOURCES_LABEL_RU = "Проверяемые источники"
_DEFAULT_LABELS = {"en": "Sources", "ko": "출처"}


def _nav(value: list[object] | None, reading: Reading) -> tuple[object, list[Problem]]:
    """The ``nav`` key's reader: its tables (none when it is missing or not a list)."""
    return read_nav(value or [], reading.lines)


def _labels(value: object, reading: Reading) -> tuple[object, list[Problem]]:
    """The ``labels`` key's reader: its tables, and whether the ``language`` read has labels."""
    lines, language = reading.lines, str(reading.values["language"])
    return read_labels(value, language, lines, partial(line_of, lines))


@dataclass(frozen=True, slots=True, kw_only=True)
class Settings:
    """What ``[tool.site_builder]`` says, with the contract's defaults.

    Each key is declared here once: its type, its default and its checks (``settings.options``).
    """

    title: str = text("", filled, required=True)
    """Site title (required)."""
    base_url: str = text("", filled, http_url, required=True)
    """Absolute URL the site is served from (required)."""
    language: str = text("en", language_tag)
    """Default ``lang`` of revisions and of the site chrome."""
    description: str = text("")
    """For the index page and the feed."""
    min_body_chars: int = count(5000, not_negative)
    """Fewest body characters a revision may have."""
    max_body_chars: int = count(15000, not_negative)
    """Most body characters a revision may have."""
    min_sources: int = count(2, not_negative)
    """Fewest sources each revision must cite."""
    fixture_timeout: float = seconds(10.0)
    """Seconds a fixture may run."""
    import_timeout: float = seconds(60.0)
    """Seconds a batch's import may run: one that does not finish is a problem of that batch."""
    articles_dir: str = relative_folder("articles")
    """Batch modules, relative to the site root."""
    assets_dir: str = relative_folder("assets")
    """Files articles reference, relative to the site root."""
    output_dir: str = relative_folder("build")
    """Where the site is written, relative to the site root."""
    sources_heading: dict[str, str] = setting({}, labels_by_language)  # noqa: RUF009 (a Field: its own dict)
    """Per-language label of the sources section; Russian is fixed by the contract."""
    nav: tuple[NavSection, ...] = setting((), types=(list,), read=_nav)
    """The reading order (``[[tool.site_builder.nav]]`` tables): a sidebar and previous/next links."""
    repo_url: str = text("", http_url)
    """The site's repository (``https://github.com/me/site``): each verified output's mark links to
    its fixture's source there; "" for none (the mark links to the page's list of fixtures)."""
    source_uri: str = text("blob/main/", path_under_repo)
    """The path under ``repo_url`` that shows the site root's files (as MkDocs' ``edit_uri``)."""
    author: str = text("")
    """The feed's and the pages' author; empty: the site title (an organisation in JSON-LD)."""
    feed_limit: int = count(50, at_least_one)
    """The feed holds this many newest revisions; ``revisions.json`` holds every one."""
    source_max_age: int = count(7, not_negative)
    """Days ``check-sources`` trusts a page it fetched before asking its server again (0: every run)."""
    labels: dict[str, Table] = setting({}, read=_labels)  # noqa: RUF009 (a Field: its own dict)
    """The site's own chrome words (``[tool.site_builder.labels.LANG]``): a language added or changed."""

    @property
    def base_path(self) -> str:
        """The path of ``base_url``, ending in ``/`` (``/`` for a site at the domain's root).

        Every URL a page writes starts with it; authors still write site-relative URLs.
        Percent-encoded, so it never needs escaping in an attribute or a script.
        """
        path = unquote(urlsplit(self.base_url).path).rstrip("/") + "/"
        return quote(path, safe="/!$()*+,;=:@")

    def sources_label(self, lang: str) -> str:
        """The sources heading for a revision in ``lang``: the site's for the tag, else for its
        language, as the chrome's words are chosen (``ru-RU`` is Russian, ``en-GB`` takes ``en``'s)."""
        language = base(lang)
        if language == "ru":
            return _SOURCES_LABEL_RU
        given = {tag.lower(): label for tag, label in self.sources_heading.items()}
        return given.get(lang.lower()) or given.get(language) or _DEFAULT_LABELS.get(language, "Sources")


_OPTIONS = options_of(Settings)


@dataclass(frozen=True, slots=True)
class Project:
    """A site's root and its settings: read once per command and passed down."""

    root: Path
    """The folder holding ``pyproject.toml`` (resolved)."""
    settings: Settings
    """Checked settings (defaults where a value was wrong)."""
    problems: tuple[Problem, ...]
    """What is wrong with the settings."""

    @classmethod
    def read(cls, root: Path) -> Project:
        """Read the settings of the site at ``root``."""
        root = root.resolve()
        settings, problems = load_settings(root)
        return cls(root, settings, tuple(problems))

    @property
    def articles(self) -> Path:
        """The folder of the batch modules."""
        return self.root / self.settings.articles_dir

    def output(self, out: Path | None = None) -> Path:
        """The output folder: ``out`` when given, the ``output_dir`` setting otherwise."""
        return (out or self.root / self.settings.output_dir).resolve()


def find_root(start: Path) -> Path:
    """The nearest folder upward from ``start`` with a site's ``pyproject.toml``."""
    for folder in (start, *start.parents):
        if holds_site(folder):
            return folder
    nearest = next((folder for folder in (start, *start.parents) if (folder / PYPROJECT).is_file()), None)
    hint = table_hint(nearest, f"{nearest / PYPROJECT} has") if nearest is not None else ""
    raise UsageError(
        f"no {PYPROJECT} with [tool.site_builder] in {start} or above{hint or '; use --root DIR'}"
    )


def table_hint(folder: Path, has: str) -> str:
    """``; HAS [tool.site-builder]: did you mean [tool.site_builder]?`` when the
    ``pyproject.toml`` in ``folder`` has a ``[tool]`` table named like this tool's (the
    command's own name, ``site-builder``, is the likely one); empty otherwise."""
    try:
        tools = tomllib.loads((folder / PYPROJECT).read_text("utf-8")).get("tool", {})
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return ""
    near = (
        sorted(name for name in tools if closest(name, ["site_builder"]) is not None)
        if isinstance(tools, dict)
        else []
    )
    return f"; {has} [tool.{near[0]}]: did you mean [tool.site_builder]?" if near else ""


def holds_site(folder: Path) -> bool:
    """Whether ``folder`` has a ``pyproject.toml`` with a ``[tool.site_builder]`` table."""
    candidate = folder / PYPROJECT
    try:
        return candidate.is_file() and bool(TABLE.search(candidate.read_text("utf-8", errors="replace")))
    except OSError as exc:
        raise UsageError(f"cannot read {candidate}: {exc.strerror}") from exc


def load_settings(root: Path) -> tuple[Settings, list[Problem]]:
    """Read and check the settings; problems come with the defaults in their place."""
    path = root / PYPROJECT
    try:
        text = path.read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return Settings(), [problem(1, "settings-file", f"cannot read {PYPROJECT}: {exc}")]
    try:
        table = tomllib.loads(text).get("tool", {}).get("site_builder")
    except tomllib.TOMLDecodeError as exc:
        line = int(m.group(1)) if (m := re.search(r"line (\d+)", str(exc))) else 1
        return Settings(), [problem(line, "settings-file", f"{PYPROJECT} is not valid TOML: {exc}")]
    if not isinstance(table, dict):
        return Settings(), [problem(1, "settings-file", "no [tool.site_builder] table")]
    return _check(table, text.splitlines())


def _check(table: dict[str, object], lines: list[str]) -> tuple[Settings, list[Problem]]:
    """Each key read by its option, then what ties two keys together."""
    values, problems = read_table(table, lines, _OPTIONS)
    settings = Settings(**values)  # type: ignore[arg-type]
    if settings.min_body_chars > settings.max_body_chars:
        message = "min_body_chars is greater than max_body_chars"
        problems.append(problem(line_of(lines, "min_body_chars"), "settings-value", message))
    return settings, problems
