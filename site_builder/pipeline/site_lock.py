"""One command at a time on a site: the lock a command holds while it uses the site's cache
(``.site-builder-cache/``) or a build's staging folders.

``build`` (``--no-cache`` too: it still stages beside its output), each build of ``serve``,
``validate`` and ``revisions`` when they read the cache, the pytest plugin (which reads it as
``validate`` does), and ``new`` (which reads it for the slugs taken) hold it; ``verify`` and
``init`` use neither and take none.
Without it, two builds of one site started together wrote into the same staging folder: one
failed, or published pages the other had half written.

The lock is ``flock`` on ``.site-builder-cache/lock``: one per site root, whatever ``--out``
says, since every output folder of a site shares its cache. The kernel releases it when its
process ends, however it ends, so a killed command never leaves the site locked. The holder
writes its pid into the file, for a waiting command to name.

Releasing it removes the file, and the cache folder when nothing else is in it, so a command
that writes no cache (``validate`` of a site never built, ``build --no-cache``) leaves none
behind. A waiter whose lock turns out to be on a removed file takes the lock again, on the file
now there. Where no lock can be made (a cache folder that cannot be written, a file system
without locks), a command runs unlocked, as before the lock existed.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from site_builder.errors import UsageError
from site_builder.pipeline.cache.store import CACHE_DIR

LOCK_FILE = "lock"
"""The lock's file in the cache folder."""
WAITING = "waiting for another site-builder command on this site (pid {holder})"
"""What a command says, once, when it must wait for the lock."""
PID_TRIES = 100
"""How many times, :data:`PID_POLL` apart, a waiter reads the holder's pid before it names
none: the holder writes it a moment after it took the lock."""
PID_POLL = 0.01
OPEN_TRIES = 100
"""How many times a command opens the lock file while another removes its folder."""
WAIT_POLL = 0.05
"""Seconds between two tries of a waiting command. It tries rather than blocks in ``flock``:
a stop signal the kernel hands to another of its threads (``serve`` has a watcher) would not
interrupt a blocked ``flock`` in the main thread, and Python runs handlers only there; a
sleep ends, and the handler runs."""


@dataclass(frozen=True, slots=True, kw_only=True)
class SiteLock:
    """The lock on one site, held until the end of a ``with`` block on it (once)."""

    path: Path
    """The lock file."""
    fd: int | None
    """The lock file, open and locked; None when no lock could be made."""

    @classmethod
    def take(cls, root: Path, *, wait: bool = True, say: Callable[[str], None]) -> SiteLock:
        """The lock on the site at ``root``. While another command holds it, wait, after
        saying so once through ``say``; or, not ``wait``, raise a UsageError naming it."""
        path = root / CACHE_DIR / LOCK_FILE
        said = False
        while True:
            fd = _open(path)
            if fd is None:
                return cls(path=path, fd=None)
            try:
                if (holder := _holder(fd)) is not None:
                    if not wait:
                        raise UsageError(
                            f"another site-builder command is running on this site (pid {holder}); "
                            "without --no-wait this one would wait for it"
                        )
                    if not said:
                        say(WAITING.format(holder=holder))
                    said = True
                    _wait_for(fd)
                if _current(fd, path):
                    _sign(fd)
                    return cls(path=path, fd=fd)
            except BaseException:  # a stop while waiting, too: the file is closed, never held
                os.close(fd)
                raise
            os.close(fd)  # removed by the command that held it: take the file now there

    def __enter__(self) -> SiteLock:
        return self

    def __exit__(self, *_exc: object) -> None:
        if self.fd is None:
            return
        try:
            if _current(self.fd, self.path):  # removed while held, so no one takes it meanwhile
                self.path.unlink()
        except OSError:
            pass
        finally:
            os.close(self.fd)
        with contextlib.suppress(OSError):
            self.path.parent.rmdir()  # only when nothing else is in the cache folder


def _open(path: Path) -> int | None:
    """The lock file, open (made, with its folder, when missing); None when it cannot be."""
    for _ in range(OPEN_TRIES):
        try:
            path.parent.mkdir(exist_ok=True)
            return os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except FileNotFoundError:  # the folder was removed meanwhile, by a command releasing the lock
            continue
        except OSError:
            return None
    return None


def _wait_for(fd: int) -> None:
    """Take the lock on ``fd``, trying every :data:`WAIT_POLL` seconds until it is free."""
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            time.sleep(WAIT_POLL)
        else:
            return


def _holder(fd: int) -> str | None:
    """None once this process holds the lock on ``fd`` (or none can be held there); else the
    pid of the process that does."""
    for _ in range(PID_TRIES):
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            pass
        except OSError:  # a file system without locks: the command runs unlocked
            return None
        else:
            return None
        written = os.pread(fd, 32, 0)
        if written.endswith(b"\n") and written[:-1].isdigit():
            return written[:-1].decode()
        time.sleep(PID_POLL)
    return "unknown"


def _current(fd: int, path: Path) -> bool:
    """Whether ``fd`` is the file at ``path`` still (not one removed since it was opened)."""
    try:
        there = os.stat(path)
    except OSError:
        return False
    held = os.fstat(fd)
    return (there.st_dev, there.st_ino) == (held.st_dev, held.st_ino)


def _sign(fd: int) -> None:
    """Write this process's pid into the lock file, for a waiter to name."""
    with contextlib.suppress(OSError):  # a full disk: waiters say "pid unknown", nothing worse
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
