"""Irwin's Revenge: an expedition for five cursed statuettes, then a race
to a straight (the rules page: ``tui/rules/irwin.md``). Public rule functions: :func:`takes` and
:func:`final_wins`; ``RULES`` is the game through the contract
(``core.contract``)."""

from collections.abc import Sequence

from ..contract import Rules
from ..dice import MT
from . import bot
from .game import (
    DEALS,
    KEEP,
    LEVELS,
    LEVELS_HELP,
    PASS,
    RECORDS,
    THROW,
    VARIANTS,
    Action,
    AntNumbered,
    Changed,
    Config,
    CrabOffered,
    CrabPassed,
    Cursed,
    Deal,
    Event,
    ExpeditionOver,
    FinalBegan,
    FinalThrown,
    FinalWon,
    GoesFirst,
    Named,
    Result,
    SalamanderDealt,
    Score,
    Skipped,
    Stage,
    StartRolled,
    State,
    TurnBegan,
    View,
    adjustments,
    apply,
    blessings,
    changed_dice,
    dice_count,
    held_by,
    in_play,
    is_over,
    legal_actions,
    narrate,
    new_game,
    phase,
    records,
    result,
    score,
    summary,
    throws_per_turn,
    to_act,
    view,
)
from .rules import STATUETTES, final_wins, has_four_run, is_straight, takes, why_wins

GAME_ID = "irwin"
TITLE = "Irwin's Revenge"

__all__ = [
    "RULES",
    "IrwinRules",
    "RECORDS",
    "records",
    "DEALS",
    "GAME_ID",
    "KEEP",
    "PASS",
    "LEVELS",
    "LEVELS_HELP",
    "STATUETTES",
    "THROW",
    "TITLE",
    "VARIANTS",
    "Action",
    "Config",
    "Event",
    "AntNumbered",
    "Changed",
    "CrabOffered",
    "CrabPassed",
    "Cursed",
    "Deal",
    "ExpeditionOver",
    "FinalBegan",
    "FinalThrown",
    "FinalWon",
    "GoesFirst",
    "Named",
    "SalamanderDealt",
    "Skipped",
    "Stage",
    "StartRolled",
    "TurnBegan",
    "Result",
    "Score",
    "State",
    "View",
    "adjustments",
    "apply",
    "blessings",
    "changed_dice",
    "dice_count",
    "final_wins",
    "has_four_run",
    "held_by",
    "in_play",
    "is_over",
    "is_straight",
    "legal_actions",
    "narrate",
    "new_game",
    "phase",
    "result",
    "score",
    "summary",
    "takes",
    "throws_per_turn",
    "to_act",
    "view",
    "why_wins",
]


class IrwinRules(Rules[Config, State, Action, View, Event, Result]):
    """Irwin's Revenge through the game contract (``core.contract``)."""

    id = GAME_ID
    config_type = Config
    variants = VARIANTS
    levels = LEVELS
    levels_help = LEVELS_HELP
    record_kinds = RECORDS

    def parse_action(self, text: str) -> Action:
        return Action.parse(text)

    def new_game(self, config: Config, seed: int, dice: tuple[int, ...] = (), stream: str = MT) -> State:
        return new_game(config, seed, dice, stream)

    def legal_actions(self, state: State) -> list[Action]:
        return legal_actions(state)

    def apply(self, state: State, action: Action) -> State:
        return apply(state, action)

    def to_act(self, state: State) -> int | None:
        return to_act(state)

    def is_over(self, state: State) -> bool:
        return is_over(state)

    def result(self, state: State) -> Result | None:
        return result(state)

    def view(self, state: State, seat: int) -> View:
        return view(state, seat)

    def narrate(self, event: Event, names: Sequence[str]) -> str:
        return narrate(event, names)

    def summary(self, state: State, names: Sequence[str]) -> str:
        return summary(state, names)

    def choose(self, view: View, legal: list[Action], level: str) -> Action:
        return bot.choose(view, legal, level)

    def records(self, state: State, seat: int) -> dict[str, float]:
        return dict(records(state, seat))


RULES = IrwinRules()
