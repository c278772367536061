"""Onimaru (docs/rules/characters/onimaru.md): Guard Crush, General's Armor, Final Authority,
Clockwork Formation, and the decisions of onimaru.md's "Engine rulings"."""

from __future__ import annotations

import pytest

from rules_engine.actions import Pass, UseAbility
from rules_engine.bots import GreedyBot
from rules_engine.cards import card, characters
from rules_engine.game import Game
from rules_engine.journal import DamageDealt, Knockdown

from . import helpers
from .helpers import P1, P2, commit, draw, fight, finish_turn, illegal_rule, recorded_game

PLAIN = "2D 3D 4D 5D 6D 8D 9D"  # Grave with nothing to play outside combat
FA = "Final Authority"
FORMATION = "Clockwork Formation"


def _draw_phase(g: Game, oni: str, other: str) -> None:
    """T2: each player draws one card, in initiative order."""
    todo = {P1: oni, P2: other}
    while todo:
        actor = g.actor
        draw(g, actor, todo.pop(actor))  # type: ignore[arg-type]


# --- Guard Crush (innate) -----------------------------------------------------------------------
def test_guard_crush_normal_attack_beats_an_equal_or_lower_normal_block() -> None:
    """onimaru.md, Innate ability (Guard Crush)."""
    g = recorded_game("6C 2C 3C 4C 7C 8C 9C", PLAIN, p1="onimaru", p2="grave")
    fight(g, commit("6C", "attack"), commit("6D", "block"))  # equal rank
    draw(g, P1, "TC")  # C7: his normal attack won
    assert g.combat.winner is P1 and g.life[1] == 90 - 10
    g2 = recorded_game("5C 2C 3C 4C 7C 8C 9C", "7D 2D 3D 4D 5D 6D 8D", p1="onimaru",
                       p2="grave")
    fight(g2, commit("5C", "attack"), commit("7D", "block"))  # a higher block blocks
    assert g2.combat.winner is P2


def test_guard_crush_does_not_break_a_special_block() -> None:
    """onimaru.md, Guard Crush: "except by named blocks with special abilities" (Stone Wall)."""
    g = recorded_game("6C 2C 3C 4C 7C 8C 9C", "5D 2D 3D 4D 6D 8D 9D", p1="onimaru", p2="rook")
    fight(g, commit("6C", "attack"), commit("5D", "block"))
    assert g.combat.winner is P2
    assert g.life[0] == 90 - 10  # Stone Wall reflects the 10


# --- General's Armor (5) --------------------------------------------------------------------------
def test_generals_armor_wins_against_a_faster_normal_attack_and_takes_its_damage() -> None:
    """onimaru.md, Card abilities (General's Armor)."""
    g = recorded_game("5C 2C 3C 4C 7C 8C 9C", PLAIN, p1="onimaru", p2="grave")
    fight(g, commit("5C", "attack"), commit("2D", "attack"))  # 5.4 vs 2.6
    draw(g, P1, "TC")  # C7: his normal attack won (Grave's did not: no draw)
    assert g.combat.winner is P1
    assert g.life == (90 - 2, 90 - 10)


def test_generals_armor_does_not_stop_a_knockdown_normal_attack() -> None:
    """onimaru.md, General's Armor: "except those that knock down" (Vendetta's Claw Trip)."""
    # (no 8 in Vendetta's hand: it would offer Acrobatics at Combat Reveal)
    g = recorded_game("5C 2C 3C 4C 7C 8C 9C", "7D 2D 3D 4D 5D 6D 9D", p1="onimaru",
                      p2="vendetta")
    fight(g, commit("5C", "attack"), commit("7D", "attack", "Claw Trip"))
    assert g.combat.winner is P2


# --- Final Authority (9, Combat Reveal) ---------------------------------------------------------
def test_final_authority_beats_a_faster_attack_and_knocks_down() -> None:
    """onimaru.md, Card abilities (Final Authority): the face card beats all other attacks and
    knocks down; it can't be countered (Grave holds Mental Toughness: no counter decision)."""
    g = recorded_game("JC 9H 2C 3C 4C 7H 8H", "QD TD 2D 3D 4D 5D 6D", p1="onimaru",
                      p2="grave")
    fight(g, commit("JC", "attack"), commit("QD", "attack"))  # 3.4 vs Dragonheart 0.0
    assert UseAbility(FA, card("9H"), (card("2C"),)) in g.legal_actions(P1)
    g.apply(P1, UseAbility(FA, card("9H"), (card("2C"),)))
    assert g.combat.winner is P1 and g.combat.cell == "M-FINAL-AUTHORITY"
    finish_turn(g, 1)
    assert [e.amount for e in g.journal.of(DamageDealt) if e.target is P2][:1] == [10]
    assert g.life[0] == 90  # Dragonheart never hit
    assert [(e.seat, e.by) for e in g.journal.of(Knockdown)] == [(P2, P1)]
    oni = g.state(P1)
    assert {card("9H"), card("2C")} <= set(oni.discard)


def test_final_authority_illegal_uses__AB_2() -> None:
    """onimaru.md, Final Authority: a 9, one more card of the attack's suit, a face card."""
    g = recorded_game("JC 9H 2C 3D 4C 7H 8H", PLAIN, p1="onimaru", p2="grave")
    fight(g, commit("JC", "attack"), commit("2D", "attack"))
    assert illegal_rule(g, P1, UseAbility(FA, card("9H"), (card("3D"),))) == "AB-2"  # wrong suit
    assert illegal_rule(g, P1, UseAbility(FA, card("8H"), (card("2C"),))) == "AB-2"  # not a 9
    g2 = recorded_game("6C 9H 2C 3D 4C 7H 8H", PLAIN, p1="onimaru", p2="grave")
    fight(g2, commit("6C", "attack"), commit("2D", "attack"))
    assert g2.step != "C4"  # a normal attack: no Final Authority, no window
    assert illegal_rule(g2, P1, UseAbility(FA, card("9H"), (card("2C"),))) != ""


def test_two_final_authorities_tie() -> None:
    """onimaru.md, Final Authority: "tie with other Final Authority attacks" (both hit)."""
    g = recorded_game("JC 9C 2C 3C 4C 7H 8H", "KD 9D 2D 3D 4D 7S 8S", p1="onimaru",
                      p2="onimaru")
    fight(g, commit("JC", "attack"), commit("KD", "attack"))
    g.apply(P1, UseAbility(FA, card("9C"), (card("2C"),)))
    g.apply(P2, UseAbility(FA, card("9D"), (card("2D"),)))
    assert g.combat.winner is None
    assert g.life == (90 - 8, 90 - 10)


# --- Clockwork Formation (A) ----------------------------------------------------------------------
def _formation() -> Game:
    g = recorded_game("AC AD AH JC 2C 3C 4C", PLAIN, p1="onimaru", p2="grave")
    fight(g, commit("AC", "attack", "Clockwork Soldiers"), commit(None))
    return g


def test_clockwork_formation_attaches_the_soldiers_and_up_to_three_aces() -> None:
    """onimaru.md, Card abilities (Clockwork Formation)."""
    g = _formation()
    assert g.life[1] == 90 - 1
    assert g.actor is P1
    assert illegal_rule(g, P1, UseAbility(FORMATION, cards=(card("JC"),))) == "AB-3"
    assert illegal_rule(g, P1, UseAbility(FORMATION, cards=(card("AS"),))) == "AB-3"
    g.apply(P1, UseAbility(FORMATION, cards=(card("AD"), card("AH"))))
    oni = g.state(P1)
    assert oni.attached == [card("AC"), card("AD"), card("AH")]
    assert card("AD") not in oni.hand and card("AC") not in oni.discard


def test_clockwork_aces_pay_15_per_face_card_hit() -> None:
    """onimaru.md, Clockwork Formation: "Whenever you hit with a face card, discard one
    attached Ace to deal 15 damage"."""
    g = _formation()
    g.apply(P1, UseAbility(FORMATION, cards=(card("AD"),)))
    finish_turn(g, 1)
    _draw_phase(g, "5C", "JS")
    before = g.life[1]
    fight(g, commit("JC", "attack"), commit(None))
    assert before - g.life[1] == 10 + 15
    oni = g.state(P1)
    assert oni.attached == [card("AD")] and card("AC") in oni.discard


def test_a_blocked_face_card_discards_an_attached_ace() -> None:
    g = _formation()
    g.apply(P1, UseAbility(FORMATION, cards=()))
    finish_turn(g, 1)
    _draw_phase(g, "5C", "JS")
    fight(g, commit("JC", "attack"), commit("5D", "block"))
    draw(g, P2, "KS")  # the block draw; then the Blocked event
    finish_turn(g, 2)  # Grave's Knowing the Opponent (pass) comes first
    assert g.state(P1).attached == []
    assert card("AC") in g.state(P1).discard


# --- bots and self-play -------------------------------------------------------------------------
def test_greedy_attaches_every_ace_and_uses_authority_only_to_win() -> None:
    """Issue 13, bots: OnimaruRules' greedy heuristic (after the Training bot's)."""
    g = _formation()
    assert GreedyBot().choose(g, P1, g.legal_actions(P1)) == UseAbility(
        FORMATION, cards=(card("AD"), card("AH")))
    g2 = recorded_game("JC 9H 2C 3C 4C 7H 8H", "QD 2D 3D 4D 5D 6D 8D", p1="onimaru",
                       p2="grave")
    fight(g2, commit("JC", "attack"), commit("QD", "attack"))
    assert GreedyBot().choose(g2, P1, g2.legal_actions(P1)) == UseAbility(
        FA, card("9H"), (card("2C"),))
    g3 = recorded_game("JC 9H 2C 3C 4C 7H 8H", PLAIN, p1="onimaru", p2="grave")
    fight(g3, commit("JC", "attack"), commit("9D", "throw"))  # the attack wins anyway
    assert GreedyBot().choose(g3, P1, g3.legal_actions(P1)) == Pass()


@pytest.mark.parametrize("opponent", sorted(characters()))
def test_self_play_against_every_character_replays_legal(opponent: str) -> None:
    """Issue 13: Onimaru against each of the 20 (both seats, random and greedy bots)."""
    helpers.assert_self_play_replays_legal("onimaru", opponent, first_seed=13)


def test_no_clockwork_formation_when_the_soldiers_deal_no_damage() -> None:
    """onimaru.md, Clockwork Formation: "If you won combat and Clockwork Soldiers *deals
    damage*". Argagarg's Bubble Shield takes the hit's damage away (argagarg.md: "take no
    damage, end combat"): Onimaru won, the Soldiers hit, no damage was dealt, so nothing is
    attached and no Formation decision is asked."""
    g = recorded_game("AC 2C 3C 4C 5C 6C 8C", "5D AD AH JD 2D 3D 4D", p1="argagarg",
                      p2="onimaru")
    fight(g, commit("AC", "block"), commit("5D", "attack"))
    draw(g, P1, "KC")  # the Shield's draw (C6)
    draw(g, P2, "KS")  # C7: Onimaru's blocked normal attack draws
    draw(g, P1, "QC")  # C8b: the block draw
    finish_turn(g, 1)
    for _ in range(2):  # T2, in initiative order
        draw(g, g.actor, "TC" if g.actor is P1 else "TS")  # type: ignore[arg-type]
    while g.step != "C1":
        g.apply(g.actor, Pass())  # type: ignore[arg-type]
    life = g.life[0]
    fight(g, commit(None), commit("AD", "attack", "Clockwork Soldiers"))
    assert g.life[0] == life  # the Shield: no damage
    assert not any(isinstance(a, UseAbility) and a.ability == FORMATION
                   for a in g.legal_actions(g.actor))  # type: ignore[arg-type]
    finish_turn(g, 2)
    assert g.state(P2).attached == [] and card("AD") in g.state(P2).discard

