"""``site-builder serve``: build, serve on 127.0.0.1 (or ``--host``), rebuild on change and
tell open pages at once.

:mod:`.session` builds and watches; :mod:`.pages` answers HTTP, and pushes each new
version to open pages as a server-sent event.
"""

from site_builder.serve.session import STOP_WITHIN, serve

__all__ = ["STOP_WITHIN", "serve"]
