"""A link's problem is at the line of the string that holds it, inside a helper call written
over several lines; where the URL is not written as such, at the call's own line."""

from __future__ import annotations

from pathlib import Path

import pytest

from site_builder.authoring.model import CallSite
from site_builder.check.link_lines import link_site

BATCH = """\
SLUG = "gone"
blocks = [
    paragraph(
        "The first line has no link. "
        "The second has [one](/articles/first/). "
        f"An f-string: [{SLUG}](/articles/in-an-f-string/). "
        "Built: [two](" + "/articles/" + SLUG + "/)."
    ),
    paragraph("One line: [three](/articles/one-line/)."),
]
"""


@pytest.mark.parametrize(
    ("url", "line"),
    [
        ("/articles/first/", 5),  # the second literal of the concatenation
        ("/articles/in-an-f-string/", 3),  # an f-string is not read: the call's line
        ("/articles/gone/", 3),  # built by code: written nowhere as such
        ("/articles/nowhere/", 3),
    ],
    ids=["literal", "f-string", "built", "absent"],
)
def test_the_line_of_the_literal_that_holds_the_url(tmp_path: Path, url: str, line: int) -> None:
    path = tmp_path / "batch.py"
    path.write_text(BATCH, "utf-8")
    assert link_site(CallSite(str(path), 3), url) == CallSite(str(path), line)


def test_a_call_on_one_line_and_a_file_that_does_not_parse_keep_the_call_s_line(tmp_path: Path) -> None:
    path = tmp_path / "batch.py"
    path.write_text(BATCH, "utf-8")
    assert link_site(CallSite(str(path), 9), "/articles/one-line/") == CallSite(str(path), 9)
    path.write_text(BATCH + "def broken(:\n", "utf-8")
    assert link_site(CallSite(str(path), 3), "/articles/first/") == CallSite(str(path), 3)
