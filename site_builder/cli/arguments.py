"""The ``site-builder`` command line: its commands, their arguments, and what a number or a
port given to them must be. What each command does is :mod:`site_builder.cli`'s.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, cast

from site_builder import __version__
from site_builder.cli.shards import add_options as add_shard_options
from site_builder.errors import did_you_mean
from site_builder.pipeline.cache.store import CACHE_DIR
from site_builder.sources.policy import TIMEOUT
from site_builder.starter.commands import add_commands

LOCKING = ("build", "validate", "revisions", "serve", "new", "check-sources")
"""The commands that use the site's cache or staging folders, one at a time per site
(:mod:`site_builder.pipeline.site_lock`): they wait for one another, or fail with ``--no-wait``."""


class Parser(argparse.ArgumentParser):
    """argparse's parser, knowing its option strings (``--drafts``, ``-h``) and its commands,
    so that a mistyped one is answered with the one meant."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.option_strings: list[str] = []
        """Every option string this parser takes (set first: ``-h`` is added by argparse's own init)."""
        super().__init__(*args, **kwargs)

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        action = super().add_argument(*args, **kwargs)
        self.option_strings.extend(action.option_strings)
        return action

    def parse(self, argv: Sequence[str], commands: Mapping[str, Parser]) -> argparse.Namespace:
        """``parse_args``, with "did you mean" for an unknown command or option: the command is
        the first word that is not an option (the top level's take no value)."""
        given = next((word for word in argv if not word.startswith("-")), None)
        if given is not None and given not in commands:
            known = ", ".join(commands)
            self.error(f"unknown command {given!r}{did_you_mean(given, commands) or f' (commands: {known})'}")
        args, extra = self.parse_known_args(argv)
        if not extra:
            return args
        command = commands[args.command]
        options = [word.split("=", 1)[0] for word in extra if word.startswith("-")]
        if options:
            meant = did_you_mean(options[0], command.option_strings + self.option_strings)
            command.error(f"unrecognized option {options[0]!r}{meant}")
        command.error(f"unrecognized arguments: {' '.join(extra)}")


def command_parser(handlers: Mapping[str, object]) -> tuple[Parser, dict[str, Parser]]:
    """Every command with its arguments, and each command's own parser; ``handlers``: the
    function that runs each command (``init`` and ``new`` bring their own)."""
    parser = Parser(prog="site-builder", description="Build a site of verified articles.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    # Each command's parser is a Parser too (argparse makes them of the top level's class).
    commands = cast(
        "argparse._SubParsersAction[argparse.ArgumentParser]",
        parser.add_subparsers(dest="command", required=True, metavar="COMMAND"),
    )

    validate = _command(
        commands,
        "validate",
        "check every revision and run every fixture; write nothing",
        handlers["validate"],
    )
    _formats(validate)

    verify = _command(commands, "verify", "run fixtures and print their results as JSON", handlers["verify"])
    verify.add_argument("ids", nargs="*", metavar="ID", help="fixture ids MODULE:FUNCTION (default: all)")
    verify.add_argument(
        "--repeat",
        type=_number,
        default=1,
        metavar="N",
        help="run each fixture N times and report any whose output differs",
    )

    build = _command(
        commands, "build", "validate, run fixtures, render and write the site atomically", handlers["build"]
    )
    build.add_argument("--out", type=Path, metavar="DIR", help="output folder (default: output_dir setting)")
    build.add_argument("--jobs", type=_number, metavar="N", help="worker processes (default: one per core)")
    for command in (validate, build):
        add_shard_options(command)

    serve = _command(
        commands, "serve", "build, serve on 127.0.0.1, rebuild and reload on change", handlers["serve"]
    )
    serve.add_argument(
        "--port", type=_port_number, default=8000, metavar="P", help="port (default 8000; 0: any free port)"
    )
    serve.add_argument(
        "--host",
        default="127.0.0.1",
        metavar="H",
        help="address to listen on (default 127.0.0.1, this machine only; 0.0.0.0: every address, "
        "to open the site from a phone on the same network)",
    )
    serve.set_defaults(site=False)  # it reads the site itself, once Ctrl-C stops it cleanly

    revisions = _command(
        commands, "revisions", "print the revisions as JSON for importers", handlers["revisions"]
    )
    revisions.add_argument("--slug", action="append", metavar="S", help="only this slug (repeatable)")
    revisions.add_argument(
        "--indent", type=int, default=2, metavar="N", help="indent (0: one line; default 2)"
    )
    revisions.add_argument("--latest", action="store_true", help="only the latest revision of each article")
    check_sources = _command(
        commands,
        "check-sources",
        "ask every source of the latest revisions whether it still answers and holds its quote",
        handlers["check-sources"],
    )
    _formats(check_sources)
    _source_options(check_sources)
    no_cache = {  # what --no-cache means differs: only build writes the cache; revisions runs no fixture
        build: f"neither read nor write {CACHE_DIR}/: load every batch, run every fixture, render every page",
        validate: f"do not read {CACHE_DIR}/ (validate writes it only with --shard): load every batch, "
        "run every fixture",
        revisions: f"do not read {CACHE_DIR}/ (revisions never writes it): load every batch",
    }
    for command, help_ in no_cache.items():
        command.add_argument("--no-cache", action="store_true", help=help_)
    for command in (validate, build, serve, revisions):  # what a build publishes
        command.add_argument("--drafts", action="store_true", help="include drafts, marked")
        command.add_argument("--future", action="store_true", help="include scheduled revisions, marked")
    add_commands(commands, _command)
    for name in LOCKING:
        commands.choices[name].add_argument(
            "--no-wait",
            action="store_true",
            help="when another site-builder command is running on this site, fail (exit 2) "
            "instead of waiting for it",
        )
    return parser, {name: sub for name, sub in commands.choices.items() if isinstance(sub, Parser)}


def _command(
    commands: argparse._SubParsersAction[argparse.ArgumentParser], name: str, help_: str, handler: object
) -> argparse.ArgumentParser:
    sub = commands.add_parser(name, help=help_, description=help_)
    sub.add_argument(
        "--root",
        type=Path,
        metavar="DIR",
        help="site root (default: nearest pyproject.toml with [tool.site_builder] upward)",
    )
    sub.set_defaults(handler=handler, site=True)
    return sub


def _formats(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--format",
        choices=("text", "json", "github"),
        default="text",
        help="text on stderr (default), or json / GitHub annotations on stdout",
    )


def _number(text: str, low: int = 1, high: int | None = None) -> int:
    value = int(text)
    if value < low or (high is not None and value > high):
        raise argparse.ArgumentTypeError(
            f"must be {low} to {high}" if high is not None else f"must be {low} or more"
        )
    return value


def _port_number(text: str) -> int:
    return _number(text, 0, 65535)


def _source_options(command: argparse.ArgumentParser) -> None:
    """The options of ``check-sources`` besides ``--root``, ``--format`` and ``--no-wait``."""
    command.add_argument(
        "--timeout",
        type=_seconds,
        default=TIMEOUT,
        metavar="S",
        help=f"seconds to wait to connect, and for each read of an answer (default {TIMEOUT:g})",
    )
    command.add_argument("--drafts", action="store_true", help="check the sources of drafts too")
    command.add_argument("--future", action="store_true", help="check the sources of scheduled revisions too")
    command.set_defaults(no_cache=False)  # it reads the build's cache as revisions does


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError("must be more than 0 seconds")
    return value
