"""LaidOut: a screen that comes up in as few layouts and frames as it can.

A screen coming up is laid out at the terminal's size as it resumes; that
layout then sends the screen a Resize to the same size, and Textual's
handler (8.2.8) lays the screen out again, and every screen under it, whose
changed regions make the screen on top paint once more. To the menu's
first frame the screens were laid out 14 times and painted 6 (with the name
asked over it at the very first start: 18 and 6); 8 and 4 now, the same
picture (the first start: 10 ms less CPU, measured). A real change of the
terminal's size still lays everything out.

Textual paints a screen on a clock of 60 ticks a second, which starts at
the screen's first idle with something to paint and first ticks a whole
period later: the menu's first frame went out 16 ms after the menu was
ready (203 ms to the menu where 2b9620b took 187, side by side in
bench/suite.py --startup-only). Started as the screen mounts, the clock has
ticked by the time the screen is ready, and the frame goes out at once
(187 ms)."""

from __future__ import annotations

from textual import events


class LaidOut:
    """Mixed in before Screen (or ModalScreen) in a screen's bases."""

    def on_mount(self) -> None:
        # Textual calls each class's handler in turn: the screen's own runs too.
        self._update_timer.resume()  # type: ignore[attr-defined]

    def on_resize(self, event: events.Resize) -> None:
        if event.size == self._compositor.size:  # type: ignore[attr-defined]
            # Textual's own handler (the next in line) would lay out again
            # what is laid out at this size already.
            event.prevent_default()
            # It also lays out the screens under this one: those not laid out
            # at this size yet still are (the menu under the name asked kept
            # a small terminal's short form once the terminal grew again).
            app = self.app  # type: ignore[attr-defined]
            for screen in app._background_screens:
                if screen._compositor.size != event.size:
                    screen._screen_resized(event.size)
