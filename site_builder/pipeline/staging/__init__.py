"""The output folder: files written into a staging folder, the record of what was written,
the atomic swap that publishes it, and serve's preview of a build under way."""
