"""The ``init`` and ``new`` commands: their arguments, the call, and what they print.

Like the rest of the command line, they print messages on stderr and exit 2 (by
raising :class:`~site_builder.errors.UsageError`) for what the command line got wrong.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

from site_builder.errors import UsageError
from site_builder.language.english import count
from site_builder.settings.project import Project
from site_builder.starter.origin import origin
from site_builder.starter.site import LANGUAGES, write_starter

if TYPE_CHECKING:  # argparse's subparsers type is generic only to type checkers
    Commands: TypeAlias = argparse._SubParsersAction[argparse.ArgumentParser]
    SiteCommand: TypeAlias = Callable[[Commands, str, str, object], argparse.ArgumentParser]
    """How the CLI adds a command that reads a site (with ``--root``)."""


def add_commands(commands: Commands, site_command: SiteCommand) -> None:
    """Add ``init`` (which makes a site, so reads none) and ``new`` (which adds to one)."""
    init_help = "write a starter site that builds at once, with a GitHub Actions workflow"
    init = commands.add_parser("init", help=init_help, description=init_help)
    init.add_argument("dir", nargs="?", type=Path, default=Path("."), metavar="DIR", help="default: .")
    init.add_argument(
        "--lang", choices=LANGUAGES, default="en", help="the starter article's and the site's language"
    )
    # Every command takes --root; for init it is another way to name DIR.
    init.add_argument("--root", type=Path, metavar="DIR", help="the same as DIR")
    init.set_defaults(handler=_init, site=False)

    new = site_command(commands, "new", "add a revision skeleton with a fixture stub to write", _new)
    new.add_argument("slug", metavar="SLUG", help="the new article's slug: 3 to 120 of a-z, 0-9 and '-'")
    new.add_argument(
        "--batch",
        metavar="NAME",
        help="append it to the existing batch articles/NAME.py (default: a new batch module)",
    )


def _init(args: argparse.Namespace) -> int:
    folder: Path = args.dir if args.root is None else args.root
    if args.root is not None and args.dir != Path("."):
        raise UsageError("give the folder once: DIR or --root DIR")
    installed = origin()
    for path in write_starter(folder, args.lang, installed.requirement):
        _say(f"wrote {path}")
    if installed.note:
        _say(f"note: {installed.note}")
    steps = [] if folder.resolve() == Path.cwd().resolve() else [f"cd {shlex.quote(str(folder))}"]
    steps += ["site-builder build", "site-builder serve"]
    _say("next:\n" + "\n".join(f"  {step}" for step in steps))
    return 0


def _new(args: argparse.Namespace, project: Project) -> int:
    from site_builder.starter.skeleton import add_revision  # loads the site: only when asked to

    added = add_revision(project, args.slug, args.batch)
    where, settings = added.path.relative_to(project.root).as_posix(), project.settings
    _say(f"{'wrote' if added.created else 'appended to'} {where}: a skeleton of {args.slug}")
    _say(
        f"{where}:{added.fixture_line}: fixture {added.fixture_id}: a stub that fails "
        "(writeThisFixture = false) until you write it\n"
        "next: make the fixture compute what the article shows, write the body "
        f"({settings.min_body_chars:,} to {settings.max_body_chars:,} characters of text) "
        f"and at least {count(settings.min_sources, 'real source')}, then run:\n  site-builder validate"
    )
    return 0


def _say(text: str) -> None:
    print(text, file=sys.stderr)
