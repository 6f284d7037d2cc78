"""The fixtures of the build-cache tests: the benchmark's corpus, written and built once per
module (tests/support/corpus.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.corpus import CleanBuilds, FirstBuild, first_build, write_corpus


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The corpus, written once for the module; tests change copies of it."""
    return write_corpus(tmp_path_factory.mktemp("corpus") / "site")


@pytest.fixture(scope="module")
def built_once(pristine: Path, tmp_path_factory: pytest.TempPathFactory) -> FirstBuild:
    return first_build(pristine, tmp_path_factory.mktemp("first-build"))


@pytest.fixture
def built_site(built_once: FirstBuild) -> Iterator[Path]:
    """A copy of the corpus as its first build left it (:class:`FirstBuild`); afterwards, the
    first build is checked to be as it was."""
    yield built_once.copy()
    changed = built_once.changed_in_place()
    assert not changed, f"the test wrote into files of the first build in place: {changed[:5]}"


@pytest.fixture(scope="module")
def clean_build() -> CleanBuilds:
    """A clean build of a site's inputs, made once per distinct input in the module."""
    return CleanBuilds()
