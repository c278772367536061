"""More rule checks: glossary terms as the engine models them, step order within a turn,
decision points, options, and the framework windows proven on Grave and Jaina."""

from __future__ import annotations

import dataclasses

import pytest

from rules_engine import combat as cb
from rules_engine.actions import (
    FaceDown,
    NoCard,
    Pass,
    PayAces,
    PowerUp,
    Pump,
    Search,
    Stop,
    UseAbility,
)
from rules_engine.cards import ComboType, MoveType, Rank, Suit, card, character
from rules_engine.errors import IllegalActionError
from rules_engine.ruleset import RewindScope, Ruleset

from .helpers import P1, P2, PLAIN, cards, combo, commit, draw, fight, recorded_game, won_combat


def test_card_vocabulary__GL_CARD_GL_RANK_GL_SUIT_GL_FACE_GL_ACE_GL_END_GL_MOVE() -> None:
    """GL-NORMAL: an attack on a 2..10 card is a normal attack (even Vendetta's Claw Trip,
    an Ender), face-card and Ace attacks are not."""
    claw = character("vendetta").find_move(card("7C"), MoveType.ATTACK, None)
    assert claw is not None and claw.is_normal_attack and claw.combo_type is ComboType.ENDER
    assert not character("grave").moves_of(card("KC"))[0].is_normal_attack
    assert card("JH").rank is Rank.JACK and card("JH").rank.is_face
    assert card("AH").is_ace and not card("AH").rank.is_face  # type: ignore[union-attr]
    assert card("TD").rank.is_normal and card("TD").suit is Suit.DIAMONDS  # type: ignore[union-attr]
    assert Suit.HEARTS.is_red and not Suit.SPADES.is_red
    assert sorted(Rank)[0] is Rank.TWO and sorted(Rank)[-1] is Rank.ACE
    # a card has two ends; Grave's Queen shows one move on both (GL-END)
    assert len(character("grave").moves_of(card("QC"))) == 1
    assert [m.type for m in character("grave").moves_of(card("2C"))] == [
        MoveType.ATTACK, MoveType.DODGE]


def test_speeds_compare_as_decimals__GEN_7_GL_SPEED() -> None:
    grave = character("grave")
    dragonheart = grave.moves_of(card("QC"))[0]  # speed 0.0
    whirlwind = grave.moves_of(card("KC"))[0]  # speed 2.2
    assert (dragonheart.speed, whirlwind.speed) == (0, 22)
    r = cb.resolve(cb.ATTACK, dragonheart.speed, cb.ATTACK, whirlwind.speed, Ruleset())
    assert r.winner == 0


def test_untyped_special_is_a_starter__OQ_11_GL_COMBO_TYPE() -> None:
    arrow = character("jaina").find_move(card("JC"), MoveType.ATTACK, "Charged Shot")
    assert arrow is not None
    assert dataclasses.replace(arrow, combo_type=None).follow_type is ComboType.STARTER
    assert arrow.follow_type is ComboType.STARTER


def test_heal_is_capped_at_starting_life__GEN_8() -> None:
    g = recorded_game("2C 3C 4C 5C 6C 8C 9C", PLAIN)
    ps = g.state(P1)
    ps.life = 85
    g.heal(ps, 12)
    assert ps.life == 90


def test_turn_steps_in_order_power_up_cleanup_next_turn__T5_T6_T7_K1_K4_GL_TURN() -> None:
    g = recorded_game("KC KD 2C 3C 4C 5C 6C", PLAIN)
    steps = []
    fight(g, NoCard(), NoCard())
    steps.append((g.turn, g.step))  # Power Up (T5) right after combat
    g.apply(P1, PowerUp())
    steps.append((g.turn, g.step))  # cleanup done (T6: K1..K4), T7 -> turn 2's draw
    assert steps == [(1, "P2"), (2, "T2")]


def test_reveal_and_lock_in_steps__C2_C5_DP_2() -> None:
    # C2 reveals both cards at once; the C4 window can still change them; C5 fixes them
    g = recorded_game("7H 2C 3C 4C 5C 6C KC", PLAIN, p1="jaina", p2="grave")
    fight(g, NoCard(), NoCard())
    draw(g, P1, "KH")
    draw(g, P2, "JS")
    g.apply(P1, UseAbility("Unstable Power", card("7H")))
    fight(g, commit("2C", "attack"), commit("3D", "attack"))
    assert g.step == "C4" and g.state(P1).revealed_kind == cb.ATTACK
    g.apply(P1, UseAbility("Unstable Power", option="rotate"))
    # after lock-in the rotated card's dodge is what fights (it beats Grave's attack)
    assert g.state(P1).kind == cb.DODGE and g.combat.winner is P1


def test_decision_points_name_their_actor__DP_6_DP_7_DP_10_DP_11() -> None:
    g = recorded_game("2C 3C 4C 5C 6C 8C X1", PLAIN)
    fight(g, commit("2C", "attack"), NoCard())
    draw(g, P1, "TH")
    assert (g.step, g.actor) == ("C9", P2)  # DP-6: the loser
    g.apply(P2, Pass())
    assert (g.step, g.actor) == ("C10", P1)  # DP-7: the winner
    assert Stop() in g.legal_actions(P1) and g.legal_actions(P2) == []
    g.apply(P1, Stop())
    draw(g, P2, "KD")
    draw(g, P1, "KS")
    fight(g, commit("X1"), commit("3D", "attack"))
    assert (g.step, g.actor) == ("C8", P1)  # DP-11: the Gold Burst search
    assert Search((), cards("AC AD")) in g.legal_actions(P1)


def test_attack_with_knockdown_icon_knocks_down__AR_KDATK_1_GL_KNOCKDOWN() -> None:
    g = recorded_game("JC 2C 3C 5C 6C 7C 9C", PLAIN, p1="zane")
    fight(g, commit("JC", "attack"), NoCard())
    assert g.turn == 2 and g.state(P2).knocked_down  # Anarch Crusher: Ender, knockdown


def test_void_dodge_is_no_card_so_a_block_draws__OQ_04_M_VOID() -> None:
    g = won_combat("8C 2C 3C 4C 5C 6C 9S", commit("8C", "throw"))
    g.apply(P1, Stop())
    draw(g, P2, "KH")
    draw(g, P1, "KS")
    fight(g, commit("5C", "block"), commit("2D", "dodge"))
    assert g.combat.cell == "M-BLOCK-NOCARD" and (g.step, g.actor) == ("C8", P1)


def test_dodge_vs_no_card_attack_only_option__OQ_06() -> None:
    rs = Ruleset(dodgeVsNoCardAttackOnly=True)
    g = recorded_game("2C 8C 3C 4C 5C 6C 9C", PLAIN, ruleset=rs)
    fight(g, commit("2C", "dodge"), NoCard())
    g.apply(P2, Pass())
    with pytest.raises(IllegalActionError) as err:
        g.apply(P1, combo("8C", "throw"))
    assert err.value.rule_id == "OQ-06"
    g.apply(P1, combo("3C"))
    assert g.life[1] == 87


def test_ace_costs_in_initiative_order__OQ_30_C3() -> None:
    g = recorded_game("AH AD AS AC 2C 3C 4C", "AH AD AS AC 2D 3D 4D", first=P2)
    fight(g, commit("AH", "attack", "True Power of Storms"),
          commit("AH", "attack", "True Power of Storms"))
    assert (g.step, g.actor) == ("C3", P2)  # P2 has initiative: pays first
    g.apply(P2, PayAces(cards("AD AS")))
    assert g.actor is P1
    g.apply(P1, PayAces(cards("AD AC")))
    assert g.life == (45, 45)  # a speed tie: both hit


def test_double_ko_default_is_a_draw__OQ_01() -> None:
    g = recorded_game("4C 3C 5C 6C 8C 9C KC", "4D 3D 5D 6D 8D 9D KD")
    g.state(P1).life, g.state(P2).life = 2, 3
    fight(g, commit("4C", "attack"), commit("4D", "attack"))
    assert g.outcome is not None and g.outcome.winner is None


def test_pump_cards_in_combo_option__CF_03() -> None:
    rs = Ruleset(pumpCardsInCombo=False)
    g = recorded_game("QH 7C 2C 3C 4C 5C 6C", PLAIN, p1="jaina", ruleset=rs)
    fight(g, commit("QH", "attack"), commit("2D", "attack"))
    g.apply(P2, Pass())
    g.apply(P1, Pump(0, cards("7C")))
    # the 7 used as a pump is no combo card under FALSE and the Queen is not returnable
    # above 35 life: no Burning Vigor decision (with the default TRUE there is one, see
    # test_jaina.py::test_vigor_returns_queen_pump_cards_not_queens_above_35)
    assert g.step in ("P2", "T2")


@pytest.mark.parametrize(
    ("scope", "life_p2", "prevented"),
    [
        # RW-6 default: the 2's base damage (dealt at C8c) stays; the 3 and 4 (3 + 4) are
        # prevented
        (RewindScope.FACE_DOWN_ONLY, 88, 7),
        # CF-06 [CL] alternative: the whole combo, the combat card's 2 included
        (RewindScope.ALL_COMBO_DAMAGE, 90, 9),
    ],
)
def test_rewind_scope_decides_whether_the_combat_card_is_prevented__CF_06_RW_6(
    scope: RewindScope, life_p2: int, prevented: int
) -> None:
    # given P1 wins with a normal 2 and P2 places a Rewind Joker at C9
    g = recorded_game("2C 3C 4C 5C 6C 8C 9C", "X1 7D 3D 4D 5D 6D 8D",
                      ruleset=Ruleset(rewindScope=scope))
    fight(g, commit("2C", "attack"), NoCard())
    draw(g, P1, "TH")
    g.apply(P2, FaceDown(card("X1")))
    # when P1 combos 3 and 4, then the Joker is revealed (C11)
    g.apply(P1, combo("3C"))
    g.apply(P1, combo("4C"))
    g.apply(P1, Stop())
    draw(g, P2, "9D")
    draw(g, P2, "9C")
    # then
    assert g.life == (90, life_p2)
    assert g.totals(P2).jokers["rewind_prevented_damage"] == prevented
    assert g.totals(P1).damage_dealt["combat"] == 90 - life_p2


def test_block_draw_and_dodge_grant__CF_20_CF_21() -> None:
    g = recorded_game("5C 2C 3C 4C 6C 8C 9C", PLAIN)
    fight(g, commit("5C", "block"), commit("3D", "attack"))
    draw(g, P2, "KD")  # C7: the blocked normal draws
    draw(g, P1, "KS")  # CF-20: the block draws 1
    g.apply(P1, Pass())
    draw(g, P1, "QC")
    draw(g, P2, "QD")
    fight(g, commit("2C", "dodge"), commit("6D", "attack"))
    g.apply(P2, Pass())
    g.apply(P1, combo("8C", "throw"))  # CF-21: exactly one move, any type, as an Ender
    assert g.step != "C10"


def test_several_copies_in_one_window_and_abilities_resolve_at_once__AB_5_AB_4_WIN_REVEAL() -> None:
    g = recorded_game("TH TC 2C 3C 4C 5C 6C", PLAIN, p1="jaina", p2="grave")
    fight(g, commit("2C", "attack"), commit("3D", "attack"))
    assert g.step == "C4"
    g.apply(P1, UseAbility("Smoldering Embers", card("TH")))
    assert card("TH") in g.state(P1).discard  # resolved at once (AB-4)
    g.apply(P1, UseAbility("Smoldering Embers", card("TC")))
    assert card("TC") in g.state(P1).discard


def test_ability_card_is_used_instead_of_in_combat__AB_2_WIN_REACTION_GL_COUNTER_CTR_7() -> None:
    g = recorded_game("7C 2C 3C 4C 5C 6C 8C", "2D 3D 4D 5D 6D TD JD")
    fight(g, NoCard(), NoCard())
    draw(g, P1, "KC")
    draw(g, P2, "KD")
    g.apply(P1, UseAbility("Martial Mastery", card("7C")))
    assert card("7C") in g.state(P1).discard and card("7C") not in g.state(P1).hand
    assert g.actor is P2 and g.step == "T3"  # the reaction window (CTR-2)
    assert any(isinstance(a, UseAbility) and a.ability == "Mental Toughness"
               for a in g.legal_actions(P2))
    g.apply(P2, Pass())
    draw(g, P1, "QC")


def test_during_and_end_of_combat_windows__AB_3_WIN_DURING_WIN_ENDCOMBAT_WIN_INNATE() -> None:
    # Lightning Trap works only on the combat card (AB-3); Burning Vigor at C13 (WIN-ENDCOMBAT);
    # Grave's innate triggers at the step where its condition happens (WIN-INNATE)
    g = recorded_game("JC 3C 4C 5C 6C 7C 8C", "7D 2D 3D 4D 5D 6D QD", p2="jaina")
    fight(g, commit("JC", "attack"), commit("7D", "block"))
    assert card("JC") in g.state(P1).hand
    g2 = recorded_game("5C 2C 3C 4C 6C 8C 9C", "2D 3D 4D 5D 6D 8D QD", p2="jaina")
    fight(g2, commit("5C", "block"), commit("2D", "attack"))
    draw(g2, P2, "KD")
    draw(g2, P1, "KS")
    assert (g2.step, g2.actor) == ("C8", P1)  # Grave's innate, right after the block draw
    g2.apply(P1, Pass())
    assert (g2.step, g2.actor) == ("C13", P2)  # Jaina's Burning Vigor
    assert g2.legal_actions(P2)[0] == Pass()


def test_initiative_order_for_mechanical_steps__INI_6_GL_INITIATIVE() -> None:
    g = recorded_game("2C 3C 4C 5C 6C 8C 9C", PLAIN, first=P2)
    fight(g, NoCard(), NoCard())
    assert g.actor is P2  # T2: the initiative player draws first
    draw(g, P2, "KD")
    assert g.actor is P1


def test_no_card_and_gold_burst_terms__GL_NOCARD_GL_GOLDBURST() -> None:
    g = recorded_game("X1 2C 3C 4C 5C 6C 8C", PLAIN)
    fight(g, commit("X1"), NoCard())
    assert g.combat.cell == "M-JOKER-NOCARD"
    assert g.totals(P1).jokers["gold_burst"] == 1


def test_combat_card_leaves_the_hand__GL_COMBAT_CARD_GL_DAMAGE_GL_BLOCK_DAMAGE() -> None:
    g = recorded_game("2C 3C 4C 5C 6C 7C 9C", "KD 2D 3D 4D 5D 6D 8D", p1="jaina", p2="grave")
    fight(g, commit("7C", "block"), commit("KD", "attack"))
    assert (g.step, g.actor) == ("C8", P1)  # the block draw
    assert card("7C") not in g.state(P1).hand  # the combat card is in the combat area
    draw(g, P1, "QS")
    assert card("7C") in g.state(P1).hand  # returned at C13c
    assert g.totals(P2).damage_dealt["block"] == 1 and g.life == (84, 90)  # Whirlwind's


def test_public_view_hides_hands_and_face_down_cards__GEN_9() -> None:
    from rules_engine.actions import FaceDown
    g = recorded_game("2C 3C 4C 5C 6C 8C 9C", "X1 3D 4D 5D 6D 8D 9D")
    g.apply(P1, commit("2C", "attack"))
    hidden = g.public_view(P2)
    assert "combat_card" not in hidden["players"]["P1"]  # type: ignore[index]
    g.apply(P2, NoCard())
    draw(g, P1, "TH")
    g.apply(P2, FaceDown(card("X1")))
    view = g.public_view(P1)
    p1, p2 = view["players"]["P1"], view["players"]["P2"]  # type: ignore[index]
    assert p1["combat_card"] == "2C" and p1["hand"][0] == "3C"
    assert "hand" not in p2 and p2["hand_size"] == 6 and p2["face_down"] is True
    assert "X1" not in str(view)
