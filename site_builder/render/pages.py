"""Render the pages of the site from validated revisions, in memory.

Jinja2 with autoescape on and StrictUndefined, built in one place; a site's own
``templates/`` folder shadows the package's templates by name. Every value a
template sees is passed in explicitly: there is no "current page" state.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import jinja2
from markupsafe import Markup

from site_builder.errors import Problem
from site_builder.language.labels import Chrome
from site_builder.model.layout import article_file, category_slug, under
from site_builder.model.moments import shown, sort_key
from site_builder.model.page_ids import RESERVED_IDS
from site_builder.render.charts import moved, with_drawings
from site_builder.render.compiled import kept_bytecode
from site_builder.render.headings import add_heading_ids
from site_builder.render.highlight import Highlights, highlight_code
from site_builder.render.history import History
from site_builder.render.images import with_sizes
from site_builder.render.items import CategoryLink, Item
from site_builder.render.navigation import nav_rank, site_nav
from site_builder.render.proofs import fixture_entries, mark_proofs
from site_builder.render.scroll_regions import focusable_regions
from site_builder.render.sharing import sharing
from site_builder.render.sub_path import move_under
from site_builder.render.template_errors import template_problem
from site_builder.settings.project import Settings


def environment(root: Path) -> jinja2.Environment:
    """The one Jinja environment of a site: its templates first, then the package's.

    Kept while the site's ``templates/`` folder stays as it is (a worker renders
    many batches with it); a template added, removed or edited there gives a new
    one, so a long-lived process (``serve``) never shows a shadowed template. Sites
    without a ``templates/`` folder share one: a process that builds many of them (a
    test run, the pytest plugin) compiles the package's templates once.
    """
    folder = root / "templates"
    if not folder.is_dir():
        return _environment(None, ())
    shape = tuple(
        sorted(
            (p.as_posix(), p.stat().st_mtime_ns, p.stat().st_size) for p in folder.rglob("*") if p.is_file()
        )
    )
    return _environment(folder, shape)


@functools.lru_cache(maxsize=4)
def _environment(folder: Path | None, _shape: tuple[tuple[str, int, int], ...]) -> jinja2.Environment:
    package = jinja2.PackageLoader("site_builder", "templates")
    loader = jinja2.ChoiceLoader([_SiteTemplates(folder), package]) if folder is not None else package
    env = jinja2.Environment(
        loader=loader,
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        bytecode_cache=kept_bytecode(),
    )
    env.filters["moment"] = shown  # a date, or a date and time, as readers see it
    return env


class _SiteTemplates(jinja2.FileSystemLoader):
    """A site's ``templates/`` folder, whose file that is not UTF-8 text is a template error
    at its line (the page that uses it reports it) rather than a ``UnicodeDecodeError``."""

    def get_source(
        self, environment: jinja2.Environment, template: str
    ) -> tuple[str, str, Callable[[], bool]]:
        try:
            return super().get_source(environment, template)
        except UnicodeDecodeError as exc:
            line = exc.object[: exc.start].count(b"\n") + 1
            path = str(Path(self.searchpath[0], template))
            message = f"not UTF-8 text: byte {exc.object[exc.start]:#04x} at offset {exc.start}"
            raise jinja2.TemplateSyntaxError(message, line, template, path) from None


def compile_templates(env: jinja2.Environment) -> None:
    """Compile every page template of ``env`` now, in this process: the worker processes it
    forks next find them compiled rather than each compiling its own copy. A template that
    does not compile is left for its page to report (:mod:`.template_errors`)."""
    for name in env.list_templates(extensions=["html"]):
        try:
            env.get_template(name)
        except jinja2.TemplateError:
            continue


def template_syntax_problems(root: Path) -> list[Problem]:
    """Each template of the site's own ``templates/`` folder that does not compile, as a problem
    at its file and line: what a build reports when it renders a page with it, found without
    rendering (``validate``). An error only rendering shows (an undefined name, a missing
    parent) is left to the build."""
    folder = root / "templates"
    if not folder.is_dir():
        return []
    env = environment(root)
    problems = []
    for path in sorted(folder.rglob("*.html")):
        try:
            env.get_template(path.relative_to(folder).as_posix())
        except jinja2.TemplateSyntaxError as exc:
            problems.append(template_problem(root, exc))
    return problems


def newest_first(items: Sequence[Item]) -> list[Item]:
    """By date (an article's latest revision's), newest first; revisions of one day keep site order."""
    return sorted(items, key=lambda item: sort_key(item.latest_date), reverse=True)


def home_order(settings: Settings, items: Sequence[Item]) -> list[Item]:
    """The index page's order: the site's navigation first, in reading order, then
    every other article newest first."""
    ordered = newest_first(items)
    if not settings.nav:
        return ordered
    rank = nav_rank(settings)
    return sorted(ordered, key=lambda item: rank.get(item.slug, len(rank)))


def render_articles(
    env: jinja2.Environment, settings: Settings, items: Sequence[Item], highlights: Highlights | None = None
) -> dict[str, str]:
    """The article pages of ``items``: each depends on its own revision only (their code blocks
    taken from, and noted in, ``highlights`` when given)."""
    chrome = Chrome(settings.labels)
    return {
        article_file(item.slug): article_page(env, settings, item, chrome, highlights=highlights)
        for item in items
    }


def render_lists(env: jinja2.Environment, settings: Settings, items: Sequence[Item]) -> dict[str, str]:
    """The pages that list articles (index, categories) and the 404 page."""
    chrome = Chrome(settings.labels)
    common = {"site": settings, "labels_in": chrome}
    pages = {
        "index.html": _page(
            env,
            "index.html",
            settings,
            "/",
            common,
            heading=settings.title,
            intro=settings.description,
            items=home_order(settings, items),
        )
    }
    categories = _categories(items)
    pages["categories/index.html"] = _page(
        env, "categories.html", settings, "/categories/", common, categories=[c for c, _ in categories]
    )
    for link, members in categories:
        heading = f"{chrome(settings.language).category}: {link.name}"
        pages[f"categories/{category_slug(link.name)}/index.html"] = _page(
            env,
            "category.html",
            settings,
            link.url,
            common,
            heading=heading,
            intro="",
            items=newest_first(members),
        )
    pages["404.html"] = _page(env, "404.html", settings, "/404.html", common)
    return pages


def _categories(items: Sequence[Item]) -> list[tuple[CategoryLink, list[Item]]]:
    groups: dict[str, tuple[str, list[Item]]] = {}
    for item in items:
        for link in item.categories:
            groups.setdefault(link.url, (link.name, []))[1].append(item)
    ordered = sorted(groups.items(), key=lambda kv: kv[1][0].casefold())
    return [(CategoryLink(name, url, len(members)), members) for url, (name, members) in ordered]


def article_page(
    env: jinja2.Environment,
    settings: Settings,
    item: Item,
    chrome: Chrome,
    history: History | None = None,
    *,
    highlights: Highlights | None = None,
) -> str:
    """One article page; with ``history``, the revision it shows among its article's others
    (an earlier one's page lives at its own URL and names the latest as canonical)."""
    proofs = fixture_entries(settings, item.proofs)
    content = with_drawings(item.content_html, item.charts)
    moved_proofs = [dataclasses.replace(proof, end=moved(proof.end, item.charts)) for proof in item.proofs]
    marked = mark_proofs(content, moved_proofs, proofs, chrome(item.lang).proof_mark)
    body, toc = add_heading_ids(marked, RESERVED_IDS | {entry.anchor for entry in proofs.values()})
    view = {
        "title": item.title,
        "published": item.published,
        "minutes": item.minutes,
        "excerpt": item.excerpt,
        "cover": item.cover,
        "cover_size": item.cover_size,
        "categories": item.categories,
        "fixtures": item.fixtures,
        "verified_count": item.verified,
        "proofs": tuple(proofs.values()),
        "draft": item.draft,
        "scheduled": item.scheduled,
        "history": history,
        "body": Markup(
            focusable_regions(
                highlight_code(move_under(with_sizes(body, item.images), settings.base_path), highlights)
            )
        ),
    }
    return _page(
        env,
        "article.html",
        settings,
        item.url if history is None else history.url,
        {"site": settings, "labels_in": chrome},
        lang=item.lang,
        canonical_url=item.url,
        article=view,
        toc=list(toc),
        nav=site_nav(settings, item.slug),
        sharing=sharing(settings, item),
    )


def render_page(
    env: jinja2.Environment,
    template: str,
    settings: Settings,
    url: str,
    chrome: Chrome,
    *,
    lang: str | None = None,
    **context: object,
) -> str:
    """One page of ``template`` at ``url`` (site-relative) with the site's common values."""
    return _page(env, template, settings, url, {"site": settings, "labels_in": chrome}, lang=lang, **context)


def _page(
    env: jinja2.Environment,
    template: str,
    settings: Settings,
    url: str,
    common: Mapping[str, object],
    *,
    lang: str | None = None,
    **context: object,
) -> str:
    language = lang or settings.language
    # An earlier revision's page names its article's URL as canonical (``canonical_url``).
    canonical = settings.base_url.rstrip("/") + str(context.pop("canonical_url", None) or url)
    # Templates write every site-relative URL through `url`, which puts it below the base path.
    link = functools.partial(under, settings.base_path)
    chrome = common["labels_in"]
    assert isinstance(chrome, Chrome)  # every page is given the site's chrome words
    labels = chrome(language)
    return env.get_template(template).render(
        **common, **context, lang=language, labels=labels, canonical=canonical, url=link
    )
