"""Where ``serve`` listens: a server bound to a host (a name, an IPv4 or an IPv6 address) and
a port, and what it says once it listens: the URL to open, and for a host that is every
address of the machine, how to reach it from here and from another device.
"""

from __future__ import annotations

import socket
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOCAL_HOST = "127.0.0.1"
"""What ``serve`` binds by default: this machine only."""
_EVERY_ADDRESS = {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}
"""Hosts that bind every address of the machine, and the local address that reaches them."""


class _Server6(ThreadingHTTPServer):
    address_family = socket.AF_INET6


def bound_server(host: str, port: int, handler: Callable[..., BaseHTTPRequestHandler]) -> ThreadingHTTPServer:
    """An HTTP server bound to ``host`` (a name, an IPv4 or an IPv6 address) and ``port``."""
    family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0] if host else socket.AF_INET
    server_class = _Server6 if family == socket.AF_INET6 else ThreadingHTTPServer
    return server_class((host, port), handler)


def listening(host: str, port: int, base_path: str) -> str:
    """What ``serve`` says once it listens: the URL, and for every address how to reach it."""
    said = f"serving on {_url(host, port, base_path)} (Ctrl-C to stop)"
    local = _EVERY_ADDRESS.get(host)
    if local is None:
        return said
    network = _network_address()
    there = _url(network, port, base_path) if network else f"this machine's address, port {port},"
    return (
        f"{said}\n{host or '0.0.0.0'} listens on every network address of this machine: open "
        f"{_url(local, port, base_path)} here, or {there} from another device on the network "
        "(anyone who can reach this machine can see the site)"
    )


def _url(host: str, port: int, base_path: str) -> str:
    return f"http://{f'[{host}]' if ':' in host else host}:{port}{base_path}"


def _network_address() -> str | None:
    """This machine's address on its network, for a phone to open; None when it has none.
    Connecting a UDP socket sends nothing: it only asks the kernel which address it would use."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # a documentation address (RFC 5737); nothing is sent
            address = str(probe.getsockname()[0])
        except OSError:
            return None
    return None if address.startswith("127.") or address == "0.0.0.0" else address
