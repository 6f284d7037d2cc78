"""What a reader sees of the fixtures: a mark after each verified output, and the list of
the article's fixtures.

``contentHtml`` keeps the helpers' markup (the contract); only the page gets a mark right
after each ``verified_output`` block, linking to the fixture's source when the site sets
``repo_url``, and to the fixture's entry in the page's list of fixtures otherwise. Where
the blocks are is known only while the revision's blocks are at hand (the build's per-batch
step): each block is remembered by where it ends in ``contentHtml``, and the marks go in
before heading ids and highlighting change the page's text.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from site_builder.authoring.body import placed
from site_builder.authoring.escaping import attr, escape_text
from site_builder.authoring.model import Block, Revision
from site_builder.model.batches import fixture_id, relative_to_root
from site_builder.model.page_ids import fixture_anchors
from site_builder.runtime.pickled import quick_state
from site_builder.settings.project import Settings

_NEW_TAB = ' target="_blank" rel="noopener noreferrer"'


@quick_state
@dataclass(frozen=True, slots=True)
class Proof:
    """One ``verified_output`` block of a revision, as its page marks it."""

    end: int
    """Offset in ``contentHtml`` just after the block: where its mark goes."""
    fixture: str
    """The fixture's id, ``MODULE:FUNCTION``."""
    path: str
    """The file of the fixture's ``def``, relative to the site root."""
    line: int
    """The line of its ``def``."""


@dataclass(frozen=True, slots=True, kw_only=True)
class FixtureEntry:
    """One fixture in the article's list, and what every mark of it links to."""

    fixture: str
    """The fixture's id, ``MODULE:FUNCTION``."""
    name: str
    """What the reader sees: the function's name (the id when two fixtures of the page share it)."""
    anchor: str
    """The id of its entry in the list (``fixture-NAME``)."""
    source: str
    """The URL of its ``def`` in the site's repository; "" without ``repo_url``."""
    results: int
    """How many outputs of the article it verifies."""

    @property
    def href(self) -> str:
        """Where its marks link: the source, or the entry in the list."""
        return self.source or f"#{self.anchor}"


def proofs_of(root: Path, revision: Revision) -> tuple[Proof, ...]:
    """The ``verified_output`` blocks of ``revision`` in body order."""
    proofs: list[Proof] = []
    for start, block in placed(revision):
        if isinstance(block, Block) and block.verified is not None:
            fx = block.verified.fixture
            end = start + len(block)
            proofs.append(Proof(end, fixture_id(fx), relative_to_root(root, fx.site.path), fx.site.line))
    return tuple(proofs)


def fixture_entries(settings: Settings, proofs: Sequence[Proof]) -> dict[str, FixtureEntry]:
    """The article's fixtures by id, in the order the body first uses them."""
    first: dict[str, Proof] = {}
    for proof in proofs:
        first.setdefault(proof.fixture, proof)
    ordered = list(first.values())
    counts = Counter(proof.fixture for proof in proofs)
    names = Counter(proof.fixture.partition(":")[2] for proof in ordered)
    anchors = fixture_anchors([proof.fixture for proof in ordered])
    entries: dict[str, FixtureEntry] = {}
    for proof in ordered:
        name = proof.fixture.partition(":")[2]
        shown = name if names[name] == 1 else proof.fixture
        anchor = anchors[proof.fixture]
        source = source_url(settings, proof.path, proof.line)
        entries[proof.fixture] = FixtureEntry(
            fixture=proof.fixture, name=shown, anchor=anchor, source=source, results=counts[proof.fixture]
        )
    return entries


def source_url(settings: Settings, path: str, line: int) -> str:
    """The URL of ``path`` at ``line`` in the site's repository; "" without ``repo_url``."""
    if not settings.repo_url or path.startswith("/"):  # a file outside the site root has none
        return ""
    folder = settings.source_uri.strip("/")
    parts = [settings.repo_url.rstrip("/"), *([folder] if folder else []), quote(path)]
    return "/".join(parts) + f"#L{line}"


def mark_proofs(
    content: str, proofs: Sequence[Proof], entries: Mapping[str, FixtureEntry], wording: str
) -> str:
    """``content`` (a revision's ``contentHtml``) with a mark after each verified block;
    ``wording`` is the mark's label, ``{fixture}`` standing for the fixture's name."""
    pieces: list[str] = []
    start = 0
    for proof in proofs:
        pieces += [content[start : proof.end], mark(entries[proof.fixture], wording)]
        start = proof.end
    pieces.append(content[start:])
    return "".join(pieces)


def mark(entry: FixtureEntry, wording: str) -> str:
    """The mark of one verified block, on a line of its own."""
    before, _, after = wording.partition("{fixture}")
    text = f"{escape_text(before)}<code>{escape_text(entry.name)}</code>{escape_text(after)}"
    new_tab = _NEW_TAB if entry.source else ""
    return f'\n<p class="proof" data-pagefind-ignore><a{attr("href", entry.href)}{new_tab}>{text}</a></p>'
