"""Rook (docs/rules/characters/rook.md): Rock Armor, Defense Mastery, Entangling Vines, Stone
Wall, Windmill Crusher, and the decisions of rook.md's "Engine rulings" (RW-13, OQ-12,
FR-ROOK-1..4, AB-11)."""

from __future__ import annotations

import pytest

from rules_engine import effects
from rules_engine.actions import FaceDown, Pass, Stop, UseAbility
from rules_engine.bots import GreedyBot
from rules_engine.cards import card, characters
from rules_engine.game import Game
from rules_engine.journal import ComboEnded, DamageDealt, Drew, Hit, JokerUsed, Knockdown
from rules_engine.ruleset import EntanglingVines, Ruleset
from rules_engine.state import Ongoing, Trigger

from . import helpers
from .helpers import P1, P2, combo, commit, draw, fight, finish_turn, illegal_rule, recorded_game

PLAIN = "2D 3D 4D 5D 6D 8D 9D"  # Grave with nothing to play outside combat
ARMOR = "Rock Armor"


def _draw_phase(g: Game, rook: str, other: str) -> None:
    """T2: each player draws one card, in initiative order."""
    todo = {P1: rook, P2: other}
    while todo:
        actor = g.actor
        draw(g, actor, todo.pop(actor))  # type: ignore[arg-type]


def _outsped(rook: str = "4C 5H 6C 7C 2H 3S 8S", grave: str = PLAIN,
             rook_rewind: object = None) -> Game:
    """Turn 1: Grave's 2 (2.6) beats Rook's 4 (4.8); Grave combos 2-3 and stops."""
    g = recorded_game(rook, grave, p1="rook", p2="grave")
    fight(g, commit("4C", "attack"), commit("2D", "attack"))
    draw(g, P2, "KS")  # C7: Grave's normal attack won
    g.apply(P1, rook_rewind or Pass())  # C9: Rook's Rewind window for Grave's combo
    g.apply(P2, combo("3D"))
    g.apply(P2, Stop())
    return g


# --- Rock Armor (innate) ------------------------------------------------------------------------
def test_rock_armor_hits_after_the_opponents_combo_then_rook_combos__RW_13_OQ_12() -> None:
    """rook.md, Innate abilities (Rock Armor): the opponent finishes their combo; Rook discards
    two cards of his attack's suit; his attack is not interrupted and he finishes his combo."""
    g = _outsped()
    assert g.life == (100 - 2 - 3, 90)  # Grave's combo is dealt first (C12)
    assert g.actor is P1
    assert UseAbility(ARMOR, cards=(card("6C"), card("7C"))) in g.legal_actions(P1)
    g.apply(P1, UseAbility(ARMOR, cards=(card("6C"), card("7C"))))
    rook = g.state(P1)
    assert {card("6C"), card("7C")} <= set(rook.discard)
    assert g.life == (95, 90 - 4)  # his 4 hits now
    assert (P2, P1) in [(e.seat, e.by) for e in g.journal.of(Hit)]
    g.apply(P2, Pass())  # RW-13: Grave's Rewind window for Rook's combo
    g.apply(P1, combo("5H"))
    assert g.life == (95, 90 - 4 - 5)
    records = [(e.record.player, e.record.cards) for e in g.journal.of(ComboEnded)]
    assert records == [(P2, ["2D", "3D"]), (P1, ["4C", "5H"])]
    assert card("3D") in g.state(P2).discard and card("5H") in rook.discard


def test_each_rewind_card_prevents_only_its_own_combo__FR_ROOK_1_OQ_12() -> None:
    """OQ-12: Rook's C9 Joker prevents Grave's combo; Grave's Joker, placed when Rock Armor
    activated, prevents only Rook's combo moves (his attack's base damage is dealt first)."""
    g = _outsped(rook="4C 5H 6C 7C X1 3S 8S", grave="X2 2D 3D 4D 5D 6D 8D",
                 rook_rewind=FaceDown(card("X1")))
    assert g.life == (100 - 2, 90)  # Grave's 3 was prevented (RW-6)
    draw(g, P1, "2H")  # RW-8: Rook's Joker prevented damage: he draws 2
    draw(g, P1, "3H")
    g.apply(P1, UseAbility(ARMOR, cards=(card("6C"), card("7C"))))
    assert g.life == (98, 86)
    g.apply(P2, FaceDown(card("X2")))
    g.apply(P1, combo("5H"))
    draw(g, P2, "QH")  # Grave's Joker prevented the 5
    draw(g, P2, "QS")
    assert g.life == (98, 86)
    used = [(e.seat, e.prevented) for e in g.journal.of(JokerUsed)]
    assert used == [(P1, 3), (P2, 5)]


def test_rock_armor_illegal_costs__AB_1() -> None:
    """rook.md, Rock Armor: "two cards of the same suit as your attack"."""
    g = _outsped()
    assert illegal_rule(g, P1, UseAbility(ARMOR, cards=(card("6C"), card("8S")))) == "AB-1"
    assert illegal_rule(g, P1, UseAbility(ARMOR, cards=(card("6C"), card("9C")))) == "AB-1"
    assert illegal_rule(g, P1, UseAbility(ARMOR, cards=(card("6C"),))) == "AB-1"
    assert illegal_rule(g, P1, UseAbility(ARMOR, cards=(card("6C"), card("6C")))) == "AB-1"


def test_rock_armor_declined_ends_the_combat() -> None:
    g = _outsped()
    g.apply(P1, Pass())
    assert g.life == (95, 90)
    assert [e.record.player for e in g.journal.of(ComboEnded)] == [P2]


def test_rock_armor_needs_two_cards_of_the_suit() -> None:
    """No decision without two cards of the attack's suit (rook.md, Rock Armor)."""
    g = _outsped(rook="4C 5H 6C 7H 2H 3S 8S")
    assert not (g.step == "C12" and g.actor is P1)
    assert [e.record.player for e in g.journal.of(ComboEnded)] == [P2]


def test_rock_armor_against_a_special_but_not_a_super_attack() -> None:
    """rook.md, Rock Armor: "faster normal attack or special attack" (rook.md,
    "Engine rulings": J, Q, K attacks; an Ace is a super attack)."""
    g = recorded_game("4C 5H 6C 7C 2H 3S 8S", "JD 3D 4D 5D 6D 8D 9D", p1="rook", p2="grave")
    fight(g, commit("4C", "attack"), commit("JD", "attack"))  # Lightning Cloud 2.4, an Ender
    assert g.actor is P1 and UseAbility(ARMOR, cards=(card("6C"), card("7C"))) \
        in g.legal_actions(P1)
    g2 = recorded_game("4C 5H 6C 7C 2H 3S 8S", "AD AH 4D 5D 6D 8D 9D", p1="rook", p2="grave")
    fight(g2, commit("4C", "attack"), commit("AD", "attack", "True-Spark Arc"))
    assert not any(isinstance(a, UseAbility)
                   for a in g2.legal_actions(g2.actor))  # type: ignore[arg-type]
    assert [e.record.player for e in g2.journal.of(ComboEnded)] == [P2]


def test_no_rock_armor_when_the_combo_knocks_him_down() -> None:
    """rook.md, Rock Armor: "if you were not knocked down" (the combo's last move, KD-1):
    Geiger's Flash Gear (0.2, a knockdown Ender) is his whole combo."""
    g = recorded_game("4C 5H 6C 7C 2H 3S 8S", "KD 2D 4D 5D 6D 8D 9D", p1="rook", p2="geiger")
    fight(g, commit("4C", "attack"), commit("KD", "attack"))
    assert g.life == (100 - 10, 90)
    assert [e.record.player for e in g.journal.of(ComboEnded)] == [P2]
    assert not any(isinstance(a, UseAbility)
                   for a in g.legal_actions(g.actor))  # type: ignore[arg-type]
    finish_turn(g, 1)
    assert [(e.seat, e.by) for e in g.journal.of(Knockdown)] == [(P1, P2)]


def test_mental_toughness_cannot_counter_rock_armor__CTR_8() -> None:
    """CTR-8: Rock Armor is an innate, and Mental Toughness "can't counter character cards"
    under either reading (Smoke Bomb under the first-edition reading: test_counter_policy): no
    counter decision, his two cards stay paid and his attack hits."""
    g = _outsped(grave="2D 3D 4D 5D 6D TD QD")
    g.apply(P1, UseAbility(ARMOR, cards=(card("6C"), card("7C"))))
    assert not any(isinstance(a, UseAbility) and a.ability == "Mental Toughness"
                   for a in g.legal_actions(P2))
    rook = g.state(P1)
    assert {card("6C"), card("7C")} <= set(rook.discard)


# --- Defense Mastery (innate) -------------------------------------------------------------------
def test_defense_mastery_stops_the_normal_draw__C7() -> None:
    g = recorded_game("8C 5H 6C 7C 2H 3S 8S", PLAIN, p1="rook", p2="grave")
    fight(g, commit("8C", "block"), commit("2D", "attack"))
    draw(g, P1, "KC")  # the block draw
    assert not [e for e in g.journal.of(Drew) if e.step == "C7"]
    assert card("8C") not in g.state(P1).discard


# --- Stone Wall (5, block end) ------------------------------------------------------------------
def test_stone_wall_reflects_the_attack__FR_ROOK_2() -> None:
    """rook.md, Card abilities (Stone Wall): the attack's damage goes back to the attacker; no
    block draw, no return; ability damage, so no Rewind window could prevent it."""
    g = recorded_game("5C 4C 6C 7C 2H 3S 8S", "KD X1 4D 5D 6D 8D 9D", p1="rook", p2="grave")
    fight(g, commit("5C", "block"), commit("KD", "attack"))  # Whirlwind: 7 (1)
    assert g.life == (100, 90 - 7)
    assert [(e.target, e.amount, e.kind) for e in g.journal.of(DamageDealt)] == [
        (P2, 7, "ability")]
    rook = g.state(P1)
    assert card("5C") in rook.discard and card("5C") not in rook.hand
    assert not [e for e in g.journal.of(Drew) if e.step == "C8"]
    assert g.step != "C9"


def test_countered_stone_wall_is_an_ordinary_block__AB_11_FR_ROOK_3() -> None:
    g = recorded_game("5C 4C 6C 7C 2H 3S 8S", "KD TD QD 5D 6D 8D 9D", p1="rook", p2="grave")
    fight(g, commit("5C", "block"), commit("KD", "attack"))
    g.apply(P2, UseAbility("Mental Toughness", card("TD"), (card("QD"),)))
    draw(g, P1, "KC")  # the block draw
    finish_turn(g, 1)
    assert g.life == (100 - 1, 90)  # Whirlwind's block damage
    assert card("5C") in g.state(P1).hand  # returned (AR-BLK-2)


# --- Entangling Vines (3, block end) ------------------------------------------------------------
def test_entangling_vines_deals_5_knocks_down_and_speeds_rook_up() -> None:
    """rook.md, Card abilities (Entangling Vines): no block damage, knocks the attacker down,
    5 damage; next turn his attacks and throws are 3 faster (rook.md, "Engine rulings")."""
    g = recorded_game("3C 4C 6C 7C 2H 3S 8S", "KD 2D 4D 5D 6D 8D 9D", p1="rook", p2="grave")
    fight(g, commit("3C", "block"), commit("KD", "attack"))
    assert g.life == (100, 90 - 5)
    assert [(e.seat, e.by) for e in g.journal.of(Knockdown)] == [(P2, P1)]
    rook = g.state(P1)
    assert card("3C") in rook.discard and card("3C") not in rook.hand
    assert not [e for e in g.journal.of(Drew) if e.step == "C8"]
    finish_turn(g, 1)
    assert g.state(P2).knocked_down  # KD-6: for this turn
    _draw_phase(g, "9C", "JS")
    # his 4 is 1.8 now: it beats Grave's 2 (2.6)
    fight(g, commit("4C", "attack"), commit("2D", "attack"))
    assert g.combat.winner is P1


def test_entangling_vines_speed_option_and_floor() -> None:
    """rook.md conflict: 5 faster under opt.entanglingVines=FASTER_5; never below 1.0."""
    rs = Ruleset(entanglingVines=EntanglingVines.FASTER_5)
    g = recorded_game("3C 4C 6C 7C 2H 3S JC", "KD 2D 4D 5D 6D 8D 9D", p1="rook", p2="grave",
                      ruleset=rs)
    fight(g, commit("3C", "block"), commit("KD", "attack"))
    finish_turn(g, 1)
    _draw_phase(g, "9C", "JS")
    fight(g, commit("JC", "attack"), commit("JS", "attack"))  # Thunderclap 2.2 -> 1.0
    assert g.speed(g.state(P1)) == 10 and g.speed(g.state(P2)) == 24
    g2 = recorded_game("3C 4C 6C 7C 2H 3S 8S", "KD 2D 4D 5D 6D 8D 9D", p1="rook", p2="grave",
                       ruleset=rs)
    fight(g2, commit("3C", "block"), commit("KD", "attack"))
    finish_turn(g2, 1)
    _draw_phase(g2, "9C", "JS")
    fight(g2, commit("6C", "attack"), commit(None))
    assert g2.speed(g2.state(P1)) == 68 - 50


def test_entangling_vines_is_not_a_throw__FR_ROOK_4() -> None:
    """FR-ROOK-4: it does not end Dragon Form (Midori's "discard this if you get thrown")."""
    g = recorded_game("3C 4C 6C 7C 2H 3S 8S", "2D JD 4D 5D 6D 8D 9D", p1="rook", p2="midori")
    midori = g.state(P2)
    midori.hand.remove(card("2D"))
    midori.ongoing.append(Ongoing("Dragon Form", card("2D"), frozenset({Trigger.THROWN}), None,
                                  since_turn=0, resolved=True))
    fight(g, commit("3C", "block"), commit("JD", "attack", "Toxic Breath"))
    assert g.life[1] == 90 - 5
    assert effects.is_active(midori, "Dragon Form")


def test_countered_entangling_vines_is_an_ordinary_block__AB_11_FR_ROOK_3() -> None:
    g = recorded_game("3C 4C 6C 7C 2H 3S 8S", "KD TD QD 5D 6D 8D 9D", p1="rook", p2="grave")
    fight(g, commit("3C", "block"), commit("KD", "attack"))
    g.apply(P2, UseAbility("Mental Toughness", card("TD"), (card("QD"),)))
    draw(g, P1, "KC")
    finish_turn(g, 1)
    assert g.life == (99, 90) and not list(g.journal.of(Knockdown))
    assert card("3C") in g.state(P1).hand


def test_special_blocks_against_a_joker_are_ordinary_blocks() -> None:
    """rook.md, "Engine rulings": no attack to reflect or entangle."""
    g = recorded_game("3C 4C 6C 7C 2H 3S 8S", "X1 2D 4D 5D 6D 8D 9D", p1="rook", p2="grave")
    fight(g, commit("3C", "block"), commit("X1"))
    draw(g, P1, "KC")  # the block draw
    assert g.life == (100, 90) and not list(g.journal.of(Knockdown))


# --- Windmill Crusher (K) -----------------------------------------------------------------------
def test_windmill_crusher_beats_a_fast_normal_attack_and_takes_its_damage() -> None:
    """rook.md, Card abilities (Windmill Crusher)."""
    g = recorded_game("KC 4C 6C 7C 2H 3S 8S", PLAIN, p1="rook", p2="grave")
    fight(g, commit("KC", "throw"), commit("4D", "attack"))
    assert g.combat.winner is P1 and g.life == (100 - 4, 90 - 15)
    g2 = recorded_game("KC 4C 6C 7C 2H 3S 8S", PLAIN, p1="rook", p2="grave")
    fight(g2, commit("KC", "throw"), commit("6D", "attack"))  # 6.6: slower than 5.0
    assert g2.combat.winner is P2


# --- bots and self-play -------------------------------------------------------------------------
def test_greedy_always_uses_rock_armor_with_the_cheapest_pair() -> None:
    g = _outsped(rook="4C 5H 6C 7C 9C 3S 8S")
    assert GreedyBot().choose(g, P1, g.legal_actions(P1)) == UseAbility(
        ARMOR, cards=(card("6C"), card("7C")))


@pytest.mark.parametrize("opponent", sorted(characters()))
def test_self_play_against_every_character_replays_legal(opponent: str) -> None:
    """Issue 13: Rook against each of the 20 (both seats, random and greedy bots)."""
    helpers.assert_self_play_replays_legal("rook", opponent, first_seed=13)
