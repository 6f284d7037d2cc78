"""The ``serve`` loop: build, serve, and on each change rebuild what it touched.

The site is built into ``.site-builder-cache/serve/site`` (the real output is left
alone, as ``mkdocs serve`` does) with the same atomic pipeline as ``build``, so a
rebuild gives exactly the site ``build`` would. The folder outlives the process: a
stop deletes nothing (at 10,000 articles deleting the site took seconds) and the next
``serve`` starts from it, rebuilding only what changed meanwhile. A second ``serve``
of the same site, which finds the folder taken, builds into a temporary folder.

What makes a rebuild cheap is what the process keeps between builds: the cache's entries stay in memory
(:meth:`~site_builder.pipeline.cache.store.CacheFolder.in_memory`), so a rebuild re-imports and
re-renders only the batches whose key changed, rewrites only the files whose bytes
changed and re-indexes only the search shards whose pages did, without reading
every other batch's summary again. Its changed pages are served as soon as they are checked,
before the search index is done (:meth:`~site_builder.serve.pages.State.preview`).

Each build holds the site's lock (:mod:`~site_builder.pipeline.site_lock`), and only while it
builds: between rebuilds a ``build`` or ``validate`` of the site runs at once, as it does beside
``mkdocs serve`` or ``hugo server``, and a rebuild that comes meanwhile waits for it. What
serve keeps in memory stays true when such a command writes the cache between two builds:
every entry is found by a hash of what it depends on, is about serve's own folder, or is
checked against what it describes (a batch module's stamp against its stat, a kept summary
against its texts file), so one another command replaced or removed is a miss, not a
wrong value. One thing serve takes on its own word: that the spare its last build moved aside
holds what that build's record says (:meth:`~site_builder.pipeline.cache.reuse.Cache.spare_vouched`),
since only serve's builds write there; a build that fails spends that word, and so does the next
build, which may change the spare. A page of that spare (below ``.site-builder-cache/spare/``)
changed by hand while serve runs may therefore be served by the next rebuild, where ``build``
would write it again: at 10,000 articles, a ``stat`` of each kept page was 60 ms of every edit.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import tempfile
import threading
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import IO

import watchfiles

from site_builder.errors import SiteBuilderError, UnreadableInputError
from site_builder.language.english import count
from site_builder.model.schedule import Schedule
from site_builder.pipeline.cache.store import CacheFolder
from site_builder.pipeline.events import Events
from site_builder.pipeline.loading import default_jobs
from site_builder.pipeline.plan import plan_build
from site_builder.pipeline.site_lock import SiteLock
from site_builder.pipeline.staging.preview import Changed
from site_builder.pipeline.steps import build
from site_builder.pipeline.worker.pool import Pool
from site_builder.pipeline.worker.workers import WORKERS
from site_builder.runtime.addresses import LOCAL_HOST, bound_server, listening
from site_builder.runtime.collector import give_back_memory
from site_builder.serve.changes import Changes
from site_builder.serve.pages import Handler, State
from site_builder.settings.project import Project
from site_builder.settings.pyproject import PYPROJECT

STOP_WITHIN = 1.5
"""Seconds ``serve`` has to end after SIGINT or SIGTERM, its exit included, before it ends
at once (:func:`~site_builder.runtime.interrupts.interruptible`): within 2 s, whatever it was doing."""
SERVER_POLL = 0.1
"""Seconds between two looks of the HTTP server's loop at whether it is asked to stop: a
stop waits up to that long for it (the standard library's default, 0.5 s, was half of a
stop's time)."""


def serve(
    project: Project,
    port: int,
    say: Callable[[str], None],
    stop: threading.Event | None = None,
    host: str = LOCAL_HOST,
    *,
    include: Schedule | None = None,
    wait: bool = True,
) -> None:
    """Build, serve on ``host``:``port`` and rebuild on change until ``stop`` is set (or
    KeyboardInterrupt, which leaves here once the server is closed);
    ``include``: its flags (``--drafts``, ``--future``) are kept, its date is taken again at
    each rebuild; ``wait``: whether the first build waits for another command on the site
    (``--no-wait``: a UsageError instead). A later rebuild always waits."""
    root = project.root
    # Workers start from a small server process, not from this one, which holds the cache,
    # and stay for every rebuild, warm.
    workers = Pool(default_jobs(), "forkserver", (WORKERS,))
    sources = _sources(project)
    changes = Changes(root, partial(_watched, sources), partial(_fingerprint, sources))
    with changes, _served_folder(root) as out, workers:
        state = State(project.settings.base_path)
        store = CacheFolder.in_memory(root)
        rebuild = partial(
            _rebuild,
            out=out,
            state=state,
            say=say,
            include=include,
            store=store,
            workers=workers,
            changes=changes,
            stop=stop,
        )
        handler = partial(Handler, state=state, directory=str(out))
        # Bound before the first build: a wrong host or a port in use is said at once.
        with bound_server(host, port, handler) as server:
            built = rebuild(project, wait=wait)
            give_back_memory()  # a build's passing peak, else kept by malloc (runtime.collector)
            if stop is not None and stop.is_set():
                return
            if not built:
                raise SiteBuilderError("the site does not build; fix the problems above and run serve again")
            answering = partial(server.serve_forever, poll_interval=SERVER_POLL)
            threading.Thread(target=answering, daemon=True).start()
            try:
                say(listening(host, server.server_address[1], state.base_path))
                while changes.wait(stop):
                    rebuild(Project.read(root))  # the settings may have changed
                    give_back_memory()
            finally:
                state.close()
                server.shutdown()


def _rebuild(
    project: Project,
    *,
    out: Path,
    state: State,
    say: Callable[[str], None],
    include: Schedule | None,
    store: CacheFolder,
    workers: Pool,
    changes: Changes,
    stop: threading.Event | None,
    wait: bool = True,
) -> bool:
    """Build once more; whether the site built. Its changed pages are shown as soon as they
    are checked; an edit that comes while its search index is made ends it there, and the
    next rebuild, at once, goes on from the live site. A stop ends it there too (should its
    KeyboardInterrupt have been lost, ``stop`` tells). It holds the site's lock while it
    builds, waiting for it (not ``wait``: a UsageError) when another command has it."""
    flags = include or Schedule("")
    schedule = Schedule.now(drafts=flags.drafts, future=flags.future)
    base_path = project.settings.base_path

    def show(files: Changed) -> None:
        if state.preview(files, base_path):
            changes.listen()

    def stopped() -> bool:
        return stop is not None and stop.is_set()

    def newer() -> bool:
        return changes.arrived() or stopped()

    with SiteLock.take(project.root, wait=wait, say=say):
        try:
            plan = plan_build(project, out, schedule=schedule, store=store)
        except UnreadableInputError as exc:  # shown like a problem, fixed by an edit
            state.update([str(exc)], base_path, superseded=False)
            say(str(exc))
            return False
        built = build(plan, start=workers, events=Events(changed=show, newer=newer))
    problems = [str(p) for p in built.problems]
    state.update(problems, base_path, superseded=built.superseded)
    if built.superseded:
        if not stopped():
            say("shown; a newer edit came before the search index was done: building that")
        return True
    left_out = built.omitted.message()
    done = f"built {count(built.pages, 'page')}" + (f"; {left_out}" if left_out else "")
    say("\n".join(problems) if problems else "".join(f"{w}\n" for w in built.warnings) + done)
    return not problems


@contextlib.contextmanager
def _served_folder(root: Path) -> Iterator[Path]:
    """Where this ``serve`` builds the site: the cache's ``serve/site``, held by a lock while
    it runs; a temporary folder when another ``serve`` of the site holds it (or the cache
    cannot be written)."""
    folder = CacheFolder.of(root).folder / "serve"
    lock = _locked(folder / ".lock")
    if lock is None:
        with tempfile.TemporaryDirectory(prefix="site-builder-serve-") as temporary:
            yield Path(temporary) / "site"
        return
    with lock:  # closing it releases the lock
        yield folder / "site"


def _locked(path: Path) -> IO[str] | None:
    """``path`` opened and locked for this process alone, or None when another holds it."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        lock = open(path, "a")  # noqa: SIM115 - held open for the whole session
    except OSError:
        return None
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        lock.close()
        return None
    return lock


def _sources(project: Project) -> tuple[str, ...]:
    """What a change to triggers a rebuild: articles, assets, templates, settings (their paths)."""
    settings = project.settings
    names = (settings.articles_dir, settings.assets_dir, "templates", PYPROJECT)
    return tuple(str(project.root / name) for name in names)


def _fingerprint(sources: tuple[str, ...]) -> frozenset[tuple[str, int, int]]:
    """Every source file's path, size and modification time (``__pycache__`` apart)."""
    found: set[tuple[str, int, int]] = set()
    for path in _source_files(sources):
        with contextlib.suppress(OSError):  # gone meanwhile, or a source that does not exist
            info = os.stat(path)
            found.add((path, info.st_size, info.st_mtime_ns))
    return frozenset(found)


def _source_files(sources: tuple[str, ...]) -> Iterator[str]:
    """The files of the source folders, and the sources that are not folders."""
    for source in sources:
        if not os.path.isdir(source):
            yield source
            continue
        for folder, folders, files in os.walk(source):
            folders[:] = [name for name in folders if name != "__pycache__"]
            yield from (os.path.join(folder, name) for name in files)


def _watched(sources: tuple[str, ...], _change: watchfiles.Change, path: str) -> bool:
    """Whether a changed path is a source. Every file a rebuild writes into the served folder
    (below the root too) passes through here: string tests, no Path objects."""
    if f"{os.sep}__pycache__{os.sep}" in path:
        return False
    return any(path == source or path.startswith(source + os.sep) for source in sources)
