"""output.link: how a staged site shares unchanged files with the live one. The name it
replaces may itself be shared with the live site, so it is never written in place."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from site_builder.pipeline.staging import folder as output


def test_a_new_name_in_a_missing_folder_is_a_hard_link(tmp_path: Path) -> None:
    source = tmp_path / "live/page.html"
    source.parent.mkdir()
    source.write_text("live", "utf-8")
    target = tmp_path / "staging/articles/slug/index.html"

    output.link(source, target)

    assert os.path.samefile(source, target)


def test_an_other_file_at_the_name_is_replaced_and_left_as_it_was(tmp_path: Path) -> None:
    source, target, shared = tmp_path / "source", tmp_path / "target", tmp_path / "shared"
    source.write_text("new", "utf-8")
    shared.write_text("old", "utf-8")
    os.link(shared, target)  # the name is shared with another site

    output.link(source, target)

    assert os.path.samefile(source, target)
    assert shared.read_text("utf-8") == "old"


def test_the_same_file_is_left_alone(tmp_path: Path) -> None:
    source, target = tmp_path / "source", tmp_path / "target"
    source.write_text("x", "utf-8")
    os.link(source, target)
    inode = target.stat().st_ino

    output.link(source, target)

    assert target.stat().st_ino == inode == source.stat().st_ino


def test_a_missing_source_raises(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        output.link(tmp_path / "absent", tmp_path / "folder/target")


def test_across_file_systems_a_copy_is_made_under_a_new_inode(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source, target, shared = tmp_path / "source", tmp_path / "target", tmp_path / "shared"
    source.write_text("new", "utf-8")
    shared.write_text("old", "utf-8")
    os.link(shared, target)

    def cross_device(_source: object, _target: object) -> None:
        raise OSError(errno.EXDEV, "Invalid cross-device link")

    monkeypatch.setattr(os, "link", cross_device)
    output.link(source, target)

    assert target.read_text("utf-8") == "new"
    assert shared.read_text("utf-8") == "old"  # the shared inode was not written
