"""Grave (rules/characters/grave.md): innate, Martial Mastery, Mental Toughness, Lightning Trap.

Each test names the ruling it checks; the 2014 card text wins over the first-edition FAQ
(RULES.md §10.5)."""

from __future__ import annotations

import pytest

from rules_engine.actions import Discard, Pass, Search, UseAbility
from rules_engine.cards import card
from rules_engine.characters import abilities_implemented
from rules_engine.errors import IllegalActionError

from .helpers import P1, P2, commit, draw, fight, finish_turn, recorded_game

GRAVE = "2C 3C 4C 5C 6C 7C 8C"
PLAIN = "2D 3D 4D 5D 6D 8D 9D"  # no 7, no 10: nothing for Grave P2 to play


def test_grave_and_jaina_are_complete_others_are_not() -> None:
    assert abilities_implemented("grave") and abilities_implemented("jaina")
    assert not abilities_implemented("no-such-character")


def _turn_two(hand1: str, hand2: str, d1: str, d2: str, **kw: object):  # type: ignore[no-untyped-def]
    g = recorded_game(hand1, hand2, **kw)  # type: ignore[arg-type]
    fight(g, commit(None), commit(None))
    draw(g, P1, d1)
    draw(g, P2, d2)
    return g


def test_martial_mastery_draws_two_then_discards_any_card__FR_GRAVE_1_WIN_DRAW() -> None:
    # given turn 2, Grave (P1) holds Martial Mastery (any 7)
    g = _turn_two(GRAVE, PLAIN, "KC", "KD")
    assert g.step == "T3" and g.actor is P1
    # when he plays it: draws 2, then discards a card that is not one of the two drawn
    g.apply(P1, UseAbility("Martial Mastery", card("7C")))
    draw(g, P1, "QC")
    draw(g, P1, "QD")
    g.apply(P1, Discard((card("2C"),)))
    # then the 7 and the 2 are discarded and both new cards are kept
    ps = g.state(P1)
    assert card("7C") in ps.discard and card("2C") in ps.discard
    assert {card("QC"), card("QD")} <= set(ps.hand)
    assert len(ps.hand) == 8


def test_no_draw_phase_ability_on_turn_1__T3_WIN_DRAW() -> None:
    g = recorded_game(GRAVE, PLAIN)
    assert g.step == "C1"
    with pytest.raises(IllegalActionError) as err:
        g.apply(P1, UseAbility("Martial Mastery", card("7C")))
    assert err.value.rule_id == "C1"


def test_mental_toughness_counters_martial_mastery__CTR_1_CTR_2_CTR_3() -> None:
    # given P1 Grave plays Martial Mastery; P2 Grave holds Mental Toughness (10) and a face card
    g = _turn_two(GRAVE, "2D 3D 4D 5D 6D TD JD", "KC", "KD")
    g.apply(P1, UseAbility("Martial Mastery", card("7C")))
    # when P2 counters (after the cost was paid, before it resolves)
    assert g.actor is P2
    g.apply(P2, UseAbility("Mental Toughness", card("TD"), (card("JD"),)))
    # then Martial Mastery does nothing: no draw; its card stays discarded
    assert card("7C") in g.state(P1).discard
    assert len(g.state(P1).hand) == 7
    assert {card("TD"), card("JD")} <= set(g.state(P2).discard)


def test_a_countered_counter_is_undone_and_refunded__OQ_13_CTR_3() -> None:
    g = _turn_two("2C 3C 4C 5C 7C TC QC", "2D 3D 4D 5D 6D TD JD", "KC", "KD")
    g.apply(P1, UseAbility("Martial Mastery", card("7C")))
    g.apply(P2, UseAbility("Mental Toughness", card("TD"), (card("JD"),)))
    # P1 counters the counter with his own Mental Toughness (paying the Queen)
    g.apply(P1, UseAbility("Mental Toughness", card("TC"), (card("QC"),)))
    # P2's counter is undone: its Jack returns to hand (the 10 stays discarded)
    assert card("JD") in g.state(P2).hand and card("TD") in g.state(P2).discard
    # and Martial Mastery resolves: P1 draws two
    draw(g, P1, "9C")
    draw(g, P1, "9H")
    g.apply(P1, Discard((card("2C"),)))
    assert card("9C") in g.state(P1).hand


def test_mental_toughness_needs_a_face_card__CTR_1() -> None:
    g = _turn_two(GRAVE, "2D 3D 4D 5D 6D TD JD", "KC", "KD")
    g.apply(P1, UseAbility("Martial Mastery", card("7C")))
    with pytest.raises(IllegalActionError) as err:
        g.apply(P2, UseAbility("Mental Toughness", card("TD"), (card("2D"),)))
    assert (err.value.rule_id, err.value.player) == ("CTR-1", P2)


def _block_and_reveal(reveal: str):  # type: ignore[no-untyped-def]
    g = recorded_game(GRAVE, PLAIN)
    fight(g, commit("5C", "block"), commit("2D", "attack"))
    draw(g, P2, "KH")  # C7: the blocked normal attack draws
    draw(g, P1, "KS")  # C8b: first the block draw ...
    g.apply(P1, UseAbility("Knowing the Opponent", card(reveal)))  # ... then the reveal
    return g


def test_innate_reveal_comes_after_the_block_draw_and_not_the_block_card__FR_GRAVE_2() -> None:
    g = recorded_game(GRAVE, PLAIN)
    fight(g, commit("5C", "block"), commit("2D", "attack"))
    draw(g, P2, "KH")
    assert (g.actor, g.step) == (P1, "C8")  # the block draw comes before any reveal
    draw(g, P1, "KS")
    with pytest.raises(IllegalActionError) as err:
        g.apply(P1, UseAbility("Knowing the Opponent", card("5C")))
    assert err.value.rule_id == "FR-GRAVE-2"


def test_innate_next_turn_win_with_revealed_card_searches_a_queen__FR_GRAVE_2_AB_1() -> None:
    # given Grave revealed his 8 after blocking
    g = _block_and_reveal("8C")
    draw(g, P1, "2H")  # turn 2 draws (P1 has initiative: equal life, coin flip)
    draw(g, P2, "9S")
    g.apply(P1, Pass())  # Martial Mastery window
    # when he combat-reveals the 8 throw and it beats a block
    fight(g, commit("8C", "throw"), commit("5D", "block"))
    # then, as soon as the winner is known (before the loser's Rewind window), he takes a Queen
    assert g.step == "C6" and g.actor is P1
    g.apply(P1, Search((), (card("QH"),)))
    assert card("QH") in g.state(P1).hand
    assert g.step == "C9"


def test_innate_next_turn_not_winning_draws_a_card__FR_GRAVE_2() -> None:
    g = _block_and_reveal("8C")
    draw(g, P1, "2H")
    draw(g, P2, "9S")
    g.apply(P1, Pass())
    # the revealed 8 throw loses to an attack
    fight(g, commit("8C", "throw"), commit("3D", "attack"))
    assert g.step == "C6" and g.actor is P1
    draw(g, P1, "JH")  # the innate draw comes before the C7 normal draw
    assert card("JH") in g.state(P1).hand
    assert g.step == "C7"


def test_innate_is_not_countered_under_the_2014_text__CTR_8_GL_ABILITY() -> None:
    """CTR-8: Mental Toughness "can't counter character cards" (the first-edition reading, where
    Smoke Bomb may counter the reveal, is tested in test_counter_policy)."""
    # given P2 holds Mental Toughness; Grave P1 blocks and reveals: no reaction is offered
    g = recorded_game(GRAVE, "2D 3D 4D 5D 6D TD JD")
    fight(g, commit("5C", "block"), commit("2D", "attack"))
    draw(g, P2, "KH")
    draw(g, P1, "KS")
    g.apply(P1, UseAbility("Knowing the Opponent", card("8C")))
    assert g.turn == 2 and g.step == "T2"


def test_no_lightning_trap_when_the_block_takes_no_block_damage() -> None:
    """grave.md, Lightning Trap: "When you *deal* block damage with this card". Gwen's Gloria's
    Remedy takes no block damage (gwen.md), so Lightning Cloud deals none: the Jack is not
    returned, it is discarded at the end of combat like any blocked attack."""
    g = recorded_game("JC 3C 4C 5C 6C 7C 8C", "TD 2D 3D 4D 5D 6D 8D", p2="gwen")
    fight(g, commit("JC", "attack"), commit("TD", "block"))
    assert g.life == (90, 85)  # no block damage taken
    finish_turn(g, 1)
    grave = g.state(P1)
    assert card("JC") not in grave.hand and card("JC") in grave.discard


def test_lightning_trap_returns_the_jack_and_stops_the_block_draw() -> None:
    """GEN-1: card text (Lightning Trap) beats the rule that a winning block draws (AR-BLK-1)."""
    # given Grave's Lightning Cloud (J) is blocked by Jaina
    g = recorded_game("JC 3C 4C 5C 6C 7C 8C", "7D 2D 3D 4D 5D 6D QD", p2="jaina")
    fight(g, commit("JC", "attack"), commit("7D", "block"))
    # then: no block draw for Jaina, 3 block damage to her, and the Jack returns to Grave
    assert g.life == (90, 82)
    assert card("JC") in g.state(P1).hand
    assert len(g.state(P2).hand) == 7  # 6 + the returned block, and no block draw
    assert card("7D") in g.state(P2).hand
