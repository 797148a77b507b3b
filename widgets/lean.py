"""Textual's lines and layouts, lighter on memory and on the garbage
collector. Textual is pinned exactly; each change checks that the code it
changes is the code it expects, and leaves it alone (with a warning in the
log) if not. ``apply`` makes all five, once per process, and installs the
row compositor (``widgets.compositor``, less drawing per frame) and the
straight repaint (``widgets.repaint``, fewer messages per frame): the app
does at its start, and a server worker before its first player.

Why it matters: a full collection walks every object a process holds and
stops everything meanwhile. In a server worker that is every player's app
at once (the longest measured held a worker of 24 players 2.8 s), and on
a player's own terminal it is a frame that comes late.

* **Strip caches made when first used.** Each ``Strip`` (one line of a
  widget) made seven empty caches of its own as it was made, so a Gemelos
  match held 38,000 of them, 44% of all its app's objects (counted with
  ``gc.get_objects`` after 30 keys); most lines are never cropped, styled
  or filtered. Made on first use, the same match holds 51,000 objects in
  place of 87,000.
* **No strip that caches itself.** ``divide`` at a strip's own length and
  ``crop_extend`` that crops nothing cached the strip in itself: a cycle,
  so every such line drawn was garbage only the collector frees (about 7
  of every 10 objects it found after a round of play, measured). They
  return the same strip without keeping it.
* **Parameters counted once per function's code.** Textual counts a
  callback's parameters (``inspect.signature``) before calling it, and
  keeps the count on the function; a callback made anew each time (a
  ``partial`` of Textual's own, a closure) was counted anew each time: 27
  signatures a key at Gemelos, 1.5% of the app's time. Functions of one
  code have the same parameters, so the count is kept by the code.
* **No layout that holds itself.** The compositor lays a screen out with a
  closure that calls itself, so each layout's whole map (its regions and
  sizes) was freed only by the collector: the same code, with the closure
  let go as it returns.
* **No widget's lines kept after it is gone.** A widget's styles cache
  (its lines as last drawn) asks ``get_inner_outer`` for its background
  colours, an ``lru_cache`` of 1,024 calls whose key holds the cache
  itself: the last 1,024 widgets drawn stayed alive with their lines,
  gone or not. A player who started game after game grew their app (or
  their worker, and everyone's on it) by about 0.2 MB a game, measured
  over 60 games. The colours are kept by the colours alone."""

from __future__ import annotations

import logging
import re
import textwrap

from .source import source_of

log = logging.getLogger("garito")

_applied = False

# What Strip.__init__ sets besides its caches, as Textual 8.2.8 has it.
_STRIP_FIELDS = {
    "_segments": "list(segments)",
    "_cell_length": "cell_length",
    "_render_cache": "None",
    "_link_ids": "None",
    "_cell_count": "None",
}
_CACHE = re.compile(r"self\.(_\w+)\s*:[^=]*=\s*FIFOCache\((\d+)\)", re.S)
_FIELD = re.compile(r"self\.(_\w+)\s*(?::[^=\n]*)?=\s*(.+)")


def apply() -> None:
    """Make the five changes, once, compose partial updates row by row
    (``widgets.compositor``) and take repaints to their screen at once
    (``widgets.repaint``)."""
    global _applied
    if _applied:
        return
    _applied = True
    lazy_strip_caches()
    no_strip_cycles()
    no_layout_cycles()
    parameters_counted_once()
    styles_caches_let_go()
    from . import compositor, repaint

    compositor.install()
    repaint.install()


def strip_caches(source: str) -> dict[str, int] | None:
    """The caches ``Strip.__init__`` (its ``source``) makes, by attribute and
    size; None if it sets anything else than ``_STRIP_FIELDS`` besides."""
    caches = {name: int(size) for name, size in _CACHE.findall(source)}
    rest = _CACHE.sub("", source)
    fields = {name: value.strip() for name, value in _FIELD.findall(rest)}
    if not caches or fields != _STRIP_FIELDS:
        return None
    return caches


def lazy_strip_caches() -> bool:
    """Strips make their caches when first asked for one. The attributes are
    slots, so one not yet set falls through to ``__getattr__``, which makes
    the cache Textual would have made (same kind, same size)."""
    from textual.cache import FIFOCache
    from textual.strip import Strip

    try:
        source = textwrap.dedent(source_of(Strip.__init__))
    except (OSError, TypeError):
        return False
    sizes = strip_caches(source)
    if sizes is None or "__getattr__" in vars(Strip) or not set(sizes) <= set(Strip.__slots__):
        log.warning("Textual's Strip is not the one expected: its caches are made with it")
        return False

    def __init__(self, segments, cell_length=None) -> None:
        self._segments = list(segments)
        self._cell_length = cell_length
        self._render_cache = None
        self._link_ids = None
        self._cell_count = None

    def __getattr__(self, name: str):
        size = sizes.get(name)
        if size is None:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        cache: FIFOCache = FIFOCache(size)
        setattr(self, name, cache)
        return cache

    Strip.__init__ = __init__  # type: ignore[method-assign]
    Strip.__getattr__ = __getattr__  # type: ignore[attr-defined]
    return True


def no_strip_cycles() -> None:
    """``divide`` at a strip's own length and ``crop_extend`` that crops
    nothing give back the strip itself, not kept in its own caches."""
    from textual.strip import Strip

    divide, crop_extend = Strip.divide, Strip.crop_extend

    def _divide(self, cuts):
        cuts = list(cuts)
        if [cut for cut in cuts if cut <= self.cell_length] == [self.cell_length]:
            return [self]
        return divide(self, cuts)

    def _crop_extend(self, start, end, style):
        if start <= 0 and end == self.cell_length:
            return self
        return crop_extend(self, start, end, style)

    Strip.divide, Strip.crop_extend = _divide, _crop_extend  # type: ignore[method-assign]


def no_layout_cycles() -> bool:
    """The compositor's ``_arrange_root``, its recursive closure deleted as
    it returns."""
    from textual import _compositor

    end = "    widgets -= invisible_widgets\n    return map, widgets\n"
    try:
        source = textwrap.dedent(source_of(_compositor.Compositor._arrange_root))
    except (OSError, TypeError):
        return False
    if source.count(end) != 1 or not source.endswith(end):
        log.warning("Textual's layout is not the one expected: its cycles are left to the collector")
        return False
    let_go = "    widgets -= invisible_widgets\n    del add_widget\n    return map, widgets\n"
    source = source.replace(end, let_go)
    space: dict = {}
    exec(compile(source, _compositor.__file__, "exec"), vars(_compositor), space)
    _compositor.Compositor._arrange_root = space["_arrange_root"]  # type: ignore[method-assign]
    return True


_COUNT_SOURCE = '''def _count_parameters(func: Callable) -> int:
    """Count the number of parameters in a callable"""
    return len(signature(func).parameters)
'''


def parameters_counted_once() -> bool:
    """Textual's ``_count_parameters``, kept per code object for plain
    functions (a function that says its signature otherwise, with
    ``__signature__`` or ``__wrapped__``, is asked each time, as before)."""
    from types import FunctionType, MethodType

    from textual import _callback

    if not _as_expected(_callback._count_parameters, _COUNT_SOURCE, "its parameter count is left as it is"):
        return False
    count = _callback._count_parameters
    by_code: dict[object, int] = {}

    def plain(func) -> bool:
        return (
            type(func) is FunctionType
            and "__wrapped__" not in vars(func)
            and "__signature__" not in vars(func)
        )

    def _count_parameters(func) -> int:
        # A partial of a bound method (Textual's own call_next(partial(...)))
        # is asked for its method: counted as its function, less the self.
        method = type(func) is MethodType and plain(func.__func__)
        function = func.__func__ if method else func
        if method or plain(func):
            code = function.__code__
            counted = by_code.get(code)
            if counted is None:
                counted = by_code[code] = count(function)
            return counted - 1 if method else counted
        return count(func)

    _callback._count_parameters = _count_parameters
    return True


_INNER_OUTER_SOURCE = '''@lru_cache(1024)
def get_inner_outer(
    cls, base_background: Color, background: Color
) -> tuple[Style, Style]:
    """Get inner and outer background colors."""
    return (
        Style(background=base_background + background),
        Style(background=base_background),
    )
'''


def styles_caches_let_go() -> bool:
    """``StylesCache.get_inner_outer`` kept by its colours, not by the
    styles cache that asks (which held the cache, and its widget's lines,
    alive)."""
    from functools import lru_cache

    from textual._styles_cache import StylesCache
    from textual.style import Style

    if not _as_expected(
        StylesCache.get_inner_outer, _INNER_OUTER_SOURCE, "its colours are kept as they were"
    ):
        return False

    @lru_cache(1024)
    def inner_outer(base_background, background) -> tuple[Style, Style]:
        return Style(background=base_background + background), Style(background=base_background)

    def get_inner_outer(self, base_background, background) -> tuple[Style, Style]:
        return inner_outer(base_background, background)

    StylesCache.get_inner_outer = get_inner_outer  # type: ignore[method-assign, assignment]
    return True


def _as_expected(function, expected: str, else_: str) -> bool:
    """Whether ``function``'s source is ``expected``; if not, the log says
    what is left as it is (``else_``)."""
    try:
        source = textwrap.dedent(source_of(function))
    except (OSError, TypeError):
        return False
    if source != expected:
        log.warning("Textual's %s is not the one expected: %s", function.__qualname__, else_)
        return False
    return True
