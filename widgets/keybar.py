"""KeyBar: the keys that work now, in one line at the bottom.

Does what Textual's Footer does (shows the screen's active, visible
bindings and follows their changes) but as one rendered line: the Footer
recomposes its child widgets on every change of bindings, which re-lays out
and repaints the whole screen. A click on a key presses it.
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.reactive import reactive
from textual.widget import Widget

from .glyphs import ascii_key, is_ascii


class KeyBar(Widget, can_focus=False):
    DEFAULT_CSS = """
    KeyBar { dock: bottom; height: 1; background: $footer-background; }
    KeyBar > .keybar--key { color: $footer-key-foreground; text-style: bold; }
    KeyBar > .keybar--description { color: $footer-description-foreground; }
    """
    COMPONENT_CLASSES = {"keybar--key", "keybar--description"}

    keys: reactive[tuple[tuple[str, str, str], ...]] = reactive(())  # (key, shown as, description)

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)
        self.call_after_refresh(self._bindings_changed, self.screen)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, screen) -> None:
        if screen is not self.screen:
            return
        seen: set[str] = set()
        keys: list[tuple[str, str, str]] = []
        later: list[tuple[str, str, str]] = []
        last = getattr(screen, "KEYBAR_LAST", ())  # actions a busy screen lists after its own keys
        for _ns, binding, enabled, _tip in screen.active_bindings.values():
            if not binding.show or not enabled or binding.action in seen:
                continue
            seen.add(binding.action)
            shown = self.app.get_key_display(binding)
            if is_ascii(self):
                shown = ascii_key(shown)
            (later if binding.action in last else keys).append((binding.key, shown, binding.description))
        self.keys = tuple(keys + later)

    def _spans(self) -> list[tuple[int, int, str]]:
        spans, x = [], 0
        for key, shown, description in self.keys:
            width = len(shown) + len(description) + 3
            spans.append((x, x + width, key))
            x += width
        return spans

    def render(self) -> Text:
        text = Text(no_wrap=True, overflow="ellipsis")
        key_style = self.get_component_rich_style("keybar--key")
        desc_style = self.get_component_rich_style("keybar--description")
        for _key, shown, description in self.keys:
            text.append(f" {shown} ", key_style)
            text.append(f"{description} ", desc_style)
        return text

    def on_click(self, event: events.Click) -> None:
        for start, end, key in self._spans():
            if start <= event.x < end:
                self.app.simulate_key(key)
                return
