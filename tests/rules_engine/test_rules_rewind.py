"""Rewind Time and bluffs (RULES.md §6): the CAN/CANNOT table and vectors TV-RW-01..09."""

from __future__ import annotations

import pytest

from rules_engine import combat as cb
from rules_engine.actions import FaceDown, NoCard, Pass, Pump, Stop
from rules_engine.cards import MoveType, card, character
from rules_engine.game import Game
from rules_engine.ruleset import RewindDraw, Ruleset

from .helpers import P1, P2, cards, combo, commit, draw, fight, recorded_game, with_move

JOKER_HAND = "X1 7D 3D 4D 5D 6D 8D"


def test_rewind_eligibility_table__RW_4_RW_CAN_1_RW_CAN_2_RW_CAN_3_RW_CAN_4_OQ_03_CF_07() -> None:
    grave, jaina = character("grave"), character("jaina")
    normal = grave.moves_of(card("3C"))[0]
    starter = grave.moves_of(card("8C"))[0]
    linker = grave.moves_of(card("KC"))[0]
    knee_bash = jaina.find_move(card("6C"), MoveType.THROW, None)  # Can't Combo, pumpable
    assert cb.rewind_allowed(cb.DODGE, None) == (True, "RW-CAN-1")
    assert cb.rewind_allowed(cb.ATTACK, normal) == (True, "RW-CAN-2")
    assert cb.rewind_allowed(cb.THROW, starter) == (True, "RW-CAN-3")
    assert cb.rewind_allowed(cb.ATTACK, linker) == (True, "RW-CAN-3")
    assert cb.rewind_allowed(cb.THROW, knee_bash) == (True, "RW-CAN-4")


def test_rewind_not_allowed__RW_CANNOT_1_RW_CANNOT_2_RW_CANNOT_3_RW_CANNOT_4_RW_CANNOT_5() -> None:
    dragonheart = character("grave").moves_of(card("QC"))[0]
    assert cb.rewind_allowed(cb.BLOCK, None) == (False, "RW-CANNOT-1")
    assert cb.rewind_allowed(cb.JOKER, None) == (False, "RW-CANNOT-2")
    assert cb.rewind_allowed(cb.ATTACK, dragonheart) == (False, "RW-CANNOT-3")
    # ties have no loser at all: no C9 step (RW-CANNOT-4); a throw tie hits nobody (-5)
    g = recorded_game("8C 2C 3C 4C 5C 6C KC", JOKER_HAND)
    fight(g, commit("8C", "throw"), commit("8D", "throw"))
    assert g.turn == 2 and g.life == (90, 90)


def test_winning_ace_damage_is_never_preventable__TV_RW_01_RW_6() -> None:
    # True Power of Storms as the combat card: Ender, no pump: no window at all
    g = recorded_game("AH AD AS 2C 3C 4C 5C", JOKER_HAND)
    fight(g, commit("AH", "attack", "True Power of Storms"), commit("6D", "attack"))
    assert g.life == (90, 45) and g.turn == 2  # no C9 decision for P2, Joker still in hand
    assert card("X1") in g.state(P2).hand


def test_rewind_stops_a_hit_back__TV_RW_02_RW_CAN_1_RW_8() -> None:
    """C11: the face-down Joker is revealed after the hit-back and prevents its damage."""
    g = recorded_game("2C AH AD AS 4C 5C 6C", JOKER_HAND)
    fight(g, commit("2C", "dodge"), commit("6D", "attack"))
    g.apply(P2, FaceDown(card("X1")))
    g.apply(P1, combo("AH", name="True Power of Storms", aces="AD AS"))
    draw(g, P2, "9D")
    draw(g, P2, "9C")
    assert g.life == (90, 90)
    assert g.totals(P2).jokers["rewind_prevented_damage"] == 45


def test_rewind_with_nothing_prevented_draws_nothing__TV_RW_04_RW_8_RW_5() -> None:
    g = recorded_game("2C 3C 4C 5C 6C 8C 9C", JOKER_HAND)
    fight(g, commit("2C", "attack"), NoCard())
    draw(g, P1, "TH")
    g.apply(P2, FaceDown(card("X1")))
    g.apply(P1, Stop())
    assert g.turn == 2 and g.life == (90, 88)
    assert card("X1") in g.state(P2).discard
    assert len(g.state(P2).hand) == 6  # no Rewind draw


def test_bluff_has_no_effect__TV_RW_05_RW_9_RW_3_GL_REWIND() -> None:
    g = recorded_game("2C 3C 4C 5C 6C 8C 9C", JOKER_HAND)
    fight(g, commit("2C", "attack"), NoCard())
    draw(g, P1, "9H")
    g.apply(P2, FaceDown(card("7D")))
    g.apply(P1, combo("3C"))
    g.apply(P1, combo("4C"))
    g.apply(P1, combo("5C"))
    assert g.life == (90, 90 - 14)
    assert card("7D") in g.state(P2).discard and g.totals(P2).bluffs == 1


def test_rewind_keeps_knockdown_and_chain__TV_RW_06_RW_7_KD_2_CH_5() -> None:
    # synthetic: a Grave whose normal 5 has the knockdown icon (the vector assumes one)
    grave5 = with_move("grave", "5", knockdown=True)
    g = Game(grave5, character("grave"))  # type: ignore[arg-type]
    from rules_engine.actions import Draw, WinInitiative
    for c in cards("3C 4C 5C 6C 8C 9C KC"):
        g.apply(P1, Draw(c))
    for c in cards(JOKER_HAND):
        g.apply(P2, Draw(c))
    g.apply(P1, WinInitiative())
    fight(g, commit("3C", "attack"), NoCard())
    draw(g, P1, "9H")
    g.apply(P2, FaceDown(card("X1")))
    g.apply(P1, combo("4C"))
    g.apply(P1, combo("5C"))
    g.apply(P1, Stop())
    draw(g, P2, "9D")
    draw(g, P2, "9S")
    assert g.life == (90, 87)  # only the 3's damage
    assert g.state(P1).chains == [3]  # the chain Ace right stands
    assert g.state(P2).knockdown_next  # and the knockdown


def test_rewind_prevents_pumps_of_a_pumpable_ender__TV_RW_07_PM_6_OQ_29() -> None:
    # Vendetta's Tumbling Strike (J): Ender, +4 per card, up to 3 any (no 8 in hand: no
    # Acrobatics decision at C4)
    g = recorded_game("JC 2C 3C 4C 5C 6C 9C", JOKER_HAND, p1="vendetta")
    fight(g, commit("JC", "attack"), NoCard())
    g.apply(P2, FaceDown(card("X1")))
    g.apply(P1, Pump(0, cards("2C")))
    g.apply(P1, Pump(0, cards("3C")))
    g.apply(P1, Stop())
    draw(g, P2, "9D")
    draw(g, P2, "9S")
    assert g.life == (75, 90 - 8)  # base damage dealt at C8; both pumps prevented


def test_non_pumpable_ender_no_window__TV_RW_08_RW_CANNOT_3() -> None:
    g = recorded_game("QC 2C 3C 4C 5C 6C 8C", JOKER_HAND)
    fight(g, commit("QC", "attack"), NoCard())
    assert g.turn == 2 and g.life == (90, 80)


def test_loser_of_a_block_has_no_window__TV_RW_09_RW_CANNOT_1_AR_BLK_3() -> None:
    g = recorded_game("5C 2C 3C 4C 6C 8C 9C", "KD 2D 3D 4D 5D 6D 8D")
    fight(g, commit("5C", "block"), commit("KD", "attack"))
    draw(g, P1, "TH")
    g.apply(P1, Pass())  # Grave's innate
    assert g.turn == 2 and g.life == (89, 90)


def test_rewind_draw_options__CF_05_RW_8() -> None:
    g = recorded_game("2C 3C 4C 5C 6C 8C 9C", JOKER_HAND,
                      ruleset=Ruleset(rewindDraw=RewindDraw.ALWAYS))
    fight(g, commit("2C", "attack"), NoCard())
    draw(g, P1, "9H")
    g.apply(P2, FaceDown(card("X1")))
    g.apply(P1, Stop())
    draw(g, P2, "9D")  # ALWAYS: the draw comes even though nothing was prevented
    draw(g, P2, "9S")
    assert len(g.state(P2).hand) == 8


def test_rewind_draw_may__CF_05() -> None:
    g = recorded_game("2C 3C 4C 5C 6C 8C 9C", JOKER_HAND,
                      ruleset=Ruleset(rewindDraw=RewindDraw.IF_PREVENTED_MAY))
    fight(g, commit("2C", "attack"), NoCard())
    draw(g, P1, "9H")
    g.apply(P2, FaceDown(card("X1")))
    g.apply(P1, combo("3C"))
    g.apply(P1, Stop())
    g.apply(P2, Pass())  # declines the draw
    assert len(g.state(P2).hand) == 6 and g.life[1] == 88


def test_no_card_player_may_rewind_and_only_one_card__RW_12_NC_4_RW_15_RW_1_RW_2() -> None:
    g = recorded_game("2C 3C 4C 5C 6C 8C 9C", JOKER_HAND)
    fight(g, commit("2C", "attack"), NoCard())
    draw(g, P1, "9H")
    assert g.step == "C9" and g.actor is P2  # after the C7 draw and C8 damage
    assert g.life == (90, 88)
    g.apply(P2, FaceDown(card("X1")))
    assert g.actor is P1 and g.step == "C10"  # a single card per window


def test_rewind_card_is_not_a_gold_burst__RW_11_RW_10() -> None:
    g = recorded_game("2C 3C 4C 5C 6C 8C 9C", JOKER_HAND)
    fight(g, commit("2C", "attack"), NoCard())
    draw(g, P1, "TH")
    g.apply(P2, FaceDown(card("X1")))
    g.apply(P1, combo("3C"))
    g.apply(P1, Stop())
    draw(g, P2, "KS")
    draw(g, P2, "QS")
    assert g.totals(P2).jokers["gold_burst"] == 0 and g.totals(P2).jokers["rewind"] == 1
    assert g.turn == 2  # C12 skipped after the Joker: the 3 never dealt damage
    assert g.life == (90, 88)


@pytest.mark.parametrize("hand", ["2C 3C 4C 5C 6C 8C 9C"])
def test_face_down_card_must_be_in_hand__RW_3(hand: str) -> None:
    from rules_engine.errors import IllegalActionError
    g = recorded_game(hand, JOKER_HAND)
    fight(g, commit("2C", "attack"), NoCard())
    draw(g, P1, "9H")
    with pytest.raises(IllegalActionError) as err:
        g.apply(P2, FaceDown(card("X2")))
    assert (err.value.rule_id, err.value.player, err.value.position.step) == ("RW-3", P2, "C9")
