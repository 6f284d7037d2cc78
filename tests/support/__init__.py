"""Helpers the tests of every folder share: site writers, reference implementations, URL checks."""
