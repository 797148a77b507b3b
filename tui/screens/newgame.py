"""New game: seats (human or computer, level, name), rule variants, seed.

Built from the game's ``VARIANTS`` and ``LEVELS``, so every game gets the
same dialog. Everything fits 80×24: one line per seat, one per variant.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Input, Static

from garito.core import catalog
from garito.core.dice import fresh_seed
from garito.core.i18n import N_, _
from garito.core.match import Match, Seat
from garito.core.names import printable
from garito.core.variants import offered_config
from garito.widgets.choice import Choice
from garito.widgets.field import Field
from garito.widgets.glyphs import glyphs
from garito.widgets.keybar import KeyBar

from ..games import default_names

if TYPE_CHECKING:
    from textual import getters

    from ..app import GarApp

KINDS = [(N_("Human"), "human"), (N_("Computer"), "computer")]


OPEN_SEAT = N_("open seat")


PRIVATE_HELP = N_(
    "A private table is not listed in the lobby: you get a code to tell\n"
    "your friends, and they join with it (c in the lobby)."
)

# A shared table's dialog is dismissed with the table it describes, and
# whether it is private.
NewTable = tuple[str, Any, tuple[Seat, ...], bool]


class NewGameScreen(Screen[NewTable | None]):
    if TYPE_CHECKING:
        app = getters.app(GarApp)

    BINDINGS = [
        Binding("enter", "start", N_("Start"), priority=True),
        Binding("escape", "app.pop_screen", N_("Back")),
        Binding("down", "app.focus_next", N_("Next field"), show=False),
        Binding("up", "app.focus_previous", N_("Previous field"), show=False),
        Binding("question_mark,f1", "rules", N_("Rules")),
    ]

    def __init__(self, game: str, *, has_save: bool = False, shared: bool = False) -> None:
        super().__init__()
        self.info = catalog.get(game)
        self.rules = catalog.rules(game)
        self.has_save = has_save
        # A shared table's: dismissed with (game, config, seats) for the lobby
        # to open; its human seats but the first are for other players, and
        # its dice come from the server (no seed).
        self.shared = shared

    def compose(self) -> ComposeResult:
        lo, hi = self.info.players
        # A shared table's other seats are open for friends to take (b
        # hands them to computers at the table, whenever its creator likes);
        # at one keyboard, the computer plays them.
        kinds = ["human"] + ["human" if self.shared else "computer"] * (hi - 1)
        levels = [self.rules.default_level(i) for i in range(hi)]
        names = default_names(kinds)
        players = min(hi, max(lo, self.rules.default_config().players))  # the game's usual table
        # The seats of the last game of this kind come back as they were.
        from garito.store import settings

        last = settings.load().get("seats", {}).get(self.info.id)
        if isinstance(last, list) and lo <= len(last) <= hi:
            players = len(last)
            for i, seat in enumerate(last):
                if isinstance(seat, dict):
                    kind, level = seat.get("kind"), seat.get("level")
                    if not self.shared and kind in ("human", "computer"):  # not a table's open seats
                        kinds[i] = str(kind)
                    levels[i] = level if isinstance(level, str) and level in self.rules.levels else levels[i]
                    name = seat.get("name")
                    if isinstance(name, str) and printable(name).strip():
                        names[i] = printable(name).strip()[:12]
        dash = glyphs(self.app.ascii_only)["dash"]
        new = _("New table") if self.shared else _("New game")
        title = f"{new} {dash} {self.info.title}"
        yield Static(title, id="title", markup=False)
        with Horizontal(id="newgame"):
            with Vertical(id="seats", classes="panel") as seats:
                seats.border_title = _("Seats")
                yield Choice(
                    [(str(n), n) for n in range(lo, hi + 1)],
                    players,
                    label=_("Players"),
                    label_width=12,
                    id="players",
                )
                for i, kind in enumerate(kinds):
                    with Horizontal(classes="seat", id=f"seat-{i}"):
                        yield Static(str(i + 1), classes="seat-no")
                        yield Choice(
                            [(_(k), v) for k, v in KINDS], kind, width=8, id=f"kind-{i}", classes="kind"
                        )
                        yield Choice(
                            [(_(lv).capitalize(), lv) for lv in self.rules.levels],
                            levels[i],
                            width=max(len(_(lv)) for lv in self.rules.levels),
                            id=f"level-{i}",
                            classes="level",
                        )
                        yield Field(names[i], max_length=12, compact=True, id=f"name-{i}", classes="name")
            with Vertical(id="variants", classes="panel") as variants:
                variants.border_title = _("Rules")
                defaults = self.rules.default_config()
                # One column for the rules' labels, as wide as the widest
                # (a lone long one, Irwin's "Salamander deal", stood out of
                # line with the seed's).
                labels = [_(v.label) for v in self.rules.variants] + [_("Seed"), _("Private")]
                label_width = max(12, *map(len, labels))
                for v in self.rules.variants:
                    yield Choice(
                        list(zip([_(v.label_of(c)) for c in v.choices], v.choices)),
                        getattr(defaults, v.key),
                        label=_(v.label),
                        label_width=label_width,
                        id=f"var-{v.key}",
                    )
                with Horizontal(id="seed-row") as seed_row:
                    seed_row.display = not self.shared
                    seed_label = Static(_("Seed"), id="seed-label")
                    seed_label.styles.width = label_width + 1
                    yield seed_label
                    yield Field(
                        placeholder=_("random"),
                        restrict=r"[0-9]*",
                        max_length=10,
                        compact=True,
                        id="seed",
                    )
                if self.shared:  # not listed in the lobby: joined by the code the server gives
                    yield Choice(
                        [(_("off"), False), (_("on"), True)],
                        False,
                        label=_("Private"),
                        label_width=label_width,
                        id="private",
                    )
        yield Static(id="newgame-status", markup=False)
        yield KeyBar()

    def on_mount(self) -> None:
        for field in self.query(Input):
            field.cursor_blink = not self.app.is_headless  # still pictures in tests
        self._sync()
        self.query_one("#players", Choice).focus()

    def on_choice_changed(self, event: Choice.Changed) -> None:
        kind_of = event.choice.id or ""
        if kind_of.startswith("kind-"):
            # Default names follow the seats' kinds (the computers' names are
            # dealt in seat order, so another seat's may move too: two seats
            # never share one); a typed name stays.
            i = int(kind_of.removeprefix("kind-"))
            kinds = [self.query_one(f"#kind-{j}", Choice).value for j in range(self.info.players[1])]
            before = list(kinds)
            before[i] = "human" if event.value == "computer" else "computer"
            old, new = default_names(before), default_names(kinds)
            for j in range(len(kinds)):
                name = self.query_one(f"#name-{j}", Input)
                if name.value == old[j] or (j == i and name.value in old) or not name.value.strip():
                    name.value = new[j]
        self._sync()

    def _sync(self) -> None:
        """Show the seats in play, levels only for computers, and variants
        only where they apply; say what is wrong, if anything."""
        n = self.query_one("#players", Choice).value
        values = self._variant_values()
        try:
            matter = self.rules.levels_matter(self._config())
        except ValueError:
            matter = True
        for i in range(self.info.players[1]):
            row = self.query_one(f"#seat-{i}")
            row.display = i < n
            computer = self.query_one(f"#kind-{i}", Choice).value == "computer"
            level = self.query_one(f"#level-{i}", Choice)
            # Shown even where the rules leave it nothing to decide (greyed,
            # and the status line says why), so the seat says what plays it.
            level.disabled = not (computer and matter)
            level.visible = computer
        for v in self.rules.variants:
            self.query_one(f"#var-{v.key}", Choice).display = v.active(values)
        if self.shared:
            self._open_seats(n)
        problem = self._problem()
        status = self.query_one("#newgame-status", Static)
        focused = self.focused
        helps = {f"var-{v.key}": _(v.help) for v in self.rules.variants if v.help}
        if problem:
            status.update(Content.from_markup(_("[b]Cannot start:[/b] $problem"), problem=problem))
        elif not matter and self._on_a_computer_seat(focused):
            status.update(
                _(
                    "With these rules every move is a forced roll: a computer has nothing to\n"
                    "choose, so its level counts only once there are stakes to decide."
                )
            )
        elif self.shared and focused is not None and focused.id == "private":
            status.update(_(PRIVATE_HELP))
        elif self.shared:
            status.update(
                _(
                    "You sit in the first human seat; the other human seats are open for\n"
                    "players from the lobby.   Enter opens the table"
                )
            )
        elif self.has_save:
            status.update(
                _(
                    "You have a saved game of this: starting keeps it in saves/replaced/,\n"
                    "and Continue on the menu will resume the new one."
                )
            )
        elif focused is not None and helps.get(focused.id or ""):
            status.update(helps[focused.id or ""])
        elif focused is not None and (focused.id or "").startswith("level-"):
            status.update(_(self.rules.levels_help))
        else:
            gl = glyphs(self.app.ascii_only)
            status.update(
                _("{updown} move   {arrows} change   type a name   Enter starts the game").format(
                    updown=gl["updown"], arrows=gl["arrows"]
                )
            )

    def _on_a_computer_seat(self, focused) -> bool:
        row = focused.parent if focused is not None else None
        if row is None or not (row.id or "").startswith("seat-"):
            return False
        return self.query_one(f"#kind-{row.id.removeprefix('seat-')}", Choice).value == "computer"

    def _open_seats(self, n: int) -> None:
        """At a shared table the human seats after the first are for other
        players: no name to type (they come with theirs)."""
        kinds = self._kinds()
        others = [i for i in range(n) if kinds[i] == "human"][1:]
        for i in range(self.info.players[1]):
            name = self.query_one(f"#name-{i}", Input)
            is_open = i in others
            if is_open and not name.disabled:
                name.value, name.disabled = _(OPEN_SEAT), True
            elif not is_open and name.disabled:
                name.disabled = False
                name.value = default_names(kinds)[i] if name.value == _(OPEN_SEAT) else name.value

    def _kinds(self) -> list[str]:
        return [self.query_one(f"#kind-{j}", Choice).value for j in range(self.info.players[1])]

    def _variant_values(self) -> dict:
        return {v.key: self.query_one(f"#var-{v.key}", Choice).value for v in self.rules.variants}

    def _seats(self) -> tuple[Seat, ...]:
        n = self.query_one("#players", Choice).value
        seats = []
        for i in range(n):
            kind = self.query_one(f"#kind-{i}", Choice).value
            name = self.query_one(f"#name-{i}", Input).value.strip() or _("Player {number}").format(
                number=i + 1
            )
            seats.append(Seat(name, kind, self.query_one(f"#level-{i}", Choice).value))
        return tuple(seats)

    def _config(self):
        """The config of the choices made: checked by the same code that
        checks a shared table's ``create`` from the network."""
        players = self.query_one("#players", Choice).value
        return offered_config(self.rules, players, self._variant_values())

    def _problem(self) -> str:
        try:
            self._config()
        except ValueError as e:
            return str(e)
        seats = self._seats()
        names = [s.name for s in seats if not (self.shared and s.name == _(OPEN_SEAT))]
        if len(set(names)) != len(names):
            return _("two seats have the same name") + "."  # the CLI's words, as a sentence
        if self.shared and not any(s.is_human for s in seats):
            return _("a shared table needs a human seat: yours.")
        return ""

    def action_start(self) -> None:
        problem = self._problem()
        if problem:
            self.notify(problem, severity="error")
            return
        if self.shared:
            private = self.query_one("#private", Choice).value
            self.dismiss((self.info.id, self._config(), self._seats(), private))
            return
        text = self.query_one("#seed", Input).value
        seed = int(text) if text else fresh_seed()
        match = Match.start(self.info.id, self._config(), seed, self._seats())
        from garito.store import settings

        remembered = settings.load().get("seats", {})
        remembered = remembered if isinstance(remembered, dict) else {}
        remembered[self.info.id] = [s.to_dict() for s in match.seats]
        settings.update(seats=remembered)
        self.app.pop_screen()
        self.app.open_match(match)

    def on_input_changed(self, event: Input.Changed) -> None:
        kept = printable(event.value)
        if kept != event.value:  # a pasted escape sequence or newline: the name keeps its letters
            event.input.value = kept
            return  # changed again: this handler runs once more with the kept name
        self._sync()

    def on_descendant_focus(self) -> None:
        self._sync()

    def action_rules(self) -> None:
        from .rules import RulesScreen

        self.app.push_screen(RulesScreen(self.info.id))
