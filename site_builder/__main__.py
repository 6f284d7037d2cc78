"""``python -m site_builder``: the same as the ``site-builder`` command."""

from site_builder.cli import run

run()
