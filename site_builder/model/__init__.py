"""The site's shared model: what judging, rendering, search and serving all speak of — the
site's URLs and files (``layout``), the schedule of what a build publishes, a loaded batch
and its fixtures' ids, the ids a page will have, what a rendered page links to, the size of
each image, which URLs are allowed. Values and pure functions; it writes nothing."""
