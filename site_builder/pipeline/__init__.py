"""Everything that writes or remembers: the pipeline, the per-batch step in worker
processes, staging and the atomic swap, and reuse of the last build.
"""
