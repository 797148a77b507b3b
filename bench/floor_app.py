"""The yardstick for CPU per key: a bare Textual app, written the way
Textual's documentation writes one, whose key changes what a key against
the computer changes on a game's table.

Its screen is laid out like Decimus's at 80×24: a title, a panel of five
dice, a panel of four games, a prompt of three rows and a stake line on the
left; a panel of players and a log on the right; Textual's own footer of
keys. Enter is a move: every one of those panels changes and the log gets
a line, as the player's move changes them. ``--replies N``: that many
"computer" moves follow it, each 0.3 s after the last (the pace the bench
plays at), each changing them all again. Space changes the title alone,
a line repainted and not laid out again (the least a key can cost), and
``--replies`` times again 0.3 s apart. ``--lean``: every panel is such a
widget too, its height set (Textual's ``Static.update`` lays the screen
out again at each change): Textual drawing the same changes with no
layout. Nothing is computed: what is measured is
Textual drawing those changes.

    python bench/floor_app.py [--replies N]
"""

from __future__ import annotations

import argparse

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Footer, RichLog, Static

FACES = "⚀⚁⚂⚃⚄⚅"
CSS = """
#title { height: 1; text-style: bold; }
.panel { border: round $primary; height: auto; }
#left { width: 46; }
#prompt { height: 3; padding: 0 1; }
#stake { height: 1; padding: 0 1; }
#log-panel { border: round $primary; height: 1fr; }
"""


class Line(Widget):
    """One line of text, repainted (never laid out again) as it changes:
    the least Textual does for a key that changes something."""

    DEFAULT_CSS = "Line { height: 1; }"
    text = reactive("")

    def render(self) -> str:
        return self.text


class Block(Line):
    """Rows of text, repainted (never laid out again) as they change: the
    lean variant's widget for every panel (their heights set)."""

    DEFAULT_CSS = "Block { height: auto; }"


class LeanLog(Block):
    """The log's last lines, repainted as a line comes."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.lines: list[str] = []

    def write(self, line: str) -> None:
        self.lines.append(line)
        self.text = "\n".join(self.lines[-15:])


class Floor(App):
    CSS = CSS
    BINDINGS = [
        Binding("enter", "move", "Move"),
        Binding("space", "touch", "Touch"),
        Binding("p", "move", "Pass"),
        Binding("s", "move", "See"),
        Binding("f", "move", "Fold"),
    ]

    def __init__(self, replies: int, lean: bool) -> None:
        super().__init__()
        self.replies = replies
        self.lean = lean
        self.moves = 0

    def compose(self) -> ComposeResult:
        block = (
            (lambda id, height: Block(id=id).set_styles(f"height: {height};"))
            if self.lean
            else (lambda id, height: Static(id=id))
        )
        yield Line(id="title")
        with Horizontal():
            with Vertical(id="left"):
                with Vertical(classes="panel") as panel:
                    panel.border_title = "Your dice"
                    yield block("dice", 3)
                with Vertical(classes="panel") as panel:
                    panel.border_title = "Games"
                    yield block("games", 4)
                yield block("prompt", 3)
                yield block("stake", 1)
            with Vertical():
                with Vertical(classes="panel") as panel:
                    panel.border_title = "Players"
                    yield block("players", 2)
                with Vertical(id="log-panel") as panel:
                    panel.border_title = "Log"
                    yield (
                        LeanLog(id="log").set_styles("height: 1fr;")
                        if self.lean
                        else RichLog(id="log", wrap=True, markup=False)
                    )
        yield Footer()

    def on_mount(self) -> None:
        self.show()

    def show(self) -> None:
        n = self.moves
        self.query_one("#title", Line).text = f"Decimus · round {n // 4 + 1} · move {n}"
        dice = [FACES[(n + i) % 6] for i in range(5)]
        self.put(
            "#dice",
            "  ".join(f"[{i + 1}]" for i in range(5)) + "\n" + "   ".join(dice) + f"\nrerolls left {n % 3}",
        )
        self.put(
            "#games",
            "\n".join(
                f"{game:<8} {(n * 7 + k) % 30:>3} {'bet' if (n + k) % 2 else 'pass':>5}"
                for k, game in enumerate(("Maiores", "Menores", "Pares", "Jogo"))
            ),
        )
        self.put(
            "#prompt",
            f"[b]Iria[/b], move {n}: pick dice to reroll (1–5), then Enter; with none picked, "
            f"Enter is done. [dim]You win it {n % 100}%.[/dim]",
        )
        self.put("#stake", f"Bet ◂ {n % 30 + 1} ▸ limits 1–30")
        self.put("#players", f"Iria     {n % 40:>3}  ▶\nRamón    {(n * 3) % 40:>3}")
        self.query_one("#log").write(f"Move {n}: Iria stands at {n % 31}.")
        if not self.lean:
            self.refresh_bindings()

    def put(self, where: str, text: str) -> None:
        widget = self.query_one(where)
        if self.lean:
            widget.text = text
        else:
            widget.update(text)

    def action_move(self) -> None:
        self.moves += 1
        self.show()
        for k in range(1, self.replies + 1):
            self.set_timer(0.3 * k, self.reply)

    def reply(self) -> None:
        self.moves += 1
        self.show()

    def action_touch(self) -> None:
        self.touch()
        for k in range(1, self.replies + 1):
            self.set_timer(0.3 * k, self.touch)

    def touch(self) -> None:
        self.moves += 1
        self.query_one("#title", Line).text = f"Decimus · touched {self.moves}"


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--replies", type=int, default=1)
    ap.add_argument("--lean", action="store_true", help="every panel a widget repainted, never laid out")
    args = ap.parse_args()
    Floor(args.replies, args.lean).run()
