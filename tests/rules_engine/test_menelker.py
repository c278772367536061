"""Menelker (docs/rules/characters/menelker.md): Bleeding Wounds, Bonecracker, Into Oblivion,
and the decisions of menelker.md's "Engine rulings"."""

from __future__ import annotations

import pytest

from rules_engine.actions import Discard, NoCard, Pass, PowerUp, Search, UseAbility
from rules_engine.bots import GreedyBot
from rules_engine.cards import card, characters
from rules_engine.characters import IMPLEMENTED, abilities_implemented
from rules_engine.game import Game
from rules_engine.journal import Drew

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
MEN = "2C 3C 4C 5C 6C 8C 9C"
OBLIVION = "Into Oblivion"
BONECRACKER = "Bonecracker"


def _codes(cs: list) -> list[str]:
    return sorted(c.code for c in cs)


def _drawn(g: Game, seat: object, step: str) -> int:
    return sum(1 for e in g.journal.of(Drew) if e.seat is seat and e.step == step)


# --- Bleeding Wounds (innate): hits -------------------------------------------------------------
def test_bleeding_wounds_black_face_card_hit_draws_and_opponent_discards__AB_1() -> None:
    """menelker.md, Innate ability (Bleeding Wounds): his black face-card attack hits: he draws
    a card and the opponent discards a card of their choice (a `discard` event)."""
    g = recorded_game("QC 3C 4C 5C 6C 8C 9C", PLAIN, p1="menelker")
    fight(g, commit("QC", "attack"), NoCard())
    assert g.actor is P1  # his Bleeding Wounds draw, at C6
    draw(g, P1, "KH")
    assert g.actor is P2
    assert illegal_rule(g, P2, Discard((card("KH"),))) == "AB-1"  # not Grave's card
    assert illegal_rule(g, P2, Discard(cards("2D 3D"))) == "AB-1"  # one card
    g.apply(P2, Discard((card("9D"),)))
    men, grave = g.state(P1), g.state(P2)
    assert card("KH") in men.hand and card("9D") in grave.discard and len(grave.hand) == 6
    assert _drawn(g, P1, "C6") == 1
    assert g.life[1] == 90 - 8  # Rising Dragon


def test_bleeding_wounds_only_black_face_card_attacks() -> None:
    """menelker.md, Bleeding Wounds: a red face card, a black normal attack and a black Ace
    ("Aces are not face cards") do not trigger it."""
    for men, move, name in (("QH 3C 4C 5C 6C 8C 9C", "QH", "Rising Dragon"),
                            ("AC 3C 4C 5C 6C 8C 9C", "AC", "Dragon Breath")):
        g = recorded_game(men, PLAIN, p1="menelker")
        fight(g, commit(move, "attack", name), NoCard())
        assert g.step != "C6" and _drawn(g, P1, "C6") == 0
        assert len(g.state(P2).hand) == 7
    g = recorded_game(MEN, PLAIN, p1="menelker")
    fight(g, commit("2C", "attack"), NoCard())
    draw(g, P1, "KH")  # C7: the normal draw, not Bleeding Wounds
    assert _drawn(g, P1, "C6") == 0 and len(g.state(P2).hand) == 7


def test_bleeding_wounds_each_hit_of_a_combo__AB_1() -> None:
    """menelker.md, Bleeding Wounds: "even multiple times in a combo": the black K as the
    combat card and the black J played after it each trigger it."""
    g = recorded_game("KC JS 4C 5C 6C 8C 9C", PLAIN, p1="menelker")
    fight(g, commit("KC", "attack"), NoCard())
    draw(g, P1, "2H")
    g.apply(P2, Discard((card("9D"),)))
    g.apply(P2, Pass())  # C9: no Rewind card
    g.apply(P1, combo("JS", "attack", "Chaos Orb"))
    draw(g, P1, "3H")  # the second trigger, at C10
    g.apply(P2, Discard((card("8D"),)))
    assert _drawn(g, P1, "C6") == 1 and _drawn(g, P1, "C10") == 1
    assert _codes(g.state(P2).discard) == ["8D", "9D"]
    finish_turn(g, 1)
    assert g.life[1] == 90 - 6 - 7


def test_bleeding_wounds_one_card_left_needs_no_choice() -> None:
    """menelker.md, "Engine rulings": with one distinct card in hand the discard is made by the
    engine (no event); with none, nothing."""
    g = recorded_game("QC 3C 4C 5C 6C 8C 9C", PLAIN, p1="menelker")
    grave = g.state(P2)
    del grave.hand[1:]
    fight(g, commit("QC", "attack"), commit("2D", "dodge"))  # a dodge beats it
    assert _drawn(g, P1, "C6") == 0  # a dodge beat it: no hit
    g = recorded_game("QC 3C 4C 5C 6C 8C 9C", PLAIN, p1="menelker")
    grave = g.state(P2)
    keep = grave.hand[0]
    del grave.hand[1:]
    fight(g, commit("QC", "attack"), NoCard())
    draw(g, P1, "KH")
    assert grave.hand == [] and keep in grave.discard


# --- Bleeding Wounds (innate): Power Up ----------------------------------------------------------
def _to_power_up(g: Game) -> None:
    """Decline everything until Menelker's Power Up decision (P2)."""
    while not (g.step == "P2" and g.actor is P1):
        actor = g.actor
        legal = g.legal_actions(actor)  # type: ignore[arg-type]
        for pick in (Pass(), NoCard(), PowerUp()):
            if pick in legal:
                g.apply(actor, pick)  # type: ignore[arg-type]
                break
        else:
            g.apply(actor, legal[0])  # type: ignore[arg-type]


def test_power_up_for_black_face_cards__PU_5() -> None:
    """menelker.md, Bleeding Wounds: "you may power up for black face cards (you may still
    power up for Aces, too)": a pair fetches a black K from his deck; a red K or a 9 is
    refused (PU-5)."""
    g = recorded_game("2C 2S 4C 5C 6C 8C 9C", PLAIN, p1="menelker")
    fight(g, NoCard(), NoCard())
    _to_power_up(g)
    pair = cards("2C 2S")
    legal = g.legal_actions(P1)
    assert PowerUp(pair, (), (card("KS"),)) in legal
    assert PowerUp(pair, (), (card("AH"),)) in legal
    assert PowerUp(pair, (), (card("KH"),)) not in legal
    assert illegal_rule(g, P1, PowerUp(pair, (), (card("KH"),))) == "PU-5"
    assert illegal_rule(g, P1, PowerUp(pair, (), (card("9S"),))) == "PU-5"
    g.apply(P1, PowerUp(pair, (), (card("KS"),)))
    assert card("KS") in g.state(P1).hand


def test_power_up_black_face_card_in_discard_must_be_taken__PU_5() -> None:
    """menelker.md, "Engine rulings": PU-5's "fewer only when the discard pile has none left"
    counts his black face cards: with the JC in his discard pile, owed 1, he takes it or
    another target, never nothing."""
    g = recorded_game("2C 2S 4C 5C 6C 8C 9C", PLAIN, p1="menelker")
    men = g.state(P1)
    men.deck.remove(card("JC"))
    men.discard.append(card("JC"))
    fight(g, NoCard(), NoCard())
    _to_power_up(g)
    pair = cards("2C 2S")
    assert PowerUp(pair, (card("JC"),), ()) in g.legal_actions(P1)
    assert illegal_rule(g, P1, PowerUp(pair, (), ())) == "PU-5"


def test_other_characters_and_gold_burst_search_aces_only__PU_5() -> None:
    """menelker.md, "Engine rulings": a Gold Burst's search (C8a) is not Power Up: Aces only;
    Grave never powers up for face cards."""
    g = recorded_game("X1 3C 4C 5C 6C 8C 9C", PLAIN, p1="menelker")
    fight(g, commit("X1"), commit("2D", "attack"))
    assert g.step == "C8" and g.actor is P1
    assert all(isinstance(a, Search) and all(c.is_ace for c in (*a.from_discard, *a.from_deck))
               for a in g.legal_actions(P1))
    assert illegal_rule(g, P1, Search((), cards("KS AS"))) == "PU-5"
    g2 = recorded_game("2D 2H 4D 5D 6D 8D 9D", MEN, p1="grave", p2="menelker")
    fight(g2, NoCard(), NoCard())
    while not (g2.step == "P2" and g2.actor is P1):
        a = g2.actor
        legal = g2.legal_actions(a)  # type: ignore[arg-type]
        g2.apply(a, next(x for x in (Pass(), NoCard(), PowerUp()) if x in legal))  # type: ignore[arg-type]
    assert illegal_rule(g2, P1, PowerUp(cards("2D 2H"), (), (card("KS"),))) == "PU-5"


# --- Bonecracker (7, During Combat) ---------------------------------------------------------------
def test_bonecracker_opponent_discards_a_card_of_his_choice__AB_3() -> None:
    """menelker.md, Card abilities (Bonecracker): his 7's throw throws the opponent: they reveal
    their hand and discard the card he names (an `ability` event with `cards`)."""
    g = recorded_game("7C 3C 4C 5C 6C 8C 9C", PLAIN, p1="menelker")
    fight(g, commit("7C", "throw"), commit("5D", "block"))
    assert g.actor is P1
    options = g.legal_actions(P1)
    assert UseAbility(BONECRACKER, None, (card("9D"),)) in options
    assert len(options) == 6  # Grave's hand without the block card
    assert illegal_rule(g, P1, UseAbility(BONECRACKER, None, (card("5D"),))) == "AB-3"
    assert illegal_rule(g, P1, UseAbility(BONECRACKER, None, cards("8D 9D"))) == "AB-3"
    assert illegal_rule(g, P2, Discard((card("2D"),))) == "AB-3"  # his choice, not Grave's
    g.apply(P1, UseAbility(BONECRACKER, None, (card("9D"),)))
    grave = g.state(P2)
    assert card("9D") in grave.discard and card("9D") not in grave.hand
    assert g.life[1] == 90 - 6


def test_bonecracker_only_on_his_7__AB_3() -> None:
    """menelker.md, Bonecracker is printed on the 7's throw end: his 8's throw does nothing."""
    g = recorded_game(MEN, PLAIN, p1="menelker")
    fight(g, commit("8C", "throw"), commit("5D", "block"))
    assert len(g.state(P2).hand) == 6
    assert not any(isinstance(a, UseAbility) for a in g.legal_actions(g.actor))  # type: ignore[arg-type]


def test_countered_bonecracker_does_nothing__CTR_3() -> None:
    """menelker.md, "Engine rulings": Bonecracker is a card ability: countered as it
    triggers (Grave's Mental Toughness), nothing is discarded."""
    g = recorded_game("7C 3C 4C 5C 6C 8C 9C", "2D 3D 4D 5D 6D TD QD", p1="menelker")
    fight(g, commit("7C", "throw"), commit("5D", "block"))
    assert g.actor is P2
    g.apply(P2, UseAbility("Mental Toughness", card("TD"), (card("QD"),)))
    grave = g.state(P2)
    assert _codes(grave.hand) == ["2D", "3D", "4D", "6D"]
    assert g.actor is not P1 or not any(isinstance(a, UseAbility) and a.ability == BONECRACKER
                                        for a in g.legal_actions(P1))


# --- Into Oblivion (10, Draw Phase) -------------------------------------------------------------
def _turn_two(grave: str = PLAIN, to_discard: str = "5S", men: str = "TC 3C 4C 5C 6C 8C 9C",
              ) -> Game:
    """Turn 2's draw-phase window; ``to_discard`` moved from Grave's deck to his discard."""
    g = recorded_game(men, grave, p1="menelker")
    grave_ps = g.state(P2)
    for c in cards(to_discard):
        grave_ps.deck.remove(c)
        grave_ps.discard.append(c)
    fight(g, NoCard(), NoCard())
    finish_turn(g, 1)
    todo = {P1: "JH", P2: "JD"}
    while todo:
        actor = g.actor
        draw(g, actor, todo.pop(actor))  # type: ignore[arg-type]
    return g


def test_into_oblivion_banishes_and_opponent_banishes_same_rank__AB_2() -> None:
    """menelker.md, Card abilities (Into Oblivion): banish a card of the opponent's discard
    pile; they banish another of that rank from hand or deck (their choice) and shuffle."""
    g = _turn_two()
    assert g.actor is P1
    play = UseAbility(OBLIVION, card("TC"), (card("5S"),))
    assert play in g.legal_actions(P1)
    g.apply(P1, play)
    assert g.actor is P2
    options = g.legal_actions(P2)
    assert {a.cards[0].code for a in options if isinstance(a, UseAbility)} == {"5D", "5C", "5H"}
    assert illegal_rule(g, P2, UseAbility(OBLIVION, None, (card("6D"),))) == "AB-2"
    g.apply(P2, UseAbility(OBLIVION, None, (card("5H"),)))
    grave = g.state(P2)
    assert _codes(grave.banished) == ["5H", "5S"]
    assert card("5S") not in grave.discard and card("5H") not in grave.deck
    assert card("TC") in g.state(P1).discard
    for viewer in (P1, P2, None):
        view = g.public_view(viewer)["players"]["P2"]  # type: ignore[index]
        assert view["banished"] == ["5S", "5H"]  # public (GEN-9)


def test_into_oblivion_from_hand_and_joker_and_nothing_left() -> None:
    """menelker.md, "Engine rulings": one qualifying card needs no choice (from hand here);
    a Joker's "same rank" is the other Joker; with none left nothing more is banished."""
    g = _turn_two(grave="2D 3D 4D 5D 6D 8D X2", to_discard="X1")
    g.apply(P1, UseAbility(OBLIVION, card("TC"), (card("X1"),)))
    assert _codes(g.state(P2).banished) == ["X1", "X2"] and g.step == "C1"  # no decision
    g = _turn_two(to_discard="7C 7D 7H 7S")
    g.apply(P1, UseAbility(OBLIVION, card("TC"), (card("7S"),)))
    assert _codes(g.state(P2).banished) == ["7S"] and g.actor is not P2


def test_into_oblivion_illegal_uses__AB_2() -> None:
    """menelker.md, Into Oblivion: a 10 from his hand; a card in the opponent's discard pile;
    not playable with the opponent's discard pile empty; Draw Phase only (WIN-DRAW)."""
    g = _turn_two()
    assert illegal_rule(g, P1, UseAbility(OBLIVION, card("9C"), (card("5S"),))) == "AB-2"
    assert illegal_rule(g, P1, UseAbility(OBLIVION, card("TH"), (card("5S"),))) == "AB-2"
    assert illegal_rule(g, P1, UseAbility(OBLIVION, card("TC"), (card("5C"),))) == "AB-2"
    assert illegal_rule(g, P1, UseAbility(OBLIVION, card("TC"))) == "AB-2"
    assert illegal_rule(g, P1, UseAbility("Bonecracker", card("TC"))) == "AB-2"
    g = _turn_two(to_discard="")
    assert g.step == "C1"  # nothing to banish: no window decision at all
    assert illegal_rule(g, P1, UseAbility(OBLIVION, card("TC"), (card("5S"),))) != ""
    rules = IMPLEMENTED["menelker"](g.state(P1).character)
    from rules_engine.errors import RuleViolation
    with pytest.raises(RuleViolation) as why:
        rules.check(g, g.state(P1), "combat_reveal",
                    UseAbility(OBLIVION, card("TC"), (card("5S"),)))
    assert why.value.rule_id == "WIN-DRAW"


def test_countered_into_oblivion_banishes_nothing__CTR_3() -> None:
    g = _turn_two(grave="2D 3D 4D 5D 6D TD QD")
    g.apply(P1, UseAbility(OBLIVION, card("TC"), (card("5S"),)))
    g.apply(P2, UseAbility("Mental Toughness", card("TD"), (card("QD"),)))
    assert g.state(P2).banished == [] and card("5S") in g.state(P2).discard
    assert card("TC") in g.state(P1).discard


# --- bots, registry and self-play ---------------------------------------------------------------
def test_greedy_into_oblivion_only_for_an_ace() -> None:
    """MenelkerRules' greedy heuristic (class docstring; after the Training bot's)."""
    g = _turn_two()
    assert GreedyBot().choose(g, P1, g.legal_actions(P1)) == Pass()
    g = _turn_two(to_discard="5S AS")
    assert GreedyBot().choose(g, P1, g.legal_actions(P1)) == UseAbility(
        OBLIVION, card("TC"), (card("AS"),))


def test_greedy_bonecracker_takes_a_joker_and_power_up_prefers_black_face_cards() -> None:
    g = recorded_game("7C 3C 4C 5C 6C 8C 9C", "2D 3D 4D 5D 6D X1 AD", p1="menelker")
    fight(g, commit("7C", "throw"), commit("5D", "block"))
    assert GreedyBot().choose(g, P1, g.legal_actions(P1)) == UseAbility(
        BONECRACKER, None, (card("X1"),))
    g = recorded_game("2C 2S 4C 5C 6C 8C 9C", PLAIN, p1="menelker")
    fight(g, NoCard(), NoCard())
    _to_power_up(g)
    pick = GreedyBot().choose(g, P1, g.legal_actions(P1))
    assert isinstance(pick, PowerUp) and len(pick.from_deck) == 1
    assert pick.from_deck[0].rank is not None and pick.from_deck[0].rank.is_face


def test_menelker_is_registered() -> None:
    assert abilities_implemented("menelker") and "menelker" in IMPLEMENTED


@pytest.mark.parametrize("opponent", sorted(characters()))
def test_self_play_against_every_character_replays_legal(opponent: str) -> None:
    """Issue 14: Menelker against each of the 20 (both seats, random and greedy bots)."""
    helpers.assert_self_play_replays_legal("menelker", opponent, first_seed=14)
