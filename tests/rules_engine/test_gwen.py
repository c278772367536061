"""Gwen (docs/rules/characters/gwen.md): Shadow Plague, Relentless Strikes, Gloria's Remedy,
Chillbane, and the decisions of gwen.md's "Engine rulings"."""

from __future__ import annotations

import pytest

from rules_engine.actions import Pass, Stop, UseAbility
from rules_engine.bots import GreedyBot
from rules_engine.cards import card, characters
from rules_engine.game import Game
from rules_engine.journal import ComboEnded, DamageDealt, Drew, Healed

from . import helpers
from .helpers import P1, P2, combo, commit, draw, fight, finish_turn, illegal_rule, recorded_game

PLAIN = "2D 3D 4D 5D 6D 8D 9D"  # Grave with nothing to play outside combat
STRIKES = "Relentless Strikes"


def _hurt(hand: str, grave: str = "2D 3D 4D 5D 6D 8D 9D") -> Game:
    """Turn 1: Grave's 2-3-4-5 chain hits Gwen's no-card (14): Gwen 71; turn 2 after the draw
    phase (Gwen draws two, then Shadow Plague: 69)."""
    g = recorded_game(hand, grave, p1="gwen", p2="grave")
    fight(g, commit(None), commit("2D", "attack"))
    draw(g, P2, "KS")  # C7
    g.apply(P1, Pass())  # no Rewind card
    for c in ("3D", "4D", "5D"):
        g.apply(P2, combo(c))
    finish_turn(g, 1)
    draw(g, P1, "7C")
    draw(g, P1, "8C")
    draw(g, P2, "JS")
    assert g.turn == 2 and g.life == (69, 90)
    return g


# --- Shadow Plague (innate) ---------------------------------------------------------------------
def test_shadow_plague_draws_two_then_costs_2__T2() -> None:
    g = recorded_game("2C 3C 4C 5C 6C 7C 8C", PLAIN, p1="gwen", p2="grave")
    fight(g, commit(None), commit(None))
    assert g.life == (85, 90)  # no draw phase on turn 1: no plague
    draw(g, P1, "9C")
    draw(g, P1, "TC")  # the extra card
    draw(g, P2, "JS")
    assert [e.seat for e in g.journal.of(Drew) if e.step == "T2"] == [P1, P1, P2]
    assert g.life == (83, 90)
    assert [e.amount for e in g.journal.of(DamageDealt) if e.step == "T2"] == [2]


def test_shadow_plague_can_knock_her_out__END_2() -> None:
    g = recorded_game("2C 3C 4C 5C 6C 7C 8C", PLAIN, p1="gwen", p2="grave")
    fight(g, commit(None), commit(None))
    g.state(P1).life = 2
    draw(g, P1, "9C")
    draw(g, P1, "TC")
    draw(g, P2, "JS")
    assert g.outcome is not None and g.outcome.winner is P2


# --- Relentless Strikes (innate) ----------------------------------------------------------------
def test_relentless_strikes_turns_a_normal_block_into_a_win__AB_1() -> None:
    g = recorded_game("5C 2H 3S 4D 6S JC TC", PLAIN, p1="gwen", p2="grave")
    fight(g, commit("5C", "attack"), commit("5D", "block"))
    assert g.step == "C6" and g.actor is P1
    g.apply(P1, UseAbility(STRIKES, cards=(card("2H"), card("6S"))))
    draw(g, P2, "KS")  # the opponent draws a card (no block draw)
    draw(g, P1, "9C")  # C7: her normal attack won
    grave = g.state(P2)
    assert g.life == (85, 90 - 6)  # the black 6 hits
    assert card("5D") in grave.discard and card("5D") not in grave.hand
    assert {card("2H"), card("6S")} <= set(g.state(P1).discard)
    assert not list(g.journal.of(ComboEnded))  # combat ended: no Rewind window, no combo
    assert g.step not in ("C9", "C10")


def test_relentless_strikes_declined_is_an_ordinary_block() -> None:
    """gwen.md, Innate abilities (Relentless Strikes: "you may"): declined, the block works as
    usual (AR-BLK-1, AR-BLK-2)."""
    g = recorded_game("5C 2H 3S 4D 6S JC TC", PLAIN, p1="gwen", p2="grave")
    fight(g, commit("5C", "attack"), commit("5D", "block"))
    g.apply(P1, Pass())
    draw(g, P1, "9C")  # C7: a blocked normal attack draws
    draw(g, P2, "KS")  # C8b: the block draw
    g.apply(P2, Pass())  # Grave's Knowing the Opponent: no reveal
    assert g.life == (85, 90) and card("5D") in g.state(P2).hand


def test_relentless_strikes_illegal_choices__AB_1() -> None:
    g = recorded_game("5C 2H 3S 4D 6S JC TC", PLAIN, p1="gwen", p2="grave")
    fight(g, commit("5C", "attack"), commit("5D", "block"))
    assert illegal_rule(g, P1, UseAbility(STRIKES, cards=(card("2H"), card("4D")))) == "AB-1"
    assert illegal_rule(g, P1, UseAbility(STRIKES, cards=(card("2H"), card("2S")))) == "AB-1"
    assert illegal_rule(g, P1, UseAbility(STRIKES, cards=(card("2H"), card("TC")))) == "AB-1"
    assert illegal_rule(g, P1, UseAbility(STRIKES, cards=(card("2H"),))) == "AB-1"


def test_no_relentless_strikes_for_an_ender_or_without_both_colours() -> None:
    """gwen.md, Relentless Strikes: only a non-Ender attack, and only with a red and a black normal
    attack in hand."""
    # Shadow Slice is an Ender: no decision when it is blocked
    g = recorded_game("QC 2H 3S 4D 6S JC TC", PLAIN, p1="gwen", p2="grave")
    fight(g, commit("QC", "attack"), commit("5D", "block"))
    assert not (g.step == "C6" and g.actor is P1)
    # only red normal attacks in hand: nothing to offer
    g2 = recorded_game("5C 2H 3D 4D 6H JC TC", PLAIN, p1="gwen", p2="grave")
    fight(g2, commit("5C", "attack"), commit("5D", "block"))
    assert g2.step == "C7" and g2.actor is P1  # straight to her normal-attack draw


def test_no_relentless_strikes_against_a_special_block() -> None:
    """gwen.md, Relentless Strikes: a normal block only (gwen.md, "Engine rulings": special
    blocks)."""
    # Gwen's own 10 blocks as Gloria's Remedy (a special block) in the mirror
    g = recorded_game("5C 2H 3S 4D 6S JC TC", "TD 2D 3D 4D 5D 6D 8D", p1="gwen", p2="gwen",
                      first=P1)
    fight(g, commit("5C", "attack"), commit("TD", "block"))
    assert not (g.step == "C6" and g.actor is P1)
    assert g.life[1] == 85  # Remedy at full life: nothing to heal


def test_protective_ward_makes_her_attack_an_ender_so_no_strikes() -> None:
    """gwen.md Relentless Strikes with argagarg.md Protective Ward: her attack plays as an Ender."""
    g = recorded_game("5C 2H 3S 4D 6S JC TC", "7D 5D 2D 3D 4D 6D 8D", p1="gwen",
                      p2="argagarg", first=P1)
    fight(g, commit("5C", "attack"), commit("5D", "block"))
    g.apply(P2, UseAbility("Protective Ward", card("7D")))
    draw(g, P2, "KS")
    # her 5 plays as an Ender this turn: no Relentless Strikes decision at C6
    assert not (g.step == "C6" and g.actor is P1)


# --- Gloria's Remedy (10, block end) ------------------------------------------------------------
def test_glorias_remedy_heals_6_no_block_damage_no_draw_discarded() -> None:
    g = _hurt("2C 3C 4C 5C 6C TC JC")
    fight(g, commit("TC", "block"), commit("KS", "attack"))  # Whirlwind: block damage 1
    assert g.life == (69 + 6, 90)
    assert [h.amount for h in g.journal.of(Healed)] == [6]
    gwen = g.state(P1)
    assert card("TC") in gwen.discard and card("TC") not in gwen.hand
    assert not [e for e in g.journal.of(Drew) if e.step == "C8"]


def test_countered_glorias_remedy_is_an_ordinary_block__AB_11_CTR_3() -> None:
    g = _hurt("2C 3C 4C 5C 6C TC JC", grave="2D 3D 4D 5D 6D TD QD")
    fight(g, commit("TC", "block"), commit("KS", "attack"))
    g.apply(P2, UseAbility("Mental Toughness", card("TD"), (card("QD"),)))
    draw(g, P1, "9C")  # the block draw
    finish_turn(g, 2)
    assert g.life[0] == 69 - 1  # Whirlwind's block damage
    assert card("TC") in g.state(P1).hand  # the block returned (AR-BLK-2)


# --- Chillbane (J: Chains of Ice) -----------------------------------------------------------------
def test_chillbane_freezes_the_opponent_no_rewind_then_slows_them() -> None:
    """gwen.md, Card abilities (Chillbane) and FAQ ("Chillbane prevents Rewind Time Jokers")."""
    # Grave holds a Joker: he would place it at C9, but he is frozen
    g = recorded_game("JC 2C 3C 4C 5C 6C TC", "X1 8D 2D 3D 4D 6D 9D", p1="gwen", p2="grave")
    fight(g, commit("JC", "attack", "Chains of Ice"), commit("8D", "throw"))
    assert g.step == "C10" and g.actor is P1  # no C9 decision for the frozen Grave
    assert g.public_view(P1)["players"]["P2"]["frozen"] is True  # type: ignore[index]
    assert illegal_rule(g, P2, Pass()) == "C10"  # an event of the frozen player is not due
    assert "frozen" not in g.public_view(P1)["players"]["P1"]  # type: ignore[operator]
    g.apply(P1, Stop())
    finish_turn(g, 1)
    assert card("X1") in g.state(P2).hand
    assert "frozen" not in g.public_view(P2)["players"]["P2"]  # type: ignore[operator]
    # next turn Grave's 2.6 attack is 4.6: Gwen's 4.0 attack wins
    draw(g, P2, "JS")  # Grave (83) has initiative now
    draw(g, P1, "7C")
    draw(g, P1, "8C")
    fight(g, commit("4C", "attack"), commit("2D", "attack"))
    assert g.combat.winner is P1


def test_a_frozen_player_skips_power_up_and_abilities() -> None:
    """gwen.md, Chillbane: they skip all decisions the rest of the turn (Power Up included)."""
    # frozen Grave holds a pair (a set to power up with) and would otherwise decide at P2
    g = recorded_game("JC 2C 3C 4C 5C 6C TC", "2D 2H 8D 3D 4D 6D 9D", p1="gwen", p2="grave")
    fight(g, commit("JC", "attack", "Chains of Ice"), commit("8D", "throw"))
    g.apply(P1, Stop())
    finish_turn(g, 1)
    assert {card("2D"), card("2H")} <= set(g.state(P2).hand)  # no Power Up happened


def test_countered_chillbane_freezes_nothing__CTR_3() -> None:
    g = recorded_game("JC 2C 3C 4C 5C 6C 9C", "TD QD 8D 3D 4D 6D 9D", p1="gwen", p2="grave")
    fight(g, commit("JC", "attack", "Chains of Ice"), commit("8D", "throw"))
    g.apply(P2, UseAbility("Mental Toughness", card("TD"), (card("QD"),)))
    assert g.step == "C9" and g.actor is P2  # Grave decides at C9 again


def test_links_of_ice_does_not_freeze() -> None:
    """gwen.md, Chillbane: only a hit with Chains of Ice freezes."""
    g = recorded_game("JC 2C 3C 4C 5C 6C TC", "X1 8D 2D 3D 4D 6D 9D", p1="gwen", p2="grave")
    fight(g, commit("JC", "attack", "Links of Ice"), commit("8D", "throw"))
    assert g.step == "C9" and g.actor is P2


# --- bots and self-play -------------------------------------------------------------------------
def test_greedy_strikes_with_the_strongest_black_normal_attack() -> None:
    """Issue 12, bots: GwenRules' greedy heuristic (its class docstring)."""
    g = recorded_game("5C 2H 3S 4D 6S JC TC", PLAIN, p1="gwen", p2="grave")
    fight(g, commit("5C", "attack"), commit("5D", "block"))
    assert GreedyBot().choose(g, P1, g.legal_actions(P1)) == UseAbility(
        STRIKES, cards=(card("2H"), card("6S")))


@pytest.mark.parametrize("opponent", sorted(characters()))
def test_self_play_against_every_character_replays_legal(opponent: str) -> None:
    """Issue 12: Gwen against each of the 20 (both seats, random and greedy bots)."""
    helpers.assert_self_play_replays_legal("gwen", opponent, first_seed=13)
