"""Combos (RULES.md §5): the rulebook's combo vectors TV-CB-01..20 with Grave's data, the follow
table (CT), combo points (CB), pumps (PM) and chains (CH)."""

from __future__ import annotations

import pytest

from rules_engine import combat as cb
from rules_engine.actions import NoCard, Pass, Pump, Stop
from rules_engine.cards import MoveType, card, character
from rules_engine.errors import IllegalActionError
from rules_engine.game import Game
from rules_engine.ruleset import PumpTiming, Ruleset

from .helpers import P1, P2, cards, combo, commit, draw, fight, recorded_game, with_move, won_combat


def _illegal(g: Game, action: object) -> str:
    with pytest.raises(IllegalActionError) as err:
        g.apply(P1, action)  # type: ignore[arg-type]
    assert err.value.player is P1 and err.value.position.step == "C10"
    return err.value.rule_id


def test_valid_chain_3_4_5__TV_CB_01_CT_NORMAL_CH_4() -> None:
    """C10: the winner continues the combo from hand; C12 deals the moves' damage."""
    g = won_combat("3C 4C 5C 6C 8C 2H 9S", commit("3C", "attack"))
    g.apply(P1, combo("4C"))
    g.apply(P1, combo("5C"))
    g.apply(P1, Stop())
    ps = g.state(P1)
    assert ps.combo_points_spent == 3 and ps.chains == [3]
    assert g.chain_entitlement(ps) == 1
    assert g.life[1] == 90 - 3 - 4 - 5


def test_gap_in_normals_is_illegal__TV_CB_02_CT_NORMAL() -> None:
    g = won_combat("3C 5C 6C 4C 8C 2H 9S", commit("3C", "attack"))
    assert _illegal(g, combo("5C")) == "CT-NORMAL"


def test_same_rank_twice_is_illegal__TV_CB_03_CT_NORMAL() -> None:
    g = won_combat("4C 4D 5C 6C 8C 2H 9S", commit("4C", "attack"))
    assert _illegal(g, combo("4D")) == "CT-NORMAL"


def test_starter_then_normals_within_limit__TV_CB_04_CT_STARTER_CB_3() -> None:
    g = won_combat("8C 2C 3C 4C 5C 6C 9S", commit("8C", "throw"))
    g.apply(P1, combo("2C"))
    g.apply(P1, combo("3C"))
    assert g.combos[-1].points == 4


def test_over_the_combo_limit_is_illegal__TV_CB_05_CB_3_GL_COMBO_POINTS() -> None:
    g = won_combat("8C 2C 3C 4C 5C 6C 9S", commit("8C", "throw"))
    g.apply(P1, combo("2C"))
    g.apply(P1, combo("3C"))
    # 4 of 4 points spent and nothing else to do: the combo ended by itself (CB-11)
    assert g.turn == 2 and g.combos[-1].cards == ["8C", "2C", "3C"]
    # while something else is still possible (a Whirlwind pump), the rule itself shows
    g2 = won_combat("8C KC KD 2C 3C 4C 9S", commit("8C", "throw"))
    g2.apply(P1, combo("KC"))
    assert _illegal(g2, combo("2C")) == "CB-3"


def test_throw_then_true_spark_arc__TV_CB_06_CB_9() -> None:
    g = won_combat("7C AH 3C 4C 5C 6C 9S", commit("7C", "throw"))
    g.apply(P1, combo("AH", name="True-Spark Arc"))
    assert g.combos[-1].points == 4
    assert g.life[1] == 90 - 7 - 12


def test_throw_then_true_power_of_storms_exceeds_limit__TV_CB_07_CB_3() -> None:
    g = won_combat("7C AH AD AS 4C 6C 9S", commit("7C", "throw"))
    rule = _illegal(g, combo("AH", name="True Power of Storms", aces="AD AS"))
    assert rule == "CB-3"


def test_normal_then_ender__TV_CB_08_CT_NORMAL() -> None:
    g = won_combat("6C QC 3C 4C 5C 8C 9S", commit("6C", "attack"))
    g.apply(P1, combo("QC"))
    assert g.life[1] == 90 - 6 - 10


def test_nothing_follows_an_ender__TV_CB_09_CB_5_CT_ENDER() -> None:
    g = won_combat("QC 6C 3C 4C 5C 8C JS", commit("QC", "attack"))
    # Dragonheart is an Ender with no pump: the combo is over at once
    assert g.step != "C10"
    g2 = won_combat("6C QC 3C 4C 5C 8C 9S", commit("6C", "attack"))
    g2.apply(P1, combo("QC"))
    assert g2.step != "C10"


def test_throw_starter_then_4_5__TV_CB_10_CT_STARTER() -> None:
    g = won_combat("9C 4C 5C 2C 3C 6C 8S", commit("9C", "throw"))
    g.apply(P1, combo("4C"))
    g.apply(P1, combo("5C"))
    assert g.combos[-1].points == 4


def test_starter_only_first__TV_CB_11_CT_FIRST_CT_NORMAL() -> None:
    g = won_combat("4C 5C 9C 2C 3C 6C 8S", commit("4C", "attack"))
    g.apply(P1, combo("5C"))
    assert _illegal(g, combo("9C", "throw")) == "CT-FIRST"


def test_linker_allows_any_normal_rank__TV_CB_12_CT_LINKER() -> None:
    g = won_combat("2C KC 6C 3C 4C 5C 8S", commit("2C", "attack"))
    g.apply(P1, combo("KC"))
    g.apply(P1, combo("6C"))
    assert g.combos[-1].points == 4


def test_pumped_whirlwind_then_5_then_lightning_cloud__TV_CB_13_PM_2_CT_LINKER() -> None:
    g = won_combat("KC KD 5C JC 3C 4C 8S", commit("KC", "attack"))
    g.apply(P1, Pump(0, cards("KD")))  # the pump costs no points
    g.apply(P1, combo("5C"))
    g.apply(P1, combo("JC"))
    assert g.combos[-1].points == 4
    assert g.life[1] == 90 - (7 + 7) - 5 - 8


def test_hit_back_with_true_power_of_storms_pays_aces__TV_CB_14_CB_7_CB_9_GL_HITBACK() -> None:
    g = recorded_game("2C AH AD AS 4C 5C 6C", "2D 3D 4D 5D 6D 8D 9D")
    fight(g, commit("2C", "dodge"), commit("6D", "attack"))
    g.apply(P2, Pass())
    g.apply(P1, combo("AH", name="True Power of Storms", aces="AD AS"))
    assert g.life[1] == 90 - 45
    assert {card("AD"), card("AS")} <= set(g.state(P1).discard)
    assert g.turn == 2  # it became an Ender: the combat ended


def test_hit_back_cannot_pay_an_ace_cost_it_lacks__CB_9() -> None:
    g = recorded_game("2C AH AD 3C 4C 5C 6C", "2D 3D 4D 5D 6D 8D 9D")
    fight(g, commit("2C", "dodge"), commit("6D", "attack"))
    g.apply(P2, Pass())
    assert _illegal(g, combo("AH", name="True Power of Storms", aces="AD")) == "CB-9"


def test_nothing_after_a_hit_back__TV_CB_15_CB_7_CT_HITBACK() -> None:
    g = recorded_game("2C 3C 4C 5C 6C 8C 9C", "2D 3D 4D 5D 6D 8D 9D")
    fight(g, commit("2C", "dodge"), commit("6D", "attack"))
    g.apply(P2, Pass())
    g.apply(P1, combo("3C"))
    assert g.step != "C10"  # no 4 may follow: the hit-back is an Ender


def test_lone_knockdown_throw_knocks_down__TV_CB_16_KD_1_CB_14() -> None:
    g = won_combat("8C 2C 3C 4C 5C 6C 9S", commit("8C", "throw"))
    g.apply(P1, Stop())
    assert g.turn == 2 and g.state(P2).knocked_down


def test_throw_then_normal_no_knockdown__TV_CB_17_KD_1() -> None:
    g = won_combat("8C 2C 3C 4C 5C 6C 9S", commit("8C", "throw"))
    g.apply(P1, combo("2C"))
    g.apply(P1, Stop())
    assert g.turn == 2 and not g.state(P2).knocked_down


def test_four_chain_two_aces__TV_CB_18_CH_4_CH_2() -> None:
    g = won_combat("2C 3C 4C 5C 6C 8C 9S", commit("2C", "attack"))
    for c in ("3C", "4C", "5C"):
        g.apply(P1, combo(c))
    assert g.state(P1).chains == [4] and g.chain_entitlement(g.state(P1)) == 2


def test_no_combo_or_pump_after_a_speed_tie__TV_CB_19_CB_8_PM_3() -> None:
    g = recorded_game("KC KD 3C 4C 5C 6C 8C", "KH 2D 3D 4D 5D 6D 8D")
    fight(g, commit("KC", "attack"), commit("KH", "attack"))
    assert g.life == (83, 83) and g.turn == 2  # no C10: no pump of the Whirlwind


def test_zero_cost_move_after_the_limit__TV_CB_20_CB_3() -> None:
    # synthetic: Grave whose Whirlwind (Linker) costs 0
    grave0 = with_move("grave", "K", combo_points=0)
    g = Game(grave0, character("grave"))  # type: ignore[arg-type]
    from rules_engine.actions import Draw, WinInitiative
    for c in cards("8C 2C 3C KC 5C 6C 9S"):
        g.apply(P1, Draw(c))
    for c in cards("2D 3D 4D 5D 6D 8D 9D"):
        g.apply(P2, Draw(c))
    g.apply(P1, WinInitiative())
    fight(g, commit("8C", "throw"), NoCard())
    g.apply(P2, Pass())
    g.apply(P1, combo("2C"))
    g.apply(P1, combo("3C"))  # 4 of 4 spent, no Ender yet
    g.apply(P1, combo("KC"))  # the 0-cost Linker may still be added
    assert g.combos[-1].points == 4


def test_blocks_and_dodges_are_never_combo_moves__CB_2() -> None:
    g = won_combat("8C 5C 2C 3C 4C 6C 9S", commit("8C", "throw"))
    with pytest.raises(IllegalActionError) as err:
        g.apply(P1, combo("5C", "block"))
    assert err.value.rule_id == "CB-2"


def test_cant_combo_move_only_first__CB_6_CT_CANTCOMBO() -> None:
    jaina = character("jaina")
    knee = jaina.find_move(card("6C"), MoveType.THROW, None)
    arrow = jaina.find_move(card("JC"), MoveType.ATTACK, "Flame Arrow")
    throw = jaina.find_move(card("8C"), MoveType.THROW, None)
    assert knee is not None and arrow is not None and throw is not None
    assert cb.follow_violation(throw, knee, Ruleset()).rule_id == "CB-6"  # type: ignore[union-attr]
    assert cb.follow_violation(knee, arrow, Ruleset()).rule_id == "CB-6"  # type: ignore[union-attr]


def test_follow_table__CT_FIRST_CT_STARTER_CT_LINKER_CT_NORMAL_CT_ENDER_CB_4() -> None:
    """CF-13: the rulebook's successors (nothing precedes a Starter; after a Linker any
    normal, Linker or Ender)."""
    grave, rs = character("grave"), Ruleset()
    n2 = grave.moves_of(card("2C"))[0]
    n3 = grave.moves_of(card("3C"))[0]
    n5 = grave.moves_of(card("5C"))[0]
    starter = grave.moves_of(card("8C"))[0]
    linker = grave.moves_of(card("KC"))[0]
    ender = grave.moves_of(card("QC"))[0]
    assert cb.follow_violation(starter, n5, rs) is None
    assert cb.follow_violation(linker, n5, rs) is None
    assert cb.follow_violation(linker, linker, rs) is None
    assert cb.follow_violation(n2, n3, rs) is None
    assert cb.follow_violation(n2, ender, rs) is None
    assert cb.follow_violation(n2, n5, rs).rule_id == "CT-NORMAL"  # type: ignore[union-attr]
    assert cb.follow_violation(linker, starter, rs).rule_id == "CT-FIRST"  # type: ignore[union-attr]
    assert cb.follow_violation(ender, n2, rs).rule_id == "CB-5"  # type: ignore[union-attr]


def test_after_normal_only_attack_linkers__CF_14() -> None:
    rs = Ruleset(afterNormalAttackOnly=True)
    zane = character("zane")
    n2 = zane.moves_of(card("2C"))[0]
    linker_throw = zane.find_move(card("5C"), MoveType.THROW, None)
    assert linker_throw is not None
    assert cb.follow_violation(n2, linker_throw, Ruleset()) is None
    assert cb.follow_violation(n2, linker_throw, rs).rule_id == "CF-14"  # type: ignore[union-attr]


def test_pump_timing_immediate__PM_5_OQ_08() -> None:
    g = won_combat("KC KD 5C JC 3C 4C 8S", commit("KC", "attack"),
                   ruleset=Ruleset(pumpTiming=PumpTiming.IMMEDIATE))
    g.apply(P1, combo("5C"))
    with pytest.raises(IllegalActionError) as err:
        g.apply(P1, Pump(0, cards("KD")))
    assert err.value.rule_id == "PM-5"


def test_pump_cards_are_discarded_at_once_and_not_moves__PM_4_PM_7_OQ_09() -> None:
    g = won_combat("KC KD 2C 3C 4C 5C 8S", commit("KC", "attack"))
    g.apply(P1, Pump(0, cards("KD")))
    assert card("KD") in g.state(P1).discard  # PM-4: discarded when paid
    g.apply(P1, combo("2C"))
    g.apply(P1, combo("3C"))
    assert g.combos[-1].points == 4  # the pump cost nothing (PM-2)
    assert g.combos[-1].moves == 3 and g.combos[-1].pumps == 1  # a pump is no move (PM-7)


def test_pump_of_the_wrong_kind__PM_1_GL_PUMP() -> None:
    g = won_combat("KC QD 2C 3C 4C 5C 8S", commit("KC", "attack"))
    with pytest.raises(IllegalActionError) as err:
        g.apply(P1, Pump(0, cards("QD")))
    assert err.value.rule_id == "PM-1"


def test_chain_counting__CH_1_CH_2_CH_3_CH_5_GL_CHAIN() -> None:
    grave = character("grave")
    m = {c: grave.moves_of(card(c))[0] for c in ("2C", "3C", "4C", "5C", "6C", "8C", "KC", "JC")}
    assert cb.chain_lengths([m["2C"], m["3C"]]) == [2]  # CH-3: too short to earn
    assert cb.chain_reward([2], Ruleset()) == 0
    # a chain after a throw or a Linker counts (CH-2); face cards end a run (CH-1)
    assert cb.chain_lengths([m["8C"], m["2C"], m["3C"], m["4C"]]) == [3]
    assert cb.chain_lengths([m["2C"], m["KC"], m["3C"], m["4C"], m["5C"]]) == [1, 3]


def test_chain_rewards__CH_4_CH_7_CF_17() -> None:
    assert [cb.chain_reward([n], Ruleset()) for n in (3, 4, 5, 6, 7)] == [1, 2, 3, 4, 4]
    from rules_engine.ruleset import ChainReward
    assert cb.chain_reward([3, 4], Ruleset()) == 2  # LONGEST
    assert cb.chain_reward([3, 4], Ruleset(chainReward=ChainReward.SUM)) == 3


def test_valerie_any_order_chain__CH_6_CB_15_TV_PU_07() -> None:
    valerie = character("valerie")
    seq = [valerie.moves_of(card(c))[0] for c in ("4C", "6C", "2C", "2D")]
    assert cb.chain_lengths(seq, any_order=True) == [4]
    assert cb.chain_reward(cb.chain_lengths(seq, any_order=True), Ruleset()) == 2


def test_winner_may_stop_anytime__CB_11_CB_12_GL_COMBO() -> None:
    g = won_combat("2C 3C 4C 5C 6C 8C 9S", commit("2C", "attack"))
    g.apply(P1, Stop())
    assert g.combos[-1].cards == ["2C"] and g.combos[-1].moves == 1  # a single hit is a combo


def test_every_added_move_hits_damage_waits_for_c12__CB_10_C12_GL_HIT() -> None:
    g = won_combat("2C 3C 4C 5C 6C 8C 9S", commit("2C", "attack"))
    g.apply(P1, combo("3C"))
    assert g.life[1] == 88  # the 3 hit, but its damage waits for C12
    assert g.state(P1).hit_this_combat
    g.apply(P1, Stop())
    assert g.life[1] == 85


def test_a_combo_starts_with_the_hitting_combat_card__CB_1_CB_13() -> None:
    g = won_combat("8C 2C 3C 4C 5C 6C 9S", commit("8C", "throw"))
    assert g.combo[0].card == card("8C") and not g.combo[0].played_in_c10
    assert g.state(P1).combo_points_spent == 2  # the combat card costs its points (CB-3)


def test_draw_after_speed_tie_none_then_next_turn__C7_OQ_05() -> None:
    g = recorded_game("4C 3C 5C 6C 8C 9C KC", "4D 3D 5D 6D 8D 9D KD")
    fight(g, commit("4C", "attack"), commit("4D", "attack"))
    draw(g, P1, "2S")  # the next draw is T2 of turn 2: no C7 draw after a tie
    assert g.turn == 2 and len(g.state(P1).hand) == 7
