"""What article batches are made of: the values, the helpers that build them, escaping
and Markdown. Imports nothing of site_builder but :mod:`site_builder.errors`.
"""
