"""The README's "An article" example is a real site: its settings and its batch, taken
from README.md as they are, build with exit 0 and write the article's page."""

from __future__ import annotations

import re
from pathlib import Path

from tests.support.sites import RunCli

README = Path(__file__).parents[2] / "README.md"


def example_files() -> dict[str, str]:
    """The fenced blocks of the README's "An article" section, by the path each names on its first line."""
    text = README.read_text("utf-8")
    section = text.split("\n## An article\n", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"^```(?:toml|python)\n(.*?)^```$", section, re.MULTILINE | re.DOTALL)
    files = {}
    for block in blocks:
        first = block.splitlines()[0]
        assert first.startswith("# "), f"a README example block names its file on its first line: {first!r}"
        files[first.removeprefix("# ")] = block
    return files


def test_the_readme_example_is_one_settings_file_and_one_batch() -> None:
    assert sorted(example_files()) == ["articles/retry_2020_06.py", "pyproject.toml"]


def test_the_readme_example_builds(tmp_path: Path, run_cli: RunCli) -> None:
    files = example_files()
    for path, text in files.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text, "utf-8")
    result = run_cli(["build", "--root", str(tmp_path)])
    assert result.code == 0, result.err
    slug = re.search(r'slug="([^"]+)"', files["articles/retry_2020_06.py"])
    assert slug is not None
    page = (tmp_path / "build" / "articles" / slug.group(1) / "index.html").read_text("utf-8")
    # The page names the fixture behind its output, under the output and in the list of fixtures.
    assert '<a href="#fixture-lost_response">verified by fixture <code>lost_response</code></a>' in page
    assert '<li id="fixture-lost_response"><code>lost_response</code>' in page
