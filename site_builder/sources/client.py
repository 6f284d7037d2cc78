"""One address asked politely: a user agent naming the tool, timeouts, at most a few
connections to a host at once, redirects followed one by one (a permanent one noted), and
retries with a growing wait that honour the server's ``Retry-After``.

urllib3 carries the requests (connection pools per host, TLS, proxies from the environment);
the retries are written here, because urllib3's sleep for any ``Retry-After`` a server names,
an hour included, and this command must report such a wait rather than hang on it.
"""

from __future__ import annotations

import email.utils
import random
import time
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from http import HTTPStatus
from urllib.parse import urljoin, urlsplit

import urllib3
from urllib3.exceptions import (
    HTTPError,
    NameResolutionError,
    NewConnectionError,
    ProxyError,
    SSLError,
    TimeoutError,
)

from site_builder import __version__
from site_builder.sources.policy import Policy

USER_AGENT = f"site-builder/{__version__} (check-sources)"
"""How the tool names itself to every server it asks."""

REDIRECTS = frozenset({301, 302, 303, 307, 308})
PERMANENT = frozenset({301, 308})
"""Of the redirects, those that tell the author the address has changed for good."""
AGAIN = frozenset({429, 500, 502, 503, 504})
"""Answers worth asking again after a wait: too many requests, or a server's passing trouble."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Answer:
    """What asking an address came to."""

    url: str
    """The address that answered last (after the redirects)."""
    status: int = 0
    """Its HTTP status; 0 when nothing answered."""
    failure: str = ""
    """Why the address does not serve its page (``answers 404 Not Found``); empty when it does."""
    moved: str = ""
    """Where the last permanent redirect led; empty when there was none."""
    body: bytes = b""
    content_type: str = ""
    etag: str = ""
    last_modified: str = ""
    requests: int = 0
    """Requests sent, every redirect and retry counted."""


Sleep = Callable[[float], None]


class Client:
    """Asks addresses, from any number of threads at once, as :class:`Policy` says."""

    def __init__(self, policy: Policy, sleep: Sleep = time.sleep) -> None:
        self.policy, self._sleep = policy, sleep
        self._headers = urllib3.make_headers(user_agent=USER_AGENT, accept_encoding=True)
        self._headers["Accept"] = "text/html,application/xhtml+xml,application/pdf,text/plain;q=0.9,*/*;q=0.8"
        options: dict[str, object] = {"maxsize": policy.per_host, "block": True}
        self._direct = urllib3.PoolManager(**options)  # type: ignore[arg-type]
        proxies = urllib.request.getproxies()  # http_proxy, https_proxy, no_proxy: as curl reads them
        self._proxied: dict[str, urllib3.PoolManager] = {
            scheme: urllib3.ProxyManager(proxies[scheme], **options)  # type: ignore[arg-type]
            for scheme in ("http", "https")
            if scheme in proxies
        }

    def get(self, url: str, conditional: Mapping[str, str]) -> Answer:
        """Ask ``url`` (with ``conditional``'s ``If-None-Match``/``If-Modified-Since``), following
        redirects; a 304 comes back as itself, for the caller's kept copy."""
        moved, sent = "", 0
        for _ in range(self.policy.redirects + 1):
            answer = self._asked(url, conditional)
            sent += answer.requests
            location = answer.moved  # _asked leaves a redirect's target here
            if answer.status not in REDIRECTS or not location:
                return replace(answer, moved=moved, requests=sent)
            moved = location if answer.status in PERMANENT else moved
            url = location
        return Answer(url=url, failure=f"redirects more than {self.policy.redirects} times", requests=sent)

    def _asked(self, url: str, conditional: Mapping[str, str]) -> Answer:
        """One hop, asked again while the answer says a later try may do better."""
        policy, attempt = self.policy, 1
        answer, wait = self._once(url, conditional)
        while wait is not None and attempt < policy.attempts:
            if wait < 0:  # no Retry-After: the policy's backoff, with jitter
                wait = policy.backoff * 2 ** (attempt - 1) * random.uniform(0.5, 1.0)
            if wait > policy.longest_wait:
                limit = f"longer than the {policy.longest_wait:g} s this command waits"
                failure = f"{answer.failure} and asks to wait {wait:.0f} s, {limit}"
                return replace(answer, failure=failure, requests=attempt)
            self._sleep(wait)
            attempt += 1
            answer, wait = self._once(url, conditional)
        tries = f" ({attempt} tries)" if answer.failure and attempt > 1 else ""
        return replace(answer, failure=answer.failure + tries, requests=attempt)

    def _once(self, url: str, conditional: Mapping[str, str]) -> tuple[Answer, float | None]:
        """One request: its answer, and the wait before asking again (None: do not; -1: the
        policy's backoff)."""
        timeout = urllib3.Timeout(connect=self.policy.timeout, read=self.policy.timeout)
        try:
            response = self._pool(url).request(
                "GET", url, headers={**self._headers, **conditional}, redirect=False, retries=False,
                preload_content=False, timeout=timeout,
            )  # fmt: skip
        except NewConnectionError as exc:  # before TimeoutError: urllib3 makes it one of them
            return Answer(url=url, failure=_failure(url, exc)), None
        except TimeoutError:
            return Answer(url=url, failure=f"does not answer within {self.policy.timeout:g} s"), -1
        except (HTTPError, OSError, ValueError) as exc:
            return Answer(url=url, failure=_failure(url, exc)), None
        try:
            return self._answer(url, response)
        except TimeoutError:
            return Answer(url=url, failure=f"stops sending within {self.policy.timeout:g} s"), -1
        except (HTTPError, OSError) as exc:
            return Answer(url=url, failure=f"breaks off its answer ({type(exc).__name__})"), -1
        finally:
            response.release_conn()

    def _answer(self, url: str, response: urllib3.BaseHTTPResponse) -> tuple[Answer, float | None]:
        status, headers = response.status, response.headers
        if status not in range(200, 300):  # its body is not wanted: the connection goes with it
            response.close()
        if status in REDIRECTS:
            location = headers.get("Location", "")
            if not location:
                return Answer(
                    url=url, status=status, failure=f"answers {_status(status)} without a Location"
                ), None
            return Answer(url=url, status=status, moved=urljoin(url, location)), None
        if not (200 <= status < 300 or status == 304):
            wait = _retry_after(headers.get("Retry-After", "")) if status in AGAIN else None
            return Answer(url=url, status=status, failure=f"answers {_status(status)}"), wait
        body = response.read(amt=self.policy.largest)
        if len(body) >= self.policy.largest:
            response.close()  # the rest is not wanted: the connection goes, not the unread bytes
        return Answer(
            url=url,
            status=status,
            body=body,
            content_type=headers.get("Content-Type", ""),
            etag=headers.get("ETag", ""),
            last_modified=headers.get("Last-Modified", ""),
        ), None

    def _pool(self, url: str) -> urllib3.PoolManager:
        parts = urlsplit(url)
        proxy = self._proxied.get(parts.scheme.lower())
        if proxy is None or bool(urllib.request.proxy_bypass(parts.hostname or "")):
            return self._direct
        return proxy


def _status(status: int) -> str:
    try:
        return f"{status} {HTTPStatus(status).phrase}"
    except ValueError:
        return str(status)


def _retry_after(value: str) -> float:
    """The seconds a ``Retry-After`` asks for (seconds, or an HTTP date); -1 when it names none."""
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return -1
    return max(0.0, when.timestamp() - time.time())


def _failure(url: str, exc: Exception) -> str:
    """Why no answer came, in the author's terms (after ``source URL``)."""
    parts = urlsplit(url)
    host = parts.hostname or url
    if isinstance(exc, NameResolutionError):
        return f"cannot be reached: no address is found for {host} (DNS)"
    if isinstance(exc, SSLError):
        return f"cannot be reached over TLS: {exc.__context__ or exc}"
    if isinstance(exc, ProxyError):
        return f"cannot be reached through the proxy: {exc}"
    if isinstance(exc, NewConnectionError):
        port = parts.port or (443 if parts.scheme.lower() == "https" else 80)
        return f"cannot be reached: nothing answers at {host} port {port}"
    return f"cannot be asked ({type(exc).__name__}: {exc})"
