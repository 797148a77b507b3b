"""Garito: a terminal parlor of six dice and card games, played from the keyboard.

The import names live under this one namespace, each sub-package a folder of
its own at the top of the source tree (``setup.py`` maps them):

``garito.core``     the games' rules, pure: no Textual, Rich or files
``garito.widgets``  Textual widgets that know no game
``garito.tui``      the app, its screens and the ``garito`` command
``garito.store``    saves, settings and the history on disk
``garito.server``   ``garito serve`` over SSH (the ``garito[serve]`` extra)

``python -m garito`` is the ``garito`` command.
"""

__version__ = "0.2.0"

import os as _os

# Imported from a source tree (a clone or an unpacked sdist whose folder is
# on the import path, as `python -m garito` run there puts it), this folder
# would hide the installed package and hold none of its sub-packages: they
# are the design's folders beside it, so they are looked for there too.
# Installed, the folder beside this one is site-packages: nothing is added.
_source = _os.path.dirname(_os.path.dirname(_os.path.abspath(__file__)))
if all(_os.path.exists(_os.path.join(_source, name)) for name in ("setup.py", "core", "tui")):
    __path__.append(_source)
