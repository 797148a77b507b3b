"""The distribution: what setuptools reads without a warning, a wheel that
holds every module of the source tree (a hand-kept list of packages once
left a new one out while every test passed), and the package's own face:
``garito.__version__``, ``python -m garito``, ``py.typed``."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
FOLDERS = ("core", "widgets", "tui", "store", "server")  # the design's, each garito.<folder>
DATA = ("*.tcss", "*.md", "*.mo", "py.typed")  # what the package reads besides its modules


def test_the_licence_is_an_spdx_expression_with_its_file():
    project = CONFIG["project"]
    assert project["license"] == "MIT"  # the table form is deprecated (setuptools 77)
    assert project["license-files"] == ["LICENSE"]
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")


def test_the_build_requirement_is_bounded_both_ways():
    (setuptools,) = CONFIG["build-system"]["requires"]
    assert re.fullmatch(r"setuptools>=(\d+),<(\d+)", setuptools)
    low, high = map(int, re.findall(r"\d+", setuptools))
    assert low >= 77 and high > low  # 77 is the first to read `license = "MIT"`


def test_the_server_is_an_extra():
    project = CONFIG["project"]
    assert not any(d.startswith("asyncssh") for d in project["dependencies"])
    assert any(d.startswith("asyncssh") for d in project["optional-dependencies"]["serve"])


def expected_files() -> set[str]:
    """Every file the wheel must hold, as its path inside the wheel."""
    wanted = set()
    for path in (ROOT / "garito").iterdir():
        if path.suffix == ".py" or path.name == "py.typed":
            wanted.add(f"garito/{path.name}")
    for folder in FOLDERS:
        for path in (ROOT / folder).rglob("*"):
            if "__pycache__" in path.parts or not path.is_file():
                continue
            if path.suffix == ".py" or any(path.match(p) for p in DATA):
                wanted.add("garito/" + path.relative_to(ROOT).as_posix())
            if path.suffix == ".po":  # compiled as the wheel is built; the source stays out
                wanted.add("garito/" + path.with_suffix(".mo").relative_to(ROOT).as_posix())
    return wanted


def build(src: Path, hook: str) -> subprocess.CompletedProcess:
    """``hook`` of setuptools' build backend in ``src``, where bytecode is
    turned off (as on this machine): it must say no warning at all, neither
    setuptools' own (deprecations, data left out) nor a note of distutils."""
    out = subprocess.run(
        [sys.executable, "-c", f"from setuptools import build_meta; print(build_meta.{hook}('dist'))"],
        cwd=src,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )
    assert out.returncode == 0, out.stderr[-2000:]
    said = out.stdout + out.stderr
    assert not re.search(r"\w+Warning\b|^warning|no previously-included", said, re.M | re.I), said[-2000:]
    return out


def test_the_sdist_holds_the_suite_and_no_cache_of_a_working_tree_and_says_no_warning(tmp_path):
    src = tmp_path / "src"
    skip = (".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".hypothesis")
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(*skip))
    # a working tree's caches, where the suite has run
    (src / "tests" / "__pycache__").mkdir()
    (src / "tests" / "__pycache__" / "helpers.cpython-311.pyc").write_bytes(b"\0")
    (src / "tests" / ".hypothesis" / "examples").mkdir(parents=True)
    (src / "tests" / ".hypothesis" / "examples" / "x").write_bytes(b"\0")
    out = build(src, "build_sdist")
    with tarfile.open(src / "dist" / out.stdout.strip().splitlines()[-1]) as t:
        names = {n.split("/", 1)[1] for n in t.getnames() if "/" in n}
    assert not {n for n in names if "__pycache__" in n or ".hypothesis" in n or n.endswith(".pyc")}
    snapshot = "tests/__snapshots__/test_snapshots/test_too_small_notice.svg"
    assert {"tests/helpers.py", snapshot, "Makefile"} <= names
    assert {n for n in names if n.startswith("bench/")} == {
        p.relative_to(ROOT).as_posix() for p in (ROOT / "bench").glob("*.py")
    }


def test_the_wheel_holds_every_module_of_the_source_tree(tmp_path):
    # built from a copy: a build writes build/ and *.egg-info beside its sources
    src = tmp_path / "src"
    src.mkdir()
    for name in ("garito", *FOLDERS):
        # without the compiled catalogs: the build must make them
        shutil.copytree(ROOT / name, src / name, ignore=shutil.ignore_patterns("__pycache__", "*.mo"))
    for name in ("setup.py", "pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, src / name)
    shutil.copytree(ROOT / "screenshots", src / "screenshots")
    out = build(src, "build_wheel")
    wheel = src / "dist" / out.stdout.strip().splitlines()[-1]
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
    held = {n for n in names if not n.split("/")[0].endswith(".dist-info")}
    assert held == expected_files()
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)


def test_the_package_knows_its_version():
    import garito

    assert re.fullmatch(r"\d+\.\d+\.\d+", garito.__version__)
    assert (ROOT / "garito" / "py.typed").exists()


@pytest.mark.parametrize(
    "command",
    [["-m", "garito", "--version"], ["-c", "from garito.tui.cli import entry; entry()", "--version"]],
)
@pytest.mark.parametrize("where", ["elsewhere", "in the source tree"])
def test_python_dash_m_garito_is_the_garito_command(command, where, tmp_path):
    # In the source tree its folder garito/ comes first on the import path,
    # ahead of an installed wheel (make test-dist runs this against one).
    import garito

    cwd = ROOT if where == "in the source tree" else tmp_path
    out = subprocess.run([sys.executable, *command], capture_output=True, text=True, timeout=60, cwd=cwd)
    assert (out.returncode, out.stdout, out.stderr) == (0, f"garito {garito.__version__}\n", "")


def test_the_package_description_shows_every_picture_as_text(tmp_path):
    import importlib.util

    spec = importlib.util.spec_from_file_location("as_text", ROOT / "screenshots" / "as_text.py")
    as_text = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(as_text)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    pictures = as_text.PICTURE.findall(readme)
    assert len(pictures) >= 20
    described = as_text.readme_with_text_pictures(readme, ROOT)
    assert "](screenshots/" not in described  # no picture left to break
    menu = as_text.screen_text((ROOT / "screenshots" / "menu.svg").read_text(encoding="utf-8"))
    rows = menu.splitlines()
    assert len(rows) == 24 and max(map(len, rows)) <= 80
    assert "│ Gemelos" in menu and "Red Man's Throw" in menu
    assert f"```text\n{menu}\n```" in described
