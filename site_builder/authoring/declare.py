"""``revision(...)`` and ``@fixture``: how an article batch declares its content.

Both take whatever the author passes and never raise for a mistake: a missing
field, an unknown field or a wrong type becomes a :class:`Flaw` at the line the
author wrote that field on (a missing one: the line of the call), so every
problem of every batch is reported in one run.
"""

from __future__ import annotations

import inspect
import linecache
import re
from collections.abc import Callable, Sequence

from markupsafe import Markup

from site_builder.authoring.arguments import Keywords, call_keywords
from site_builder.authoring.markdown import render_inline
from site_builder.authoring.model import (
    CallSite,
    Fixture,
    Flaw,
    Revision,
    Source,
    author_frame,
    call_site,
    field_site,
)
from site_builder.errors import a_kind, did_you_mean

_REQUIRED = ("slug", "title", "categories", "excerpt", "published", "body", "sources")
_FIELDS = (*_REQUIRED, "cover", "lang", "reading_minutes", "draft", "revised", "changes")


class _Checker:
    def __init__(self, site: CallSite, lines: Keywords) -> None:
        self.site, self.lines = site, lines
        self.flaws: list[Flaw] = []

    def flaw(self, rule: str, message: str, field: str = "", *, at: str = "") -> None:
        """A flaw at the line of keyword ``at`` (or ``field``), else at the call's first line."""
        self.flaws.append(Flaw(field_site(self.site, self.lines, at or field), rule, message, field))

    def text(self, name: str, value: object, *, optional: bool = False) -> str | None:
        if value is None:
            if not optional:
                self.flaw("required", f"missing required field {name!r}", name)
            return None
        if not isinstance(value, str):
            self.flaw("field-type", f"{name} must be a str, not {type(value).__name__}", name)
            return None
        return value

    def seq(self, name: str, value: object) -> Sequence[object]:
        if value is None:
            self.flaw("required", f"missing required field {name!r}", name)
            return ()
        if not isinstance(value, list | tuple):
            self.flaw("field-type", f"{name} must be a list, not {type(value).__name__}", name)
            return ()
        return value


def revision(
    *,
    slug: str | None = None,
    title: str | None = None,
    categories: Sequence[str] | None = None,
    excerpt: str | None = None,
    cover: str | None = None,
    published: str | None = None,
    lang: str | None = None,
    body: Sequence[Markup] | None = None,
    sources: Sequence[Source] | None = None,
    reading_minutes: int | None = None,
    draft: bool = False,
    revised: str | None = None,
    changes: str | None = None,
    **unknown: object,
) -> Revision:
    """Declare one revision of an article; validation checks it against the site."""
    frame = author_frame()
    check = _Checker(CallSite(frame.f_code.co_filename, frame.f_lineno), call_keywords(frame))
    for name in sorted(unknown):
        check.flaw("unknown-field", f"unknown field {name!r}{did_you_mean(name, _FIELDS)}", at=name)
    cited, numbers = _sources(check, sources)
    when = check.text("revised", revised, optional=True)
    note = check.text("changes", changes, optional=True)
    rendered = render_inline(note) if note is not None else None
    return Revision(
        slug=check.text("slug", slug) or "",
        title=check.text("title", title) or "",
        categories=_categories(check, categories),
        excerpt=check.text("excerpt", excerpt) or "",
        cover=check.text("cover", cover, optional=True),
        published=check.text("published", published) or "",
        lang=check.text("lang", lang, optional=True),
        body=_body(check, body),
        sources=cited,
        source_numbers=numbers,
        reading_minutes=_minutes(check, reading_minutes),
        draft=_draft(check, draft),  # before ``flaws``: it may add one
        site=check.site,
        flaws=tuple(check.flaws),
        lines=check.lines,
        revised=when,
        changes=note,
        changes_html=rendered.html if rendered is not None else "",
        changes_urls=rendered.urls if rendered is not None else (),
    )


def _categories(check: _Checker, value: object) -> tuple[str, ...]:
    found = []
    for n, item in enumerate(check.seq("categories", value), 1):
        if isinstance(item, str):
            found.append(item)
        else:
            check.flaw(
                "field-type", f"category {n} must be a str, not {type(item).__name__}", at="categories"
            )
    return tuple(found)


def _body(check: _Checker, value: object) -> tuple[Markup, ...]:
    found = []
    for n, item in enumerate(check.seq("body", value), 1):
        if isinstance(item, Markup):
            found.append(item)
        elif isinstance(item, str):
            message = f"body item {n} is plain text; wrap it in paragraph() or markdown()"
            check.flaw("body-type", message, at="body")
        else:
            check.flaw("body-type", f"body item {n} is {a_kind(item)}, not a helper block", at="body")
    return tuple(found)


def _sources(check: _Checker, value: object) -> tuple[tuple[Source, ...], tuple[int, ...]]:
    """The sources, and each one's place in the list as written (when an item that is not a
    Source was left out before it; else empty)."""
    found: list[tuple[int, Source]] = []
    for n, item in enumerate(check.seq("sources", value), 1):
        if isinstance(item, Source):
            found.append((n, item))
        else:
            message = f"source {n} must be a Source(...), not {type(item).__name__}"
            check.flaw("field-type", message, at="sources")
    numbers = tuple(n for n, _ in found)
    return tuple(source for _, source in found), () if numbers == tuple(range(1, len(found) + 1)) else numbers


def _minutes(check: _Checker, value: object) -> int | None:
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool) and value >= 1:
        return value
    message = f"reading_minutes must be a whole number of at least 1, not {value!r}"
    check.flaw("field-type", message, at="reading_minutes")
    return None


def _draft(check: _Checker, value: object) -> bool:
    if isinstance(value, bool):
        return value
    check.flaw("field-type", f"draft must be True or False, not {value!r}", "draft")
    return False


def fixture(function: Callable[[], object]) -> Fixture:
    """Register a zero-argument function as a fixture of its batch."""
    code = getattr(inspect.unwrap(function), "__code__", None) if callable(function) else None
    if code is None:
        site = call_site()
        flaw = Flaw(site, "fixture-definition", "@fixture must decorate a function")
        return Fixture(function=_never, name="?", module="", site=site, flaws=(flaw,))
    name = getattr(function, "__name__", code.co_name)
    site = CallSite(code.co_filename, _def_line(code.co_filename, code.co_firstlineno, name))
    flaws: tuple[Flaw, ...] = ()
    required = [
        p.name
        for p in inspect.signature(function).parameters.values()
        if p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
    ]
    if required:
        names = ", ".join(required)
        flaws = (Flaw(site, "fixture-definition", f"a fixture takes no arguments; this one needs {names}"),)
    module = getattr(function, "__module__", None) or code.co_filename
    return Fixture(function=function, name=name, module=module, site=site, flaws=flaws)


def _def_line(path: str, first: int, name: str) -> int:
    """The ``def`` line: a decorated function's code starts at its first decorator."""
    pattern = re.compile(rf"\s*(async\s+)?def\s+{re.escape(name)}\b")
    for line in range(first, first + 50):
        if pattern.match(linecache.getline(path, line)):
            return line
    return first


def _never() -> object:
    raise TypeError("not a fixture function")
