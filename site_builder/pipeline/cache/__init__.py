"""What a build remembers of earlier ones (``.site-builder-cache/``): the store, the inputs'
hashes and stamps, what the link check knew. It holds values; the steps that make them live
above it."""
