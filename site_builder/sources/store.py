"""What ``check-sources`` keeps of each answer, a JSON file an address in the site's cache
folder: when the server last answered, the validators (``ETag``, ``Last-Modified``) that let
a later run ask only whether the page changed, where it moved, and its text when a quote
needs it. A failure is never kept: a dead address is asked again on the next run."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

FOLDER = "sources"
"""The folder, inside the site's cache folder, of the kept answers."""

_FORMAT = 1
"""Changes when what an entry holds changes shape, or how its text is made: older entries
are then asked for again."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Kept:
    """The last answer an address gave that served its page."""

    url: str
    """The address as the article cites it."""
    fetched: float
    """When the server last answered (seconds since 1970), a 304 included."""
    moved: str = ""
    """Where its last permanent redirect led; empty when none."""
    etag: str = ""
    last_modified: str = ""
    text: str | None = None
    """The page's text, normalised (:func:`~site_builder.sources.text.normalised`); None when
    no quote asked for it."""
    unreadable: bool = False
    """A PDF whose text could not be read."""


class Answers:
    """The kept answers of one site, by address."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def get(self, url: str) -> Kept | None:
        """The kept answer of ``url``; None when there is none, or one this version cannot read."""
        try:
            data = json.loads(self._path(url).read_text("utf-8"))
            if data.pop("format") != _FORMAT or data["url"] != url:
                return None
            return Kept(**data)
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def put(self, kept: Kept) -> None:
        """Keep ``kept``, replacing the file whole (a killed run leaves the old one or the new)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        text = json.dumps({"format": _FORMAT, **asdict(kept)}, ensure_ascii=False, sort_keys=True)
        fd, temporary = tempfile.mkstemp(dir=self.folder, prefix=".", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as file:
                file.write(text)
            os.replace(temporary, self._path(kept.url))
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise

    def _path(self, url: str) -> Path:
        return self.folder / (hashlib.sha256(url.encode("utf-8")).hexdigest()[:32] + ".json")
