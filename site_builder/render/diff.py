"""What changed between two revisions of an article, word by word, as HTML.

:func:`diff_revisions` takes the ``contentHtml`` of two revisions and returns the body of a diff
page: the new revision with what was added in ``<ins>`` and what was removed in ``<del>``.

The markup is read as a tree (:mod:`~site_builder.render.markup_tree`), never unescaped: text
keeps the helpers' entities byte for byte and every mark wraps whole nodes or whole words of one
parent, so the output is as well nested as the input. Each level is aligned with
:class:`difflib.SequenceMatcher` over its children — top-level blocks, list items, table rows and
cells, words — and a changed element with a similar counterpart
(:mod:`~site_builder.render.diff_pairs`) is diffed inside instead of being replaced whole; code is
aligned by lines first, then by words. Decisions:

* Unchanged blocks are all shown: an article is at most 15,000 characters of text, and a change
  reads best in its context.
* A block added or removed whole is ``<ins class="diff-block">``/``<del class="diff-block">``.
  ``<ins>``/``<del>`` cannot be children of a list or a table, so an added or removed ``<li>``,
  ``<tr>`` or cell carries ``data-diff="ins"``/``"del"`` and its content is wrapped instead.
* Outside ``<pre>`` a run of whitespace counts as one space: a space that became a non-breaking
  one is no change a reader can see, and shows as the new text, unmarked; a space that ends a
  change is shown after its marks. Inside ``<pre>`` every space counts and no mark spans a line
  break that both sides keep.
* ``id`` attributes are dropped, so the diff page never repeats the ids of the article page.
"""

from __future__ import annotations

import html as entities
import re
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

from markupsafe import Markup

from site_builder.render.diff_pairs import pair_elements
from site_builder.render.markup_tree import PARTS, TAG, VOID, Atom, Node, parse_fragment

_NO_WRAP = frozenset(
    ["colgroup", "dl", "menu", "ol", "optgroup", "select", "table", "tbody", "tfoot", "thead", "tr", "ul"]
)
"""Elements whose children HTML does not allow inside ``<ins>``/``<del>``."""
_BLOCK = re.compile(r"blockquote|div|dl|figure|h[1-6]|hr|ol|p|pre|table|ul")
"""Elements that, added or removed whole, get ``<ins class="diff-block">``."""
_CODE = re.compile(r"&#?\w+;|\w+|\n|[^\S\n]+|[^\w\s]")
_WORD = re.compile(r"\w")


@dataclass(frozen=True, slots=True)
class RevisionDiff:
    """The difference between two revisions of an article."""

    html: Markup
    """The new revision's body with ``<ins>`` and ``<del>`` marks; escapes kept, no ``id``."""
    words_added: int
    """Words inside ``<ins>``: whitespace-separated runs holding a letter or digit."""
    words_removed: int
    """Words inside ``<del>``, counted the same way."""
    blocks_changed: int
    """Top-level blocks of the page that carry a mark: a block diffed inside counts once, one
    replaced whole twice (the old in ``<del>``, the new in ``<ins>``)."""


@dataclass(frozen=True, slots=True)
class _Place:
    """Where the children being compared sit."""

    pre: bool = False
    wrap: bool = True
    top: bool = True
    parent: str = ""

    def inside(self, name: str) -> _Place:
        return _Place(self.pre or name == "pre", name not in _NO_WRAP, False, name)


class _Out:
    """The output of one diff, with its counts."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.added = self.removed = self.blocks = self.marks = 0

    def keep(self, html: str) -> None:
        self.parts.append(html)

    def mark(self, kind: str, html: str, attrs: str = "") -> None:
        self.parts.append(f"<{kind}{attrs}>{html}</{kind}>")
        self.marks += 1
        words = sum(1 for w in entities.unescape(TAG.sub(" ", html)).split() if _WORD.search(w))
        if kind == "ins":
            self.added += words
        else:
            self.removed += words


def _atoms(children: Sequence[Node], pre: bool) -> list[Atom]:
    split = _CODE if pre else PARTS
    return [a for c in children for a in (split.findall(c.html) if not c.name else (c,))]


def _html(atoms: Sequence[Atom]) -> str:
    return "".join(a if isinstance(a, str) else a.html for a in atoms)


def _keys(atoms: Sequence[Atom], pre: bool) -> list[str]:
    """What is compared: an element's markup, a word; a space outside code as one space after the
    word before it, so that spaces match only between matching words (and stay cheap to align)."""
    keys = [a.html if isinstance(a, Node) else a for a in atoms]
    if not pre:
        keys = [" " + keys[n - 1][-20:] if key.isspace() and n else key for n, key in enumerate(keys)]
    return keys


def _blank(atoms: Sequence[Atom]) -> bool:
    return all(isinstance(a, str) and a.isspace() for a in atoms)


def _glue(atoms: Sequence[Atom], pre: bool) -> bool:
    """An unchanged run too slight to split a change in two: spaces and signs (a line break in code)."""
    return all(isinstance(a, str) and not _WORD.search(a) and not (pre and "\n" in a) for a in atoms)


def _opcodes(old: Sequence[Atom], new: Sequence[Atom], pre: bool) -> list[tuple[str, int, int, int, int]]:
    keys_old, keys_new = _keys(old, pre), _keys(new, pre)
    merged: list[tuple[str, int, int, int, int]] = []
    for op in SequenceMatcher(None, keys_old, keys_new, autojunk=False).get_opcodes():
        glue = len(merged) > 1 and merged[-1][0] == "equal" and _glue(old[merged[-1][1] : merged[-1][2]], pre)
        if op[0] != "equal" and glue:
            first = merged[-2]
            del merged[-2:]
            merged.append(("replace", first[1], op[2], first[3], op[4]))
        else:
            merged.append(op)
    return merged


def _diff(old: Sequence[Atom], new: Sequence[Atom], place: _Place, out: _Out) -> None:
    for op, i1, i2, j1, j2 in _opcodes(old, new, place.pre):
        if op == "equal":
            out.keep(_html(new[j1:j2]))
            continue
        end_old, end_new, space = (i2, j2, "") if place.pre else _last_space(old, new, i1, i2, j1, j2)
        _changed(old[i1:end_old], new[j1:end_new], place, out)
        out.keep(space)


def _last_space(
    old: Sequence[Atom], new: Sequence[Atom], i1: int, i2: int, j1: int, j2: int
) -> tuple[int, int, str]:
    """The space that ends a change, to show after its marks, not in them: when each side ends
    with a space, or has one beside the place where the other side's words were added."""
    cut_old, cut_new = _is_space(old, i2 - 1, i1), _is_space(new, j2 - 1, j1)
    fits_old, fits_new = _space_fits(old, i1, i2, cut_old), _space_fits(new, j1, j2, cut_new)
    if not (fits_old and fits_new and (cut_old or cut_new)):
        return i2, j2, ""
    return i2 - cut_old, j2 - cut_new, _html([new[j2 - 1] if cut_new else old[i2 - 1]])


def _space_fits(atoms: Sequence[Atom], start: int, end: int, cut: bool) -> bool:
    """Whether one side of a change fits a space shown after it: it ends with one (``cut``), or
    it adds nothing and a space is beside the place where the other side's words were."""
    return cut or (start == end and (_is_space(atoms, start - 1) or _is_space(atoms, start)))


def _is_space(atoms: Sequence[Atom], at: int, low: int = 0) -> bool:
    return low <= at < len(atoms) and isinstance(atoms[at], str) and str(atoms[at]).isspace()


def _changed(old: Sequence[Atom], new: Sequence[Atom], place: _Place, out: _Out) -> None:
    i = j = 0
    for pi, pj in pair_elements(old, new, place.parent, place.pre):
        _unpaired(old[i:pi], new[j:pj], place, out)
        paired_old, paired_new = old[pi], new[pj]
        if isinstance(paired_old, Node) and isinstance(paired_new, Node):
            _paired(paired_old, paired_new, place, out)
        i, j = pi + 1, pj + 1
    _unpaired(old[i:], new[j:], place, out)


def _paired(old: Node, new: Node, place: _Place, out: _Out) -> None:
    marks, inner = out.marks, place.inside(new.name)
    out.keep(new.start)
    if inner.pre and not any(c.name for c in (*old.children, *new.children)):
        _diff_code(_html(old.children), _html(new.children), inner, out)
    else:
        _diff(_atoms(old.children, inner.pre), _atoms(new.children, inner.pre), inner, out)
    out.keep(f"</{new.name}>")
    if place.top and out.marks > marks:
        out.blocks += 1


def _diff_code(old: str, new: str, place: _Place, out: _Out) -> None:
    """Code: the lines that changed, then the words that changed in them."""
    a, b = old.splitlines(keepends=True), new.splitlines(keepends=True)
    for op, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            out.keep("".join(b[j1:j2]))
        else:
            _diff(_CODE.findall("".join(a[i1:i2])), _CODE.findall("".join(b[j1:j2])), place, out)


def _unpaired(old: Sequence[Atom], new: Sequence[Atom], place: _Place, out: _Out) -> None:
    if _nothing_to_see(old, new, place):
        out.keep(_html(new))
        return
    if place.top:
        out.blocks += sum(_block_count(side) for side in (old, new))
    spaces_between_blocks = not place.pre and _has_block([*old, *new])
    _marked(old, "del", place, out, spaces_between_blocks)
    _marked(new, "ins", place, out, spaces_between_blocks)


def _nothing_to_see(old: Sequence[Atom], new: Sequence[Atom], place: _Place) -> bool:
    """Whether a change is only of spaces that show alike: one space for another, or spaces
    between blocks (at the top, or where changes are not wrapped)."""
    if place.pre or not (_blank(old) and _blank(new)):
        return False
    return bool(old and new) or place.top or not place.wrap


def _block_count(atoms: Sequence[Atom]) -> int:
    texts = any(isinstance(a, str) and not a.isspace() for a in atoms)
    return sum(isinstance(a, Node) for a in atoms) + texts


def _has_block(atoms: Sequence[Atom]) -> bool:
    return any(isinstance(a, Node) and _BLOCK.fullmatch(a.name) for a in atoms)


def _marked(atoms: Sequence[Atom], kind: str, place: _Place, out: _Out, between_blocks: bool) -> None:
    """Atoms only one side has: whole blocks marked one by one, inline runs together; spaces
    between blocks are not marked."""
    if not place.wrap:
        for atom in atoms:
            _flagged(atom, kind, place, out)
        return
    run: list[Atom] = []
    for atom in atoms:
        if isinstance(atom, Node) and _BLOCK.fullmatch(atom.name):
            _run(run, kind, between_blocks, out)
            run = []
            out.mark(kind, atom.html, ' class="diff-block"')
        else:
            run.append(atom)
    _run(run, kind, between_blocks, out)


def _run(run: Sequence[Atom], kind: str, between_blocks: bool, out: _Out) -> None:
    if run and between_blocks and _blank(run):
        out.keep(_html(run))  # the line breaks between blocks, not a change
    elif run:
        out.mark(kind, _html(run))


def _flagged(atom: Atom, kind: str, place: _Place, out: _Out) -> None:
    """A child of a list or table: the element says ``data-diff``, its content is marked."""
    if isinstance(atom, str) or atom.name == "!":
        if _html([atom]).isspace():
            out.keep(_html([atom]))
        else:
            out.mark(kind, _html([atom]))
        return
    cut = len(atom.name) + 1
    out.keep(f'{atom.start[:cut]} data-diff="{kind}"{atom.start[cut:]}')
    if atom.name not in VOID and atom.start[-2:] != "/>":
        inner = place.inside(atom.name)
        children = [c.html if not c.name else c for c in atom.children]
        _marked(children, kind, inner, out, not inner.pre and _has_block(children))
        out.keep(f"</{atom.name}>")


def diff_revisions(old_html: str, new_html: str) -> RevisionDiff:
    """The diff page's body between two revisions' ``contentHtml`` (older first)."""
    out = _Out()
    _diff(_atoms(parse_fragment(old_html), False), _atoms(parse_fragment(new_html), False), _Place(), out)
    return RevisionDiff(Markup("".join(out.parts)), out.added, out.removed, out.blocks)
