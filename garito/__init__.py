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
