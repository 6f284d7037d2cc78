"""The site index: a rebuild after an edit of one batch reads one file for every kept
summary, and the bodies (refs, outcomes, proofs) of the other batches only when a site-wide
step needs them; what it builds is what a clean build gives.

The site is the benchmark's corpus at a small size, as in ``test_incremental``.
"""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from site_builder.pipeline.cache.store import CACHE_DIR, CacheFolder
from site_builder.pipeline.worker.batch import BatchSummary
from site_builder.pipeline.worker.site_index import CHANGES, KEY, KIND, read_index
from site_builder.pipeline.worker.texts import Texts
from tests.pipeline.test_incremental import first_paragraph
from tests.render.test_proof_marks import BORROWER, OWNER
from tests.render.test_proof_marks import make_site as proof_site
from tests.support.corpus import CleanBuild, N, copied
from tests.support.sites import RunCli, searchable, tree


def built(root: Path, run_cli: RunCli) -> None:
    result = run_cli(["build", "--root", str(root)])
    assert result.code == 0, result.err


def index(root: Path) -> dict[str, BatchSummary]:
    return read_index(CacheFolder.of(root)).summaries


class Reads:
    """What the main process reads of the cache: its entries by name, and the bodies by the
    key of their batch (a texts file is named after its batch's key)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.entries: list[str] = []
        self.bodies: list[str] = []
        read_entry, read_body = CacheFolder._read, Texts.body

        def entry(store: CacheFolder, name: str) -> object | None:
            self.entries.append(name)
            return read_entry(store, name)

        def body(texts: Texts) -> object:
            self.bodies.append(texts.path.stem)
            return read_body(texts)

        monkeypatch.setattr(CacheFolder, "_read", entry)
        monkeypatch.setattr(Texts, "body", body)

    def own_files(self) -> int:
        """How many batches' own summary files were read."""
        return sum(name.startswith("batches/") for name in self.entries)


def index_files(site: Path) -> tuple[Path, Path]:
    """The files of the site's index: (base, changes)."""
    return site / CACHE_DIR / KIND / KEY, site / CACHE_DIR / KIND / CHANGES


def clean_and_indexed(site: Path, run_cli: RunCli, tmp_path: Path, clean_build: CleanBuild) -> None:
    """The site built is what a clean build gives, and the index holds every batch."""
    assert searchable(tree(site / "build")) == clean_build(site, run_cli, tmp_path)
    assert len(index(site)) == N // 3


def with_history(summaries: dict[str, BatchSummary]) -> set[str]:
    """The keys of the batches holding a revision of an article with a later one: the kernel
    renders those articles' pages with each revision's proofs, from the body."""
    revised = {item.slug for part in summaries.values() for item in part.items if item.later}
    return {key for key, part in summaries.items() if any(item.slug in revised for item in part.items)}


def test_a_one_batch_rebuild_reads_the_index_and_no_other_batch_s_body(
    built_site: Path,
    run_cli: RunCli,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    clean_build: CleanBuild,
) -> None:
    site = built_site
    before = index(site)
    assert len(before) == N // 3  # every batch of the corpus is kept, and indexed
    first_paragraph(site, "batch_00004", "Раз. ")
    reads = Reads(monkeypatch)

    built(site, run_cli)

    assert reads.entries.count(f"{KIND}/{KEY}") == 1 and reads.entries.count(f"{KIND}/{CHANGES}") == 1
    assert reads.own_files() == 0
    assert set(reads.bodies) <= with_history(before), reads.bodies
    assert len(reads.bodies) < N // 3 // 2
    monkeypatch.undo()
    assert searchable(tree(site / "build")) == clean_build(site, run_cli, tmp_path)
    after = index(site)
    assert len(after) == N // 3 and len(set(after) - set(before)) == 1  # the edited batch, anew


def test_an_edit_the_site_rules_read_reads_every_body(
    built_site: Path,
    run_cli: RunCli,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    clean_build: CleanBuild,
) -> None:
    """A line added at the top of a batch moves every line its refs name: the site-wide rules
    run again over every batch's refs, each read from its body."""
    site = built_site
    path = site / "articles" / "batch_00004.py"
    path.write_text("\n" + path.read_text("utf-8"), "utf-8")
    reads = Reads(monkeypatch)

    built(site, run_cli)

    assert len(set(reads.bodies)) == N // 3
    monkeypatch.undo()
    assert searchable(tree(site / "build")) == clean_build(site, run_cli, tmp_path)


def test_without_the_index_a_rebuild_reads_each_batch_s_own_file(
    built_site: Path,
    run_cli: RunCli,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    clean_build: CleanBuild,
) -> None:
    site = built_site
    (site / CACHE_DIR / KIND / KEY).unlink()
    first_paragraph(site, "batch_00004", "Раз. ")
    reads = Reads(monkeypatch)

    built(site, run_cli)

    assert reads.own_files() == N // 3 - 1
    monkeypatch.undo()
    clean_and_indexed(site, run_cli, tmp_path, clean_build)


def test_a_kept_texts_file_replaced_since_is_not_read_as_this_summary_s_body(
    pristine: Path, run_cli: RunCli, tmp_path: Path
) -> None:
    site = copied(pristine, tmp_path)
    built(site, run_cli)
    key, summary = next(iter(index(site).items()))
    texts = site / CACHE_DIR / "batches" / f"{key}.text"
    texts.write_bytes(texts.read_bytes())  # same bytes, another file: the summary is not its
    with pytest.raises(OSError, match="replaced"):
        summary.texts.body()


def test_outputs_printed_by_another_batch_s_fixture_are_judged_on_every_build(
    tmp_path: Path, run_cli: RunCli
) -> None:
    """Both summaries are kept, the borrower's (it shows the owner's fixture) only while the owner
    is unchanged. A change of the fixture's result is found at the borrower's line, with the cache, and one
    that contradicts the owner's own output at the owner's line, judged with its batch."""
    root = proof_site(tmp_path / "site")
    (root / "articles/owner.py").write_text(OWNER, "utf-8")
    (root / "articles/borrower.py").write_text(BORROWER, "utf-8")
    built(root, run_cli)
    owner = root / "articles/owner.py"
    owner.write_text(OWNER.replace('"value": 3, "checks"', '"value": 4, "checks"', 1), "utf-8")
    owner.write_text(
        owner.read_text("utf-8").replace('expected={"value": 3}', 'expected={"value": 4}'), "utf-8"
    )

    result = run_cli(["build", "--root", str(root)])

    assert result.code == 1
    drifted = [line for line in result.err.splitlines() if "does not match what it returns" in line]
    assert len(drifted) == 1 and drifted[0].startswith("articles/borrower.py:"), result.err

    owner.write_text(OWNER.replace('"value": 3, "checks"', '"value": 5, "checks"', 1), "utf-8")
    result = run_cli(["build", "--root", str(root)])

    drifted = sorted(
        line.split(":")[0] for line in result.err.splitlines() if "does not match what it returns" in line
    )
    assert result.code == 1 and drifted == ["articles/borrower.py", "articles/owner.py"], result.err


def test_a_one_batch_rebuild_writes_the_index_s_changes_not_its_base(
    built_site: Path, run_cli: RunCli, tmp_path: Path, clean_build: CleanBuild
) -> None:
    site = built_site
    base, changes = index_files(site)
    written = base.stat()
    assert not changes.exists()
    before = index(site)

    for words in ("Раз. ", "Два. "):  # the second edit's changes replace the first's
        first_paragraph(site, "batch_00004", words)
        built(site, run_cli)
        now = base.stat()
        assert (now.st_ino, now.st_mtime_ns) == (written.st_ino, written.st_mtime_ns)
        token, added, dropped = pickle.loads(changes.read_bytes())
        assert token == pickle.loads(base.read_bytes())[0]
        assert len(added) == 1 and len(dropped) == 1 and not (set(added) & set(before))
        after = index(site)
        assert len(after) == N // 3 and set(after) - set(before) == set(added)
    assert searchable(tree(site / "build")) == clean_build(site, run_cli, tmp_path)


def test_changes_past_a_sixteenth_of_the_site_write_a_new_base(
    built_site: Path, run_cli: RunCli, tmp_path: Path, clean_build: CleanBuild
) -> None:
    site = built_site
    base, changes = index_files(site)
    token = pickle.loads(base.read_bytes())[0]
    for number in range(1, 18):  # 17 of the 20 batches: more than the 16 changes kept apart
        first_paragraph(site, f"batch_{number:05d}", "Раз. ")

    built(site, run_cli)

    assert not changes.exists() and pickle.loads(base.read_bytes())[0] != token
    assert len(index(site)) == N // 3
    assert searchable(tree(site / "build")) == clean_build(site, run_cli, tmp_path)


def test_changes_made_against_another_base_are_not_applied(
    pristine: Path, run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clean_build: CleanBuild
) -> None:
    """Another build of the site wrote a base since these changes: the index is that base
    alone, and a batch it lacks is read from its own file."""
    site = copied(pristine, tmp_path)
    built(site, run_cli)
    first_paragraph(site, "batch_00004", "Раз. ")
    built(site, run_cli)
    base = site / CACHE_DIR / KIND / KEY
    _, summaries = pickle.loads(base.read_bytes())
    _, added, _ = pickle.loads((site / CACHE_DIR / KIND / CHANGES).read_bytes())
    base.write_bytes(pickle.dumps(("another", summaries)))
    assert set(added) and not set(added) & set(index(site))  # the edited batch's summary, kept apart
    first_paragraph(site, "batch_00007", "Раз. ")
    reads = Reads(monkeypatch)

    built(site, run_cli)

    assert reads.own_files() == 1  # batch_00004's, which that base lacks (batch_00007 is new)
    monkeypatch.undo()
    clean_and_indexed(site, run_cli, tmp_path, clean_build)


def test_a_batch_summarized_again_under_its_key_is_indexed_anew(
    built_site: Path, run_cli: RunCli, tmp_path: Path, clean_build: CleanBuild
) -> None:
    """A kept summary whose texts file is gone is made again, under the same key, into a new
    texts file: the index must hold the new one, or every later build finds the old one's
    file replaced and imports the batch again."""
    site = built_site
    first_paragraph(site, "batch_00007", "Раз. ")
    built(site, run_cli)  # the base stays; a change is kept apart
    key, summary = next((k, s) for k, s in index(site).items() if s.name == "batch_00004")
    (site / CACHE_DIR / "batches" / f"{key}.text").unlink()
    first_paragraph(site, "batch_00007", "Два. ")  # a build that has something to do

    built(site, run_cli)

    texts = (site / CACHE_DIR / "batches" / f"{key}.text").stat()
    assert (texts.st_size, texts.st_mtime_ns) != summary.texts.stat  # made again
    assert index(site)[key].texts.stat == (texts.st_size, texts.st_mtime_ns)
    assert searchable(tree(site / "build")) == clean_build(site, run_cli, tmp_path)


def test_a_kept_batch_whose_pages_are_gone_is_not_loaded_again(
    built_site: Path, run_cli: RunCli, tmp_path: Path, clean_build: CleanBuild
) -> None:
    """Its pages gone from the site and the spare (a CI run that restored only the cache has
    no output folder at all), a kept summary is used as it is: the kernel renders its pages
    from it, and its batch is neither imported nor summarized again. The index keeps it as it
    was, and the next build finds its pages at hand."""
    from site_builder.pipeline.cache.reuse import Cache

    site = built_site
    key, summary = next((k, s) for k, s in index(site).items() if s.name == "batch_00004")
    page = next(iter(summary.pages or {}))
    (site / "build" / page).unlink()
    (Cache.of(site, (site / "build").resolve()).spare() / page).unlink(missing_ok=True)

    built(site, run_cli)

    texts = (site / CACHE_DIR / "batches" / f"{key}.text").stat()
    assert (texts.st_size, texts.st_mtime_ns) == summary.texts.stat  # not made again
    assert index(site)[key] == summary
    assert searchable(tree(site / "build")) == clean_build(site, run_cli, tmp_path)


def test_a_body_that_cannot_be_read_is_a_clear_error_not_a_traceback(
    built_site: Path, run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``validate`` reads every kept batch's body; a texts file another build of the site
    replaced in the meantime ends it with a message saying to run it again."""
    site = built_site

    def replaced(texts: Texts) -> object:
        raise OSError(f"{texts.path} was replaced while the build read it")

    monkeypatch.setattr(Texts, "body", replaced)
    result = run_cli(["validate", "--root", str(site)])

    assert result.code == 1
    assert (
        "the cache changed while this command read it" in result.err and "run the command again" in result.err
    )
    assert "Traceback" not in result.err
