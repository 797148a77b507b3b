"""``make test-dist``: what a user installs, tested as they would get it.

Builds the sdist and the wheel (``python -m build``), checks that the wheel
holds every module and data file of the source tree and nothing else, and
that the sdist holds its own tests; then, for every Python of 3.11–3.13 on
this machine, installs the wheel with its test extras into a fresh venv
(pinned by constraints.txt) and runs the sdist's own suite against it, from
the unpacked sdist — with the sources there kept off the import path, so
what is tested is the installed wheel.

    python tests/dist.py [--pythons python3.11,python3.12,python3.13]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tarfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORK = ROOT / "build" / "dist-check"
PYTHONS = "python3.11,python3.12,python3.13"
# What the sdist must carry for its tests to run.
SDIST_NEEDS = (
    "setup.py",
    "pyproject.toml",
    "constraints.txt",
    "Makefile",
    "LICENSE",
    "CHANGELOG.md",
    "tests/conftest.py",
    "tests/helpers.py",
    "tests/records",
    "tests/__snapshots__/test_snapshots",
    "screenshots/menu.svg",
)


def run(cmd: list, **kw) -> None:
    print("+", " ".join(str(c) for c in cmd), flush=True)
    subprocess.run([str(c) for c in cmd], check=True, **kw)


def check_wheel(wheel: Path) -> None:
    sys.path.insert(0, str(ROOT))
    from tests.test_packaging import expected_files

    with zipfile.ZipFile(wheel) as z:
        held = {n for n in z.namelist() if not n.split("/")[0].endswith(".dist-info")}
    missing, extra = expected_files() - held, held - expected_files()
    if missing or extra:
        sys.exit(f"the wheel differs from the source tree: missing {sorted(missing)}, extra {sorted(extra)}")
    print(f"wheel: {len(held)} files, every module and data file of the source tree")


def unpack_sdist(sdist: Path) -> Path:
    target = WORK / "sdist"
    with tarfile.open(sdist) as tar:
        tar.extractall(target, filter="data")
    (top,) = target.iterdir()
    lacking = [n for n in SDIST_NEEDS if not (top / n).exists()]
    if lacking:
        sys.exit(f"the sdist lacks {', '.join(lacking)}")
    print(f"sdist: holds its tests ({sum(1 for _ in (top / 'tests').rglob('test_*.py'))} test files)")
    return top


def test_with(python: str, name: str, wheel: Path, src: Path) -> float:
    venv = WORK / f"venv-{name}"
    run([python, "-m", "venv", venv])
    bin_ = venv / "bin"
    run([bin_ / "python", "-m", "pip", "install", "--quiet", "--upgrade", "pip"])
    run([bin_ / "python", "-m", "pip", "install", "--quiet", "-c", src / "constraints.txt", f"{wheel}[test]"])
    # From a folder of its own, with the sdist's folder appended to the path
    # (not prepended): `import garito` finds the installed wheel, and the
    # suite's own helpers still import as the ``tests`` package.
    scratch = WORK / f"run-{name}"
    scratch.mkdir()
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("NO_COLOR", "TEXTUAL_THEME", "GARITO_ASCII", "FORCE_COLOR", "TEXTUAL", "PYTHONPATH")
    }
    env["GARITO_EXPECT_INSTALLED"] = str(venv)
    started = time.monotonic()
    run(
        [
            bin_ / "python",
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "--import-mode=append",
            # As `make test` runs it: three workers on the machine's two cores
            # (the server tests mostly wait), a free worker taking queued tests.
            "-n",
            "3",
            "--dist",
            "worksteal",
            "--rootdir",
            src,
            "-c",
            src / "pyproject.toml",
            src / "tests",
        ],
        cwd=scratch,
        env=env,
    )
    return time.monotonic() - started


def find_python(name: str) -> str | None:
    """A working ``name`` (python3.12...): on the PATH, or one pyenv has
    installed but not activated (its shim on the PATH then refuses to run)."""
    candidates = [shutil.which(name)]
    pyenv = shutil.which("pyenv")
    if pyenv:
        root = subprocess.run([pyenv, "root"], capture_output=True, text=True).stdout.strip()
        candidates += sorted(Path(root).glob(f"versions/*/bin/{name}"), reverse=True) if root else []
    for python in candidates:
        if python and subprocess.run([python, "-c", ""], capture_output=True).returncode == 0:
            return str(python)
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pythons", default=PYTHONS, help=f"comma-separated (default {PYTHONS})")
    args = parser.parse_args()
    shutil.rmtree(WORK, ignore_errors=True)
    dist = WORK / "dist"
    run([sys.executable, "-m", "build", "--outdir", dist, ROOT])
    (wheel,) = dist.glob("*.whl")
    (sdist,) = dist.glob("*.tar.gz")
    check_wheel(wheel)
    src = unpack_sdist(sdist)
    ran, skipped = [], []
    for name in args.pythons.split(","):
        python = find_python(name)
        if python is None:
            skipped.append(name)
            print(f"{name}: not on this machine, skipped", flush=True)
            continue
        ran.append(f"{name} ({test_with(python, name, wheel, src):.0f} s)")
    if not ran:
        sys.exit("no Python to test the wheel with")
    print(
        f"test-dist: the wheel passed its suite on {', '.join(ran)}"
        + (f"; not found: {', '.join(skipped)}" if skipped else "")
    )


if __name__ == "__main__":
    main()
