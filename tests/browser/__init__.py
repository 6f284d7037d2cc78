"""The built sites in a real Chromium (marked ``browser``; they need /usr/bin/chromium)."""
