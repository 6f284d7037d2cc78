"""Which changed elements of two revisions the diff compares inside, rather than replacing whole.

Owns :func:`pair_elements`: a paragraph with a few words changed, a list item reworded, a table
row with one cell changed, a program that keeps half of its lines are shown once with their
changes marked; an element with little in common with any counterpart is shown removed, and the
new one added.
"""

from __future__ import annotations

from collections.abc import Sequence
from difflib import SequenceMatcher

from site_builder.render.markup_tree import VOID, Atom, Node

_FLOOR = 0.5 - 1e-9
"""The least similarity that pairs two elements (a two-cell row with one cell changed is 0.5)."""
_WINDOW = 4
"""How many unpaired old elements one new element is compared with."""
_LONG = 500
"""Words in an element above which its similarity is measured without their order."""


def pair_elements(old: Sequence[Atom], new: Sequence[Atom], parent: str, pre: bool) -> list[tuple[int, int]]:
    """Indices of the old and new elements to diff inside, in order: cells by column while a row
    keeps its width and kind of cells; inside code, the first with the same start tag; a code block
    that keeps half of its lines; other elements when at least half alike."""
    cells_old = [i for i, a in enumerate(old) if isinstance(a, Node)]
    cells_new = [j for j, b in enumerate(new) if isinstance(b, Node)]
    columns = list(zip(cells_old, cells_new, strict=False))
    if (
        parent == "tr"
        and len(cells_old) == len(cells_new)
        and all(_same_start(old[i], new[j]) for i, j in columns)
    ):
        return columns
    return _pairs(old, new, -1.0 if pre else _FLOOR)


def _same_start(a: Atom, b: Atom) -> bool:
    return isinstance(a, Node) and isinstance(b, Node) and a.start == b.start


def _pairs(old: Sequence[Atom], new: Sequence[Atom], floor: float) -> list[tuple[int, int]]:
    """In the new side's order, each element takes the most similar of the next few old ones with
    its start tag (in code, the first). A block moved far away shows as removed and added; the
    window keeps a rewritten article linear, not quadratic."""
    olds = [(i, a) for i, a in enumerate(old) if isinstance(a, Node) and a.name not in VOID]
    matcher: SequenceMatcher[str] = SequenceMatcher(autojunk=False)
    pairs: list[tuple[int, int]] = []
    first = 0
    for j, b in enumerate(new):
        if not isinstance(b, Node) or b.name in VOID:
            continue
        found = _most_similar(matcher, [a for _, a in olds[first : first + _WINDOW]], b, floor)
        if found is not None:
            pairs.append((olds[first + found][0], j))
            first += found + 1
    return pairs


def _most_similar(
    matcher: SequenceMatcher[str], candidates: Sequence[Node], b: Node, floor: float
) -> int | None:
    """The index of the candidate with ``b``'s start tag most similar to ``b``, above ``floor``;
    None when none is."""
    matcher.set_seq2(b.words)
    best, found = floor, None
    for k, a in enumerate(candidates):
        if a.start == b.start:
            score = _similarity(matcher, a, best)
            score = max(score, _kept_lines(a, b)) if b.name == "pre" else score
            best, found = (score, k) if score > best else (best, found)
    return found


def _similarity(matcher: SequenceMatcher[str], a: Node, best: float) -> float:
    """How alike ``a``'s words and the matcher's second list are; ``best`` or less when they
    cannot beat it. Below 0 (inside code) the first candidate wins at once."""
    if best < 0:
        return 1.0
    matcher.set_seq1(a.words)
    if matcher.real_quick_ratio() <= best or matcher.quick_ratio() <= best:
        return best
    # A long block is judged by its words, not their order: ratio() is quadratic.
    return matcher.quick_ratio() if len(a.words) > _LONG else matcher.ratio()


def _kept_lines(a: Node, b: Node) -> float:
    """Code: the share of the shorter program's lines that the other keeps, in order (a program
    that grew is the same program, diffed line by line)."""
    old, new = a.html.splitlines(), b.html.splitlines()
    kept = sum(block.size for block in SequenceMatcher(None, old, new, autojunk=False).get_matching_blocks())
    return kept / min(len(old), len(new))
