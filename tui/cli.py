"""The ``garito`` command.

    garito                                   the menu
    garito play gemelos --seats human,bot --seed 7 [--rule stakes=blind]
    garito rules gemelos                     the rules, printed
    garito stats | history | export N [--text] | audit | replay FILE
    garito verify FILE                       a shared table's dice, checked
    garito serve --port 2222 --authorized-keys DIR | --guests
    garito --version | --help

A bad argument prints one line and exits with status 2, never a traceback.
Textual is imported only when the app actually starts.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
from typing import TYPE_CHECKING

from garito.core.i18n import LANGUAGES, _, ngettext
from garito.tui import THEMES

from .usage import UsageError

if TYPE_CHECKING:
    from garito.core.contract import AnyRules


# The collector's thresholds for a process that plays (this one, an SSH
# login's child, a server's worker). At Python's first, 700 allocations, a
# player's app ran the collector 116 times before its menu was drawn (14 ms
# of its start) and 48 times more over a Decimus match of 40 keys against
# the computer (22 ms: each frame's lines in flight promoted, to be walked
# again, and once every object, 14 ms in one key); at 20000, 4 times to the
# menu (10-12 ms) and once in the match (2 ms). In a server's worker, with
# some twenty apps at play, a full collection (everyone stopped: about 0.3 s
# at 25 apps) came every 6 s at 700, once in 40 s at 20000, and the
# collector took a third of the time (25 apps, 500 keys).
GC_THRESHOLDS = (20000, 10, 10)


class _Formatter(argparse.HelpFormatter):
    def add_usage(self, usage, actions, groups, prefix=None):
        super().add_usage(usage, actions, groups, _("usage: ") if prefix is None else prefix)


class _Parser(argparse.ArgumentParser):
    """argparse in the player's language: its own words (usage, the
    sections, -h) are Garito's texts, as argparse's have no catalog here."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", _Formatter)
        kwargs["add_help"] = False
        super().__init__(*args, **kwargs)
        self._positionals.title = _("positional arguments")
        self._optionals.title = _("options")
        self.add_argument("-h", "--help", action="help", help=_("show this help message and exit"))

    def error(self, message: str):  # one line, exit 2
        raise UsageError(message)


def _version() -> str:
    from garito import __version__

    return __version__


class _VersionAction(argparse.Action):
    """--version: print it and stop."""

    def __init__(self, option_strings, dest, **kwargs):
        super().__init__(option_strings, dest, nargs=0, help=_("print the version and exit"))

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"garito {_version()}")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    from garito.core import catalog

    p = _Parser(
        prog="garito",
        description=_("Garito: a terminal parlor of dice and card games."),
        epilog=_("Keys in the app: Space/Enter act, ? rules, Escape back, ctrl+q quit."),
    )
    p.add_argument("--version", action=_VersionAction)
    p.add_argument(
        "--lang",
        metavar="LANG",
        help=_(
            "the language for this run: {languages} (default: the one chosen in the app, else the locale)"
        ).format(languages=", ".join(LANGUAGES)),
    )
    p.add_argument("--ascii", action="store_true", help=_("draw with ASCII only (also GARITO_ASCII=1)"))
    p.add_argument(
        "--theme",
        metavar="THEME",
        help=_(
            "colour theme for this run: {themes}, or any the palette offers "
            "(ctrl+t or the palette choose one to remember)"
        ).format(themes=", ".join(THEMES)),
    )
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    play = sub.add_parser("play", help=_("start a game directly"), description=_("Start a game directly."))
    play.add_argument("game", help=", ".join(g.id for g in catalog.GAMES))
    play.add_argument(
        "--seats",
        default="human,computer",
        help=_(
            "comma-separated seats: human, computer (or bot), with an optional "
            ":level (the game's own: easy/hard, classic/strong, ...), e.g. human,bot:easy "
            "(default: human,computer)"
        ),
    )
    play.add_argument("--names", help=_("comma-separated names for the seats"))
    play.add_argument("--seed", type=_seed, help=_("seed for the dice (a game is replayable from it)"))
    play.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help=_("a rule variant, e.g. --rule wins_needed=5 --rule stakes=blind"),
    )
    rules = sub.add_parser("rules", help=_("print a game's rules"), description=_("Print a game's rules."))
    rules.add_argument("game")
    games = ", ".join(g.id for g in catalog.GAMES)
    stats = sub.add_parser(
        "stats", help=_("statistics of finished matches"), description=_("Per player and game.")
    )
    stats.add_argument(
        "--game", type=_game_name, choices=[g.id for g in catalog.GAMES], metavar="GAME", help=games
    )
    stats.add_argument("--player", help=_("one player's name"))
    history = sub.add_parser(
        "history", help=_("list finished matches"), description=_("List finished matches.")
    )
    history.add_argument(
        "--game", type=_game_name, choices=[g.id for g in catalog.GAMES], metavar="GAME", help=games
    )
    export = sub.add_parser(
        "export", help=_("print a finished match's record"), description=_("Print a finished match's record.")
    )
    export.add_argument("id", type=_match_id, help=_("the match's number in `garito history`"))
    export.add_argument("--text", action="store_true", help=_("a readable transcript instead of JSON"))
    serve = sub.add_parser(
        "serve",
        help=_("let players in over SSH"),
        description=_("Serve Garito over SSH: each connection plays in a terminal of its own."),
    )
    serve.add_argument("--port", type=_port, default=2222, help=_("default 2222"))
    serve.add_argument(
        "--host",
        default="127.0.0.1",
        help=_("the address to listen on (default 127.0.0.1, this machine only; 0.0.0.0 for every network)"),
    )
    serve.add_argument(
        "--authorized-keys",
        metavar="PATH",
        help=_(
            "who may log in as whom: a folder with one authorized_keys file per player, named by "
            "the player's name (as sshd's AuthorizedKeysFile /etc/garito/keys/%%u), or one file whose "
            'keys each carry principals="NAME[,NAME...]"'
        ),
    )
    serve.add_argument("--guests", action="store_true", help=_("let anyone in, by the name they give"))
    serve.add_argument(
        "--redis",
        metavar="URL",
        default=os.environ.get("GARITO_REDIS") or None,
        help=_(
            "share the lobby and the tables with the other hosts on this Redis, "
            "redis://[USER:PASSWORD@]HOST:PORT/DB (also GARITO_REDIS)"
        ),
    )
    limits = serve.add_argument_group(_("limits"))
    limits.add_argument(
        "--max-connections",
        type=_count,
        default=50,
        metavar="N",
        help=_("SSH connections at once (default 50)"),
    )
    limits.add_argument(
        "--max-players", type=_count, default=40, metavar="N", help=_("games running at once (default 40)")
    )
    limits.add_argument(
        "--max-per-address",
        type=_count,
        default=8,
        metavar="N",
        help=_("connections from one address at once (default 8)"),
    )
    limits.add_argument(
        "--login-grace",
        type=_count,
        default=30,
        metavar="SECONDS",
        help=_("time to log in, and then to open the terminal (default 30)"),
    )
    limits.add_argument(
        "--idle-timeout",
        type=_count,
        default=1800,
        metavar="SECONDS",
        help=_("a game with no key for this long is saved and closed (default 1800)"),
    )
    limits.add_argument(
        "--app-memory",
        type=_count,
        default=512,
        metavar="MB",
        help=_(
            "address space each worker (a process of up to 24 games) may map; past it, that worker "
            "fails and its players are let go (default 512)"
        ),
    )
    limits.add_argument(
        "--workers",
        type=_count,
        metavar="N",
        help=_("processes the games are shared among (default: one per core)"),
    )
    limits.add_argument(
        "--per-worker",
        type=_count,
        default=24,
        metavar="N",
        help=_(
            "games one worker holds at most; fewer make a full garbage collection, which stops a "
            "worker's games, shorter (default 24)"
        ),
    )
    # How the games are hosted, for bench/serve_designs.py to measure the others.
    serve.add_argument(
        "--design", choices=("workers", "fork", "pty"), default="workers", help=argparse.SUPPRESS
    )
    replay = sub.add_parser(
        "replay", help=_("step through a game record, move by move"), description=_("Replay a game record.")
    )
    replay.add_argument("file", help=_("a record: `garito export N > FILE`, or a save"))
    verify = sub.add_parser(
        "verify",
        help=_("check a shared table's record against its seed commitment"),
        description=_(
            "Check that a shared table's record rolled its dice from the seed the table "
            "committed to before play, and that it replays. Exit 0 verified, 1 not, 2 not a record."
        ),
    )
    verify.add_argument("file", help=_("a record: `garito export N > FILE`"))
    sub.add_parser(
        "audit",
        help=_("count every die rolled and test it for fairness"),
        description=_("Count every die rolled in the finished matches and test each kind for fairness."),
    )
    for a in (play, rules):
        a.add_argument("--ascii", action="store_true", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    return p


def read_record(path: str):
    """The match a record file holds, or UsageError saying why not."""
    from garito.core.match import Match, RecordError

    from .record_file import TooBig, read_bounded

    try:
        text = read_bounded(path).decode("utf-8")
    except TooBig as e:
        raise UsageError(str(e)) from None
    except OSError as e:
        raise UsageError(_("cannot read {path}: {why}").format(path=path, why=e.strerror or e)) from None
    except UnicodeDecodeError:
        raise UsageError(_("{path} is not a text file").format(path=path)) from None
    try:
        return Match.from_json(text)
    except RecordError as e:
        raise UsageError(f"{path}: {e}") from None


def _game_name(text: str) -> str:
    """A game as typed: ``Gemelos`` is ``gemelos``."""
    return text.strip().lower()


def _port(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(_("a whole number from 1 to 65535, not {text!r}").format(text=text))
    return int(text)


def _can_serve(design: str) -> str:
    """The design ``garito serve`` can run here, or UsageError: a POSIX
    system and the ``serve`` extra installed (the SSH server's libraries).
    The workers take each player's terminal over Unix sequenced-packet
    sockets; a system without them (macOS) runs each game in a process of
    its own on a pseudo-terminal instead."""
    import importlib.util
    import os
    import socket

    if os.name != "posix":
        raise UsageError(_("garito serve needs a POSIX system (Linux, a BSD, macOS)"))
    if importlib.util.find_spec("asyncssh") is None:
        raise UsageError(_("garito serve needs the SSH server's libraries: pip install 'garito[serve]'"))
    if design != "pty":
        try:
            a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        except (AttributeError, OSError):
            design = "pty"
        else:
            a.close()
            b.close()
    if design == "pty" and importlib.util.find_spec("pty") is None:
        raise UsageError(
            _("garito serve needs Unix sequenced-packet sockets or pseudo-terminals: this system has neither")
        )
    return design


def serve(args) -> int:
    """``garito serve``: checks its arguments (UsageError), then serves until
    interrupted."""
    import asyncio

    design = _can_serve(args.design)
    if not args.guests and not args.authorized_keys:
        raise UsageError(_("give --authorized-keys PATH, or --guests to let anyone in"))
    if args.guests and args.authorized_keys:
        raise UsageError(_("--guests lets anyone in: leave out --authorized-keys, or --guests"))
    if args.app_memory < 256:
        raise UsageError(_("--app-memory below 256 MB leaves a game no room to start"))
    if args.authorized_keys:
        from garito.server.keys import KeyBook, KeysError

        try:
            KeyBook(args.authorized_keys)
        except KeysError as e:
            raise UsageError(str(e)) from None
    if args.redis is not None:
        _redis_url(args.redis)
    from garito.server.ssh import serve_forever
    from garito.store.paths import data_dir

    try:
        asyncio.run(
            serve_forever(
                data_dir(),
                args.host,
                args.port,
                authorized_keys=args.authorized_keys,
                guests=args.guests,
                redis=args.redis,
                max_connections=args.max_connections,
                max_players=args.max_players,
                per_address=args.max_per_address,
                login_grace=float(args.login_grace),
                idle=float(args.idle_timeout),
                app_memory=args.app_memory << 20,
                design=design,
                per_worker=args.per_worker,
                **({"workers": args.workers} if args.workers else {}),
            )
        )
    except KeyboardInterrupt:
        pass
    return 0


def _redis_url(url: str) -> None:
    """A Redis URL redis-py takes (UsageError otherwise): said before the
    server starts, not as a traceback once it has."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url)
    except ValueError:  # an address in brackets left open
        parts = urlsplit("")
    if parts.scheme not in ("redis", "rediss", "unix") or not (parts.hostname or parts.path):
        raise UsageError(_("--redis takes a URL like redis://HOST:6379/0, not {url!r}").format(url=url[:80]))
    try:
        port = parts.port  # a port that is not a number, or over 65535, raises
    except ValueError:
        port = 0
    if port == 0:
        raise UsageError(_("--redis: a port is a number"))


def _count(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 10**6:
        raise argparse.ArgumentTypeError(_("a whole number from 1, not {text!r}").format(text=text))
    return int(text)


def _match_id(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(
            _("a match number is a whole number from 1, not {text!r}").format(text=text)
        )
    return int(text)


def _seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("the seed must be a whole number, not {text!r}").format(text=text)
        ) from None
    if value < 0:
        raise argparse.ArgumentTypeError(_("the seed must not be negative"))
    return value


def _rules(game: str) -> AnyRules:
    from garito.core import catalog

    try:
        return catalog.rules(_game_name(game))
    except LookupError:
        raise UsageError(
            _("unknown game {game!r} (choose from {games})").format(
                game=game, games=", ".join(g.id for g in catalog.GAMES)
            )
        ) from None


def make_match(args):
    """The match ``garito play`` asks for, or UsageError saying what is wrong."""
    from garito.core.dice import fresh_seed
    from garito.core.match import Match, Seat
    from garito.core.names import clean

    from .games import default_names

    rules = _rules(args.game)
    seats = []
    for i, item in enumerate(args.seats.split(",")):
        kind, _sep, level = item.strip().lower().partition(":")
        kind = {"bot": "computer", "cpu": "computer"}.get(kind, kind)
        if kind not in ("human", "computer"):
            raise UsageError(
                _("a seat is human or computer (or bot), not {seat!r}").format(seat=item.strip())
            )
        level = level or rules.default_level(i)
        if level not in rules.levels:
            raise UsageError(
                _("a computer level is one of {levels}, not {level!r}").format(
                    levels=", ".join(rules.levels), level=level
                )
            )
        seats.append((kind, level))
    lo, hi = rules.players
    if not lo <= len(seats) <= hi:
        span = f"{lo}" if lo == hi else f"{lo}–{hi}"
        raise UsageError(
            _("{game} is for {span} seats, not {count}").format(game=rules.title, span=span, count=len(seats))
        )
    names = default_names([k for k, _ in seats])
    if args.names:
        given = [clean(n).strip() for n in args.names.split(",")]
        if len(given) != len(seats) or not all(given):
            raise UsageError(
                ngettext(
                    "--names needs {count} non-empty name, one per seat",
                    "--names needs {count} non-empty names, one per seat",
                    len(seats),
                ).format(count=len(seats))
            )
        names = given
    if len(set(names)) != len(names):
        raise UsageError(_("two seats have the same name"))
    values = {}
    variants = {v.key: v for v in rules.variants}
    for item in args.rule:
        key, eq, text = item.partition("=")
        if not eq and key in variants:
            raise UsageError(
                _("a rule is KEY=VALUE, like {example}").format(example=f"{key}={variants[key].choices[0]}")
            )
        if not eq or key not in variants:
            raise UsageError(
                _("unknown rule {key!r} (rules: {rules})").format(key=key, rules=", ".join(variants))
            )
        try:
            values[key] = variants[key].parse(text)
        except ValueError as e:
            raise UsageError(str(e)) from None
    try:
        config = rules.config_type(players=len(seats), **values)
    except ValueError as e:
        raise UsageError(str(e)) from None
    seed = args.seed if args.seed is not None else fresh_seed()
    return Match.start(
        rules.id,
        config,
        seed,
        tuple(Seat(n, k, lv) for n, (k, lv) in zip(names, seats)),
    )


def print_rules(game: str) -> None:
    game = _rules(game).id
    from rich.console import Console
    from rich.markdown import Markdown

    from .screens.rules import rules_text

    console = Console()
    if console.is_terminal:
        console.print(Markdown(rules_text(game)))
        return
    # Into a pipe or a file: the same lines, without the spaces that pad
    # each one to the console's width.
    with console.capture() as captured:
        console.print(Markdown(rules_text(game)))
    sys.stdout.write("".join(line.rstrip() + "\n" for line in captured.get().splitlines()))


def _language(argv: list[str]) -> str:
    """The language of this run: --lang; else the one chosen in the app
    (the settings); else the locale's (LC_ALL, LC_MESSAGES, LANG: over
    SSH, the client's); else English. UsageError for a --lang Garito does
    not speak."""

    for i, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--lang" or arg.startswith("--lang="):
            value = arg.partition("=")[2] if "=" in arg else (argv[i + 1] if i + 1 < len(argv) else "")
            if value not in LANGUAGES:
                raise UsageError(
                    _("no language {value!r} (choose from {languages})").format(
                        value=value, languages=", ".join(LANGUAGES)
                    )
                )
            return value
    return players_language()


def players_language() -> str:
    """The language the player chose in the app (their settings), else their
    locale's (under ``garito serve`` the one their SSH client sent), else
    English."""
    from garito.core import i18n
    from garito.store import environ, settings

    try:
        chosen = settings.load().get("language")
    except Exception:  # a preference: where the settings cannot be read, the locale decides
        chosen = None
    return chosen or i18n.from_locale(environ.locale()) or i18n.ENGLISH


# What the parser reads from no arguments at all (the menu): the parser is
# built only for arguments to read (2.3 ms of CPU at every start, measured).
NO_ARGUMENTS = argparse.Namespace(version=None, lang=None, ascii=False, theme=None, command=None)


def main(argv: list[str] | None = None) -> int:
    from garito.core import i18n

    argv = sys.argv[1:] if argv is None else argv
    try:
        i18n.set_default(_language(argv))
    except UsageError as e:
        print(f"garito: error: {e}", file=sys.stderr)
        return 2
    try:
        args = build_parser().parse_args(argv) if argv else NO_ARGUMENTS
        start = replay = None
        if args.command == "rules":
            print_rules(args.game)
            return 0
        if args.command == "serve":
            return serve(args)
        if args.command == "verify":
            from .verify_cli import verify

            return verify(args.file)
        if args.command in ("stats", "history", "export", "audit"):
            from . import history_cli

            if args.command == "stats":
                return history_cli.stats(args.game, args.player)
            if args.command == "history":
                return history_cli.history(args.game)
            if args.command == "export":
                return history_cli.export(args.id, args.text)
            return history_cli.audit()
        if args.command == "play":
            start = make_match(args)
        if args.command == "replay":
            replay = read_record(args.file)
    except UsageError as e:
        print(_("garito: error: {message}").format(message=e), file=sys.stderr)
        return 2
    from .app import GarApp

    ascii_only = True if getattr(args, "ascii", False) else None
    app = GarApp(ascii_only=ascii_only, theme=args.theme, start=start, replay=replay)
    if args.theme and args.theme not in app.available_themes:
        print(
            _("garito: error: no theme {theme!r} (try {themes})").format(
                theme=args.theme, themes=", ".join(THEMES)
            ),
            file=sys.stderr,
        )
        return 2
    if not _on_a_terminal():
        print(
            _("garito: error: {message}").format(
                message=_("the games are played in a terminal, and standard input or output is not one")
            ),
            file=sys.stderr,
        )
        return 2
    app.run()
    return app.return_code or 0  # 1 after an error that stopped it (see GarApp)


def _on_a_terminal() -> bool:
    """Whether the app has a terminal to draw on and read keys from: without
    one (``garito play gemelos </dev/null``) Textual's driver gets no size and
    the screens fail as they mount. A driver the environment names
    (TEXTUAL_DRIVER: a web driver, a test's) brings its own."""
    from textual import constants

    if constants.DRIVER is not None:
        return True
    try:
        return sys.stdin.isatty() and sys.stdout.isatty()
    except (AttributeError, ValueError):  # closed, or replaced by something that is no file
        return False


def entry() -> None:  # pragma: no cover - the console script
    gc.set_threshold(*GC_THRESHOLDS)
    try:
        sys.exit(main())
    except BrokenPipeError:  # `garito history | head`: the reader has gone, no traceback
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # Python's own advice
        sys.exit(1)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
