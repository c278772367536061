"""Argagarg (docs/rules/characters/argagarg.md): Hex of Murkwood, Protective Ward, Crash and
Flow, Bubble Shield, and the decisions of argagarg.md's "Engine rulings"."""

from __future__ import annotations

import pytest

from rules_engine.actions import FaceDown, Pass, UseAbility
from rules_engine.bots import GreedyBot
from rules_engine.cards import card, characters
from rules_engine.errors import RuleViolation
from rules_engine.game import Game
from rules_engine.journal import ComboEnded, DamageDealt
from rules_engine.ruleset import ProtectiveWard, Ruleset

from . import helpers
from .helpers import P1, P2, combo, commit, draw, fight, finish_turn, illegal_rule, recorded_game

PLAIN = "2D 3D 4D 5D 6D 8D 9D"  # Grave with nothing to play outside combat
WARD = "Protective Ward"
CRASH = "Crash and Flow"


def _hex(g: Game, turn: int) -> list[int]:
    return [e.amount for e in g.journal.of(DamageDealt)
            if e.turn == turn and e.step == "K1" and e.kind == "ability"]


# --- Hex of Murkwood (innate) ---------------------------------------------------------------
def test_hex_deals_2_at_the_end_of_a_turn_he_was_not_knocked_down__WIN_ENDTURN_OQ_24() -> None:
    g = recorded_game("2C 3C 4C 5C 6C 8C 9C", PLAIN, p1="argagarg", p2="grave")
    fight(g, commit(None), commit(None))
    assert _hex(g, 1) == [2] and g.life == (85, 88)


def test_no_hex_after_being_knocked_down_this_turn__KD_1() -> None:
    # Grave's knockdown throw beats Argagarg's block: knocked down at C13a of this turn
    g = recorded_game("2C 3C 4C 5C 6C 8C 9C", PLAIN, p1="argagarg", p2="grave")
    fight(g, commit("5C", "block"), commit("8D", "throw"))
    g.apply(P1, Pass())  # C9: no Rewind card
    finish_turn(g, 1)
    assert g.state(P1).knocked_down and _hex(g, 1) == []
    # the next turn he began knocked down (KD-3): no Hex either
    draw(g, P1, "TC")
    draw(g, P2, "TS")
    fight(g, commit(None), commit(None))
    assert _hex(g, 2) == []
    # the turn after, standing: the Hex is back
    draw(g, P1, "JC")
    draw(g, P2, "JS")
    fight(g, commit(None), commit(None))
    assert _hex(g, 3) == [2]


# --- Protective Ward (7) ----------------------------------------------------------------------
def test_ward_draws_and_makes_the_opponents_attack_an_ender__RW_4_CB_5() -> None:
    # Argagarg's throw loses to Grave's normal attack; without the ward Grave could combo and
    # Argagarg could place a Rewind card (RW-CAN-2)
    g = recorded_game("7C 8C 2C 3C 4C 5C 6C", PLAIN, p1="argagarg", p2="grave")
    fight(g, commit("8C", "throw"), commit("5D", "attack"))
    g.apply(P1, UseAbility(WARD, card("7C")))
    draw(g, P1, "KC")  # the ward's draw
    assert card("KC") in g.state(P1).hand and card("7C") in g.state(P1).discard
    draw(g, P2, "KS")  # C7: Grave's normal attack won
    # no Rewind window (an Ender without a pump: RW-CANNOT-3) and no combo move: the 6D that
    # would follow a normal 5 is not offered
    rec = next(g.journal.of(ComboEnded)).record
    assert rec.cards == ["5D"] and g.life[0] == 85 - 5


def test_without_the_ward_the_same_combat_allows_rewind_and_combo__RW_CAN_2() -> None:
    g = recorded_game("7C 8C 2C 3C 4C 5C 6C", PLAIN, p1="argagarg", p2="grave")
    fight(g, commit("8C", "throw"), commit("5D", "attack"))
    g.apply(P1, Pass())
    draw(g, P2, "KS")
    assert g.step == "C9" and g.actor is P1
    g.apply(P1, Pass())
    g.apply(P2, combo("6D"))
    assert g.state(P2).combo_points_spent == 2


def test_ward_stops_pumps__PM_1() -> None:
    # Grave's Whirlwind (a pumpable Linker) beats Argagarg's throw
    g = recorded_game("7C 8C 2C 3C 4C 5C 6C", "KD KH 2D 3D 4D 5D 6D", p1="argagarg",
                      p2="grave")
    fight(g, commit("8C", "throw"), commit("KD", "attack"))
    g.apply(P1, UseAbility(WARD, card("7C")))
    draw(g, P1, "KC")
    # no Rewind window, no pump, no combo move: the turn ran to its end by itself
    assert g.turn == 2 and next(g.journal.of(ComboEnded)).record.cards == ["KD"]
    assert card("KH") in g.state(P2).hand and g.life[0] == 85 - 7


def test_ward_lasts_the_turn_only__K3() -> None:
    g = recorded_game("7C 8C 2C 3C 4C 5C 6C", PLAIN, p1="argagarg", p2="grave")
    fight(g, commit("8C", "throw"), commit("5D", "attack"))
    g.apply(P1, UseAbility(WARD, card("7C")))
    draw(g, P1, "KC")
    draw(g, P2, "KS")
    finish_turn(g, 1)
    draw(g, P1, "TC")
    draw(g, P2, "TS")
    fight(g, commit("2C", "attack"), commit("3D", "attack"))
    draw(g, P1, "JC")  # C7: Argagarg's faster normal attack won
    g.apply(P2, Pass())  # Grave may Rewind again
    g.apply(P1, combo("3C"))  # and the combo goes on
    assert g.state(P1).combo_points_spent == 2


def test_ward_illegal_uses__WIN_REVEAL_AB_2() -> None:
    g = recorded_game("7C 8C 2C 3C 4C 5C 6C", PLAIN, p1="argagarg", p2="grave")
    fight(g, commit("8C", "throw"), commit("5D", "attack"))
    assert illegal_rule(g, P1, UseAbility(WARD, card("8C"))) == "AB-2"
    assert illegal_rule(g, P1, UseAbility(WARD, card("7D"))) == "AB-2"
    assert illegal_rule(g, P1, UseAbility(WARD, card("7C"), option="x")) == "AB-2"
    with pytest.raises(RuleViolation) as err:
        g.rules[P1].check(g, g.state(P1), "draw_phase", UseAbility(WARD, card("7C")))
    assert err.value.rule_id == "WIN-REVEAL"


def test_ward_in_the_draw_phase_under_the_option__WIN_DRAW() -> None:
    rs = Ruleset(protectiveWard=ProtectiveWard.DRAW_PHASE)
    g = recorded_game("7C 8C 2C 3C 4C 5C 6C", PLAIN, p1="argagarg", p2="grave", ruleset=rs)
    fight(g, commit("8C", "throw"), commit("5D", "block"))  # no Combat Reveal window now
    g.apply(P2, Pass())  # Grave's Rewind window (the throw won)
    finish_turn(g, 1)
    draw(g, P2, "TS")  # Grave (82 after the throw and the Hex) has initiative
    draw(g, P1, "TC")
    assert g.step == "T3"
    g.apply(P1, UseAbility(WARD, card("7C")))
    draw(g, P1, "KC")
    with pytest.raises(RuleViolation) as err:
        g.rules[P1].check(g, g.state(P1), "combat_reveal", UseAbility(WARD, card("7C")))
    assert err.value.rule_id == "WIN-DRAW"


def test_countered_ward_draws_nothing__CTR_3() -> None:
    g = recorded_game("7C 8C 2C 3C 4C 5C 6C", "2D 3D 4D 5D TD QD 9D", p1="argagarg",
                      p2="grave")
    fight(g, commit("8C", "throw"), commit("5D", "attack"))
    g.apply(P1, UseAbility(WARD, card("7C")))
    g.apply(P2, UseAbility("Mental Toughness", card("TD"), (card("QD"),)))
    draw(g, P2, "KS")  # C7: no ward draw came first
    assert g.step == "C9" and g.actor is P1  # Rewind allowed: the ward did not resolve


# --- Crash and Flow (10, Reaction) --------------------------------------------------------------
def _grave_turn_two(arg_hand: str, grave_hand: str) -> Game:
    """Turn 1 both no-card (Hex: Grave 88); turn 2 after the draws, Grave... Argagarg (85) has
    initiative; at the draw-phase window."""
    g = recorded_game(arg_hand, grave_hand, p1="argagarg", p2="grave")
    fight(g, commit(None), commit(None))
    draw(g, P1, "JC")
    draw(g, P2, "JS")
    return g


def test_crash_and_flow_counters_draws_and_sends_the_card_to_the_deck_bottom__CTR_1_CTR_3() -> None:
    g = _grave_turn_two("TC 2C 3C 4C 5C 6C 8C", "7D 2D 3D 4D 5D 6D 8D")
    assert g.step == "T3" and g.actor is P2  # only Grave has something to play
    g.apply(P2, UseAbility("Martial Mastery", card("7D")))
    assert UseAbility(CRASH, card("TC")) in g.legal_actions(P1)
    g.apply(P1, UseAbility(CRASH, card("TC")))
    draw(g, P2, "KD")  # "that player draws a card"
    grave = g.state(P2)
    assert grave.deck[-1] is card("7D") and card("7D") not in grave.discard
    assert card("TC") in g.state(P1).discard
    # Martial Mastery never resolved: no two draws, no discard; combat is next
    assert g.step == "C1" and len(grave.hand) == 7 + 1 + 1 - 1


def test_crash_and_flow_illegal_uses__CTR_1_CTR_2() -> None:
    g = _grave_turn_two("TC 2C 3C 4C 5C 6C 8C", "7D 2D 3D 4D 5D 6D 8D")
    g.apply(P2, UseAbility("Martial Mastery", card("7D")))
    assert illegal_rule(g, P1, UseAbility(CRASH, card("TD"))) == "CTR-1"
    assert illegal_rule(g, P1, UseAbility(CRASH, card("8C"))) == "CTR-1"
    assert illegal_rule(g, P1, UseAbility(WARD, card("TC"))) == "CTR-2"


def test_a_countered_crash_and_flow_is_undone__OQ_13_CTR_3() -> None:
    # Argagarg's ward; Grave counters it; Argagarg counters the counter with Crash and Flow:
    # Grave's face card comes back, Grave draws, his 10 goes to his deck's bottom; the ward acts
    g = recorded_game("7C 8C TC 3C 4C 5C 6C", "2D 3D 4D 5D TD QD 9D", p1="argagarg",
                      p2="grave")
    fight(g, commit("8C", "throw"), commit("5D", "attack"))
    g.apply(P1, UseAbility(WARD, card("7C")))
    g.apply(P2, UseAbility("Mental Toughness", card("TD"), (card("QD"),)))
    g.apply(P1, UseAbility(CRASH, card("TC")))
    draw(g, P2, "KS")  # Grave draws (Crash and Flow)
    grave = g.state(P2)
    assert card("QD") in grave.hand and grave.deck[-1] is card("TD")
    draw(g, P1, "KC")  # the ward resolves: Argagarg draws
    draw(g, P2, "JS")  # C7: Grave's normal attack won
    assert next(g.journal.of(ComboEnded)).record.cards == ["5D"]  # warded: no Rewind, no combo


# --- Bubble Shield (A, block end) ---------------------------------------------------------------
def _shield_up() -> Game:
    """Turn 1: Argagarg's Ace block stops Grave's attack: the Shield is in play."""
    g = recorded_game("AC 2C 3C 4C 5C 6C 8C", PLAIN, p1="argagarg", p2="grave")
    fight(g, commit("AC", "block"), commit("5D", "attack"))
    draw(g, P1, "KC")  # the Shield's draw (C6)
    draw(g, P2, "KS")  # C7: Grave's blocked normal attack draws
    draw(g, P1, "QC")  # C8b: the block draw
    return g


def test_bubble_shield_draws_and_stays_in_play_and_boosts_hex__GEN_9() -> None:
    g = _shield_up()
    finish_turn(g, 1)
    arg = g.state(P1)
    assert [e.name for e in arg.ongoing] == ["Bubble Shield"] and arg.ongoing[0].card is card("AC")
    assert card("AC") not in arg.hand and card("AC") not in arg.discard
    assert {card("KC"), card("QC")} <= set(arg.hand)
    assert _hex(g, 1) == [4]
    assert g.public_view(P2)["players"]["P1"]["ongoing"][0]["card"] == "AC"  # public


def test_bubble_shield_absorbs_a_hit_and_ends_combat__AB_13() -> None:
    g = _shield_up()
    finish_turn(g, 1)
    draw(g, P1, "TC")
    draw(g, P2, "TS")
    life = g.life
    # turn 2: Grave's throw beats Argagarg's block: a hit; no damage, no combo, no knockdown
    fight(g, commit("5C", "block"), commit("8D", "throw"))
    arg = g.state(P1)
    assert arg.ongoing == [] and card("AC") in arg.discard
    assert g.step != "C10" and not list(g.journal.of(ComboEnded))
    finish_turn(g, 2)
    assert g.life[0] == life[0] and not g.state(P1).knocked_down
    assert _hex(g, 2) == [2]  # the Shield is gone


def test_bubble_shield_ignores_block_damage__AB_13() -> None:
    g = _shield_up()
    finish_turn(g, 1)
    draw(g, P1, "TC")
    draw(g, P2, "TS")
    # Grave's Whirlwind is blocked by Argagarg: its block damage is not a hit
    life = g.life[0]
    fight(g, commit("6C", "block"), commit("KS", "attack"))
    draw(g, P1, "9C")  # C8b: the block draw
    arg = g.state(P1)
    assert [e.name for e in arg.ongoing] == ["Bubble Shield"]
    assert arg.life == life - 1  # Whirlwind's block damage is taken (no hit, no protection)


def test_bubble_shield_against_a_joker__AR_1() -> None:
    g = recorded_game("AC 2C 3C 4C 5C 6C 8C", "X1 3D 4D 5D 6D 8D 9D", p1="argagarg",
                      p2="grave")
    fight(g, commit("AC", "block"), commit("X1"))
    draw(g, P1, "KC")
    assert [e.name for e in g.state(P1).ongoing] == ["Bubble Shield"]


def test_a_plain_block_keeps_its_card() -> None:
    """argagarg.md, Bubble Shield: only the Ace's block becomes Ongoing; a normal block returns
    (AR-BLK-2)."""
    g = recorded_game("AC 2C 3C 4C 5C 6C 8C", PLAIN, p1="argagarg", p2="grave")
    fight(g, commit("5C", "block"), commit("5D", "attack"))
    draw(g, P2, "KS")
    draw(g, P1, "QC")
    assert g.state(P1).ongoing == []


# --- bots and self-play -------------------------------------------------------------------------
def test_greedy_wards_against_attacks_and_counters() -> None:
    """Issue 12, bots: ArgagargRules' greedy heuristic (its class docstring)."""
    g = recorded_game("7C 8C 2C 3C 4C 5C 6C", PLAIN, p1="argagarg", p2="grave")
    fight(g, commit("8C", "throw"), commit("5D", "attack"))
    assert GreedyBot().choose(g, P1, g.legal_actions(P1)) == UseAbility(WARD, card("7C"))
    g2 = recorded_game("7C 8C 2C 3C 4C 5C 6C", PLAIN, p1="argagarg", p2="grave")
    fight(g2, commit("8C", "throw"), commit("5D", "block"))
    assert GreedyBot().choose(g2, P1, g2.legal_actions(P1)) == Pass()
    g3 = _grave_turn_two("TC 2C 3C 4C 5C 6C 8C", "7D 2D 3D 4D 5D 6D 8D")
    g3.apply(P2, UseAbility("Martial Mastery", card("7D")))
    assert GreedyBot().choose(g3, P1, g3.legal_actions(P1)) == UseAbility(CRASH, card("TC"))


@pytest.mark.parametrize("opponent", sorted(characters()))
def test_self_play_against_every_character_replays_legal(opponent: str) -> None:
    """Issue 12: Argagarg against each of the 20 (both seats, random and greedy bots)."""
    helpers.assert_self_play_replays_legal("argagarg", opponent, first_seed=11)



def test_crash_and_flow_sends_a_countered_ongoing_card_to_the_deck_bottom__CTR_3_CTR_4(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """An ongoing card countered as it is played (CTR-4: the only moment) leaves the ongoing
    area for its owner's deck bottom, not the discard pile (the test-only Tester character)."""
    from rules_engine import characters as chars

    from .tester_character import FORM, TesterRules

    monkeypatch.setitem(chars.IMPLEMENTED, "midori", TesterRules)
    g = recorded_game("2C 6C 7C 4C 5C 8C JC", "TD 2D 3D 4D 5D 6D 8D", p1="midori",
                      p2="argagarg")
    fight(g, commit(None), commit(None))  # the Hex: Midori loses 2
    draw(g, P2, "JS")  # Argagarg (85) has initiative
    draw(g, P1, "3C")
    g.apply(P1, UseAbility(FORM, card("2C")))
    g.apply(P2, UseAbility(CRASH, card("TD")))
    draw(g, P1, "9C")
    midori = g.state(P1)
    assert midori.ongoing == [] and card("2C") not in midori.discard
    assert midori.deck[-1] is card("2C")


def test_bubble_shield_absorbs_a_hit_back__CB_7() -> None:
    g = _shield_up()
    finish_turn(g, 1)
    draw(g, P1, "TC")
    draw(g, P2, "TS")
    life = g.life[0]
    # turn 2: Grave's dodge beats Argagarg's attack; he places a card face down; the hit-back
    # hits him: the Shield takes it, combat ends, the face-down card is discarded unrevealed
    fight(g, commit("2C", "attack"), commit("2D", "dodge"))
    g.apply(P1, FaceDown(card("3C")))
    g.apply(P2, combo("6D"))
    arg = g.state(P1)
    assert arg.ongoing == [] and card("3C") in arg.discard and arg.face_down is None
    finish_turn(g, 2)
    assert g.life[0] == life


def test_life_85_by_default_and_90_under_the_option__S_5_GEN_8() -> None:
    from rules_engine.ruleset import ArgagargLife

    g = recorded_game("2C 3C 4C 5C 6C 8C 9C", PLAIN, p1="argagarg", p2="grave")
    assert g.life == (85, 90)
    rs = Ruleset(argagargLife=ArgagargLife.LIFE_90)
    g90 = recorded_game("2C 3C 4C 5C 6C 8C 9C", PLAIN, p1="argagarg", p2="grave", ruleset=rs,
                        first=P1)
    assert g90.life == (90, 90) and g90.state(P1).character.life == 90  # the GEN-8 cap too
    # equal lives now: turn 1's initiative is the coin flip (INI-3), here P1's
    assert g90.initiative is P1
    from rules_engine.replay import replay
    from rules_engine.selfplay import play_game

    _, log = play_game("argagarg", "gwen", 3, ruleset=rs)  # type: ignore[arg-type]
    assert log.to_json()["ruleset"] == {"argagargLife": "LIFE_90"}
    assert replay(log.dumps()).status == "legal"
