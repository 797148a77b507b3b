"""A clone holds everything a reader is sent to: no file of the project
points at notes kept beside it (the rules and design notes its authors
worked from are not part of it; the rules pages under tui/rules are)."""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# Spelled in parts, so that this file itself names no such place.
OUTSIDE = tuple("".join(parts) for parts in (("RULES", ".md"), ("ARCHITECTURE", ".md"), ("../", "shared")))


def project_files() -> list[Path]:
    try:
        listed = subprocess.run(
            ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.split()
        files = [ROOT / name for name in listed]
    except (OSError, subprocess.CalledProcessError):  # an unpacked sdist: no git
        files = [p for p in ROOT.rglob("*") if p.is_file()]
    kinds = (".py", ".md", ".toml", ".txt", ".cfg", ".in", "")
    return [p for p in files if p.suffix in kinds and p.is_file()]


def test_no_file_sends_a_reader_outside_the_project():
    found = [
        f"{p.relative_to(ROOT)}: {word}"
        for p in project_files()
        for word in OUTSIDE
        if word in p.read_text(encoding="utf-8", errors="replace")
    ]
    assert found == []
