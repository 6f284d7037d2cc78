"""Files written for an author: a whole starter site (``init``) and one revision skeleton (``new``).

The texts live in ``files/`` as package data, rendered with the language, the date and
the version of site_builder that wrote them.
"""
