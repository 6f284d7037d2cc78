"""The rules that read the whole site (unique slugs, link targets, category spellings) keep
their findings in the cache: a rebuild after an edit that changed nothing they read finds
the same findings without running them, and any change to what they read runs them again.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from site_builder.check.batch_rules import Refs
from site_builder.check.site_rules import site_problems
from site_builder.errors import Problem
from site_builder.pipeline import site_check
from site_builder.settings.project import Settings
from tests.check.test_category_spelling import FIRST, NEAR, WARNING_ONLY, batch, line_of
from tests.support.sites import HEADER, MakeSite, RunCli

WARNING_LINE = line_of(WARNING_ONLY, '"Postgre"')
WARNING = f"articles/b_second.py:{WARNING_LINE}: typo-only: warning: {NEAR}"


@pytest.fixture
def ran(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the runs of the site-wide rules."""
    runs: list[int] = []

    def counted(root: Path, settings: Settings, parts: list[Refs]) -> object:
        runs.append(len(parts))
        return site_problems(root, settings, parts)

    monkeypatch.setattr(site_check, "site_problems", counted)
    return runs


def build(root: Path, run_cli: RunCli, *flags: str) -> str:
    result = run_cli(["build", "--root", str(root), *flags])
    assert result.code == 0, result.err
    return result.err


def errors(root: Path, run_cli: RunCli) -> list[str]:
    result = run_cli(["build", "--root", str(root)])
    assert result.code == 1, result.err
    return [line for line in result.err.splitlines() if ": " in line]


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text("utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), "utf-8")


OTHER = batch(("other", '["Python 3"]'))


@pytest.fixture
def warned(make_site: MakeSite) -> Path:
    """A site whose one warning comes from the site-wide rules (a category spelt two ways),
    and an article that warning does not name."""
    files = {"articles/a_first.py": FIRST, "articles/b_second.py": WARNING_ONLY, "articles/c_other.py": OTHER}
    return make_site(files)


def test_an_edit_within_a_line_finds_the_same_warning_without_the_rules(
    warned: Path, run_cli: RunCli, ran: list[int]
) -> None:
    assert WARNING in build(warned, run_cli)
    assert len(ran) == 1
    edit(warned / "articles/c_other.py", "Enough words to pass", "Plenty of words to pass")
    assert WARNING in build(warned, run_cli)
    assert len(ran) == 1  # kept: nothing the rules read had changed
    page = (warned / "build/articles/other/index.html").read_text("utf-8")
    assert "Plenty of words to pass" in page
    assert WARNING in build(warned, run_cli, "--no-cache", "--out", str(warned / "clean"))
    assert len(ran) == 2


def test_a_line_moved_in_a_file_a_finding_names_runs_the_rules_again(
    warned: Path, run_cli: RunCli, ran: list[int]
) -> None:
    """The doubtful spelling moves one line down within its list, every other line staying
    where it was: nothing the rules are given changes, but the kept warning would name the
    old line."""
    build(warned, run_cli)
    written = '        "Postgre",\n        "Python 3",\n'
    assert written in WARNING_ONLY
    edit(warned / "articles/b_second.py", written, '\n        "Postgre", "Python 3",\n')
    moved = WARNING.replace(f"b_second.py:{WARNING_LINE}:", f"b_second.py:{WARNING_LINE + 1}:")
    assert moved != WARNING
    assert moved in build(warned, run_cli)
    assert len(ran) == 2


LINKING = batch(("linking", '["Links"]')).replace(
    'paragraph("Enough words to pass the tiny limit of this test site.")',
    'markdown("Enough words, [a file](/assets/notes.txt) and [a page](/articles/target/).")',
)
TARGET = batch(("target", '["Targets"]'))


@pytest.fixture
def linked(make_site: MakeSite) -> Path:
    root = make_site({"articles/a_linking.py": LINKING, "articles/b_target.py": TARGET})
    (root / "assets" / "notes.txt").write_text("notes\n", "utf-8")
    return root


def test_a_slug_changed_elsewhere_breaks_a_kept_article_s_link(linked: Path, run_cli: RunCli) -> None:
    build(linked, run_cli)
    edit(linked / "articles/b_target.py", 'slug="target"', 'slug="moved"')
    found = errors(linked, run_cli)
    assert len(found) == 1 and "'/articles/target/' is neither a file" in found[0], found
    assert found[0].startswith("articles/a_linking.py:"), found


def test_an_asset_removed_breaks_a_kept_article_s_link(linked: Path, run_cli: RunCli) -> None:
    """Nothing any article says changed: only the assets folder did."""
    build(linked, run_cli)
    (linked / "assets" / "notes.txt").unlink()
    found = errors(linked, run_cli)
    assert len(found) == 1 and "'/assets/notes.txt' is neither a file" in found[0], found


def _revision(revised: str, words: str) -> str:
    later = f'    revised="{revised}", changes="Reworded.",\n' if revised else ""
    return (
        HEADER + "\nrevisions = [revision(\n"
        '    slug="note", title="Note", excerpt="E.", categories=["Notes"], published="2024-01-02",\n'
        f"{later}"
        f'    body=[paragraph("{words}")],\n'
        '    sources=[Source(title="A", url="https://a.example/", note="a"),\n'
        '             Source(title="B", url="https://b.example/", note="b")])]\n'
    )


def test_a_later_revision_made_the_same_as_the_earlier_one_is_caught(
    make_site: MakeSite, run_cli: RunCli
) -> None:
    """Bodies count only where an article has two revisions, which the history rules compare."""
    first, later = "The first words of this note, long enough.", "The later words of this note, long enough."
    files = {"articles/a_note.py": _revision("", first), "articles/b_note.py": _revision("2024-02-03", later)}
    root = make_site(files)
    build(root, run_cli)
    edit(root / "articles/b_note.py", later, first)
    found = errors(root, run_cli)
    assert len(found) == 1 and "body is the same as revision 1's" in found[0], found


def test_kept_findings_hold_by_the_files_they_name_as_data_not_by_their_wording(tmp_path: Path) -> None:
    """What a kept finding depends on is its file and the files it says it quotes
    (``Problem.quotes``), never a path found in its message's words."""
    for name in ("a.py", "b.py", "c.py"):
        (tmp_path / name).write_text(f"# {name}\n", "utf-8")
    problem = Problem(
        path="a.py", line=1, subject="s", rule="r", message="reworded, see c.py:1", quotes=("b.py",)
    )
    kept = site_check.RuleFindings(
        key="k", problems=(problem,), read=site_check.named_files(tmp_path, [problem])
    )
    assert [name for name, _ in kept.read] == ["a.py", "b.py"]
    assert kept.holds(tmp_path, "k")
    (tmp_path / "c.py").write_text("# changed\n", "utf-8")  # only named in the words: holds
    assert kept.holds(tmp_path, "k")
    (tmp_path / "b.py").write_text("# changed\n", "utf-8")  # quoted: no longer holds
    assert not kept.holds(tmp_path, "k")
