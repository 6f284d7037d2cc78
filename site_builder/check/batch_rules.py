"""The rules of one batch on its own: each revision's fields (:mod:`.revision_fields`), its URLs
and verified outputs, its fixtures' flaws; and what the rules that need every batch will read
of it (:class:`Refs`), kept with its summary.

Nothing here raises or stops early; each rule appends problems and the caller
decides what to do with all of them at once.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, fields
from pathlib import Path

from markupsafe import Markup

from site_builder.authoring.body import content_html
from site_builder.authoring.escaping import urls_in_html
from site_builder.authoring.model import Block, CallSite, Revision
from site_builder.check.categories import Spelling
from site_builder.check.claims import Claim, as_json
from site_builder.check.fragments import FragmentLink, fragment_link
from site_builder.check.history import Step
from site_builder.check.images import shown_images
from site_builder.check.link_lines import link_site
from site_builder.check.revision_fields import revision_findings
from site_builder.errors import Problem
from site_builder.model.batches import Batch, fixture_batch, fixture_id, problem_at
from site_builder.model.cited import Cited, web_address
from site_builder.model.layout import article_url
from site_builder.model.moments import day
from site_builder.model.page_ids import content_ids
from site_builder.model.schedule import Timing
from site_builder.model.url_policy import check_url
from site_builder.runtime.pickled import quick_state
from site_builder.settings.project import Settings


@quick_state
@dataclass(frozen=True, slots=True, kw_only=True)
class Refs:
    """What one batch says about the rest of the site, checked once every batch is in.

    Everything else about a batch is judged by :func:`batch_problems` alone, so a
    build can keep those problems with the batch and redo only this cheap part.
    """

    slugs: tuple[tuple[str, CallSite], ...]
    """Every revision's slug and the line of its ``slug=``, in list order."""
    categories: tuple[str, ...]
    """Every revision's categories."""
    links: tuple[tuple[CallSite, str, str, str], ...]
    """Site-relative URLs: (where, subject, URL as written, decoded path)."""
    uses: tuple[tuple[CallSite, str, str, str], ...]
    """The blocks that show a fixture's result (``verified_output``, ``transcript``, ``chart``):
    (where, subject, fixture id, the helper)."""
    claims: tuple[Claim, ...]
    """Every ``verified_output`` block; only the sound ones are judged against their fixture."""
    fixtures: tuple[tuple[str, CallSite], ...]
    """The fixtures the batch defines: id, and the line of its ``def``."""
    timings: tuple[Timing, ...] = ()
    """Every revision's draft flag, date and categories, in list order (as ``slugs``): what
    decides whether a build publishes it."""
    fragments: tuple[FragmentLink, ...] = ()
    """Links to a ``#fragment`` of a page of the site."""
    ids: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """Each article page's site path, and the ids its content gives it."""
    spellings: tuple[Spelling, ...] = ()
    """Every revision's categories as written: name, line, slug (for near-duplicates)."""
    images: tuple[tuple[CallSite, str, str], ...] = ()
    """Images its pages show (covers, ``<img>`` in the body): (where, subject, URL as written)."""
    steps: tuple[Step, ...] = ()
    """What the history rules need of each revision, in list order."""
    cited: tuple[tuple[Cited, ...], ...] = ()
    """Each revision's web sources, in list order (as ``slugs``): what ``check-sources`` fetches."""

    def borrowed(self) -> frozenset[str]:
        """The modules whose fixtures its verified outputs show and it does not run itself."""
        defined = dict(self.fixtures)
        return frozenset(fixture_batch(fid) for _, _, fid, _ in self.uses if fid not in defined)


def batch_problems(root: Path, settings: Settings, batch: Batch) -> tuple[list[Problem], Refs]:
    """The problems one batch has on its own, and what the site-wide rules need of it."""
    problems: list[Problem] = []
    each: list[Refs] = []
    for rev in batch.revisions:
        found, refs = _revision_refs(root, settings, rev)
        problems += found
        each.append(refs)
    fixtures = {fixture_id(fx): fx for fx in batch.fixtures}
    for fid, fx in fixtures.items():
        problems += [problem_at(root, f.site, f"fixture {fid}", f.rule, f.message) for f in fx.flaws]
    return problems, _joined(each, tuple((fid, fx.site) for fid, fx in fixtures.items()))


def _joined(each: Sequence[Refs], fixtures: tuple[tuple[str, CallSite], ...]) -> Refs:
    """One batch's refs: every field its revisions' in list order, and the fixtures it defines."""
    joined = {f.name: tuple(item for refs in each for item in getattr(refs, f.name)) for f in fields(Refs)}
    return Refs(**{**joined, "fixtures": fixtures})


def _revision_refs(root: Path, settings: Settings, rev: Revision) -> tuple[list[Problem], Refs]:
    """The problems of one revision on its own, and what it says about the rest of the site."""
    subject = rev.slug or "revision"
    problems = [
        problem_at(root, where, subject, rule, message)
        for where, rule, message in revision_findings(settings, rev)
    ]
    url_problems, links, fragments = _url_refs(root, rev, subject)
    uses, claims = _verified_outputs(rev, subject)
    refs = Refs(
        slugs=((rev.slug, rev.at("slug")),),
        categories=rev.categories,
        links=links,
        uses=uses,
        claims=claims,
        fixtures=(),
        timings=(Timing(rev.draft, day(rev.date), rev.categories),),
        fragments=fragments,
        ids=(_article_ids(settings, rev),),
        spellings=tuple((c, rev.site, subject) for c in rev.categories if c.strip()),
        images=tuple((where, subject, url) for where, url in shown_images(rev)),
        steps=(Step.of(rev),),
        cited=(_cited(rev),),
    )
    return problems + url_problems, refs


def _url_refs(
    root: Path, rev: Revision, subject: str
) -> tuple[list[Problem], tuple[tuple[CallSite, str, str, str], ...], tuple[FragmentLink, ...]]:
    """A revision's URLs that the policy refuses, its links into the site, and its links to a
    ``#fragment`` of one of the site's pages."""
    problems: list[Problem] = []
    links: list[tuple[CallSite, str, str, str]] = []
    fragments: list[FragmentLink] = []
    for where, url in _urls(rev):
        checked = check_url(url)
        if checked.error:
            problems.append(problem_at(root, link_site(where, url), subject, "url", checked.error))
            continue
        if checked.local_path is not None:
            links.append((where, subject, url, checked.local_path))
        if "#" in url and (link := fragment_link(where, subject, url, rev.slug)) is not None:
            fragments.append(link)
    return problems, tuple(links), tuple(fragments)


def _verified_outputs(
    rev: Revision, subject: str
) -> tuple[tuple[tuple[CallSite, str, str, str], ...], tuple[Claim, ...]]:
    """Each ``verified_output`` block of a revision as a use of its fixture and as a claim."""
    uses: list[tuple[CallSite, str, str, str]] = []
    claims: list[Claim] = []
    for block in rev.body:
        if isinstance(block, Block) and block.verified:
            fid = fixture_id(block.verified.fixture)
            uses.append((block.site, subject, fid, block.verified.helper))
            expected = as_json(block.verified.expected)
            claim = Claim(
                where=block.site,
                slug=rev.slug,
                fixture=fid,
                expected=expected,
                sound=not block.flaws,
                helper=block.verified.helper,
            )
            claims.append(claim)
    return tuple(uses), tuple(claims)


def _cited(rev: Revision) -> tuple[Cited, ...]:
    """The revision's sources with a web address the URL policy accepts."""
    return tuple(
        Cited(source.site, source.url.strip(), source.quote if isinstance(source.quote, str) else "")
        for source in rev.sources
        if isinstance(source.url, str) and web_address(source.url) and not check_url(source.url).error
    )


def _article_ids(settings: Settings, rev: Revision) -> tuple[str, tuple[str, ...]]:
    """The article page a revision is shown on, and the ids its content gives that page."""
    lang = rev.lang or settings.language
    shown = [fixture_id(b.verified.fixture) for b in rev.body if isinstance(b, Block) and b.verified]
    return article_url(rev.slug), content_ids(content_html(rev, settings.sources_label(lang), lang), shown)


def _urls(rev: Revision) -> Iterator[tuple[CallSite, str]]:
    if rev.cover is not None:
        yield rev.at("cover"), rev.cover
    yield from _body_urls(rev)
    for source in rev.sources:
        if isinstance(source.url, str) and source.url.strip():
            yield source.site, source.url
    yield from ((rev.at("changes"), url) for url in rev.changes_urls)


def _body_urls(rev: Revision) -> Iterator[tuple[CallSite, str]]:
    """The URLs of a revision's body: each helper's block knows its own, raw HTML is searched."""
    for block in rev.body:
        if isinstance(block, Block):
            yield from ((block.site, url) for url in block.urls)
        elif isinstance(block, Markup):
            yield from ((rev.at("body"), url) for url in urls_in_html(block))
