"""The Textual app (garito.tui). Kept free of imports so the CLI starts fast."""

# The themes Garito offers (--theme, ctrl+t); the CLI reads them without Textual.
THEMES = ("textual-dark", "textual-light", "ansi-dark", "ansi-light")
