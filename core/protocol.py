"""The shape every game's rules module has (python-chess and OpenSpiel are
the models). A new game is a package under ``core/`` that provides these
names, a ``bot`` submodule with ``choose``, and an entry in ``catalog``;
``tests/test_protocol.py`` then checks it like every other game, and the app
offers it with the shared new-game dialog, saves and records.

Module-level names:

``GAME_ID``, ``TITLE``
``Config``        frozen dataclass of rule variants (defaults = RULES.md), with
                  ``players``, ``to_dict()`` and ``from_dict()``; raises
                  ValueError for an impossible combination
``VARIANTS``      the ``Variant``s the new-game dialog and ``--rule`` offer
``LEVELS``        the computer levels, weakest first
``Action``        a frozen move; ``str(action)`` is its notation and
                  ``Action.parse(text)`` reads it back
``new_game(config, seed, dice=(), stream=dice.MT) -> State``   immutable;
                  dice from the state's stream (``dice.new_stream(seed,
                  dice, stream)``: recorded faces first, then the seeded
                  stream of that kind)
``legal_actions(state) -> list[Action]``
``apply(state, action) -> State``     raises ``IllegalAction`` naming the rule
``to_act(state) -> int | None``       the seat whose move it is
``is_over(state)``, ``result(state)``
``view(state, seat) -> View``         what that seat may see, never the stream
``narrate(event, names) -> str``      the log, from ``state.events``
``summary(state, names) -> str``      one line on where the match stands

``bot.choose(view, legal, level) -> Action`` decides for a computer seat from
its view alone.

Optional: ``OPEN_ACTIONS``, action kinds too many to list (Willie's meld,
any rearrangement of the table): ``legal_actions`` lists the other moves
and ``apply`` checks these against the rules;
``hide(state, seat) -> State``, the state with what ``seat`` may not know
masked (None: a spectator), for the apps at a shared table (``wire.masked``;
the stream and seed are masked for every game); ``SPECTATORS = False`` where
nothing would be left to watch (every seat's hand is secret);
``DEFAULT_LEVELS``, the levels offered seat by seat (cycled; else the last
of ``LEVELS`` everywhere);
``levels_matter(config) -> bool``, False where a computer seat has
no choice to make under those rules (the dialog then hides the level).
"""

from __future__ import annotations

REQUIRED = (
    "GAME_ID",
    "TITLE",
    "Config",
    "VARIANTS",
    "LEVELS",
    "Action",
    "new_game",
    "legal_actions",
    "apply",
    "to_act",
    "is_over",
    "result",
    "view",
    "narrate",
    "summary",
)
