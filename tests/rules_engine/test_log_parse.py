"""Reading events: every malformed value is named by its JSON path, including where the reader
takes its fast paths (a list of card codes read at once, the move type and seat by look-up, the
allowed keys by one subset test)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from rules_engine.actions import Commit, PowerUp
from rules_engine.cards import CARDS_BY_CODE, MoveType
from rules_engine.errors import LogSyntaxError
from rules_engine.log import _parse_event, parse_event, parse_log
from rules_engine.types import PlayerId

POWER_UP = {"player": "P2", "action": "power_up", "sets": ["2S", "2D"], "from_discard": [],
            "from_deck": ["AC"]}


def _error(data: Any, version: int = 1, characters: frozenset[str] = frozenset()) -> Any:
    with pytest.raises(LogSyntaxError) as caught:
        _parse_event(data, "$.events[4]", version, characters, ("P1", "P2"))
    return caught.value.data["json_path"], caught.value.data["reason"]


def test_a_list_of_codes_reads_as_the_cards_in_order() -> None:
    event = parse_event(POWER_UP, "$.events[0]")
    assert event.player is PlayerId.P2
    assert event.action == PowerUp((CARDS_BY_CODE["2S"], CARDS_BY_CODE["2D"]), (),
                                   (CARDS_BY_CODE["AC"],))


@pytest.mark.parametrize(("item", "reason"), [
    ("ZZ", "'ZZ' is not a card: use rank (2-9, T, J, Q, K, A) + suit (C, D, H, S), or X1/X2 "
           "for the Jokers"),
    (3, "expected a card code, found a number"),
    (True, "expected a card code, found a boolean"),
    (None, "expected a card code, found null"),
    (["AS"], "expected a card code, found a list"),
    ({"card": "AS"}, "expected a card code, found an object"),
])
def test_a_bad_item_in_a_list_of_codes_is_named_by_its_index(item: Any, reason: str) -> None:
    data = {**POWER_UP, "sets": ["2S", "2D", item, "ZZ"]}
    assert _error(data) == ("$.events[4].sets[2]", reason)


def test_a_list_of_codes_that_is_no_list() -> None:
    assert _error({**POWER_UP, "from_deck": "AC"}) == (
        "$.events[4].from_deck", "expected a list of card codes, found a string")


@pytest.mark.parametrize(("move", "found"), [
    ("attack", MoveType.ATTACK), ("dodge", MoveType.DODGE)])
def test_a_move_type_by_its_name(move: str, found: MoveType) -> None:
    event = parse_event({"player": "P1", "action": "commit", "card": "5S", "move": move}, "$")
    assert event.action == Commit(CARDS_BY_CODE["5S"], found)


@pytest.mark.parametrize("move", ["ATTACK", "Attack", 1, True, ["attack"], {}, "normal"])
def test_a_move_type_that_is_none_of_the_four(move: Any) -> None:
    data = {"player": "P1", "action": "commit", "card": "5S", "move": move}
    assert _error(data) == ("$.events[4].move", "expected attack, throw, block or dodge")


@pytest.mark.parametrize("card", ["ZZ", "as", 5])
def test_a_single_card_that_is_no_card(card: Any) -> None:
    path, reason = _error({"player": "P1", "action": "face_down", "card": card})
    assert path == "$.events[4].card"
    assert ("is not a card" in reason) if isinstance(card, str) else \
        reason == "expected a string, found a number"


@pytest.mark.parametrize(("seat", "version", "reason"), [
    ("P3", 1, 'expected "P1" or "P2", found \'P3\''),
    (None, 1, 'expected "P1" or "P2", found None'),
    (["P1"], 2, 'expected "P1" or "P2", found [\'P1\']'),
])
def test_a_seat_that_is_not_one_of_the_logs(seat: Any, version: int, reason: str) -> None:
    data = {"player": seat, "action": "pass", "character": "grave"}
    assert _error(data, version, frozenset({"grave"})) == ("$.events[4].player", reason)


def test_the_result_names_a_winner_seat() -> None:
    text = ('{"format": "yomi-match-log", "version": 1, "mode": "versus", "players": {"P1": '
            '{"character": "grave"}, "P2": {"character": "jaina"}}, "draws": {"mode": '
            '"seeded", "algorithm": "splitmix64-fy-v1", "seed": 1}, "events": [], '
            '"result": {"winner": "P5", "how": "ko"}}')
    with pytest.raises(LogSyntaxError) as caught:
        parse_log(text)
    assert caught.value.data["json_path"] == "$.result.winner"


@pytest.mark.parametrize(("data", "version", "key"), [
    ({"player": "P1", "action": "pass", "card": "AS"}, 1, "card"),
    ({"player": "P1", "action": "pass", "character": "grave"}, 1, "character"),
    ({"player": "P1", "action": "commit", "card": "5S", "move": "block", "zz": 1, "aa": 2},
     1, "aa"),
    ({"player": "P1", "action": "pass", "character": "grave", "sets": []}, 2, "sets"),
])
def test_a_key_the_kind_does_not_take_is_named(data: dict[str, Any], version: int,
                                               key: str) -> None:
    path, reason = _error(data, version, frozenset({"grave"}))
    assert path == f"$.events[4].{key}"
    assert reason == f"unexpected key for a {data['action']!r} event"


def test_version_2_events_take_the_character_acting() -> None:
    event = parse_event({"player": "P1", "action": "pass", "character": "grave"}, "$", 2,
                        frozenset({"grave"}))
    assert event.character == "grave"


# A seed above 2**53 that a double cannot hold: read as a JavaScript number it would be another
# seed, and another game.
BIG_SEED = 2**64 - 2**12 + 1


def test_a_64_bit_seed_travels_as_a_decimal_string_and_replays_the_game_played() -> None:
    from rules_engine.replay import replay
    from rules_engine.selfplay import play_game

    assert int(float(BIG_SEED)) != BIG_SEED
    game, log = play_game("grave", "jaina", BIG_SEED, bot="greedy")
    doc = log.to_json()
    assert doc["draws"]["seed"] == str(BIG_SEED)
    text = json.dumps(doc)
    assert parse_log(text).seed == BIG_SEED
    verdict = replay(text)
    assert verdict.status == "legal"
    assert verdict.final is not None and verdict.final["position"] == game.fingerprint()
    # an older log writes the seed as a JSON integer: read exactly, the same game
    doc["draws"]["seed"] = BIG_SEED
    assert replay(json.dumps(doc)).final == verdict.final
    # the seed a double would have made of it is another game
    doc["draws"]["seed"] = str(int(float(BIG_SEED)))
    assert replay(json.dumps(doc)).final != verdict.final


def test_a_team_modes_log_writes_its_seed_as_a_string_too() -> None:
    from rules_engine.selfplay import play_match
    from rules_engine.team import Mode

    _, log = play_match(Mode.TAG_TEAM, ("grave", "jaina"), ("rook", "midori"), BIG_SEED)
    doc = log.to_json()
    assert doc["draws"]["seed"] == str(BIG_SEED)
    assert parse_log(json.dumps(doc)).seed == BIG_SEED


@pytest.mark.parametrize("seed", ["-1", "01", "1e3", " 7", "7 ", "+7", "", "0x10", "٣",
                                  str(2**64), "9" * 40, 1.5, None, True])
def test_a_seed_that_is_not_an_unsigned_64_bit_integer_is_refused(seed: Any) -> None:
    doc = {"format": "yomi-match-log", "version": 1, "mode": "versus",
           "players": {"P1": {"character": "grave"}, "P2": {"character": "jaina"}},
           "draws": {"mode": "seeded", "algorithm": "splitmix64-fy-v1", "seed": seed},
           "events": []}
    with pytest.raises(LogSyntaxError) as caught:
        parse_log(json.dumps(doc))
    assert caught.value.data["json_path"] == "$.draws.seed"


@pytest.mark.parametrize("seed", ["0", "42", str(2**64 - 1), 0, 2**64 - 1])
def test_a_seed_is_read_from_a_decimal_string_or_an_integer(seed: Any) -> None:
    doc = {"format": "yomi-match-log", "version": 1, "mode": "versus",
           "players": {"P1": {"character": "grave"}, "P2": {"character": "jaina"}},
           "draws": {"mode": "seeded", "algorithm": "splitmix64-fy-v1", "seed": seed},
           "events": []}
    assert parse_log(json.dumps(doc)).seed == int(seed)
