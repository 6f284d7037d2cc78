"""A later revision that quotes its sources, changes a few blocks of the revision before it and
keeps the rest as written.

The blocks a revision keeps are the earlier revision's own (the same markup, the same fixture
checks, found at the lines where they were written); the blocks it changes are named by a phrase
only they contain, so an edit of the earlier text that loses the phrase fails loudly here rather
than quietly leaving the old block in place."""

from __future__ import annotations

from collections.abc import Sequence

from site_builder import Markup, Source


def quoting(source: Source, quote: str) -> Source:
    """The same source, its title, address and note unchanged, with the passage it backs."""
    return Source(title=source.title, url=source.url, note=source.note, quote=quote)


def with_blocks_replaced(body: Sequence[Markup], changes: dict[str, Markup | None]) -> list[Markup]:
    """``body`` with each block containing a phrase of ``changes`` replaced by that phrase's block,
    or left out where the phrase maps to None.

    Each phrase must be in exactly one block: a phrase found nowhere, or in two blocks, is an
    error in the revision being written, not a block to skip."""
    blocks: list[Markup | None] = list(body)
    for phrase, block in changes.items():
        holding = [index for index, old in enumerate(blocks) if old is not None and phrase in str(old)]
        if len(holding) != 1:
            raise ValueError(f"{phrase!r} is in {len(holding)} blocks of the earlier revision, not one")
        blocks[holding[0]] = block
    return [block for block in blocks if block is not None]
