"""The yardstick of CPU per key (bench/floor_app.py) is fair: its lean
variant shows the very table the idiomatic one shows, move after move, so
the two costs measured side by side are of the same changes."""

from __future__ import annotations

import asyncio
import importlib.util
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench" / "floor_app.py"


def _floor_app():
    spec = importlib.util.spec_from_file_location("floor_app", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_lean_floor_draws_what_the_idiomatic_one_draws():
    floor_app = _floor_app()

    async def screens(lean: bool) -> list[str]:
        app = floor_app.Floor(replies=0, lean=lean)
        shown = []
        async with app.run_test(size=(80, 24)) as pilot:
            for key in ("enter", "enter", "p", "enter", "space"):
                await pilot.press(key)
                await pilot.pause()
                shown.append("\n".join(strip.text for strip in app.screen._compositor.render_strips()))
        return shown

    idiomatic, lean = asyncio.run(screens(False)), asyncio.run(screens(True))
    assert lean == idiomatic
    assert "Move 3: Iria stands at 3." in lean[2] and "Decimus · touched 5" in lean[4]
    assert len({*lean}) == len(lean)  # every key changed the table
