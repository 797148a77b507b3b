"""Every command that reads a record refuses one larger than any record
before reading it: one line, exit 2, and never the file's size in memory
(a sparse file of a gigabyte, and /dev/zero, which has no end)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

# The command run by a Python of its own, which then says the most memory
# its one child held (ru_maxrss, in KB): nothing else's.
MEASURED = """
import resource, subprocess, sys
done = subprocess.run(sys.argv[1:], capture_output=True, text=True, timeout=60)
sys.stderr.write(done.stderr)
print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


@pytest.mark.parametrize("command", ["replay", "verify"])
@pytest.mark.parametrize("kind", ["a sparse gigabyte", "/dev/zero"])
def test_a_record_larger_than_any_is_refused_before_it_is_read(tmp_path, command, kind):
    path = "/dev/zero"
    if kind != "/dev/zero":
        path = str(tmp_path / "huge.json")
        with open(path, "wb") as f:
            f.truncate(1 << 30)
    env = {"GARITO_HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}
    done = subprocess.run(
        [sys.executable, "-c", MEASURED, sys.executable, "-m", "garito", command, path],
        capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path,
    )  # fmt: skip
    status, peak_kb = map(int, done.stdout.split())
    assert status == 2
    assert done.stderr.splitlines() == [f"garito: error: {path} is larger than any record"]
    assert peak_kb < 100 * 1024, f"{peak_kb} KB"


def test_a_record_just_within_the_bound_is_still_read(tmp_path):
    """The bound is no smaller than a record: a real one, padded with
    whitespace to a megabyte, still verifies as it did."""
    from garito.core.match import Match, Seat

    from .test_ratings import played

    match = played("gemelos", (Seat("Ana", "human", "hard"), Seat("Bea", "human", "hard")), 2)
    path = tmp_path / "record.json"
    path.write_text(json.dumps(match.to_record()) + " " * (1 << 20))
    done = subprocess.run(
        [sys.executable, "-m", "garito", "verify", str(path)],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
        env={"GARITO_HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"},
    )  # fmt: skip
    assert done.returncode in (0, 1) and "larger" not in done.stderr, done.stderr
    assert Match.from_record(match.to_record()).over
