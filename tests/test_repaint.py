"""A widget's repaint marked on its screen at once (``widgets.repaint``):
the frame that follows draws it, no message in between; a repaint asked
while the screen draws is drawn in the next frame; a Textual whose code is
not the one expected is left as it is."""

from __future__ import annotations

import logging

from textual import messages
from textual.app import App, ComposeResult
from textual.widgets import Static

from garito.tui.app import GarApp
from garito.widgets import lean, repaint

from .helpers import decimus_match, settle, sync
from .terminal import drawn_whole
from .test_compositor import drawn, shown

lean.apply()


class Echo(Static):
    """Once armed, its next drawing changes the other widget's text: a
    repaint asked while the screen draws its frame."""

    armed = False

    def render(self):
        if self.armed:
            self.armed = False
            self.app.query_one("#other", Static).update("after", layout=False)
        return super().render()


class Two(App):
    def compose(self) -> ComposeResult:
        yield Echo("echo", id="echo")
        yield Static("before", id="other")


def test_the_fingerprints_are_textuals_own():
    assert repaint.textuals() == repaint.EXPECTED


@sync
async def test_a_repaint_is_on_the_screen_at_once_and_the_next_frame_draws_it(recorded):
    app = Two()
    async with app.run_test(size=(30, 5)) as pilot:
        await drawn(pilot)
        other = app.query_one("#other", Static)
        updates = []
        app.screen.message_signal.subscribe(
            app, lambda m: updates.append(m) if isinstance(m, messages.Update) else None, immediate=True
        )
        other.update("now", layout=False)
        # Textual's way, the widget reaches the screen only after two
        # messages; here it is among the widgets the next frame draws.
        assert other in app.screen._dirty_widgets
        await drawn(pilot)
        assert updates == []
        assert "now" in shown(recorded, app.size).rows()[1]
        assert shown(recorded, app.size).differences(drawn_whole(app.screen)) == []


@sync
async def test_a_repaint_asked_while_the_screen_draws_is_drawn_in_the_next_frame(recorded):
    app = Two()
    async with app.run_test(size=(30, 5)) as pilot:
        await drawn(pilot)
        echo = app.query_one("#echo", Echo)
        echo.armed = True
        echo.refresh()
        await drawn(pilot)
        assert not echo.armed  # it was drawn, and asked for the other's repaint as it was
        assert "after" in shown(recorded, app.size).rows()[1]
        assert shown(recorded, app.size).differences(drawn_whole(app.screen)) == []


@sync
async def test_a_repaint_while_the_app_holds_its_frames_back_goes_textuals_way(recorded):
    app = Two()
    async with app.run_test(size=(30, 5)) as pilot:
        await drawn(pilot)
        other = app.query_one("#other", Static)
        with app.batch_update():
            other.update("held", layout=False)
            assert other not in app.screen._dirty_widgets
            assert other._repaint_required  # on its way to the screen, as Textual sends it
        await drawn(pilot)
        assert "held" in shown(recorded, app.size).rows()[1]
        assert shown(recorded, app.size).differences(drawn_whole(app.screen)) == []


@sync
async def test_a_move_at_decimus_sends_no_update_messages(tmp_path, monkeypatch):
    # Seven widgets or so repaint on a move: each went to the screen as an
    # Update message of its own.
    monkeypatch.setenv("GARITO_HOME", str(tmp_path))
    app = GarApp(start=decimus_match(), bot_delay=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        seen: list[type] = []
        screen.message_signal.subscribe(screen, lambda m: seen.append(type(m)), immediate=True)
        frames = screen._compositor_refresh
        drawn_frames = []

        def counted() -> None:
            drawn_frames.append(set(screen._dirty_widgets))
            frames()

        monkeypatch.setattr(screen, "_compositor_refresh", counted)
        await pilot.press("enter")  # a roll of the five dice
        await settle(pilot)
        assert drawn_frames, "the move drew no frame"
        assert messages.Update not in seen
        assert any(len(widgets) > 3 for widgets in drawn_frames)  # the move's widgets, in one frame


def test_where_textuals_code_is_not_the_one_expected_it_is_left(monkeypatch, caplog):
    monkeypatch.setattr(repaint, "_installed", False)
    monkeypatch.setitem(repaint.EXPECTED, "Widget.refresh", "0:00000000")
    with caplog.at_level(logging.WARNING, logger="garito"):
        assert repaint.install() is False
    assert "Widget.refresh" in caplog.text


@sync
async def test_a_rounds_box_has_its_keys_on_the_bar_from_the_round_s_end_and_space_opens_it_at_once(
    tmp_path, monkeypatch
):
    # The box opens a moment after the round's last roll; its keys are on
    # the bar from that roll on: no frame shows a bar of ^q Quit alone (it
    # looked frozen), and the box's own frame has them too.
    from garito.widgets.keybar import KeyBar

    from .helpers import box_open, gemelos_match

    monkeypatch.setenv("GARITO_HOME", str(tmp_path))
    app = GarApp(start=gemelos_match(seats=("human", "human")), bot_delay=0.3)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        frames: list[tuple[bool, bool]] = []
        draw = screen._compositor_refresh

        bar = screen.query_one(KeyBar)

        def recorded_frame() -> None:
            frames.append((screen._compositor.overlay is not None, tuple(d for _k, _s, d in bar.keys)))
            draw()

        monkeypatch.setattr(screen, "_compositor_refresh", recorded_frame)
        for _ in range(2):  # both players roll: the round ends
            await pilot.press("space")
            await settle(pilot)
        for _ in range(100):
            if box_open(app) and screen._compositor.overlay is not None:
                break
            await pilot.pause(0.01)
        await settle(pilot)
        first = next(i for i, (box, _keys) in enumerate(frames) if box)
        assert frames[first] == (True, ("Continue", "Quit")), frames
        assert all(keys != ("Quit",) for _box, keys in frames), frames
    # Space while the box is on its way opens it at once; the next one closes it.
    app = GarApp(start=gemelos_match(seats=("human", "human")), bot_delay=2.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        timer = screen.set_timer
        # the box's 0.35 s made long: a loaded machine does not open it first
        monkeypatch.setattr(
            screen, "set_timer", lambda delay, *a, **k: timer(60 if delay == 0.35 else delay, *a, **k)
        )
        for _ in range(2):
            await pilot.press("space")
        await pilot.pause()
        assert screen._reveal is not None and not screen._notice.is_open  # 0.35 s to come
        assert [d for _k, _s, d in screen.query_one(KeyBar).keys] == ["Continue", "Quit"]
        await pilot.press("space")
        await pilot.pause()
        assert screen._reveal is None and screen._notice.is_open
        await pilot.press("space")
        await settle(pilot)
        assert not box_open(app)
