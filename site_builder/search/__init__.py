"""The search index: article pages split into shards, each indexed by Pagefind."""
