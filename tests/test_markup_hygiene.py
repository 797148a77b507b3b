"""No screen parses markup out of data, checked in the source: a Static
given an f-string takes ``markup=False`` (the f-string's values may be
names), Rich markup is parsed only by ``widgets.text.styled`` (which puts
data in after parsing), and Textual's ``Content.from_markup`` is given a
plain literal, its data as ``$variables``. ``test_names_as_text.py`` shows
the result on every screen; this keeps the next screen from undoing it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted([*ROOT.glob("tui/**/*.py"), *ROOT.glob("widgets/*.py")])


def calls(path: Path):
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
            owner = f.value.id if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) else ""
            yield node, owner, name


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_markup_is_parsed_from_data(path):
    for node, owner, name in calls(path):
        where = f"{path.relative_to(ROOT)}:{node.lineno}"
        first = node.args[0] if node.args else None
        if name == "Static" and isinstance(first, ast.JoinedStr):
            markup = [k for k in node.keywords if k.arg == "markup"]
            assert markup and isinstance(markup[0].value, ast.Constant) and markup[0].value.value is False, (
                f"{where}: a Static of an f-string reads it as markup; give markup=False"
            )
        if owner == "Text" and name == "from_markup":
            assert path.name == "text.py", f"{where}: Rich markup is parsed by widgets.text.styled only"
        if owner == "Content" and name == "from_markup":
            # A literal, or its translation (``_("...")``: tests/test_i18n.py
            # holds each translation to the same markup and $variables).
            translated = (
                isinstance(first, ast.Call)
                and isinstance(first.func, ast.Name)
                and first.func.id == "_"
                and len(first.args) == 1
                and isinstance(first.args[0], ast.Constant)
            )
            assert isinstance(first, ast.Constant) or translated, (
                f"{where}: a literal, with the data as $variables"
            )
