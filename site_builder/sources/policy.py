"""How patient and how gentle a run of ``check-sources`` is: its timeouts, attempts, waits and
limits, apart from the client that follows them, so the command line can name its defaults
without loading an HTTP library."""

from __future__ import annotations

from dataclasses import dataclass

TIMEOUT = 10.0
"""Seconds to connect, and for each read, unless ``--timeout`` says otherwise."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Policy:
    """How patient and how gentle a run is."""

    timeout: float = TIMEOUT
    """Seconds to connect, and seconds for each read of the answer."""
    attempts: int = 3
    """Requests for one address at most, the first included."""
    backoff: float = 1.0
    """The wait before the second attempt, in seconds; doubled for each one after (with jitter)."""
    longest_wait: float = 60.0
    """A ``Retry-After`` asking for longer is reported, not waited for."""
    per_host: int = 2
    """Connections to one host (scheme, name and port) open at once."""
    redirects: int = 10
    """Redirects followed from one address."""
    largest: int = 10 * 2**20
    """Bytes of an answer read; the rest is not fetched."""
