"""A stand-in for the web, for the pages about ``check-sources``: a server on 127.0.0.1 that
answers as a proxy would for made-up hosts (``http://docs.example/...``), so the command,
told of it by ``http_proxy``, asks it for every source and nothing leaves the machine. It
counts what it was asked. Nothing here is shown to readers."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass(frozen=True)
class Page:
    """An answer: status, headers, body."""

    status: int = 200
    body: str = ""
    headers: tuple[tuple[str, str], ...] = (("Content-Type", "text/html; charset=utf-8"),)


@dataclass
class Web:
    """The running stand-in: the proxy address to give ``http_proxy``, and the requests seen."""

    proxy: str = ""
    asked: list[str] = field(default_factory=list)

    def environment(self) -> dict[str, str]:
        """The variables that send a command's requests here, whatever the machine's own say."""
        return {"http_proxy": self.proxy, "no_proxy": "", "NO_PROXY": ""}


class _Quiet(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: object, client_address: object) -> None:
        pass  # a client that hangs up early is not news


@contextmanager
def web(pages: Mapping[str, Page]) -> Iterator[Web]:
    """The stand-in, answering ``pages`` (by absolute URL; any other: 404) while the block runs."""
    running = Web()
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:
            with lock:
                running.asked.append(self.path)
            page = pages.get(self.path, Page(404, "<p>Not found</p>"))
            body = page.body.encode("utf-8")
            self.send_response(page.status)
            for name, value in page.headers:
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = _Quiet(("127.0.0.1", 0), Handler)
    running.proxy = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield running
    finally:
        server.shutdown()
        server.server_close()
