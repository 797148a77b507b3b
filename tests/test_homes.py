"""Players' names as network identities, and the home each one gets: no two
names share one, and none reaches outside ``ssh-players/``."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from garito.core.identity import MAX_NAME, problem
from garito.server.homes import FOLDER, decode, encode, home_for

names = st.text(min_size=1, max_size=MAX_NAME)


@given(names)
@settings(max_examples=2000)
def test_a_home_is_a_plain_folder_name_that_gives_its_name_back(name):
    folder = encode(name)
    assert set(folder) <= set("abcdefghijklmnopqrstuvwxyz0123456789-_%")
    assert folder not in ("", ".", "..") and "/" not in folder and len(folder) <= 7 * MAX_NAME
    assert decode(folder) == name  # so no two names share one


@given(names, names)
@settings(max_examples=2000)
def test_two_names_never_share_a_home_even_on_a_case_blind_disk(a, b):
    if a != b:
        assert encode(a).lower() != encode(b).lower()


@pytest.mark.parametrize(
    "a,b",
    [("a/b", "a_b"), ("Ana", "ana"), (".", "saves"), ("..", "%2e%2e"), ("ñ", "n\u0303"), ("a b", "a_b")],
)
def test_names_that_used_to_alias_each_other_do_not(a, b):
    assert encode(a) != encode(b)


@given(names.filter(lambda n: problem(n) is None))
@settings(max_examples=500)
def test_every_home_is_inside_the_players_folder(name):
    root = Path("/srv/garito")
    home = home_for(root, name)
    assert home.parent == root / FOLDER and home.resolve().parent == (root / FOLDER).resolve()


@pytest.mark.parametrize(
    "name,why",
    [
        ("", "1 to 12"),
        ("a" * 13, "at most 12"),
        ("ana\x1b[2J", "no control"),
        ("ana\u202e", "no control"),  # a bidirectional override: reorders what a terminal shows
        ("zero\u200bwidth", "no control"),
        (" ana", "begin or end"),
        (["ana"], "1 to 12"),
    ],
)
def test_a_name_that_cannot_identify_a_player_says_why(name, why):
    assert why in problem(name)


def test_a_name_of_markup_is_a_name():
    assert problem("[/]") is None and problem("[b]x[/b]") is None


def test_an_older_home_moves_to_its_place_once(tmp_path):
    players = tmp_path / FOLDER
    (players / "Ana" / "saves").mkdir(parents=True)  # kept under the name itself by an older Garito
    (players / "Ana" / "saves" / "gemelos.json").write_text("{}")
    home = home_for(tmp_path, "Ana")
    assert home.name == "_ana" and (home / "saves" / "gemelos.json").read_text() == "{}"
    assert not (players / "Ana").exists()
    # A folder that is someone's home in the new encoding is never taken for an old one.
    (players / "_b").mkdir()  # the home of "B"
    assert home_for(tmp_path, "_b").name == "%00005fb" and (players / "_b").is_dir()
    with pytest.raises(ValueError):
        home_for(tmp_path, "..\x00")
