"""DeGrey (docs/rules/characters/degrey.md): Moral High Ground, Troublesome Rhetoric, Point,
Counterpoint, Ghost Riposte, FR-DEGREY-1/2, and the decisions of degrey.md's "Engine rulings"."""

from __future__ import annotations

import pytest

from rules_engine.actions import Pass, PowerUp, Stop, UseAbility
from rules_engine.bots import GreedyBot, RandomBot
from rules_engine.cards import card, characters
from rules_engine.errors import RuleViolation
from rules_engine.game import Game
from rules_engine.journal import ComboEnded, Healed
from rules_engine.ruleset import MoralHighGround, Ruleset

from . import helpers
from .helpers import P1, P2, combo, commit, draw, fight, illegal_rule, recorded_game

PLAIN = "2D 3D 4D 5D 6D 8D 9D"  # Grave with nothing to play outside combat
RHETORIC = "Troublesome Rhetoric"
POINT = "Point, Counterpoint"


def _hurt_then_turn_two(hand: str, grave_hand2: str = "2D 3D 4D 5D",
                        d1: str = "KC", d2: str = "JS") -> Game:
    """Turn 1: Grave's True Power of Storms (45) hits DeGrey's no-card; turn 2 after the draws
    (DeGrey, 45 life, has initiative), at the draw-phase window."""
    g = recorded_game(hand, "AD AH AS " + grave_hand2, p1="degrey", p2="grave")
    fight(g, commit(None), commit("AD", "attack", "True Power of Storms"))
    if g.actor is P1 and g.step == "P2":
        g.apply(P1, PowerUp())
    draw(g, P1, d1)
    draw(g, P2, d2)
    assert g.turn == 2 and g.step == "T3" and g.life == (45, 90)
    return g


# --- Troublesome Rhetoric (4, Draw Phase) ---------------------------------------------------
def test_rhetoric_naming_the_revealed_action_gains_12() -> None:
    g = _hurt_then_turn_two("4C 5C 6C 7C 8C 9C TC")
    assert UseAbility(RHETORIC, card("4C"), option="block") in g.legal_actions(P1)
    g.apply(P1, UseAbility(RHETORIC, card("4C"), option="block"))
    fight(g, commit("5C", "attack"), commit("5D", "block"))
    assert g.state(P1).life == 45 + 12
    assert card("4C") in g.state(P1).discard


def test_rhetoric_naming_another_action_gains_nothing() -> None:
    """degrey.md, Troublesome Rhetoric: life only if the opponent combat-reveals the named
    option."""
    g = _hurt_then_turn_two("4C 5C 6C 7C 8C 9C TC")
    g.apply(P1, UseAbility(RHETORIC, card("4C"), option="throw"))
    fight(g, commit("5C", "attack"), commit("5D", "block"))
    assert g.state(P1).life == 45
    assert not list(g.journal.of(Healed))


def test_three_rhetorics_naming_block_gain_36__FR_DEGREY_2_AB_5() -> None:
    g = _hurt_then_turn_two("4C 4D 4H 6C 7C 8C 9C")
    for c in ("4C", "4D"):
        g.apply(P1, UseAbility(RHETORIC, card(c), option="block"))
    g.apply(P1, UseAbility(RHETORIC, card("4H"), option="block"))
    # three copies named the same option; nothing else to play: the window closed by itself
    fight(g, commit("6C", "attack"), commit("5D", "block"))
    assert g.state(P1).life == 45 + 36
    assert [h.amount for h in g.journal.of(Healed)] == [12, 12, 12]


def test_rhetoric_copies_may_name_different_options__FR_DEGREY_2() -> None:
    g = _hurt_then_turn_two("4C 4D 5C 6C 7C 8C 9C")
    g.apply(P1, UseAbility(RHETORIC, card("4C"), option="attack"))
    g.apply(P1, UseAbility(RHETORIC, card("4D"), option="block"))
    fight(g, commit("6C", "attack"), commit("5D", "block"))
    assert g.state(P1).life == 45 + 12


def test_rhetoric_heal_is_capped_at_starting_life__GEN_8() -> None:
    g = recorded_game("4C 4D 4H 6C 7C 8C 9C", PLAIN, p1="degrey", p2="grave")
    fight(g, commit(None), commit("2D", "attack"))  # DeGrey 88
    draw(g, P2, "KS")  # C7: Grave's normal attack won
    g.apply(P1, Pass())  # no Rewind card
    g.apply(P2, Stop())
    g.apply(P1, PowerUp())
    draw(g, P1, "KC")
    draw(g, P2, "JS")
    g.apply(P1, UseAbility(RHETORIC, card("4C"), option="attack"))
    g.apply(P1, Pass())
    fight(g, commit("6C", "attack"), commit("3D", "attack"))
    assert g.state(P1).life <= 90
    assert [h.amount for h in g.journal.of(Healed)] == [2]


def test_countered_rhetoric_gains_nothing__CTR_3() -> None:
    g = _hurt_then_turn_two("4C 5C 6C 7C 8C 9C TC", grave_hand2="2D TD QD 5D")
    g.apply(P1, UseAbility(RHETORIC, card("4C"), option="block"))
    g.apply(P2, UseAbility("Mental Toughness", card("TD"), (card("QD"),)))
    fight(g, commit("5C", "attack"), commit("5D", "block"))
    assert g.state(P1).life == 45
    assert card("4C") in g.state(P1).discard


def test_rhetoric_illegal_uses_are_refused__WIN_DRAW_AB_2() -> None:
    g = _hurt_then_turn_two("4C 5C 6C 7C 8C 9C TC")
    assert illegal_rule(g, P1, UseAbility(RHETORIC, card("4C"), option="joker")) == "AB-2"
    assert illegal_rule(g, P1, UseAbility(RHETORIC, card("5C"), option="attack")) == "AB-2"
    assert illegal_rule(g, P1, UseAbility(RHETORIC, card("4D"), option="attack")) == "AB-2"
    g.apply(P1, Pass())
    # at Combat Reveal (his 7 is the combat card, so he has a decision there)
    fight(g, commit("7C", "attack"), commit("5D", "block"))
    assert g.step == "C4" and g.actor is P1
    assert illegal_rule(g, P1, UseAbility(RHETORIC, card("4C"), option="attack")) == "WIN-DRAW"


def test_no_rhetoric_on_turn_1__WIN_DRAW() -> None:
    g = recorded_game("4C 5C 6C 7C 8C 9C TC", PLAIN, p1="degrey", p2="grave")
    assert g.step == "C1"  # no draw phase window on turn 1


# --- Point, Counterpoint (7, During Combat) -------------------------------------------------
def test_point_counterpoint_rotates_the_attack_into_a_throw__AB_3() -> None:
    g = recorded_game("7C 2C 3C 5C 6C 8C 9C", PLAIN, p1="degrey", p2="grave")
    fight(g, commit("7C", "attack"), commit("5D", "block"))
    assert g.step == "C4"
    options = g.legal_actions(P1)
    assert UseAbility(POINT, card("7C"), (card("2C"),)) in options
    g.apply(P1, UseAbility(POINT, card("7C"), (card("2C"),)))
    # once per combat: no second one is offered (FR-DEGREY-1); the window closed
    assert g.step == "C9" and g.actor is P2  # the throw beat the block: Grave may Rewind
    g.apply(P2, Pass())
    g.apply(P1, Stop())
    assert g.life[1] == 90 - 8  # DeGrey's normal throw: 8
    assert card("2C") in g.state(P1).discard and card("7C") in g.state(P1).discard


def test_point_counterpoint_once_per_combat__FR_DEGREY_1_AB_6() -> None:
    g = recorded_game("7C 2C 3C 5C 6C 8C 9C", PLAIN, p1="degrey", p2="grave")
    fight(g, commit("7C", "attack"), commit("5D", "block"))
    ps = g.state(P1)
    rules = g.rules[P1]
    action = UseAbility(POINT, card("7C"), (card("3C"),))
    g.apply(P1, UseAbility(POINT, card("7C"), (card("2C"),)))
    assert rules.window_options(g, ps, "combat_reveal") == []
    with pytest.raises(RuleViolation) as err:
        rules.check(g, ps, "combat_reveal", action)
    assert err.value.rule_id == "FR-DEGREY-1"


def test_countered_point_counterpoint_refunds_its_cost__CTR_3() -> None:
    g = recorded_game("7C 2C 3C 5C 6C 8C 9C", "2D 3D 4D 5D TD QD 9D", p1="degrey",
                      p2="grave")
    fight(g, commit("7C", "attack"), commit("5D", "block"))
    g.apply(P1, UseAbility(POINT, card("7C"), (card("2C"),)))
    g.apply(P2, UseAbility("Mental Toughness", card("TD"), (card("QD"),)))
    ps = g.state(P1)
    assert card("2C") in ps.hand and ps.combat_move is not None
    assert ps.combat_move.type.value == "attack"  # not rotated
    assert g.rules[P1].window_options(g, ps, "combat_reveal") == []  # its one use is spent


def test_point_counterpoint_illegal_uses__AB_3_AB_2_WIN_DURING() -> None:
    g = recorded_game("7C 2C 3C 5C 6C 8C 9C", PLAIN, p1="degrey", p2="grave")
    fight(g, commit("7C", "attack"), commit("5D", "block"))
    assert illegal_rule(g, P1, UseAbility(POINT, card("7D"), (card("2C"),))) == "AB-3"
    assert illegal_rule(g, P1, UseAbility(POINT, card("7C"), (card("4C"),))) == "AB-2"
    assert illegal_rule(g, P1, UseAbility(POINT, card("7C"), ())) == "AB-2"
    with pytest.raises(RuleViolation) as err:
        g.rules[P1].check(g, g.state(P1), "draw_phase",
                          UseAbility(POINT, card("7C"), (card("2C"),)))
    assert err.value.rule_id == "WIN-DURING"


def test_no_point_counterpoint_without_the_7_in_combat__AB_3() -> None:
    g = recorded_game("7C 2C 3C 5C 6C 8C 9C", PLAIN, p1="degrey", p2="grave")
    fight(g, commit("5C", "attack"), commit("5D", "block"))
    assert g.step != "C4"  # no window: nothing playable
    assert g.rules[P1].window_options(g, g.state(P1), "combat_reveal") == []


# --- Ghost Riposte (A's dodge) ----------------------------------------------------------------
def test_ghost_riposte_hits_back_with_a_full_combo_and_returns__CB_13() -> None:
    g = recorded_game("AC 5C 6C 7C 8C 9C TC", PLAIN, p1="degrey", p2="grave")
    fight(g, commit("AC", "dodge"), commit("5D", "attack"))
    g.apply(P2, Pass())  # C9: Grave may Rewind against a dodge
    g.apply(P1, combo("5C"))
    g.apply(P1, combo("6C"))  # a second move: the hit-back is a full combo
    g.apply(P1, combo("7C"))  # nothing left to add: the combo ends by itself (CB-11)
    assert g.life[1] == 90 - 5 - 6 - 7
    ps = g.state(P1)
    assert ps.chains == [3]  # a full combo makes chains (CH-1)
    assert card("AC") in ps.hand  # returned at end of combat


def test_ghost_riposte_full_combo_keeps_the_combo_limit__CB_3() -> None:
    g = recorded_game("AC 5C 6C 7C KC JC TC", PLAIN, p1="degrey", p2="grave")
    fight(g, commit("AC", "dodge"), commit("5D", "attack"))
    g.apply(P2, Pass())
    g.apply(P1, combo("5C"))
    g.apply(P1, combo("6C"))
    g.apply(P1, combo("7C"))
    assert illegal_rule(g, P1, combo("KC")) == "CB-3"  # Spirit Justice: 2 more, 3 of 4 spent
    g.apply(P1, combo("JC"))  # Daggerfall Thrust (1) still fits, and ends it (CB-5)
    assert g.combos[-1].points == 4


def test_ghost_riposte_against_no_card_is_an_ordinary_hit_back__CB_7() -> None:
    g = recorded_game("AC 5C 6C 7C 8C 9C TC", PLAIN, p1="degrey", p2="grave")
    fight(g, commit("AC", "dodge"), commit(None))
    g.apply(P2, Pass())  # C9
    g.apply(P1, combo("5C"))
    assert g.combos[-1].cards == ["5C"]  # the hit-back ended it (CB-7)
    assert card("AC") in g.state(P1).hand  # not thrown: it returns


def test_a_normal_dodge_hit_back_stays_one_ender__CB_7() -> None:
    g = recorded_game("2C 5C 6C 7C 8C 9C TC", PLAIN, p1="degrey", p2="grave")
    fight(g, commit("2C", "dodge"), commit("5D", "attack"))
    g.apply(P2, Pass())
    g.apply(P1, combo("5C"))
    assert g.combos[-1].cards == ["5C"] and card("2C") in g.state(P1).discard


def test_ghost_riposte_thrown_is_discarded() -> None:
    """degrey.md, Ghost Riposte: "unless you were thrown" (AR-THR-2)."""
    g = recorded_game("AC 5C 6C 7C 8C 9C TC", PLAIN, p1="degrey", p2="grave")
    fight(g, commit("AC", "dodge"), commit("8D", "throw"))
    g.apply(P1, Pass())  # C9: DeGrey's Rewind window (he lost)
    g.apply(P2, Stop())
    assert card("AC") in g.state(P1).discard


# --- Moral High Ground (innate) ----------------------------------------------------------------
def test_moral_high_ground_adds_the_hand_difference_after_the_combo() -> None:
    """degrey.md, Innate (Moral High Ground): computed after the combo, special and super attacks
    only."""
    g = recorded_game("QC 5C 6C 7C 8C 9C TC", PLAIN, p1="degrey", p2="grave")
    fight(g, commit("QC", "attack", "Pilebunker"), commit(None))
    g.apply(P2, Pass())  # C9
    g.apply(P1, combo("5C"))
    g.apply(P1, Stop())
    # after the combo DeGrey holds 5, Grave 7: the Pilebunker (special) deals 2 more; the 5
    # (a normal attack) none
    assert g.life[1] == 90 - 14 - 5 - 2
    rec = next(g.journal.of(ComboEnded)).record
    assert rec.damage == 14 + 5 + 2


def test_moral_high_ground_plus_one_option() -> None:
    """degrey.md, Moral High Ground source conflict: the wiki's reading as opt.moralHighGround."""
    g = recorded_game("QC 5C 6C 7C 8C 9C TC", PLAIN, p1="degrey", p2="grave",
                      ruleset=Ruleset(moralHighGround=MoralHighGround.DIFFERENCE_PLUS_ONE))
    fight(g, commit("QC", "attack", "Pilebunker"), commit(None))
    g.apply(P2, Pass())  # C9
    g.apply(P1, combo("5C"))
    g.apply(P1, Stop())
    assert g.life[1] == 90 - 14 - 5 - 3


def test_no_moral_high_ground_when_the_opponent_holds_no_more() -> None:
    """degrey.md, Moral High Ground: no bonus on block damage (no combo) or without a difference."""
    g = recorded_game("QC 5C 6C 7C 8C 9C TC", PLAIN, p1="degrey", p2="grave")
    fight(g, commit("QC", "attack", "Pilebunker"), commit("5D", "block"))
    # blocked: block damage only, no combo and no bonus (DeGrey 6 cards, Grave 6 + draw)
    draw(g, P2, "KS")
    g.apply(P2, Pass())  # Grave's innate
    assert g.life[0] == 90 and g.life[1] == 90 - 4


def test_moral_high_ground_in_a_speed_tie__OQ_10() -> None:
    # turn 1: DeGrey's normal attack is blocked: both draw, Grave's block returns
    g = recorded_game("5C JC 6C 7C 8C 9C TC", PLAIN, p1="degrey", p2="grave")
    fight(g, commit("5C", "attack"), commit("5D", "block"))
    draw(g, P1, "2C")  # C7: a blocked normal attack draws
    draw(g, P2, "JD")  # C8b: the block draws
    g.apply(P2, Pass())  # Knowing the Opponent: no reveal
    draw(g, P1, "3C")
    draw(g, P2, "JS")
    # turn 2: both J attacks at 2.4 trade (DeGrey 7 cards left, Grave 8)
    fight(g, commit("JC", "attack", "Daggerfall Thrust"), commit("JD", "attack"))
    assert g.life == (90 - 8, 90 - 7 - 1)


# --- bots -----------------------------------------------------------------------------------
def test_greedy_plays_point_counterpoint_only_when_the_rotation_wins() -> None:
    g = recorded_game("7C 2C 3C 5C 6C 8C 9C", PLAIN, p1="degrey", p2="grave")
    fight(g, commit("7C", "attack"), commit("5D", "block"))
    pick = GreedyBot().choose(g, P1, g.legal_actions(P1))
    assert pick == UseAbility(POINT, card("7C"), (card("2C"),))  # cheapest card, throw wins
    g2 = recorded_game("7C 2C 3C 5C 6C 8C 9C", PLAIN, p1="degrey", p2="grave")
    fight(g2, commit("7C", "attack"), commit("8D", "throw"))
    assert GreedyBot().choose(g2, P1, g2.legal_actions(P1)) == Pass()  # the attack wins


def test_greedy_rhetoric_when_hurt_and_random_bot_sees_every_choice() -> None:
    """Issue 12, bots: DeGreyRules' greedy heuristic; the random bot chooses among all choices."""
    g = _hurt_then_turn_two("4C 5C 6C 7C 8C 9C TC")
    legal = g.legal_actions(P1)
    assert GreedyBot().choose(g, P1, legal) == UseAbility(RHETORIC, card("4C"), option="attack")
    assert sum(isinstance(a, UseAbility) for a in legal) == 4
    picks = {RandomBot(s).choose(g, P1, legal) for s in range(40)}
    assert Pass() in picks and any(isinstance(a, UseAbility) for a in picks)


@pytest.mark.parametrize("opponent", sorted(characters()))
def test_self_play_against_every_character_replays_legal(opponent: str) -> None:
    """Issue 12: DeGrey against each of the 20 (both seats, random and greedy bots) replays
    as legal with the same result and position."""
    helpers.assert_self_play_replays_legal("degrey", opponent, first_seed=7)
