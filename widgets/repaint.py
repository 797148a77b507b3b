"""A widget's repaint marked on its screen at once.

Textual (8.2.8) takes a widget's repaint to the screen in four hops:
``refresh`` marks the widget and prompts the widget's own message queue;
when that queue is idle the widget posts ``Update`` to its screen; the
screen's handler adds the widget to the ones its next frame draws and
prompts the screen's queue; when that is idle, the frame's timer starts.
Each hop is a message and a wake of a task. A move at Decimus repaints
about seven widgets: 7 prompts, 7 wakes and 7 updates on their way to one
frame.

Here a repaint alone (no layout, no recompose) of a mounted, shown widget
whose styles and scroll are settled is added to the widgets its screen's
next frame draws, at once, and the screen is prompted: the two hops in
between are not taken. The frame that follows is the one Textual would
have drawn, of the same widgets. Anything else goes Textual's way: a
screen itself, a widget being laid out, styled or scrolled, a screen not
yet laid out, a repaint asked while the app holds its frames back
(``batch_update``), and one asked while the screen draws its frame (the
frame forgets the widgets it drew once drawn, so the repaint waits for the
next one, as it did).

``install`` makes the change once, if Textual's code is the code it was
written against (``EXPECTED``); otherwise it leaves Textual's and logs a
warning.
"""

from __future__ import annotations

import logging

from .source import fingerprint, unlike

log = logging.getLogger("garito")

# The code this stands in for, as Textual 8.2.8 has it: what a refresh
# marks, how a marked widget reaches its screen and what the screen does
# with it (the length and CRC-32 of each one's dedented source).
EXPECTED = {
    "Widget.refresh": "1586:49ef5a7f",
    "Widget._check_refresh": "1506:b892f55c",
    "Screen._on_update": "277:c5bc6f31",
    "Screen._on_timer_update": "965:2236fd75",
}


def _textuals() -> dict[str, object]:
    """Textual's own functions this change stands in for (as they were
    before it, once it is made)."""
    if _replaced:
        return dict(_replaced)
    from textual.screen import Screen
    from textual.widget import Widget

    return {
        "Widget.refresh": Widget.refresh,
        "Widget._check_refresh": Widget._check_refresh,
        "Screen._on_update": Screen._on_update,
        "Screen._on_timer_update": Screen._on_timer_update,
    }


def textuals() -> dict[str, str]:
    """The fingerprints of Textual's own code this change stands in for."""
    return {name: fingerprint(function) for name, function in _textuals().items()}


_installed = False
_replaced: dict[str, object] = {}


def install() -> bool:
    """Repaints go to their screen at once from now on, if Textual's code is
    the code this was written against."""
    global _installed
    if _installed:
        return True
    changed = unlike(textuals(), EXPECTED)
    if changed:
        log.warning("Textual's repaint is not the one expected (%s): it goes Textual's way", changed)
        return False
    from textual.screen import Screen
    from textual.widget import Widget

    _replaced.update(_textuals())
    refresh = Widget.refresh
    timer_update = Screen._on_timer_update

    def _on_timer_update(self) -> None:
        self._drawing = True
        try:
            timer_update(self)
        finally:
            self._drawing = False

    def straight_refresh(self, *regions, repaint: bool = True, layout: bool = False, recompose: bool = False):
        if (
            layout
            or recompose
            or not repaint
            or not self._is_mounted
            or self._closing
            or self._parent is None
            or self._refresh_styles_required
            or self._scroll_required
            or self._layout_required
            or isinstance(self, Screen)
            or not self.display
        ):
            return refresh(self, *regions, repaint=repaint, layout=layout, recompose=recompose)
        node = self._parent
        while node is not None and not isinstance(node, Screen):
            node = node._parent
        if node is None or node._drawing or node.app._batch_count or node not in node._compositor:  # type: ignore[attr-defined]
            return refresh(self, *regions, repaint=repaint, layout=layout, recompose=recompose)
        # What Textual's refresh marks on the widget, then what the screen's
        # Update handler does with it.
        self._layout_cache.clear()
        self._set_dirty(*regions)
        self.clear_cached_dimensions()
        self._rich_style_cache.clear()
        node._dirty_widgets.add(self)
        node.check_idle()
        return self

    Screen._drawing = False  # type: ignore[attr-defined]
    Screen._on_timer_update = _on_timer_update  # type: ignore[method-assign]
    Widget.refresh = straight_refresh  # type: ignore[method-assign]
    _installed = True
    return True
