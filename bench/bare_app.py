"""The yardstick for start-up: a Textual app that shows one line."""

from textual.app import App, ComposeResult
from textual.widgets import Static


class Bare(App):
    def compose(self) -> ComposeResult:
        yield Static("hello garito")


if __name__ == "__main__":
    Bare().run()
