"""The garito command: good arguments work, bad ones say one line and exit 2."""

import os
import subprocess
import sys

import pytest

from garito.tui import cli

BAD = [
    (["play", "poker"], "unknown game 'poker' (choose from gemelos, redman, barras, irwin, decimus, willie)"),
    (["play", "willie", "--seats", "human,bot,bot,bot"], "Willie is for 2–3 seats, not 4"),
    (["play", "irwin", "--seats", "human,bot,bot"], "Irwin's Revenge is for 2 seats, not 3"),
    (
        ["play", "barras", "--seats", "human,bot:hard"],
        "a computer level is one of cautious, steady, reckless, not 'hard'",
    ),
    (["play", "barras", "--seats", ",".join(["bot"] * 7)], "Barras is for 1–6 seats, not 7"),
    (["play", "redman", "--seats", "human,bot,bot"], "Red Man's Throw is for 2 seats, not 3"),
    (["play", "redman", "--rule", "bets=all"], "bets is one of off, stakes, predictions, not 'all'"),
    (["play", "gemelos", "--seats", "human"], "Gemelos is for 2–6 seats, not 1"),
    (["play", "gemelos", "--seats", ",".join(["bot"] * 7)], "Gemelos is for 2–6 seats, not 7"),
    (["play", "gemelos", "--seats", "human,robot"], "a seat is human or computer (or bot), not 'robot'"),
    (
        ["play", "gemelos", "--seats", "human,bot:genius"],
        "a computer level is one of easy, hard, not 'genius'",
    ),
    (["play", "gemelos", "--seed", "x"], "argument --seed: the seed must be a whole number, not 'x'"),
    (["play", "gemelos", "--seed", "-3"], "argument --seed: the seed must not be negative"),
    (["play", "gemelos", "--names", "Ana"], "--names needs 2 non-empty names, one per seat"),
    (["play", "gemelos", "--names", "Ana,Ana"], "two seats have the same name"),
    (
        ["play", "gemelos", "--rule", "colour=red"],
        "unknown rule 'colour' (rules: wins_needed, first_roller, stakes, bankroll, stake_min, stake_max)",
    ),
    (["play", "gemelos", "--rule", "wins_needed=9"], "wins_needed is one of 2, 3, 4, 5, 6, 7, not '9'"),
    (
        ["play", "gemelos", "--rule", "stake_min=10", "--rule", "stake_max=5"],
        "table limits need 1 ≤ minimum ≤ maximum",
    ),
    (["play", "decimus", "--seats", "human,bot,bot"], "Decimus is for 2 seats, not 3"),
    (
        ["play", "decimus", "--seats", "human,bot:hard"],
        "a computer level is one of classic, strong, not 'hard'",
    ),
    (["play", "decimus", "--rule", "target=25"], "target is one of 20, 30, 40, not '25'"),
    (["play", "decimus", "--rule", "target"], "a rule is KEY=VALUE, like target=20"),
    (["rules", "nope"], "unknown game 'nope' (choose from gemelos, redman, barras, irwin, decimus, willie)"),
    (["--theme", "pink"], "no theme 'pink' (try textual-dark, textual-light, ansi-dark, ansi-light)"),
    # argparse's own words (their quoting varies between Python versions)
    (["dance"], "argument COMMAND: invalid choice: 'dance' (choose from "),
    (["play"], "the following arguments are required: game"),
    (["rules"], "the following arguments are required: game"),
    (["rules", "gemelos", "extra"], "unrecognized arguments: extra"),
    (["play", "gemelos", "--seed"], "argument --seed: expected one argument"),
]


@pytest.mark.parametrize("argv, message", BAD)
def test_bad_arguments_print_one_line_and_exit_2(argv, message, capsys):
    assert cli.main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"garito: error: {message}")
    assert err.count("\n") == 1 and err.endswith("\n")


def test_the_console_script_exits_2_without_a_traceback():
    run = subprocess.run(
        [sys.executable, "-c", "from garito.tui.cli import entry; entry()", "play", "nothing"],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr


def test_version_and_help(capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(["--version"])
    assert e.value.code == 0
    import garito

    assert capsys.readouterr().out == f"garito {garito.__version__}\n"
    with pytest.raises(SystemExit) as e:
        cli.main(["--help"])
    assert e.value.code == 0
    usage = capsys.readouterr().out
    assert "play" in usage and "rules" in usage and "--ascii" in usage


def test_rules_are_printed(capsys):
    assert cli.main(["rules", "gemelos"]) == 0
    out = capsys.readouterr().out
    assert "Twins of t beat any hand" in out
    assert "king of the hill" in out


def test_play_builds_the_match_asked_for():
    args = cli.build_parser().parse_args(
        [
            "play",
            "gemelos",
            "--seats",
            "human,bot:easy,cpu",
            "--names",
            "Ana,Bea,Cid",
            "--seed",
            "7",
            "--rule",
            "stakes=before roll",
            "--rule",
            "wins_needed=5",
        ]
    )
    match = cli.make_match(args)
    assert match.seed == 7
    assert [(s.name, s.kind, s.level) for s in match.seats] == [
        ("Ana", "human", "hard"),
        ("Bea", "computer", "easy"),
        ("Cid", "computer", "hard"),
    ]
    assert match.config.stakes == "before-roll" and match.config.wins_needed == 5
    assert match.config.players == 3


@pytest.mark.parametrize("name", ["Gemelos", "GEMELOS", " gemelos "])
def test_a_game_is_named_in_any_case(name, capsys):
    assert cli.main(["rules", name]) == 0
    assert "Twins of t beat any hand" in capsys.readouterr().out
    args = cli.build_parser().parse_args(["play", name, "--seed", "1"])
    assert cli.make_match(args).game == "gemelos"
    assert cli.build_parser().parse_args(["stats", "--game", name.strip()]).game == "gemelos"
    assert cli.build_parser().parse_args(["history", "--game", name.strip()]).game == "gemelos"


def test_rules_into_a_pipe_are_not_padded_with_spaces():
    run = subprocess.run(
        [sys.executable, "-c", "from garito.tui.cli import entry; entry()", "rules", "gemelos"],
        capture_output=True,
        text=True,
        env={k: v for k, v in __import__("os").environ.items() if k not in ("FORCE_COLOR", "COLUMNS")},
    )
    assert run.returncode == 0
    lines = run.stdout.split("\n")
    assert "king of the hill" in run.stdout
    assert all(line == line.rstrip() for line in lines)
    assert max(len(line) for line in lines) <= 80


def test_no_arguments_read_as_the_parser_reads_them():
    """The menu's start skips building the parser: what it assumes is what
    the parser would have read."""
    assert cli.build_parser().parse_args([]) == cli.NO_ARGUMENTS


def test_without_a_terminal_the_games_are_not_started_and_one_line_says_why(tmp_path):
    # Standard input from /dev/null, output to a pipe: Textual's driver got
    # no size and the screens failed as they mounted (a crash log, exit 1).
    for argv in (["play", "gemelos"], []):
        run = subprocess.run(
            [sys.executable, "-c", "from garito.tui.cli import entry; entry()", *argv],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=60,
            env={**os.environ, "GARITO_HOME": str(tmp_path)},
        )
        assert run.returncode == 2, run.stderr
        assert run.stdout == ""
        assert run.stderr == (
            "garito: error: the games are played in a terminal, and standard input or output is not one\n"
        )
    assert not (tmp_path / "crashes").exists()


def test_a_terminal_is_both_ends_a_tty_unless_a_driver_is_named(monkeypatch):
    import io

    from textual import constants

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(constants, "DRIVER", None)
    monkeypatch.setattr(sys, "stdin", Tty())
    monkeypatch.setattr(sys, "stdout", Tty())
    assert cli._on_a_terminal()
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    assert not cli._on_a_terminal()
    monkeypatch.setattr(constants, "DRIVER", "textual.drivers.web_driver:WebDriver")
    assert cli._on_a_terminal()  # the driver brings its own (textual-serve's)


def test_the_console_script_sets_the_collectors_thresholds(tmp_path):
    """A process that plays runs the collector at GC_THRESHOLDS, not at
    Python's 700 allocations (which walked the app 116 times to its menu)."""
    said = (
        "import atexit, gc; atexit.register(lambda: print(gc.get_threshold()));"
        "from garito.tui.cli import entry; entry()"
    )
    run = subprocess.run(
        [sys.executable, "-c", said, "rules", "gemelos"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "GARITO_HOME": str(tmp_path)},
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[-1] == str(cli.GC_THRESHOLDS)
    assert cli.GC_THRESHOLDS[0] > 700
