"""KeyBar: the keys that work now, in one line at the bottom.

Does what Textual's Footer does (shows the screen's active, visible
bindings and follows their changes) but as one rendered line: the Footer
recomposes its child widgets on every change of bindings, which re-lays out
and repaints the whole screen. A click on a key presses it.

When the keys do not fit the line, the screen's own keys give way from the
last one listed, an ellipsis in their place (the rules page lists every
key), so that no key is cut in two and the menu, rules and quit keys a
busy screen lists last (``KEYBAR_LAST``) are always there.
"""

from __future__ import annotations

from rich.cells import cell_len
from textual import events
from textual.reactive import reactive
from textual.widget import Widget

from garito.core.i18n import _

from .glyphs import ascii_key, glyphs, is_ascii
from .looks import KeptLooks, component_styles
from .strips import Run, StripRows

Key = tuple[str, str, str]  # (key, shown as, description)


class KeyBar(KeptLooks, StripRows, Widget, can_focus=False):
    DEFAULT_CSS = """
    KeyBar { dock: bottom; height: 1; background: $footer-background; }
    KeyBar > .keybar--key { color: $footer-key-foreground; text-style: bold; }
    KeyBar > .keybar--description { color: $footer-description-foreground; }
    """
    COMPONENT_CLASSES = {"keybar--key", "keybar--description"}

    keys: reactive[tuple[Key, ...]] = reactive(())  # every key that works now
    kept: reactive[int] = reactive(0)  # how many of the last keys stay, however narrow the line

    _asked = False  # the bindings changed: the keys are read again, once

    def on_mount(self) -> None:
        # Heard as the bindings change (immediate): a move changes them three
        # or four times, and each hearing posted to the bar was a wake of its
        # own; the keys are read once, after the handler, either way.
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed, immediate=True)
        self.call_after_refresh(self._read_keys)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, screen) -> None:
        # A move changes the bindings several times over (the move, the
        # result on its way, the next turn), each time in the same handler:
        # the keys are read once, after it, before the frame that shows them.
        if screen is self.screen and not self._asked:
            self._asked = True
            self.call_next(self._read_keys)

    def _read_keys(self) -> None:
        self._asked = False
        screen = self.screen
        seen: set[str] = set()
        keys: list[tuple[str, str, str]] = []
        after: list[tuple[str, str, str]] = []
        later: list[tuple[str, str, str]] = []
        last = getattr(screen, "KEYBAR_LAST", ())  # actions a busy screen lists after its own keys
        # Own keys a screen lists after the others, the first to give way (a
        # key's place in the bar is where its key was first bound: the app's
        # Tab comes before every screen's own keys).
        helpers = getattr(screen, "KEYBAR_AFTER", ())
        # A screen may say a key's work in words of the moment (Escape: back
        # to the menu, the lobby or History); else the binding's own.
        label = getattr(screen, "key_label", None)
        for _ns, binding, enabled, _tip in screen.active_bindings.values():
            if not binding.show or not enabled or binding.action in seen:
                continue
            seen.add(binding.action)
            shown = self.app.get_key_display(binding)
            if is_ascii(self):
                shown = ascii_key(shown)
            # A description is marked N_ where the binding is declared, and read
            # here in the player's language.
            described = (label(binding) if label is not None else None) or _(binding.description)
            place = later if binding.action in last else after if binding.action in helpers else keys
            place.append((binding.key, shown, described))
        self.kept = len(later)
        self.keys = tuple(keys + after + later)

    def _shown(self) -> list[Key | None]:
        """The keys as the line shows them, None where some gave way."""
        width = self.content_size.width
        split = len(self.keys) - self.kept
        own, kept = list(self.keys[:split]), list(self.keys[split:])
        gone = False
        while own and width and sum(map(self._width, own + kept)) + gone * self._width(None) > width:
            own.pop()
            gone = True
        return own + [None] * gone + kept

    def _width(self, key: Key | None) -> int:
        if key is None:
            return cell_len(glyphs(is_ascii(self))["ellipsis"]) + 2
        return cell_len(key[1]) + cell_len(key[2]) + 3

    def _spans(self) -> list[tuple[int, int, str]]:
        spans, x = [], 0
        for key in self._shown():
            width = self._width(key)
            if key is not None:
                spans.append((x, x + width, key[0]))
            x += width
        return spans

    def look(self) -> tuple:
        return self.keys, self.kept, is_ascii(self)

    def runs(self) -> list[list[Run]]:
        styles = component_styles(self)
        key_style, desc_style = styles["keybar--key"], styles["keybar--description"]
        runs: list[Run] = []
        for key in self._shown():
            if key is None:
                runs.append((f" {glyphs(is_ascii(self))['ellipsis']} ", desc_style))
                continue
            _key, shown, description = key
            runs += [(f" {shown} ", key_style), (f"{description} ", desc_style)]
        return [runs]

    def on_click(self, event: events.Click) -> None:
        for start, end, key in self._spans():
            if start <= event.x < end:
                self.app.simulate_key(key)
                return
