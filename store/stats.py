"""Statistics from the history's entries, per player and game: matches
played, won, lost, drawn, win rate, streaks, and each game's own records
(aggregated as its rules' ``record_kinds`` say). Pure: it reads entries, not files."""

from __future__ import annotations

from dataclasses import dataclass, field

from garito.core import catalog
from garito.core.i18n import _, pgettext

from .history import Entry


@dataclass
class Line:
    player: str
    game: str
    played: int = 0
    won: int = 0
    lost: int = 0
    drawn: int = 0
    streak: str = ""  # the current run: "W3", "L1", "D2"
    best_streak: int = 0  # most wins in a row
    records: dict[str, float] = field(default_factory=dict)
    rate_over_time: list[float] = field(default_factory=list)  # win rate after each match

    @property
    def rate(self) -> float:
        return self.won / self.played if self.played else 0.0


def _streak(result: str) -> str:
    """A run's letter: W, L or D in English (a win, a loss, a draw)."""
    if result == "win":
        return pgettext("streak", "W")
    if result == "loss":
        return pgettext("streak", "L")
    if result == "draw":
        return pgettext("streak", "D")
    return result[:1].upper()


def kinds(game: str) -> dict[str, tuple[str, str]]:
    try:
        return dict(catalog.rules(game).record_kinds)
    except LookupError:
        return {}


def lines(entries: list[Entry], player: str | None = None) -> list[Line]:
    """One line per (player, game), in the order first seen."""
    table: dict[tuple[str, str], Line] = {}
    runs: dict[tuple[str, str], tuple[str, int, int]] = {}  # (kind, length, current wins run)
    means: dict[tuple[str, str, str], list[float]] = {}
    for e in entries:
        how_of = kinds(e.game)
        for seat, name in enumerate(e.players):
            if player is not None and name != player:
                continue
            key = (name, e.game)
            line = table.setdefault(key, Line(name, e.game))
            result = e.outcome[seat]
            line.played += 1
            line.won += result == "win"
            line.lost += result == "loss"
            line.drawn += result == "draw"
            kind, length, wins = runs.get(key, ("", 0, 0))
            length = length + 1 if kind == result else 1
            wins = wins + 1 if result == "win" else 0
            runs[key] = (result, length, wins)
            line.streak = f"{_streak(result)}{length}"
            line.best_streak = max(line.best_streak, wins)
            line.rate_over_time.append(line.won / line.played)
            for rk, value in (e.records[seat] if seat < len(e.records) else {}).items():
                how = how_of.get(rk, ("", "max"))[1]
                old = line.records.get(rk)
                if how == "mean":
                    means.setdefault((name, e.game, rk), []).append(value)
                    values = means[(name, e.game, rk)]
                    line.records[rk] = round(sum(values) / len(values), 2)
                elif how == "sum":
                    line.records[rk] = (old or 0) + value
                elif old is None or (value > old if how == "max" else value < old):
                    line.records[rk] = value
    return list(table.values())


def record_text(line: Line) -> str:
    labels = kinds(line.game)
    return "; ".join(f"{_(labels.get(k, (k, ''))[0])} {v:g}" for k, v in line.records.items())
