"""Garito's pure game logic.

Nothing under ``garito.core`` imports Textual, Rich or platformdirs: every
game here is a set of immutable states, their legal actions and ``apply``,
replayable from (config, seed, actions). ``tests/test_purity.py`` enforces it.
"""
