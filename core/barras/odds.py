"""Exact chances for Barras. A player's throw is uniform on 1–100 (00+0
reads 100), the bar uniform on 0–99; ties for the highest throw roll off,
a fair draw among the tied."""

from __future__ import annotations

from functools import cache
from math import comb

from .game import Config

FACES = 100


def beat_chance(bar: int) -> float:
    """The chance that one throw is strictly above the bar."""
    return (100 - bar) / FACES


@cache
def win_chance(bar: int, rivals: int) -> float:
    """The chance of taking the round against ``rivals`` other bettors: to
    be above the bar and the highest, roll-offs included."""
    total = 0.0
    for v in range(bar + 1, 101):
        below = (v - 1) / FACES
        same = 1 / FACES
        # j rivals tie at v (and roll off), the rest are below it.
        total += sum(comb(rivals, j) * same**j * below ** (rivals - j) / (j + 1) for j in range(rivals + 1))
    return total / FACES


def house_edge(config: Config, players: int, bet: int = 1) -> float:
    """The house's expected gain per player per round when ``players``
    players all bet ``bet`` every round (exact, over the 100 bars and the
    throws): the rules' payouts, the solo payout for a lone player."""
    gain = 0.0
    for bar in range(100):
        all_lose = (bar / FACES) ** players
        if players == 1:
            p = beat_chance(bar)
            gain += (1 - p) * bet - p * config.payout(bet)
        else:
            # The house keeps every bet when nobody beats the bar; otherwise
            # the bets change hands between players.
            gain += all_lose * players * bet
    return gain / 100 / players
