"""Tests of the chrome's languages: label tables and plural forms."""
