"""Web servers on loopback for ``check-sources``: each answers from a table of routes and
keeps every request it was sent, so a test can count them, time them and read their headers.
Nothing here reaches beyond 127.0.0.1."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass(frozen=True)
class Reply:
    """One answer: status, headers, body, and seconds to wait before sending it."""

    status: int = 200
    body: bytes = b""
    headers: tuple[tuple[str, str], ...] = (("Content-Type", "text/html; charset=utf-8"),)
    delay: float = 0.0


@dataclass(frozen=True)
class Seen:
    """One request as the server received it."""

    path: str
    """The request target: a path, or an absolute URL when the server stands as a proxy."""
    headers: dict[str, str]
    """Its headers, names in lower case."""
    at: float
    """When it arrived (``time.monotonic()``)."""


Route = Callable[["Seen", int], Reply]
"""The reply to a request, given it and how many requests that path had before it."""


@dataclass
class Web:
    """A running server: its routes, what it was sent, and its address."""

    routes: dict[str, Route]
    port: int = 0
    seen: list[Seen] = field(default_factory=list)
    busy: int = 0
    """Requests being answered right now."""
    most_busy: int = 0
    """The most requests it answered at once."""
    lock: threading.Lock = field(default_factory=threading.Lock)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def sent(self, path: str) -> list[Seen]:
        """The requests for ``path`` (a path, or an absolute URL through a proxy)."""
        return [each for each in self.seen if each.path == path]


def html(text: str, *headers: tuple[str, str]) -> Route:
    """A route answering 200 with ``text`` as an HTML page, and ``headers``."""
    reply = Reply(body=text.encode("utf-8"), headers=(("Content-Type", "text/html; charset=utf-8"), *headers))
    return lambda _seen, _before: reply


def always(reply: Reply) -> Route:
    return lambda _seen, _before: reply


@contextmanager
def serving(routes: dict[str, Route], otherwise: Route | None = None) -> Iterator[Web]:
    """A :class:`Web` on a free port of 127.0.0.1 while the block runs; a path ``routes`` does
    not name is answered by ``otherwise``, or else is a 404."""
    web = Web(routes)

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:
            seen = Seen(self.path, {k.lower(): v for k, v in self.headers.items()}, time.monotonic())
            with web.lock:
                before = len(web.sent(self.path))
                web.seen.append(seen)
                web.busy += 1
                web.most_busy = max(web.most_busy, web.busy)
            route = web.routes.get(self.path, otherwise)
            reply = route(seen, before) if route else Reply(404, b"<p>not here</p>")
            try:
                time.sleep(reply.delay)
                self.send_response(reply.status)
                for name, value in reply.headers:
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(reply.body)))
                self.end_headers()
                self.wfile.write(reply.body)
            except OSError:  # the client gave up (a timeout under test)
                pass
            finally:
                with web.lock:
                    web.busy -= 1

        def log_message(self, *args: object) -> None:
            pass

    server = _Quiet(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    web.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield web
    finally:
        server.shutdown()
        server.server_close()


class _Quiet(ThreadingHTTPServer):
    """A server that keeps a client's hanging up (a reset connection) out of the test's stderr."""

    def handle_error(self, request: object, client_address: object) -> None:
        pass


def pdf(text: str) -> bytes:
    """A one-page PDF that shows ``text`` (ASCII, no parentheses) in Helvetica."""
    stream = f"BT /F1 12 Tf 72 720 Td ({text}) Tj ET".encode("ascii")
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out, offsets = bytearray(b"%PDF-1.4\n"), []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)
