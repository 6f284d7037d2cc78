"""Guards a fixture worker installs before calling the author's code.

A fixture must be deterministic and local: it may not open a network
connection, and it may write only inside its own temporary directory (the
worker's ``tempfile.gettempdir()``). Both are
enforced with audit hooks (PEP 578) in the worker process, which is thrown
away afterwards: the forbidden call raises ``PermissionError`` and is also
recorded, so a fixture that swallows the exception is still reported.
"""

from __future__ import annotations

import ipaddress
import os
import sys
from pathlib import Path

_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
# Audit events that change the file system: (path argument, its dir_fd argument or None).
_PATH_EVENTS: dict[str, tuple[tuple[int, int | None], ...]] = {
    "os.mkdir": ((0, 2),),
    "os.remove": ((0, 1),),
    "os.rmdir": ((0, 1),),
    "os.rename": ((0, 2), (1, 3)),
    "os.replace": ((0, 2), (1, 3)),
    "os.truncate": ((0, None),),
    "os.symlink": ((1, 2),),
    "os.link": ((1, 3),),
    "os.chmod": ((0, 2),),
    "os.chown": ((0, 3),),
    "os.utime": ((0, 3),),
    "shutil.rmtree": ((0, 1),),
    "shutil.copyfile": ((1, None),),
    "shutil.move": ((0, None), (1, None)),
}
_NETWORK_EVENTS = ("socket.connect", "socket.sendto", "socket.sendmsg")
_LOOKUP_EVENTS = ("socket.getaddrinfo", "socket.gethostbyname", "socket.gethostbyname_ex")
_HARMLESS = ("/dev/null", "/dev/stdout", "/dev/stderr")


class Guards:
    """What the worker refused, in the order it happened."""

    def __init__(self, scratch: str) -> None:
        self.violations: list[str] = []
        self._temp = Path(scratch).resolve()

    def install(self) -> None:
        """Register the audit hook (for the rest of this process's life)."""
        sys.dont_write_bytecode = True  # imports must not count as writes
        sys.addaudithook(self._hook)

    def _hook(self, event: str, args: tuple[object, ...]) -> None:
        problem = self._judge(event, args)
        if problem is not None:
            if problem not in self.violations:
                self.violations.append(problem)
            raise PermissionError(f"site_builder fixture guard: {problem}")

    def _judge(self, event: str, args: tuple[object, ...]) -> str | None:
        # Each event is of one kind (the sets are disjoint): its kind says how to judge it.
        if event in _NETWORK_EVENTS:
            return _connection_message(args)
        if event in _LOOKUP_EVENTS:
            return _lookup_message(args)
        if event == "open" and _writes(args):
            return self._outside(args[0], "write to")
        if event in _PATH_EVENTS:
            return self._changed_path(_PATH_EVENTS[event], args)
        if event == "sqlite3.connect" and args and str(args[0]) != ":memory:":
            return self._outside(args[0], "open a database at")
        return None

    def _changed_path(
        self, places: tuple[tuple[int, int | None], ...], args: tuple[object, ...]
    ) -> str | None:
        """The first path outside the temporary directory among the arguments at ``places``
        (path, its dir_fd or None) of an event that changes the file system."""
        for index, fd_index in places:
            dir_fd = args[fd_index] if fd_index is not None and fd_index < len(args) else None
            if index < len(args) and (problem := self._outside(args[index], "change", dir_fd)):
                return problem
        return None

    def _outside(self, path: object, verb: str, dir_fd: object = None) -> str | None:
        if not isinstance(path, str | bytes | os.PathLike):
            return None
        text = os.fsdecode(path)
        if text in _HARMLESS or text.startswith("file::memory:"):
            return None
        base = _folder_of(dir_fd) if isinstance(dir_fd, int) else Path.cwd()
        if base is None:
            return None  # relative to a descriptor this system cannot name: no verdict
        resolved = (base / text).resolve()
        if resolved.is_relative_to(self._temp):
            return None
        return f"tried to {verb} {text!r}, outside its temporary directory (tempfile.gettempdir())"


def _connection_message(args: tuple[object, ...]) -> str | None:
    """A connection to a network address; None for a local (AF_UNIX) path."""
    address = args[1] if len(args) > 1 else None
    if isinstance(address, str | bytes):  # AF_UNIX paths are local
        return None
    return f"tried to open a network connection to {address!r} (refused: fixtures run offline)"


def _lookup_message(args: tuple[object, ...]) -> str:
    host = args[0].decode() if isinstance(args[0], bytes) else args[0]
    try:
        ipaddress.ip_address(str(host))
    except ValueError:
        return f"tried to resolve {host!r} for a network connection (refused: fixtures run offline)"
    port = f" port {args[1]}" if len(args) > 1 and args[1] is not None else ""
    return f"tried to open a network connection to {host!r}{port} (refused: fixtures run offline)"


def _folder_of(fd: int) -> Path | None:
    """The folder an open directory descriptor names (Linux), e.g. inside shutil.rmtree."""
    try:
        return Path(os.readlink(f"/proc/self/fd/{fd}"))
    except OSError:
        return None


def _writes(args: tuple[object, ...]) -> bool:
    _path, mode, flags = (*args, None, None, None)[:3]
    if isinstance(mode, str) and any(c in mode for c in "wax+"):
        return True
    return isinstance(flags, int) and bool(flags & _WRITE_FLAGS)
