"""ChatLine: the one line a player types a chat message in.

Hidden until opened (``open``); Enter posts ``ChatLine.Sent`` with what was
typed (the screen sends it) and closes the line, Escape closes it, Tab puts
the next of the ready phrases (``phrases``) in it for the keyboard-shy. It
knows no game and no server: a screen gives it the phrases and the longest
line, and decides what a message means.
"""

from __future__ import annotations

from textual.binding import Binding
from textual.message import Message

from garito.core.i18n import N_, _

from .field import Field


class ChatLine(Field):
    DEFAULT_CSS = """
    ChatLine { dock: bottom; margin-bottom: 1; height: 1; border: none; padding: 0 1;
               display: none; background: $boost; }
    /* Input's own focused border would take the line's one row: the text
       typed would not show. */
    ChatLine:focus { border: none; }
    ChatLine.-open { display: block; }
    """
    BINDINGS = [
        Binding("escape", "close", N_("Close"), show=False),
        Binding("tab", "phrase", N_("A ready phrase"), show=False),
    ]

    class Sent(Message):
        """The player sent ``text`` (never empty)."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    def __init__(self, phrases: tuple[str, ...] = (), longest: int = 200, **kwargs) -> None:
        hint = _("say something · Enter sends · Esc closes") + (
            _(" · Tab: a ready phrase") if phrases else ""
        )
        super().__init__(placeholder=hint, max_length=longest, **kwargs)
        self.phrases = tuple(_(p) for p in phrases)  # in the speaker's language
        self._next = 0
        self.can_focus = False  # a closed line never takes the keys (a screen's auto-focus)

    @property
    def is_open(self) -> bool:
        return self.has_class("-open")

    def open(self) -> None:
        self.add_class("-open")
        self.can_focus = True
        self.focus()

    def action_close(self) -> None:
        self.value = ""
        self.remove_class("-open")
        self.can_focus = False
        self.screen.set_focus(None)

    def action_phrase(self) -> None:
        if self.phrases:
            self.value = self.phrases[self._next % len(self.phrases)]
            self._next += 1
            self.cursor_position = len(self.value)

    async def action_submit(self) -> None:
        text = " ".join(self.value.split())
        self.action_close()
        if text:
            self.post_message(self.Sent(text))
