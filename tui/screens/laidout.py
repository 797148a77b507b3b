"""LaidOut: a screen that is not laid out again for a size it has already.

A screen coming up is laid out at the terminal's size as it resumes; that
layout then sends the screen a Resize to the same size, and Textual's
handler lays the screen out again, and every screen under it (a box's
table), whose changed regions make the box's screen paint once more
(Textual 8.2.8): a result box cost three layouts and four paints of the
whole terminal where one of each shows the same. A real change of the
terminal's size still lays everything out."""

from __future__ import annotations

from textual import events


class LaidOut:
    """Mixed in before Screen (or ModalScreen) in a screen's bases."""

    def on_resize(self, event: events.Resize) -> None:
        if event.size == self._compositor.size:  # type: ignore[attr-defined]
            # Textual's own handler (the next in line) would lay out again
            # what is laid out at this size already.
            event.prevent_default()
