"""Judgement only: loading batches, the validation rules, the URL policy, fixtures and
their claims, and the link check of rendered pages. Nothing here writes the site.
"""
