"""``python -m garito``: the same as the ``garito`` command."""

from garito.tui.cli import entry

if __name__ == "__main__":
    entry()
