"""``site-builder init`` and ``site-builder new``: a starter site that builds at once, and a
revision skeleton whose only problem is the fixture stub its author has to write."""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import fields
from pathlib import Path

import pytest
import yaml

from site_builder.settings.project import Settings
from site_builder.starter.origin import origin
from tests.support.sites import HEADER, MakeSite, RunCli, tree

EPOCH, EPOCH_DATE = "1592438400", "2020-06-18"
"""``SOURCE_DATE_EPOCH`` for the tests, and its date in UTC."""
SLUG = "your-first-verified-article"
WRITTEN = [
    "pyproject.toml",
    ".gitignore",
    ".github/workflows/site.yml",
    ".github/workflows/sources.yml",
    "articles/first_article.py",
    "assets/first-article/how-a-page-is-made.svg",
]


@pytest.fixture(autouse=True)
def fixed_date(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)


@pytest.fixture
def starter(tmp_path: Path, run_cli: RunCli) -> Path:
    """An English starter site, written and not yet built."""
    result = run_cli(["init", str(tmp_path / "site")])
    assert result.code == 0, result.err
    return tmp_path / "site"


# --- init: the site builds at once, in each language --------------------------------------------


@pytest.mark.parametrize("lang", ["en", "ru", "ko"])
def test_the_starter_site_builds_and_validates_with_zero_problems(
    tmp_path: Path, run_cli: RunCli, lang: str
) -> None:
    root = tmp_path / "new-site"
    result = run_cli(["init", str(root), "--lang", lang])
    assert result.code == 0, result.err
    assert result.out == ""
    assert [line.removeprefix("wrote ") for line in result.err.splitlines()[: len(WRITTEN)]] == [
        str(root / path) for path in WRITTEN
    ]
    assert result.err.endswith(f"next:\n  cd {root}\n  site-builder build\n  site-builder serve\n")
    assert sorted(tree(root)) == sorted(WRITTEN)

    built = run_cli(["build", "--root", str(root)])
    assert built.code == 0, built.err
    page = (root / "build" / "articles" / SLUG / "index.html").read_text("utf-8")
    assert f'<html lang="{lang}"' in page
    assert "how-a-page-is-made.svg" in page
    checked = run_cli(["validate", "--root", str(root), "--format", "github"])
    assert (checked.code, checked.out) == (0, ""), checked.err


@pytest.mark.parametrize("lang", ["en", "ru", "ko"])
def test_lang_sets_the_site_language_and_the_article_is_dated_by_source_date_epoch(
    tmp_path: Path, run_cli: RunCli, lang: str
) -> None:
    assert run_cli(["init", str(tmp_path), "--lang", lang]).code == 0
    settings = tomllib.loads((tmp_path / "pyproject.toml").read_text("utf-8"))["tool"]["site_builder"]
    assert settings["language"] == lang
    assert f'published="{EPOCH_DATE}"' in (tmp_path / "articles" / "first_article.py").read_text("utf-8")


def test_init_without_dir_writes_into_the_current_folder(
    tmp_path: Path, run_cli: RunCli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = run_cli(["init"])
    assert result.code == 0, result.err
    assert sorted(tree(tmp_path)) == sorted(WRITTEN)
    assert "cd " not in result.err  # already there


def test_init_takes_the_folder_as_root_too(tmp_path: Path, run_cli: RunCli) -> None:
    assert run_cli(["init", "--root", str(tmp_path)]).code == 0
    assert sorted(tree(tmp_path)) == sorted(WRITTEN)
    assert run_cli(["init", str(tmp_path / "a"), "--root", str(tmp_path / "b")]).code == 2


def test_the_settings_list_every_other_setting_with_its_default(starter: Path) -> None:
    text = (starter / "pyproject.toml").read_text("utf-8")
    assert set(tomllib.loads(text)["tool"]["site_builder"]) == {"title", "base_url", "language"}
    defaults = Settings()
    for field in fields(Settings):
        if field.name in ("title", "base_url", "language"):
            continue
        line = re.search(rf"^# {field.name} = (\S+)", text, re.MULTILINE)
        assert line is not None, f"{field.name} is not listed"
        value = tomllib.loads(f"v = {line.group(1)}")["v"]
        default = getattr(defaults, field.name)
        assert value == (list(default) if isinstance(default, tuple) else default), field.name


def test_gitignore_ignores_the_output_and_the_cache(starter: Path) -> None:
    lines = (starter / ".gitignore").read_text("utf-8").splitlines()
    assert "/build/" in lines
    assert "/.site-builder-cache/" in lines


# --- init: the GitHub Actions workflow -------------------------------------------------------------


def workflow(root: Path) -> dict[str, object]:
    loaded = yaml.safe_load((root / ".github" / "workflows" / "site.yml").read_text("utf-8"))
    assert isinstance(loaded, dict)
    return loaded


def steps_of(job: dict[str, object]) -> list[dict[str, object]]:
    steps = job["steps"]
    assert isinstance(steps, list)
    return steps


def test_the_workflow_validates_pull_requests(starter: Path) -> None:
    flow = workflow(starter)
    on = flow.get("on", flow.get(True))  # YAML 1.1 reads a bare `on` as true
    assert isinstance(on, dict)
    assert "pull_request" in on
    assert on["push"] == {"branches": ["main"]}
    jobs = flow["jobs"]
    assert isinstance(jobs, dict)
    assert set(jobs) == {"validate", "deploy"}
    validate = jobs["validate"]
    assert validate["if"] == "github.event_name == 'pull_request'"
    runs = [step.get("run") for step in steps_of(validate)]
    assert f'python -m pip install "{origin().requirement}"' in runs  # each way: test_origin.py
    assert runs[-1] == "site-builder validate --format github"


def test_the_workflow_builds_and_deploys_pushes_to_github_pages(starter: Path) -> None:
    jobs = workflow(starter)["jobs"]
    assert isinstance(jobs, dict)
    deploy = jobs["deploy"]
    assert deploy["if"] == "github.event_name != 'pull_request'"
    assert deploy["permissions"]["pages"] == "write"
    assert deploy["permissions"]["id-token"] == "write"
    assert deploy["environment"] == {
        "name": "github-pages",
        "url": "${{ steps.deployment.outputs.page_url }}",
    }
    steps = steps_of(deploy)
    uses = [str(step.get("uses", "")).split("@")[0] for step in steps]
    order = ["actions/configure-pages", "actions/upload-pages-artifact", "actions/deploy-pages"]
    assert [u for u in uses if u in order] == order
    runs = [step.get("run") for step in steps]
    assert runs.index("site-builder build") < uses.index("actions/upload-pages-artifact")
    assert f'python -m pip install "{origin().requirement}"' in runs
    assert steps[uses.index("actions/upload-pages-artifact")]["with"] == {"path": "build/"}
    assert steps[-1]["id"] == "deployment"


def test_a_weekly_workflow_checks_the_sources_and_keeps_their_answers(starter: Path) -> None:
    flow = yaml.safe_load((starter / ".github" / "workflows" / "sources.yml").read_text("utf-8"))
    on = flow.get("on", flow.get(True))  # YAML 1.1 reads a bare `on` as true
    assert on == {"schedule": [{"cron": "23 5 * * 1"}], "workflow_dispatch": None}  # never a push
    assert flow["permissions"] == {"contents": "read"}
    (job,) = flow["jobs"].values()
    steps = steps_of(job)
    runs = [step.get("run") for step in steps]
    assert f'python -m pip install "{origin().requirement}"' in runs
    assert runs[-1] == "site-builder check-sources --format github"
    (cache,) = [step for step in steps if str(step.get("uses", "")).startswith("actions/cache@")]
    assert cache["with"]["path"] == ".site-builder-cache/sources"
    assert cache["with"]["restore-keys"] == "sources-"  # each run saves under its own key
    assert steps.index(cache) < runs.index("site-builder check-sources --format github")


# --- init: refuses a site, never overwrites ------------------------------------------------------


@pytest.mark.parametrize(
    ("files", "message"),
    [
        ({"pyproject.toml": '[tool.site_builder]\ntitle = "Mine"\n'}, "has [tool.site_builder]"),
        ({"articles/mine.py": "revisions = []\n"}, "it has an articles/ folder"),
    ],
    ids=["settings", "articles"],
)
def test_init_refuses_a_folder_that_holds_a_site(
    tmp_path: Path, run_cli: RunCli, files: dict[str, str], message: str
) -> None:
    for path, text in files.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text, "utf-8")
    before = tree(tmp_path)
    result = run_cli(["init", str(tmp_path)])
    assert result.code == 2
    assert f"site-builder: {tmp_path} already holds a site: " in result.err
    assert message in result.err
    assert tree(tmp_path) == before


@pytest.mark.parametrize("existing", WRITTEN[:3])
def test_init_writes_nothing_when_a_file_it_would_write_exists(
    tmp_path: Path, run_cli: RunCli, existing: str
) -> None:
    (tmp_path / existing).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / existing).write_text("mine\n", "utf-8")
    before = tree(tmp_path)
    result = run_cli(["init", str(tmp_path)])
    assert result.code == 2
    assert result.err == (
        f"site-builder: {tmp_path / existing} already exists; nothing was written "
        "(init never overwrites a file)\n"
    )
    assert tree(tmp_path) == before


def test_init_refuses_a_file_as_its_folder(tmp_path: Path, run_cli: RunCli) -> None:
    (tmp_path / "file").write_text("", "utf-8")
    result = run_cli(["init", str(tmp_path / "file")])
    assert result.code == 2
    assert "is a file, not a folder" in result.err


def test_init_rejects_an_unknown_language(tmp_path: Path, run_cli: RunCli) -> None:
    assert run_cli(["init", str(tmp_path), "--lang", "de"]).code == 2
    assert tree(tmp_path) == {}


# --- new: a skeleton whose only problem is its fixture stub ---------------------------------------

POST = (
    HEADER
    + """
revisions = [
    revision(
        slug="existing-post", title="Existing", categories=["Notes"], excerpt="Already here.",
        published="2020-01-02",  # before the tests' SOURCE_DATE_EPOCH: published, not scheduled
        body=[paragraph("Enough words to pass the tiny limit of this test site.")],
        sources=[Source(title="A", url="https://a.example/", note="a"),
                 Source(title="B", url="https://b.example/", note="b")],
    )
]
"""
)


def stub_problem(path: str, line: int, fixture: str) -> str:
    return (
        f"{path}:{line}: fixture {fixture}: checks failed: writeThisFixture = false (each check must be true)"
    )


def problems(err: str) -> list[str]:
    return [line for line in err.splitlines() if re.match(r"^[^:\s]+:\d+: ", line)]


def def_line(path: Path, function: str) -> int:
    lines = path.read_text("utf-8").splitlines()
    return next(n for n, text in enumerate(lines, 1) if text.startswith(f"def {function}("))


SOURCE_B = 'Source(title="B", url="https://b.example/", note="b"),'


def no_sources_problem(root: Path, module: str, slug: str) -> str:
    """The problem of the skeleton ``slug`` appended last to ``module``: no source cited yet."""
    lines = (root / module).read_text("utf-8").splitlines()
    line = max(n for n, text in enumerate(lines, 1) if text.strip().startswith("sources=["))
    return f"{module}:{line}: {slug}: cites 0 sources; at least 2 are required"


def test_new_writes_a_batch_that_fails_only_on_its_fixture_stub_and_its_sources(
    make_site: MakeSite, run_cli: RunCli
) -> None:
    root = make_site({"articles/post.py": POST})
    result = run_cli(["new", "my-first-post", "--root", str(root)])
    assert result.code == 0, result.err
    module = root / "articles" / "my_first_post.py"
    line = def_line(module, "my_first_post_result")
    stub = f"articles/my_first_post.py:{line}: fixture my_first_post:my_first_post_result"
    assert result.err.splitlines()[:2] == [
        "wrote articles/my_first_post.py: a skeleton of my-first-post",
        f"{stub}: a stub that fails (writeThisFixture = false) until you write it",
    ]
    assert result.err.endswith("then run:\n  site-builder validate\n")
    text = module.read_text("utf-8")
    assert f'published="{EPOCH_DATE}"' in text
    assert 'slug="my-first-post"' in text

    checked = run_cli(["validate", "--root", str(root)])
    assert checked.code == 1
    assert problems(checked.err) == [
        stub_problem("articles/my_first_post.py", line, stub.split("fixture ")[1]),
        no_sources_problem(root, "articles/my_first_post.py", "my-first-post"),
    ]


def test_new_batch_appends_to_the_module_without_touching_its_code(
    make_site: MakeSite, run_cli: RunCli
) -> None:
    root = make_site({"articles/post.py": POST})
    result = run_cli(["new", "second-post", "--batch", "post", "--root", str(root)])
    assert result.code == 0, result.err
    module = root / "articles" / "post.py"
    text = module.read_text("utf-8")
    assert text.startswith(POST)
    assert text.endswith("revisions = [*revisions, second_post]\n")
    line = def_line(module, "second_post_result")
    assert result.err.startswith(
        f"appended to articles/post.py: a skeleton of second-post\n"
        f"articles/post.py:{line}: fixture post:second_post_result: a stub that fails"
    )
    sources = no_sources_problem(root, "articles/post.py", "second-post")
    listed = run_cli(["revisions", "--root", str(root)])  # fixtures not run: only the sources
    assert problems(listed.err) == [sources]
    checked = run_cli(["validate", "--root", str(root)])
    assert problems(checked.err) == [
        stub_problem("articles/post.py", line, "post:second_post_result"),
        sources,
    ]

    cited = 'sources=[Source(title="A", url="https://a.example/", note="a"), ' + SOURCE_B
    head, _, tail = text.rpartition("sources=[")  # the skeleton's, the last
    module.write_text(head + cited + tail, "utf-8")
    listed = run_cli(["revisions", "--root", str(root)])
    assert listed.code == 0, listed.err
    assert [item["slug"] for item in json.loads(listed.out)] == ["existing-post", "second-post"]


def test_new_batch_appends_after_a_last_line_without_a_newline(make_site: MakeSite, run_cli: RunCli) -> None:
    root = make_site({"articles/post.py": POST.rstrip("\n")})
    assert run_cli(["new", "second-post", "--batch", "post.py", "--root", str(root)]).code == 0
    assert (root / "articles" / "post.py").read_text("utf-8").startswith(POST.rstrip("\n") + "\n\n\n# ---")
    checked = run_cli(["validate", "--root", str(root)])
    assert [p.split(": ")[1] for p in problems(checked.err)] == [
        "fixture post:second_post_result",
        "second-post",
    ]


def test_new_in_a_starter_site_also_asks_for_the_body(starter: Path, run_cli: RunCli) -> None:
    assert run_cli(["new", "next-post", "--root", str(starter)]).code == 0
    line = def_line(starter / "articles" / "next_post.py", "next_post_result")
    checked = run_cli(["validate", "--root", str(starter)])
    found = problems(checked.err)
    assert found[0] == stub_problem("articles/next_post.py", line, "next_post:next_post_result")
    assert re.fullmatch(
        r"articles/next_post\.py:\d+: next-post: body is \d+ characters; at least 5,000 are required",
        found[1],
    )
    assert found[2:] == [no_sources_problem(starter, "articles/next_post.py", "next-post")]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["new", "Bad_Slug"], "slug 'Bad_Slug' must be 3 to 120 characters of a-z, 0-9 and '-'"),
        (["new", "ab"], "slug 'ab' must be 3 to 120 characters of a-z, 0-9 and '-'"),
        (
            ["new", "existing-post"],
            "slug 'existing-post' is already used in articles/post.py; choose another slug",
        ),
        (
            ["new", "post"],
            "articles/post.py already exists; add the revision to it with --batch post, "
            "or choose another slug",
        ),
        (
            ["new", "fresh-post", "--batch", "nope"],
            "no batch articles/nope.py; without --batch, new writes a new module",
        ),
        (["new", "fresh-post", "--batch", "../post"], "no batch articles/../post.py"),
    ],
    ids=["format", "too-short", "duplicate", "module-exists", "no-batch", "batch-outside"],
)
def test_new_refuses_with_exit_2_and_writes_nothing(
    make_site: MakeSite, run_cli: RunCli, argv: list[str], message: str
) -> None:
    root = make_site({"articles/post.py": POST})
    before = tree(root)
    result = run_cli([*argv, "--root", str(root)])
    assert result.code == 2
    assert result.err.startswith(f"site-builder: {message}")
    assert tree(root) == before


def test_new_batch_takes_the_next_free_names_where_the_module_uses_them(
    make_site: MakeSite, run_cli: RunCli
) -> None:
    root = make_site({"articles/post.py": POST + "\nfresh_post_result = 1\n"})

    result = run_cli(["new", "fresh-post", "--batch", "post", "--root", str(root)])

    assert result.code == 0, result.err
    text = (root / "articles" / "post.py").read_text("utf-8")
    assert "fresh_post_result = 1\n" in text  # the module's own name is left as it was
    assert "def fresh_post_2_result() -> dict[str, object]:" in text
    assert text.endswith("revisions = [*revisions, fresh_post_2]\n")
    checked = run_cli(["validate", "--root", str(root)])
    assert [p.split(": ")[1] for p in problems(checked.err)] == [
        "fixture post:fresh_post_2_result",
        "fresh-post",
    ]


def test_new_on_a_module_taken_by_another_slug_ends_where_its_advice_leads(
    make_site: MakeSite, run_cli: RunCli
) -> None:
    """The module ``articles/post.py`` exists for another slug: ``new post`` says to add to it
    with ``--batch post``, and that command then works (the names ``post``, ``post_result``
    are taken by nothing, or are numbered past what is)."""
    root = make_site({"articles/post.py": POST})
    refused = run_cli(["new", "post", "--root", str(root)])
    assert refused.code == 2
    advice = re.search(r"with (--batch \S+),", refused.err)
    assert advice is not None, refused.err

    result = run_cli(["new", "post", *advice.group(1).split(), "--root", str(root)])

    assert result.code == 0, result.err
    checked = run_cli(["validate", "--root", str(root)])
    assert [p.split(": ")[1] for p in problems(checked.err)] == ["fixture post:post_result", "post"]


def test_new_on_its_own_module_says_the_slug_is_taken(make_site: MakeSite, run_cli: RunCli) -> None:
    """``new existing-post`` where ``articles/existing_post.py`` publishes that slug: the slug
    is the news (adding to the module would only fail on the slug next)."""
    root = make_site({"articles/existing_post.py": POST})
    result = run_cli(["new", "existing-post", "--root", str(root)])
    assert result.code == 2
    assert result.err == (
        "site-builder: slug 'existing-post' is already used in articles/existing_post.py; "
        "choose another slug\n"
    )
