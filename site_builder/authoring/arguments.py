"""The line of each keyword argument of the author's call, so a problem about one
field points at that field's line (``sources=``), not at the line the call starts.

Python's code positions give the span of the call being executed. Its source text
(from ``linecache``, as tracebacks read it) is scanned with one regular expression
for strings, comments, brackets and ``=`` signs: a name before an ``=`` at the
call's own bracket depth is a keyword. No parse tree, and no scan at all until a
line is asked for, and then only as far as the keyword asked for: a batch is
imported on every build, its revisions are most of its text, and a clean
revision is asked for its ``slug=`` line only (written first, as a rule).
"""

from __future__ import annotations

import functools
import itertools
import linecache
import re
from collections.abc import Iterator
from types import CodeType, FrameType

_TOKENS = re.compile(
    r"""
    '''[^'\\]*(?:(?:\\.|'(?!''))[^'\\]*)*'''
    | \"\"\"[^"\\]*(?:(?:\\.|"(?!""))[^"\\]*)*\"\"\"
    | '[^'\\\n]*(?:\\.[^'\\\n]*)*'
    | "[^"\\\n]*(?:\\.[^"\\\n]*)*"
    | \#[^\n]*
    | ==
    | (?P<equals>=)
    | (?P<open>[(\[{])
    | (?P<close>[)\]}])
    """,
    re.VERBOSE | re.DOTALL,
)
"""String prefixes need no care: inside any string, ``\\`` and the quotes end it the same way."""
_NAME_BEFORE = re.compile(r"(?<![\w.])([^\W\d]\w*)\s*\Z")


class Keywords:
    """The keyword arguments of one call and their lines, scanned only as far as asked."""

    __slots__ = ("_found", "_pending")

    def __init__(self, pending: Iterator[tuple[str, int]] | None = None) -> None:
        self._found: dict[str, int] = {}
        self._pending = pending

    def line(self, name: str) -> int | None:
        """The line keyword ``name`` was written on; None when the call did not name it."""
        while name not in self._found and self._pending is not None:
            item = next(self._pending, None)
            if item is None:
                self._pending = None
            else:
                self._found.setdefault(*item)
        return self._found.get(name)


def call_keywords(frame: FrameType) -> Keywords:
    """The keyword arguments of the call ``frame`` is executing; none known when the
    call's span is not (``python -X no_debug_ranges``)."""
    start, end, start_col, end_col = _positions(frame.f_code).at(frame.f_lasti // 2)
    if start is None or end is None or start_col is None or end_col is None:
        return Keywords()
    path = frame.f_code.co_filename
    linecache.checkcache(path)  # a batch edited and imported again in one process
    # The list itself is kept: what the module was compiled from, whatever linecache does later.
    lines = linecache.getlines(path)
    if len(lines) < end:
        return Keywords()
    return Keywords(_scan(lines, start, end, start_col, end_col))


class _Positions:
    """The code positions of one code object, decoded only as far as asked: a module's
    revisions are called in order, so each is one step further along its code."""

    __slots__ = ("_decoded", "_left")

    def __init__(self, code: CodeType) -> None:
        self._left = code.co_positions()
        self._decoded: list[tuple[int | None, int | None, int | None, int | None]] = []

    def at(self, index: int) -> tuple[int | None, int | None, int | None, int | None]:
        """The (line, end line, column, end column) of the instruction at ``index``."""
        if index >= len(self._decoded):
            self._decoded += itertools.islice(self._left, index + 1 - len(self._decoded))
        return self._decoded[index] if index < len(self._decoded) else (None, None, None, None)


@functools.lru_cache(maxsize=4)  # a cache, not state: the code objects of the batch being imported
def _positions(code: CodeType) -> _Positions:
    return _Positions(code)


def _scan(lines: list[str], start: int, end: int, start_col: int, end_col: int) -> Iterator[tuple[str, int]]:
    """``name=`` at depth one of the span's first bracket group after the callee, in order."""
    span = lines[start - 1 : end]
    # Columns count UTF-8 bytes; the end is cut first, in case the span is one line.
    span[-1] = span[-1].encode("utf-8")[:end_col].decode("utf-8", "replace")
    span[0] = span[0].encode("utf-8")[start_col:].decode("utf-8", "replace")
    text = "".join(span)
    depth, line, counted = 0, start, 0
    for match in _TOKENS.finditer(text):
        kind = match.lastgroup
        if kind == "open":
            depth += 1
        elif kind == "close":
            depth -= 1
        elif kind == "equals" and depth == 1:
            # Not ``<=``, ``!=`` or ``:=``: a name, then only spaces, before the sign.
            name = _NAME_BEFORE.search(text, max(0, match.start() - 200), match.start())
            if name is not None:
                line += text.count("\n", counted, name.start())
                counted = name.start()
                yield name.group(1), line
