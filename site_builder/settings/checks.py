"""What the value of a key of ``[tool.site_builder]`` must be, beyond its type: each check
takes the key and a value of the key's type and says what is wrong with it (None: nothing)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from site_builder.authoring.escaping import NOT_XML
from site_builder.language.plurals import LANGUAGE_TAG

Check = Callable[[str, Any], str | None]
"""``check(key, value)``: a message naming the key and the value's fault, or None."""

_HTTP_URL = re.compile(r"https?://[^\s/?#]+(/\S*)?")
_NOT_IN_PATH = re.compile(r"[\s?#\\:]")


def xml_chars(key: str, value: str) -> str | None:
    """No character XML 1.0 forbids: every string may end up in a feed or a sitemap."""
    if bad := NOT_XML.search(value):
        return f"{key} contains U+{ord(bad.group()):04X}, which XML 1.0 forbids"
    return None


def filled(key: str, value: str) -> str | None:
    """More than white space."""
    return None if value.strip() else f"{key} must not be empty"


def http_url(key: str, value: str) -> str | None:
    """An absolute http(s) URL without a query or a fragment, or nothing at all."""
    if value and not _HTTP_URL.fullmatch(value):
        return f"{key} must be an absolute http(s) URL, not {value!r}"
    if "?" in value or "#" in value:  # the site's URLs are made by appending to it
        return f"{key} must not have a query or a fragment, not {value!r}"
    return None


def path_under_repo(key: str, value: str) -> str | None:
    """Appended to ``repo_url``: a relative path, without a scheme, a query or ``..``."""
    if value.startswith("/") or ".." in value.split("/") or _NOT_IN_PATH.search(value):
        return f"{key} must be a path under repo_url like 'blob/main/', not {value!r}"
    return None


def language_tag(key: str, value: str) -> str | None:
    """A BCP 47 language tag such as ``en`` or ``pt-BR``."""
    if not LANGUAGE_TAG.fullmatch(value):
        return f"{key} {value!r} is not a language tag like 'en' or 'ru'"
    return None


def inside_root(key: str, value: str) -> str | None:
    """A folder relative to the site root that stays inside it."""
    if Path(value).is_absolute() or ".." in Path(value).parts:
        return f"{key} must be a folder inside the site root, not {value!r}"
    return None


def not_negative(key: str, value: int) -> str | None:
    """Zero or more."""
    return f"{key} must not be negative, not {value}" if value < 0 else None


def at_least_one(key: str, value: int) -> str | None:
    """One or more."""
    return f"{key} must be at least 1, not {value}" if value < 1 else None


def positive_seconds(key: str, value: float) -> str | None:
    """A time limit: more than 0 seconds."""
    return f"{key} must be more than 0 seconds, not {value}" if value <= 0 else None


def labels_by_language(key: str, value: dict[object, object]) -> str | None:
    """Language tags, each to a non-empty label."""
    if all(isinstance(k, str) and isinstance(v, str) and v.strip() for k, v in value.items()):
        return None
    return f"{key} must map language tags to non-empty labels"
