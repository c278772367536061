"""Parsing and replaying logs: the three failure kinds stay apart (docs/style.md C, example 7)."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from rules_engine.errors import LogSyntaxError
from rules_engine.log import parse_log
from rules_engine.replay import replay
from rules_engine.selfplay import play_game


def _doc(**changes: object) -> dict:
    _, log = play_game("grave", "jaina", 3)
    doc = log.to_json()
    doc.update(changes)
    return doc


def test_a_self_play_log_replays_as_legal_with_the_same_result() -> None:
    game, log = play_game("grave", "jaina", 11)
    verdict = replay(log.dumps())
    assert verdict.status == "legal"
    assert verdict.final is not None and game.outcome is not None
    assert verdict.final["turns"] == game.turn
    assert verdict.final["life"] == {"P1": game.life[0], "P2": game.life[1]}
    assert verdict.facts is not None and verdict.facts["characters"] == {"P1": "grave",
                                                                         "P2": "jaina"}


def test_verdict_is_json_with_stable_keys() -> None:
    _, log = play_game("setsuki", "zane", 5)
    d = replay(log.dumps()).to_dict()
    assert set(d) == {"status", "first_error", "final", "facts", "abilities_complete", "claimed",
                      "events", "engine_version", "notes"}
    assert json.loads(json.dumps(d)) == d
    assert set(d["final"]) == {"life", "winner", "how", "turns", "position"}


def test_characters_without_abilities_are_flagged_not_complete(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from rules_engine import characters as chars

    monkeypatch.delitem(chars.IMPLEMENTED, "setsuki")  # stats only, as before issue 14
    _, log = play_game("setsuki", "zane", 5)
    verdict = replay(log.dumps())
    assert verdict.abilities_complete is False
    assert any("setsuki" in n for n in verdict.notes)


def test_unreadable_json_names_the_path() -> None:
    verdict = replay("{not json")
    assert verdict.status == "unreadable"
    assert verdict.first_error is not None and verdict.first_error["json_path"] == "$"


def test_unknown_card_code_names_the_event_path() -> None:
    doc = _doc()
    doc["events"][3]["card"] = "1Z"
    with pytest.raises(LogSyntaxError) as err:
        parse_log(json.dumps(doc))
    assert err.value.json_path == "$.events[3].card"
    assert replay(json.dumps(doc)).status == "unreadable"


def test_unknown_ruleset_option_is_unreadable__GEN_3() -> None:
    verdict = replay(json.dumps(_doc(ruleset={"jokerz": "ON"})))
    assert verdict.status == "unreadable"
    assert verdict.first_error is not None
    assert verdict.first_error["json_path"] == "$.ruleset"


def test_changed_claimed_result_is_a_mismatch_not_illegal() -> None:
    doc = _doc()
    doc["result"]["winner"] = "P2" if doc["result"]["winner"] == "P1" else "P1"
    verdict = replay(json.dumps(doc))
    assert verdict.status == "result_mismatch"
    assert verdict.first_error is None and verdict.final is not None


def test_a_truncated_log_is_illegal_at_its_end__END_1() -> None:
    doc = _doc()
    doc["events"] = doc["events"][:-1]
    verdict = replay(json.dumps(doc))
    assert verdict.status == "illegal"
    assert verdict.first_error is not None
    assert verdict.first_error["rule_id"] == "END-1"
    assert verdict.first_error["index"] == len(doc["events"])


def test_an_event_after_the_end_is_illegal__END_2() -> None:
    doc = _doc()
    doc["events"].append({"player": "P1", "action": "no_card"})
    verdict = replay(json.dumps(doc))
    assert verdict.status == "illegal"
    assert verdict.first_error is not None and verdict.first_error["rule_id"] == "END-2"


def test_illegal_event_reports_index_turn_step_player_rule() -> None:
    doc = _doc()
    first = next(i for i, e in enumerate(doc["events"]) if e["action"] == "commit")
    doc["events"][first]["card"] = "AH" if doc["events"][first]["card"] != "AH" else "AS"
    doc["events"][first]["move"] = "attack"
    verdict = replay(json.dumps(doc))
    assert verdict.status == "illegal"
    e = verdict.first_error
    assert e is not None
    assert (e["index"], e["turn"], e["step"]) == (first, 1, "C1")
    assert e["player"] == doc["events"][first]["player"]
    assert e["json_path"] == f"$.events[{first}]"


def test_self_play_logs_match_the_shipped_json_schema() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(resources.files("rules_engine").joinpath(
        "schema/match-log-v1.json").read_text("utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    for seed in range(5):
        _, log = play_game("grave", "jaina", seed)
        jsonschema.validate(log.to_json(), schema)
    from pathlib import Path
    for golden in sorted((Path(__file__).parent / "data").glob("*.yomilog")):
        jsonschema.validate(json.loads(golden.read_text(encoding="utf-8"))["log"], schema)


def test_hostile_json_is_unreadable_not_a_crash() -> None:
    deep = "[" * 100_000 + "]" * 100_000
    assert replay(deep).status == "unreadable"
    huge = '{"format": "yomi-match-log", "version": 1' + "1" * 5000 + "}"
    assert replay(huge).status == "unreadable"
    assert replay(b"\xff\xfe not utf-8").status == "unreadable"


@pytest.mark.interpreted_only  # the bug is put in at run time
def test_an_engine_bug_is_an_engine_error_never_the_players_fault(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # given a log that is legal, and an engine whose power-up code is broken
    _, log = play_game("setsuki", "zane", 5)
    from rules_engine.game import Game

    def broken(self, ps):  # type: ignore[no-untyped-def]
        raise KeyError("bug")
        yield

    monkeypatch.setattr(Game, "_power_up", broken)
    # when it is replayed
    verdict = replay(log.dumps())
    # then the verdict blames the engine, with no player position
    assert verdict.status == "engine_error"
    assert verdict.first_error is not None and "KeyError" in verdict.first_error["reason"]
    assert set(verdict.first_error) == {"reason"}
