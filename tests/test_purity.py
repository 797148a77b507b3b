"""garito.core must not import Textual, Rich or platformdirs: the rules run
anywhere, the server and the tests without a terminal. (make check holds the
same with import-linter's contracts; this also catches an import made at run
time.)"""

import ast
from pathlib import Path

CORE = Path(__file__).resolve().parents[1] / "core"
FORBIDDEN = {"textual", "rich", "platformdirs"}


def test_core_imports_no_ui_or_platform_library():
    offenders = []
    for path in CORE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            offenders += [f"{path.name}: {n}" for n in names if n.split(".")[0] in FORBIDDEN]
    assert not offenders
    assert len(list(CORE.rglob("*.py"))) >= 5


def test_importing_the_core_loads_no_ui_library():
    import subprocess
    import sys

    code = (
        "import sys, garito.core.gemelos, garito.core.match, garito.core.catalog;"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        f"{sorted(FORBIDDEN)!r}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
