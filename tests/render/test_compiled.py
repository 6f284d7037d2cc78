"""Compiled templates kept between runs (``site_builder.render.compiled``): they make a build
faster, never different. A kept bytecode is checked against its template's source, a file that
cannot be read is compiled again, and a cache folder that cannot be made means no cache."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import jinja2
import pytest
from jinja2.bccache import bc_magic

from site_builder.render.compiled import KeptBytecode, kept_bytecode

SITE = Path(__file__).resolve().parents[1] / "sites" / "valid_basic"


def render(templates: Path, cache: KeptBytecode | None) -> str:
    """``page.html`` of ``templates`` rendered by a new environment, as a new process would."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(templates), bytecode_cache=cache, autoescape=True)
    return env.get_template("page.html").render(name="<b>")


def test_a_kept_template_is_loaded_from_the_cache_and_an_edited_one_compiled_again(tmp_path: Path) -> None:
    templates, folder = tmp_path / "templates", tmp_path / "kept"
    templates.mkdir()
    folder.mkdir()
    (templates / "page.html").write_text("Hello {{ name }}", "utf-8")
    assert render(templates, KeptBytecode(str(folder))) == "Hello &lt;b&gt;"
    (kept,) = folder.iterdir()
    assert not kept.name.endswith(".tmp")  # written whole, then renamed

    loads: list[bool] = []

    class Watched(KeptBytecode):
        def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
            super().load_bytecode(bucket)
            loads.append(bucket.code is not None)

    assert render(templates, Watched(str(folder))) == "Hello &lt;b&gt;"
    (templates / "page.html").write_text("Goodbye {{ name }}", "utf-8")
    assert render(templates, Watched(str(folder))) == "Goodbye &lt;b&gt;"
    assert loads == [True, False]  # the same source loaded; the edited one compiled afresh


@pytest.mark.parametrize(
    "damage",
    [b"", b"j2", b"not bytecode at all", bc_magic + b"\x80\x04garbage", bc_magic + b"\x00" * 40],
    ids=["empty", "short", "foreign", "torn-checksum", "torn-code"],
)
def test_a_kept_file_that_cannot_be_read_is_compiled_again(tmp_path: Path, damage: bytes) -> None:
    templates, folder = tmp_path / "templates", tmp_path / "kept"
    templates.mkdir()
    folder.mkdir()
    (templates / "page.html").write_text("Hello {{ name }}", "utf-8")
    render(templates, KeptBytecode(str(folder)))
    (kept,) = folder.iterdir()
    kept.write_bytes(damage)
    assert render(templates, KeptBytecode(str(folder))) == "Hello &lt;b&gt;"


def test_the_cache_lives_in_the_user_s_cache_folder_or_nowhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    cache = kept_bytecode()
    assert cache is not None and Path(cache.directory) == tmp_path / "xdg" / "site-builder" / "templates"
    (tmp_path / "file").write_text("", "utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "file"))  # a file where the folder would go
    assert kept_bytecode() is None


def build(root: Path, cache_home: Path, out: str) -> dict[str, bytes]:
    """``site-builder build`` in a new process with ``cache_home`` as the user's cache folder."""
    env = os.environ | {"XDG_CACHE_HOME": str(cache_home), "SOURCE_DATE_EPOCH": "1700000000"}
    command = [
        sys.executable,
        "-m",
        "site_builder",
        "build",
        "--no-cache",
        "--out",
        str(root / out),
        "--root",
        str(root),
    ]
    subprocess.run(command, env=env, check=True, capture_output=True)
    return {
        str(p.relative_to(root / out)): p.read_bytes() for p in sorted((root / out).rglob("*")) if p.is_file()
    }


def test_a_build_is_the_same_with_a_new_a_kept_a_damaged_and_no_cache(tmp_path: Path) -> None:
    root = tmp_path / "site"
    shutil.copytree(SITE, root)
    cache_home = tmp_path / "xdg"
    first = build(root, cache_home, "first")  # compiles and keeps
    assert "index.html" in first
    kept = sorted((cache_home / "site-builder" / "templates").iterdir())
    assert kept
    assert build(root, cache_home, "second") == first  # loads what was kept
    for path in kept:
        path.write_bytes(b"j2 damaged")
    assert build(root, cache_home, "third") == first
    (tmp_path / "no-folder").write_text("", "utf-8")
    assert build(root, tmp_path / "no-folder", "fourth") == first
