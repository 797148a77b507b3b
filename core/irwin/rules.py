"""Irwin's Revenge rule functions (the rules page: ``tui/rules/irwin.md``):
when a throw of d10 takes a statuette, and when five d6 win the final phase
under the blessings held."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from itertools import combinations

from ..i18n import N_, _

STATUETTES = ("crab", "ant", "jellyfish", "eagle", "salamander")
FIGURES = {
    "crab": N_("Crab"),
    "ant": N_("Ant"),
    "jellyfish": N_("Jellyfish"),
    "eagle": N_("Eagle"),
    "salamander": N_("Salamander"),
}
ELEMENTS = {"crab": "sand", "ant": "earth", "jellyfish": "water", "eagle": "air", "salamander": "fire"}
TAKEN_WHEN = {
    "crab": "one die even and another odd",
    "ant": "two dice below 5",
    "jellyfish": "two dice summing to 7",
    "eagle": "a 1 and a 10",
    "salamander": "two consecutive dice",
}
BLESSING = {
    "crab": "may throw twice on its first final turn",
    "ant": "may put its chosen number on one die after each throw",
    "jellyfish": "five of a kind also wins",
    "eagle": "may set one die to any value after each throw",
    "salamander": "four consecutive dice also win",
}
CURSE = {  # each fits the expedition's choice line (50 columns) after "curse: "
    "crab": N_("the rival's 1d10 comes off your points"),
    "ant": N_("the rival's 2d10 come off your points"),
    "jellyfish": N_("skip your next 3 turns"),
    "eagle": N_("the rival throws twice a turn"),
    "salamander": N_("the rival throws three dice"),
}


def _check_statuette(statuette: str) -> None:
    if statuette not in STATUETTES:
        raise ValueError(f"a statuette is one of {', '.join(STATUETTES)}, not {statuette!r}")


def _pair_takes(statuette: str, a: int, b: int) -> bool:
    if statuette == "crab":
        return (a + b) % 2 == 1
    if statuette == "ant":
        return a < 5 and b < 5
    if statuette == "jellyfish":
        return a + b == 7
    if statuette == "eagle":
        return {a, b} == {1, 10}
    return abs(a - b) == 1


def takes(statuette: str, dice: Iterable[int]) -> bool:
    """Whether a throw of two or three d10 (values 1–10) takes the
    statuette: any two of the dice may be used."""
    _check_statuette(statuette)
    faces = tuple(dice)
    if len(faces) not in (2, 3) or not all(isinstance(d, int) and 1 <= d <= 10 for d in faces):
        raise ValueError(f"an expedition throw is two or three d10, got {faces!r}")
    return any(_pair_takes(statuette, a, b) for a, b in combinations(faces, 2))


def is_straight(dice: Iterable[int]) -> bool:
    return sorted(dice) in ([1, 2, 3, 4, 5], [2, 3, 4, 5, 6])


def has_four_run(dice: Iterable[int]) -> bool:
    faces = set(dice)
    return any({s, s + 1, s + 2, s + 3} <= faces for s in (1, 2, 3))


def final_wins(dice: Iterable[int], held: Collection[str]) -> bool:
    """Whether five d6 win the final phase for a holder of the statuettes in
    ``held`` (a set of names), before any Ant or Eagle change: a straight,
    or five of a kind with the Jellyfish, or four consecutive dice with the
    Salamander."""
    faces = tuple(dice)
    if len(faces) != 5 or not all(isinstance(d, int) and 1 <= d <= 6 for d in faces):
        raise ValueError(f"a final-phase throw is five d6, got {faces!r}")
    for s in held:
        _check_statuette(s)
    if is_straight(faces):
        return True
    if "jellyfish" in held and len(set(faces)) == 1:
        return True
    return "salamander" in held and has_four_run(faces)


def why_wins(dice: Sequence[int], held: Collection[str]) -> str:
    """Which rule makes the throw win ("" when it does not)."""
    if is_straight(dice):
        return _("a straight")
    if "jellyfish" in held and len(set(dice)) == 1:
        return _("five of a kind (the Jellyfish)")
    if "salamander" in held and has_four_run(dice):
        return _("four in a row (the Salamander)")
    return ""
