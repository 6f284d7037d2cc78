"""Every author mistake at the author's line, before build, wherever it is reported.

``tests/sites/author_lines/`` is one site holding every mistake of the table below: field
mistakes (each at the line of the field itself; a missing field at ``revision(``), helper
calls and sources (at the call), links to ``#fragment``s of the same page, of another
article and of the home page (at the line of the string that holds the link, inside a
helper call written over several lines), and what the site's
own template writes wrong. Each row pins the file, line, subject, rule and message, and
what is written at the start of that line, so a line in the table cannot drift from the
file. The same problems, at the same lines, come out of ``validate --format json``, the
pytest plugin's failures and ``build``; none points inside the output folder.

The second table holds what only a rendered page can show (a template's link made from
an expression): ``validate`` passes, and ``build`` names the template's file and line.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from site_builder.check.templates import Templates
from site_builder.model.page_ids import RESERVED_IDS, heading_anchors
from tests.support.sites import SITES, MakeSite, RunCli

A, B, C, T = "articles/a_fields.py", "articles/b_helpers.py", "articles/c_links.py", "templates/404.html"
E = "articles/a_early.py"
D = "articles/d_same_day.py"
NOT_FOUND = "is neither a file under assets/ nor a page of the site"
SCHEMES = "use https:, http:, mailto:, /path or #fragment"
NEW_TAB = 'opens a new tab without rel="noopener noreferrer"'
SLUG_RULE = "a-z, 0-9 and '-'"

MISTAKES = [
    # path, line, written at the start of that line, subject, rule, message
    # --- fields: the line of the field itself
    (A, 17, "sources=[A]", "one-source", "sources-count", "cites 1 source; at least 2 are required"),
    (A, 20, 'slug="Bad_Slug"', "Bad_Slug", "slug",
     "slug 'Bad_Slug' must be 3 to 120 characters of a-z, 0-9 and '-'"),
    (A, 31, "categories=[]", "no-category", "categories", "at least one category is required"),
    (A, 40, "categories=[", "empty-category", "categories", "category 2 is empty"),
    (A, 51, 'published="2024-02-30"', "bad-date", "published",
     "published '2024-02-30' is not an ISO date like 2020-06-18"),
    (A, 57, 'title="   "', "empty-title", "required", "title must not be empty"),
    (A, 68, 'excerpt=""', "empty-excerpt", "required", "excerpt must not be empty"),
    (A, 78, "cover=", "missing-cover", "url-target", f"'/assets/missing.svg' {NOT_FOUND}"),
    (A, 89, "publshed=", "typo-field", "unknown-field",
     "unknown field 'publshed'; did you mean 'published'?"),
    (A, 93, 'revision(slug="wrong-types", title=42', "wrong-types", "field-type",
     "title must be a str, not int"),
    (A, 94, 'categories="Fields"', "wrong-types", "field-type", "categories must be a list, not str"),
    (A, 96, "reading_minutes=0", "wrong-types", "field-type",
     "reading_minutes must be a whole number of at least 1, not 0"),
    (A, 97, "revision(", "no-excerpt", "required", "missing required field 'excerpt'"),  # not passed at all
    (A, 111, "body=[", "short-body", "body-length", "body is 5 characters; at least 20 are required"),
    (A, 122, "body=[", "plain-body", "body-type",
     "body item 2 is plain text; wrap it in paragraph() or markdown()"),
    (A, 131, 'lang="english"', "bad-lang", "lang", "lang 'english' is not a language tag like 'en' or 'ru'"),
    (A, 137, "title=", "form-feed", "xml-character",
     "title contains U+000C at character 5, which XML 1.0 forbids"),
    (A, 151, "sources=[A, B,", "not-a-source", "field-type", "source 3 must be a Source(...), not str"),
    # numbered as written: the str before it counts
    (A, 152, '"https://c.example/"', "not-a-source", "source-field", "source 4 needs a non-empty note"),
    (B, 35, 'slug="shared"', "shared", "slug-unique",
     f"slug 'shared' is already used at {A}:155; a later revision of that article gives revised= "
     "(its date) and changes= (what changed and why)"),
    (E, 12, 'revised="2024-04-01"', "link-target", "revision-module-order",
     f"this revision of 'link-target' is loaded before the article's first revision ({C}:9): batches "
     "load in the order of their file names, and a_early.py sorts before c_links.py; give this module "
     "a name that sorts after it, e.g. c_links_2024_04_01.py"),
    (D, 23, 'revised="2024-05-01"', "same-day", "revised-order",
     f"revised 2024-05-01 is the same day as revision 1 ({D}:8); a correction made that day gives its "
     'time too, e.g. revised="2024-05-01T15:30Z"'),
    # --- sources and helper calls: the line of the call
    (B, 8, "NO_NOTE = Source(", "helper-mistakes", "source-field", "source 3 needs a non-empty note"),
    (B, 9, "FTP = Source(", "helper-mistakes", "url",
     f"URL scheme 'ftp:' is not allowed in 'ftp://files.example/spec.txt'; {SCHEMES}"),
    (B, 21, "figure(", "helper-mistakes", "figure-alt",
     "figure(): alt text is required and must not be empty"),
    (B, 22, "data_table(", "helper-mistakes", "table-row-width",
     "data_table(): row 2 has 1 cell; the header has 2"),
    (B, 23, "code_block(", "helper-mistakes", "code-language",
     "code_block(): language 'c plus plus' is not a name like 'python'"),
    (B, 24, "paragraph(", "helper-mistakes", "url",
     f"URL scheme 'javascript:' is not allowed in 'javascript:alert(1)'; {SCHEMES}"),
    (B, 26, '"An [old post]', "helper-mistakes", "url-target", f"'/articles/no-such-post/' {NOT_FOUND}"),
    (B, 28, "paragraph(42)", "helper-mistakes", "helper-type",
     "paragraph(): the text must be a str or Markup, not int"),
    (B, 29, "unordered_list([])", "helper-mistakes", "list-empty",
     "unordered_list(): a list needs at least one item"),
    (B, 30, "code_block(", "helper-mistakes", "helper-arguments",
     "code_block(): unknown keyword 'lang'; did you mean 'language'?"),
    (B, 32, "sources=[", "helper-mistakes", "source-field",
     "source 5 has no field 'titel'; did you mean 'title'?"),
    # --- links: the line of the string that holds the link, in a helper call over several lines
    # (trusted HTML: the body= line)
    (C, 22, "paragraph(", "link-target", "fragment",
     "'#no-such-heading': no element with id 'no-such-heading' on /articles/link-target/"),
    (C, 32, "body=[", "link-source", "fragment",
     "'#nowhere': no element with id 'nowhere' on /articles/link-source/"),
    (C, 36, '"The home page:', "link-source", "fragment", "'/#nothing': no element with id 'nothing' on /"),
    (C, 35, '"A typo:', "link-source", "fragment",
     "'/articles/link-target/#retry-budgte': no element with id 'retry-budgte' on /articles/link-target/; "
     "did you mean '#retry-budget'?"),
    # --- the site's own template: its file and line
    (T, 4, "<p><a href=\"{{ url('/no-such-page/') }}\">", "template", "page-link",
     "'/no-such-page/' points to no file of the site"),
    (T, 5, "<img src=", "template", "page-img-alt", "<img src='/assets/pic.svg'> has no alt text"),
    (T, 6, '<p><a href="https://example.org/" target="_blank">', "template", "page-rel",
     f"link to 'https://example.org/' {NEW_TAB}"),
]  # fmt: skip

LINES = [
    f"{path}:{line}: {subject}: {message}"
    for path, line, _, subject, _, message in sorted(MISTAKES, key=lambda m: (m[0], m[1], m[3], m[5]))
]
"""As the command line prints them: by file, then line."""


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """A copy of the site: nothing a run leaves behind lands in the repository."""
    copy = tmp_path / "author_lines"
    shutil.copytree(SITES / "author_lines", copy)
    return copy


def test_the_table_holds_at_least_25_different_mistakes_of_every_kind() -> None:
    assert len(MISTAKES) == len(set(LINES)) >= 25
    rules = {rule for *_, rule, _ in MISTAKES}
    assert {"fragment", "sources-count", "slug-unique", "unknown-field", "page-link"} <= rules
    fragments = [message for *_, rule, message in MISTAKES if rule == "fragment"]
    assert any(m.startswith("'#") for m in fragments)  # the same page
    assert any(m.startswith("'/articles/") for m in fragments)  # another article


@pytest.mark.parametrize(("path", "line", "written"), [m[:3] for m in MISTAKES], ids=LINES)
def test_each_line_holds_what_its_problem_is_about(path: str, line: int, written: str) -> None:
    text = (SITES / "author_lines" / path).read_text("utf-8").splitlines()[line - 1]
    assert text.strip().startswith(written), text


def test_validate_json_gives_each_mistake_its_line(site: Path, run_cli: RunCli) -> None:
    result = run_cli(["validate", "--root", str(site), "--format", "json"])

    assert result.code == 1
    expected = [
        {"path": path, "line": line, "slug": subject, "rule": rule, "message": message, "severity": "error"}
        for path, line, _, subject, rule, message in MISTAKES
    ]
    key = lambda p: (p["path"], p["line"], p["slug"], p["message"])  # noqa: E731 - the printed order
    assert json.loads(result.out) == sorted(expected, key=key)


def test_the_pytest_plugin_fails_with_each_mistake_at_its_line(site: Path, pytester: pytest.Pytester) -> None:
    shutil.copytree(site, pytester.path, dirs_exist_ok=True)

    result = pytester.runpytest("-p", "no:cacheprovider")

    shown = {line for line in result.outlines if re.match(r"[^\s:]+:\d+: ", line)}
    assert sorted(shown) == sorted(LINES)
    # A failing item per (file, subject) of the table, the `templates` item among them, plus three
    # with no pair of their own: both revisions named "shared" (one row, two items), and the first
    # revision of "same-day" (an article's history fails each of its revisions); and the passing
    # `settings` item.
    rows = len({(m[0], m[3]) for m in MISTAKES if m[3] != "shared"})
    result.assert_outcomes(failed=rows + 3, passed=1)


def test_build_stops_with_each_mistake_at_its_line(site: Path, run_cli: RunCli) -> None:
    result = run_cli(["build", "--root", str(site)])

    assert result.code == 1
    assert result.err.splitlines() == [
        *LINES,
        f"{len(LINES)} problems found",
        "nothing was written; the previous site is untouched",
    ]
    assert not any(line.startswith("build/") for line in result.err.splitlines())
    assert not (site / "build").exists()


# --- what only a rendered page can show ----------------------------------------------------------

CARD = (Path(__file__).parents[2] / "site_builder/templates/_card.html").read_text("utf-8")
RENDERED_404 = """\
{% extends "base.html" %}
{% block main %}
<h1 class="page-title">{{ labels.not_found }}</h1>
<img src="{{ url('/assets/retry/' ~ 'cover.svg') }}">
<p><a href="{{ url('/gone' ~ '/') }}">{{ labels.home }}</a></p>
<p><a href="https://example.org/" target="{{ '_blank' }}">Elsewhere</a></p>
{% endblock %}
"""
COMMENTS = '  <a href="{{ url(item.url) }}#comments">Comments</a>\n'
RENDERED = [
    # path, line, message: what the built page shows, at the line of the template that wrote it
    ("templates/404.html", 4, "<img src='/assets/retry/cover.svg'> has no alt text"),
    ("templates/404.html", 5, "'/gone/' points to no file of the site"),
    ("templates/404.html", 6, f"link to 'https://example.org/' {NEW_TAB}"),
    ("templates/_card.html", 3, "'/articles/idempotency-checklist/#comments': no element with id 'comments' "
     "on articles/idempotency-checklist/index.html"),
    ("templates/_card.html", 3, "'/articles/retry-without-second-effect/#comments': no element with id "
     "'comments' on articles/retry-without-second-effect/index.html"),
]  # fmt: skip


def with_templates(tmp_path: Path, templates: dict[str, str]) -> Path:
    """A copy of the valid basic site with ``templates`` (name → text) of its own."""
    root = tmp_path / "site"
    shutil.copytree(SITES / "valid_basic", root)
    (root / "templates").mkdir()
    for name, text in templates.items():
        (root / "templates" / name).write_text(text, "utf-8")
    return root


def test_what_only_the_rendered_page_shows_is_reported_at_the_template_line(
    tmp_path: Path, run_cli: RunCli
) -> None:
    card = CARD.splitlines(keepends=True)
    root = with_templates(
        tmp_path, {"404.html": RENDERED_404, "_card.html": "".join([*card[:2], COMMENTS, *card[2:]])}
    )

    checked = run_cli(["validate", "--root", str(root)])
    built = run_cli(["build", "--root", str(root)])

    assert checked.code == 0, checked.err  # the expressions are only known once rendered
    assert built.code == 1
    assert built.err.splitlines() == [
        *(f"{path}:{line}: template: {message}" for path, line, message in RENDERED),
        f"{len(RENDERED)} problems found",
        "nothing was written; the previous site is untouched",
    ]


BROKEN_ARTICLE = '{% extends "base.html" %}\n{% block main %}\n<p>{{ oops( }}</p>\n{% endblock %}\n'
"""A site's article template that does not compile: line 3 has a call left open."""
BROKEN_AT = "templates/article.html:3: template: TemplateSyntaxError: unexpected '}', expected ')'"


def test_a_template_that_does_not_compile_fails_validate_at_its_line_as_it_fails_the_build(
    tmp_path: Path, run_cli: RunCli
) -> None:
    """CI that runs ``validate`` is red for a template the deploy's ``build`` cannot render;
    the line is the one the build names. Unused templates are compiled too (a build would
    fail on them at the first page that extends or includes them)."""
    root = with_templates(tmp_path, {"article.html": BROKEN_ARTICLE, "unused.html": "{% if %}\n"})

    checked = run_cli(["validate", "--root", str(root)])
    built = run_cli(["build", "--root", str(root)])

    unused = (
        "templates/unused.html:1: template: TemplateSyntaxError: "
        "Expected an expression, got 'end of statement block'"
    )
    assert checked.code == 1
    assert checked.err.splitlines() == [BROKEN_AT, unused, "2 problems found"]
    assert built.code == 1
    assert BROKEN_AT in built.err.splitlines()


def test_the_pytest_plugin_fails_the_templates_item_of_a_template_that_does_not_compile(
    tmp_path: Path,
) -> None:
    root = with_templates(tmp_path, {"article.html": BROKEN_ARTICLE})
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "articles", "-k", "templates"],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1, done.stdout
    assert "FAILED articles/notes_2021_01.py::templates - " in done.stdout, done.stdout
    assert "1 failed, " in done.stdout, done.stdout
    assert BROKEN_AT in done.stdout.splitlines(), done.stdout


# --- how a field's line is found ------------------------------------------------------------------

TRICKY = '''\
from site_builder import Source, paragraph, revision

A = Source(title="A", url="https://a.example/", note="a")
ÄÖ = "non-ASCII before the call moves its columns in bytes, not in characters"
one_line = revision(slug="One_Line", title="t", categories=["x"], excerpt="e", published="2024-01-01", body=[paragraph("Enough text for the limit, slug='x'.")], sources=[A, A])
revisions = [one_line, revision(
    title="""A title with
    slug="not-this-one" inside a string""",  # and slug="not-this" in a comment
    body=[paragraph(text="nested slug= is not the call's own"), paragraph("x" if 1 <= 2 else "y")],
    categories=["x"] if 1 != 2 else [],
    excerpt=f"{'slug'}={1}",
    slug="Second_Slug",
    published="2024-13-01",
    sources=[A],
)]
'''  # noqa: E501


def test_a_field_is_found_past_strings_comments_and_nested_calls(
    make_site: MakeSite, run_cli: RunCli
) -> None:
    root = make_site({"articles/tricky.py": TRICKY})

    result = run_cli(["validate", "--root", str(root)])

    assert result.err.splitlines() == [
        "articles/tricky.py:3: One_Line: source 2 repeats the URL 'https://a.example/'",  # at Source(
        "articles/tricky.py:5: One_Line: slug 'One_Line' must be 3 to 120 characters of a-z, 0-9 and '-'",
        f"articles/tricky.py:12: Second_Slug: slug 'Second_Slug' must be 3 to 120 characters of {SLUG_RULE}",
        "articles/tricky.py:13: Second_Slug: published '2024-13-01' is not an ISO date like 2020-06-18",
        "articles/tricky.py:14: Second_Slug: cites 1 source; at least 2 are required",
        "5 problems found",
    ]


def test_without_code_positions_every_field_problem_is_at_the_call(
    make_site: MakeSite, tmp_path: Path
) -> None:
    """``python -X no_debug_ranges`` keeps no columns: the call's first line is all there is."""
    root = make_site({"articles/tricky.py": TRICKY})

    done = subprocess.run(
        [sys.executable, "-X", "no_debug_ranges", "-m", "site_builder", "validate", "--root", str(root)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=tmp_path,
        timeout=60,
        check=False,
    )

    located = [line.split(": ", 1)[0] for line in done.stderr.splitlines()[:-1]]
    assert located == ["articles/tricky.py:3", "articles/tricky.py:5", *["articles/tricky.py:6"] * 3]


# --- one implementation of a page's ids ---------------------------------------------------------


def test_the_ids_validation_knows_are_the_ids_the_page_gets(tmp_path: Path, run_cli: RunCli) -> None:
    root = tmp_path / "site"
    shutil.copytree(SITES / "valid_basic", root)
    assert run_cli(["build", "--root", str(root)]).code == 0
    for page in sorted((root / "build/articles").glob("*/index.html")):
        html = page.read_text("utf-8")
        body = html.split('<div class="article-body">', 1)[1]
        written = re.findall(r'<h2 id="([^"]+)">', body)
        data = json.loads(run_cli(["revisions", "--root", str(root)]).out)
        content = next(r["contentHtml"] for r in data if r["slug"] == page.parent.name)
        assert written == [anchor for anchor, _ in heading_anchors(content)], page


def test_every_id_the_package_article_page_writes_is_reserved(tmp_path: Path) -> None:
    """A heading never takes an id of the chrome, and a link may name one: the set must
    hold every id the package's article templates write."""
    written = Templates(tmp_path).ids("articles/x/index.html")
    assert written and written <= RESERVED_IDS


def test_a_fault_made_by_a_package_template_names_the_package_file() -> None:
    templates = Templates(Path("/nonexistent-site"))
    found = templates.locate("categories/index.html", "page-link", "a", "/categories/", "/")
    base = (Path(__file__).parents[2] / "site_builder/templates/base.html").read_text("utf-8")
    line = next(n for n, text in enumerate(base.splitlines(), 1) if 'url("/categories/")' in text)
    assert found == ("site_builder/templates/base.html", line, "template")


def test_an_id_a_site_template_writes_may_be_linked_to(make_site: MakeSite, run_cli: RunCli) -> None:
    article = (Path(__file__).parents[2] / "site_builder/templates/article.html").read_text("utf-8")
    comments = article.replace("</article>", '<section id="comments"></section>\n</article>')
    root = make_site(
        {
            "templates/article.html": comments,
            "articles/post.py": """\
                from site_builder import Source, paragraph, revision
                A = Source(title="A", url="https://a.example/", note="a")
                B = Source(title="B", url="https://b.example/", note="b")
                revisions = [revision(
                    slug="post", title="Post", categories=["x"], excerpt="e", published="2024-01-01",
                    body=[paragraph("Read [the comments](#comments), not [these](#coments)."),
                          paragraph("Or [the other page's](/articles/other/#comments).")],
                    sources=[A, B],
                ), revision(
                    slug="other", title="Other", categories=["x"], excerpt="e", published="2024-01-02",
                    body=[paragraph("Enough words to pass the tiny limit of this site.")],
                    sources=[A, B],
                )]
            """,
        }
    )

    result = run_cli(["validate", "--root", str(root)])

    assert result.err.splitlines() == [
        "articles/post.py:6: post: '#coments': no element with id 'coments' on /articles/post/",
        "1 problem found",
    ]


LINKS = [
    # link as written, its problem ("" when it resolves)
    ("#", ""),
    ("#here", ""),
    ("#main", ""),  # the page template's own
    ("#sources", ""),  # the sources section's heading
    ("#Here", "'#Here': no element with id 'Here' on /articles/post/; did you mean '#here'?"),
    ("/articles/post/index.html#here", ""),
    ("/articles/post/index.html#gone",
     "'/articles/post/index.html#gone': no element with id 'gone' on /articles/post/"),
    ("/#search", ""),
    ("/categories/#main", ""),
    ("/categories/#x", "'/categories/#x': no element with id 'x' on /categories/"),
    ("/feed.xml#x", ""),  # not a page: no ids to check
    ("/articles/none/#x", "'/articles/none/#x' is neither a file under assets/ nor a page of the site"),
    ("/articles/posts/", "'/articles/posts/' is neither a file under assets/ nor a page of the site; "
                         "did you mean '/articles/post/'?"),
    ("/articles/post", "'/articles/post' is neither a file under assets/ nor a page of the site; "
                       "did you mean '/articles/post/'?"),
]  # fmt: skip


@pytest.mark.parametrize(("link", "problem"), LINKS, ids=[link for link, _ in LINKS])
def test_a_fragment_link_resolves_or_is_reported_once(
    link: str, problem: str, make_site: MakeSite, run_cli: RunCli
) -> None:
    root = make_site(
        {
            "articles/post.py": f"""\
                from site_builder import Markup, Source, heading, paragraph, revision
                A = Source(title="A", url="https://a.example/", note="a")
                B = Source(title="B", url="https://b.example/", note="b")
                revisions = [revision(
                    slug="post", title="Post", categories=["x"], excerpt="e", published="2024-01-01",
                    body=[heading("Here"), paragraph("Enough words to pass the tiny limit."),
                          Markup('<p><a href="{link}">a link</a></p>')],
                    sources=[A, B],
                )]
            """
        }
    )

    result = run_cli(["validate", "--root", str(root)])

    if problem:  # at the body= line: the link is in trusted HTML, not in a helper call
        assert result.err.splitlines() == [f"articles/post.py:6: post: {problem}", "1 problem found"]
    else:
        assert result.code == 0, result.err


@pytest.mark.parametrize(
    ("src", "problem"),
    [
        ("/assets/leftmost/halving.svg", ""),
        ("/assets/leftmost/halfing.svg", "; did you mean '/assets/leftmost/halving.svg'?"),
        ("/assets/leftmost/other.svg", ""),  # no asset is a near copy: no suggestion
    ],
    ids=["exact", "near", "far"],
)
def test_a_mistyped_asset_path_is_answered_with_the_asset_meant(
    src: str, problem: str, make_site: MakeSite, run_cli: RunCli
) -> None:
    root = make_site(
        {
            "assets/leftmost/halving.svg": '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="3"/>',
            "articles/post.py": f"""\
                from site_builder import Source, paragraph, revision
                A = Source(title="A", url="https://a.example/", note="a")
                B = Source(title="B", url="https://b.example/", note="b")
                revisions = [revision(
                    slug="post", title="Post", categories=["x"], excerpt="e", published="2024-01-01",
                    body=[paragraph("Enough words to pass the limit, and [a figure]({src}).")],
                    sources=[A, B],
                )]
            """,
        }
    )

    result = run_cli(["validate", "--root", str(root)])

    if src.endswith("halving.svg"):
        assert result.code == 0, result.err
    else:
        assert result.err.splitlines() == [
            f"articles/post.py:6: post: {src!r} is neither a file under assets/ nor a page of the site"
            + problem,
            "1 problem found",
        ]


def test_a_template_tag_whose_attributes_depend_on_the_page_is_left_to_the_rendered_check(
    tmp_path: Path, run_cli: RunCli
) -> None:
    page = (
        '{% extends "base.html" %}\n{% block main %}\n'
        '<img src="{{ url(\'/assets/retry/cover.svg\') }}" {% if true %}alt="A cover"{% endif %}>\n'
        "<img src=\"{{ url('/assets/retry/cover.svg') }}\" {{ 'alt=\"A cover\"' | safe }}>\n"
        '<a href="https://example.org/" {% if true %}target="_blank" rel="noopener noreferrer"'
        "{% endif %}>x</a>\n"
        "{% endblock %}\n"
    )
    root = with_templates(tmp_path, {"404.html": page})

    assert run_cli(["validate", "--root", str(root)]).code == 0
    built = run_cli(["build", "--root", str(root)])
    assert built.code == 0, built.err
