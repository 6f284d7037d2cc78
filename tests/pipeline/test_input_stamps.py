"""A build trusts a batch module's stat, as git trusts its index, instead of reading and
hashing it again — but never the stat of a file changed just before it was hashed, never
across a change to what every batch depends on, and never once the ctime has moved."""

from __future__ import annotations

import os
from pathlib import Path
from types import SimpleNamespace

import pytest

import site_builder
from site_builder.pipeline.cache import inputs as freshness
from site_builder.pipeline.cache.reuse import Cache
from site_builder.pipeline.cache.store import CacheFolder
from site_builder.settings.project import Project
from tests.support.sites import MakeSite, RunCli

BATCH = """\
from site_builder import Source, paragraph, revision

revisions = [
    revision(
        slug="{slug}",
        title="Заголовок {slug}",
        published="2026-01-01",
        categories=["Тесты"],
        excerpt="Короткое описание статьи для списка.",
        body=[paragraph("{text} Ещё несколько слов, чтобы хватило длины.")],
        sources=[
            Source(title="A", url="https://a.example/", note="a"),
            Source(title="B", url="https://b.example/", note="b"),
        ],
    ),
]
"""


@pytest.fixture
def site(make_site: MakeSite) -> Path:
    return make_site(
        {f"articles/batch_{n}.py": BATCH.format(slug=f"article-{n}", text="Текст статьи.") for n in "abc"}
    )


def hashed(root: Path, known: dict[str, freshness.Stamp] | None = None) -> freshness.Inputs:
    project = Project.read(root)
    assert project.problems == ()
    return freshness.hash_inputs(project, root / "build", known)


def reads(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The batch modules read (and hashed) from now on."""
    seen: list[Path] = []
    real = freshness.batch_key

    def counting(common: str, path: Path) -> str:
        seen.append(path)
        return real(common, path)

    monkeypatch.setattr(freshness, "batch_key", counting)
    return seen


def clock_at(monkeypatch: pytest.MonkeyPatch, now: int) -> None:
    """Make ``hash_inputs`` see ``now`` (ns) as the current time; nothing else is affected."""
    monkeypatch.setattr(freshness, "time", SimpleNamespace(time_ns=lambda: now))


def test_a_file_changed_just_before_it_was_hashed_gets_no_trusted_stamp(
    site: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its stamp holds its key (for the highlighted blocks of its last summary) and no stat: the
    next run reads it again."""
    # The clock is set from the files' own times (a ctime cannot be set), so the outcome
    # does not depend on how long writing the site took.
    modules = sorted((site / "articles").glob("batch_*.py"))
    changed = [max(p.stat().st_mtime_ns, p.stat().st_ctime_ns) for p in modules]
    assert len(changed) == 3
    clock_at(monkeypatch, min(changed) + freshness.RACY_NS)  # every change is at most RACY_NS old
    racy = hashed(site)
    assert {name: stamp[:4] for name, stamp in racy.stamps.items()} == {
        name: freshness.UNTRUSTED for name in ("batch_a.py", "batch_b.py", "batch_c.py")
    }
    assert {name: stamp[5] for name, stamp in racy.stamps.items()} == {p.name: racy.keys[p] for p in modules}
    seen = reads(monkeypatch)
    assert hashed(site, racy.stamps).keys == racy.keys
    assert sorted(seen) == modules, "a module whose stat was not trusted was not read again"
    clock_at(monkeypatch, max(changed) + freshness.RACY_NS + 1)  # every change is older: trusted
    trusted = hashed(site)
    assert sorted(trusted.stamps) == ["batch_a.py", "batch_b.py", "batch_c.py"]
    assert all(stamp[:4] != freshness.UNTRUSTED for stamp in trusted.stamps.values())


def test_a_module_changed_alone_is_known_by_its_last_key(site: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What lets a worker take the code blocks highlighted by the last build of the batch."""
    monkeypatch.setattr(freshness, "RACY_NS", 0)
    first = hashed(site)
    path = site / "articles" / "batch_b.py"
    path.write_text(path.read_text("utf-8").replace("Текст статьи.", "Другой текст."), "utf-8")
    second = hashed(site, first.stamps)
    assert second.earlier == {path: first.keys[path]} != {path: second.keys[path]}
    (site / "templates").mkdir()  # what every batch depends on changes: none changed alone
    (site / "templates" / "extra.html").write_text("<p>extra</p>", "utf-8")
    assert hashed(site, second.stamps).earlier == {}


def test_an_unchanged_module_is_not_read_again(site: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(freshness, "RACY_NS", 0)
    first = hashed(site)
    assert sorted(first.stamps) == ["batch_a.py", "batch_b.py", "batch_c.py"]
    seen = reads(monkeypatch)

    second = hashed(site, first.stamps)

    assert seen == []
    assert second.keys == first.keys and second.key == first.key


def test_an_edit_that_puts_size_and_mtime_back_is_read_again(
    site: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(freshness, "RACY_NS", 0)
    first = hashed(site)
    module = site / "articles/batch_b.py"
    before = module.stat()
    text = module.read_text("utf-8")
    module.write_text(text.replace("Текст статьи.", "Текст статьи!"), "utf-8")  # same size
    os.utime(module, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert (module.stat().st_size, module.stat().st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    seen = reads(monkeypatch)

    second = hashed(site, first.stamps)

    assert seen == [module]
    assert second.keys[module] != first.keys[module]
    assert second.key != first.key


def test_a_change_to_what_every_batch_depends_on_reads_every_module_again(
    site: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(freshness, "RACY_NS", 0)
    first = hashed(site)
    (site / "templates").mkdir()
    (site / "templates/extra.html").write_text("<p>x</p>", "utf-8")
    seen = reads(monkeypatch)

    second = hashed(site, first.stamps)

    assert sorted(p.name for p in seen) == ["batch_a.py", "batch_b.py", "batch_c.py"]
    assert second.common != first.common


def test_a_build_keeps_the_stamps_and_the_next_build_of_an_edit_uses_them(
    site: Path, run_cli: RunCli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(freshness, "RACY_NS", 0)
    assert run_cli(["build", "--root", str(site)]).code == 0
    kept = Cache.of(site, site / "build").stamps()
    assert sorted(kept) == ["batch_a.py", "batch_b.py", "batch_c.py"]
    module = site / "articles/batch_c.py"
    module.write_text(module.read_text("utf-8").replace("Текст статьи.", "Новый текст."), "utf-8")
    seen = reads(monkeypatch)

    result = run_cli(["build", "--root", str(site)])

    assert result.code == 0, result.err
    assert seen == [module]
    assert "Новый текст." in (site / "build/articles/article-c/index.html").read_text("utf-8")


def test_a_damaged_stamp_is_no_stamp(site: Path, run_cli: RunCli, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(freshness, "RACY_NS", 0)
    first = hashed(site)
    entry = first.stamps["batch_a.py"]
    CacheFolder.of(site).put("inputs", "batches", {"batch_a.py": (*entry[:5], None), "batch_b.py": "x"})

    assert Cache.of(site, site / "build").stamps() == {}


def test_every_file_of_the_tool_is_an_input_of_every_build() -> None:
    """The tool's own files are hashed into every key, so a new version of it never reuses a
    page or a fixture's result the old one made. Every file below the package's folder (its
    code, templates, theme, schema; not bytecode) must be among them: the hash once covered
    only the folder of its own module, and an edit to a helper or a template reused the old
    results."""
    package = Path(site_builder.__file__).parent
    every = {
        Path(folder, name).relative_to(package).as_posix()
        for folder, _, names in os.walk(package)
        if "__pycache__" not in Path(folder).parts
        for name in names
    }
    hashed = {path.relative_to(package).as_posix() for path in freshness.package_files()}
    assert {"templates/article.html", "authoring/helpers.py", "theme/style.css"} <= every
    assert sorted(every - hashed) == []
