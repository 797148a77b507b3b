"""CFR+ and an exact best response for small two-player zero-sum games of
imperfect information: the solver the Decimus "master" seat's policy is to
be built with (issue #43).

Pure standard library (the core takes no numpy). A game is given through
:class:`Game`: histories are any hashable values, chance is a player of its
own (:data:`CHANCE`), and the payoff is player 0's (player 1 gets its
negative). The tables are dicts keyed by information-set strings, so the
same code solves Kuhn poker (the test's known value, -1/18 for the first
player) and the abstract Decimus betting.

CFR+ (Tammelin 2014, as Cepheus used it): regrets floored at zero after
every update, players updated in turn, and the average strategy weighted by
the iteration number, which converges far faster than plain CFR's uniform
average. Exploitability is exact: a best response is computed for each
seat over the whole tree, information set by information set.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Generic, Protocol, TypeVar

CHANCE = -1

H = TypeVar("H", bound=Hashable)  # a history: any hashable value the game chooses
Strategy = dict[str, tuple[float, ...]]


class Game(Protocol[H]):
    """A finite two-player zero-sum game with perfect recall."""

    def root(self) -> H: ...
    def player(self, h: H) -> int:  # 0, 1 or CHANCE; only for a history that is not terminal
        ...
    def is_terminal(self, h: H) -> bool: ...
    def utility(self, h: H) -> float: ...  # player 0's payoff at a terminal history
    def actions(self, h: H) -> Sequence[Hashable]: ...
    def chance(self, h: H) -> Sequence[tuple[Hashable, float]]: ...
    def infoset(self, h: H) -> str: ...  # what the player to act knows
    def child(self, h: H, a: Hashable) -> H: ...


@dataclass
class CFRPlus(Generic[H]):
    """The solver's tables: cumulative positive regrets and the weighted sum
    of the strategies played, both per information set."""

    game: Game[H]
    regrets: dict[str, list[float]] = field(default_factory=dict)
    sums: dict[str, list[float]] = field(default_factory=dict)
    iterations: int = 0

    def _current(self, key: str, n: int) -> list[float]:
        r = self.regrets.get(key)
        if r is None:
            return [1.0 / n] * n
        total = sum(r)
        if total <= 0.0:
            return [1.0 / n] * n
        return [x / total for x in r]

    def iterate(self, count: int = 1, progress: Callable[[int], None] | None = None) -> None:
        """Run ``count`` CFR+ iterations (each updates both players in turn)."""
        for _ in range(count):
            self.iterations += 1
            for p in (0, 1):
                # The regrets change after the walk, not during it: every
                # history of an information set must see the same strategy.
                self._delta: dict[str, list[float]] = {}
                self._walk(self.game.root(), p, 1.0, 1.0)
                for key, d in self._delta.items():
                    r = self.regrets.setdefault(key, [0.0] * len(d))
                    for i, x in enumerate(d):
                        r[i] = max(0.0, r[i] + x)
            if progress is not None:
                progress(self.iterations)

    def _walk(self, h: H, p: int, reach_p: float, reach_o: float) -> float:
        """Player ``p``'s counterfactual value of ``h``; updates ``p``'s regrets
        and the opponent's average strategy (weighted by the iteration)."""
        g = self.game
        if g.is_terminal(h):
            u = g.utility(h)
            return u if p == 0 else -u
        actor = g.player(h)
        if actor == CHANCE:
            return sum(q * self._walk(g.child(h, a), p, reach_p, reach_o * q) for a, q in g.chance(h))
        acts = g.actions(h)
        n = len(acts)
        key = g.infoset(h)
        sigma = self._current(key, n)
        if actor == p:
            values = [self._walk(g.child(h, a), p, reach_p * s, reach_o) for a, s in zip(acts, sigma)]
            node = sum(s * v for s, v in zip(sigma, values))
            d = self._delta.setdefault(key, [0.0] * n)
            for i in range(n):
                d[i] += reach_o * (values[i] - node)
            return node
        # The opponent's node: its strategy enters the average, weighted by t.
        acc = self.sums.setdefault(key, [0.0] * n)
        w = self.iterations * reach_o
        for i in range(n):
            acc[i] += w * sigma[i]
        return sum(s * self._walk(g.child(h, a), p, reach_p, reach_o * s) for a, s in zip(acts, sigma))

    def average(self) -> Strategy:
        """The average strategy: the one that converges to an equilibrium."""
        out: Strategy = {}
        for key, acc in self.sums.items():
            total = sum(acc)
            n = len(acc)
            out[key] = tuple(x / total for x in acc) if total > 0 else tuple([1.0 / n] * n)
        return out


def _probs(strategy: Strategy, key: str, n: int) -> Sequence[float]:
    return strategy.get(key) or [1.0 / n] * n


def value(game: Game[H], strategy: Strategy, h: H | None = None) -> float:
    """Player 0's expected payoff when both seats play ``strategy``."""
    h = game.root() if h is None else h
    if game.is_terminal(h):
        return game.utility(h)
    if game.player(h) == CHANCE:
        return sum(q * value(game, strategy, game.child(h, a)) for a, q in game.chance(h))
    acts = game.actions(h)
    sigma = _probs(strategy, game.infoset(h), len(acts))
    return sum(s * value(game, strategy, game.child(h, a)) for a, s in zip(acts, sigma) if s > 0.0)


def best_response_value(game: Game[H], strategy: Strategy, br: int) -> float:
    """Seat ``br``'s payoff when it best-responds to ``strategy`` played by the
    other seat: exact, over the whole tree.

    A best response picks one action per information set, not per history, so
    each set's choice weighs the values of all its histories by the chance and
    opponent reach of each (gathered first, in one walk)."""
    members: dict[str, list[tuple[H, float]]] = {}

    def gather(h: H, reach: float) -> None:
        if game.is_terminal(h):
            return
        actor = game.player(h)
        if actor == CHANCE:
            for a, q in game.chance(h):
                gather(game.child(h, a), reach * q)
            return
        acts = game.actions(h)
        if actor == br:
            members.setdefault(game.infoset(h), []).append((h, reach))
            for a in acts:
                gather(game.child(h, a), reach)
            return
        sigma = _probs(strategy, game.infoset(h), len(acts))
        for a, s in zip(acts, sigma):
            if s > 0.0:
                gather(game.child(h, a), reach * s)

    gather(game.root(), 1.0)
    chosen: dict[str, int] = {}
    sign = 1.0 if br == 0 else -1.0

    memo: dict[H, float] = {}

    def val(h: H) -> float:
        """``br``'s value of ``h`` with ``br`` playing its best response
        (memoised: each set's choice looks at every member's subtree)."""
        got = memo.get(h)
        if got is None:
            got = memo[h] = _val(h)
        return got

    def _val(h: H) -> float:
        if game.is_terminal(h):
            return sign * game.utility(h)
        actor = game.player(h)
        if actor == CHANCE:
            return sum(q * val(game.child(h, a)) for a, q in game.chance(h))
        acts = game.actions(h)
        key = game.infoset(h)
        if actor == br:
            if key not in chosen:
                totals = [
                    sum(r * val(game.child(m, a)) for m, r in members.get(key, [(h, 1.0)])) for a in acts
                ]
                chosen[key] = max(range(len(acts)), key=totals.__getitem__)
            return val(game.child(h, acts[chosen[key]]))
        sigma = _probs(strategy, key, len(acts))
        return sum(s * val(game.child(h, a)) for a, s in zip(acts, sigma) if s > 0.0)

    return val(game.root())


def exploitability(game: Game[H], strategy: Strategy) -> float:
    """The mean of the two seats' best-response gains: zero exactly at an
    equilibrium, in the game's own payoff units (points per game)."""
    return (best_response_value(game, strategy, 0) + best_response_value(game, strategy, 1)) / 2.0
