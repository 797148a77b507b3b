"""Reusable Textual widgets. None of them knows any game's rules: they show
what they are given (attributes down) and report what the player picked
(messages up)."""
