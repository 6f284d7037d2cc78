"""A build killed at a random moment never leaves a half-written site (DESIGN: "The built site").

The output folder is replaced by two renames (``build`` → ``.build.old``, ``.build.new`` →
``build``); a SIGKILL at any point must leave ``build/`` byte-identical to the previous or the
next complete site, or — between the two renames — no ``build/`` and a whole ``.build.old``
that the next build puts back before doing anything else.
"""

from __future__ import annotations

import contextlib
import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from tests.support.sites import HEADER, SETTINGS, MakeSite

# Kills land at fractions of a typical build's time, so a site of any size meets every step of
# the build (loading, rendering, staging, indexing, the swap); a larger one only makes each
# kill and each rebuild after it slower. 90 revisions take about 1 s on a 2-core machine.
REVISIONS = 90
# A lone kill lands 0.2-1 s into the staging (not a fraction): this site's staging and search
# indexing take about that long, so the kill usually finds a pagefind to leave behind.
ALONE_REVISIONS = 180
PER_BATCH = 3
FIXTURE_BATCHES = 2
ROUNDS = 10  # one delay drawn from each tenth of the build: no stretch of it goes unvisited
AIMED_ROUNDS = 4  # delays drawn from its last 15 %, where the swap happens
ALONE_ROUNDS = 4
SEED = 20261130
FILLER = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor. " * 12

# The two contents alternate; different lengths, so no stale bytecode can pass for the other.
CONTENTS = ("old", "renewed")

Snapshot = dict[str, bytes]


def write_articles(root: Path, marker: str, revisions: int) -> None:
    """Every revision's text carries ``marker``: the two sites differ on every article page."""
    for batch in range(revisions // PER_BATCH):
        lines = [
            HEADER,
            'S1 = Source(title="One", url="https://example.org/one", note="first")',
            'S2 = Source(title="Two", url="https://example.org/two", note="second")',
            "",
        ]
        if batch < FIXTURE_BATCHES:
            lines += [
                "",
                "@fixture",
                f"def counted_{batch}() -> dict:",
                f"    return {{'n': {batch}, 'marker': {marker!r}, 'checks': {{'ok': True}}}}",
                "",
            ]
        names = []
        for i in range(PER_BATCH):
            k = batch * PER_BATCH + i
            body = [
                f"paragraph({f'Revision {k} ({marker}). ' + FILLER!r})",
                f"heading('Part {k}')",
                f"paragraph('Closing words of {k}, {marker}.')",
            ]
            if batch < FIXTURE_BATCHES and i == 0:
                body.append(f"verified_output(counted_{batch}, expected={{'n': {batch}}})")
            lines.append(
                f"r{i} = revision(slug='rev-{k:04d}', title='Revision {k} {marker}', "
                f"categories=['Cat{k % 5}'], excerpt='Excerpt {k}.', published='2021-01-{1 + k % 28:02d}', "
                f"body=[{', '.join(body)}], sources=[S1, S2])"
            )
            names.append(f"r{i}")
        lines.append(f"revisions = [{', '.join(names)}]")
        (root / "articles" / f"batch_{batch:03d}.py").write_text("\n".join(lines) + "\n", "utf-8")


def snapshot(folder: Path) -> Snapshot:
    """Every file below ``folder``: relative path → bytes."""
    files = sorted(p for p in folder.rglob("*") if p.is_file())
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in files}


def difference(actual: Snapshot, expected: Snapshot) -> str:
    """A short description of how two snapshots differ (empty when equal)."""
    missing = sorted(expected.keys() - actual.keys())
    extra = sorted(actual.keys() - expected.keys())
    changed = sorted(k for k in expected.keys() & actual.keys() if expected[k] != actual[k])
    if not (missing or extra or changed):
        return ""
    return (
        f"{len(missing)} missing {missing[:3]}, {len(extra)} extra {extra[:3]}, "
        f"{len(changed)} changed {changed[:3]}"
    )


def command(root: Path) -> list[str]:
    return [sys.executable, "-m", "site_builder", "build", "--root", str(root)]


def env() -> dict[str, str]:
    return {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}


def build(root: Path) -> float:
    """A normal build that must succeed; returns its wall time."""
    started = time.monotonic()
    done = subprocess.run(command(root), capture_output=True, text=True, env=env(), timeout=120, check=False)
    took = time.monotonic() - started
    assert done.returncode == 0, done.stderr
    return took


def leftovers(root: Path) -> list[str]:
    return sorted(name for name in (".build.new", ".build.old") if (root / name).exists())


def new_site(root: Path) -> Path:
    (root / "articles").mkdir(parents=True)
    (root / "assets").mkdir()
    cover = '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>\n'
    (root / "assets" / "cover.svg").write_text(cover, "utf-8")
    (root / "pyproject.toml").write_text(SETTINGS, "utf-8")
    return root / "build"


def both_sites(root: Path, *, twice: bool, revisions: int) -> tuple[list[Snapshot], float]:
    """Build each content (twice: and again, to show builds are byte-identical); the output
    ends holding CONTENTS[1]. Returns the two snapshots and the median build time."""
    out = root / "build"
    snapshots: list[Snapshot] = []
    times: list[float] = []
    for marker in CONTENTS:
        write_articles(root, marker, revisions)
        times.append(build(root))
        snapshots.append(snapshot(out))
    if twice:
        for index, marker in enumerate(CONTENTS):
            write_articles(root, marker, revisions)
            times.append(build(root))
            again = difference(snapshot(out), snapshots[index])
            assert again == "", f"{marker}: a second build is not byte-identical: {again}"
    assert any(p.startswith("pagefind/") for p in snapshots[0]), "no search index to compare"
    assert len(snapshots[0]) > revisions
    differing = [p for p in snapshots[0].keys() & snapshots[1].keys() if snapshots[0][p] != snapshots[1][p]]
    assert len(differing) >= revisions, "the two contents must differ on every article page"
    return snapshots, sorted(times)[len(times) // 2]


def start(root: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        command(root),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env(),
        start_new_session=True,  # its own process group, so nothing it started outlives the test
    )


def end_group(process: subprocess.Popen[bytes]) -> None:
    """SIGKILL whatever is left of the build's process group (pagefind) and reap the build."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=30)


def group_alive(process: subprocess.Popen[bytes]) -> bool:
    try:
        os.killpg(process.pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.slow
def test_a_killed_build_leaves_the_previous_or_the_next_complete_site(tmp_path: Path) -> None:
    root = tmp_path / "site"
    out = new_site(root)
    snapshots, typical = both_sites(root, twice=True, revisions=REVISIONS)

    # The output holds CONTENTS[1]; each round switches the content and SIGKILLs a build
    # (its whole process group, as Ctrl-C or a CI timeout would) after a random delay.
    rng = random.Random(SEED)
    phases: Counter[str] = Counter()
    current = 1
    for round_ in range(ROUNDS + AIMED_ROUNDS):
        previous, following = snapshots[current], snapshots[1 - current]
        write_articles(root, CONTENTS[1 - current], REVISIONS)
        low, high = (0.85, 1.0) if round_ >= ROUNDS else (round_ / ROUNDS, (round_ + 1) / ROUNDS)
        delay = rng.uniform(low * typical, high * typical)
        process = start(root)
        try:
            time.sleep(delay)
            staging_seen = (root / ".build.new").exists()
            code = process.poll()
        finally:
            end_group(process)
        label = f"round {round_} (delay {delay:.2f} s of {typical:.2f} s, exit {code})"

        if out.exists():
            after = snapshot(out)
            if difference(after, previous) == "":
                phase = "previous kept (staging under way)" if staging_seen else "previous kept"
            elif difference(after, following) == "":
                phase = "next complete" if code is None else "finished before the kill"
            else:
                raise AssertionError(
                    f"{label}: build/ is neither site: vs previous {difference(after, previous)}; "
                    f"vs next {difference(after, following)}"
                )
        else:
            old = root / ".build.old"
            assert old.is_dir(), f"{label}: no build/ and no .build.old: the site is gone"
            assert difference(snapshot(old), previous) == "", f"{label}: .build.old is not whole"
            phase = "between the renames"
        phases[phase] += 1

        # The next normal build recovers and publishes the new content, cleanly. It is the build
        # the next round kills, under the load of the moment: its time scales the next delay,
        # so a busy machine does not push the kills past the end of the build.
        typical = build(root)
        assert leftovers(root) == [], f"{label}: left behind {leftovers(root)}"
        assert difference(snapshot(out), following) == "", f"{label}: the build after the kill"
        current = 1 - current

    summary = ", ".join(f"{name}: {count}" for name, count in sorted(phases.items()))
    print(f"\n{ROUNDS + AIMED_ROUNDS} kills, last build {typical:.2f} s — {summary}")
    assert sum(phases.values()) == ROUNDS + AIMED_ROUNDS
    assert phases["previous kept"] + phases["previous kept (staging under way)"] > 0, summary
    assert phases["previous kept"] < ROUNDS + AIMED_ROUNDS, f"no kill reached the staging: {summary}"


@pytest.mark.slow
def test_a_build_killed_alone_does_not_break_the_next_build(tmp_path: Path) -> None:
    """``kill -9 PID`` kills the build but not the pagefind it started; that leftover process
    may still be writing into ``.build.new`` when the next build starts. The next build must
    still succeed (no traceback) and publish exactly the new site."""
    root = tmp_path / "site"
    out = new_site(root)
    snapshots, _typical = both_sites(root, twice=False, revisions=ALONE_REVISIONS)
    rng = random.Random(SEED + 1)
    current = 1
    for round_ in range(ALONE_ROUNDS):
        previous, following = snapshots[current], snapshots[1 - current]
        write_articles(root, CONTENTS[1 - current], ALONE_REVISIONS)
        process = start(root)
        try:
            deadline = time.monotonic() + 60
            while not (root / ".build.new").exists() and process.poll() is None:
                assert time.monotonic() < deadline, "the build never started staging"
                time.sleep(0.005)
            delay = rng.uniform(0.2, 1.0)  # into the search indexing, usually
            time.sleep(delay)
            process.kill()  # the build only
            process.wait(timeout=30)
            label = f"round {round_} (killed {delay:.2f} s into staging, exit {process.returncode})"
            after = snapshot(out)
            assert difference(after, previous) == "" or difference(after, following) == "", (
                f"{label}: build/ is neither site: {difference(after, previous)}"
            )
            done = subprocess.run(
                command(root), capture_output=True, text=True, env=env(), timeout=120, check=False
            )
            assert done.returncode == 0, f"{label}: the next build failed:\n{done.stderr}"
            assert "Traceback" not in done.stderr, f"{label}: the next build crashed:\n{done.stderr}"
            deadline = time.monotonic() + 30
            while group_alive(process):  # let a leftover pagefind finish, then look again
                assert time.monotonic() < deadline, f"{label}: the killed build's children never ended"
                time.sleep(0.05)
            assert leftovers(root) == [], f"{label}: left behind {leftovers(root)}"
            assert difference(snapshot(out), following) == "", f"{label}: the build after the kill"
        finally:
            end_group(process)
        current = 1 - current


def test_the_next_build_puts_the_old_site_back_even_when_it_fails(make_site: MakeSite) -> None:
    """A kill between the two renames leaves no build/ and a whole .build.old (plus, possibly,
    a half-written .build.new); the next build restores it before anything else, even when
    that build itself stops at a problem."""
    body = "Words enough for the minimum body text of the test settings."
    batch = (
        HEADER
        + f"""
SRC = [Source(title="One", url="https://example.org/one", note="first"),
       Source(title="Two", url="https://example.org/two", note="second")]
revisions = [revision(slug="kept-page", title="Kept", categories=["A"], excerpt="Kept.",
                      published="2022-03-04", body=[paragraph({body!r})], sources=SRC)]
"""
    )
    root = make_site({"articles/kept.py": batch})
    out = root / "build"
    build(root)
    before = snapshot(out)
    assert "articles/kept-page/index.html" in before

    out.rename(root / ".build.old")  # the first rename happened, the second did not
    (root / ".build.new" / "articles").mkdir(parents=True)
    (root / ".build.new" / "articles" / "half.html").write_text("<p>half", "utf-8")
    (root / "articles" / "kept.py").write_text(batch + "def broken(:\n", "utf-8")

    done = subprocess.run(command(root), capture_output=True, text=True, env=env(), timeout=120, check=False)
    assert done.returncode == 1, done.stderr
    assert "articles/kept.py:" in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert out.is_dir(), "the old site was not put back"
    assert difference(snapshot(out), before) == ""
    assert leftovers(root) == []
