"""The distribution's own description: what setuptools reads without a
warning (a clean install prints nothing but progress)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


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


def test_every_folder_inside_the_packages_is_listed():
    # setuptools warns of an importable folder (the rules pages) that is
    # absent from `packages`, at every install.
    tool = CONFIG["tool"]["setuptools"]
    listed = set(tool["packages"])
    for name, folder in tool["package-dir"].items():
        for path in [ROOT / folder, *(ROOT / folder).rglob("*")]:
            if path.is_dir() and path.name != "__pycache__" and "." not in path.name:
                dotted = ".".join([name, *path.relative_to(ROOT / folder).parts])
                assert dotted in listed, f"{path.relative_to(ROOT)} is not in `packages`"
    for package, patterns in tool["package-data"].items():
        assert package in listed
        folder = ROOT / tool["package-dir"][".".join(package.split(".")[:2])]
        folder = folder.joinpath(*package.split(".")[2:])
        for pattern in patterns:
            assert list(folder.glob(pattern)), f"{package}: nothing matches {pattern}"
