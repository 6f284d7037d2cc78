"""Site-relative URLs inside rendered HTML moved under the site's base path.

Authors write site-relative URLs (``/articles/x/``, ``/assets/a.svg``) and
``contentHtml`` keeps them as written: importers read it as it is. Only what the
site publishes (article pages, feed entries) carries the base path of a site
served below one (``https://USER.github.io/REPO/``). A site at the domain's root
gets its HTML back untouched, byte for byte.
"""

from __future__ import annotations

import re

# The helpers write every attribute double-quoted and escape every '"' of text, so
# ` href="/` occurs only inside a tag. A protocol-relative `//host` is not site-relative.
_SITE_RELATIVE = re.compile(r'(\s(?:href|src|action|formaction|poster)=")/(?![/\\])', re.IGNORECASE)


def move_under(page_html: str, base_path: str) -> str:
    """``page_html`` with each site-relative URL attribute (``href``, ``src``…) below
    ``base_path`` (``/sub/``)."""
    if base_path == "/":
        return page_html
    return _SITE_RELATIVE.sub(lambda match: match.group(1) + base_path, page_html)
