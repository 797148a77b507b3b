"""GarApp: the Garito application shell.

The app owns what every screen shares: the theme, ASCII mode, the bot pace,
the "too small" notice, and where a game starts from (the menu, the CLI, or
a save). Game screens are imported only when a game opens, so the menu's
first frame costs little more than Textual itself.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from rich.segment import Segment
from textual import constants
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.color import Color
from textual.command import CommandPalette
from textual.driver import Driver
from textual.events import Key, Resize
from textual.filter import LineFilter
from textual.notifications import SeverityLevel
from textual.screen import Screen

from garito.core import i18n
from garito.core.i18n import N_, _, ngettext
from garito.store import environ
from garito.widgets import lean
from garito.widgets.field import priority_bound
from garito.widgets.glyphs import ascii_cells, to_ascii

from . import THEMES
from .screens.menu import MenuScreen
from .screens.notices import TooSmallScreen

if TYPE_CHECKING:
    from garito.core.match import Match

MIN_WIDTH, MIN_HEIGHT = 80, 24
DEFAULT_THEME = "textual-dark"


class AsciiFilter(LineFilter):
    """Every sign drawn on the terminal in ASCII, each one character wide."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        return [s if s.text.isascii() else Segment(ascii_cells(s.text), s.style, s.control) for s in segments]


def _env_flag(name: str) -> bool:
    return (environ.get(name) or "").strip().lower() not in ("", "0", "false", "no")


class GarApp(App[None]):
    CSS_PATH = "garito.tcss"
    TITLE = "Garito"
    BINDINGS = [
        Binding("ctrl+q", "quit", N_("Quit"), priority=True, id="quit"),
        Binding("ctrl+t", "next_theme", N_("Theme"), show=False, id="theme"),
    ]

    def __init__(
        self,
        *,
        ascii_only: bool | None = None,
        theme: str | None = None,
        start: Match | None = None,
        bot_delay: float | None = None,
        replay: Match | None = None,
    ) -> None:
        lean.apply()  # before the first line is drawn (widgets.lean)
        super().__init__()
        from garito.store import settings

        prefs = settings.load()
        self.ascii_only = _env_flag("GARITO_ASCII") if ascii_only is None else ascii_only
        if bot_delay is None:
            try:
                bot_delay = float(environ.get("GARITO_BOT_DELAY") or "0.7")
            except ValueError:
                bot_delay = 0.7
        self.bot_delay = max(0.0, bot_delay)
        wanted = theme or environ.get("TEXTUAL_THEME") or prefs.get("theme") or DEFAULT_THEME
        self._wanted_theme = wanted if wanted in self.available_themes else DEFAULT_THEME
        # Only a theme chosen in the app (ctrl+t, the palette) is remembered:
        # --theme and TEXTUAL_THEME are for this run.
        self._theme_chosen_here = False
        self.crash_log: Path | None = None  # where an error that stopped the app was written
        self._key_in_turn = False  # a screen's priority key is back at the app, in its turn
        self._start = start
        self._replay = replay
        self._ascii_filter = AsciiFilter() if self.ascii_only else None

    def get_driver_class(self) -> type[Driver]:
        # A driver the environment names (TEXTUAL_DRIVER) is taken as named.
        driver = super().get_driver_class()
        if constants.DRIVER is not None:
            return driver
        from .driver import quiet

        return quiet(driver)

    def on_mount(self) -> None:
        self.theme = self._wanted_theme
        self._theme_chosen_here = True  # from now on, a change is the player's
        if self.ascii_only:
            self.add_class("-ascii")
        self.push_screen(MenuScreen())
        if self._start is not None:
            self.open_match(self._start)
        if self._replay is not None:
            self.open_replay(self._replay)
        self._check_size(self.size.width, self.size.height)
        self._tell_set_aside()
        from garito.store import pending

        if pending.waiting():
            # In a thread: a history another Garito holds makes it wait seconds.
            self.run_worker(self._drain_pending(), group="pending", description="the matches that waited")

    def action_command_palette(self) -> None:
        from .palette import Palette

        if self.use_command_palette and not isinstance(self.screen, CommandPalette):
            # No id (Textual's is "--command-palette"): a palette opened as
            # the last one closes would meet it in the app, the same id twice.
            self.push_screen(Palette())

    def key_ctrl_c(self) -> None:
        # Over a dialog ctrl+c comes here unbound (a key no binding took):
        # Textual leaves the app's own bindings out of a modal screen's
        # chain. A focused field's own ctrl+c (copy) is a binding, and takes it.
        self.action_help_quit()

    def action_help_quit(self) -> None:
        # ctrl+c: Textual's own hint is English and markup ("[b]ctrl+q[/b]"),
        # and notices here are text.
        # The screen's own quit key first (q on the menu), else the app's:
        # over a dialog Textual's active bindings leave the app's out, and
        # its ctrl+q works there all the same (a priority binding).
        bindings = [active.binding for active in self.active_bindings.values()]
        bindings += [binding for _key, binding in self._bindings]
        for binding in bindings:
            if binding.action in ("quit", "app.quit"):
                self.notify(
                    _("Press {key} to quit Garito.").format(key=self.get_key_display(binding)),
                    title=_("Do you want to quit?"),
                )
                return

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Every notice is shown as text, never markup: notices carry names,
        rules and what a file held ("[/]" is a name, not a closing tag). In
        ASCII mode, in ASCII: a rule's words from the core may hold signs
        ("1 ≤ minimum")."""
        if self.ascii_only:
            message, title = to_ascii(message), to_ascii(title)
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=False)

    # ---------------------------------------------------------- files at start

    def _tell_set_aside(self) -> None:
        """Say once what the small files read at start could not hold."""
        from garito.store import bests, settings

        bests.load()
        for problem in (settings.take_problem(), bests.take_problem()):
            if problem:
                self.notify(problem, title=_("Set aside"), severity="warning", timeout=10)

    async def _drain_pending(self) -> None:
        """Matches that waited for the history go into it now (in a thread,
        in a copy of the context: see GameScreen.think)."""
        from garito.store.pending import drain

        done = await asyncio.to_thread(drain)
        if done.added or done.set_aside:
            self._drained(done)

    def _drained(self, done) -> None:
        if done.added:
            self.notify(
                ngettext(
                    "{count} finished match that waited for the history is in it now.",
                    "{count} finished matches that waited for the history are in it now.",
                    done.added,
                ).format(count=done.added),
                title=_("History"),
                timeout=6,
            )
        for path in done.set_aside:
            self.notify(
                _("A finished match waiting for the history could not be read; it is kept as {path}.").format(
                    path=path
                ),
                title=_("Set aside"),
                severity="warning",
                timeout=10,
            )

    # ---------------------------------------------------------- navigation

    def open_match(self, match: Match, instead: bool = False) -> None:
        """Show ``match`` on its game's screen; ``instead`` of the screen on
        top (a rematch: the menu under it is not shown, and read again from
        its saves, only to be covered at once; 40 ms of a rematch's 100)."""
        from .games import screen_for

        if instead:
            self.switch_screen(screen_for(match))
        else:
            self.push_screen(screen_for(match))

    def open_replay(self, match: Match, at: int | None = None) -> None:
        """Step through ``match`` on its game's screen, move by move."""
        from .games import screen_for

        self.push_screen(screen_for(match).replay(at))

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        """Textual's theme and quit commands, and Garito's own. Not Textual's
        "Keys" (a help panel for widgets), "Maximize" or "Screenshot" (an SVG
        written where the server runs, over SSH): nothing a player needs."""
        for command in super().get_system_commands(screen):
            if command.title in ("Theme", "Quit"):
                yield command
        from garito.core import catalog

        from .screens.game import GameScreen
        from .screens.rules import RulesScreen

        for info in catalog.GAMES:
            yield SystemCommand(
                _("Rules: {game}").format(game=info.title),
                _("How {game} is played, and its keys").format(game=info.title),
                lambda game=info.id: self.push_screen(RulesScreen(game)),
            )
        if isinstance(screen, MenuScreen):
            for info in catalog.GAMES:
                yield SystemCommand(
                    _("New game: {game}").format(game=info.title),
                    _("Seats, rules and seed, then play"),
                    lambda game=info.id: screen.open(f"game:{game}"),
                )
            for game in screen.saves:
                yield SystemCommand(
                    _("Continue: {game}").format(game=catalog.get(game).title),
                    _("Resume the saved game"),
                    lambda game=game: screen.open(f"continue:{game}"),
                )
            for code, name in i18n.LANGUAGES.items():
                if code != i18n.language():
                    yield SystemCommand(
                        f"{_('Language')}: {name}",
                        _("Garito in {language}, from now on").format(language=name),
                        lambda code=code: self.choose_language(code),
                    )
        if isinstance(screen, GameScreen):
            yield SystemCommand(
                _("Leave this game"), _("Back to the menu; the game stays saved"), screen.action_leave
            )

    def watch_theme(self, theme: str) -> None:
        from garito.store import settings

        if self._theme_chosen_here:
            settings.update(theme=theme)

    def action_next_theme(self) -> None:
        i = THEMES.index(self.theme) if self.theme in THEMES else -1
        self.theme = THEMES[(i + 1) % len(THEMES)]
        self.notify(_("Theme: {theme}").format(theme=self.theme), timeout=1.5)

    def choose_language(self, language: str) -> None:
        """Speak ``language`` from now on, remembered for the next runs
        (chosen on the menu, where nothing else is on view to redraw)."""
        from garito.store import settings

        i18n.choose(language)
        settings.update(language=language)
        if isinstance(self.screen, MenuScreen):
            self.screen.relabel()
        self.notify(_("Language: {language}").format(language=i18n.LANGUAGES[language]), timeout=1.5)

    # ---------------------------------------------------------- keys in order

    # A screen's Enter is a priority binding: it must win over the focused
    # list's or field's own Enter, and show in the key bar. Textual runs a
    # priority binding as its key arrives, while the keys read with it (the
    # ↓↓↓ before ⏎, a name's letters) still wait in the focused widget's
    # queue: a fast typist, a paste or an SSH connection's batching opened
    # the wrong game, or started with half a name. A screen's priority key
    # goes the way of the others instead, and its binding runs when the key
    # comes back up to the app, in its turn; the app's own (Ctrl+Q) still
    # runs at once, whatever the screen does with keys.

    async def _check_bindings(self, key: str, priority: bool = False) -> bool:
        if priority and not self._key_in_turn and priority_bound(self.screen, key, besides=self):
            return False  # forwarded to the focused widget; run in _on_key
        return await super()._check_bindings(key, priority)

    async def _on_key(self, event: Key) -> None:
        # Textual calls each class's ``_on_key`` in turn (this one first):
        # App's, which runs the other bindings, runs unless this one did.
        self._key_in_turn = True
        try:
            if await self._check_bindings(event.key, priority=True):
                event.prevent_default()
        finally:
            self._key_in_turn = False

    # ---------------------------------------------------------- a crash

    def _handle_exception(self, error: Exception) -> None:
        """An error nobody caught stops the app (Textual's way, exit status
        1); its traceback goes to a file, and the terminal gets one line
        (``_print_error_renderables``)."""
        from textual.css.query import NoMatches

        from garito import __version__
        from garito.store import crashlog

        if getattr(self, "_exit", False) and isinstance(error, NoMatches):
            # Asked to quit as it was starting (a player who hung up at once):
            # a screen's late handler found its parts already taken down.
            # Nothing went wrong; the app goes on ending.
            return
        self.crash_log = crashlog.keep(error, __version__)
        super()._handle_exception(error)

    def _print_error_renderables(self) -> None:
        if self.crash_log is not None and self._exit_renderables:
            # one plain line, unwrapped, after the terminal is given back
            # (the error console: a terminal's stderr, or a served player's own screen)
            self._exit_renderables.clear()
            self.error_console.print(
                _("garito: the app stopped on an error; what happened is in {path}").format(
                    path=self.crash_log
                ),
                markup=False,
                highlight=False,
                soft_wrap=True,
            )
        super()._print_error_renderables()

    # ---------------------------------------------------------- too small

    def get_line_filters(self):
        """In ASCII mode every sign drawn is ASCII, Textual's own included."""
        filters = super().get_line_filters()
        return [*filters, self._ascii_filter] if self._ascii_filter is not None else filters

    def push_screen(self, screen, callback=None, wait_for_dismiss=False, *, mode=None):
        """Screens opened while the terminal is too small (a computer ending
        the match, the first start's question) go under the notice."""
        if self.ascii_only and isinstance(screen, CommandPalette):
            screen.call_after_refresh(self._ascii_palette, screen)
        if isinstance(self.screen, TooSmallScreen) and not isinstance(screen, TooSmallScreen):
            self.pop_screen()
            opened = super().push_screen(screen, callback, wait_for_dismiss, mode=mode)
            super().push_screen(TooSmallScreen())
            return opened
        return super().push_screen(screen, callback, wait_for_dismiss, mode=mode)

    @staticmethod
    def _ascii_palette(palette) -> None:
        from textual.command import SearchIcon

        for icon in palette.query(SearchIcon):  # a magnifying glass, two cells wide
            icon.icon = ">"
            icon.refresh()

    def on_resize(self, event: Resize) -> None:
        self._check_size(event.size.width, event.size.height)

    def _check_size(self, width: int, height: int) -> None:
        small = width < MIN_WIDTH or height < MIN_HEIGHT
        # The screens under the notice never scroll meanwhile: at a column or
        # two, a screen's scrollbar came and went, a layout each way, and
        # Textual draws the screen on top anew for each (120 frames a second,
        # idle).
        self.set_class(small, "-too-small")
        showing = isinstance(self.screen, TooSmallScreen)
        if small and not showing:
            self.push_screen(TooSmallScreen())
        elif small:
            for notice in self.screen.query(TooSmallScreen.SizeNotice):  # none before it composes
                notice.size_now = (width, height)
        elif showing:
            self.pop_screen()
