"""The site's settings: ``[tool.site_builder]`` in ``pyproject.toml``.

Every key is checked: an unknown key, a wrong type or a missing required key is
a problem with its line, like any other. Bad values fall back to their default
so that the articles are still checked in the same run.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field, fields
from functools import partial
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit

from site_builder.authoring.escaping import NOT_XML
from site_builder.errors import Problem, UsageError, did_you_mean
from site_builder.language.labels import Table
from site_builder.language.plurals import LANGUAGE_TAG as LANGUAGE_TAG
from site_builder.language.plurals import base
from site_builder.language.tables import read_labels
from site_builder.settings.nav import NavSection, read_nav
from site_builder.settings.pyproject import PYPROJECT, TABLE, line_of, problem

_SOURCES_LABEL_RU = "Проверяемые источники"
_DEFAULT_LABELS = {"en": "Sources", "ko": "출처"}


@dataclass(frozen=True, slots=True, kw_only=True)
class Settings:
    """What ``[tool.site_builder]`` says, with the contract's defaults."""

    title: str = ""
    """Site title (required)."""
    base_url: str = ""
    """Absolute URL the site is served from (required)."""
    language: str = "en"
    """Default ``lang`` of revisions and of the site chrome."""
    description: str = ""
    """For the index page and the feed."""
    min_body_chars: int = 5000
    """Fewest body characters a revision may have."""
    max_body_chars: int = 15000
    """Most body characters a revision may have."""
    min_sources: int = 2
    """Fewest sources each revision must cite."""
    fixture_timeout: float = 10.0
    """Seconds a fixture may run."""
    import_timeout: float = 60.0
    """Seconds a batch's import may run: one that does not finish is a problem of that batch."""
    articles_dir: str = "articles"
    """Batch modules, relative to the site root."""
    assets_dir: str = "assets"
    """Files articles reference, relative to the site root."""
    output_dir: str = "build"
    """Where the site is written, relative to the site root."""
    sources_heading: dict[str, str] = field(default_factory=dict)
    """Per-language label of the sources section; Russian is fixed by the contract."""
    nav: tuple[NavSection, ...] = ()
    """The reading order (``[[tool.site_builder.nav]]`` tables): a sidebar and previous/next links."""
    repo_url: str = ""
    """The site's repository (``https://github.com/me/site``): each verified output's mark links to
    its fixture's source there; "" for none (the mark links to the page's list of fixtures)."""
    source_uri: str = "blob/main/"
    """The path under ``repo_url`` that shows the site root's files (as MkDocs' ``edit_uri``)."""
    author: str = ""
    """The feed's and the pages' author; empty: the site title (an organisation in JSON-LD)."""
    feed_limit: int = 50
    """The feed holds this many newest revisions; ``revisions.json`` holds every one."""
    labels: dict[str, Table] = field(default_factory=dict)
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


_REQUIRED = ("title", "base_url")
_SPECIAL_TYPES: dict[str, tuple[type, ...]] = {
    "fixture_timeout": (int, float),
    "import_timeout": (int, float),
    "nav": (list,),
}
_TYPES: dict[str, tuple[type, ...]] = {
    f.name: _SPECIAL_TYPES.get(f.name, (type(getattr(Settings(), f.name)),)) for f in fields(Settings)
}


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
    raise UsageError(f"no {PYPROJECT} with [tool.site_builder] in {start} or above; use --root DIR")


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
    problems: list[Problem] = []
    values: dict[str, object] = {}
    for key, value in table.items():
        line = line_of(lines, key)
        expected = _TYPES.get(key)
        if expected is None:
            problems.append(
                problem(line, "settings-unknown", f"unknown key {key!r}{did_you_mean(key, _TYPES)}")
            )
        elif key == "nav" and isinstance(value, list):
            nav, found = read_nav(value, lines)
            problems.extend(found)
            values[key] = nav
        elif key == "labels" and isinstance(value, dict):
            continue  # read with the language, below
        elif not isinstance(value, expected) or isinstance(value, bool):
            names = " or ".join(t.__name__ for t in expected)
            problems.append(
                problem(line, "settings-type", f"{key} must be {names}, not {type(value).__name__}")
            )
        elif message := _bad_value(key, value):
            problems.append(problem(line, "settings-value", message))
        else:
            values[key] = value
    for key in _REQUIRED:
        if key not in table:
            problems.append(problem(line_of(lines, ""), "settings-required", f"missing required key {key!r}"))
    language = str(values.get("language", "en"))
    labels, found = read_labels(table.get("labels"), language, lines, partial(line_of, lines))
    settings, problems = Settings(**values, labels=labels), problems + found  # type: ignore[arg-type]
    if settings.min_body_chars > settings.max_body_chars:
        problems.append(
            problem(
                line_of(lines, "min_body_chars"),
                "settings-value",
                "min_body_chars is greater than max_body_chars",
            )
        )
    return settings, problems


def _bad_value(key: str, value: object) -> str | None:
    if isinstance(value, str) and (bad := NOT_XML.search(value)):
        return f"{key} contains U+{ord(bad.group()):04X}, which XML 1.0 forbids"
    if key in ("title", "base_url") and not str(value).strip():
        return f"{key} must not be empty"
    if key in ("base_url", "repo_url", "source_uri") and value:
        return _bad_url(key, str(value))
    if key == "language" and not LANGUAGE_TAG.fullmatch(str(value)):
        return f"language {value!r} is not a language tag like 'en' or 'ru'"
    if key == "feed_limit" and isinstance(value, int) and value < 1:
        return f"feed_limit must be at least 1, not {value}"
    if key in ("fixture_timeout", "import_timeout") and isinstance(value, int | float) and value <= 0:
        return f"{key} must be more than 0 seconds, not {value}"
    if isinstance(value, int) and value < 0:
        return f"{key} must not be negative, not {value}"
    if key.endswith("_dir") and (Path(str(value)).is_absolute() or ".." in Path(str(value)).parts):
        return f"{key} must be a folder inside the site root, not {value!r}"
    if isinstance(value, dict) and not all(
        isinstance(k, str) and isinstance(v, str) and v.strip() for k, v in value.items()
    ):
        return f"{key} must map language tags to non-empty labels"
    return None


def _bad_url(key: str, value: str) -> str | None:
    if key == "source_uri":  # appended to repo_url: a relative path, no scheme, query or ".."
        if value.startswith("/") or ".." in value.split("/") or re.search(r"[\s?#\\:]", value):
            return f"source_uri must be a path under repo_url like 'blob/main/', not {value!r}"
        return None
    if not re.fullmatch(r"https?://[^\s/?#]+(/\S*)?", value):
        return f"{key} must be an absolute http(s) URL, not {value!r}"
    if "?" in value or "#" in value:  # the site's URLs are made by appending to it
        return f"{key} must not have a query or a fragment, not {value!r}"
    return None
