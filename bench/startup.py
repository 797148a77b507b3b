"""Start-up and output size, measured in a real pseudo-terminal at 80×24.

Runs Garito and a bare Textual app that shows one line, alternately, in the
same run, and prints:

* time from launch to the first frame (the menu's motto appearing, or the
  bare app's line), median of N runs each, and the ratio (target ≤ 1.5);
* bytes written for the first frame, and for one Gemelos roll (Space, until
  the terminal has been quiet for a while).

    python bench/startup.py [--runs N]
"""

from __future__ import annotations

import argparse
import fcntl
import os
import select
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
QUIET = 0.4  # seconds of silence that end a frame


def spawn(argv: list[str], home: str, extra: dict[str, str] | None = None):
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("NO_COLOR", "TEXTUAL_THEME", "GARITO_ASCII", "TEXTUAL")
    }
    env.update(TERM="xterm-256color", COLORTERM="truecolor", GARITO_HOME=home, COLUMNS="80", LINES="24")
    env.update(extra or {})
    proc = subprocess.Popen(
        argv,
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=env,
        start_new_session=True,
        close_fds=True,
    )
    os.close(slave)
    return proc, master


def read_until(master: int, marker: bytes | None, timeout: float = 20.0) -> tuple[bytes, float]:
    """Read until ``marker`` shows (or, with None, until QUIET seconds of
    silence); returns the bytes and when the marker arrived."""
    data = b""
    start = time.perf_counter()
    seen_at = None
    last = time.perf_counter()
    while time.perf_counter() - start < timeout:
        r, _, _ = select.select([master], [], [], 0.02)
        now = time.perf_counter()
        if r:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            data += chunk
            last = now
            if seen_at is None and marker is not None and marker in data:
                seen_at = now
        if marker is None and data and now - last > QUIET:
            break
        if marker is not None and seen_at is not None and now - last > QUIET:
            break
    return data, (seen_at or time.perf_counter())


def stop(proc, master) -> None:
    try:
        os.write(master, b"\x11")  # ctrl+q
        proc.wait(timeout=3)
    except Exception:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    os.close(master)


def first_frame(argv, marker: bytes, home: str) -> tuple[float, int]:
    t0 = time.perf_counter()
    proc, master = spawn(argv, home)
    data, seen = read_until(master, marker)
    stop(proc, master)
    if marker not in data:
        raise SystemExit(f"never saw {marker!r} from {argv}")
    return seen - t0, len(data)


def roll_bytes(home: str) -> int:
    argv = [
        sys.executable,
        "-c",
        "from garito.tui.cli import entry; entry()",
        "play",
        "gemelos",
        "--seats",
        "human,human",
        "--seed",
        "7",
    ]
    proc, master = spawn(argv, home)
    read_until(master, b"press Space")
    read_until(master, None)  # let the first frame settle
    os.write(master, b" ")
    data, _ = read_until(master, None)
    stop(proc, master)
    return len(data)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=9)
    args = ap.parse_args()
    garito = [sys.executable, "-c", "from garito.tui.cli import entry; entry()"]
    bare = [sys.executable, str(HERE / "bare_app.py")]
    times = {"garito": [], "bare": []}
    sizes = {"garito": [], "bare": []}
    with tempfile.TemporaryDirectory() as home:
        first_frame(garito, b"parlor of dice", home)  # warm the disk cache for both
        first_frame(bare, b"hello garito", home)
        for _ in range(args.runs):
            for name, argv, marker in (
                ("bare", bare, b"hello garito"),
                ("garito", garito, b"parlor of dice"),
            ):
                t, n = first_frame(argv, marker, home)
                times[name].append(t)
                sizes[name].append(n)
        roll = statistics.median(roll_bytes(home) for _ in range(3))
    g, b = statistics.median(times["garito"]), statistics.median(times["bare"])
    print(f"{'':<28}{'median':>10}{'min':>10}{'max':>10}")
    for name in ("bare", "garito"):
        ts = times[name]
        print(
            f"first frame, {name:<15}{statistics.median(ts) * 1000:>8.0f}ms"
            f"{min(ts) * 1000:>8.0f}ms{max(ts) * 1000:>8.0f}ms"
        )
    print(f"start-up ratio garito/bare: {g / b:.2f}  (target <= 1.5, {args.runs} runs each)")
    print(
        f"bytes, first frame: garito {statistics.median(sizes['garito']):.0f}, "
        f"bare {statistics.median(sizes['bare']):.0f}"
    )
    print(f"bytes, one Gemelos roll: {roll:.0f}")


if __name__ == "__main__":
    main()
