"""Setsuki (docs/rules/characters/setsuki.md): Speed of the Fox, Bag of Tricks, Smoke Bomb,
FR-SETSUKI-1/2, FR-ROOK-5, and the decisions of setsuki.md's "Engine rulings"."""

from __future__ import annotations

import pytest

from rules_engine.actions import Combo, Draw, Pass, PowerUp, Stop, UseAbility
from rules_engine.bots import GreedyBot
from rules_engine.cards import card, characters
from rules_engine.characters import IMPLEMENTED
from rules_engine.game import Game
from rules_engine.journal import Drew

from . import helpers
from .helpers import P1, P2, cards, combo, commit, draw, fight, illegal_rule, recorded_game

FOX = "Speed of the Fox"
BAG = "Bag of Tricks"
BOMB = "Smoke Bomb"
GRAVE = "2D 3D 4D 5D 6D 8D 9D"  # Grave with nothing to play outside combat


def _finish(g: Game, turn: int) -> None:
    """Decline everything optional (recorded draws: the lowest card of the deck) until turn
    ``turn`` is over."""
    while g.turn == turn and g.outcome is None:
        legal = g.legal_actions(g.actor)  # type: ignore[arg-type]
        pick = next((a for a in (Pass(), Stop(), PowerUp()) if a in legal), legal[0])
        g.apply(g.actor, pick)  # type: ignore[arg-type]


def _t2_draws(g: Game, player: object) -> int:
    return sum(1 for e in g.journal.of(Drew) if e.seat is player and e.step == "T2"
               and e.turn == g.turn)


def _cut_hand(g: Game, keep: str) -> None:
    """Move Setsuki's hand but ``keep`` to her discard pile (a test shortcut to a small hand;
    every card stays in exactly one zone)."""
    ps = g.state(P1)
    kept = list(cards(keep))
    for c in list(ps.hand):
        if c in kept:
            kept.remove(c)
            continue
        ps.hand.remove(c)
        ps.discard.append(c)


def _to_power_up(g: Game) -> None:
    """Turn 1 up to Setsuki's Power Up decision (after the combat: she holds a pair)."""
    while g.step != "P2" or g.actor is not P1:
        legal = g.legal_actions(g.actor)  # type: ignore[arg-type]
        g.apply(g.actor, next((a for a in (Pass(), Stop()) if a in legal),
                              legal[0]))  # type: ignore[arg-type]


def _empty_hand_turn_two(keep: str = "2C", grave: str = GRAVE) -> Game:
    """Turn 1: both players block; after the combat Setsuki's hand is cut to ``keep``; turn 2
    opens with the draw phase."""
    g = recorded_game("2C 2H 3C 4C 5C 6C 9C", grave, p1="setsuki", p2="grave")
    fight(g, commit("6C", "block"), commit("5D", "block"))
    _to_power_up(g)
    _cut_hand(g, keep)
    _finish(g, 1)
    return g


# --- Speed of the Fox (innate) ---------------------------------------------------------------
def test_speed_of_the_fox_draws_5_with_one_card__setsuki_md_innate() -> None:
    """setsuki.md, Innate: with 1 or 0 cards as the draw phase starts, draw 5 instead of 1."""
    g = _empty_hand_turn_two()
    while g.step == "T2":
        g.apply(g.actor, g.legal_actions(g.actor)[0])  # type: ignore[arg-type]
    assert _t2_draws(g, P1) == 5
    assert _t2_draws(g, P2) == 1
    assert len(g.state(P1).hand) == 6


def test_speed_of_the_fox_not_with_two_cards() -> None:
    g = _empty_hand_turn_two(keep="2C 3C")
    while g.step == "T2":
        g.apply(g.actor, g.legal_actions(g.actor)[0])  # type: ignore[arg-type]
    assert _t2_draws(g, P1) == 1


def _fox_dodge(keep: str = "2C") -> Game:
    g = _empty_hand_turn_two(keep=keep)
    for code in ("3S", "4S", "5S", "6S", "7S"):
        if g.step == "T2" and g.actor is P2:
            draw(g, P2, "9H")
        draw(g, P1, code)
    if g.step == "T2":
        draw(g, P2, "9H")
    return g


def test_speed_of_the_fox_full_combo_after_a_dodge__CB_13() -> None:
    """setsuki.md, Innate: that turn a winning dodge against an attack hits back with a full
    combo (follow rules and combo points apply)."""
    g = _fox_dodge()
    fight(g, commit("2C", "dodge"), commit("4D", "attack"))
    if g.step == "C9":
        g.apply(P2, Pass())
    g.apply(P1, combo("3S"))
    assert combo("4S") in g.legal_actions(P1)  # the combo goes on


def test_without_speed_of_the_fox_the_dodge_hit_back_is_one_ender__CB_7() -> None:
    g = recorded_game("2C 3C 4C 5C 6C 8C 9C", GRAVE, p1="setsuki", p2="grave")
    fight(g, commit("2C", "dodge"), commit("4D", "attack"))
    if g.step == "C9":
        g.apply(P2, Pass())
    g.apply(P1, combo("3C"))
    assert not any(isinstance(a, Combo) for a in g.legal_actions(g.actor))  # type: ignore[arg-type]


# --- Bag of Tricks (7, End of Turn) ------------------------------------------------------------
def _bag(grave: str = GRAVE) -> Game:
    """Turn 1 up to the End of Turn window with a lone 7 in Setsuki's hand."""
    g = recorded_game("7C 3C 3H 5C 6C 8C 9C", grave, p1="setsuki", p2="grave")
    fight(g, commit("6C", "block"), commit("5D", "block"))
    _to_power_up(g)
    _cut_hand(g, "7C")
    while UseAbility(BAG, card("7C")) not in g.legal_actions(g.actor):  # type: ignore[arg-type]
        legal = g.legal_actions(g.actor)  # type: ignore[arg-type]
        pick = next((a for a in (Pass(), Stop(), PowerUp()) if a in legal), legal[0])
        g.apply(g.actor, pick)  # type: ignore[arg-type]
    assert g.step == "K1" and g.actor is P1
    return g


def test_bag_of_tricks_puts_three_cards_on_top_in_the_order_named__setsuki_md() -> None:
    """setsuki.md, Bag of Tricks: the only card in hand; up to three non-Joker discard cards on
    top of the deck in any order, then the 7 is discarded. The last one named is on top; in a
    recorded log the next draws must be those cards."""
    g = _bag()
    g.apply(P1, UseAbility(BAG, card("7C")))
    top = UseAbility(BAG, cards=cards("9C"), option="top")
    assert top in g.legal_actions(P1)
    assert UseAbility(BAG, cards=cards("7C"), option="top") not in g.legal_actions(P1)
    for code in ("5C", "8C", "9C"):
        g.apply(P1, UseAbility(BAG, cards=cards(code), option="top"))
    ps = g.state(P1)
    assert ps.deck[:3] == list(cards("9C 8C 5C"))
    assert card("7C") in ps.discard and not ps.hand
    assert g.public_view(P1)["players"]["P1"]["deck_top"] == ["9C", "8C", "5C"]  # type: ignore
    assert "deck_top" not in g.public_view(P2)["players"]["P1"]  # type: ignore[operator]
    # next turn: Speed of the Fox (no cards) draws 5, the first three are the cards put back
    while g.step != "T2":
        legal = g.legal_actions(g.actor)  # type: ignore[arg-type]
        g.apply(g.actor, next((a for a in (Pass(), Stop(), PowerUp()) if a in legal),
                              legal[0]))  # type: ignore[arg-type]
    if g.actor is P2:
        draw(g, P2, "9H")
    assert g.legal_actions(P1) == [Draw(card("9C"))]
    assert illegal_rule(g, P1, Draw(card("5C"))) is not None


def test_bag_of_tricks_may_stop_early_and_refuses_jokers_and_other_cards__AB_2() -> None:
    g = _bag()
    g.apply(P1, UseAbility(BAG, card("7C")))
    assert illegal_rule(g, P1, UseAbility(BAG, cards=cards("KC"), option="top")) == "AB-2"
    assert illegal_rule(g, P1, UseAbility(BAG, cards=cards("X1"), option="top")) == "AB-2"
    g.apply(P1, UseAbility(BAG, cards=cards("5C"), option="top"))
    g.apply(P1, Pass())
    assert g.state(P1).deck[0] == card("5C")


def test_bag_of_tricks_needs_the_7_alone_in_hand__AB_2() -> None:
    g = recorded_game("7C 3C 4C 5C 6C 8C 9C", GRAVE, p1="setsuki", p2="grave")
    fight(g, commit("6C", "block"), commit("5D", "block"))
    while g.step != "K1" and g.turn == 1:
        legal = g.legal_actions(g.actor)  # type: ignore[arg-type]
        g.apply(g.actor, next((a for a in (Pass(), Stop(), PowerUp()) if a in legal),
                              legal[0]))  # type: ignore[arg-type]
    assert not any(isinstance(a, UseAbility) for a in g.legal_actions(g.actor))  # type: ignore


def test_bag_of_tricks_refused_outside_end_of_turn__C1() -> None:
    """Wrong timing: a lone 7 in hand at the next combat's commit; Bag of Tricks is refused
    there (C1: commit a card or declare no-card). A window opens for her only at K1
    (WIN-ENDTURN)."""
    g = _bag()
    g.apply(P1, Pass())
    _finish(g, 1)
    while g.step == "T2":
        g.apply(g.actor, g.legal_actions(g.actor)[0])  # type: ignore[arg-type]
    assert g.step == "C1"
    assert illegal_rule(g, P1, UseAbility(BAG, card("7C"))) == "C1"


# --- Smoke Bomb (10, Reaction) -------------------------------------------------------------------
def _martial_mastery(setsuki: str = "TC 2C 3C 4C 5C 6C 8C",
                     grave: str = "7D 2D 3D 4D 5D 6D 8D") -> Game:
    """Turn 2's draw phase: Grave plays Martial Mastery; Setsuki's counter decision."""
    g = recorded_game(setsuki, grave, p1="setsuki", p2="grave")
    fight(g, commit("6C", "block"), commit("5D", "block"))
    _finish(g, 1)
    while g.step == "T2":
        g.apply(g.actor, g.legal_actions(g.actor)[0])  # type: ignore[arg-type]
    if g.actor is P1:
        g.apply(P1, Pass())
    g.apply(P2, UseAbility("Martial Mastery", card("7D")))
    assert g.actor is P1
    return g


def test_smoke_bomb_counters_an_ability__FR_SETSUKI_2_CTR_3() -> None:
    """setsuki.md, Smoke Bomb: discard two cards and the 10 to counter an ability (CTR-3: the
    ability is undone; the card played from hand stays discarded)."""
    g = _martial_mastery()
    bomb = UseAbility(BOMB, card("TC"), cards("2C 3C"))
    assert bomb in g.legal_actions(P1)
    g.apply(P1, bomb)
    ps = g.state(P1)
    assert set(cards("TC 2C 3C")) <= set(ps.discard)
    assert card("7D") in g.state(P2).discard
    assert not [e for e in g.journal.of(Drew) if e.seat is P2 and e.step == "T3"]


def test_countered_smoke_bomb_returns_its_two_cards__FR_SETSUKI_2() -> None:
    """CTR-3 for the counter itself: Grave's Mental Toughness counters Smoke Bomb; the two cards
    come back, the 10 stays discarded, and Martial Mastery resolves."""
    g = _martial_mastery(grave="7D TD JD 4D 5D 6D 8D")
    g.apply(P1, UseAbility(BOMB, card("TC"), cards("2C 3C")))
    g.apply(P2, UseAbility("Mental Toughness", card("TD"), cards("JD")))
    ps = g.state(P1)
    assert set(cards("2C 3C")) <= set(ps.hand) and card("TC") in ps.discard


def test_smoke_bomb_illegal_costs__CTR_1() -> None:
    g = _martial_mastery()
    assert illegal_rule(g, P1, UseAbility(BOMB, card("TC"), cards("2C"))) == "CTR-1"
    assert illegal_rule(g, P1, UseAbility(BOMB, card("2C"), cards("3C 4C"))) == "CTR-1"
    assert illegal_rule(g, P1, UseAbility(BOMB, card("TC"), cards("TC 3C"))) == "CTR-1"


def test_smoke_bomb_cannot_counter_valeries_ace__CTR_8() -> None:
    """Valerie's Ace hit draws her a card (Unbounded Creativity, printed on her Aces: no
    counter counters Aces): no counter decision for Setsuki, who holds a 10 and two more
    cards."""
    g = recorded_game("AH 3C 4C 2C 5C 6C 8C", "TD 2D 3D 4D 5D 6D 8D", p1="valerie",
                      p2="setsuki")
    fight(g, commit("AH", "attack", "Chromatic Orb"), commit(None))
    assert g.actor is P1 and isinstance(g.legal_actions(P1)[0], Draw)


def test_smoke_bomb_cannot_counter_midoris_innate__FR_SETSUKI_1_CTR_5() -> None:
    """Midori's Defense Mastery stops the normal draw of an attack his block beat (an innate):
    no counter decision for Setsuki."""
    g = recorded_game("8C 5H 6C 7C 2H 3S 8S", "TD 2D 3D 4D 5D 6D 8D", p1="midori",
                      p2="setsuki")
    fight(g, commit("8C", "block"), commit("2D", "attack"))
    assert not any(isinstance(a, UseAbility) for a in g.legal_actions(g.actor))  # type: ignore


# --- registry, bots, self-play ------------------------------------------------------------------
def test_greedy_plays_bag_of_tricks_with_the_best_cards() -> None:
    """Issue 14, bots: SetsukiRules' greedy heuristic (its class docstring)."""
    g = _bag()
    assert GreedyBot().choose(g, P1, g.legal_actions(P1)) == UseAbility(BAG, card("7C"))
    g.apply(P1, UseAbility(BAG, card("7C")))
    assert GreedyBot().choose(g, P1, g.legal_actions(P1)) == UseAbility(
        BAG, cards=cards("9C"), option="top")


@pytest.mark.parametrize("opponent", sorted(characters()))
def test_self_play_against_every_character_replays_legal(opponent: str) -> None:
    """Issue 14: Setsuki against each of the 20 (both seats, random and greedy bots)."""
    assert "setsuki" in IMPLEMENTED
    helpers.assert_self_play_replays_legal("setsuki", opponent, first_seed=14)
