"""An HTML fragment read as a tree of nodes that keep their source text.

Owns :func:`parse_fragment`, the reader the revision diff aligns: every node keeps the bytes it
was written with (entities are never decoded, attributes never re-spelled), so what is shown from
a node is what the helpers wrote. ``id`` attributes are dropped on the way. The tree is always
well nested: tags the fragment leaves open are closed, end tags that close nothing are dropped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

VOID = frozenset(
    ["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]
)
"""Elements without content or end tag."""

TAG = re.compile(r"<!--.*?-->|</?[A-Za-z!?][^>\"']*(?:(?:\"[^\"]*\"|'[^']*')[^>\"']*)*>", re.DOTALL)
"""A tag, a comment or a declaration; a quoted ``>`` does not end it."""
_NAME = re.compile(r"</?([A-Za-z][^\s/>]*)")
_ATTR = re.compile(r"""(\s+)([^\s"'>/=]+)(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?""")
PARTS = re.compile(r"&#?\w+;|\w+|\s+|[^\w\s]")
"""The parts of an escaped text: an entity, a word, a run of spaces, a sign."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Node:
    """An element, a text or a comment, as written."""

    name: str
    """Lower-case tag name; ``""`` for a text, ``"!"`` for a comment or declaration."""
    start: str
    """The start tag without ``id`` (the whole node for a text or a comment)."""
    children: tuple[Node, ...]
    html: str
    """The node's markup: its start tag, its children's markup, its end tag."""
    words: tuple[str, ...]
    """The words and signs of its text (entities kept whole), to measure similarity."""


Atom = Node | str
"""What the diff aligns: an element, or one word, sign or run of spaces of a text."""


def _text(raw: str) -> Node:
    words = tuple(part for part in PARTS.findall(raw) if not part.isspace())
    return Node(name="", start=raw, children=(), html=raw, words=words)


def _element(name: str, start: str, children: tuple[Node, ...], end: str) -> Node:
    html = start + "".join(child.html for child in children) + end
    words = tuple(word for child in children for word in child.words)
    return Node(name=name, start=start, children=children, html=html, words=words)


def _without_id(tag: str) -> str:
    if "id" not in tag.lower():
        return tag
    name = _NAME.match(tag)
    position = name.end() if name else len(tag)
    kept = [tag[:position]]
    while attribute := _ATTR.match(tag, position):
        if attribute.group(2).lower() != "id":
            kept.append(attribute.group(0))
        position = attribute.end()
    return "".join(kept) + tag[position:]


class _Tree:
    """The open elements while a fragment is read, the outermost first."""

    def __init__(self) -> None:
        self.open: list[tuple[str, str, list[Node]]] = [("", "", [])]

    def text(self, raw: str) -> None:
        if raw:
            self.open[-1][2].append(_text(raw))

    def tag(self, raw: str) -> None:
        match = _NAME.match(raw)
        name = match.group(1).lower() if match else "!"
        if match is None:
            self.open[-1][2].append(_element(name, raw, (), ""))
        elif raw.startswith("</"):
            self.end(name)
        elif name in VOID or raw.endswith("/>"):
            self.open[-1][2].append(_element(name, _without_id(raw), (), ""))
        else:
            self.open.append((name, _without_id(raw), []))

    def end(self, name: str) -> None:
        if any(open_name == name for open_name, _, _ in self.open[1:]):
            while self.close() != name:
                pass

    def close(self) -> str:
        name, start, children = self.open.pop()
        self.open[-1][2].append(_element(name, start, tuple(children), f"</{name}>"))
        return name

    def finish(self) -> tuple[Node, ...]:
        while len(self.open) > 1:
            self.close()
        return tuple(self.open[0][2])


def parse_fragment(html: str) -> tuple[Node, ...]:
    """The top-level nodes of ``html``, whitespace between blocks included as text."""
    tree, position = _Tree(), 0
    for tag in TAG.finditer(html):
        tree.text(html[position : tag.start()])
        tree.tag(tag.group())
        position = tag.end()
    tree.text(html[position:])
    return tree.finish()
