"""The built ``tests/sites/valid_site`` compared file by file with its committed golden copy.

Regenerate with ``pytest tests/whole_site/test_build_golden.py --update-golden`` and read the diff
before committing it: the golden copy is the reviewed picture of a whole built site
(STYLE.md "Tests"). Pagefind's index is binary and versioned by Pagefind, so only its
entry points are checked here.

What Pygments writes — its token colours in ``theme/style.css`` and the token ``<span>``s
inside each highlighted ``<pre>`` — changes between Pygments releases (2.17 spells ``#000``
as ``#000000`` and ``"`` as ``&quot;``; 2.20 and 2.21 differ on ``.highlight .bp``). The
pyproject allows every Pygments from 2.17 on, so the golden copy does not pin one: before
comparing, those parts of the golden copy are written again by the installed Pygments, from
the golden copy's own code text and the theme's two styles. The same holds for the PNGs
drawn from SVG covers (``og/``): resvg releases encode them differently, so each is drawn
again by the installed resvg from the golden copy's own SVG. Everything around them stays
byte for byte.
"""

from __future__ import annotations

import difflib
import html
import re
import shutil
from pathlib import Path

from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import get_lexer_by_name

from site_builder.render.cover_png import draw_png, svg_source
from tests.support.sites import SITES, RunCli

GOLDEN = Path(__file__).parents[1] / "golden" / "valid_site"
SKIPPED = "pagefind/"
OURS = "pagefind/site-search.js"  # the script that merges the index shards is ours to review

# The theme's Pygments styles, in the order the stylesheet carries them: light, then dark.
STYLES = ("xcode", "monokai")
TOKEN_RULES = re.compile(r"(?:^\.highlight \.\w+ \{.*\n)+", re.MULTILINE)
HIGHLIGHTED = re.compile(
    r'(<pre class="highlight" tabindex="0"><code class="language-([^"]+)">)(.*?)(</code></pre>)', re.DOTALL
)
TAG = re.compile(r"<[^>]*>")


def site_files(folder: Path) -> dict[str, bytes]:
    """Every file below ``folder`` except the search index, by forward-slash path."""
    found = {p.relative_to(folder).as_posix(): p for p in folder.rglob("*") if p.is_file()}
    return {
        rel: found[rel].read_bytes() for rel in sorted(found) if not rel.startswith(SKIPPED) or rel == OURS
    }


def token_rules(style: str) -> str:
    """The installed Pygments' rules for ``style``'s tokens, one a line."""
    css = HtmlFormatter(style=style).get_style_defs(".highlight")
    return "".join(f"{line}\n" for line in css.splitlines() if TOKEN_RULES.fullmatch(f"{line}\n"))


def restyled(css: str) -> str:
    """``css`` with each run of token rules written again by the installed Pygments."""
    runs = TOKEN_RULES.findall(css)
    assert len(runs) == len(STYLES), f"expected {len(STYLES)} runs of Pygments token rules, found {len(runs)}"
    styles = iter(STYLES)
    return TOKEN_RULES.sub(lambda _run: token_rules(next(styles)), css)


def rehighlighted(page: str) -> str:
    """``page`` with each highlighted block's tokens written again by the installed Pygments."""

    def again(block: re.Match[str]) -> str:
        opening, language, tokens, closing = block.groups()
        code = html.unescape(TAG.sub("", tokens))
        lexer = get_lexer_by_name(language.lower(), stripnl=False, ensurenl=False)
        return opening + highlight(code, lexer, HtmlFormatter(nowrap=True)).rstrip("\n") + closing

    return HIGHLIGHTED.sub(again, page)


def with_installed_pygments(golden: dict[str, bytes]) -> dict[str, bytes]:
    """The golden copy as the installed Pygments would have written its Pygments parts."""
    redone = dict(golden)
    for rel, data in golden.items():
        if rel == "theme/style.css":
            redone[rel] = restyled(data.decode("utf-8")).encode("utf-8")
        elif rel.endswith(".html"):
            redone[rel] = rehighlighted(data.decode("utf-8")).encode("utf-8")
    return redone


def with_installed_resvg(golden: dict[str, bytes]) -> dict[str, bytes]:
    """The golden copy with each cover's PNG (``og/…``) drawn again by the installed resvg from
    the golden copy's own SVG: the pyproject allows releases whose PNG encoders differ."""
    return {
        rel: draw_png(golden["assets/" + svg_source(rel)]) if rel.startswith("og/") else data
        for rel, data in golden.items()
    }


def write_golden(files: dict[str, bytes]) -> None:
    if GOLDEN.exists():
        shutil.rmtree(GOLDEN)
    for rel, data in files.items():
        (GOLDEN / rel).parent.mkdir(parents=True, exist_ok=True)
        (GOLDEN / rel).write_bytes(data)


def file_diff(rel: str, expected: bytes, got: bytes) -> str:
    lines = difflib.unified_diff(
        expected.decode("utf-8", "replace").splitlines(keepends=True),
        got.decode("utf-8", "replace").splitlines(keepends=True),
        fromfile=f"golden/{rel}",
        tofile=f"build/{rel}",
    )
    return "".join(lines) or f"{rel}: bytes differ (same text after decoding)\n"


def differences(golden: dict[str, bytes], built: dict[str, bytes]) -> str:
    """A readable report of everything that differs; empty when the trees match."""
    report = [f"missing from the build: {rel}\n" for rel in sorted(golden.keys() - built.keys())]
    report += [f"not in the golden copy: {rel}\n" for rel in sorted(built.keys() - golden.keys())]
    report += [
        file_diff(rel, golden[rel], built[rel])
        for rel in sorted(golden.keys() & built.keys())
        if golden[rel] != built[rel]
    ]
    return "".join(report)


def test_valid_site_matches_golden_copy(tmp_path: Path, run_cli: RunCli, update_golden: bool) -> None:
    root = tmp_path / "valid_site"
    shutil.copytree(SITES / "valid_site", root)

    result = run_cli(["build", "--root", str(root)])

    assert result.code == 0, result.err
    out = root / "build"
    for entry in ("pagefind/pagefind-ui.js", "pagefind/pagefind.js"):
        assert (out / entry).is_file(), entry
    built = site_files(out)
    if update_golden:
        write_golden(built)
    report = differences(with_installed_resvg(with_installed_pygments(site_files(GOLDEN))), built)
    assert not report, (
        "the build differs from tests/golden/valid_site "
        "(if the change is intended, rerun with --update-golden and review the diff):\n" + report
    )
