"""Fair dice at a shared table, shown rather than promised: commit, then reveal.

A table server draws each table's seed with ``secrets`` (``dice.secret_seed``,
128 bits) and rolls from a cryptographic stream (``dice.COUNTER``), so the
faces a seat sees tell nothing of the faces to come. Before the first die
it publishes ``dice.commitment(seed)``, a SHA-256 of the seed, in the lobby
and in every state of the table; it shows the seed only when the match is
over. The record a player keeps holds both, so anyone can check afterwards
(``verify``) that the seed is the one committed to before play, and that
the whole match replays from it: every die was that seed's, none chosen
once the players' moves were known.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .dice import COUNTER, commitment
from .errors import IllegalAction
from .i18n import _
from .match import Match, RecordError


@dataclass(frozen=True)
class Verdict:
    verified: bool
    why: str  # one line, for a person
    match: Match[Any, Any, Any] | None = None


def verify(data: Any) -> Verdict:
    """Whether a record's dice follow from the seed its table committed to.

    ``RecordError`` when ``data`` is not a record at all (damaged, another
    version); a record that is one but fails the check gets a Verdict that
    says why.
    """
    if not isinstance(data, dict):
        raise RecordError("a record is a JSON object")
    promised = data.get("commitment")
    if not promised:
        return Verdict(False, _("no seed commitment: not a shared table's record, nothing to verify"))
    if not isinstance(promised, str):
        raise RecordError("a seed commitment is a hexadecimal hash")
    seed = data.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise RecordError("the seed must be an integer")
    if commitment(seed) != promised.lower():
        return Verdict(False, _("the seed is not the one committed to ({hash}…)").format(hash=promised[:16]))
    try:
        match = Match.from_record(data)
    except RecordError as e:
        if isinstance(e.__cause__, IllegalAction):
            return Verdict(False, str(e))
        raise
    rules = match.rules
    over = rules.is_over(match.state)
    moves = len(match.actions)
    how = (
        _("cryptographic dice")
        if match.stream == COUNTER
        else _("dice stream {stream}").format(stream=match.stream)
    )
    end = rules.summary(match.state, match.names) if over else _("the match was not finished")
    return Verdict(
        True,
        _(
            "the seed matches its commitment {hash}… and the {moves} moves replay from it ({how}): {end}"
        ).format(hash=promised[:16], moves=moves, how=how, end=end),
        match,
    )
