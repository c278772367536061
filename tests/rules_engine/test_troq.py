"""Troq (docs/rules/characters/troq.md): Giant Growth, Defense Mastery, War Stomp, Troq Armor,
Lockhorn Skewer, Beast Unleashed, and the decisions of troq.md's "Engine rulings"."""

from __future__ import annotations

import pytest

from rules_engine.actions import Discard, Pass, PayAces, UseAbility
from rules_engine.bots import GreedyBot
from rules_engine.cards import card, characters
from rules_engine.game import Game
from rules_engine.journal import ComboEnded, DamageDealt, Drew, Hit, Knockdown
from rules_engine.ruleset import BlockReturn, Ruleset

from . import helpers
from .helpers import P1, P2, combo, commit, draw, fight, finish_turn, illegal_rule, recorded_game

PLAIN = "2D 3D 4D 5D 6D 8D 9D"  # Grave with nothing to play outside combat
STOMP = "War Stomp"


def _draw_phase(g: Game, troq: str, grave: str) -> None:
    """T2: each player draws one card, in initiative order (the lower life first)."""
    todo = {P1: troq, P2: grave}
    while todo:
        actor = g.actor
        draw(g, actor, todo.pop(actor))  # type: ignore[arg-type]


def _blocked_once(troq: str = "2C 3C 4C 5C 6C 7C TC", grave: str = PLAIN) -> Game:
    """Turn 1: Troq's 2 blocks Grave's 2 attack: Giant Growth attaches the 2."""
    g = recorded_game(troq, grave, p1="troq", p2="grave")
    fight(g, commit("2C", "block"), commit("2D", "attack"))
    draw(g, P1, "8C")  # C8b: the block draw (Defense Mastery: Grave does not draw at C7)
    return g


# --- Giant Growth (innate) ----------------------------------------------------------------------
def test_giant_growth_attaches_the_block_and_still_draws() -> None:
    """troq.md, Innate abilities (Giant Growth): the block card is attached; the block draw is
    made as usual; the attached card does not return to hand (AR-BLK-2 replaced)."""
    g = _blocked_once()
    troq = g.state(P1)
    assert troq.attached == [card("2C")]
    assert card("2C") not in troq.hand and card("8C") in troq.hand
    assert [e.seat for e in g.journal.of(Drew) if e.step == "C8"] == [P1]
    finish_turn(g, 1)
    assert troq.attached == [card("2C")] and card("2C") not in troq.hand
    assert g.public_view(P2)["players"]["P1"]["attached"] == ["2C"]  # type: ignore[index]


def test_defense_mastery_stops_the_normal_draw__C7() -> None:
    """troq.md, Innate abilities (Defense Mastery): no C7 draw for Grave's blocked 2."""
    g = _blocked_once()
    assert not [e for e in g.journal.of(Drew) if e.step == "C7"]


def test_giant_growth_adds_1_per_attached_card_to_normal_attacks_and_throws() -> None:
    """troq.md, Giant Growth: "+1 damage for each attached card" on normal attacks (combat card
    and combo moves) and normal throws; not on his special moves."""
    g = _blocked_once()
    finish_turn(g, 1)
    _draw_phase(g, "9C", "JS")
    g.apply(P1, Pass())  # no War Stomp
    fight(g, commit("4C", "attack"), commit(None))
    draw(g, P1, "KC")  # C7: his normal attack won
    assert g.life[1] == 90 - (4 + 1)
    g.apply(P2, Pass())  # no Rewind card
    g.apply(P1, combo("5C"))
    g.apply(P1, combo("6C"))
    assert g.life[1] == 90 - 5 - 6 - 7  # C12: 5+1 and 6+1
    hits = [e.amount for e in g.journal.of(DamageDealt) if e.target is P2]
    assert hits == [5, 6, 7]


def test_giant_growth_on_a_throw_and_not_on_a_special_move() -> None:
    g = _blocked_once(troq="2C 3C 4C 5C JC 7C TC")
    finish_turn(g, 1)
    _draw_phase(g, "9C", "JS")
    g.apply(P1, Pass())
    fight(g, commit("3C", "throw"), commit("5D", "block"))
    assert g.life[1] == 90 - (8 + 1)  # a normal throw: +1
    finish_turn(g, 2)
    _draw_phase(g, "KC", "QS")
    g.apply(P1, Pass())
    before = g.life[1]
    fight(g, commit("JC", "attack", "Bull Rush"), commit(None))
    assert before - g.life[1] == 7  # Bull Rush: printed damage, no bonus


def test_giant_growth_on_a_joker_and_discards_a_third_block() -> None:
    """troq.md, Giant Growth: "block an attack or Joker"; "or discard it if two cards are
    already attached"."""
    g = recorded_game("2C 3C 4C 5C 6C 7C TC", "X1 2D 3D 4D 5D 6D 8D", p1="troq", p2="grave")
    fight(g, commit("2C", "block"), commit("X1"))
    draw(g, P1, "8C")  # the block draw
    assert g.state(P1).attached == [card("2C")]
    finish_turn(g, 1)
    _draw_phase(g, "9C", "JS")
    g.apply(P1, Pass())
    fight(g, commit("3C", "block"), commit("2D", "attack"))
    draw(g, P1, "KC")
    assert g.state(P1).attached == [card("2C"), card("3C")]
    finish_turn(g, 2)
    _draw_phase(g, "QC", "QS")
    g.apply(P1, Pass())
    fight(g, commit("6C", "block"), commit("3D", "attack"))
    draw(g, P1, "KH")
    troq = g.state(P1)
    assert troq.attached == [card("2C"), card("3C")]
    assert card("6C") in troq.discard and card("6C") not in troq.hand


def test_giant_growth_attaches_under_immediate_block_return__CF_15() -> None:
    """troq.md, "Engine rulings": attached at C8b, so the block does not go back to hand."""
    g = recorded_game("2C 3C 4C 5C 6C 7C TC", PLAIN, p1="troq", p2="grave",
                      ruleset=Ruleset(blockReturn=BlockReturn.IMMEDIATE))
    fight(g, commit("2C", "block"), commit("2D", "attack"))
    draw(g, P1, "8C")
    assert g.state(P1).attached == [card("2C")] and card("2C") not in g.state(P1).hand


def test_time_stop_keeps_giant_growth_from_acting() -> None:
    """troq.md, FAQ / clarifications: Geiger's Time Stop prevents Giant Growth (geiger.md: the
    blocker "can't activate innate abilities from blocking")."""
    g = recorded_game("2C 3C 4C 5C 6C 7C TC", "2D 3D 4D 5D 6D JD 8D", p1="troq", p2="geiger")
    fight(g, commit("2C", "block"), commit("JD", "attack"))  # Fast Time Spiral, 2 block damage
    assert g.life[0] == 95 - 2
    assert g.state(P1).attached == []
    finish_turn(g, 1)
    assert g.state(P1).attached == [] and card("2C") in g.state(P1).hand


# --- War Stomp (10, Draw Phase) -------------------------------------------------------------
def _turn_two(troq: str = "2C 3C 4C 5C 6C 7C TC", grave: str = PLAIN) -> Game:
    g = recorded_game(troq, grave, p1="troq", p2="grave")
    fight(g, commit(None), commit(None))
    finish_turn(g, 1)
    _draw_phase(g, "9C", "JS")
    return g


def test_war_stomp_knocks_down_draws_and_the_opponent_discards() -> None:
    """troq.md, Card abilities (War Stomp): knock the opponent down, draw a card, and the
    opponent discards a card (their choice); KD-4: the knocked-down Grave's dodge is void."""
    g = _turn_two()
    assert UseAbility(STOMP, card("TC")) in g.legal_actions(P1)
    g.apply(P1, UseAbility(STOMP, card("TC")))
    draw(g, P1, "KC")
    assert g.actor is P2
    assert illegal_rule(g, P2, Discard((card("KC"),))) == "AB-2"  # not his card
    assert illegal_rule(g, P2, Discard((card("2D"), card("3D")))) == "AB-2"
    g.apply(P2, Discard((card("JS"),)))
    grave, troq = g.state(P2), g.state(P1)
    assert grave.knocked_down and card("JS") in grave.discard and card("JS") not in grave.hand
    assert card("TC") in troq.discard and card("KC") in troq.hand
    assert [(e.seat, e.by, e.step) for e in g.journal.of(Knockdown)] == [(P2, P1, "T3")]
    fight(g, commit("4C", "attack"), commit("2D", "dodge"))  # KD-4: a knocked-down dodge
    assert g.combat.winner is P1


def test_war_stomp_illegal_uses__AB_2() -> None:
    """troq.md, War Stomp: only with a 10, and only if Troq is not knocked down."""
    g = _turn_two()
    assert illegal_rule(g, P1, UseAbility(STOMP, card("7C"))) == "AB-2"
    assert illegal_rule(g, P1, UseAbility(STOMP, card("TH"))) == "AB-2"  # not in hand
    g.state(P1).knocked_down = True
    assert UseAbility(STOMP, card("TC")) not in g.legal_actions(P1)
    assert illegal_rule(g, P1, UseAbility(STOMP, card("TC"))) == "AB-2"


def test_countered_war_stomp_does_nothing__CTR_3() -> None:
    g = _turn_two(grave="2D 3D 4D 5D 6D TD QD")
    g.apply(P1, UseAbility(STOMP, card("TC")))
    g.apply(P2, UseAbility("Mental Toughness", card("TD"), (card("QD"),)))
    grave = g.state(P2)
    assert not grave.knocked_down and not list(g.journal.of(Knockdown))
    assert card("TC") in g.state(P1).discard
    assert len(g.state(P1).hand) == 7  # 7 - the 10 + the T2 draw: War Stomp drew nothing
    assert sorted(c.code for c in grave.hand) == ["2D", "3D", "4D", "5D", "6D", "JS"]
    assert g.step == "C1"  # no discard decision for Grave


# --- Troq Armor (J) -------------------------------------------------------------------------
def test_troq_armor_wins_against_a_faster_normal_attack_and_takes_its_damage() -> None:
    """troq.md, Card abilities (Troq Armor): the faster normal attack hits, the opponent can't
    combo, the Jack hits afterwards and wins combat."""
    g = recorded_game("JC 3C 4C 5C 6C 7C TC", PLAIN, p1="troq", p2="grave")
    fight(g, commit("JC", "attack", "Bull Charge"), commit("2D", "attack"))  # 3.4 vs 2.6
    assert g.combat.winner is P1
    assert g.life == (95 - 2, 90 - 10)
    assert sorted((e.seat, e.by) for e in g.journal.of(Hit)) == [(P1, P2), (P2, P1)]
    assert not [e for e in g.journal.of(Drew) if e.step == "C7"]  # Grave did not win
    # Grave makes no combo; Troq's is the Jack alone (Bull Charge is an Ender)
    assert [(e.record.player, e.record.cards) for e in g.journal.of(ComboEnded)] == [
        (P1, ["JC"])]
    assert g.turn == 2 and illegal_rule(g, P2, combo("3D")) == "GEN-4"


def test_troq_armor_against_a_special_attack_or_a_joker() -> None:
    """troq.md, Troq Armor: only normal attacks (troq.md, "Engine rulings")."""
    g = recorded_game("JC 3C 4C 5C 6C 7C TC", "JD 2D 3D 4D 5D 6D 8D", p1="troq", p2="grave")
    fight(g, commit("JC", "attack", "Bull Charge"), commit("JD", "attack"))  # 3.4 vs 2.4
    assert g.combat.winner is P2
    g2 = recorded_game("JC 3C 4C 5C 6C 7C TC", "X1 2D 3D 4D 5D 6D 8D", p1="troq", p2="jaina")
    fight(g2, commit("JC", "attack", "Bull Charge"), commit("X1"))
    assert g2.combat.winner is P2  # a Joker is not a normal attack


# --- Lockhorn Skewer (K) -----------------------------------------------------------------------
def test_lockhorn_skewer_beats_a_fast_normal_attack_and_takes_its_damage() -> None:
    """troq.md, Card abilities (Lockhorn Skewer): speed 5.0 or faster (4.6 here)."""
    g = recorded_game("KC 3C 4C 5C 6C 7C TC", PLAIN, p1="troq", p2="grave")
    fight(g, commit("KC", "throw"), commit("4D", "attack"))
    assert g.combat.winner is P1
    assert g.life == (95 - 4, 90 - 15)


def test_lockhorn_skewer_loses_to_a_slow_normal_attack() -> None:
    """troq.md, Lockhorn Skewer: a 5.6 attack is slower than 5.0: attack beats throw (AR-1)."""
    g = recorded_game("KC 3C 4C 5C 6C 7C TC", PLAIN, p1="troq", p2="grave")
    fight(g, commit("KC", "throw"), commit("5D", "attack"))
    assert g.combat.winner is P2
    assert g.life[1] == 90


# --- Beast Unleashed (A, AAA) ---------------------------------------------------------------------
def test_beast_unleashed_needs_two_attached_blocks__GEN_1() -> None:
    """troq.md, Special moves (Beast Unleashed: requires 2 attached blocks)."""
    g = recorded_game("AC AD AH AS 5C 6C 7C", PLAIN, p1="troq", p2="grave")
    assert illegal_rule(g, P1, commit("AC", "throw")) == "GEN-1"


def test_beast_unleashed_returns_the_attached_blocks() -> None:
    """troq.md, Card abilities (Beast Unleashed): "when you attempt Beast Unleashed, return
    your attached block cards to your hand" (at lock-in, C5)."""
    g = recorded_game("AC AD AH AS 5C 6C 7C", PLAIN, p1="troq", p2="grave")
    troq = g.state(P1)
    troq.hand.remove(card("5C"))
    troq.hand.remove(card("6C"))
    troq.attached.extend([card("5C"), card("6C")])
    fight(g, commit("AC", "throw"), commit("5D", "block"))
    g.apply(P1, PayAces((card("AD"), card("AH"))))  # AAA: two more Aces (CB-9)
    assert troq.attached == []
    assert {card("5C"), card("6C")} <= set(troq.hand)
    assert g.life[1] == 90 - 45


# --- bots and self-play -------------------------------------------------------------------------
def test_greedy_plays_war_stomp() -> None:
    """Issue 13, bots: TroqRules' greedy heuristic (its class docstring)."""
    g = _turn_two()
    assert GreedyBot().choose(g, P1, g.legal_actions(P1)) == UseAbility(STOMP, card("TC"))


@pytest.mark.parametrize("opponent", sorted(characters()))
def test_self_play_against_every_character_replays_legal(opponent: str) -> None:
    """Issue 13: Troq against each of the 20 (both seats, random and greedy bots)."""
    helpers.assert_self_play_replays_legal("troq", opponent, first_seed=13)
