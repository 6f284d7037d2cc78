"""Child processes that cannot outlive the command that started them.

A build killed with SIGKILL cannot clean up after itself. Its fixture workers
and its search indexer would go on running, and the indexer would go on
writing into a staging folder the next build is trying to remove. On Linux the
kernel can kill a child when its parent dies (``PR_SET_PDEATHSIG``); elsewhere
this is a no-op and the next build's cleanup retries instead.
"""

from __future__ import annotations

import ctypes
import gc
import multiprocessing.forkserver
import multiprocessing.util
import os
import select
import shutil
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable

_PR_SET_PDEATHSIG = 1
_SOCKET_PATH_MAX = 104
"""The shortest limit on a Unix socket's path among the systems Python runs on (macOS;
Linux allows 108)."""
_SOCKET_NAME = len("/pymp-") + 8 + len("/listener-") + 8
"""What multiprocessing adds to the folder for a socket's path: two names with 8 random letters."""


def die_with_parent() -> None:
    """Ask the kernel to SIGKILL this process when its parent exits."""
    if sys.platform != "linux":
        return
    parent = os.getppid()
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the parent died before the request was made
        os._exit(1)


BACKGROUND_NICENESS = 10
"""How much less CPU priority a background process takes (``nice``)."""


def die_with_parent_in_background() -> None:
    """:func:`die_with_parent`, at a lower CPU priority: the cores go first to what a person
    waits for (``serve``'s pages, the browser showing them)."""
    os.nice(BACKGROUND_NICENESS)
    die_with_parent()


PreExec = Callable[[], None]
"""A function a forked child runs before it executes the command."""


def bound_to_parent(command: list[str], *, background: bool = False) -> tuple[list[str], PreExec | None]:
    """``command`` made to die with this process (and to run at a lower CPU priority if
    ``background``), and what a fork must call before the exec for that, if anything.

    On Linux with util-linux's ``setpriv``, the command runs through ``setpriv --pdeathsig
    KILL`` (then ``nice``): with no Python to run between the fork and the exec,
    :mod:`subprocess` starts it with ``vfork``, which neither copies this process's page
    tables nor leaves each of its pages to fault once more when it next writes there: a start
    from a process of 212 MB costs 2.9 ms of CPU instead of 34 ms and 10,600 faults, from one
    of 458 MB 5.1 ms instead of 69 ms (``bench/spawn_cost.py``). The parent-death signal
    survives the execs. Unlike :func:`die_with_parent`,
    ``setpriv`` cannot see a parent that died before it asked: the next build's cleanup
    ends such an indexer. Without ``setpriv``, a fork calls the functions above."""
    setpriv = shutil.which("setpriv") if sys.platform == "linux" else None
    nice = shutil.which("nice")
    if setpriv is None or (background and nice is None):
        return command, die_with_parent_in_background if background else die_with_parent
    lower = [nice, "-n", str(BACKGROUND_NICENESS)] if background and nice else []
    return [setpriv, "--pdeathsig", "KILL", "--", *lower, *command], None


_SAFE_PATH = "PYTHONSAFEPATH"
_SAFE_PATH_OURS = "SITE_BUILDER_SAFE_PATH"
"""Set in a forkserver's environment when :func:`start_forkserver` (not the user) set
``PYTHONSAFEPATH`` there, so that each worker takes it out again."""


def start_forkserver(preload: list[str]) -> None:
    """Start multiprocessing's forkserver, importing ``preload``, unless it runs already.

    The forkserver is ``python -c ...``, whose ``sys.path`` begins with the current folder:
    run from a folder that holds a ``site_builder/`` (a clone of this repository), every
    worker would import that folder's package, not the one this process runs. Python 3.11
    drops the ``sys.path`` multiprocessing hands it, so the forkserver starts with
    ``PYTHONSAFEPATH`` (nothing put before the installed packages) in its environment alone."""
    multiprocessing.forkserver.set_forkserver_preload(preload)
    if os.environ.get(_SAFE_PATH):
        multiprocessing.forkserver.ensure_running()
        return
    os.environ[_SAFE_PATH] = os.environ[_SAFE_PATH_OURS] = "1"
    try:
        multiprocessing.forkserver.ensure_running()
    finally:
        del os.environ[_SAFE_PATH], os.environ[_SAFE_PATH_OURS]


def start_worker(owner: int | None = None) -> None:
    """Set up a worker process: it dies with its parent (and with ``owner``, the process
    whose pool it serves, when a forkserver is its parent) and leaves stopping to it.

    A terminal sends Ctrl-C to every process of its foreground group, workers too; the
    command stops its workers itself, so an interrupted worker would only print a
    traceback. SIGTERM gets its default back (the command's own handler is inherited
    by a fork): the pool ends a worker with it.
    """
    die_with_parent()
    if os.environ.pop(_SAFE_PATH_OURS, None):  # a fixture's own `python` runs as the user's would
        os.environ.pop(_SAFE_PATH, None)
    gc.enable()  # a fork of a command's main process, which runs without it (site_builder.runtime.collector)
    if owner is not None and owner != os.getppid():
        _die_with(owner)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _die_with(owner: int) -> None:
    """End this process when ``owner`` ends. A forkserver's worker holds the forkserver's
    lifeline, so after a SIGKILL of the owner neither would ever end of itself: the worker
    waits on the owner (a pidfd; where there is none, a poll each second) in a thread."""
    try:
        handle: int | None = os.pidfd_open(owner)
    except ProcessLookupError:  # gone already
        os._exit(1)
    except (AttributeError, OSError):  # no pidfd on this system
        handle = None
    threading.Thread(target=_watch, args=(owner, handle), daemon=True, name="site-builder-owner").start()


def _watch(owner: int, handle: int | None) -> None:
    if handle is not None:
        select.select([handle], [], [])  # readable once the owner has ended
    else:
        while _alive(owner):
            time.sleep(1)
    os._exit(1)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process now has the number: ours is gone
        return False
    return True


def short_socket_folder() -> None:
    """Make sure multiprocessing's folder for its sockets (a forkserver listens on one) has
    a path short enough for a Unix socket: under a long ``TMPDIR`` (a test's, a CI
    runner's) the forkserver cannot start ("AF_UNIX path too long"). That folder is made
    once per process and removed at its exit; when ``TMPDIR`` is too long it is made in
    ``/tmp``, as Python 3.12 and newer do themselves."""
    if len(tempfile.gettempdir()) + _SOCKET_NAME <= _SOCKET_PATH_MAX:
        return
    saved = tempfile.tempdir
    tempfile.tempdir = "/tmp"  # only for the socket's folder, removed at exit
    try:
        multiprocessing.util.get_temp_dir()  # made now, under /tmp, and kept for this process
    finally:
        tempfile.tempdir = saved
