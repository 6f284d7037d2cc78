"""What stopped a batch's import, said as the author needs it: with the name they meant.

A misspelled helper (``paragrpah``), a name the batch forgot to import, ``from
site_builder import paragrpah`` or a misspelled keyword of a function the batch calls
(its own: the helpers and ``Source`` take any call and report a wrong one as a problem)
each end the import with a Python exception. Its message gets
one suggestion, computed from what the failing line could see (its frame's names, the
builtins) and the public names of :mod:`site_builder`; a suggestion Python itself added
to the message is dropped, so there is never a second one.
"""

from __future__ import annotations

import builtins
import inspect
import re
import sys
from types import FrameType, TracebackType

import site_builder
from site_builder.errors import closest, did_you_mean

_PYTHONS_OWN = re.compile(r"\. Did you (mean|forget to import)[^?]*\?$")
_CANNOT_IMPORT = re.compile(r"^cannot import name '(?P<name>[^']+)' from '(?P<module>[^']+)'")
_WHERE_FROM = re.compile(r" \((/|[A-Za-z]:\\|unknown location)[^()]*\)$")
_INIT = re.compile(r"^([\w.]+)\.__init__\(\)")
_KEYWORD = re.compile(r"^(?P<call>[\w.]+)\(\) got an unexpected keyword argument '(?P<name>\w+)'")


def import_message(exc: BaseException) -> str:
    """``TYPE: message`` for an exception that ended a batch's import, with one suggestion."""
    text = _WHERE_FROM.sub("", _PYTHONS_OWN.sub("", str(exc)))  # the path is this machine's
    if isinstance(exc, TypeError):  # a class is called as the author wrote it: Source(...)
        text = _INIT.sub(r"\1()", text)
    return f"{type(exc).__name__}: {text}{_hint(exc, _innermost(exc.__traceback__))}"


def _hint(exc: BaseException, frame: FrameType | None) -> str:
    if isinstance(exc, NameError) and not isinstance(exc, UnboundLocalError) and exc.name:
        return _name_hint(exc.name, frame)
    if isinstance(exc, ImportError):
        return _import_hint(exc)
    if isinstance(exc, AttributeError) and exc.name and exc.obj is not None:
        return did_you_mean(exc.name, _public(exc.obj))
    if isinstance(exc, TypeError) and (found := _KEYWORD.match(str(exc))):
        return _keyword_hint(found["call"], found["name"], frame)
    return ""


def _import_hint(exc: ImportError) -> str:
    """A name a module that exists does not have: the closest public one it does."""
    if isinstance(exc, ModuleNotFoundError):
        return ""
    found = _CANNOT_IMPORT.match(str(exc))
    module = sys.modules.get(found["module"]) if found else None
    return did_you_mean(found["name"], _public(module)) if found and module else ""


def _name_hint(name: str, frame: FrameType | None) -> str:
    """A name the line could not see: the closest one it could, or the public name of
    :mod:`site_builder` the batch forgot to import."""
    visible = {*vars(builtins), *(frame.f_globals if frame else ()), *(frame.f_locals if frame else ())}
    if name in site_builder.__all__:
        return f"; import it: from site_builder import {name}"
    found = closest(name, {n for n in visible if not n.startswith("__")} | set(site_builder.__all__))
    if found is None:
        return ""
    missing = found not in visible
    return f"; did you mean {found!r}?" + (
        f" (import it: from site_builder import {found})" if missing else ""
    )


def _keyword_hint(call: str, name: str, frame: FrameType | None) -> str:
    """The keyword the called helper (or class) takes that is closest to ``name``."""
    function = _resolve(call.removesuffix(".__init__"), frame)
    try:
        parameters = inspect.signature(function).parameters.values() if callable(function) else ()
    except (TypeError, ValueError):
        return ""
    names = [p.name for p in parameters if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    if not names:
        return ""
    found = closest(name, names)
    if found is not None:
        return f"; did you mean {found!r}?"
    return f"; {call.removesuffix('.__init__')}() takes {', '.join(names)}"


def _resolve(dotted: str, frame: FrameType | None) -> object:
    """``Source`` or ``module.helper`` as the failing line saw it (else as :mod:`site_builder` has it)."""
    first, *rest = dotted.split(".")
    scope = {**(frame.f_globals if frame else {}), **(frame.f_locals if frame else {})}
    value = scope.get(first, getattr(site_builder, first, None) if first in site_builder.__all__ else None)
    for part in rest:
        value = getattr(value, part, None)
    return value


def _public(holder: object) -> list[str]:
    """The names a module or object offers: its ``__all__``, else those not starting with ``_``."""
    names = getattr(holder, "__all__", None)
    if isinstance(names, list | tuple) and all(isinstance(n, str) for n in names):
        return list(names)
    return [n for n in dir(holder) if not n.startswith("_")]


def _innermost(tb: TracebackType | None) -> FrameType | None:
    """The frame the exception was raised in: where the name or the keyword was written."""
    frame = None
    while tb is not None:
        frame, tb = tb.tb_frame, tb.tb_next
    return frame
