"""BBB (docs/rules/characters/bbb.md): Long Range (its range set for the next turn and binding
both players), Robo Headbutt, Overdrive, and the decisions of bbb.md's "Engine rulings"."""

from __future__ import annotations

import pytest

from rules_engine.actions import Pass, UseAbility
from rules_engine.bots import GreedyBot
from rules_engine.cards import card, characters
from rules_engine.characters import IMPLEMENTED
from rules_engine.game import Game
from rules_engine.journal import DamageDealt

from . import helpers
from .helpers import P1, P2, combo, commit, draw, fight, finish_turn, illegal_rule, recorded_game

BBB = "2C 3C 4C 5C 6C JC QC"
GRAVE = "5D 6D 7D 2D 3D 4D 9D"


def _draws(g: Game, *codes: str) -> None:
    """Recorded draws by whoever is asked, in order."""
    for code in codes:
        draw(g, g.actor, code)  # type: ignore[arg-type]


def _ranged(bbb: str = BBB, grave: str = GRAVE, t2: tuple[str, str] = ("KC", "KD"),
            window: bool = True) -> Game:
    """Turn 1: BBB's 2 attack (range-giving) is blocked by Grave's 5: range for turn 2."""
    g = recorded_game(bbb, grave, p1="bbb", p2="grave")
    fight(g, commit("2C", "attack"), commit("5D", "block"))
    _draws(g, "9H", "9S")  # C7 (BBB: his attack was blocked), C8 (the block draw)
    g.apply(P2, Pass())  # no Knowing the Opponent
    finish_turn(g, 1)
    _draws(g, *t2)
    if window:
        _pass_window(g)
    return g


def _pass_window(g: Game) -> None:
    """T3: nobody plays a draw-phase ability."""
    while g.step == "T3":
        g.apply(g.actor, Pass())  # type: ignore[arg-type]


def _ranged_now(g: Game) -> bool:
    return g.rules[P1].has_state(g, g.state(P1), "Long Range")  # type: ignore[index]


# --- Long Range (innate) -------------------------------------------------------------------------
def test_blocked_normal_attack_sets_range_for_next_turn_and_deals_2_block_damage() -> None:
    """bbb.md, Long Range: "whenever your range-giving moves are blocked ... set combat to ranged
    next turn"; Core stats: normals deal block damage 2 (bbb.md's value, not the card data's 0)."""
    g = recorded_game(BBB, GRAVE, p1="bbb", p2="grave")
    fight(g, commit("2C", "attack"), commit("5D", "block"))
    _draws(g, "9H", "9S")
    g.apply(P2, Pass())  # no Knowing the Opponent
    assert g.life[1] == 90 - 2
    assert not _ranged_now(g)
    g2 = _ranged()
    assert g2.turn == 2 and _ranged_now(g2)


def test_at_range_throws_are_illegal_for_both_players() -> None:
    """bbb.md, Long Range: "players can't play throws, except range-legal throws" (GEN-1)."""
    g = _ranged()
    g.apply(P1, commit("3C", "attack"))
    assert illegal_rule(g, P2, commit("7D", "throw")) == "GEN-1"


def test_at_range_non_range_legal_attack_deals_no_damage_and_range_is_lost() -> None:
    """bbb.md, Long Range: non-range-legal moves "don't deal damage"; "lose range at the end of a
    turn in which ... you got hit by a non-range-legal move"."""
    g = _ranged()
    before = g.life[0]
    fight(g, commit(None), commit("6D", "attack"))
    finish_turn(g, 2)
    assert g.life[0] == before
    assert g.turn == 3
    _draws(g, "9C", "TD")
    assert not _ranged_now(g)


def test_at_range_bbb_normal_attacks_are_speed_1_and_first_face_card_returns() -> None:
    """bbb.md, Long Range: "your normal attacks are speed 1.0"; "return the first face card you
    play each combat to your hand"."""
    g = _ranged()
    fight(g, commit("6C", "attack"), commit("2D", "attack"))  # 1.0 beats Grave's 2.6
    finish_turn(g, 2)
    assert g.life[1] == 88 - 6 and g.life[0] == 80
    g = _ranged()
    fight(g, commit("JC", "attack", "Long Arm"), commit(None))
    finish_turn(g, 2)
    assert card("JC") in g.state(P1).hand


def test_gyro_spin_is_refused_at_range_and_junk_shot_needs_range() -> None:
    """bbb.md, Special moves: Gyro Spin "can't play at long range"; Junk Shot "requires long
    range"."""
    g = recorded_game(BBB, GRAVE, p1="bbb", p2="grave")
    assert illegal_rule(g, P1, commit("QC", "attack", "Junk Shot")) == "GEN-1"
    g = _ranged()
    assert illegal_rule(g, P1, commit("QC", "attack", "Gyro Spin")) == "GEN-1"
    g.apply(P1, commit("QC", "attack", "Junk Shot"))


def test_range_is_lost_when_both_players_block() -> None:
    """bbb.md, Long Range: "lose range at the end of a turn in which both players blocked"."""
    g = _ranged()
    fight(g, commit("5C", "block"), commit("6D", "block"))
    finish_turn(g, 2)
    _draws(g, "9C", "TD")
    assert g.turn == 3 and not _ranged_now(g)


# --- Robo Headbutt (7) --------------------------------------------------------------------------
def test_robo_headbutt_win_gives_another_full_combo() -> None:
    """bbb.md, Card abilities (Robo Headbutt): "if you combat-reveal Robo Headbutt and it wins
    combat, you may play another full combo"."""
    g = recorded_game("7C 2C 3C 4C 5C 6C JC", GRAVE, p1="bbb", p2="grave")
    fight(g, commit("7C", "attack", "Robo Headbutt"), commit(None))
    _draws(g, "8H")  # C7
    assert g.life[1] == 90 - 10  # Can't Combo: no C9 window (RW-CANNOT), C12 at once
    g.apply(P2, Pass())  # RW-14: the second combo's face-down window
    g.apply(P1, combo("2C"))
    g.apply(P1, combo("3C"))
    assert g.life[1] == 90 - 10 - 2 - 3
    assert [e.amount for e in g.journal.of(DamageDealt) if e.target is P2] == [10, 2, 3]


def test_robo_headbutt_extra_combo_keeps_the_combo_limit_and_needs_a_win() -> None:
    """bbb.md, Robo Headbutt: the extra combo is a *full* combo: BBB's limit of 2 combo points
    (CB-3); a Robo Headbutt that does not win gives none."""
    g = recorded_game("7C 2C 3C 4C 5C 6C AC", GRAVE, p1="bbb", p2="grave")
    fight(g, commit("7C", "attack", "Robo Headbutt"), commit(None))
    _draws(g, "8H")
    g.apply(P2, Pass())
    assert illegal_rule(g, P1, combo("7C", "attack", "Robo Headbutt")) == "CB-2"  # in combat
    assert illegal_rule(g, P1, combo("5C", "block")) == "CB-2"
    g.apply(P1, combo("2C"))
    g.apply(P1, combo("3C"))
    assert g.step != "C10"  # 2 combo points spent: the extra combo is over (CB-3)
    g = recorded_game("7C 2C 3C 4C 5C 6C AC", GRAVE, p1="bbb", p2="grave")
    fight(g, commit("7C", "attack", "Robo Headbutt"), commit("5D", "block"))
    finish_turn(g, 1)
    assert g.life[1] == 90 - 2  # block damage only, no combo at all


# --- Overdrive (8) ------------------------------------------------------------------------------
def _overdrive(extra: str = "") -> Game:
    g = recorded_game("2C 3C 4C 5C 6C JC 9C", GRAVE, p1="bbb", p2="grave")
    fight(g, commit("5C", "block"), commit("5D", "block"))
    finish_turn(g, 1)
    _draws(g, "8C", "KD")
    return g


def test_overdrive_adds_3_to_face_cards() -> None:
    """bbb.md, Overdrive: "this turn your face cards deal +3 damage"."""
    g = _overdrive()
    g.apply(P1, UseAbility("Overdrive", card("8C")))
    if g.actor is P2 and Pass() in g.legal_actions(P2):
        g.apply(P2, Pass())
    while len(g.acting_players) == 1 and Pass() in g.legal_actions(g.acting_players[0]):
        g.apply(g.acting_players[0], Pass())
    before = g.life[1]
    fight(g, commit("JC", "attack", "Cog Shot"), commit(None))
    assert before - g.life[1] == 8 + 3


def test_overdrive_refused_without_an_8_or_out_of_its_window() -> None:
    """bbb.md, Overdrive: a Draw Phase ability of his 8."""
    g = _overdrive()
    assert illegal_rule(g, P1, UseAbility("Overdrive", card("9C"))) == "AB-2"
    assert illegal_rule(g, P1, UseAbility("Robo Headbutt", card("8C"))) == "AB-2"


def test_overdrive_long_arm_is_not_interrupted_by_a_faster_attack() -> None:
    """bbb.md, Overdrive: "your Long Arm (J) can't be interrupted except by knockdowns": Grave's
    faster 2 hits him, and Long Arm hits too (+3, a face card)."""
    g = _overdrive()
    g.apply(P1, UseAbility("Overdrive", card("8C")))
    _pass_window(g)
    fight(g, commit("JC", "attack", "Long Arm"), commit("2D", "attack"))
    finish_turn(g, 2)
    assert g.life[1] == 90 - (7 + 3)
    assert g.life[0] == 80 - 2


def test_overdrive_junk_shot_is_unblockable() -> None:
    """bbb.md, Overdrive: "your Junk Shot (Q) is unblockable" (at range, where it is legal)."""
    g = _ranged(t2=("8C", "KD"), window=False)
    g.apply(P1, UseAbility("Overdrive", card("8C")))
    _pass_window(g)
    fight(g, commit("QC", "attack", "Junk Shot"), commit("6D", "block"))
    finish_turn(g, 2)
    assert g.life[1] == 88 - (13 + 3)


def test_overdrive_extensor_grab_after_a_dodge_sets_range() -> None:
    """bbb.md, Overdrive: "your Extensor Grab (K) sets combat to ranged even if you hit with it
    after a dodge"."""
    g = recorded_game("2C 3C 4C 5C 6C JC KC", GRAVE, p1="bbb", p2="grave")
    fight(g, commit("5C", "block"), commit("5D", "block"))
    finish_turn(g, 1)
    _draws(g, "8C", "KD")
    g.apply(P1, UseAbility("Overdrive", card("8C")))
    _pass_window(g)
    fight(g, commit("5C", "dodge"), commit("2D", "attack"))
    if g.step == "C9":
        g.apply(P2, Pass())
    g.apply(P1, combo("KC", "throw", "Extensor Grab"))
    finish_turn(g, 2)
    _draws(g, "9C", "TD")
    assert g.turn == 3 and _ranged_now(g)


def test_greedy_plays_overdrive_with_a_face_card() -> None:
    """Issue 13, bots: BBBRules' greedy heuristic (its class docstring)."""
    g = _overdrive()
    assert GreedyBot().choose(g, P1, g.legal_actions(P1)) == UseAbility("Overdrive", card("8C"))


@pytest.mark.parametrize("opponent", sorted(characters()))
def test_self_play_against_every_character_replays_legal(opponent: str) -> None:
    """Issue 13: BBB against each of the 20 (both seats, random and greedy bots)."""
    assert "bbb" in IMPLEMENTED
    helpers.assert_self_play_replays_legal("bbb", opponent, first_seed=13)
