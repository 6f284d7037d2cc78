"""One batch as the rest of a build needs it: what a worker sends back and the cache keeps.

A worker imports a batch, validates what can be judged from the batch alone,
runs its fixtures, renders its article pages (writing them straight into the
staging folder) and scans them for the link check. The summary is everything
the site-wide steps need afterwards, without the revisions' object graphs or
the pages' bytes, so a rebuild can use it in place of importing the batch.
"""

from __future__ import annotations

import dataclasses
import json
import os
import pickle
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import jinja2

from site_builder.build.store import content_hash
from site_builder.errors import Problem
from site_builder.render.feeds import feed_entry
from site_builder.check.fixture_runs import Outcome
from site_builder.check.load import Batch, fixture_id
from site_builder.authoring.model import Block
from site_builder.render.pages import Item, environment, items_from, render_articles
from site_builder.render.revisions_json import revision_dict
from site_builder.settings import Settings
from site_builder.check.linkcheck import Scan, scan_page
from site_builder.render.template_errors import template_problem
from site_builder.check.rules import Refs, batch_problems
from site_builder.check.claims import fixture_problems


@dataclass(frozen=True, slots=True)
class Texts:
    """A batch's long texts, kept in a file rather than in memory: its elements of
    ``revisions.json``, its Atom entries (10,000 revisions hold some 300 MB of them) and
    the link-check scans of its pages (read only for the pages a check looks at)."""

    path: Path
    sizes: tuple[int, ...]
    """Bytes of the ``revisions.json`` fragment, of each entry, then of the scans, in file order."""
    stat: tuple[int, int]
    """(size, mtime in ns) of the file as written: anything else is not these texts."""
    digests: tuple[str, ...]
    """Content hash of the fragment, then of each entry: what a joined file is known by."""

    @classmethod
    def write(cls, path: Path, fragment: bytes, entries: Sequence[bytes], scans: dict[str, Scan]) -> Texts:
        """Write the texts to ``path`` (whole, or not at all)."""
        scanned = pickle.dumps(scans, protocol=pickle.HIGHEST_PROTOCOL)
        temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        temporary.write_bytes(b"".join([fragment, *entries, scanned]))
        os.replace(temporary, path)
        found = path.stat()
        sizes = (len(fragment), *map(len, entries), len(scanned))
        digests = tuple(content_hash(part) for part in (fragment, *entries))
        return cls(path, sizes, (found.st_size, found.st_mtime_ns), digests)

    def moved(self, path: Path) -> Texts | None:
        """The same texts at ``path`` (these very ones when that is where they are), if the
        file there is the one written."""
        try:
            found = os.stat(path)
        except OSError:
            return None
        if (found.st_size, found.st_mtime_ns) != self.stat:
            return None
        return self if path == self.path else dataclasses.replace(self, path=path)

    def fragment(self) -> bytes:
        """The elements of ``revisions.json``, indented and joined as the array holds them."""
        with open(self.path, "rb") as file:
            return file.read(self.sizes[0])

    def scans(self) -> dict[str, Scan]:
        """The link-check scans of the batch's pages."""
        with open(self.path, "rb") as file:
            file.seek(sum(self.sizes[:-1]))
            scans: dict[str, Scan] = pickle.loads(file.read(self.sizes[-1]))
            return scans


@dataclass(frozen=True, slots=True)
class Summary:
    """What a build needs of one batch once it has been loaded."""

    name: str
    """The batch name (module file name without ``.py``)."""
    problems: tuple[Problem, ...]
    """Problems judged from the batch alone, and its failed fixtures."""
    refs: Refs
    """What the site-wide rules need of it."""
    outcomes: dict[str, Outcome] | None
    """Its fixtures' outcomes; None when they were not run."""
    items: tuple[Item, ...]
    """Its revisions as lists, the feed and the sitemap show them (``content_html`` left empty)."""
    list_key: str
    """Hash of those items: the list pages and the sitemap change only when it does."""
    texts: Texts
    """The whole objects as they appear inside ``revisions.json``, the Atom entries and the scans."""
    pages: dict[str, str] | None
    """Article pages written to the staging folder: output path → content hash; None when not rendered."""

    def data(self) -> list[dict[str, object]]:
        """Its whole ``revisions`` JSON objects, read back from its texts."""
        loaded: list[dict[str, object]] = json.loads(b"[" + self.texts.fragment() + b"]")
        return loaded

    @property
    def clean(self) -> bool:
        """Worth keeping: no problems, so nothing depends on a timeout or a retry."""
        return not self.problems


def summarize(
    root: Path,
    settings: Settings,
    batch: Batch,
    outcomes: dict[str, Outcome] | None,
    staging: Path | None,
    spool: Path,
) -> Summary:
    """Judge, describe and (with ``staging``) render one loaded batch; its long texts go
    to the file ``spool``."""
    problems, refs = batch_problems(root, settings, batch)
    if outcomes is not None:
        problems += fixture_problems(root, {fixture_id(fx): fx for fx in batch.fixtures}, outcomes)
    data = tuple(revision_dict(rev, batch.name, settings) for rev in batch.revisions)
    verified = tuple(
        sum(isinstance(b, Block) and b.verified is not None for b in rev.body) for rev in batch.revisions
    )
    pages: dict[str, str] | None = None
    scans: dict[str, Scan] = {}
    entries: tuple[bytes, ...] = ()
    items = items_from(data, verified)
    listed = tuple(dataclasses.replace(item, content_html="") for item in items)
    if staging is not None and not problems:  # a batch with problems fails the build anyway
        entries = tuple(feed_entry(settings, item).encode("utf-8") for item in items)
        try:
            texts = render_articles(environment(root), settings, items)
        except jinja2.TemplateError as exc:
            problems.append(template_problem(root, exc))
            texts = {}
        pages = {}
        for path, text in texts.items():
            encoded = text.encode("utf-8")
            write_file(staging, path, encoded)
            pages[path] = content_hash(encoded)
            scans[path] = scan_page(text)
    # surrogatepass: a lone surrogate is a problem of the batch already, never published.
    joined_data = ",\n  ".join(fragment(d) for d in data).encode("utf-8", "surrogatepass")
    return Summary(
        name=batch.name,
        problems=tuple(problems),
        refs=refs,
        outcomes=outcomes,
        items=listed,
        list_key=content_hash(repr(listed).encode("utf-8", "surrogatepass")),
        texts=Texts.write(spool, joined_data, entries, scans),
        pages=pages,
    )


class Scans(Mapping[str, Scan]):
    """The scans of a site's pages, each batch's read from its texts file when asked for:
    a check of a few pages reads a few files, and a check of every page holds the scans
    of the last few batches only (10,000 pages' scans take a hundred megabytes)."""

    HELD_BATCHES = 64

    def __init__(self, summaries: Sequence[Summary], others: dict[str, Scan]) -> None:
        self._others = dict(others)
        self._owner = {path: part.texts for part in summaries for path in part.pages or {}}
        self._held: dict[Path, dict[str, Scan]] = {}  # least recently used first

    def __getitem__(self, path: str) -> Scan:
        if path in self._others:
            return self._others[path]
        texts = self._owner[path]
        batch = self._held.pop(texts.path, None)
        if batch is None:
            batch = texts.scans()
            if len(self._held) >= self.HELD_BATCHES:
                del self._held[next(iter(self._held))]
        self._held[texts.path] = batch
        return batch[path]

    def __contains__(self, path: object) -> bool:
        return path in self._others or path in self._owner

    def __iter__(self) -> Iterator[str]:
        yield from self._owner
        yield from (path for path in self._others if path not in self._owner)

    def __len__(self) -> int:
        return len(self._owner) + sum(path not in self._owner for path in self._others)


def fragment(item: object) -> str:
    """One element of the ``revisions.json`` array, indented as the array holds it."""
    # json.dumps escapes newlines inside strings, so every newline here is structure.
    return json.dumps(item, ensure_ascii=False, indent=2).replace("\n", "\n  ")


def write_revisions(
    summaries: Sequence[Summary],
    write: Callable[[bytes], object],
    copy: Callable[[Texts, int, int], object] | None = None,
) -> None:
    """``revisions.json`` from each batch's fragment, streamed: what ``dumps(data, 2)`` gives.
    With ``copy``, each fragment is handed to it as (texts, offset, size) instead of read."""
    first = True
    for part in summaries:
        if part.texts.sizes[0]:
            write(b"[\n  " if first else b",\n  ")
            if copy is None:
                write(part.texts.fragment())
            else:
                copy(part.texts, 0, part.texts.sizes[0])
            first = False
    write(b"[]\n" if first else b"\n]\n")


def write_file(folder: Path, relative: str, data: bytes) -> None:
    """Write a new file: unlinked first, since the name may be a hard link into the live site."""
    path = folder / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.unlink(missing_ok=True)
    path.write_bytes(data)
