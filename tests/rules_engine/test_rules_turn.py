"""Setup, turn structure, initiative, knockdowns, voids, Ace costs and the end of the game
(RULES.md §2, §3, §4.3, §9, §10.3), with the ruleset options that change them."""

from __future__ import annotations

import pytest

from rules_engine import combat as cb
from rules_engine.actions import (
    Draw,
    Keep,
    NoCard,
    Pass,
    PayAces,
    PowerUp,
    Stop,
    UseAbility,
    WinInitiative,
)
from rules_engine.cards import FULL_DECK, Rank, card, character
from rules_engine.errors import IllegalActionError
from rules_engine.game import Game
from rules_engine.ruleset import (
    BlockReturn,
    DoubleKO,
    FaceBlockParity,
    IllegalAce,
    JokerMirror,
    Jokers,
    OnOff,
    Ruleset,
    Timeout,
    VoidTiming,
)
from rules_engine.types import Actor, Termination

from .helpers import P1, P2, PLAIN, cards, combo, commit, draw, fight, recorded_game, won_combat


def test_setup_life_opening_hand_and_deck__S_1_S_2_S_3_S_4_S_5_GL_LIFE() -> None:
    g = Game(character("grave"), character("jaina"), seed=1)
    a, b = g.state(P1), g.state(P2)
    assert (a.life, b.life) == (90, 85)
    assert len(a.hand) == 7 and len(a.deck) == 47
    assert sorted(c.code for c in a.hand + a.deck) == sorted(c.code for c in FULL_DECK)


def test_lower_life_has_initiative_on_turn_1__S_6_INI_1() -> None:
    g = Game(character("grave"), character("jaina"), seed=1)
    assert g.initiative is P2  # Jaina 85 < Grave 90: no coin flip


def test_equal_lives_seeded_coin_flip__INI_3_GEN_4() -> None:
    firsts = {Game(character("grave"), character("grave"), seed=s).initiative for s in range(20)}
    assert firsts == {P1, P2}
    assert Game(character("grave"), character("grave"), seed=5).initiative == \
        Game(character("grave"), character("grave"), seed=5).initiative


def test_tabletop_coin_flip_is_an_event__INI_3_DP_12() -> None:
    g = Game(character("grave"), character("grave"))
    for c in cards("2C 3C 4C 5C 6C 8C 9C"):
        g.apply(P1, Draw(c))
    for c in cards(PLAIN):
        g.apply(P2, Draw(c))
    assert g.step == "S-6" and g.actor is Actor.SIMULTANEOUS
    g.apply(P2, WinInitiative())
    assert g.initiative is P2 and g.step == "C1"


def test_recorded_draw_must_come_from_the_deck__GEN_6_S_5() -> None:
    g = Game(character("grave"), character("grave"))
    g.apply(P1, Draw(card("2C")))
    with pytest.raises(IllegalActionError) as err:
        g.apply(P1, Draw(card("2C")))
    assert err.value.rule_id == "GEN-6" and err.value.position.step == "S-5"


def test_equal_life_keeps_the_previous_holder__INI_2_CF_02_T1() -> None:
    g = recorded_game("2C 3C 4C 5C 6C 8C 9C", PLAIN, first=P2)
    fight(g, NoCard(), NoCard())
    assert g.turn == 2 and g.initiative is P2
    assert g.actor is P2  # P2 draws first in T2 (GEN-4)


def test_no_draw_phase_on_turn_1_then_one_card__T2_T3_T4() -> None:
    g = recorded_game("2C 3C 4C 5C 6C 8C 9C", PLAIN)
    assert g.turn == 1 and g.step == "C1"  # T2/T3 skipped
    fight(g, NoCard(), NoCard())
    assert g.step == "T2"
    draw(g, P1, "KC")
    draw(g, P2, "KD")
    assert g.step == "C1" and len(g.state(P1).hand) == 8


def test_lower_life_takes_initiative__INI_1_T1() -> None:
    g = won_combat("2C 3C 4C 5C 6C 8C 9S", commit("2C", "attack"))
    g.apply(P1, Stop())
    assert g.life == (90, 88) and g.initiative is P2


def test_alternating_priority_until_two_passes__INI_4_INI_5_CF_22_DP_1() -> None:
    g = recorded_game("7C 7D 2C 3C 4C 5C 6C", "7H 2D 3D 4D 5D 6D 8D")
    fight(g, NoCard(), NoCard())
    g.apply(P1, PowerUp())  # Power Up: the pair of 7s is declined
    draw(g, P1, "KC")
    draw(g, P2, "KD")
    assert g.step == "T3" and g.actor is P1
    g.apply(P1, Pass())
    g.apply(P2, UseAbility("Martial Mastery", card("7H")))
    draw(g, P2, "QH")
    draw(g, P2, "QS")
    from rules_engine.actions import Discard
    g.apply(P2, Discard(cards("2D")))
    # P2 has nothing left to play; P1 passed before, but may act again after a play
    assert g.actor is P1 and g.step == "T3"
    g.apply(P1, UseAbility("Martial Mastery", card("7C")))
    draw(g, P1, "QC")
    draw(g, P1, "QD")
    g.apply(P1, Discard(cards("2C")))
    g.apply(P1, Pass())
    assert g.step == "C1"


def test_knockdown_lasts_one_combat_then_expires__KD_3_KD_6_K3() -> None:
    g = won_combat("8C 2C 3C 4C 5C 6C 9S", commit("8C", "throw"))
    g.apply(P1, Stop())
    assert g.state(P2).knocked_down
    draw(g, P2, "KH")
    draw(g, P1, "KS")
    fight(g, NoCard(), NoCard())
    assert g.turn == 3 and not g.state(P2).knocked_down


def test_knocked_down_dodge_is_void__KD_4_M_KD_DODGE_M_VOID_GL_VOID_CF_16() -> None:
    g = won_combat("8C 2C 3C 4C 5C 6C 9S", commit("8C", "throw"))
    g.apply(P1, Stop())
    draw(g, P2, "KH")
    draw(g, P1, "KS")
    fight(g, commit("3C", "attack"), commit("2D", "dodge"))
    draw(g, P1, "TH")  # the attack "won combat": normal draw
    assert card("2D") in g.state(P2).discard
    assert g.combat.cell == "M-ATTACK-NOCARD"


def test_mixup_block_of_opposite_parity_fails__KD_5_M_KD_MIXUP_GL_MIXUP_CF_12() -> None:
    g = won_combat("8C 2C 3C 4C 5C 6C 9S", commit("8C", "throw"))
    g.apply(P1, Stop())
    draw(g, P2, "KH")
    draw(g, P1, "KS")
    fight(g, commit("3C", "attack"), commit("6D", "block"))  # odd attack vs even block
    draw(g, P1, "TH")
    assert g.combat.cell == "M-ATTACK-NOCARD" and card("6D") in g.state(P2).discard


def test_same_parity_block_works__M_KD_SAMEPARITY_KD_5() -> None:
    g = won_combat("8C 2C 3C 4C 5C 6C 9S", commit("8C", "throw"))
    g.apply(P1, Stop())
    draw(g, P2, "KH")
    draw(g, P1, "KS")
    fight(g, commit("4C", "attack"), commit("6D", "block"))
    assert g.combat.cell == "M-ATTACK-BLOCK"


def test_face_attacks_never_mix_up__M_KD_SPECIAL_OQ_07() -> None:
    grave = character("grave")
    whirlwind = grave.moves_of(card("KC"))[0]
    three = grave.moves_of(card("3C"))[0]
    assert not cb.is_mixup(Rank.SIX, whirlwind, Ruleset())
    assert cb.is_mixup(Rank.QUEEN, three, Ruleset())  # Q = 12: even
    assert cb.is_mixup(Rank.ACE, grave.moves_of(card("4C"))[0], Ruleset())  # A = 1: odd
    immune = Ruleset(faceBlockParity=FaceBlockParity.IMMUNE)
    assert not cb.is_mixup(Rank.QUEEN, three, immune)


def test_knocked_down_player_may_gold_burst__KD_9() -> None:
    g = won_combat("8C 2C 3C 4C 5C 6C 9S", commit("8C", "throw"), hand2="X1 2D 3D 4D 5D 6D 8D")
    g.apply(P1, Stop())
    draw(g, P2, "KH")
    draw(g, P1, "KS")
    fight(g, commit("3C", "attack"), commit("X1"))
    assert g.combat.cell == "M-ATTACK-JOKER"


def test_double_knockdown_cancels__KD_7_OQ_10() -> None:
    # Zane's J Anarch Crusher (knockdown) in a speed tie: both would be knocked down
    g = recorded_game("JC 2C 3C 5C 6C 7C 9C", "JD 2D 3D 5D 6D 7D 9D", p1="zane", p2="zane")
    fight(g, commit("JC", "attack"), commit("JD", "attack"))
    assert g.life == (76, 76)
    assert not g.state(P1).knocked_down and not g.state(P2).knocked_down


def test_knockdowns_off__S_7() -> None:
    g = won_combat("8C 2C 3C 4C 5C 6C 9S", commit("8C", "throw"),
                   ruleset=Ruleset(knockdowns=OnOff.OFF))
    g.apply(P1, Stop())
    assert not g.state(P2).knocked_down


def test_jokers_removed__S_7_CF_01() -> None:
    g = Game(character("grave"), character("grave"), seed=3,
             ruleset=Ruleset(jokers=Jokers.REMOVED))
    assert len(g.state(P1).deck) + len(g.state(P1).hand) == 52


def test_mandatory_ace_cost_paid_on_reveal__C3_GL_MANDATORY_DP_4_AB_9() -> None:
    g = recorded_game("AH AD AS AC 2C 3C 4C", PLAIN)
    fight(g, commit("AH", "attack", "True Power of Storms"), NoCard())
    assert g.step == "C3" and g.actor is P1  # three Aces could pay: a choice
    with pytest.raises(IllegalActionError) as err:
        g.apply(P1, PayAces(cards("AD")))
    assert err.value.rule_id == "C3"
    g.apply(P1, PayAces(cards("AD AS")))
    assert {card("AD"), card("AS")} <= set(g.state(P1).discard)


def test_unpayable_ace_faq_penalty_opponent_rechooses__CF_08_NC_2() -> None:
    g = recorded_game("AH AD 2C 3C 4C 5C 6C", PLAIN)
    fight(g, commit("AH", "attack", "True Power of Storms"), commit("5D", "block"))
    assert g.step == "C3" and g.actor is P2  # P1 is no-card now; P2 may choose again
    g.apply(P2, commit("6D", "attack"))
    draw(g, P2, "KH")  # the attack beat P1's no-card: normal draw
    assert card("AH") in g.state(P1).discard and card("5D") in g.state(P2).hand


def test_unpayable_ace_keep__CF_08() -> None:
    g = recorded_game("AH AD 2C 3C 4C 5C 6C", PLAIN)
    fight(g, commit("AH", "attack", "True Power of Storms"), commit("5D", "block"))
    g.apply(P2, Keep())
    draw(g, P2, "KH")  # block beat no-card (M-BLOCK-NOCARD)
    assert g.combat.cell == "M-BLOCK-NOCARD"


def test_unpayable_ace_prevent_and_de_void__CF_08() -> None:
    g = recorded_game("AH AD 2C 3C 4C 5C 6C", PLAIN, ruleset=Ruleset(illegalAce=IllegalAce.PREVENT))
    with pytest.raises(IllegalActionError) as err:
        g.apply(P1, commit("AH", "attack", "True Power of Storms"))
    assert err.value.rule_id == "CF-08"
    g2 = recorded_game("AH AD 2C 3C 4C 5C 6C", PLAIN,
                       ruleset=Ruleset(illegalAce=IllegalAce.DE_VOID))
    fight(g2, commit("AH", "attack", "True Power of Storms"), commit("5D", "block"))
    draw(g2, P2, "KH")  # no re-choice: the block simply beats no-card
    assert g2.combat.cell == "M-BLOCK-NOCARD"


def test_block_return_immediate_option__CF_15() -> None:
    g = recorded_game("5C 2C 3C 4C 6C 8C 9C", PLAIN,
                      ruleset=Ruleset(blockReturn=BlockReturn.IMMEDIATE))
    fight(g, commit("5C", "block"), NoCard())
    draw(g, P1, "KH")
    assert card("5C") in g.state(P1).hand


def test_void_after_reveal_option__CF_16() -> None:
    rs = Ruleset(voidTiming=VoidTiming.AFTER_REVEAL)
    g = won_combat("8C 2C 3C 4C 5C 6C 9S", commit("8C", "throw"), ruleset=rs)
    g.apply(P1, Stop())
    draw(g, P2, "KH")
    draw(g, P1, "KS")
    fight(g, commit("3C", "attack"), commit("2D", "dodge"))
    assert card("2D") in g.state(P2).discard


def test_joker_mirror_tie_option__CF_10() -> None:
    rs = Ruleset(jokerMirror=JokerMirror.TIE)
    r = cb.resolve(cb.JOKER, None, cb.JOKER, None, rs)
    assert (r.winner, r.both_hit) == (None, False)


def test_neutral_results_are_ties__CF_11() -> None:
    for a, b in ((cb.BLOCK, cb.DODGE), (cb.DODGE, cb.DODGE), (cb.BLOCK, cb.BLOCK)):
        assert cb.resolve(a, None, b, None, Ruleset()).winner is None


MATRIX = [
    ("M-ATTACK-ATTACK", cb.ATTACK, 24, cb.ATTACK, 36, 0, False),
    ("M-ATTACK-ATTACK-TIE", cb.ATTACK, 24, cb.ATTACK, 24, None, True),
    ("M-ATTACK-THROW", cb.ATTACK, 96, cb.THROW, 26, 0, False),
    ("M-ATTACK-BLOCK", cb.ATTACK, 24, cb.BLOCK, None, 1, False),
    ("M-ATTACK-DODGE", cb.ATTACK, 24, cb.DODGE, None, 1, False),
    ("M-ATTACK-JOKER", cb.ATTACK, 24, cb.JOKER, None, 1, False),
    ("M-ATTACK-NOCARD", cb.ATTACK, 24, cb.NONE, None, 0, False),
    ("M-THROW-THROW", cb.THROW, 76, cb.THROW, 86, 0, False),
    ("M-THROW-THROW-TIE", cb.THROW, 76, cb.THROW, 76, None, False),
    ("M-THROW-BLOCK", cb.THROW, 76, cb.BLOCK, None, 0, False),
    ("M-THROW-DODGE", cb.THROW, 76, cb.DODGE, None, 0, False),
    ("M-THROW-JOKER", cb.THROW, 76, cb.JOKER, None, 1, False),
    ("M-THROW-NOCARD", cb.THROW, 76, cb.NONE, None, 0, False),
    ("M-BLOCK-BLOCK", cb.BLOCK, None, cb.BLOCK, None, None, False),
    ("M-BLOCK-DODGE", cb.BLOCK, None, cb.DODGE, None, None, False),
    ("M-BLOCK-JOKER", cb.BLOCK, None, cb.JOKER, None, 0, False),
    ("M-BLOCK-NOCARD", cb.BLOCK, None, cb.NONE, None, 0, False),
    ("M-DODGE-DODGE", cb.DODGE, None, cb.DODGE, None, None, False),
    ("M-DODGE-JOKER", cb.DODGE, None, cb.JOKER, None, 0, False),
    ("M-DODGE-NOCARD", cb.DODGE, None, cb.NONE, None, 0, False),
    ("M-JOKER-JOKER", cb.JOKER, None, cb.JOKER, None, None, True),
    ("M-JOKER-NOCARD", cb.JOKER, None, cb.NONE, None, 0, False),
    ("M-NOCARD-NOCARD", cb.NONE, None, cb.NONE, None, None, False),
]


@pytest.mark.parametrize(("cell", "x", "sx", "y", "sy", "winner", "both"), MATRIX,
                         ids=[m[0] for m in MATRIX])
def test_combat_matrix__AR_1_AR_ATK_1_AR_THR_1_AR_JKR_1_AR_SPD_1_C6_GL_WIN(
    cell: str, x: str, sx: int | None, y: str, sy: int | None, winner: int | None, both: bool,
) -> None:
    """Every §4.4 cell, both ways round: M-ATTACK-ATTACK, M-ATTACK-ATTACK-TIE, M-ATTACK-THROW,
    M-ATTACK-BLOCK, M-ATTACK-DODGE, M-ATTACK-JOKER, M-ATTACK-NOCARD, M-THROW-THROW,
    M-THROW-THROW-TIE, M-THROW-BLOCK, M-THROW-DODGE, M-THROW-JOKER, M-THROW-NOCARD,
    M-BLOCK-BLOCK, M-BLOCK-DODGE, M-BLOCK-JOKER, M-BLOCK-NOCARD, M-DODGE-DODGE, M-DODGE-JOKER,
    M-DODGE-NOCARD, M-JOKER-JOKER, M-JOKER-NOCARD, M-NOCARD-NOCARD."""
    r = cb.resolve(x, sx, y, sy, Ruleset())
    assert (r.cell, r.winner, r.both_hit) == (cell, winner, both)
    flipped = cb.resolve(y, sy, x, sx, Ruleset())
    assert flipped.winner == (None if winner is None else 1 - winner)


def test_ko_ends_before_power_up__END_1_END_2_END_R1_OQ_02() -> None:
    g = won_combat("2C 3C 4C 5C 6C 8C 9S", commit("2C", "attack"))
    g.state(P2).life = 4
    g.apply(P1, combo("3C"))
    g.apply(P1, combo("4C"))
    g.apply(P1, Stop())
    assert g.outcome is not None and g.outcome.winner is P1
    assert g.life[1] == -3  # signed life (END-9); the 4 was not stopped by the KO after the 3
    assert g.actor is Actor.TERMINAL and g.legal_actions(P1) == []


def test_double_ko_higher_life_option__END_3_CF_23_END_R2() -> None:
    # a speed tie: both attacks hit at the same moment
    g2 = recorded_game("4C 3C 5C 6C 8C 9C KC", "4D 3D 5D 6D 8D 9D KD",
                       ruleset=Ruleset(doubleKO=DoubleKO.HIGHER_LIFE))
    g2.state(P1).life, g2.state(P2).life = 3, 2
    fight(g2, commit("4C", "attack"), commit("4D", "attack"))
    assert g2.outcome is not None and (g2.outcome.termination, g2.outcome.winner) == (
        Termination.DOUBLE_KO, P1)  # -1 beats -2


def test_time_out_when_the_last_card_is_drawn__END_4_END_6_END_7_END_R3() -> None:
    g = recorded_game("2C 3C 4C 5C 6C 8C 9C", PLAIN)
    g.state(P1).deck = [card("KC")]
    g.state(P2).life = 80
    fight(g, NoCard(), NoCard())
    draw(g, P2, "KD")  # P2 (lower life) draws first; then P1 draws his last card
    draw(g, P1, "KC")
    assert g.outcome is not None
    assert (g.outcome.termination, g.outcome.winner) == (Termination.TIMEOUT, P1)


def test_time_out_equal_life_is_a_draw__END_R4_END_7() -> None:
    g = recorded_game("2C 3C 4C 5C 6C 8C 9C", PLAIN)
    g.state(P1).deck = [card("KC")]
    fight(g, NoCard(), NoCard())
    draw(g, P1, "KC")
    draw(g, P2, "KD")
    assert g.outcome is not None and g.outcome.winner is None


def test_time_out_in_combat_finishes_combat__END_5() -> None:
    g = recorded_game("2C 3C 4C 5C 6C 8C 9C", PLAIN)
    g.state(P1).deck = [card("KC")]
    fight(g, commit("2C", "attack"), NoCard())
    draw(g, P1, "KC")  # C7: the last card: time is up, but combat goes on
    g.apply(P2, Pass())
    g.apply(P1, combo("3C"))
    g.apply(P1, Stop())
    assert g.outcome is not None and g.outcome.termination is Termination.TIMEOUT
    assert g.life == (90, 85)


def test_search_emptying_the_deck_is_no_time_out__END_8_OQ_19() -> None:
    g = recorded_game("2C 3C 4C 5C 6C 8C 9C", PLAIN)
    g.state(P1).deck = []
    fight(g, NoCard(), NoCard())
    assert not g.is_over  # an empty deck is no time-out by itself ...
    draw(g, P2, "KD")  # ... until P1 must draw from it (T2; every player finishes drawing)
    assert g.outcome is not None and g.outcome.termination is Termination.TIMEOUT
    assert g.turn == 2


def test_play_on_skips_draws__CF_04_END_9() -> None:
    g = recorded_game("2C 3C 4C 5C 6C 8C 9C", PLAIN, ruleset=Ruleset(timeout=Timeout.PLAY_ON))
    g.state(P1).deck = []
    fight(g, NoCard(), NoCard())
    assert not g.is_over and g.actor is P2  # P1's draw was skipped


def test_max_turns_safety_cap__END_10_END_R5_OQ_20() -> None:
    g = recorded_game("2C 3C 4C 5C 6C 8C 9C", PLAIN, ruleset=Ruleset(maxTurns=1))
    fight(g, NoCard(), NoCard())
    assert g.outcome is not None and g.outcome.termination is Termination.MAX_TURNS


def test_ruleset_options_round_trip__GEN_3() -> None:
    rs = Ruleset(timeout=Timeout.PLAY_ON, maxTurns=40, afterNormalAttackOnly=True)
    assert Ruleset.from_json(rs.to_json()) == rs
    assert Ruleset().to_json() == {}
    every_option = Ruleset.from_json({"rewindScope": "ALL_COMBO_DAMAGE"})
    assert every_option.to_json() == {"rewindScope": "ALL_COMBO_DAMAGE"}
    with pytest.raises(ValueError, match="must be one of"):
        Ruleset.from_json({"rewindScope": "SOME"})


def test_end_of_combat_discards_in_entry_order__C13_OQ_31_GEN_6() -> None:
    g = won_combat("2C 3C 4C 5C 6C 8C 9S", commit("2C", "attack"))
    g.apply(P1, combo("3C"))
    g.apply(P1, combo("4C"))
    g.apply(P1, Stop())
    assert [c.code for c in g.state(P1).discard][-3:] == ["2C", "3C", "4C"]


def test_rps_each_tie_option_decides_every_tied_turn__CF_02() -> None:
    from rules_engine.ruleset import InitiativeTie
    rs = Ruleset(initiativeTie=InitiativeTie.RPS_EACH_TIE)
    g = recorded_game("2C 3C 4C 5C 6C 8C 9C", PLAIN, ruleset=rs, first=P1)
    fight(g, NoCard(), NoCard())
    # turn 2 starts with equal lives: a fresh decision, here won by P2
    assert g.step == "T1" and g.actor is Actor.SIMULTANEOUS
    g.apply(P2, WinInitiative())
    assert g.initiative is P2 and g.actor is P2  # P2 draws first
    seeded = {Game(character("grave"), character("grave"), seed=s, ruleset=rs).initiative
              for s in range(10)}
    assert seeded == {P1, P2}
