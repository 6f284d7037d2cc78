"""``check-sources``: every web source of the latest revisions fetched (politely, through a
cache of the answers), and each finding reported at the ``Source(`` line that cites it."""
