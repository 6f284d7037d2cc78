"""The command line: ``site-builder COMMAND`` (:func:`run`, the console script; :func:`main`,
the same in-process), its arguments (``arguments``), what each command calls and prints
(``commands``) and how it prints (``printing``)."""

from site_builder.cli.commands import main, run

__all__ = ["main", "run"]
