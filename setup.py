"""What pyproject.toml cannot say statically: which packages make Garito
(every folder under the design's top-level folders, found, never listed by
hand: a list forgot a new sub-package while the tests stayed green), and the
long description (the README with its pictures as text, which a package
index can show). Everything else is in pyproject.toml."""

import importlib.util
from pathlib import Path

from setuptools import find_namespace_packages, setup

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

setup(
    package_dir=package_dir,
    packages=packages,
    long_description=readme,
    long_description_content_type="text/markdown",
)
