"""PasteCap: a bracketed paste a client never ends is cut short.

Textual's parser keeps every character of a bracketed paste (between
``ESC[200~`` and ``ESC[201~``) until the paste ends, a list entry each: a
client that opens a paste and sends on without ever closing it grew its
worker's memory, and every game on it, for as long as it cared to. No field
of Garito takes more than a line (a name, a chat line), so a paste is let
through whole up to ``PASTE_MAX`` characters; then the cap ends it for the
parser, which hands the app what came so far, and drops the rest of it up
to and with the client's own end.

The markers are found however the socket cuts the stream into pieces, and
as the parser finds them: an Escape that waited too long for the rest of a
sequence is a key to the parser, so the driver tells the cap (``timed_out``)
and a marker split by such a pause is none to either. The cap holds nothing
back, so a lone Escape still reaches the parser at once.
"""

from __future__ import annotations

START = "\x1b[200~"
END = "\x1b[201~"
PASTE_MAX = 1 << 14  # characters of one paste let through: a name or a chat line is far less


class PasteCap:
    """Feed the decoded keys through ``cut`` before the parser."""

    def __init__(self, limit: int = PASTE_MAX) -> None:
        self.limit = limit
        self.inside = False  # in a paste (and so is the parser, unless dropping)
        self.dropping = False  # the paste was cut: the rest of it goes nowhere
        self.count = 0  # characters of this paste let through
        self.matched = 0  # characters of the next marker seen so far
        self.cuts = 0  # pastes cut, for the log

    def cut(self, text: str) -> str:
        if not self.inside and not self.matched and "\x1b" not in text:
            return text  # the usual case: keys, no paste anywhere
        out: list[str] = []
        i, n = 0, len(text)
        while i < n:
            if not self.matched:  # the characters up to the next Escape: no marker in them
                j = text.find("\x1b", i)
                j = n if j < 0 else j
                if j > i:
                    self._plain(text[i:j], out)
                    i = j
                    continue
            ch = text[i]
            i += 1
            marker = END if self.inside else START
            if ch == marker[self.matched]:
                self.matched += 1
            else:
                self.matched = 1 if ch == "\x1b" else 0
            if not self.dropping:
                out.append(ch)  # at once: a lone Escape is a key
                self.count += self.inside
            if self.matched == len(marker):
                self.matched = 0
                if self.dropping:  # the client's own end: the cap's went before
                    self.inside = self.dropping = False
                else:
                    self.inside = not self.inside
                    self.count = 0
            elif self.inside and not self.dropping and not self.matched and self.count > self.limit:
                self._end(out)
        return "".join(out)

    def timed_out(self) -> None:
        """The parser took the Escape it held for a key (nothing followed it
        in time): the marker it may have begun is no marker."""
        self.matched = 0

    def _plain(self, run: str, out: list[str]) -> None:
        if not self.inside:
            out.append(run)
        elif not self.dropping:
            room = self.limit - self.count
            if len(run) <= room:
                out.append(run)
                self.count += len(run)
            else:
                out.append(run[: max(room, 0)])
                self._end(out)

    def _end(self, out: list[str]) -> None:
        """The paste ends here for the parser, which pastes what came so far."""
        out.append(END)
        self.dropping = True
        self.cuts += 1
