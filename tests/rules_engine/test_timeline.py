"""Turn-by-turn timeline (rules_engine.timeline): agreement with the game on self-play logs, and
exact combat explanations and combos on small recorded (tabletop) logs worked out by hand."""

from __future__ import annotations

import json
from itertools import pairwise
from pathlib import Path

import pytest

from rules_engine import cli
from rules_engine.actions import (
    Action,
    Combo,
    Commit,
    Draw,
    FaceDown,
    Keep,
    NoCard,
    Pass,
    Stop,
    UseAbility,
    WinInitiative,
)
from rules_engine.cards import MoveType, card, character
from rules_engine.errors import LogSyntaxError
from rules_engine.game import Game
from rules_engine.log import LogEvent, MatchLog
from rules_engine.replay import replay
from rules_engine.selfplay import play_game
from rules_engine.timeline import timeline
from rules_engine.types import PlayerId

from .helpers import commit as commit_or_none
from .helpers import fight, recorded_game

P1, P2 = PlayerId.P1, PlayerId.P2
# Characters whose implemented abilities neither pay life nor heal, so damage = life lost.
NO_LIFE_COSTS = [("grave", "rook"), ("rook", "zane"), ("midori", "setsuki"), ("grave", "grave")]


# ---------------------------------------------------------------------------- helpers


class Table:
    """A recorded-draw Grave mirror: opening hands chosen, P1 wins the coin flip (S-5, S-6)."""

    def __init__(self, hand1: str, hand2: str) -> None:
        self.game = Game(character("grave"), character("grave"))
        for c in hand1.split():
            self.act(P1, Draw(card(c)))
        for c in hand2.split():
            self.act(P2, Draw(card(c)))
        self.act(P1, WinInitiative())

    def act(self, player: PlayerId, action: Action) -> None:
        self.game.apply(player, action)

    def log(self) -> MatchLog:
        return MatchLog(characters=("grave", "grave"),
                        events=tuple(LogEvent(p, a) for p, a in self.game.history))


def commit(code: str, move: str) -> Commit:
    return Commit(card(code), MoveType(move))


def attack(code: str) -> Combo:
    return Combo(card(code), MoveType.ATTACK)


# ---------------------------------------------------------------------------- self-play


@pytest.mark.parametrize(("p1", "p2"), NO_LIFE_COSTS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_self_play_timeline_agrees_with_the_game(p1: str, p2: str, seed: int) -> None:
    game, log = play_game(p1, p2, seed)
    turns = timeline(log)
    facts = game.facts()
    players = facts["players"]
    assert isinstance(players, dict)
    assert [t.turn for t in turns] == list(range(1, game.turn + 1))
    assert all(t.stopped is None for t in turns)
    last = turns[-1].to_dict()["players"]
    assert (last["P1"]["life"], last["P2"]["life"]) == game.life
    for p, name in ((P1, p1), (P2, p2)):
        start = character(name).life
        assert sum(t.damage[p] for t in turns) == start - game.life[p]
        # Damage taken by p is damage dealt by the opponent, kind by kind.
        dealt = players[game.table.opponent(p).name]["damage_dealt"]
        for kind in ("combat", "block", "ability"):
            assert sum(t.players[p].damage_taken[kind] for t in turns) == dealt[kind]
        inflicted_on_p = players[game.table.opponent(p).name]["knockdowns_inflicted"]
        assert sum(t.players[p].knocked_down_next for t in turns) == inflicted_on_p
        assert sum(t.players[p].draws for t in turns) == players[p.name]["cards_drawn"] - 7
        assert sum(t.players[p].jokers["bluff"] for t in turns) == players[p.name]["bluffs"]
    combos = facts["combos"]
    assert isinstance(combos, list)
    mine = [(t.turn, t.combo.player.name, t.combo.damage) for t in turns
            if t.combo is not None]
    # a turn's summary shows the combat's last combo (after Rock Armor: Rook's, RW-13)
    last = {c["turn"]: (c["turn"], c["player"], c["damage"]) for c in combos}
    assert mine == list(last.values())


def test_life_lost_adds_up_even_with_life_costs() -> None:
    game, log = play_game("grave", "jaina", 0)  # Jaina pays life for abilities
    turns = timeline(log)
    for p in (PlayerId.P1, PlayerId.P2):  # a Versus game's seats
        start = game.players[p].character.life
        assert sum(t.players[p].life_lost for t in turns) == start - game.life[p]


def test_event_ranges_cover_the_log_in_order() -> None:
    _, log = play_game("rook", "zane", 4)
    turns = timeline(log)
    assert turns[0].events[0] == 0
    assert turns[-1].events[1] == len(log.events)
    for a, b in pairwise(turns):
        assert a.events[1] == b.events[0]


def test_to_dict_is_json_with_the_documented_keys() -> None:
    _, log = play_game("grave", "rook", 2)
    d = timeline(log.dumps())[2].to_dict()
    assert json.loads(json.dumps(d)) == d
    assert set(d) == {"turn", "initiative", "events", "players", "combat", "combo", "damage",
                      "stopped"}
    assert set(d["players"]["P1"]) == {
        "combat_card", "draws", "power_up", "searches", "face_down", "jokers", "abilities",
        "damage_taken", "life_lost", "life", "knocked_down", "knocked_down_next"}
    assert d["players"]["P1"]["draws"]["cards"] is None  # seeded: the log names no draws


# ---------------------------------------------------------------------------- by hand


def test_throw_beats_block_then_a_combo__M_THROW_BLOCK_CT_STARTER() -> None:
    # Grave: 8 throw 8.6 speed, 7 damage, 2 points, Starter, knockdown; 2 and 3 attacks cost 1.
    t = Table("8H 2C 3S 4H 6S JC KC", "5D 9C 6C JD QC KH 2H")
    t.act(P1, commit("8H", "throw"))
    t.act(P2, commit("5D", "block"))
    t.act(P2, Pass())  # C9: no face-down card
    t.act(P1, attack("2C"))
    t.act(P1, attack("3S"))  # 2 + 1 + 1 = 4 points: nothing affordable is left (CB-11)
    turn = timeline(t.log())[0].to_dict()
    assert turn["combat"] == {"winner": "P1", "loser": "P2", "cell": "M-THROW-BLOCK",
                              "both_hit": False,
                              "explanation": "P1's throw beats P2's block (M-THROW-BLOCK)"}
    combo = turn["combo"]
    assert [(m["card"], m["move"], m["damage"], m["combat_card"]) for m in combo["moves"]] == [
        ("8H", "throw", 7, True), ("2C", "attack", 2, False), ("3S", "attack", 3, False)]
    assert combo["combo_points"] == 4
    assert combo["chain_length"] == 2 and combo["chain_reward"] == 0  # CH-3: 3 needed
    assert combo["knockdown"] is False  # KD-1: the last move, the 3, has no icon
    assert combo["damage"] == 12 and combo["hit_back"] is False
    assert turn["damage"] == {"P1": 0, "P2": 12}
    assert turn["players"]["P2"]["life"] == 90 - 12
    assert turn["players"]["P1"]["combat_card"] == {
        "played": "card", "card": "8H", "move": "throw", "name": None, "speed": 8.6,
        "void": None}
    assert turn["players"]["P2"]["combat_card"]["move"] == "block"
    # No normal draw for a throw (C7), no block draw for a thrown block (C8b).
    assert turn["players"]["P1"]["draws"] == {"count": 0, "cards": []}
    assert turn["players"]["P2"]["draws"] == {"count": 0, "cards": []}
    assert turn["initiative"] == "P1"


def test_speed_tie_both_attacks_hit__M_ATTACK_ATTACK_TIE_OQ_05() -> None:
    t = Table("4H 2C 3S 6S 8H JC KC", "4D 9C 6C JD QC KH 2H")
    t.act(P1, commit("4H", "attack"))
    t.act(P2, commit("4D", "attack"))
    turn = timeline(t.log())[0]
    assert turn.combat is not None
    assert turn.combat.explanation == "speed tie: both attacks hit (M-ATTACK-ATTACK-TIE)"
    assert turn.combat.winner is None and turn.combat.both_hit
    assert turn.combo is None  # CB-8
    assert turn.damage == (4, 4)
    assert turn.players[0].draws == 0 and turn.players[1].draws == 0  # OQ-05


def test_dodge_hit_back_under_a_rewind_joker__M_ATTACK_DODGE_CB_7_RW_6_RW_8() -> None:
    t = Table("5H 2C 3S 6S 8H X1 KC", "2D 6D 9C JD QC KH 3H")
    t.act(P1, commit("5H", "attack"))
    t.act(P2, commit("2D", "dodge"))
    t.act(P1, FaceDown(card("X1")))  # C9: Rewind Time
    t.act(P2, attack("6D"))  # the hit-back is an Ender (CB-7): the combo ends
    t.act(P1, Draw(card("9H")))  # RW-8: 6 damage prevented, P1 draws 2
    t.act(P1, Draw(card("TD")))
    turn = timeline(t.log())[0].to_dict()
    assert turn["combat"]["explanation"] == "P2's dodge beats P1's attack (M-ATTACK-DODGE)"
    combo = turn["combo"]
    assert combo["player"] == "P2" and combo["hit_back"] is True
    assert [(m["card"], m["damage"], m["prevented"]) for m in combo["moves"]] == [
        ("6D", 6, True)]
    assert combo["damage"] == 0 and combo["prevented"] == 6
    p1 = turn["players"]["P1"]
    assert p1["face_down"] == {"card": "X1", "kind": "rewind", "revealed": True,
                               "prevented": 6}
    assert p1["jokers"]["rewind"] == 1 and p1["jokers"]["rewind_prevented_damage"] == 6
    assert p1["draws"] == {"count": 2, "cards": ["9H", "TD"]}
    assert turn["damage"] == {"P1": 0, "P2": 0}


def test_bluff_is_revealed_and_the_hit_back_deals_its_damage__RW_9() -> None:
    t = Table("5H 2C 3S 6S 8H 9S KC", "2D 6D 9C JD QC KH 3H")
    t.act(P1, commit("5H", "attack"))
    t.act(P2, commit("2D", "dodge"))
    t.act(P1, FaceDown(card("9S")))
    t.act(P2, attack("6D"))
    turn = timeline(t.log())[0].to_dict()
    assert turn["players"]["P1"]["face_down"] == {"card": "9S", "kind": "bluff",
                                                  "revealed": True, "prevented": 0}
    assert turn["players"]["P1"]["jokers"]["bluff"] == 1
    assert turn["damage"] == {"P1": 6, "P2": 0}
    assert turn["players"]["P1"]["life"] == 84


def test_knockdown_then_mixup_voids_the_block__KD_1_KD_5_M_KD_MIXUP() -> None:
    t = Table("8H 4H 2C 3S 5S 6S KC", "5D 9C 6C JC QC KH 2H")
    # Turn 1: a lone knockdown throw against no-card knocks P2 down (KD-1).
    t.act(P1, commit("8H", "throw"))
    t.act(P2, NoCard())
    t.act(P2, Pass())
    t.act(P1, Stop())
    # Turn 2: P2 (lower life) has initiative and draws first (T2, INI-1).
    t.act(P2, Draw(card("3D")))
    t.act(P1, Draw(card("9H")))
    t.act(P1, commit("4H", "attack"))  # even normal attack...
    t.act(P2, commit("5D", "block"))  # ...against a knocked-down odd block (KD-5)
    t.act(P1, Draw(card("TH")))  # C7: the attack won combat
    t.act(P2, Pass())
    t.act(P1, Stop())
    one, two, three = timeline(t.log())
    assert one.combat is not None and one.combo is not None
    assert one.combat.explanation == "P1's throw beats P2's no-card (M-THROW-NOCARD)"
    assert one.combo.knockdown
    assert one.players[1].knocked_down_next and not one.players[1].knocked_down
    assert one.to_dict()["players"]["P2"]["combat_card"]["played"] == "no_card"
    assert two.combat is not None
    assert two.combat.explanation == ("P2's block is void: mixup (KD-5); "
                                      "P1's attack beats P2's no-card (M-ATTACK-NOCARD)")
    assert two.players[1].knocked_down and not two.players[1].knocked_down_next
    d = two.to_dict()
    assert d["initiative"] == "P2"
    assert d["players"]["P2"]["combat_card"] == {
        "played": "void", "card": "5D", "move": "block", "name": None, "speed": None,
        "void": {"rule_id": "KD-5", "reason": "mixup"}}
    assert d["players"]["P1"]["draws"] == {"count": 2, "cards": ["9H", "TH"]}
    assert d["players"]["P2"]["draws"] == {"count": 1, "cards": ["3D"]}
    assert d["damage"] == {"P1": 0, "P2": 4}
    assert d["stopped"] is None
    # Nothing to power up or discard: turn 3 began and waits for P2's recorded draw (END-1).
    assert three.stopped is not None and three.stopped["rule_id"] == "END-1"
    assert three.stopped["player"] == "P2" and three.stopped["step"] == "T2"
    assert three.combat is None and three.combo is None
    assert three.events == (len(t.game.history), len(t.game.history))


def test_unpaid_ace_is_void_and_the_opponent_keeps_its_block__CF_08_M_BLOCK_NOCARD() -> None:
    # True Power of Storms costs AAA (GL-MANDATORY); P1 holds one Ace: the default FAQ_PENALTY
    # discards it, P1 plays no-card and P2 may re-choose (here: keep the block).
    t = Table("AH 2C 3S 6S 8H 9S KC", "5D 6D 9C JD QC KH 3H")
    t.act(P1, Commit(card("AH"), MoveType.ATTACK, "True Power of Storms"))
    t.act(P2, commit("5D", "block"))
    t.act(P2, Keep())
    t.act(P2, Draw(card("4D")))  # AR-BLK-1: a block that beats no-card draws 1
    turn = timeline(t.log())[0].to_dict()
    assert turn["combat"]["explanation"] == (
        "P1's attack is void: its Ace cost was not paid (CF-08); "
        "P2's block beats P1's no-card (M-BLOCK-NOCARD)")
    assert turn["players"]["P1"]["combat_card"] == {
        "played": "void", "card": "AH", "move": "attack", "name": "True Power of Storms",
        "speed": 0.4, "void": {"rule_id": "CF-08", "reason": "its Ace cost was not paid"}}
    assert turn["players"]["P2"]["draws"] == {"count": 1, "cards": ["4D"]}
    assert turn["combo"] is None and turn["damage"] == {"P1": 0, "P2": 0}


def test_a_knocked_down_attack_turned_into_a_dodge_is_void_by_knockdown__KD_4() -> None:
    """KD-4, not CF-08: Jaina (P2, knocked down by Grave's throw) reveals a 2 attack and turns
    it into its dodge end with Unstable Power (C4); the dodge is void because she is knocked
    down. Only an Ace attack is ever void for an unpaid cost."""
    g = recorded_game("8H 5D 2C 3S 6S 9S KC", "7H 2C 3C 4C 5C 6C KD", p1="grave", p2="jaina")
    fight(g, commit_or_none("8H", "throw"), commit_or_none(None))  # KD-1: Jaina knocked down
    g.apply(P2, Pass())
    g.apply(P1, Stop())
    g.apply(P2, Draw(card("9C")))  # turn 2: Jaina (lower life) draws first
    g.apply(P1, Draw(card("4H")))
    g.apply(P2, UseAbility("Unstable Power", card("7H")))
    fight(g, commit_or_none("5D", "block"), commit_or_none("2C", "attack"))
    g.apply(P2, UseAbility("Unstable Power", option="rotate"))  # C4: the 2 is now a dodge
    g.apply(P1, Draw(card("TH")))  # C8b: Grave's block beat a no-card
    log = MatchLog(characters=("grave", "jaina"),
                   events=tuple(LogEvent(p, a) for p, a in g.history))
    two = timeline(log)[1].to_dict()
    assert two["players"]["P2"]["combat_card"]["void"] == {
        "rule_id": "KD-4", "reason": "knocked down (turned into a dodge)"}
    assert two["combat"]["explanation"] == (
        "P2's attack is void: knocked down (turned into a dodge) (KD-4); "
        "P1's block beats P2's no-card (M-BLOCK-NOCARD)")


# ---------------------------------------------------------------------------- bad logs


def test_unreadable_input_raises_the_parsers_error() -> None:
    with pytest.raises(LogSyntaxError):
        timeline('{"format": "yomi-match-log"}')
    with pytest.raises(LogSyntaxError):
        timeline(b"not json")


def test_an_illegal_event_ends_the_timeline_at_its_turn() -> None:
    _, log = play_game("grave", "jaina", 6)
    doc = log.to_json()
    turns_before = timeline(doc)
    # "stop" at the first decision of turn 3 (a commit or a window) is never legal there.
    i = turns_before[2].events[0]
    bad = dict(doc, events=[*doc["events"][:i], {"player": "P1", "action": "stop"},
                            *doc["events"][i:]])
    turns = timeline(bad)
    assert len(turns) == 3
    assert [t.stopped for t in turns[:2]] == [None, None]
    assert turns[:2] == turns_before[:2]
    verdict = replay(bad)
    assert verdict.status == "illegal" and verdict.first_error is not None
    expected = {k: v for k, v in verdict.first_error.items() if k != "json_path"}
    assert turns[2].stopped == expected
    assert expected["index"] == i and expected["turn"] == 3
    assert turns[2].events == (i, i)


def test_an_event_after_the_end_is_marked__END_2() -> None:
    _, log = play_game("rook", "zane", 6)
    doc = log.to_json()
    doc["events"].append({"player": "P1", "action": "no_card"})
    turns = timeline(doc)
    stopped = turns[-1].stopped
    assert stopped is not None and stopped["rule_id"] == "END-2"
    assert stopped["index"] == len(doc["events"]) - 1


# ---------------------------------------------------------------------------- CLI


def test_cli_prints_one_line_per_turn_and_json(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    game, log = play_game("grave", "rook", 2)
    path = tmp_path / "game.json"
    path.write_text(log.dumps(), encoding="utf-8")
    assert cli.main(["timeline", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == game.turn
    assert lines[0].startswith("turn 1 (initiative ")
    assert lines[-1].endswith(f"life P1 {game.life[0]}, P2 {game.life[1]}")
    assert cli.main(["timeline", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [t["turn"] for t in data] == list(range(1, game.turn + 1))


def test_cli_exit_codes_for_unreadable_and_unfinished_logs(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{}", encoding="utf-8")
    assert cli.main(["timeline", str(bad)]) == 2
    _, log = play_game("grave", "rook", 2)
    doc = log.to_json()
    doc["events"] = doc["events"][:10]
    short = tmp_path / "short.json"
    short.write_text(json.dumps(doc), encoding="utf-8")
    assert cli.main(["timeline", str(short)]) == 1
    assert "stopped: the log ends before the game does [END-1]" in capsys.readouterr().out
