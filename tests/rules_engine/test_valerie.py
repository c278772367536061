"""Valerie (docs/rules/characters/valerie.md): the innate Agile Hands (CH-6, CB-15, TV-PU-07),
Bold Strokes, Burst of Speed, Splash of Color, Unbounded Creativity, and the FAQ rulings
FR-VALERIE-1..4.

Valerie is P1 (80 life) against Grave (P2, 90 life): P1 wins the coin flip (helpers)."""

from __future__ import annotations

import pytest

from rules_engine.actions import Draw, FaceDown, Pass, Stop, UseAbility
from rules_engine.bots import GreedyBot
from rules_engine.cards import card, characters
from rules_engine.characters import abilities_implemented
from rules_engine.characters.valerie import (
    AGILE_HANDS,
    BOLD_STROKES,
    BURST_OF_SPEED,
    ValerieRules,
)
from rules_engine.combos import combos
from rules_engine.game import Game
from rules_engine.journal import Drew
from rules_engine.ruleset import BurstOfSpeed, Ruleset

from . import helpers
from .helpers import (
    P1,
    P2,
    PLAIN,
    combo,
    commit,
    draw,
    fight,
    illegal_rule,
    recorded_game,
    won_combat,
)

VALERIE = "4C 7C TC TD 2C 3C 5C"


def _draws(g: Game, step: str) -> int:
    return sum(1 for e in g.journal.of(Drew) if e.seat is P1 and e.step == step)


def test_valerie_is_implemented_with_a_note_per_ability__registry() -> None:
    assert abilities_implemented("valerie")
    from rules_engine.cards import character
    names = {a.name for a in character("valerie").abilities} | {AGILE_HANDS}
    assert set(ValerieRules.ability_notes) == names


# --- Agile Hands (CH-6, CB-15, FR-VALERIE-1, TV-PU-06, TV-PU-07) -----
def test_any_order_normals_chain_for_valerie__CH_6_CB_15_TV_PU_07_FR_VALERIE_1() -> None:
    """TV-PU-07: Valerie's combo 4, 6, 2, 2 is legal and a 4-long chain: 2 Aces at Power Up."""
    g = won_combat("4C 6C 2C 2D 3C 5C 9C", commit("4C", "attack"), p1="valerie")
    for c in ("6C", "2C", "2D"):
        assert combo(c) in g.legal_actions(P1)
        g.apply(P1, combo(c))
    g.apply(P1, Stop())
    ps = g.state(P1)
    assert ps.chains == [4] and g.chain_entitlement(ps) == 2
    assert g.life[1] == 90 - 4 - 6 - 2 - 2


def test_a_2_4_5_combo_is_a_chain_only_for_valerie__TV_PU_06_CB_15_CT_NORMAL() -> None:
    """TV-PU-06 (0 Aces) is the standard character's case: Grave cannot even play 4 after 2
    (CT-NORMAL), so his 2 alone earns nothing; Valerie's 2, 4, 5 is a 3-chain (1 Ace, CH-6)."""
    g = won_combat("2C 3C 4C 5C 8C 9C 9S", commit("2C", "attack"))
    assert illegal_rule(g, P1, combo("4C")) == "CT-NORMAL"
    g.apply(P1, Stop())
    assert g.chain_entitlement(g.state(P1)) == 0
    v = won_combat("2C 3C 4C 5C 8C 9C 9S", commit("2C", "attack"), p1="valerie")
    v.apply(P1, combo("4C"))
    v.apply(P1, combo("5C"))
    v.apply(P1, Stop())
    assert v.state(P1).chains == [3] and v.chain_entitlement(v.state(P1)) == 1


def test_agile_hands_keeps_the_other_follow_rules_and_the_limit__CB_15_CB_3_CB_5() -> None:
    """Any order, but the Ender still ends the combo and six points is her limit (CH-4: only
    she can reach a 6-chain)."""
    g = won_combat("2C 2D 3C 3D 4D 5C 6C", commit("2C", "attack"), p1="valerie")
    for c in ("2D", "3C", "3D", "4D"):
        g.apply(P1, combo(c))
    g.apply(P1, combo("5C"))  # the 6th point: the 6C left in hand would be a 7th (CB-3) ...
    assert g.step != "C10"  # ... so the combo is over (CB-11)
    ps = g.state(P1)
    assert card("6C") in ps.hand and ps.chains == [6] and g.chain_entitlement(ps) == 4
    e = won_combat("2C 3C JC 4C 5C 6C 9S", commit("2C", "attack"), p1="valerie")
    e.apply(P1, combo("JC", "attack", "Three Colors"))
    assert e.step != "C10" and card("4C") in e.state(P1).hand  # CB-5: the Ender ended it


def test_combo_reference_uses_any_order_chains__CB_15() -> None:
    """The combo reference (python -m rules_engine combos valerie) follows the engine: a
    normal attack may be followed by any normal attack."""
    lines = {(ln.start.rank.code, ln.start.type.value): ln for ln in combos("valerie")}
    two = lines[("2", "attack")]
    ranks = [s.rank for s in two.steps if s.role == "move"]
    assert ranks[:2] == ["2", "6"]  # not 2 -> 3: a 6 after a 2 is legal for her only
    assert two.combo_points == 6
    grave = {(ln.start.rank.code, ln.start.type.value): ln for ln in combos("grave")}
    g_ranks = [s.rank for s in grave[("2", "attack")].steps if s.role == "move"]
    assert g_ranks[1] != "6"  # Grave: only a 3 may follow his normal 2


# --- Bold Strokes (7) -----
def test_bold_strokes_adds_one_per_normal_attack_and_draws__valerie_md_bold_strokes() -> None:
    """valerie.md Bold Strokes: "Your normal attacks do +1 damage each this turn. Draw a card."
    The combat card and each combo normal deal +1; the face-card Ender does not."""
    g = recorded_game("4C 7C 5C 6C JC 2C 3C", PLAIN, p1="valerie")
    fight(g, commit("4C", "attack"), commit(None))
    assert (g.step, g.actor) == ("C4", P1)
    g.apply(P1, UseAbility(BOLD_STROKES, card("7C")))
    assert card("7C") in g.state(P1).discard
    assert g.legal_actions(P1)[0] == Draw(card("2D"))  # her draw now
    draw(g, P1, "9H")
    assert card("9H") in g.state(P1).hand
    if g.step == "C4":
        g.apply(P1, Pass())
    if g.step == "C7":
        draw(g, P1, "TH")
    if g.step == "C9":
        g.apply(P2, Pass())
    g.apply(P1, combo("5C"))
    g.apply(P1, combo("JC", "attack", "Three Colors"))
    assert g.life[1] == 90 - (4 + 1) - (5 + 1) - 7


def test_bold_strokes_needs_a_7_in_hand_at_combat_reveal__AB_2() -> None:
    g = recorded_game(VALERIE, PLAIN, p1="valerie")
    fight(g, commit("4C", "attack"), commit(None))
    assert illegal_rule(g, P1, UseAbility(BOLD_STROKES, card("5C"))) == "AB-2"  # not a 7
    assert illegal_rule(g, P1, UseAbility(BOLD_STROKES, card("7H"))) == "AB-2"  # not in hand
    assert illegal_rule(g, P1, UseAbility("Masterpiece", card("7C"))) == "AB-2"


def test_countered_bold_strokes_does_nothing__CTR_3() -> None:
    """Grave's Mental Toughness (a 10 and a face card) counters it: no bonus, no draw."""
    g = recorded_game(VALERIE, "2D 3D 4D 5D 6D TD KD", p1="valerie")
    fight(g, commit("4C", "attack"), commit(None))
    g.apply(P1, UseAbility(BOLD_STROKES, card("7C")))
    assert g.actor is P2
    g.apply(P2, UseAbility("Mental Toughness", card("TD"), (card("KD"),)))
    assert not any(isinstance(a, Draw) and g.actor is P1 for a in g.legal_actions(g.actor))
    assert _draws(g, "C4") == 0 and card("7C") in g.state(P1).discard


# --- Burst of Speed (10) -----
def test_burst_of_speed_wins_the_speed_race__valerie_md_burst_of_speed_AR_SPD_1() -> None:
    """Her 4 (4.4) loses to Grave's 3 (3.4); with one Burst it is 2.4 and wins."""
    g = recorded_game(VALERIE, PLAIN, p1="valerie")
    fight(g, commit("4C", "attack"), commit("3D", "attack"))
    g.apply(P1, UseAbility(BURST_OF_SPEED, card("TC")))
    g.apply(P1, Pass())
    assert g.combat.winner is P1
    plain = recorded_game(VALERIE, PLAIN, p1="valerie")
    fight(plain, commit("4C", "attack"), commit("3D", "attack"))
    plain.apply(P1, Pass())
    assert plain.combat.winner is P2


def _queen_race(bursts: int, ruleset: Ruleset) -> Game:
    """Valerie's Three Colors (2.2) against Valerie's Crimson Passion (0.2)."""
    g = recorded_game("JC TC TD 2C 3C 4C 5C", "QD 2D 3D 4D 5D 6D 8D", p1="valerie",
                      p2="valerie", ruleset=ruleset)
    fight(g, commit("JC", "attack"), commit("QD", "attack"))
    for c in ("TC", "TD")[:bursts]:
        g.apply(P1, UseAbility(BURST_OF_SPEED, card(c)))
    if g.step == "C4" and g.actor is P1:
        g.apply(P1, Pass())
    if g.step == "C4" and g.actor is P2:
        g.apply(P2, Pass())
    return g


def test_burst_stacks_to_a_minimum_of_1_0__valerie_md_burst_of_speed() -> None:
    """2014 text: two Bursts take 2.2 to 1.0 (not 0.0), so Crimson Passion (0.2) still wins."""
    g = _queen_race(2, Ruleset())
    assert g.combat.winner is P2


def test_burst_floor_0_0_option__FR_VALERIE_2_AR_SPD_1() -> None:
    """FR-VALERIE-2 (opt.burstOfSpeed=FLOOR_0_0): 2.2 -> 0.2 -> 0.0; at 0.0 Three Colors beats
    Crimson Passion (0.2); after one Burst (0.2) they tie."""
    option = Ruleset(burstOfSpeed=BurstOfSpeed.FLOOR_0_0)
    assert _queen_race(2, option).combat.winner is P1
    tie = _queen_race(1, option)
    assert tie.combat.winner is None and tie.life == (80 - 8, 80 - 7)


def test_burst_needs_her_attack_or_throw_and_a_10__AB_2() -> None:
    g = recorded_game(VALERIE, PLAIN, p1="valerie")
    fight(g, commit("5C", "block"), commit("3D", "attack"))
    assert UseAbility(BURST_OF_SPEED, card("TC")) not in g.legal_actions(P1)
    assert illegal_rule(g, P1, UseAbility(BURST_OF_SPEED, card("TC"))) == "AB-2"
    h = recorded_game(VALERIE, PLAIN, p1="valerie")
    fight(h, commit("4C", "attack"), commit("3D", "attack"))
    assert illegal_rule(h, P1, UseAbility(BURST_OF_SPEED, card("7C"))) == "AB-2"
    assert illegal_rule(h, P1, UseAbility(BURST_OF_SPEED, card("TH"))) == "AB-2"


# --- Splash of Color (K) -----
@pytest.mark.parametrize(("king", "block", "hits"), [
    ("KS", "6D", True), ("KH", "6C", True), ("KH", "6D", False), ("KS", "6C", False)])
def test_splash_of_color_only_same_colour_blocks__valerie_md_splash_of_color(
        king: str, block: str, hits: bool) -> None:
    """"This card can only be blocked by a block of the same colour (red/black)."""
    g = recorded_game(f"{king} 4C 2C 3C 5C 6C 9C", "2D 3D 4D 5D 6D 6C 8D", p1="valerie")
    fight(g, commit(king, "attack"), commit(block, "block"))
    assert g.combat.winner is (P1 if hits else P2)
    if hits:
        assert g.life[1] == 90 - 6


# --- Unbounded Creativity (A) -----
def test_masterpiece_hit_draws_one_card__FR_VALERIE_3() -> None:
    """Unbounded Creativity: one draw per Ace move, even for the two-Ace Masterpiece."""
    g = recorded_game("AH AD 4C 2C 3C 5C 6C", PLAIN, p1="valerie")
    fight(g, commit("AH", "attack", "Masterpiece"), commit(None))
    assert (g.step, g.actor) == ("C6", P1)
    draw(g, P1, "9H")
    assert not (g.step == "C6" and any(isinstance(a, Draw) for a in g.legal_actions(P1)))
    assert _draws(g, "C6") == 1 and g.life[1] == 90 - 16


def test_ace_in_a_combo_draws_even_when_rewound__FR_VALERIE_4_GL_HIT() -> None:
    """Her Ace hits as a combo move and she draws at once; Grave's Rewind Time then prevents
    the combo's damage, the draw stays."""
    g = recorded_game("3C AH AD 4C 2C 5C 6C", "X1 2D 3D 4D 5D 6D 8D", p1="valerie")
    fight(g, commit("3C", "attack"), commit(None))
    if g.step == "C7":
        draw(g, P1, "TH")
    g.apply(P2, FaceDown(card("X1")))
    g.apply(P1, combo("AH", "attack", "Masterpiece", aces="AD"))
    assert (g.step, g.actor) == ("C10", P1) and isinstance(g.legal_actions(P1)[0], Draw)
    draw(g, P1, "9H")
    assert _draws(g, "C10") == 1
    for c in ("8S", "8H"):
        if g.actor is P2 and g.step == "C11":
            draw(g, P2, c)
    assert g.life[1] == 90 - 3  # only the combat card's damage (RW-10)
    assert card("9H") in g.state(P1).hand


def test_a_non_ace_hit_draws_nothing__valerie_md_unbounded_creativity() -> None:
    g = recorded_game("4C 2C 3C 5C 6C 8C 9C", PLAIN, p1="valerie")
    fight(g, commit("4C", "attack"), commit(None))
    assert _draws(g, "C6") == 0 and g.step != "C6"


# --- bots and self-play -----
def test_greedy_bot_plays_burst_only_in_a_speed_race() -> None:
    """The heuristic in ValerieRules' docstring: Burst against an attack, not against a block."""
    g = recorded_game("4C TC 2C 3C 5C 6C 9C", PLAIN, p1="valerie")
    fight(g, commit("4C", "attack"), commit("3D", "attack"))
    assert GreedyBot().choose(g, P1, g.legal_actions(P1)) == UseAbility(BURST_OF_SPEED, card("TC"))
    h = recorded_game("4C TC 2C 3C 5C 6C 9C", PLAIN, p1="valerie")
    fight(h, commit("4C", "attack"), commit("5D", "block"))
    assert GreedyBot().choose(h, P1, h.legal_actions(P1)) == Pass()


@pytest.mark.parametrize("opponent", sorted(characters()))
def test_self_play_against_every_character_replays_legal(opponent: str) -> None:
    """Issue 13: Valerie against each of the 20 (both seats, random and greedy bots)."""
    helpers.assert_self_play_replays_legal("valerie", opponent, first_seed=13)

