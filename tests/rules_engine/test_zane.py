"""Zane (docs/rules/characters/zane.md): Shenanigans, Meaty Attacks, Creator and Destroyer,
Crash Bomb, and the decisions of zane.md's "Engine rulings"."""

from __future__ import annotations

import pytest

from rules_engine.actions import Combo, NoCard, Pass, Stop, UseAbility
from rules_engine.bots import GreedyBot
from rules_engine.cards import MoveType, card, character, characters
from rules_engine.characters import IMPLEMENTED, abilities_implemented
from rules_engine.errors import RuleViolation
from rules_engine.game import Game
from rules_engine.journal import DamageDealt, Hit, Knockdown
from rules_engine.ruleset import Ruleset, ZaneThrowSpeed

from . import helpers
from .helpers import (
    P1,
    P2,
    cards,
    combo,
    commit,
    draw,
    fight,
    finish_turn,
    illegal_rule,
    recorded_game,
)

PLAIN = "2D 3D 4D 5D 6D 8D 9D"  # Grave with nothing to play outside combat
SHEN = UseAbility("Shenanigans")
CREATOR = "Creator and Destroyer"


def _codes(cs: list) -> list[str]:
    return sorted(c.code for c in cs)


# --- Crash Bomb (K, During Combat) ---------------------------------------------------------------
def test_crash_bomb_cant_be_interrupted_by_a_faster_attack__AB_3() -> None:
    """zane.md, Card abilities (Crash Bomb): "If it's hit by a faster attack, the opponent
    can't combo; this hits afterwards and wins combat" (and knocks down)."""
    g = recorded_game("KC 3C 5C 6C 7C 8C 9C", PLAIN, p1="zane")
    fight(g, commit("KC", "attack"), commit("2D", "attack"))  # 5.0 against 2.6
    assert g.combat.winner is P1
    assert sorted((e.seat, e.by) for e in g.journal.of(Hit)) == [(P1, P2), (P2, P1)]
    assert g.life == (85 - 2, 90 - 10)
    finish_turn(g, 1)
    assert [(e.seat, e.by) for e in g.journal.of(Knockdown)] == [(P2, P1)]


def test_crash_bomb_loses_to_dodge_and_gold_burst() -> None:
    """zane.md, Crash Bomb: only a faster *attack* is resisted."""
    g = recorded_game("KC 3C 5C 6C 7C 8C 9C", PLAIN, p1="zane")
    fight(g, commit("KC", "attack"), commit("2D", "dodge"))
    assert g.combat.winner is P2
    g = recorded_game("KC 3C 5C 6C 7C 8C 9C", "X1 2D 3D 4D 5D 6D 8D", p1="zane")
    fight(g, commit("KC", "attack"), commit("X1"))
    assert g.combat.winner is P2


def test_crash_bomb_blocked_self_damage_and_knockdown__KD_6() -> None:
    """zane.md, Crash Bomb: "If this is blocked, you take 5 damage and are knocked down"
    (ability damage at C8b, a knockdown for the next turn); Grave takes the block damage 5."""
    g = recorded_game("KC 3C 5C 6C 7C 8C 9C", PLAIN, p1="zane")
    fight(g, commit("KC", "attack"), commit("5D", "block"))
    draw(g, P2, "TH")  # the block draw
    assert g.life[0] == 85 - 5  # C8b: the 5 self-damage
    g.apply(P2, Pass())  # Grave's Knowing the Opponent
    assert g.life == (85 - 5, 90 - 5)  # C8c: Grave's block damage
    assert [(e.target, e.source, e.kind, e.amount) for e in g.journal.of(DamageDealt)] == [
        (P1, P1, "ability", 5), (P2, P1, "block", 5)]
    assert [(e.seat, e.by) for e in g.journal.of(Knockdown)] == [(P1, P2)]
    finish_turn(g, 1)
    assert g.state(P1).knocked_down  # turn 2 (KD-6)


def test_countered_crash_bomb_block_clause__CTR_3() -> None:
    """zane.md, FAQ / clarifications (community note): the opponent may counter Crash Bomb's
    ability when they block it: no self-damage, no knockdown."""
    g = recorded_game("KC 3C 5C 6C 7C 8C 9C", "2D 3D 4D 5D 6D TD QD", p1="zane")
    fight(g, commit("KC", "attack"), commit("5D", "block"))
    draw(g, P2, "TH")
    assert g.actor is P2
    g.apply(P2, UseAbility("Mental Toughness", card("TD"), (card("QD"),)))
    g.apply(P2, Pass())  # Grave's Knowing the Opponent
    assert g.life[0] == 85 and not g.state(P1).knockdown_next


# --- Meaty Attacks (innate) ---------------------------------------------------------------------
def test_meaty_attacks_normal_attacks_speed_1_against_a_knocked_down_opponent__KD_3() -> None:
    """zane.md, Innate abilities (Meaty Attacks): while the opponent is knocked down, his
    normal attacks are speed 1.0: his 6 (6.3) beats Grave's 2 (2.6)."""
    g = recorded_game("6C 3C 5C KC 7C 8C 9C", PLAIN, p1="zane")
    g.state(P2).knocked_down = True
    fight(g, commit("6C", "attack"), commit("2D", "attack"))
    assert g.combat.winner is P1
    g = recorded_game("6C 3C 5C KC 7C 8C 9C", PLAIN, p1="zane")
    fight(g, commit("6C", "attack"), commit("2D", "attack"))
    assert g.combat.winner is P2


def test_throw_speed_option_x4__zane_md_core_stats() -> None:
    """zane.md, Core stats (speed conflict): x.3 by default, x.4 under
    opt.zaneThrowSpeed=X_4; its JSON value round-trips."""
    for ruleset, speed in ((Ruleset(), 73), (Ruleset(zaneThrowSpeed=ZaneThrowSpeed.X_4), 74)):
        g = recorded_game("7C 3C 5C KC 6C 8C 9C", PLAIN, p1="zane", ruleset=ruleset)
        fight(g, commit("7C", "throw"), NoCard())
        assert g.speed(g.state(P1)) == speed
    assert Ruleset.from_json({"zaneThrowSpeed": "X_4"}).zaneThrowSpeed is ZaneThrowSpeed.X_4


# --- Shenanigans (innate) -----------------------------------------------------------------------
def _won_with_2(zane: str = "2C 3C 5C KC 6C 8C 9C", c7: str = "TH") -> Game:
    g = recorded_game(zane, PLAIN, p1="zane")
    fight(g, commit("2C", "attack"), NoCard())
    draw(g, P1, c7)  # C7
    g.apply(P2, Pass())  # C9
    assert g.step == "C10" and g.actor is P1
    return g


def test_shenanigans_reveals_two_and_plays_one_in_the_combo__AB_1() -> None:
    """zane.md, Innate abilities (Shenanigans): reveal the top two cards, use up to one in the
    combo, discard the unused card(s); a `draw` event per revealed card in a recorded log."""
    g = _won_with_2()
    assert SHEN in g.legal_actions(P1)
    g.apply(P1, SHEN)
    draw(g, P1, "4H")
    draw(g, P1, "JH")
    legal = g.legal_actions(P1)
    assert Pass() in legal and Combo(card("JH"), MoveType.ATTACK) in legal
    assert Combo(card("4H"), MoveType.ATTACK) not in legal  # Zane's 4 has no attack
    assert illegal_rule(g, P1, combo("3C")) == "AB-1"  # a card of his hand, not revealed
    g.apply(P1, Combo(card("JH"), MoveType.ATTACK))
    zane = g.state(P1)
    assert card("4H") in zane.discard and card("JH") not in zane.hand
    finish_turn(g, 1)
    assert g.combos[-1].cards == ["2C", "JH"]
    assert g.life[1] == 90 - 2 - 9


def test_shenanigans_pass_discards_both_and_is_once_per_turn__AB_1() -> None:
    g = _won_with_2()
    g.apply(P1, SHEN)
    draw(g, P1, "3H")
    draw(g, P1, "QH")
    g.apply(P1, Pass())
    assert {card("3H"), card("QH")} <= set(g.state(P1).discard)
    assert SHEN not in g.legal_actions(P1)
    assert illegal_rule(g, P1, SHEN) == "C10"
    g.apply(P1, combo("3C"))
    assert SHEN not in g.legal_actions(P1)


def test_shenanigans_not_offered_after_an_ender_or_outside_a_combo() -> None:
    """Shenanigans is "when you could play a combo card": not at C1, not after an Ender."""
    g = recorded_game("2C 3C 5C KC 6C 8C JC", PLAIN, p1="zane")
    assert illegal_rule(g, P1, SHEN) == "C1"
    g = _won_with_2("2C 3C 5C KC 6C 8C JC")
    g.apply(P1, combo("JC", "attack"))  # Anarch Crusher: an Ender
    assert g.step != "C10" or SHEN not in g.legal_actions(P1)
    rules = IMPLEMENTED["zane"](character("zane"))
    with pytest.raises(RuleViolation) as why:
        rules.check(g, g.state(P1), "draw_phase", SHEN)
    assert why.value.rule_id == "AB-1"


def test_shenanigans_nothing_playable_discards_without_a_choice() -> None:
    """zane.md, "Engine rulings": revealed cards with no legal combo move (a 4: block, dodge)
    are discarded with no decision."""
    g = _won_with_2()
    g.apply(P1, SHEN)
    draw(g, P1, "4H")
    draw(g, P1, "4S")
    assert {card("4H"), card("4S")} <= set(g.state(P1).discard)
    assert Stop() in g.legal_actions(P1)


# --- Creator and Destroyer (4) -------------------------------------------------------------------
def test_creator_and_destroyer_after_a_cant_combo_hit__AB_2() -> None:
    """zane.md, Card abilities (Creator and Destroyer): after his Can't Combo Crash Bomb hits,
    he may discard a 4 to remake the opponent's hand: their hand, shuffled, to the bottom of
    their deck, then they draw that many."""
    g = recorded_game("KC 4C 5C 6C 7C 8C 9C", PLAIN, p1="zane")
    fight(g, commit("KC", "attack"), NoCard())
    assert g.actor is P1
    assert set(g.legal_actions(P1)) == {Pass(), UseAbility(CREATOR, card("4C"))}
    assert illegal_rule(g, P1, UseAbility(CREATOR, card("5C"))) == "AB-2"
    g.apply(P1, UseAbility(CREATOR, card("4C")))
    old = cards(PLAIN)
    new = ["2H", "3H", "4H", "5H", "6H", "8H", "9H"]
    for code in new:
        draw(g, P2, code)
    grave = g.state(P2)
    assert _codes(grave.hand) == sorted(new)
    assert set(grave.deck[-7:]) == set(old)  # the old hand is at the bottom
    assert card("4C") in g.state(P1).discard


def test_creator_and_destroyer_in_the_full_combo_window__WIN_FULLCOMBO() -> None:
    """zane.md, Creator and Destroyer: "whenever you use all your combo points" = the Full
    Combo window (C10, WIN-FULLCOMBO): 2 (1) + 3 (1) + 7 throw (2) = his 4 points."""
    g = _won_with_2("2C 3C 4C 7C 6C 8C 9C")
    g.apply(P1, combo("3C"))
    g.apply(P1, combo("7C", "throw"))
    assert UseAbility(CREATOR, card("4C")) in g.legal_actions(P1)
    g.apply(P1, UseAbility(CREATOR, card("4C")))
    assert g.actor is P2  # the remake's draws (6 cards: the 7 less nothing played)
    assert len(g.state(P2).hand) == 0


def test_creator_and_destroyer_illegal_uses__AB_2() -> None:
    g = recorded_game("KC 4C 5C 6C 7C 8C 9C", PLAIN, p1="zane")
    rules = IMPLEMENTED["zane"](character("zane"))
    with pytest.raises(RuleViolation) as why:
        rules.check(g, g.state(P1), "draw_phase", UseAbility(CREATOR, card("4C")))
    assert why.value.rule_id == "WIN-FULLCOMBO"
    fight(g, commit("KC", "attack"), NoCard())
    assert illegal_rule(g, P1, UseAbility(CREATOR, card("4H"))) == "AB-2"  # not his
    assert illegal_rule(g, P1, UseAbility(CREATOR, card("4C"), (card("5C"),))) == "AB-2"


def test_countered_creator_and_destroyer_does_nothing__CTR_3() -> None:
    g = recorded_game("KC 4C 5C 6C 7C 8C 9C", "2D 3D 4D 5D 6D TD QD", p1="zane")
    fight(g, commit("KC", "attack"), NoCard())
    g.apply(P1, UseAbility(CREATOR, card("4C")))
    g.apply(P2, UseAbility("Mental Toughness", card("TD"), (card("QD"),)))
    assert _codes(g.state(P2).hand) == ["2D", "3D", "4D", "5D", "6D"]


# --- bots, registry and self-play ---------------------------------------------------------------
def test_greedy_shenanigans_when_the_hand_cannot_go_on() -> None:
    """ZaneRules' greedy heuristic (class docstring; after the Training bot's)."""
    g = _won_with_2("2C 4C 4D 4H 4S X1 X2", c7="2H")  # no attack or throw in hand to follow the 2
    assert GreedyBot().choose(g, P1, g.legal_actions(P1)) == SHEN
    g = _won_with_2()
    assert GreedyBot().choose(g, P1, g.legal_actions(P1)) != SHEN
    g.apply(P1, SHEN)
    draw(g, P1, "3H")
    draw(g, P1, "JH")
    assert GreedyBot().choose(g, P1, g.legal_actions(P1)) == Combo(card("JH"), MoveType.ATTACK)


def test_greedy_creator_and_destroyer_against_a_big_hand() -> None:
    g = recorded_game("KC 4C 5C 6C 7C 8C 9C", PLAIN, p1="zane")
    fight(g, commit("KC", "attack"), NoCard())
    assert GreedyBot().choose(g, P1, g.legal_actions(P1)) == UseAbility(CREATOR, card("4C"))


def test_zane_is_registered() -> None:
    assert abilities_implemented("zane") and "zane" in IMPLEMENTED


@pytest.mark.parametrize("opponent", sorted(characters()))
def test_self_play_against_every_character_replays_legal(opponent: str) -> None:
    """Issue 14: Zane against each of the 20 (both seats, random and greedy bots)."""
    helpers.assert_self_play_replays_legal("zane", opponent, first_seed=14)
