"""Files on the user's disk: saves and settings (no Textual here either)."""
