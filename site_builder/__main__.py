"""``python -m site_builder``: the same as the ``site-builder`` command."""

import sys

from site_builder.cli import main

sys.exit(main())
