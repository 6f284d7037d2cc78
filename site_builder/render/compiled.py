"""Compiled templates kept between runs: Jinja's bytecode of each template, in the user's cache
folder (``$XDG_CACHE_HOME/site-builder/templates``, by default ``~/.cache/site-builder/templates``).

Compiling the package's templates takes a process about 80 ms, more than the rest of a small
incremental build; every ``site-builder`` command that renders paid it again. Jinja checks a
kept bytecode against the template's source (a checksum) and the Python version, so an edited
template, or another Python, compiles afresh: what is kept can make a build faster, never
different. A file is written whole under a temporary name and renamed (two builds may keep the
same template at once), and a file that cannot be read is a miss, not an error. A folder that
cannot be made (a read-only home) means no cache, as before."""

from __future__ import annotations

import contextlib
import os
import pickle
import tempfile
from pathlib import Path

import jinja2
from jinja2.bccache import Bucket


class KeptBytecode(jinja2.FileSystemBytecodeCache):
    """Jinja's file cache, written atomically and read forgivingly on every Jinja 3.1."""

    def load_bytecode(self, bucket: Bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except (OSError, EOFError, ValueError, TypeError, pickle.UnpicklingError):  # torn or foreign: a miss
            bucket.reset()

    def dump_bytecode(self, bucket: Bucket) -> None:
        target = Path(self.directory, self.pattern % bucket.key)
        with contextlib.suppress(OSError):
            fd, temporary = tempfile.mkstemp(dir=self.directory, prefix=target.name, suffix=".tmp")
            try:
                with os.fdopen(fd, "wb") as out:
                    bucket.write_bytecode(out)
                os.replace(temporary, target)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.remove(temporary)
                raise


def kept_bytecode() -> KeptBytecode | None:
    """The cache of compiled templates in the user's cache folder, or None when it cannot be made."""
    home = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    folder = Path(home, "site-builder", "templates")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return KeptBytecode(str(folder))
