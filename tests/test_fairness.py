"""Fair dice at a shared table: the cryptographic stream, the seed's
commitment, and ``garito verify``."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from garito.core import catalog, dice
from garito.core.fairness import verify
from garito.core.match import Match, RecordError, Seat
from garito.tui import cli

PLAYABLE = [g.id for g in catalog.GAMES]


def finished(game: str, seed: int, stream: str = dice.COUNTER, moves: int = 400) -> Match:
    """A match of ``game`` played by computers, as a table server starts it."""
    info = catalog.get(game)
    rules = catalog.rules(info.id)
    config = rules.default_config()
    seats = tuple(Seat(f"P{i}", "computer", rules.levels[0]) for i in range(config.players))
    m = Match.start(game, config, seed, seats, stream=stream, commitment=dice.commitment(seed))
    for _ in range(moves):
        if rules.is_over(m.state):
            break
        seat = rules.to_act(m.state)
        m = m.play(rules.choose(rules.view(m.state, seat), rules.legal_actions(m.state), seats[seat].level))
    return m


def test_the_counter_stream_gives_these_faces_for_this_seed():
    # Pinned: a change to the stream would make every kept shared record
    # replay other dice.
    faces, rng = dice.roll(dice.new_stream(7, stream=dice.COUNTER), 6, 10)
    assert faces == (1, 2, 5, 6, 6, 5, 3, 1, 4, 6)
    assert rng[0] == dice.COUNTER and rng[2] == 13  # three words thrown back (a d6 draws 3 bits)
    assert dice.commitment(7) == "5a3747aa8b13930b8794e405d33939507210a10807f99684a713e3cb9f925379"


def test_local_games_keep_the_mersenne_twister_stream():
    assert dice.new_stream(7) == random.Random(7).getstate()
    r = random.Random(7)
    assert dice.roll(dice.new_stream(7), 6, 3)[0] == tuple(r.randint(1, 6) for _ in range(3))
    record = Match.start(
        "gemelos", catalog.rules("gemelos").default_config(), 7, (Seat("A"), Seat("B"))
    ).to_record()
    assert "stream" not in record and "commitment" not in record  # records as they always were


@given(st.integers(min_value=0, max_value=2**200), st.sampled_from([2, 6, 8, 10, 20, 100]))
@settings(max_examples=200, deadline=None)
def test_the_counter_stream_rolls_fair_faces_and_replays(seed, sides):
    start = dice.new_stream(seed, stream=dice.COUNTER)
    faces, after = dice.roll(start, sides, 12)
    assert all(1 <= f <= sides for f in faces) and after[2] > start[2]
    assert dice.roll(start, sides, 12) == (faces, after)  # a state is a value
    more, _ = dice.roll(after, sides, 5)
    assert dice.roll(start, sides, 17)[0] == faces + more  # one stream, however it is cut


def test_the_counter_stream_shows_no_key_and_a_known_seed_gives_it():
    rng = dice.new_stream(12345, stream=dice.COUNTER)
    assert "12345" not in repr(rng) and rng[1] != dice.commitment(12345)  # the key is neither seed nor hash
    other = dice.new_stream(12346, stream=dice.COUNTER)
    assert dice.roll(rng, 6, 20)[0] != dice.roll(other, 6, 20)[0]


@pytest.mark.parametrize("game", PLAYABLE)
def test_every_game_plays_and_replays_on_the_counter_stream(game):
    seed = 2**100 + 17
    m = finished(game, seed)
    record = json.loads(json.dumps(m.to_record()))
    assert record["stream"] == dice.COUNTER and record["commitment"] == dice.commitment(seed)
    again = Match.from_record(record)
    assert again.state == m.state and again.stream == dice.COUNTER
    mt = finished(game, seed, stream=dice.MT)
    assert mt.state != m.state  # another stream, other dice (or cards)


def test_verify_accepts_a_kept_record_and_says_how_it_ended():
    m = finished("gemelos", 2**127 + 5)
    verdict = verify(json.loads(m.to_json()))
    assert verdict.verified and "matches its commitment" in verdict.why and "replay" in verdict.why


@pytest.mark.parametrize(
    "tamper,why",
    [
        (lambda r: r.update(seed=r["seed"] + 1), "not the one committed to"),
        (lambda r: r.update(commitment=dice.commitment(1)), "not the one committed to"),
        (lambda r: r.pop("commitment"), "no seed commitment"),
        (lambda r: r.update(actions=r["actions"][:2] + ["stake 99"] + r["actions"][2:]), "does not replay"),
    ],
)
def test_verify_refuses_a_record_whose_dice_are_not_the_committed_seeds(tamper, why):
    record = json.loads(finished("gemelos", 2**127 + 5).to_json())
    tamper(record)
    verdict = verify(record)
    assert not verdict.verified and why in verdict.why


def test_a_record_that_is_not_one_is_a_record_error():
    for bad in ([], {"schema": 1, "commitment": "x", "seed": "7"}, {"commitment": 5, "seed": 1}):
        with pytest.raises(RecordError):
            verify(bad)


def test_garito_verify_says_one_line_and_exits_0_1_or_2(tmp_path, capsys):
    good = tmp_path / "good.json"
    good.write_text(finished("redman", 2**127 + 9).to_json())
    assert cli.main(["verify", str(good)]) == 0
    out = capsys.readouterr()
    assert out.out.count("\n") == 1 and ": verified: the seed matches" in out.out and not out.err

    record = json.loads(good.read_text())
    record["seed"] += 1
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(record))
    assert cli.main(["verify", str(forged)]) == 1
    out = capsys.readouterr()
    assert out.out.count("\n") == 1 and "NOT verified" in out.out

    for name, content in [("junk.json", "{not json"), ("deep.json", "[" * 100_000), ("list.json", "[1]")]:
        bad = tmp_path / name
        bad.write_text(content)
        assert cli.main(["verify", str(bad)]) == 2
        err = capsys.readouterr().err
        assert err.startswith("garito: error: ") and err.count("\n") == 1
    assert cli.main(["verify", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
