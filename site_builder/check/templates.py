"""The templates a site renders with, read as text: which template makes a page, the
ids and links they write, and where in them a fault of a rendered page was written.

A site's ``templates/`` folder shadows the package's templates by name, as the
renderer's loader does. Jinja is not run here: a template is read as HTML in which
every ``{{ … }}`` and ``{% … %}`` stands for a value only rendering knows, except
``{{ url("/path/") }}``, which stands for its path. So what a template writes
literally (a link, an ``img`` without ``alt``) is judged before build, at the
template's line; what only rendering shows is traced back to the tag that wrote it.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

from site_builder.errors import Problem
from site_builder.model.batches import PACKAGE_FOLDER, PACKAGE_SHOWN
from site_builder.model.layout import resolves, site_relative, under
from site_builder.model.page_scan import OPAQUE, TAG, URL_ATTRS, attributes, blank, tag_faults

GENERATED = ("/theme/", "/pagefind/")
"""Folders the build writes itself; a template's links into them are judged after rendering."""

_UNKNOWN, _HINT, _END = "\ue000", "\ue003", "\ue004"
"""Stand for a ``{{ … }}``, a value only rendering knows: ``_UNKNOWN``, the string literals
of the expression (hints of what it may render) separated by ``_HINT``, ``_END``."""
_STATEMENT = "\ue001"
"""Stands for a ``{% … %}``: inside a tag, its attributes may differ from page to page."""
_SITE_PATH = "\ue002"
"""Starts ``{{ url("/path/") }}``: a site-relative path, written below the base path."""
_JINJA = re.compile(r"\{#.*?#\}|\{\{(.*?)\}\}|\{%.*?%\}", re.DOTALL)
_URL_CALL = re.compile(r"""-?\s*url\(\s*(["'])([^"'{}<>]*)\1\s*\)\s*-?""")
_REFERENCE = re.compile(r"""\{%-?\s*(?:extends|include|import|from)\s+(["'])([^"']+)\1""")
_NEWLINE = re.compile("\n")
_STAND_IN = re.compile(f"{_UNKNOWN}([^{_END}]*){_END}|{_STATEMENT}")
_URL_LIKE = re.compile(r"[^\s\"'<>=`{}\ue000-\ue004]+")
_STRING = re.compile(r"'([^'\\]*)'|\"([^\"\\]*)\"")


@dataclass(frozen=True, slots=True)
class Tag:
    """A tag a template writes that a check may be about."""

    line: int
    name: str
    values: dict[str, str]
    """Its attributes, with the stand-ins for what only rendering knows."""
    uncertain: bool
    """Which attributes it has depends on the page (it holds a ``{% … %}``, or a ``{{ … }}``
    in place of an attribute)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Template:
    """One template file, read."""

    name: str
    """Its name for the loader (``article.html``)."""
    shown: str
    """Its path as a problem names it."""
    own: bool
    """The site's own (in its ``templates/`` folder), not the package's."""
    tags: tuple[Tag, ...]
    references: tuple[str, ...]
    """The templates it extends, includes or imports, by name."""

    def ids(self) -> set[str]:
        """The ids it writes literally."""
        found = set()
        for tag in self.tags:
            value = tag.values.get("id")
            if value is not None and not _stand_ins(value):
                found.add(value)
        return found


_DIFF_PAGE = re.compile(r"articles/[^/]+/diff/[0-9]+/")
"""The path of a diff page (:func:`site_builder.model.layout.diff_url`, without its first ``/``)."""


def page_template(page: str) -> str:
    """The template that renders an output page (``articles/x/index.html``) or the page
    of a site path (``/articles/x/``)."""
    path = page.lstrip("/").removesuffix("index.html")
    if _DIFF_PAGE.fullmatch(path):
        return "diff.html"
    if path.startswith("articles/"):
        return "article.html"
    if path.startswith("categories/"):
        return "categories.html" if path == "categories/" else "category.html"
    return {"": "index.html", "404.html": "404.html"}.get(path, "base.html")


class Templates:
    """A site's templates, each read once: its own first, then the package's."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._folder = root / "templates"
        self._read: dict[str, Template | None] = {}

    def get(self, name: str) -> Template | None:
        """The template the loader finds for ``name``; None when there is none."""
        if name not in self._read:
            own = self._folder / name
            if own.is_file():
                self._read[name] = _read(own, name, f"templates/{name}", own=True)
            elif (PACKAGE_FOLDER / name).is_file():
                self._read[name] = _read(PACKAGE_FOLDER / name, name, f"{PACKAGE_SHOWN}/{name}", own=False)
            else:
                self._read[name] = None
        return self._read[name]

    def chain(self, name: str) -> list[Template]:
        """``name`` and every template it extends or includes, each once, in reading order."""
        found: dict[str, Template] = {}
        waiting = [name]
        while waiting:
            current = waiting.pop(0)
            template = self.get(current) if current not in found else None
            if template is not None:
                found[current] = template
                waiting += template.references
        return list(found.values())

    def own(self) -> list[Template]:
        """Every template of the site's own folder, by name."""
        if not self._folder.is_dir():
            return []
        names = sorted(p.relative_to(self._folder).as_posix() for p in self._folder.rglob("*.html"))
        return [t for t in map(self.get, names) if t is not None and t.own]

    def ids(self, page: str) -> set[str]:
        """The ids the templates of a page write literally."""
        return {i for template in self.chain(page_template(page)) for i in template.ids()}

    def locate(self, page: str, rule: str, tag: str, url: str, base_path: str) -> tuple[str, int, str]:
        """Where a template wrote the faulty ``tag`` (with ``url``) of an output page: the
        tag that fits best, the site's own templates first; else line 1 of the first of the
        site's own templates the page uses, else of the page's template."""
        chain = sorted(self.chain(page_template(page)), key=lambda t: not t.own)
        best: tuple[int, str, int] | None = None
        for template in chain:
            for candidate in template.tags:
                score = _fits(candidate, rule, tag, url, base_path)
                if score is not None and (best is None or score > best[0]):
                    best = (score, template.shown, candidate.line)
        if best is not None:
            return best[1], best[2], "template"
        shown = chain[0].shown if chain else f"templates/{page_template(page)}"
        return shown, 1, "template"


def _read(path: Path, name: str, shown: str, *, own: bool) -> Template:
    text = path.read_text("utf-8", errors="replace")
    references = tuple(m.group(2) for m in _REFERENCE.finditer(text))
    html = OPAQUE.sub(blank, _JINJA.sub(_stand_in, text))
    newlines = [m.start() for m in _NEWLINE.finditer(html)]
    tags = []
    for match in TAG.finditer(html):
        name_, raw = match.group(1).lower(), match.group(2)
        if name_ in URL_ATTRS or "id" in raw:
            line = bisect.bisect_left(newlines, match.start()) + 1
            values = attributes(raw)
            # A {% … %}, or a {{ … }} standing where an attribute would: which attributes it has
            # depends on the page.
            uncertain = _STATEMENT in raw or any(_UNKNOWN in key for key in values)
            tags.append(Tag(line, name_, values, uncertain))
    return Template(name=name, shown=shown, own=own, tags=tuple(tags), references=references)


def _stand_in(match: re.Match[str]) -> str:
    """A Jinja comment as spaces; an expression or a statement as one stand-in; newlines kept."""
    text = match.group(0)
    newlines = "\n" * text.count("\n")
    if text.startswith("{#"):
        return blank(match)
    if text.startswith("{%"):
        return _STATEMENT + newlines
    call = _URL_CALL.fullmatch(match.group(1))
    if call:
        return _SITE_PATH + call.group(2) + newlines
    # Only what a URL may hold: a hint never breaks the tag it stands in.
    hints = _HINT.join(h for a, b in _STRING.findall(match.group(1)) if _URL_LIKE.fullmatch(h := a or b))
    return _UNKNOWN + hints + _END + newlines


def _stand_ins(value: str) -> bool:
    return any(mark in value for mark in (_UNKNOWN, _STATEMENT))


def _rendered(value: str, base_path: str) -> str:
    """A literal value as pages show it."""
    return under(base_path, value[1:]) if value.startswith(_SITE_PATH) else value


def _fits(candidate: Tag, rule: str, tag: str, url: str, base_path: str) -> int | None:
    """How well ``candidate`` fits a rendered fault: the literal characters it shares with
    the URL; None when it cannot have written it."""
    if candidate.name != tag or not _may_fault(candidate, rule):
        return None
    value = candidate.values.get("src" if rule == "page-img-alt" else URL_ATTRS[tag], "")
    pattern, score, done = "", 0, 0
    for stand_in in [*_STAND_IN.finditer(value), None]:
        literal = value[done : stand_in.start() if stand_in else len(value)]
        pattern += re.escape(_rendered(literal, base_path))
        score += len(literal.replace(_SITE_PATH, ""))
        if stand_in is not None:
            pattern += ".*"
            score += _hints_in(stand_in.group(1), url)
            done = stand_in.end()
    return score if re.fullmatch(pattern, url, re.DOTALL) else None


def _hints_in(hints: str | None, url: str) -> int:
    """The characters of a stand-in's hints (the string literals of the expression it
    replaced) that the URL holds."""
    return sum(len(hint) for hint in (hints or "").split(_HINT) if hint and hint in url)


def _may_fault(candidate: Tag, rule: str) -> bool:
    values = candidate.values
    if rule == "page-img-alt":
        alt = values.get("alt", "")
        return candidate.uncertain or not alt.strip() or _stand_ins(alt)
    if rule == "page-rel":
        target = values.get("target")
        return candidate.uncertain or (target is not None and (target == "_blank" or _stand_ins(target)))
    return True


def template_problems(
    templates: Templates, pages: frozenset[str], assets: Path, base_path: str
) -> list[Problem]:
    """What the site's own templates write wrong literally, at their lines: a link to no
    page or asset of the site, an ``img`` without alt text, a new tab without ``rel``."""
    problems = []
    for template in templates.own():
        for tag in template.tags:
            for rule, message in _literal_faults(tag, pages, assets, base_path):
                problems.append(
                    Problem(
                        path=template.shown, line=tag.line, subject="template", rule=rule, message=message
                    )
                )
    return problems


def _literal_faults(tag: Tag, pages: frozenset[str], assets: Path, base_path: str) -> list[tuple[str, str]]:
    values = tag.values
    faults = []
    if not tag.uncertain and not any(map(_stand_ins, values.values())):
        rendered = {name: _rendered(value, base_path) for name, value in values.items()}
        faults += [(rule, message) for rule, message, _ in tag_faults(tag.name, rendered)]
    url = values.get(URL_ATTRS.get(tag.name, ""))
    if url is not None and not _stand_ins(url):
        broken = _broken(url, pages, assets, base_path)
        if broken:
            faults.append(("page-link", broken))
    return faults


def _broken(value: str, pages: frozenset[str], assets: Path, base_path: str) -> str | None:
    """Why a literal site-relative link of a template leads nowhere; None when it does, or
    when only the rendered site can tell (a fragment, a relative or generated path)."""
    url = _rendered(value, base_path)
    parts = urlsplit(url)
    if parts.scheme or parts.netloc or not parts.path.startswith("/"):
        return None
    path = (
        unquote(value[1:]) if value.startswith(_SITE_PATH) else site_relative(base_path, unquote(parts.path))
    )
    if path is None:
        return f"{url!r} is outside the site's path {base_path!r}: it would be dead once deployed"
    path = unquote(urlsplit(path).path)
    if path.startswith(GENERATED) or resolves(path, pages, assets):
        return None
    return f"{url!r} points to no file of the site"
