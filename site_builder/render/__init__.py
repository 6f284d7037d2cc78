"""Values to text, in memory: article and list pages, feeds, the sitemap, the
``revisions`` JSON, the chrome's words in each language.
"""
