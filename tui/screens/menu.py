"""The main menu: saved games to continue, the six games, and quitting."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.geometry import Region
from textual.screen import Screen
from textual.strip import Strip
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from garito.core import catalog, i18n
from garito.core.i18n import N_, _, ngettext
from garito.widgets.glyphs import ascii_text
from garito.widgets.keybar import KeyBar

from .laidout import LaidOut

if TYPE_CHECKING:
    from textual import getters

    from garito.store.saves import Saved

    from ..app import GarApp

BANNER = """\
╔═╗╔═╗╦═╗╦╔╦╗╔═╗
║ ╦╠═╣╠╦╝║ ║ ║ ║
╚═╝╩ ╩╩╚═╩ ╩ ╚═╝"""
MOTTO = N_("a parlor of dice and cards, played from the keyboard")
BANNER_ASCII = r"""
  ___   _   ___ ___ _____ ___
 / __| /_\ | _ \_ _|_   _/ _ \
| (_ |/ _ \|   /| |  | || (_) |
 \___/_/ \_\_|_\___| |_| \___/"""[1:]


class GameList(OptionList):
    """The menu's list: ↑ on the first line and ↓ on the last stay there (a
    wrap from the top would land on Quit, out of sight)."""

    def _step(self, delta: int) -> None:
        i = self.highlighted
        if i is None:
            self.action_first()
            return
        i += delta
        while 0 <= i < self.option_count:
            if not self.get_option_at_index(i).disabled:
                self.highlighted = i
                return
            i += delta

    def action_cursor_up(self) -> None:
        self._step(-1)

    def action_cursor_down(self) -> None:
        self._step(1)

    # Textual (8.2.8) forgets every option it drew at each Resize of the
    # list: the first comes after the menu's first frame, at the width that
    # frame drew them at, and every option was drawn again for nothing.
    # What is drawn depends on the width alone: the options are forgotten
    # when the width they were drawn at changed, at a Resize or as they are
    # drawn (a scrollbar that comes or goes changes it with no Resize).
    _drawn_at: int | None = None  # the width of what Textual keeps drawn (None: nothing)

    def _clear_caches(self) -> None:
        self._drawn_at = None
        super()._clear_caches()

    def render_lines(self, crop: Region) -> list[Strip]:
        width = self.scrollable_content_region.width
        if width != self._drawn_at:
            if self._drawn_at is not None:
                self._clear_caches()
            self._drawn_at = width
        return super().render_lines(crop)

    def _on_resize(self, event: events.Resize | None = None) -> None:
        if event is not None and self.scrollable_content_region.width == self._drawn_at:
            event.prevent_default()  # Textual's own handler comes next in line


class MenuScreen(LaidOut, Screen[None]):
    if TYPE_CHECKING:
        app = getters.app(GarApp)

    BINDINGS = [
        # Enter opens the highlighted option, and the key bar says what that
        # does: only the binding for the kind of option highlighted is on.
        Binding("enter", "open('play')", N_("Play"), priority=True),
        Binding("enter", "open('see')", N_("Open"), priority=True),
        Binding("enter", "open('quit')", N_("Quit"), priority=True),
        Binding("question_mark,f1", "rules", N_("Rules")),
        Binding("ctrl+t", "app.next_theme", N_("Theme")),
        Binding("q", "app.quit", N_("Quit"), show=False),
        # The language (English, Español, Galego) in turn, remembered; also
        # in the command palette, and --lang or the locale for one run.
        Binding("l", "next_language", N_("Language")),
        Binding("j", "cursor(1)", show=False),
        Binding("k", "cursor(-1)", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.saves: dict[str, Saved] = {}
        self._saved_at: dict[str, float] | None = None  # each save's time at the last reload
        self._list_lines = 0
        self._resumed = False  # the first resume follows the mount, which has just loaded the saves

    def compose(self) -> ComposeResult:
        with Vertical(id="menu-top"):
            art = (BANNER_ASCII if self.app.ascii_only else BANNER).splitlines()
            width = max(map(len, art))
            # Equal widths, so centring keeps the letters' columns together.
            yield Static("\n".join(line.ljust(width) for line in art), id="banner", markup=False)
            yield Static(_(MOTTO), id="motto")
        with Horizontal(id="menu-body"):
            yield GameList(id="games")
            yield Static(id="about")
        yield KeyBar()

    def on_mount(self) -> None:
        self.reload()
        from garito.store.settings import player_known

        from .notices import TooSmallScreen

        # The first start, at the menu (not `garito play`): the name is asked,
        # under the "too small" notice if the terminal is small.
        shown = [s for s in self.app.screen_stack if not isinstance(s, TooSmallScreen)]
        if not player_known() and shown[-1] is self:
            from .profile import ProfileScreen

            self.app.push_screen(ProfileScreen(first=True), lambda _: self.reload())

    def on_screen_resume(self) -> None:
        if self._resumed:  # back from another screen: a game may have been saved or finished
            self.reload()
        self._resumed = True

    def reload(self) -> None:
        from garito.store import saves

        found, damaged = saves.load_all()
        for bad in damaged:
            where = " " + _("It was moved to {path}.").format(path=bad.moved_to) if bad.moved_to else ""
            self.notify(
                _("A saved game could not be read ({reason}).").format(reason=bad.reason) + where,
                title=_("Damaged save set aside"),
                severity="warning",
                timeout=10,
            )
        self.saves = {s.game: s for s in found}
        try:
            games = self.query_one("#games", OptionList)
        except NoMatches:  # the player hung up as the menu came: the screen is already taken down
            return
        keep = games.highlighted_option.id if games.highlighted_option else None
        games.clear_options()
        options: list[Option | None] = []
        for s in found:
            info = catalog.get(s.game)
            options.append(
                Option(Text.assemble((_("Continue") + " ", "bold"), info.title), id=f"continue:{s.game}")
            )
        # Separators are drawn with box lines: none in ASCII mode.
        gap = [] if self.app.ascii_only else [None]
        if found:
            options += gap
        for info in catalog.GAMES:
            options.append(Option(Text(info.title), id=f"game:{info.id}"))
        from garito.store.settings import player

        from ..served import tables_socket

        if tables_socket():  # started by `garito serve`: other players are here
            options += [*gap, Option(Text(_("Shared tables"), "bold"), id="lobby")]
        options += [
            *gap,
            Option(_("Statistics"), id="stats"),
            Option(_("History"), id="history"),
            Option(Text.assemble(_("Player:") + " ", (player(), "bold")), id="player"),
            Option(_("Quit"), id="quit"),
        ]
        games.add_options(options)
        self._list_lines = len(options)  # one line each, separators too
        ids = [o.id for o in options if o is not None]
        saved_at = {s.game: s.mtime for s in found}
        changed = [
            s.game for s in found if self._saved_at is not None and self._saved_at.get(s.game) != s.mtime
        ]
        if changed:  # back from a game that was saved: Continue is what one wants next
            games.highlighted = ids.index(f"continue:{changed[0]}")
        elif keep in ids:  # back from a dialog, the rules, the statistics: where it was
            games.highlighted = ids.index(keep)
        else:
            games.highlighted = 0
        self._saved_at = saved_at
        # The highlighted option's text at once, not when the list's message
        # about it comes: that came after the first frame, which showed an
        # empty panel and was laid out and painted again.
        self._show_about(ids[games.highlighted] or "")
        self._fit()
        games.focus()

    def on_resize(self, event: events.Resize) -> None:
        self._fit()

    def _fit(self) -> None:
        """The banner gives way when the list needs its rows (with every
        game saved, and the shared tables, the list has 20 lines, and
        nothing of it may scroll out of sight at 80×24): the title is then
        one line, "Garito · a parlor of …", and the motto that says what
        Garito is stays (hidden first, it was gone with four games saved)."""
        need = self._list_lines + 2 + 1  # its borders, the key bar
        banner = len((BANNER_ASCII if self.app.ascii_only else BANNER).splitlines())
        height = self.size.height or self.app.size.height
        bare = need + banner + 3 > height  # the banner, the motto and their margins
        self.set_class(bare, "-bare")
        self.query_one("#banner").display = not bare
        dash = "-" if self.app.ascii_only else "·"
        self._update("#motto", f"Garito {dash} {_(MOTTO)}" if bare else _(MOTTO))

    def _update(self, selector: str, content: str | Text) -> None:
        """A Static's content, where it changed: ``update`` lays the screen
        out again even for the same text (the menu's first Resize, the
        highlight message its first frame had already shown)."""
        static = self.query_one(selector, Static)
        if static.content != content:
            static.update(content)

    def _selected(self) -> str | None:
        option = self.query_one("#games", OptionList).highlighted_option
        return option.id if option else None

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._show_about(event.option.id or "")
        self.refresh_bindings()  # ? Rules only on a game

    def _show_about(self, option_id: str) -> None:
        about = self._about(option_id)
        self._update("#about", ascii_text(about) if self.app.ascii_only else about)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "rules":  # a game's, on a game: not on the statistics, the name, quit
            try:
                return bool((self._selected() or "").partition(":")[2])
            except NoMatches:  # not composed yet
                return False
        if action == "open":
            try:
                selected = self._selected() or ""
            except NoMatches:
                selected = ""
            kind = (
                "quit"
                if selected == "quit"
                else "see"
                if selected in ("stats", "history", "player")
                else "play"
            )
            return parameters == (kind,)
        return True

    def _about(self, option_id: str) -> Text:
        if option_id == "quit":
            return Text.assemble(
                (_("Quit") + "\n\n", "bold"), _("Leave Garito. A game in progress stays saved.")
            )
        if option_id == "player":
            return Text.assemble(
                (_("Your name") + "\n\n", "bold"),
                _(
                    "The first human seat of each new game takes it, and the statistics "
                    "are kept under it. Enter: change it."
                ),
            )
        if option_id == "lobby":
            return Text.assemble(
                (_("Shared tables") + "\n\n", "bold"),
                _(
                    "Play the others connected to this server: take a free seat at an open "
                    "table, open one of your own (seats for players or computers), or watch."
                ),
            )
        if option_id == "stats":
            return Text.assemble(
                (_("Statistics") + "\n\n", "bold"),
                _(
                    "Per player and game: matches played, won, lost and drawn, win rate, "
                    "streaks, each game's records, the win rate over time."
                )
                + "\n\n",
                (_("Also: garito stats"), "dim"),
            )
        if option_id == "history":
            return Text.assemble(
                (_("History") + "\n\n", "bold"),
                _(
                    "Every finished match: replay it move by move on its own table, "
                    "export its record as JSON or as a text transcript."
                )
                + "\n\n",
                (_("Also: garito history, garito export, garito audit"), "dim"),
            )
        kind, _sep, game = option_id.partition(":")
        info = catalog.get(game)
        lo, hi = info.players
        players = (
            ngettext("{count} player", "{count} players", lo).format(count=lo)
            if lo == hi
            else _("{low}–{high} players").format(low=lo, high=hi)
        )
        text = Text()
        text.append(info.title + "\n", "bold")
        text.append(f"{players} · {_(info.dice)}\n\n", "dim")
        text.append(_(info.tagline) + "\n\n")
        if kind == "continue":
            m = self.saves[game].match
            moves = len(m.actions)
            text.append(
                ngettext("Saved after {count} move.", "Saved after {count} moves.", moves).format(count=moves)
                + "\n",
                "italic",
            )
            text.append(m.rules.summary(m.state, m.names) + "\n\n")
            text.append(_("Enter: continue exactly where you left off."))
        else:
            text.append(_("Enter: new game\n?: rules and keys"))
            if game in self.saves:
                text.append("\n\n" + _("You have a saved game of this: see Continue."), "italic")
        return text

    def action_next_language(self) -> None:
        languages = list(i18n.LANGUAGES)
        self.app.choose_language(languages[(languages.index(i18n.language()) + 1) % len(languages)])

    def relabel(self) -> None:
        """Everything shown again in the language just chosen."""
        self._update("#motto", _(MOTTO))
        self.reload()
        self.refresh_bindings()

    def action_cursor(self, delta: int) -> None:
        games = self.query_one("#games", OptionList)
        games.action_cursor_down() if delta > 0 else games.action_cursor_up()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.open(event.option.id or "")

    def action_open(self, _kind: str = "play") -> None:
        self.open(self._selected() or "")

    def open(self, option_id: str) -> None:
        if option_id == "quit":
            self.app.exit()
            return
        if option_id == "player":
            from .profile import ProfileScreen

            self.app.push_screen(ProfileScreen(), lambda _: self.reload())
            return
        if option_id == "lobby":
            from .lobby import LobbyScreen

            self.app.push_screen(LobbyScreen())
            return
        if option_id in ("stats", "history"):
            from .history import HistoryScreen, StatsScreen

            self.app.push_screen(StatsScreen() if option_id == "stats" else HistoryScreen())
            return
        kind, _sep, game = option_id.partition(":")
        if kind == "continue":
            self.app.open_match(self.saves[game].match)
            return
        from .newgame import NewGameScreen

        self.app.push_screen(NewGameScreen(game, has_save=game in self.saves))

    def action_rules(self) -> None:
        option_id = self._selected() or ""
        _kind, _sep, game = option_id.partition(":")
        if not game:
            return
        from .rules import RulesScreen

        self.app.push_screen(RulesScreen(game))
