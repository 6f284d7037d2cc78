"""Site-wide rendering: what needs every batch at once (the list pages, the feed, the
revisions JSON, the pages of articles with several revisions, the covers' PNGs)."""
