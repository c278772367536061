"""Combat resolution in play (C1..C13, §4): recorded games with chosen hands."""

from __future__ import annotations

import pytest

from rules_engine.actions import FaceDown, Pass, Pump, Stop
from rules_engine.cards import card
from rules_engine.errors import IllegalActionError
from rules_engine.types import Actor, Termination

from .helpers import P1, P2, combo, commit, draw, fight, recorded_game

HAND = "2C 3C 4C 5C 6C 7C 8C"


def test_both_players_commit_at_once__C1_GEN_5() -> None:
    g = recorded_game(HAND, HAND)
    assert g.turn == 1 and g.step == "C1"
    assert g.actor is Actor.SIMULTANEOUS
    g.apply(P2, commit("5C", "block"))
    assert g.actor is P1


def test_card_not_in_hand_is_rejected_with_position__C1() -> None:
    g = recorded_game(HAND, HAND)
    with pytest.raises(IllegalActionError) as err:
        g.apply(P1, commit("9H", "throw"))
    e = err.value
    assert (e.rule_id, e.player, e.position.turn, e.position.step) == ("C1", P1, 1, "C1")
    assert e.position.index == 15  # 14 draws and the coin flip came first
    assert "not in P1's hand" in e.reason


def test_wrong_orientation_is_rejected__GL_ORIENT() -> None:
    g = recorded_game(HAND, HAND)
    with pytest.raises(IllegalActionError) as err:
        g.apply(P1, commit("2C", "block"))
    assert err.value.rule_id == "GL-ORIENT"


def test_throw_beats_block_and_the_block_is_discarded__AR_THR_1_AR_THR_2_M_THROW_BLOCK() -> None:
    g = recorded_game(HAND, HAND)
    fight(g, commit("7C", "throw"), commit("5C", "block"))
    # C9: P2 lost to a Starter, so it may place a card (RW-CAN-3)
    assert g.step == "C9" and g.actor is P2
    g.apply(P2, Pass())
    g.apply(P1, Stop())
    assert g.life == (90, 83)
    assert card("5C") in g.state(P2).discard and card("5C") not in g.state(P2).hand
    assert g.turn == 2 and g.state(P2).knocked_down  # KD-1: a lone knockdown throw


def test_attack_beats_throw__AR_ATK_1_M_ATTACK_THROW() -> None:
    g = recorded_game(HAND, HAND)
    fight(g, commit("7C", "throw"), commit("6C", "attack"))
    # the normal-draw rule (C7): P2's normal attack won, P2 draws 1
    assert g.step == "C7" and g.actor is P2
    draw(g, P2, "9D")
    g.apply(P1, Pass())  # C9: P1 may place a card (RW-CAN-2)
    # no normal 7 attack in hand: the combo ends by itself (CB-11)
    assert g.life == (84, 90) and g.turn == 2


def test_faster_attack_wins__AR_ATK_1_M_ATTACK_ATTACK() -> None:
    g = recorded_game(HAND, HAND)
    fight(g, commit("3C", "attack"), commit("6C", "attack"))
    draw(g, P1, "9D")  # C7
    g.apply(P2, Pass())
    g.apply(P1, Stop())
    assert g.life == (90, 87)


def test_speed_tie_both_attacks_hit_no_combo__M_ATTACK_ATTACK_TIE_CB_8_OQ_05() -> None:
    g = recorded_game(HAND, HAND)
    fight(g, commit("4C", "attack"), commit("4C", "attack"))
    # no C7 draw, no C9/C10: straight to the next turn's draw phase
    assert g.life == (86, 86)
    assert g.turn == 2 and g.step == "T2"
    assert len(g.state(P1).hand) == 6


def test_throw_speed_tie_nobody_hits__AR_THR_1_M_THROW_THROW_TIE() -> None:
    g = recorded_game(HAND, HAND)
    fight(g, commit("7C", "throw"), commit("7C", "throw"))
    assert g.life == (90, 90)
    assert g.turn == 2


def test_block_beats_attack_draws_and_returns__AR_BLK_1_AR_BLK_2_C7_M_ATTACK_BLOCK() -> None:
    """C7 then C8: the blocked normal attack draws first, then the winning block draws (C8b)."""
    g = recorded_game(HAND, HAND, p2="jaina")
    fight(g, commit("5C", "block"), commit("2C", "attack"))
    # C7 first: the blocked normal attack draws for P2; then C8b: the block draws for P1
    assert g.actor is P2 and g.step == "C7"
    draw(g, P2, "KD")
    assert g.actor is P1 and g.step == "C8"
    draw(g, P1, "KD")
    g.apply(P1, Pass())  # Grave's innate: he may reveal a card after blocking an attack
    g.apply(P2, Pass())  # Jaina attacked: Burning Vigor may return her 2 (she declines)
    assert card("5C") in g.state(P1).hand  # returned at C13c (CF-15 default)
    assert g.life == (90, 85)


def test_block_damage_is_dealt_to_the_blocker__AR_BLK_3_TV_RW_09() -> None:
    # Jaina's red normal 4 has block damage 3 (jaina.md)
    g = recorded_game("2C 3C 4H 5C 6C 7C 8C", HAND, p1="jaina")
    fight(g, commit("4H", "attack"), commit("5C", "block"))
    draw(g, P1, "9D")  # C7: blocked normal attack draws
    draw(g, P2, "9D")  # C8b: the block draws
    g.apply(P2, Pass())  # Grave's innate (Knowing the Opponent): no reveal
    g.apply(P1, Pass())  # Jaina's Burning Vigor: no return
    # no C9 window for the loser of a block (RW-CANNOT-1): turn 2 already
    assert g.life == (85, 87)
    assert g.turn == 2


def test_dodge_beats_attack_then_hit_back_becomes_ender__AR_DGE_1_CB_7_TV_CB_15() -> None:
    g = recorded_game(HAND, HAND)
    fight(g, commit("2C", "dodge"), commit("6C", "attack"))
    g.apply(P2, Pass())  # C9: losing to a dodge allows Rewind (RW-CAN-1)
    g.apply(P1, combo("3C"))  # the hit-back
    # nothing may follow a hit-back: the engine ended the combo
    assert g.turn == 2
    assert g.life == (90, 87)
    assert card("2C") in g.state(P1).discard  # a dodge is always discarded


def test_hit_back_cannot_be_followed__CB_7_TV_CB_15() -> None:
    g = recorded_game("2C 3C 4C 5C 6C 7C 7D", HAND)
    fight(g, commit("2C", "dodge"), commit("6C", "attack"))
    g.apply(P2, Pass())
    g.apply(P1, combo("7C", "throw"))  # a Starter as hit-back: it becomes an Ender
    assert g.turn == 2  # the combo was over at once


def test_no_card_loses_to_an_attack__NC_1_NC_3_M_ATTACK_NOCARD() -> None:
    g = recorded_game(HAND, HAND)
    fight(g, commit("6C", "attack"), commit(None))
    draw(g, P1, "9D")
    g.apply(P2, Pass())
    assert g.life == (90, 84) and g.turn == 2


def test_both_no_card_nothing_happens__NC_5_M_NOCARD_NOCARD() -> None:
    g = recorded_game(HAND, HAND)
    fight(g, commit(None), commit(None))
    assert g.life == (90, 90) and g.turn == 2


def test_block_vs_no_card_draws__NC_3_M_BLOCK_NOCARD() -> None:
    g = recorded_game(HAND, HAND)
    fight(g, commit("5C", "block"), commit(None))
    draw(g, P1, "9D")
    assert g.turn == 2 and card("5C") in g.state(P1).hand


def test_gold_burst_beats_attack_and_searches_two_aces__AR_JKR_1_M_ATTACK_JOKER() -> None:
    g = recorded_game("X1 3C 4C 5C 6C 7C 8C", HAND)
    fight(g, commit("X1"), commit("6C", "attack"))
    # C8a: ACE-SEARCH(2): no Ace in the discard pile, take 2 from the deck
    assert g.actor is P1 and g.step == "C8"
    from rules_engine.actions import Search
    with pytest.raises(IllegalActionError) as err:
        g.apply(P1, Search((), (card("AH"), card("AS"), card("AD"))))
    assert err.value.rule_id == "PU-5"
    g.apply(P1, Search((), (card("AH"), card("AS"))))
    assert g.life == (90, 90)
    assert g.step == "P2" and g.actor is P1  # a pair of Aces: Power Up is a choice now
    assert {card("AH"), card("AS")} <= set(g.state(P1).hand)
    assert g.totals(P1).jokers["gold_burst"] == 1


def test_block_beats_gold_burst__M_BLOCK_JOKER() -> None:
    g = recorded_game(HAND, "X1 3C 4C 5C 6C 7C 8C")
    fight(g, commit("5C", "block"), commit("X1"))
    draw(g, P1, "9D")
    assert g.turn == 2 and g.life == (90, 90)


def test_gold_burst_mirror_both_search__M_JOKER_JOKER_CF_10() -> None:
    from rules_engine.actions import Search
    g = recorded_game("X1 3C 4C 5C 6C 7C 8C", "X1 3C 4C 5C 6C 7C 8C")
    fight(g, commit("X1"), commit("X1"))
    g.apply(P1, Search((), (card("AH"), card("AS"))))
    g.apply(P2, Search((), (card("AH"), card("AS"))))
    assert g.step == "P2"


def test_dodge_vs_dodge_and_block_vs_dodge_tie__CF_11_M_DODGE_DODGE_M_BLOCK_DODGE() -> None:
    g = recorded_game(HAND, HAND)
    fight(g, commit("2C", "dodge"), commit("3C", "dodge"))
    assert g.turn == 2
    draw(g, P1, "9D")
    draw(g, P2, "9D")
    g.apply(P1, Pass())  # T3: both hold Martial Mastery (7C); both pass (INI-5)
    g.apply(P2, Pass())
    fight(g, commit("5C", "block"), commit("4C", "dodge"))
    assert g.turn == 3
    assert card("5C") in g.state(P1).hand


def test_block_vs_block_both_return__M_BLOCK_BLOCK() -> None:
    g = recorded_game(HAND, HAND)
    fight(g, commit("5C", "block"), commit("6C", "block"))
    assert g.turn == 2
    assert card("5C") in g.state(P1).hand and card("6C") in g.state(P2).hand


def test_pump_costs_no_points_and_deals_damage_at_c12__PM_1_PM_2_PM_6() -> None:
    # Grave's Whirlwind (K): +7 per extra King, max 1
    g = recorded_game("KC KD 3C 4C 5C 6C 7C", HAND)
    fight(g, commit("KC", "attack"), commit("2C", "attack"))
    g.apply(P2, Pass())
    g.apply(P1, Pump(0, (card("KD"),)))
    g.apply(P1, Stop())
    assert g.life == (90, 90 - 7 - 7)


def test_pump_limit_is_enforced__PM_1() -> None:
    g = recorded_game("KC KD KH 4C 5C 6C 7C", HAND)
    fight(g, commit("KC", "attack"), commit("2C", "attack"))
    g.apply(P2, Pass())
    with pytest.raises(IllegalActionError) as err:
        g.apply(P1, Pump(0, (card("KD"), card("KH"))))
    assert err.value.rule_id == "PM-1"


def test_ko_ends_the_game_at_once__END_1_END_2() -> None:
    g = recorded_game(HAND, HAND)
    g.state(P2).life = 5
    fight(g, commit("6C", "attack"), commit(None))
    draw(g, P1, "9D")
    assert g.is_over
    assert g.outcome is not None
    assert (g.outcome.termination, g.outcome.winner) == (Termination.KO, P1)


def test_double_ko_is_a_draw__END_3_END_R2_CF_23() -> None:
    g = recorded_game(HAND, HAND)
    g.state(P1).life = 4
    g.state(P2).life = 4
    fight(g, commit("4C", "attack"), commit("4C", "attack"))
    assert g.outcome is not None
    assert (g.outcome.termination, g.outcome.winner) == (Termination.DOUBLE_KO, None)


def test_rewind_joker_prevents_combo_damage_and_draws_two__RW_6_RW_8_TV_RW_03() -> None:
    g = recorded_game("2C 3C AH AD AS 4C 5C", "X1 3D 4D 5D 6D 7D 8D")
    fight(g, commit("2C", "attack"), commit(None))
    draw(g, P1, "9D")  # C7
    g.apply(P2, FaceDown(card("X1")))
    g.apply(P1, combo("AH", "attack", "True Power of Storms", aces="AD AS"))
    # C11: the Joker prevented 45: P2 draws 2
    assert g.actor is P2 and g.step == "C11"
    draw(g, P2, "9C")
    draw(g, P2, "9H")
    assert g.life == (90, 88)
    assert g.totals(P2).jokers["rewind_prevented_damage"] == 45
