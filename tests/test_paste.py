"""A bracketed paste at the server: let through whole up to its cap, cut
there, and the rest of it dropped, however the socket cuts the stream."""

from __future__ import annotations

import logging

from hypothesis import given, settings
from hypothesis import strategies as st
from textual import events
from textual._xterm_parser import XTermParser

from garito.server.paste import END, PASTE_MAX, START, PasteCap

from .helpers import sync
from .test_serve_workers import _keys_driver


def parsed(chunks: list[str], limit: int = 10) -> list[tuple[str, str]]:
    """The keys and pastes a parser makes of ``chunks`` fed through a cap."""
    cap, parser, out = PasteCap(limit), XTermParser(False), []
    for chunk in chunks:
        text = cap.cut(chunk)
        if text:
            out += parser.feed(text)
    return [
        ("paste", e.text) if isinstance(e, events.Paste) else ("key", e.key)
        for e in out
        if isinstance(e, (events.Paste, events.Key))
    ]


def test_a_paste_within_the_cap_is_let_through_whole():
    assert parsed(["a", START + "hello" + END + "b"]) == [("key", "a"), ("paste", "hello"), ("key", "b")]
    exactly = START + "z" * 10 + END
    assert parsed([exactly]) == [("paste", "z" * 10)]


def test_a_longer_paste_is_cut_at_the_cap_and_its_rest_dropped():
    stream = ["a", START + "x" * 100, "y" * 1000, "\x1b[A" * 50, "z" * 100, END + "b"]
    assert parsed(stream) == [("key", "a"), ("paste", "x" * 10), ("key", "b")]


def test_keys_with_no_paste_pass_as_they_are_and_a_lone_escape_at_once():
    cap = PasteCap(10)
    for keys in ("abc", "\x1b", "\x1b[A", "\x1b[20", "0~", "\x1b[201~"):
        assert cap.cut(keys) == keys
    assert not cap.inside and not cap.cuts


def test_a_paste_never_ended_holds_only_the_cap():
    cap = PasteCap(10)
    let_through = cap.cut(START) + "".join(cap.cut("x" * 4096) for _ in range(64))
    assert let_through == START + "x" * 10 + END
    assert cap.inside and cap.dropping and cap.cuts == 1
    assert cap.cut(END[:3]) == "" and cap.cut(END[3:] + "q") == "q"  # its own end, then keys again


# a stream of keys and pastes (some longer than the cap, some unended until
# the next one starts), and the same stream cut into pieces anywhere
pieces = st.lists(
    st.one_of(
        st.sampled_from(["a", "\x1b[A", "\x1b[B", " ", "\r"]),
        st.builds(lambda n, c: START + c * n + END, st.integers(0, 30), st.sampled_from("xyé")),
    ),
    max_size=12,
)


@settings(max_examples=80, deadline=None)
@given(pieces, st.lists(st.integers(1, 400), max_size=10))
def test_however_the_stream_is_cut_the_keys_and_pastes_are_the_same(parts, cuts):
    stream = "".join(parts)
    whole = parsed([stream])
    at = sorted({c % (len(stream) + 1) for c in cuts})
    chunks = [stream[i:j] for i, j in zip([0, *at], [*at, len(stream)])]
    assert parsed(chunks) == whole
    for kind, text in whole:
        if kind == "paste":
            assert len(text) <= 10
    # a paste is what Textual makes of it, but for the cut
    assert [k for k in whole if k[0] == "key"] == [
        k for k in parsed([stream], limit=PASTE_MAX) if k[0] == "key"
    ]


@sync
async def test_the_driver_cuts_an_endless_paste_and_says_so_once(caplog):
    caplog.set_level(logging.INFO, "garito.serve")
    with _keys_driver() as d:
        got: list = []
        d.process_message = got.append  # type: ignore[method-assign]
        d._feed(START)
        for _ in range(PASTE_MAX // 1000 + 40):  # well past the cap, and no end
            d._feed("x" * 1000)
        buffer = d._parser._gen.gi_frame.f_locals["paste_buffer"]
        assert buffer == []  # the cut paste was handed on: the parser holds none of it
        d._feed(END + "a")
        assert [type(e).__name__ for e in got] == ["Paste", "Key"]
        assert got[0].text == "x" * PASTE_MAX and got[1].key == "a"
        d._feed(START + "y" * (PASTE_MAX + 1) + END)  # a second one: cut too, not said again
        assert len(got[-1].text) == PASTE_MAX
        said = [r.getMessage() for r in caplog.records if "paste" in r.getMessage()]
        assert said == [f"session 7: a paste longer than {PASTE_MAX} characters was cut"]


@sync
async def test_a_marker_split_by_an_escape_timing_out_is_no_marker_to_the_cap_either():
    # ESC, a pause past Textual's escape delay, then "[201~": the parser
    # took the Escape for a key and the rest for pasted text; the cap must
    # not see the paste's end there, or it lets the rest through uncut.
    import asyncio

    with _keys_driver() as d:
        got: list = []
        d.process_message = got.append  # type: ignore[method-assign]
        d._feed(START)
        d._feed("\x1b")
        await asyncio.sleep(0.3)  # the driver's tick times the Escape out
        d._feed("[201~")
        for _ in range(PASTE_MAX // 4096 + 8):
            d._feed("A" * 4096)
        assert d._paste.cuts == 1  # cut as any paste
        assert len(d._parser._gen.gi_frame.f_locals["paste_buffer"]) == 0
        d._feed(END + "q")
        pasted = [e for e in got if isinstance(e, events.Paste)]
        assert len(pasted) == 1 and len(pasted[0].text) <= PASTE_MAX
        assert isinstance(got[-1], events.Key) and got[-1].key == "q"


@sync
async def test_escapes_timing_out_one_after_another_do_not_keep_a_paste_from_its_cut():
    import asyncio

    with _keys_driver() as d:
        d.process_message = [].append  # type: ignore[method-assign]
        d._paste = PasteCap(20)
        d._feed(START)
        for _ in range(8):  # 5 characters a time, each run ended by an Escape held past its delay
            d._feed("[201\x1b")
            await asyncio.sleep(0.13)
        assert d._paste.cuts == 1
        assert len(d._parser._gen.gi_frame.f_locals["paste_buffer"]) <= 22
