"""The statistics and the history of finished matches, from the menu.

``StatsScreen``: per player, for one game or all (← → choose), matches
played, won, lost, drawn, win rate, streaks and the game's own records,
with the win rate over time plotted for one game; ``a`` opens the dice
audit (``AuditScreen``). ``HistoryScreen``: every
finished match, newest first; Enter replays it on its game's own screen,
``j`` and ``t`` export its record as JSON or as a text transcript."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.cells import set_cell_size
from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.reactive import var
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from garito.core import catalog
from garito.core.i18n import N_, _, ngettext
from garito.core.names import printable
from garito.widgets.chart import Chart
from garito.widgets.keybar import KeyBar
from garito.widgets.line import Line

if TYPE_CHECKING:
    from textual import getters

    from ..app import GarApp


def _load(game: str | None = None):
    """The history's entries and "", or ([], the reason it cannot be read);
    and a line on the matches it could not read, if any."""
    from garito.store.history import History, HistoryError

    try:
        with History() as h:
            return h.entries(game), "", h.left_out_text()
    except HistoryError as e:
        return [], str(e), ""


class StatsScreen(Screen[None]):
    if TYPE_CHECKING:
        app = getters.app(GarApp)

    DEFAULT_CSS = """
    #stats-body { padding: 0 1; }
    #stats-table { height: auto; margin-bottom: 1; }
    #stats-chart { height: 1fr; max-height: 12; }
    """
    BINDINGS = [
        Binding("escape", "app.pop_screen", N_("Back")),
        Binding("left,h", "game(-1)", N_("Game"), key_display="←→"),
        Binding("right,l", "game(1)", N_("Game"), show=False),
        Binding("a", "audit", N_("Dice audit")),
    ]
    heading: var[str] = var("")
    series: var[tuple[tuple[int, ...], ...]] = var(())
    labels: var[tuple[str, ...]] = var(())

    def __init__(self) -> None:
        super().__init__()
        self.choices: list[str | None] = [None] + [g.id for g in catalog.GAMES]
        self.choice = 0

    def compose(self) -> ComposeResult:
        yield Line(id="title").data_bind(text=StatsScreen.heading)
        with Vertical(id="stats-body"):
            yield Static(id="stats-table")
            yield Chart(id="stats-chart").data_bind(StatsScreen.series, StatsScreen.labels)
        yield KeyBar()

    def on_mount(self) -> None:
        self.entries, self.problem, left_out = _load()
        if left_out:
            self.notify(left_out, severity="warning", timeout=8)
        self.show()

    def action_audit(self) -> None:
        self.app.push_screen(AuditScreen())

    def action_game(self, delta: int) -> None:
        self.choice = (self.choice + delta) % len(self.choices)
        self.show()

    def show(self) -> None:
        from garito.store import stats as st

        game = self.choices[self.choice]
        title = catalog.get(game).title if game else _("all games")
        self.heading = _("Statistics — {game}   (←/→ another game)").format(game=title)
        entries = [e for e in self.entries if game is None or e.game == game]
        lines = st.lines(entries)
        if game is None:
            # By player (who played most first), each one's games in the
            # menu's order: a player's rows together, not scattered by counts.
            played: dict[str, int] = {}
            for x in lines:
                played[x.player] = played.get(x.player, 0) + x.played
            order = {g.id: i for i, g in enumerate(catalog.GAMES)}
            lines = sorted(lines, key=lambda x: (-played[x.player], x.player, order.get(x.game, len(order))))
        else:
            lines = sorted(lines, key=lambda x: (-x.played, x.player))
        body = self.query_one("#stats-table", Static)
        chart = self.query_one(Chart)
        self.shown = lines
        self.message = ""
        if self.problem or not lines:
            self.message = self.problem or _("No finished matches of {game} yet.").format(game=title)
            body.update(Text(self.message, style="dim"))
            self.series, self.labels = (), ()
            chart.display = False
            return
        table = Table(box=None, pad_edge=False, expand=False)
        table.add_column(_("Player"))
        if game is None:
            table.add_column(_("Game"))
        for col in (_("Played"), _("Won"), _("Lost"), _("Drawn"), _("Rate"), _("Streak"), _("Best")):
            table.add_column(col, justify="right")
        for line in lines:
            # a name is text: a Rich table would read a str cell as markup
            row = [Text(line.player)] + ([catalog.get(line.game).title] if game is None else [])
            row += [str(line.played), str(line.won), str(line.lost), str(line.drawn), f"{line.rate:.0%}"]
            row += [line.streak, str(line.best_streak)]
            table.add_row(*row)
        records = Text()
        if game is not None:
            for line in lines:
                if line.records:
                    records.append(f"\n{line.player}: ", "bold")
                    records.append(st.record_text(line))
        self.message = records.plain.strip()
        body.update(Group(table, records) if records else table)
        # the win rate over time, per player, for one game (a few players)
        shown = [x for x in lines if len(x.rate_over_time) > 1][:4] if game else []
        chart.display = bool(shown)
        self.series = tuple(tuple(round(100 * r) for r in x.rate_over_time) for x in shown)
        self.labels = tuple(_("{player} win %").format(player=x.player) for x in shown)


class HistoryScreen(Screen[None]):
    if TYPE_CHECKING:
        app = getters.app(GarApp)

    BINDINGS = [
        Binding("escape", "app.pop_screen", N_("Back")),
        Binding("enter", "replay", N_("Replay"), priority=True),
        Binding("j", "export('json')", N_("Export JSON")),
        Binding("t", "export('text')", N_("Export text")),
    ]

    def compose(self) -> ComposeResult:
        yield Line(id="title").data_bind(text=HistoryScreen.heading)
        yield OptionList(id="history")
        fair = Static(id="history-fair", markup=False)
        fair.display = False  # shown for a shared table's match only
        yield fair
        yield KeyBar()

    heading: var[str] = var("")

    def __init__(self) -> None:
        super().__init__()
        self.heading = _("History — every finished match, newest first")
        self._verdicts: dict[int, str] = {}  # match -> what its dice's check said

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """A shared table's match says whether its dice were verified: the
        seed its table committed to before play, and the moves replayed
        from it (``core.fairness``)."""
        fair = self.query_one("#history-fair", Static)
        match_id = self._chosen()
        said = self._verdict(match_id) if match_id is not None else ""
        fair.display = bool(said)
        fair.update(said)

    def _verdict(self, match_id: int) -> str:
        from garito.core.fairness import verify
        from garito.core.match import RecordError
        from garito.store.history import History, HistoryError

        if match_id not in self._verdicts:
            try:
                with History() as h:
                    record = h.record(match_id)
                if not isinstance(record, dict) or not record.get("commitment"):
                    said = ""
                else:
                    verdict = verify(record)
                    said = (
                        _(
                            "Shared table: dice verified. The seed is the one committed to before play "
                            "({hash}) and every move replays from it."
                        ).format(hash=record["commitment"][:16])
                        if verdict.verified
                        else _("Shared table: dice NOT verified: {why}.").format(why=verdict.why)
                    )
            except (HistoryError, RecordError, ValueError, TypeError) as e:
                said = _("Shared table: its record cannot be checked: {why}").format(why=e)
            self._verdicts[match_id] = printable(said)
        return self._verdicts[match_id]

    def on_mount(self) -> None:
        entries, problem, left_out = _load()
        if left_out:
            self.notify(left_out, severity="warning", timeout=8)
        self.entries = {e.id: e for e in entries}
        lst = self.query_one(OptionList)
        if problem or not entries:
            lst.add_option(
                Option(Text(problem or _("No finished matches yet."), style="dim"), id="none", disabled=True)
            )
            return
        for e in reversed(entries):
            when = e.finished[5:16].replace("T", " ")  # month-day hour:minute
            title, players = catalog.get(e.game).title, ", ".join(e.players)
            label = f"{e.id:>4} {when}  {title:<15} {set_cell_size(players, 20)} {e.result_text()}"
            lst.add_option(Option(Text(label, no_wrap=True, overflow="ellipsis"), id=str(e.id)))
        lst.highlighted = 0
        lst.focus()

    def _chosen(self) -> int | None:
        option = self.query_one(OptionList).highlighted_option
        return int(option.id) if option and option.id and option.id.isdigit() else None

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action in ("replay", "export"):
            return self._chosen() is not None
        return True

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.action_replay()

    def _record(self, match_id: int) -> dict | None:
        from garito.store.history import History, HistoryError

        try:
            with History() as h:
                return h.record(match_id)
        except HistoryError as e:
            self.notify(str(e), severity="warning")
            return None

    def action_replay(self) -> None:
        from garito.core.match import Match, RecordError

        match_id = self._chosen()
        record = self._record(match_id) if match_id else None
        if record is None:
            return
        try:
            match = Match.from_record(record)
        except RecordError as e:
            self.notify(_("This match no longer replays: {why}").format(why=e), severity="warning")
            return
        self.app.open_replay(match, at=0)

    def action_export(self, kind: str) -> None:
        from garito.core.match import RecordError
        from garito.store.atomic import write_atomic
        from garito.store.paths import data_dir

        from ..history_cli import record_json, transcript

        match_id = self._chosen()
        record = self._record(match_id) if match_id else None
        if record is None:
            return
        suffix = "json" if kind == "json" else "txt"
        path = data_dir() / "exports" / f"garito-{match_id}.{suffix}"
        try:
            text = record_json(record) if kind == "json" else transcript(record)
        except RecordError as e:
            self.notify(
                _("This match no longer replays ({why}); export it as JSON instead.").format(why=e),
                severity="warning",
            )
            return
        try:
            write_atomic(path, text + "\n")
        except OSError as e:
            self.notify(_("Not exported: {why}").format(why=e.strerror or e), severity="error")
            return
        self.notify(str(path), title=_("Exported"))


class AuditScreen(Screen[None]):
    """Every die rolled in the history, by kind: the count of each face, a
    bar for it, and Pearson's chi-square test of fairness."""

    if TYPE_CHECKING:
        app = getters.app(GarApp)

    DEFAULT_CSS = """
    #audit-scroll { height: 1fr; padding: 0 1; }
    """
    BINDINGS = [Binding("escape", "app.pop_screen", N_("Back"))]
    heading: var[str] = var("")

    def __init__(self) -> None:
        super().__init__()
        self.heading = _("Dice audit — every die rolled in the finished matches")

    def compose(self) -> ComposeResult:
        yield Line(id="title").data_bind(text=AuditScreen.heading)
        with VerticalScroll(id="audit-scroll"):  # ↑ ↓ PageUp PageDown
            yield Static(id="audit-body")
        yield KeyBar()

    def on_mount(self) -> None:
        from garito.core.audit import fairness, rolled
        from garito.store.history import History, HistoryError

        body = self.query_one("#audit-body", Static)
        self.query_one("#audit-scroll").focus()
        try:
            with History() as h:
                faces, bad = rolled(list(h.records()))
        except HistoryError as e:
            body.update(Text(str(e), style="dim"))
            return
        self.results = [fairness(sides, faces[sides]) for sides in sorted(faces)]
        if not self.results:
            body.update(Text(_("No dice rolled in the history yet."), style="dim"))
            return
        out = Text()
        bar = "#" if self.app.ascii_only else "█"
        for f in self.results:
            out.append(
                ngettext("d{sides}: {count} roll", "d{sides}: {count} rolls", f.rolls).format(
                    sides=f.sides, count=f"{f.rolls:,}"
                )
                + "\n",
                "bold",
            )
            top = max(f.counts) or 1
            for face, n in enumerate(f.counts, 1):
                out.append(f" {face:>2} {n:>6,} {n / f.rolls:6.1%} ")
                out.append(bar * max(1, round(30 * n / top)) + "\n", "cyan")
            if f.fair is None:
                out.append(f" {f.verdict[0].upper()}{f.verdict[1:]}.\n\n", "dim")
                continue
            out.append(
                " "
                + _("chi-square {chi2} ({dof} d.f.), p = {p}: ").format(
                    chi2=f"{f.chi2:.2f}", dof=f.dof, p=f"{f.p:.3f}"
                )
            )
            out.append(f"{f.verdict}\n\n", "green" if f.fair else "bold red")
        if bad:
            out.append(
                _("{count} record(s) could not be replayed and were left out.").format(count=bad) + "\n",
                "dim",
            )
        body.update(out)
