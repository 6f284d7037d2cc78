"""What every body helper's call shares: the URLs and flaws it collects while it renders,
and a call its signature does not take turned into flaws at the author's line instead of
a TypeError that would stop the batch from importing."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping, Sequence
from typing import ParamSpec

from markupsafe import Markup

from site_builder.authoring.escaping import escape_text, forbidden_character, urls_in_html
from site_builder.authoring.markdown import render_inline
from site_builder.authoring.model import Block, CallSite, Chart, Flaw, Verified, call_site
from site_builder.errors import did_you_mean

HelperArgs = ParamSpec("HelperArgs")
"""The parameters of the helper that :func:`forgiving` wraps."""


class Parts:
    """Collects the URLs and flaws of one helper call while it renders."""

    def __init__(self, helper: str, site: CallSite) -> None:
        self.helper, self.site = helper, site
        self.urls: list[str] = []
        self.flaws: list[Flaw] = []

    def flaw(self, rule: str, message: str) -> str:
        self.flaws.append(Flaw(self.site, rule, f"{self.helper}(): {message}"))
        return ""

    def inline(self, value: object, what: str, *, numbers: bool = False) -> str:
        """Render author text: Markdown for ``str``, verbatim for ``Markup``."""
        if isinstance(value, Markup):
            self.urls.extend(urls_in_html(value))
            return str(value)
        if isinstance(value, str):
            if bad := forbidden_character(value):
                # Checked on the raw text: Markdown would turn NUL into U+FFFD silently.
                self.flaw("xml-character", f"{what} contains {bad}")
            rendered = render_inline(value)
            self.urls.extend(rendered.urls)
            return rendered.html
        if numbers and isinstance(value, int | float) and not isinstance(value, bool):
            return escape_text(str(value))
        allowed = "a str, a number or Markup" if numbers else "a str or Markup"
        return self.flaw("helper-type", f"{what} must be {allowed}, not {kind(value)}")

    def items(self, value: object, what: str) -> Sequence[object]:
        if isinstance(value, list | tuple):
            return value
        self.flaw("helper-type", f"{what} must be a list, not {kind(value)}")
        return ()

    def block(self, html: str, verified: Verified | None = None, chart: Chart | None = None) -> Block:
        return Block.make(
            html, self.site, urls=tuple(self.urls), flaws=tuple(self.flaws), verified=verified, chart=chart
        )


def forgiving(helper: Callable[HelperArgs, Block]) -> Callable[HelperArgs, Block]:
    """``helper``, except that a call its signature does not take (a keyword it does not
    have, an argument missing or given twice, one too many) returns an empty block with
    each mistake as a ``helper-arguments`` flaw at the author's line, instead of raising a
    TypeError that would stop the whole batch from importing. Type checkers still see the
    helper's own signature. A call that fits costs nothing more than the call: the
    signature is read only when Python refused the arguments (a TypeError raised before the
    helper's own frame began)."""
    signature = inspect.signature(helper)

    @functools.wraps(helper)
    def call(*args: HelperArgs.args, **kwargs: HelperArgs.kwargs) -> Block:
        try:
            return helper(*args, **kwargs)
        except TypeError as exc:
            if exc.__traceback__ is None or exc.__traceback__.tb_next is not None:
                raise  # raised inside the helper: a bug of ours, not the author's call
            refused = str(exc)
        parts = Parts(helper.__name__, call_site())
        for message in _misfits(signature, args, kwargs) or [refused]:
            parts.flaw("helper-arguments", message)
        return parts.block("")

    return call


def _misfits(signature: inspect.Signature, args: Sequence[object], kwargs: Mapping[str, object]) -> list[str]:
    """What in a call with ``args`` and ``kwargs`` does not fit ``signature``."""
    params = signature.parameters
    positional = [p.name for p in params.values() if p.kind is p.POSITIONAL_OR_KEYWORD]
    found = []
    if len(args) > len(positional):
        found.append(f"takes {count(len(positional), 'argument')}, not {len(args)}")
    given = set(positional[: len(args)])
    found += [_keyword_misfit(name, params, given) for name in kwargs if name not in params or name in given]
    given |= set(kwargs)
    found += [f"missing {p.name!r}" for p in params.values() if p.default is p.empty and p.name not in given]
    return found


def _keyword_misfit(name: str, params: Mapping[str, inspect.Parameter], given: set[str]) -> str:
    """A keyword the helper does not have, or one it was given by position too."""
    if name in given:
        return f"{name!r} is given twice, by position and by keyword"
    close = did_you_mean(name, params)
    return f"unknown keyword {name!r}" + (close or f"; it takes {', '.join(params)}")


def count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def kind(value: object) -> str:
    return "None" if value is None else type(value).__name__
