"""The shared tables' ratings on computer-against-computer matches: do the
strong levels rank above the weak ones?

Per game, N matches (default 1,000) played through the core, every seat a
computer: one seat per level (two for a game of two players and two
levels; Barras and Willie seat three), the levels moved one seat on every
match so each plays from every seat. Each finished match is rated with the
server's own code path (``store.ratings.Ratings.played``: the result as the
server takes it, OpenSkill's Plackett-Luce), in memory. Printed per game:
each level's final rating (the ordinal, mu - 3 sigma, as the lobby shows
it), its mu and sigma, its wins, and whether the levels rank in the order
the game lists them (weakest first: for Barras, whose levels are styles of
betting against the house, the order is only the list's). OpenSkill lets a
rating drift (its tau keeps sigma from shrinking to nothing, so a player's
rating follows their recent form): the final rating after two levels of
nearly equal strength is partly chance, so the mean of each level's rating
over the second half of the matches is printed beside it.

    python bench/ratings.py [matches]      (default 1,000; about 4 minutes on one core)
"""

from __future__ import annotations

import sys
import time

from garito.core import catalog
from garito.core.match import Match, Seat
from garito.core.session import Session
from garito.core.variants import offered_config
from garito.core.words import COMPUTER_NAMES
from garito.store.ratings import Ratings


def seats_for(game: str) -> int:
    rules = catalog.rules(game)
    lo, hi = rules.players
    return max(lo, min(hi, len(rules.levels)))


def rules_for(game: str, n: int) -> dict[str, object]:
    """The rules played: the default, unless under it every level plays
    alike (Gemelos and Red Man's Throw without stakes: every move a forced
    roll); then the first single choice of the dialog under which they do not."""
    rules = catalog.rules(game)
    if rules.levels_matter(offered_config(rules, n, {})):
        return {}
    for variant in rules.variants:
        for choice in variant.choices:
            try:
                config = offered_config(rules, n, {variant.key: choice})
            except ValueError:
                continue
            if rules.levels_matter(config):
                return {variant.key: choice}
    return {}


def play(game: str, n: int, levels: tuple[str, ...], seed: int, values: dict[str, object]) -> Match:
    rules = catalog.rules(game)
    seats = tuple(Seat(COMPUTER_NAMES[i], "computer", levels[i % len(levels)]) for i in range(n))
    session = Session(Match.start(game, offered_config(rules, n, values), seed, seats), here=())
    while not session.over:
        seat = session.to_act
        assert seat is not None
        session.play(session.computer_move(seat))
    return session.match


def main() -> None:
    matches = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    print(f"Ratings after {matches:,} computer-against-computer matches per game (OpenSkill Plackett-Luce)")
    print("shown: the ordinal, mu - 3 sigma; levels listed weakest first, as each game lists them\n")
    total = time.perf_counter()
    verdicts = []
    for info in catalog.GAMES:
        rules = catalog.rules(info.id)
        levels = tuple(rules.levels)
        n = seats_for(info.id)
        values = rules_for(info.id, n)
        ratings = Ratings(None)
        wins = dict.fromkeys(levels, 0)
        late = dict.fromkeys(levels, 0.0)  # the rating summed after each match of the second half
        started = time.perf_counter()
        for i in range(matches):
            turned = tuple(levels[(j + i) % len(levels)] for j in range(len(levels)))
            match = play(info.id, n, turned, i, values)
            for seat, standing in zip(match.seats, rules.outcome(match.state)):
                wins[seat.level] += standing == "win"
            ratings.played(match, f"bench-{i}")
            if 2 * i >= matches:
                for level in levels:
                    late[level] += ratings.table[(info.id, f"computer:{level}")].ordinal
        took = time.perf_counter() - started
        rows = [ratings.table[(info.id, f"computer:{level}")] for level in levels]
        ordinals = [r.ordinal for r in rows]
        ordered = all(a < b for a, b in zip(ordinals, ordinals[1:]))
        counted = matches - (matches + 1) // 2
        means = [late[level] / counted for level in levels]
        steady = all(a < b for a, b in zip(means, means[1:]))
        verdicts.append((info.title, ordered, steady))
        played = ", ".join(f"{k} {v}" for k, v in values.items()) or "default rules"
        print(f"{info.title} ({n} seats, {played}, {took:.1f} s)")
        for level, r in zip(levels, rows):
            print(
                f"  {level:<9} rating {r.ordinal:6.2f}   mu {r.mu:6.2f}  sigma {r.sigma:5.2f}"
                f"   second half's mean {late[level] / counted:6.2f}   wins {wins[level]:>5} of {r.matches}"
            )
        print(f"  final ratings: {'stronger levels rank higher' if ordered else 'NOT in the listed order'};"
              f" second half's mean: {'in order' if steady else 'NOT in order'}\n")  # fmt: skip
    print(f"total {time.perf_counter() - total:.0f} s")
    print("final ratings in order: " + ", ".join(f"{t} {'yes' if ok else 'no'}" for t, ok, _ in verdicts))
    print(
        "second half's mean in order: " + ", ".join(f"{t} {'yes' if ok else 'no'}" for t, _, ok in verdicts)
    )


if __name__ == "__main__":
    main()
