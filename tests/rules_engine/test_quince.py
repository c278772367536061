"""Quince (docs/rules/characters/quince.md): Positive Spin, Two Truths, Flagstone Tax, Patriot
Mirror, and the decisions of quince.md's "Engine rulings"."""

from __future__ import annotations

import pytest

from rules_engine.actions import Commit, NoCard, Pass, PowerUp, Stop, UseAbility
from rules_engine.bots import GreedyBot, RandomBot
from rules_engine.cards import MoveType, card, characters
from rules_engine.characters import IMPLEMENTED
from rules_engine.game import Game

from . import helpers
from .helpers import P1, P2, cards, commit, draw, fight, illegal_rule, recorded_game

SPIN = "Positive Spin"
TRUTHS = "Two Truths"
TAX = "Flagstone Tax"
MIRROR = "Patriot Mirror"
GRAVE = "2D 3D 4D 5D 6D 8D 9D"  # Grave with nothing to play outside combat


def _advance(g: Game, stop: object = None) -> None:
    """Decline everything optional (recorded draws: the lowest card of the deck) until a
    decision offers ``stop`` (an action) or, with None, until the next decision that is not a
    pass/stop/power-up/draw."""
    from rules_engine.actions import Draw

    while g.outcome is None:
        actor = g.actor
        if actor not in (P1, P2):  # C1: both commit (simultaneous)
            return
        legal = g.legal_actions(actor)  # type: ignore[arg-type]
        if stop is not None and stop in legal:
            return
        for pick in (Pass(), Stop(), PowerUp()):
            if pick in legal:
                g.apply(actor, pick)  # type: ignore[arg-type]
                break
        else:
            if stop is None and not isinstance(legal[0], Draw):
                return
            g.apply(actor, legal[0])  # type: ignore[arg-type]


def _t2(g: Game, code: str = "9H") -> None:
    """T2: both players' draws, in initiative order (each draws ``code`` from its own deck)."""
    for _ in range(2):
        draw(g, g.actor, code)  # type: ignore[arg-type]


def _hit_turn_one(hand: str = "JH QH KH 5C 6C 7C 2C", grave: str = GRAVE) -> Game:
    """Turn 1: Quince's 5 attack hits Grave's no-card; at K1, the Positive Spin decision."""
    g = recorded_game(hand, grave, p1="quince", p2="grave")
    fight(g, commit("5C", "attack"), commit(None))
    _advance(g, UseAbility(SPIN, card("JH")))
    assert g.turn == 1 and g.step == "K1"
    return g


def _spun_turn_two(hand: str = "JH QH KH 5C 6C 7C 2C") -> Game:
    """Positive Spin reveals the JH at the end of turn 1; turn 2 up to C1."""
    g = _hit_turn_one(hand)
    g.apply(P1, UseAbility(SPIN, card("JH")))
    _t2(g)
    _advance(g, commit("JH", "dodge"))
    assert g.turn == 2 and g.step == "C1"
    return g


# --- Positive Spin (innate) --------------------------------------------------------------------
def test_positive_spin_offered_after_dealing_damage_reveals_a_face_card__AB_1() -> None:
    """quince.md, Innate: at the end of the turn, after damage, reveal a face card (J, Q, K)."""
    g = _hit_turn_one()
    legal = g.legal_actions(P1)
    assert Pass() in legal
    assert {a.card for a in legal if isinstance(a, UseAbility)} == set(cards("JH QH KH"))
    g.apply(P1, UseAbility(SPIN, card("QH")))
    # GEN-9: the revealed card is public information until played
    assert g.public_view(P2)["players"]["P1"]["shown"] == {SPIN: ["QH"]}  # type: ignore[index]


def test_positive_spin_refuses_a_card_that_is_not_a_face_card__GL_FACE() -> None:
    g = _hit_turn_one()
    assert illegal_rule(g, P1, UseAbility(SPIN, card("7C"))) == "GL-FACE"


def test_positive_spin_not_offered_without_damage__AB_1() -> None:
    """quince.md, Innate: no damage dealt, no Positive Spin decision at the end of the turn."""
    g = recorded_game("JH QH KH 5C 6C 7C 2C", GRAVE, p1="quince", p2="grave")
    fight(g, commit("5C", "attack"), commit("5D", "block"))  # blocked: no damage by Quince
    while g.turn == 1 and g.outcome is None:
        legal = g.legal_actions(g.actor)  # type: ignore[arg-type]
        assert not any(isinstance(a, UseAbility) and a.ability == SPIN for a in legal)
        pick = next((a for a in (Pass(), Stop(), PowerUp()) if a in legal), legal[0])
        g.apply(g.actor, pick)  # type: ignore[arg-type]
    assert g.turn == 2


def test_positive_spin_rotation_draws_a_card_and_rotates__AB_1() -> None:
    """quince.md, Innate: combat-revealing the spun card next turn, he may draw a card to rotate
    it 180 degrees: the J's dodge becomes Truth Geyser."""
    g = _spun_turn_two()
    fight(g, commit("JH", "dodge"), commit("9D", "throw"))
    rotate = UseAbility(SPIN, card("JH"), option="rotate")
    assert g.step == "C4" and rotate in g.legal_actions(P1)
    hand = len(g.state(P1).hand)
    g.apply(P1, rotate)
    draw(g, P1, "8H")  # the draw that pays for the rotation
    assert len(g.state(P1).hand) == hand + 1
    assert g.state(P1).combat_move is not None
    assert g.state(P1).combat_move.name == "Truth Geyser"


def test_positive_spin_rotation_only_for_the_spun_card__AB_1() -> None:
    """Only the revealed card, combat-revealed next turn, and only once."""
    g = _spun_turn_two()
    fight(g, commit("JH", "dodge"), commit("9D", "throw"))
    assert illegal_rule(g, P1, UseAbility(SPIN, card("KH"), option="rotate")) == "AB-1"
    g.apply(P1, UseAbility(SPIN, card("JH"), option="rotate"))
    draw(g, P1, "8H")
    assert g.step != "C4" or illegal_rule(
        g, P1, UseAbility(SPIN, card("JH"), option="rotate")) == "AB-1"


def test_positive_spin_no_rotation_when_another_card_is_revealed__AB_1() -> None:
    g = _spun_turn_two()
    fight(g, commit("KH", "dodge"), commit("9D", "throw"))
    assert g.step != "C4"  # nothing to play: the window closed without a decision


def test_positive_spin_rotation_refused_in_the_draw_phase__WIN_REVEAL() -> None:
    g = _hit_turn_one()
    g.apply(P1, UseAbility(SPIN, card("JH")))
    _t2(g)
    assert g.step == "T3"
    assert illegal_rule(g, P1, UseAbility(SPIN, card("JH"), option="rotate")) == "WIN-REVEAL"


# --- Flagstone Tax (10, Draw Phase) ----------------------------------------------------------
def _turn_two_draw_phase(hand: str) -> Game:
    g = _hit_turn_one(hand)
    g.apply(P1, Pass())
    _t2(g)
    assert g.turn == 2 and g.step == "T3"
    return g


def test_flagstone_tax_naming_the_revealed_option_draws_2__AB_2() -> None:
    """quince.md, Flagstone Tax: the opponent combat-reveals the named option: draw 2."""
    g = _turn_two_draw_phase("JH QH KH 5C 6C TC 2C")
    g.apply(P1, UseAbility(TAX, card("TC"), option="block"))
    assert card("TC") in g.state(P1).discard
    _advance(g, commit("6C", "attack"))
    fight(g, commit("6C", "attack"), commit("5D", "block"))
    hand = len(g.state(P1).hand)
    draw(g, P1, "8H")
    draw(g, P1, "8S")
    assert len(g.state(P1).hand) == hand + 2


def test_flagstone_tax_naming_another_option_draws_nothing() -> None:
    g = _turn_two_draw_phase("JH QH KH 5C 6C TC 2C")
    g.apply(P1, UseAbility(TAX, card("TC"), option="throw"))
    _advance(g, commit("6C", "attack"))
    fight(g, commit("6C", "attack"), commit("5D", "block"))
    # no Flagstone draws: the next decision is the C7 draw for the blocked normal attack
    assert g.step == "C7"
    hand = len(g.state(P1).hand)
    draw(g, P1, "8H")
    assert len(g.state(P1).hand) == hand + 1


def test_flagstone_tax_needs_an_option_and_the_draw_phase__AB_2_WIN_DRAW() -> None:
    g = _turn_two_draw_phase("JH QH KH 5C 6C TC 2C")
    assert illegal_rule(g, P1, UseAbility(TAX, card("TC"))) == "AB-2"
    assert illegal_rule(g, P1, UseAbility(TAX, card("TH"), option="block")) == "AB-2"
    g = _spun_turn_two("JH QH KH 5C 6C TC 2C")
    fight(g, commit("JH", "dodge"), commit("9D", "throw"))
    assert g.step == "C4"
    assert illegal_rule(g, P1, UseAbility(TAX, card("TC"), option="block")) == "WIN-DRAW"


# --- Two Truths (2, Draw Phase) ----------------------------------------------------------------
def _truths(hand: str = "JH QH KH 5C 6C 7C 2C") -> Game:
    """Turn 2's draw phase with 5C (combat card) in the discard pile, Two Truths played."""
    g = _turn_two_draw_phase(hand)
    g.apply(P1, UseAbility(TRUTHS, card("2C")))
    return g


def test_two_truths_piles_the_opponent_picks_from__AB_2() -> None:
    """quince.md, Two Truths: choose up to 3 discard cards of different ranks 3..K, reveal the
    top 2 of the deck, divide into two piles; the opponent puts one into his hand, the other is
    discarded."""
    g = _truths()
    choose = UseAbility(TRUTHS, cards=cards("5C"), option="choose")
    assert choose in g.legal_actions(P1)
    g.apply(P1, choose)
    draw(g, P1, "8H")
    draw(g, P1, "3S")
    piles = UseAbility(TRUTHS, cards=cards("5C 3S"), option="piles")
    assert piles in g.legal_actions(P1)
    g.apply(P1, piles)
    view = g.public_view(P2)["players"]["P1"]["shown"]  # type: ignore[index]
    assert view == {"Two Truths pile 1": ["5C", "3S"], "Two Truths pile 2": ["8H"]}
    assert g.acting_players == (P2,)
    legal = g.legal_actions(P2)
    assert legal == [UseAbility(TRUTHS, cards=cards("5C 3S"), option="to_hand"),
                     UseAbility(TRUTHS, cards=cards("8H"), option="to_hand")]
    g.apply(P2, UseAbility(TRUTHS, cards=cards("8H"), option="to_hand"))
    ps = g.state(P1)
    assert card("8H") in ps.hand and card("3S") not in ps.hand and card("5C") not in ps.hand
    assert card("3S") in ps.discard and card("5C") in ps.discard and card("2C") in ps.discard


def test_two_truths_opponent_picks_the_discard_pile_into_hand() -> None:
    g = _truths()
    g.apply(P1, UseAbility(TRUTHS, cards=cards("5C"), option="choose"))
    draw(g, P1, "8H")
    draw(g, P1, "3S")
    g.apply(P1, UseAbility(TRUTHS, cards=cards("5C"), option="piles"))
    g.apply(P2, UseAbility(TRUTHS, cards=cards("5C"), option="to_hand"))
    ps = g.state(P1)
    assert card("5C") in ps.hand and card("5C") not in ps.discard
    assert card("8H") in ps.discard and card("3S") in ps.discard


def test_two_truths_refuses_same_ranks_and_other_ranks__AB_2() -> None:
    """Different ranks, from 3 through King only."""
    g = _hit_turn_one("JH QH KH 5C 6C 7C 2C")
    g.apply(P1, Pass())
    _t2(g, "2H")
    g.apply(P1, UseAbility(TRUTHS, card("2C")))
    # the discard pile holds 5C only (the 2C just played is rank 2)
    assert illegal_rule(g, P1, UseAbility(TRUTHS, cards=cards("2C"), option="choose")) == "AB-2"
    assert illegal_rule(g, P1, UseAbility(TRUTHS, cards=cards("5C 5C"), option="choose")) \
        == "AB-2"
    assert illegal_rule(g, P1, UseAbility(TRUTHS, cards=cards("6C"), option="choose")) == "AB-2"


def test_two_truths_pile_one_holds_the_first_card_and_the_pick_is_a_pile__AB_2() -> None:
    g = _truths()
    g.apply(P1, UseAbility(TRUTHS, cards=cards("5C"), option="choose"))
    draw(g, P1, "8H")
    draw(g, P1, "3S")
    assert illegal_rule(g, P1, UseAbility(TRUTHS, cards=cards("8H"), option="piles")) == "AB-2"
    assert illegal_rule(g, P1, UseAbility(TRUTHS, cards=cards("5C KH"), option="piles")) \
        == "AB-2"
    g.apply(P1, UseAbility(TRUTHS, cards=cards("5C"), option="piles"))
    assert illegal_rule(g, P2, UseAbility(TRUTHS, cards=cards("3S"), option="to_hand")) == "AB-2"


def test_two_truths_refused_outside_the_draw_phase__WIN_DRAW() -> None:
    g = _spun_turn_two()
    fight(g, commit("JH", "dodge"), commit("9D", "throw"))
    assert g.step == "C4"
    assert illegal_rule(g, P1, UseAbility(TRUTHS, card("2C"))) == "WIN-DRAW"


def test_two_truths_can_be_countered_by_mental_toughness__CTR_3() -> None:
    """A card ability: Grave's Mental Toughness counters it; the 2 stays discarded (CTR-3)."""
    g = recorded_game("JH QH KH 5C 6C 7C 2C", "TD JD 3D 4D 5D 6D 8D", p1="quince", p2="grave")
    fight(g, commit("5C", "attack"), commit(None))
    _advance(g, UseAbility(SPIN, card("JH")))
    g.apply(P1, Pass())
    _t2(g)
    g.apply(P1, UseAbility(TRUTHS, card("2C")))
    counter = UseAbility("Mental Toughness", card("TD"), cards("JD"))
    assert counter in g.legal_actions(P2)
    g.apply(P2, counter)
    assert card("2C") in g.state(P1).discard
    assert not any(isinstance(a, UseAbility) and a.option == "choose"
                   for a in g.legal_actions(g.actor))  # type: ignore[arg-type]


# --- Patriot Mirror (A) ----------------------------------------------------------------------
def _mirror_turn_two(hand: str = "AH JH QH 5C 6C 7C 8C") -> Game:
    """Turn 1: Patriot Mirror hits Grave's no-card; Quince takes Patriot Mirror at K1; turn 2
    up to C1."""
    g = recorded_game(hand, GRAVE, p1="quince", p2="grave")
    fight(g, commit("AH", "attack", "Patriot Mirror"), commit(None))
    mirror = UseAbility(MIRROR, option="second_card")
    _advance(g, mirror)
    assert g.step == "K1" and UseAbility(SPIN, card("JH")) in g.legal_actions(P1)
    g.apply(P1, mirror)
    _t2(g)
    _advance(g, commit("5C", "attack"))
    return g


def test_patriot_mirror_second_face_down_card_then_choose_one__AB_3() -> None:
    """quince.md, Patriot Mirror: after dealing damage with it, instead of Positive Spin, a
    second face-down card next combat; after the reveal he uses one and discards the other."""
    g = _mirror_turn_two()
    fight(g, commit("5C", "attack"), commit("9D", "throw"))
    # C1 again for Quince: the second face-down card, hidden from the opponent (GEN-9)
    assert g.acting_players == (P1,) and Commit(card("6C"), MoveType.BLOCK) in g.legal_actions(P1)
    g.apply(P1, Commit(card("6C"), MoveType.BLOCK))
    assert g.public_view(P2)["players"]["P1"]["face_down"] is True  # type: ignore[index]
    legal = g.legal_actions(P1)
    assert legal == [UseAbility(MIRROR, card("5C")), UseAbility(MIRROR, card("6C"))]
    assert illegal_rule(g, P1, UseAbility(MIRROR, card("7C"))) == "AB-3"
    g.apply(P1, UseAbility(MIRROR, card("5C")))  # the attack beats Grave's throw
    ps = g.state(P1)
    assert ps.combat_card == card("5C") and card("6C") in ps.discard
    assert ps.face_down is None


def test_patriot_mirror_using_the_second_card_makes_it_the_revealed_card() -> None:
    g = _mirror_turn_two()
    fight(g, commit("5C", "attack"), commit("9D", "throw"))
    g.apply(P1, Commit(card("6C"), MoveType.BLOCK))
    g.apply(P1, UseAbility(MIRROR, card("6C")))
    ps = g.state(P1)
    assert ps.combat_card == card("6C") and ps.revealed_card == card("6C")
    assert ps.kind == "block" and card("5C") in ps.discard


def test_patriot_mirror_second_card_may_be_declined() -> None:
    g = _mirror_turn_two()
    fight(g, commit("5C", "attack"), commit("9D", "throw"))
    g.apply(P1, NoCard())
    assert not any(isinstance(a, UseAbility) for a in g.legal_actions(g.actor))  # type: ignore


def test_patriot_mirror_not_offered_without_its_damage__AB_3() -> None:
    """A plain attack hit: Positive Spin only."""
    g = _hit_turn_one("AH JH QH 5C 6C 7C 2C")
    assert UseAbility(MIRROR, option="second_card") not in g.legal_actions(P1)
    assert illegal_rule(g, P1, UseAbility(MIRROR, option="second_card")) == "AB-3"


# --- registry, bots, self-play ----------------------------------------------------------------
def test_greedy_takes_patriot_mirror_and_plays_two_truths() -> None:
    """Issue 14, bots: QuinceRules' greedy heuristic (its class docstring)."""
    g = recorded_game("AH JH QH 5C 6C 7C 8C", GRAVE, p1="quince", p2="grave")
    fight(g, commit("AH", "attack", "Patriot Mirror"), commit(None))
    _advance(g, UseAbility(MIRROR, option="second_card"))
    assert GreedyBot().choose(g, P1, g.legal_actions(P1)) == UseAbility(
        MIRROR, option="second_card")
    g2 = _turn_two_draw_phase("JH QH KH 5C 6C 7C 2C")
    assert GreedyBot().choose(g2, P1, g2.legal_actions(P1)) == UseAbility(TRUTHS, card("2C"))
    assert RandomBot(1).choose(g2, P1, g2.legal_actions(P1)) in g2.legal_actions(P1)


@pytest.mark.parametrize("opponent", sorted(characters()))
def test_self_play_against_every_character_replays_legal(opponent: str) -> None:
    """Issue 14: Quince against each of the 20 (both seats, random and greedy bots)."""
    assert "quince" in IMPLEMENTED
    helpers.assert_self_play_replays_legal("quince", opponent, first_seed=14)


def test_two_truths_labels_name_both_piles_while_dividing_and_picking() -> None:
    """Issue 30: a choice that differs only in its cards names them all; dividing the cards
    into two piles names both piles, and so does the opponent's pick."""
    from rules_engine.choices import describe

    g = _truths()
    g.apply(P1, UseAbility(TRUTHS, cards=cards("5C"), option="choose"))
    draw(g, P1, "8H")
    draw(g, P1, "3S")
    labels = [describe(g, P1, a).label for a in g.legal_actions(P1)]
    assert labels == ["Two Truths: show 5♣ | 8♥, 3♠", "Two Truths: show 5♣, 8♥ | 3♠",
                      "Two Truths: show 5♣, 3♠ | 8♥", "Two Truths: show 5♣, 8♥, 3♠ | none"]
    g.apply(P1, UseAbility(TRUTHS, cards=cards("5C 3S"), option="piles"))
    picks = [describe(g, P2, a).label for a in g.legal_actions(P2)]
    assert picks == ["Two Truths: to hand 5♣, 3♠ | 8♥", "Two Truths: to hand 8♥ | 5♣, 3♠"]
    # without the game, the action's own cards only (no pile to name the rest from)
    alone = describe(None, None, UseAbility(TRUTHS, cards=cards("8H"), option="to_hand"))
    assert alone.label == "Two Truths: to hand 8♥"
