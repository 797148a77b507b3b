"""Field: Textual's Input, each key taken in the order it was typed.

A typed character is put in by the field as it reads the key; a key bound
to one of the field's actions (Enter, Backspace, ctrl+u, the arrows) went
on up to the screen and the app, each a step of its own, and its action
ran once it got there, after the characters typed behind it. Keys that
come together (typed fast, or in one packet over SSH) were taken out of
order: ctrl+u, "Bea" and Enter put "Bea" in, then emptied the field and
submitted nothing. A Field runs its own bindings as it reads their keys,
in turn with the characters; keys it does not bind, and keys a screen or
the app binds with priority (which win over the field's own), go on up as
before.
"""

from __future__ import annotations

from textual import events
from textual.widgets import Input


class Field(Input):
    """An Input whose bound keys run in the order they were typed."""

    async def _on_key(self, event: events.Key) -> None:
        for key in event.aliases:
            if priority_bound(self.screen, key, besides=self):
                break  # a screen's or the app's own (Enter that starts a game): it goes on up
            for binding in self._bindings.key_to_bindings.get(key, ()):
                if binding.priority:
                    continue  # the app's to run, before any field sees the key
                if await self.app.run_action(binding.action, self):
                    event.stop()
                    event.prevent_default()
                    return
        await super()._on_key(event)


def priority_bound(screen, key: str, besides: object) -> bool:
    """Whether a node of ``screen``'s binding chain other than ``besides``
    binds ``key`` with priority (which wins over a focused widget's own)."""
    return any(
        binding.priority
        for namespace, bindings in screen._binding_chain
        if namespace is not besides
        for binding in bindings.key_to_bindings.get(key, ())
    )
