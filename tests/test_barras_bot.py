"""Barras computer personalities: sensible and different."""

import statistics

from garito.core.barras import (
    SIT,
    Action,
    Broke,
    Config,
    apply,
    is_over,
    legal_actions,
    new_game,
    to_act,
    view,
)
from garito.core.barras.bot import choose
from garito.core.match import Match, Seat


def at_bet(bar: int, before=(), players=2, **rules):
    """A table where the bar is ``bar`` and the seats before the last have
    made the moves ``before``."""
    d = [bar // 10 + 1, bar % 10 + 1]
    m = Match.start(
        "barras", Config(players=players, **rules), 1, tuple(Seat(f"P{i}") for i in range(players)), tuple(d)
    )
    for move in before:
        m = m.play(Action.parse(move))
    seat = to_act(m.state)
    return view(m.state, seat), legal_actions(m.state)


def test_a_low_bar_alone_is_a_bet_for_all_a_high_one_for_none_but_the_reckless():
    v, legal = at_bet(10)
    for level in ("cautious", "steady", "reckless"):
        assert choose(v, legal, level).kind == "bet"
    v, legal = at_bet(60)  # 40% to beat it at even money
    assert choose(v, legal, "cautious") == SIT and choose(v, legal, "steady") == SIT
    assert choose(v, legal, "reckless").kind == "bet"
    v, legal = at_bet(80)
    assert all(choose(v, legal, lv) == SIT for lv in ("cautious", "steady", "reckless"))


def test_stake_sizes_differ():
    v, legal = at_bet(20)
    cautious, steady, reckless = (choose(v, legal, lv).amount for lv in ("cautious", "steady", "reckless"))
    assert cautious == 1  # the minimum
    assert steady == 20  # 80% at even money: half Kelly of 100 chips is 30, capped at the table maximum
    assert reckless == 20
    v, legal = at_bet(45)
    assert choose(v, legal, "steady").amount == 5  # 55%: half Kelly, 0.5 * 0.1 * 100


def test_among_rivals_the_sound_bet_is_the_minimum():
    v, legal = at_bet(20, before=["bet 10"], players=3)
    assert choose(v, legal, "steady") == Action("bet", 1)
    assert choose(v, legal, "reckless").amount == 20  # half its chips, capped


def test_personalities_play_differently_over_sessions():
    """Over 30 seeded sessions of the three at one table: the reckless one
    bets most often and biggest and goes broke first; the cautious one
    never bets above the minimum."""
    levels = ("cautious", "steady", "reckless")
    bets = {lv: [] for lv in levels}
    turns = dict.fromkeys(levels, 0)
    broke_first = []
    for seed in range(30):
        s = new_game(Config(players=3), seed)
        first = None
        while not is_over(s):
            seat = to_act(s)
            a = choose(view(s, seat), legal_actions(s), levels[seat])
            if s.stage == "bet":
                turns[levels[seat]] += 1
            if a.kind == "bet":
                bets[levels[seat]].append(a.amount)
            s = apply(s, a)
            if first is None:
                first = next((levels[e.seat] for e in s.events[-4:] if isinstance(e, Broke)), None)
        broke_first.append(first)
    rate = {lv: len(bets[lv]) / turns[lv] for lv in levels}
    size = {lv: statistics.fmean(bets[lv]) for lv in levels}
    assert rate["reckless"] > max(rate["steady"], rate["cautious"])
    assert size["reckless"] > size["steady"] > size["cautious"] == 1
    assert broke_first.count("reckless") > 20
