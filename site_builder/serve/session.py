"""The ``serve`` loop: build, serve, and on each change rebuild what it touched.

The site is built into a temporary folder (the real output is left alone, as
``mkdocs serve`` does) with the same atomic pipeline as ``build``, so a rebuild
gives exactly the site ``build`` would. What makes a rebuild cheap is what the
process keeps between builds: the cache's entries stay in memory
(:meth:`~site_builder.build.store.Store.in_memory`), so a rebuild re-imports and
re-renders only the batches whose key changed, rewrites only the files whose bytes
changed and re-indexes only the search shards whose pages did, without reading
every other batch's summary again.
"""

from __future__ import annotations

import tempfile
import threading
from collections.abc import Callable
from functools import partial
from pathlib import Path

import watchfiles

from site_builder.addresses import LOCAL_HOST, bound_server, listening
from site_builder.build.pipeline import build
from site_builder.build.plan import plan_build
from site_builder.build.store import Store
from site_builder.check.schedule import Schedule
from site_builder.errors import SiteBuilderError
from site_builder.language.english import count
from site_builder.serve.pages import Handler, State
from site_builder.settings import Project
from site_builder.settings_file import PYPROJECT


def serve(
    project: Project,
    port: int,
    say: Callable[[str], None],
    stop: threading.Event | None = None,
    host: str = LOCAL_HOST,
    *,
    include: Schedule | None = None,
) -> None:
    """Build, serve on ``host``:``port`` and rebuild on change until ``stop`` is set (or
    KeyboardInterrupt, which leaves here once the server and the temporary site are gone);
    ``include``: its flags (``--drafts``, ``--future``) are kept, its date is taken again at
    each rebuild."""
    root = project.root
    with tempfile.TemporaryDirectory(prefix="site-builder-serve-") as folder:
        out = Path(folder) / "site"
        state = State(project.settings.base_path)
        store = Store.in_memory(root)
        rebuild = partial(_rebuild, out=out, state=state, say=say, include=include, store=store)
        handler = partial(Handler, state=state, directory=str(out))
        # Bound before the first build: a wrong host or a port in use is said at once.
        with bound_server(host, port, handler) as server:
            rebuild(project)
            if stop is not None and stop.is_set():
                return
            if not out.is_dir():
                raise SiteBuilderError("the site does not build; fix the problems above and run serve again")
            threading.Thread(target=server.serve_forever, daemon=True).start()
            try:
                say(listening(host, server.server_address[1], state.base_path))
                watched = partial(_watched, root, _sources(project))
                for _changes in watchfiles.watch(root, watch_filter=watched, stop_event=stop):
                    if stop is not None and stop.is_set():
                        break
                    rebuild(Project.read(root))  # the settings may have changed
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
    store: Store,
) -> None:
    flags = include or Schedule("")
    schedule = Schedule.now(drafts=flags.drafts, future=flags.future)
    built = build(plan_build(project, out, schedule=schedule, store=store))
    problems = [str(p) for p in built.problems]
    state.update(problems, project.settings.base_path)
    left_out = built.omitted.message()
    done = f"built {count(built.pages, 'page')}" + (f"; {left_out}" if left_out else "")
    say("\n".join(problems) if problems else "".join(f"{w}\n" for w in built.warnings) + done)


def _sources(project: Project) -> tuple[Path, ...]:
    """What a change to triggers a rebuild: articles, assets, templates, settings."""
    settings = project.settings
    names = (settings.articles_dir, settings.assets_dir, "templates", PYPROJECT)
    return tuple(project.root / name for name in names)


def _watched(root: Path, sources: tuple[Path, ...], _change: watchfiles.Change, path: str) -> bool:
    changed = Path(path)
    if "__pycache__" in changed.parts:
        return False
    return any(changed == source or changed.is_relative_to(source) for source in sources)
