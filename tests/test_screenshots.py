"""The README's pictures are the approved snapshots, never stale copies."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SNAPS = ROOT / "tests" / "__snapshots__" / "test_snapshots"


def test_every_readme_screenshot_is_a_current_snapshot():
    shots = sorted((ROOT / "screenshots").glob("*.svg"))
    assert shots
    readme = (ROOT / "README.md").read_text()
    for shot in shots:
        snap = SNAPS / f"test_{shot.stem.replace('-', '_')}.svg"
        assert snap.exists(), f"{shot.name} has no snapshot"
        assert shot.read_bytes() == snap.read_bytes(), f"{shot.name} is stale: make screenshots"
        assert f"screenshots/{shot.name}" in readme, f"{shot.name} is not in the README"
