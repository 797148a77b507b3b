"""What pyproject.toml cannot say statically: which packages make Garito
(every folder under the design's top-level folders, found, never listed by
hand: a list forgot a new sub-package while the tests stayed green), and the
long description (the README with its pictures as text, which a package
index can show). Everything else is in pyproject.toml."""

import importlib.util
import sys
from pathlib import Path

from setuptools import find_namespace_packages, setup
from setuptools.command.build_py import build_py
from setuptools.command.install_lib import install_lib

ROOT = Path(__file__).resolve().parent

# The design's folders, each a sub-package of the one ``garito`` namespace,
# so nothing called "core" lands in a user's site-packages.
FOLDERS = ("core", "widgets", "tui", "store", "server")

package_dir = {"garito": "garito"}
packages = ["garito"]
for folder in FOLDERS:
    package_dir[f"garito.{folder}"] = folder
    packages.append(f"garito.{folder}")
    # Namespace packages too: a folder of data (tui/rules) is a package of data.
    packages += [f"garito.{folder}.{p}" for p in find_namespace_packages(folder, exclude=["*__pycache__*"])]

spec = importlib.util.spec_from_file_location("as_text", ROOT / "screenshots" / "as_text.py")
as_text = importlib.util.module_from_spec(spec)
spec.loader.exec_module(as_text)
readme = as_text.readme_with_text_pictures((ROOT / "README.md").read_text(encoding="utf-8"), ROOT)


class BuildWithCatalogs(build_py):
    """The translations compiled (``.po`` to the ``.mo`` gettext reads) as
    the package is built, a wheel or an editable install alike: an install
    needs no translation tool, and no compiled file is kept in git."""

    def run(self):
        spec = importlib.util.spec_from_file_location(
            "compile_catalogs", ROOT / "core" / "locale" / "compile.py"
        )
        compiler = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(compiler)
        compiler.compile_all(ROOT / "core" / "locale")
        super().run()

    def byte_compile(self, files):
        if not sys.dont_write_bytecode:  # turned off (PYTHONDONTWRITEBYTECODE): nothing to say
            super().byte_compile(files)


class QuietInstallLib(install_lib):
    """A build where bytecode is turned off compiles none, and says nothing
    of it (setuptools warned once for each of the two steps)."""

    def byte_compile(self, files):
        if not sys.dont_write_bytecode:
            super().byte_compile(files)


setup(
    cmdclass={"build_py": BuildWithCatalogs, "install_lib": QuietInstallLib},
    package_dir=package_dir,
    packages=packages,
    long_description=readme,
    long_description_content_type="text/markdown",
)
