"""The command line: ``site-builder COMMAND`` (:func:`main`), its arguments (``arguments``),
what each command calls and prints (``commands``) and how it prints (``printing``)."""

from site_builder.cli.commands import main

__all__ = ["main"]
