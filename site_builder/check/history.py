"""Revisions over time: the rules that tie an article's revisions together.

A revision whose slug an earlier revision (in site order: batch file name, then list
order) published is that article's next revision; one met before the article's first
revision is a problem of the order, said once. It says so with ``revised=`` (its
own date) and ``changes=`` (what changed and why); it keeps the article's first
``published`` date; its date is after the previous revision's (on the same day, its time
says so: :mod:`site_builder.model.moments`); and its body differs.
Each broken rule is a problem at the line of the field at fault.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import PurePath

from site_builder.authoring.body import body_html
from site_builder.authoring.model import CallSite, Revision
from site_builder.language.labels import Table, lacks_history
from site_builder.model.moments import EXAMPLE_TIME, after, day, has_time, is_moment
from site_builder.runtime.pickled import quick_state

Finding = tuple[CallSite, str, str, str]
"""(where, subject, rule, message) of one problem."""

Where = Callable[[CallSite], str]
"""Names a call site as ``PATH:LINE`` for a message."""


@quick_state
@dataclass(frozen=True, slots=True, kw_only=True)
class Step:
    """What the history rules need of one revision."""

    slug: str
    published: str
    revised: str | None
    changes: bool
    """Whether it has a ``changes`` note (empty or not: an empty one is a problem of its own)."""
    body: str
    """A hash of its body's HTML: a revision that changes nothing is a mistake."""
    site: CallSite
    """Its ``revision(`` line."""
    fields: tuple[CallSite, CallSite, CallSite, CallSite, CallSite]
    """The lines of its ``slug=``, ``published=``, ``revised=``, ``changes=`` and ``body=`` (of a
    first revision, its ``slug=`` line five times: no rule points elsewhere in it)."""
    lang: str | None = None
    """Its ``lang``; None for the site's language."""

    @classmethod
    def of(cls, rev: Revision) -> Step:
        """The step of one declared revision."""
        digest = hashlib.sha256(body_html(rev).encode("utf-8", "surrogatepass")).hexdigest()
        slug = rev.at("slug")
        # A problem is only ever reported at a first revision's slug= line; finding the other
        # keywords reads the call to its end, which most revisions never need.
        fields = (
            (slug, rev.at("published"), rev.at("revised"), rev.at("changes"), rev.at("body"))
            if rev.later
            else (slug, slug, slug, slug, slug)
        )
        later = rev.changes is not None
        return cls(
            slug=rev.slug,
            published=rev.published,
            revised=rev.revised,
            changes=later,
            body=digest,
            site=rev.site,
            fields=fields,
            lang=rev.lang,
        )

    @property
    def later(self) -> bool:
        """Whether it declares itself a later revision."""
        return self.revised is not None or self.changes

    @property
    def date(self) -> str:
        """The date it takes effect."""
        return self.revised if self.revised is not None else self.published


def history_findings(steps: Iterable[Step], where: Where) -> list[Finding]:
    """Every problem of the site's revision histories (``steps`` in site order; ``where``
    names a call site as ``PATH:LINE`` for the messages)."""
    groups: dict[str, list[Step]] = {}
    for step in steps:
        if step.slug:
            groups.setdefault(step.slug, []).append(step)
    found: list[Finding] = []
    for slug, group in groups.items():
        if (misplaced := _before_its_original(slug, group, where)) is not None:
            found.append(misplaced)  # the one cause: the rules below would each blame a symptom
            continue
        for number, (earlier, step) in enumerate(zip([None, *group], group, strict=False), 1):
            found += _step_findings(slug, number, group[0], earlier, step, where)
    return found


def _before_its_original(slug: str, group: list[Step], where: Where) -> Finding | None:
    """A later revision met before the article's first one (site order is the batch modules'
    file names, then each list's order): said once, at its ``revised=`` line, naming both
    places and how to put it after."""
    early = group[0]
    original = next((step for step in group[1:] if not step.later), None)
    if not early.later or original is None:
        return None
    early_module, original_module = PurePath(early.site.path), PurePath(original.site.path)
    at = early.fields[2] if early.revised is not None else early.fields[3]
    if early_module == original_module:
        message = (
            f"this revision of {slug!r} comes before the article's first revision "
            f"({where(original.site)}) in the module's revisions list; list it after that one"
        )
        return at, slug, "revision-module-order", message
    date = day(early.revised).replace("-", "_") if early.revised and is_moment(early.revised) else "revised"
    message = (
        f"this revision of {slug!r} is loaded before the article's first revision "
        f"({where(original.site)}): batches load in the order of their file names, and "
        f"{early_module.name} sorts before {original_module.name}; give this module a name that "
        f"sorts after it, e.g. {original_module.stem}_{date}.py"
    )
    return at, slug, "revision-module-order", message


def label_findings(steps: Iterable[Step], language: str, tables: Mapping[str, Table]) -> Iterator[Finding]:
    """A later revision in a language the site added whose labels lack the words its history
    pages need (the package's languages have them all), at its ``changes=`` line."""
    for step in steps:
        tag = step.lang or language
        if step.later and (missing := lacks_history(tag, tables)):
            message = (
                f"{step.slug!r} has a later revision in {tag!r}: its pages need the labels "
                f"{', '.join(missing)}, which [tool.site_builder.labels.{tag}] does not give"
            )
            yield step.fields[3], step.slug, "labels", message


def _step_findings(
    slug: str, number: int, first: Step, earlier: Step | None, step: Step, where: Where
) -> Iterator[Finding]:
    if earlier is None:
        yield from _first_revision(slug, step)
    elif not step.later:
        message = (
            f"slug {slug!r} is already used at {where(earlier.fields[0])}; a later revision of that "
            "article gives revised= (its date) and changes= (what changed and why)"
        )
        yield step.fields[0], slug, "slug-unique", message
    else:
        yield from _later_revision(slug, number, first, earlier, step, where)


def _first_revision(slug: str, step: Step) -> Iterator[Finding]:
    """The first revision of an article that says it is a later one."""
    if step.later:
        _, _, at_revised, at_changes, _ = step.fields
        message = (
            f"no earlier revision publishes {slug!r}: an article's first revision has no revised= or changes="
        )
        yield (at_revised if step.revised is not None else at_changes), slug, "revision-first", message


def _later_revision(
    slug: str, number: int, first: Step, earlier: Step, step: Step, where: Where
) -> Iterator[Finding]:
    """A later revision's own fields, its date against the earlier one's, and its body."""
    _, at_published, at_revised, at_changes, at_body = step.fields
    if step.revised is None:
        yield at_changes, slug, "revised", f"revision {number} of {slug!r} needs revised= with its date"
    if not step.changes:
        message = f"revision {number} of {slug!r} needs changes= saying what changed and why"
        yield at_revised, slug, "changes", message
    if step.published and first.published and step.published != first.published:
        message = (
            f"published {step.published!r} differs from revision 1's {first.published!r} "
            f"({where(first.site)}); a later revision keeps the article's first date "
            "and gives its own as revised="
        )
        yield at_published, slug, "published", message
    yield from _order(slug, number, earlier, step, where)
    if step.body == earlier.body:
        message = (
            f"body is the same as revision {number - 1}'s ({where(earlier.site)}); "
            "a revision must change the text"
        )
        yield at_body, slug, "revision-body", message


def _order(slug: str, number: int, earlier: Step, step: Step, where: Where) -> Iterator[Finding]:
    if step.revised is None or not is_moment(step.revised) or not is_moment(earlier.date):
        return
    if after(earlier.date, step.revised):
        return
    at = step.fields[2]
    previous = f"revision {number - 1} ({where(earlier.site)})"
    timed = has_time(step.revised) and has_time(earlier.date)
    if day(step.revised) == day(earlier.date) and not timed:
        yield at, slug, "revised-order", _same_day(step.revised, earlier.date, previous)
        return
    noun = "time" if timed else "date"
    message = (
        f"revised {step.revised} is not after the {noun} of {previous}, {earlier.date}; "
        "an article's revisions come in date order (batches are read in file-name order, then list order)"
    )
    yield at, slug, "revised-order", message


def _same_day(revised: str, earlier: str, previous: str) -> str:
    """A revision on the day of the one before (``previous``, dated ``earlier``) without a time
    that puts it after that one."""
    advice = f"later than {earlier}" if has_time(earlier) else f'e.g. revised="{day(revised)}{EXAMPLE_TIME}"'
    return (
        f"revised {revised} is the same day as {previous}; "
        f"a correction made that day gives its time too, {advice}"
    )
