"""The per-batch step, run in worker processes: import a batch, judge it, run its fixtures,
render its article pages; and the summaries that step leaves, kept in the site index."""
